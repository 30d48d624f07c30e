//! Ranking losses over one decision, as functions of `z_j = s_j - s_chosen` for each non-chosen
//! option `j`. All are convex in the weights.

use crate::model::weights::{Loss, LossParams};

#[inline]
fn softplus(x: f64) -> f64 {
    if x > 30.0 {
        x
    } else {
        x.exp().ln_1p()
    }
}

#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Loss of one decision and `dL/dz_j` written into `grad` (same length as `z`).
pub fn decision_loss(p: &LossParams, z: &[f64], grad: &mut [f64]) -> f64 {
    match p.loss {
        Loss::Hinge => {
            let h = p.smoothing.max(1e-9);
            let mut total = 0.0;
            for (g, &zj) in grad.iter_mut().zip(z) {
                let u = p.margin + zj;
                let (l, d) = if u <= 0.0 {
                    (0.0, 0.0)
                } else if u < h {
                    (u * u / (2.0 * h), u / h)
                } else {
                    (u - h / 2.0, 1.0)
                };
                total += l;
                *g = d;
            }
            total
        }
        Loss::Logistic => {
            let mut total = 0.0;
            for (g, &zj) in grad.iter_mut().zip(z) {
                total += softplus(zj);
                *g = sigmoid(zj);
            }
            total
        }
        Loss::Softmax => {
            // log(1 + Σ exp z_j), computed stably with the max (including the chosen's 0).
            let m = z.iter().copied().fold(0.0f64, f64::max);
            let denom = (-m).exp() + z.iter().map(|&zj| (zj - m).exp()).sum::<f64>();
            for (g, &zj) in grad.iter_mut().zip(z) {
                *g = (zj - m).exp() / denom;
            }
            m + denom.ln()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numeric_grad(p: &LossParams, z: &[f64]) -> Vec<f64> {
        let eps = 1e-6;
        (0..z.len())
            .map(|i| {
                let mut a = z.to_vec();
                let mut b = z.to_vec();
                a[i] += eps;
                b[i] -= eps;
                let mut g = vec![0.0; z.len()];
                (decision_loss(p, &a, &mut g) - decision_loss(p, &b, &mut g)) / (2.0 * eps)
            })
            .collect()
    }

    #[test]
    fn gradients_match_finite_differences() {
        let z = [-1.3, 0.02, 0.4, 2.5];
        for loss in [Loss::Hinge, Loss::Logistic, Loss::Softmax] {
            let p = LossParams { loss, margin: 0.1, smoothing: 0.5 };
            let mut g = vec![0.0; z.len()];
            decision_loss(&p, &z, &mut g);
            for (a, b) in g.iter().zip(numeric_grad(&p, &z)) {
                assert!((a - b).abs() < 1e-5, "{loss:?}: {a} vs {b}");
            }
        }
    }

    #[test]
    fn known_values() {
        let mut g = [0.0; 2];
        // hinge margin 0, smoothing tiny: max(0, z) summed = 0 + 2
        let p = LossParams { loss: Loss::Hinge, margin: 0.0, smoothing: 1e-9 };
        assert!((decision_loss(&p, &[-1.0, 2.0], &mut g) - 2.0).abs() < 1e-6);
        // softmax with z = (0, 0): log(1 + 2) = ln 3
        let p = LossParams { loss: Loss::Softmax, margin: 0.0, smoothing: 0.0 };
        assert!((decision_loss(&p, &[0.0, 0.0], &mut g) - 3f64.ln()).abs() < 1e-12);
        assert!((g[0] - 1.0 / 3.0).abs() < 1e-12);
        // logistic: 2 ln 2 at z = 0
        let p = LossParams { loss: Loss::Logistic, margin: 0.0, smoothing: 0.0 };
        assert!((decision_loss(&p, &[0.0, 0.0], &mut g) - 2.0 * 2f64.ln()).abs() < 1e-12);
    }
}
