//! Ranking losses over one decision, as functions of `z_j = s_j - s_chosen` for each non-chosen
//! option `j`. All are convex in the weights.

use crate::model::weights::{Loss, LossParams, Pairs};

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

/// Huberised hinge `max(0, u)` with a quadratic piece of width `h` at the kink: (loss, d/du).
#[inline]
fn smooth_hinge(u: f64, h: f64) -> (f64, f64) {
    if u <= 0.0 {
        (0.0, 0.0)
    } else if u < h {
        (u * u / (2.0 * h), u / h)
    } else {
        (u - h / 2.0, 1.0)
    }
}

/// Each pair's weight under [`Pairs::Ranked`]: the not-chosen options' softmax shares of the
/// decision at the anchor scores `z0` (the round's starting weights), written into `shares`.
/// They sum to 1, so a decision weighs 1 whatever its size; all-equal anchors (the first round,
/// from zero weights) give `1 / (n − 1)` each, the per-decision weighting.
pub fn rank_shares(z0: &[f64], shares: &mut Vec<f64>) {
    shares.clear();
    let m = z0.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    shares.extend(z0.iter().map(|&z| (z - m).exp()));
    let total: f64 = shares.iter().sum();
    for s in shares.iter_mut() {
        *s /= total;
    }
}

/// Loss of one decision and `dL/dz_j` written into `grad` (same length as `z`).
///
/// The pairwise losses are sums over the decision's `n − 1` pairs; with [`Pairs::PerDecision`]
/// each pair counts `1 / (n − 1)`, so a decision with 14 options weighs what one with 2 does, and
/// with [`Pairs::Ranked`] pair `j` counts `shares[j]` (from [`rank_shares`]; ignored otherwise).
/// [`Loss::Seed`] is the seed's raw sum at margin 0 whatever `p.pairs` and `p.margin` say.
pub fn decision_loss(p: &LossParams, z: &[f64], shares: &[f64], grad: &mut [f64]) -> f64 {
    let uniform = match p.pairs {
        Pairs::PerDecision if !z.is_empty() => 1.0 / z.len() as f64,
        _ => 1.0,
    };
    let weight = |j: usize| if p.pairs == Pairs::Ranked { shares[j] } else { uniform };
    let per_pair = |f: &dyn Fn(f64) -> (f64, f64), weight: &dyn Fn(usize) -> f64, grad: &mut [f64]| {
        let mut total = 0.0;
        for (j, (g, &zj)) in grad.iter_mut().zip(z).enumerate() {
            let (l, d) = f(zj);
            let w = weight(j);
            total += w * l;
            *g = w * d;
        }
        total
    };
    let h = p.smoothing.max(1e-9);
    match p.loss {
        Loss::Hinge => per_pair(&|zj| smooth_hinge(p.margin + zj, h), &weight, grad),
        Loss::Seed => per_pair(&|zj| smooth_hinge(zj, h), &|_| 1.0, grad),
        Loss::Logistic => per_pair(&|zj| (softplus(zj), sigmoid(zj)), &weight, grad),
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

    fn numeric_grad(p: &LossParams, z: &[f64], shares: &[f64]) -> Vec<f64> {
        let eps = 1e-6;
        (0..z.len())
            .map(|i| {
                let mut a = z.to_vec();
                let mut b = z.to_vec();
                a[i] += eps;
                b[i] -= eps;
                let mut g = vec![0.0; z.len()];
                (decision_loss(p, &a, shares, &mut g) - decision_loss(p, &b, shares, &mut g)) / (2.0 * eps)
            })
            .collect()
    }

    #[test]
    fn gradients_match_finite_differences() {
        let z = [-1.3, 0.02, 0.4, 2.5];
        let shares = [0.1, 0.2, 0.3, 0.4];
        for loss in [Loss::Hinge, Loss::Logistic, Loss::Softmax, Loss::Seed] {
            for pairs in [Pairs::Sum, Pairs::PerDecision, Pairs::Ranked] {
                let p = LossParams { loss, margin: 0.1, smoothing: 0.5, pairs, rounds: 1 };
                let mut g = vec![0.0; z.len()];
                decision_loss(&p, &z, &shares, &mut g);
                for (a, b) in g.iter().zip(numeric_grad(&p, &z, &shares)) {
                    assert!((a - b).abs() < 1e-5, "{loss:?} {pairs:?}: {a} vs {b}");
                }
            }
        }
    }

    #[test]
    fn known_values() {
        let mut g = [0.0; 2];
        // hinge margin 0, smoothing tiny: max(0, z) summed = 0 + 2
        let p = LossParams { loss: Loss::Hinge, margin: 0.0, smoothing: 1e-9, pairs: Pairs::Sum, rounds: 1 };
        assert!((decision_loss(&p, &[-1.0, 2.0], &[], &mut g) - 2.0).abs() < 1e-6);
        // softmax with z = (0, 0): log(1 + 2) = ln 3
        let p = LossParams { loss: Loss::Softmax, margin: 0.0, smoothing: 0.0, pairs: Pairs::Sum, rounds: 1 };
        assert!((decision_loss(&p, &[0.0, 0.0], &[], &mut g) - 3f64.ln()).abs() < 1e-12);
        assert!((g[0] - 1.0 / 3.0).abs() < 1e-12);
        // logistic: 2 ln 2 at z = 0
        let p =
            LossParams { loss: Loss::Logistic, margin: 0.0, smoothing: 0.0, pairs: Pairs::Sum, rounds: 1 };
        assert!((decision_loss(&p, &[0.0, 0.0], &[], &mut g) - 2.0 * 2f64.ln()).abs() < 1e-12);
    }

    /// The seed's loss by hand: options scored 3, 1, 2 (in shanten steps) and the chosen one 2,
    /// so z = (1, −1, 0): max(0, 1) + max(0, −1) + max(0, 0) = 1, gradient (1, 0, 0); margin and
    /// pair weighting are the seed's whatever the params say.
    #[test]
    fn seed_loss_is_the_raw_hinge_at_margin_zero() {
        let mut g = [9.0; 3];
        let p = LossParams {
            loss: Loss::Seed,
            margin: 5.0,
            smoothing: 1e-9,
            pairs: Pairs::PerDecision,
            rounds: 1,
        };
        assert!((decision_loss(&p, &[1.0, -1.0, 0.0], &[], &mut g) - 1.0).abs() < 1e-6);
        assert_eq!(g, [1.0, 0.0, 0.0]);
        // all options scored alike (the all-zero weights): no loss at all, the trivial minimum
        // the pinned shanten weight removes
        assert_eq!(decision_loss(&p, &[0.0; 3], &[], &mut g), 0.0);
        // a hinge at margin 1 on the same z: (2) + (0) + (1) = 3
        let p = LossParams { loss: Loss::Hinge, margin: 1.0, smoothing: 1e-9, pairs: Pairs::Sum, rounds: 1 };
        assert!((decision_loss(&p, &[1.0, -1.0, 0.0], &[], &mut g) - 3.0).abs() < 1e-6);
    }

    /// Per-decision weighting by hand: logistic at z = (0, 0, 0) is 3 ln 2 summed, ln 2 with each
    /// of the 3 pairs counting 1/3 (gradient 1/2 · 1/3 each); a 2-option decision's ln 2 is the
    /// same either way; softmax ignores the setting.
    #[test]
    fn per_decision_weighting_counts_each_decision_once() {
        let mut g = [0.0; 3];
        let ln2 = 2f64.ln();
        let p = |loss, pairs| LossParams { loss, margin: 0.0, smoothing: 0.1, pairs, rounds: 1 };
        let sum = decision_loss(&p(Loss::Logistic, Pairs::Sum), &[0.0; 3], &[], &mut g);
        assert!((sum - 3.0 * ln2).abs() < 1e-12);
        assert!((g[0] - 0.5).abs() < 1e-12);
        let once = decision_loss(&p(Loss::Logistic, Pairs::PerDecision), &[0.0; 3], &[], &mut g);
        assert!((once - ln2).abs() < 1e-12);
        assert!((g[2] - 0.5 / 3.0).abs() < 1e-12);
        let mut g1 = [0.0; 1];
        assert!(
            (decision_loss(&p(Loss::Logistic, Pairs::PerDecision), &[0.0], &[], &mut g1) - ln2).abs() < 1e-12
        );
        // hinge margin 1, z = (−0.5, 1): (0.5 + 2) summed with smoothing ~0; halved per decision
        let h = LossParams {
            loss: Loss::Hinge,
            margin: 1.0,
            smoothing: 1e-9,
            pairs: Pairs::PerDecision,
            rounds: 1,
        };
        assert!((decision_loss(&h, &[-0.5, 1.0], &[], &mut g[..2]) - 1.25).abs() < 1e-6);
        let s1 = decision_loss(&p(Loss::Softmax, Pairs::Sum), &[0.0; 3], &[], &mut g);
        let s2 = decision_loss(&p(Loss::Softmax, Pairs::PerDecision), &[0.0; 3], &[], &mut g);
        assert_eq!(s1, s2);
        assert!((s1 - 4f64.ln()).abs() < 1e-12);
    }

    /// Ranked pair weights by hand: anchors (0, ln 3) give shares (1/4, 3/4), whatever constant
    /// is added; equal anchors give the per-decision 1/(n − 1); the logistic at z = (0, 0) then
    /// weighs ln 2 by 1/4 and 3/4 (total ln 2, one decision) with gradients 1/8 and 3/8.
    #[test]
    fn ranked_pairs_weigh_the_rivals_by_their_share_of_the_ranking() {
        let mut shares = Vec::new();
        rank_shares(&[0.0, 3f64.ln()], &mut shares);
        assert!((shares[0] - 0.25).abs() < 1e-12 && (shares[1] - 0.75).abs() < 1e-12, "{shares:?}");
        rank_shares(&[700.0, 700.0 + 3f64.ln()], &mut shares);
        assert!((shares[1] - 0.75).abs() < 1e-12, "large anchors overflow: {shares:?}");
        rank_shares(&[2.0; 4], &mut shares);
        assert_eq!(shares, vec![0.25; 4]);
        let p =
            LossParams { loss: Loss::Logistic, margin: 0.0, smoothing: 0.1, pairs: Pairs::Ranked, rounds: 3 };
        let mut g = [0.0; 2];
        let l = decision_loss(&p, &[0.0, 0.0], &[0.25, 0.75], &mut g);
        assert!((l - 2f64.ln()).abs() < 1e-12);
        assert!((g[0] - 0.125).abs() < 1e-12 && (g[1] - 0.375).abs() < 1e-12, "{g:?}");
        // equal shares are the per-decision weighting exactly
        let pd = LossParams { pairs: Pairs::PerDecision, ..p };
        let z = [0.3, -1.2, 2.0];
        let (mut g1, mut g2) = ([0.0; 3], [0.0; 3]);
        rank_shares(&[0.0; 3], &mut shares);
        let a = decision_loss(&p, &z, &shares, &mut g1);
        let b = decision_loss(&pd, &z, &[], &mut g2);
        assert!((a - b).abs() < 1e-15 && g1.iter().zip(&g2).all(|(x, y)| (x - y).abs() < 1e-15));
    }
}
