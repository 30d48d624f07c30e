//! Minimising a ranking loss with argmin's L-BFGS (More-Thuente line search).
//!
//! Objective: mean over decisions of the decision loss, plus `l2 / 2 * |w|^2`, in standardised
//! feature units. Cost and gradient are computed in parallel over decisions (rayon), each worker
//! summing into its own gradient buffer.

use argmin::core::observers::{Observe, ObserverMode};
use argmin::core::{CostFunction, Error, Executor, Gradient, State, KV};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;
use rayon::prelude::*;

use super::data::RankingData;
use super::loss::{decision_loss, LossParams};

/// Decisions per parallel work item.
const CHUNK: usize = 4096;

/// The objective over a subset of decisions of a [`RankingData`].
pub struct Objective<'a> {
    pub data: &'a RankingData,
    pub decisions: &'a [u32],
    pub params: LossParams,
    pub l2: f64,
    /// 1 / std per feature.
    pub scale: &'a [f64],
}

impl Objective<'_> {
    /// Loss and gradient at `w`.
    pub fn eval(&self, w: &[f64]) -> (f64, Vec<f64>) {
        let n = self.data.n_features;
        // Fixed chunks and an in-order sum make the result independent of the thread count, so
        // the same data and seed always give the same weights file.
        let parts: Vec<(f64, Vec<f64>)> = self
            .decisions
            .par_chunks(CHUNK)
            .map(|ds| {
                let mut grad = vec![0.0; n];
                let mut loss = 0.0;
                let mut z = Vec::new();
                let mut g = Vec::new();
                for &d in ds {
                    let rows = self.data.decision_rows(d as usize);
                    z.clear();
                    z.extend(rows.clone().map(|r| self.data.row_dot(r, w, self.scale)));
                    g.resize(z.len(), 0.0);
                    loss += decision_loss(&self.params, &z, &mut g);
                    for (r, &gj) in rows.zip(&g) {
                        if gj == 0.0 {
                            continue;
                        }
                        let (a, b) = (self.data.row_ptr[r] as usize, self.data.row_ptr[r + 1] as usize);
                        for k in a..b {
                            let c = self.data.cols[k] as usize;
                            grad[c] += gj * self.scale[c] * self.data.vals[k] as f64;
                        }
                    }
                }
                (loss, grad)
            })
            .collect();
        let mut loss = 0.0;
        let mut grad = vec![0.0; n];
        for (l, g) in parts {
            loss += l;
            for (x, y) in grad.iter_mut().zip(g) {
                *x += y;
            }
        }
        let m = self.decisions.len().max(1) as f64;
        let mut total = loss / m;
        for (gi, wi) in grad.iter_mut().zip(w) {
            *gi = *gi / m + self.l2 * wi;
            total += 0.5 * self.l2 * wi * wi;
        }
        (total, grad)
    }
}

impl CostFunction for Objective<'_> {
    type Param = Vec<f64>;
    type Output = f64;
    fn cost(&self, w: &Self::Param) -> Result<f64, Error> {
        Ok(self.eval(w).0)
    }
}

impl Gradient for Objective<'_> {
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;
    fn gradient(&self, w: &Self::Param) -> Result<Vec<f64>, Error> {
        Ok(self.eval(w).1)
    }
}

/// Records the cost after every iteration (the loss curve).
#[derive(Default, Clone)]
struct Curve(std::sync::Arc<std::sync::Mutex<Vec<f64>>>);

impl<I: State<Float = f64>> Observe<I> for Curve {
    fn observe_iter(&mut self, state: &I, _kv: &KV) -> Result<(), Error> {
        self.0.lock().expect("curve lock").push(state.get_cost());
        Ok(())
    }
}

/// Result of one L-BFGS run.
pub struct Trained {
    /// Weights in standardised units.
    pub w_std: Vec<f64>,
    /// Objective after each iteration.
    pub curve: Vec<f64>,
    pub iterations: u64,
}

/// Runs L-BFGS from `init` for at most `max_iters` iterations.
pub fn minimise(obj: Objective<'_>, init: Vec<f64>, max_iters: u64) -> Result<Trained, Error> {
    let linesearch = MoreThuenteLineSearch::new();
    let solver = LBFGS::new(linesearch, 10).with_tolerance_grad(1e-7)?.with_tolerance_cost(1e-10)?;
    let curve = Curve::default();
    let res = Executor::new(obj, solver)
        .configure(|s| s.param(init).max_iters(max_iters))
        .add_observer(curve.clone(), ObserverMode::Always)
        .run()?;
    let state = res.state();
    let w_std = state.get_best_param().cloned().unwrap_or_default();
    let iterations = state.get_iter();
    let curve = curve.0.lock().expect("curve lock").clone();
    Ok(Trained { w_std, curve, iterations })
}

use crate::model::metrics::TIE_EPS;
pub use crate::model::metrics::{Agreement, AgreementSum};

/// Agreement of weights `w_std` (standardised units) on a subset of decisions.
pub fn agreement(data: &RankingData, decisions: &[u32], w_std: &[f64], scale: &[f64]) -> Agreement {
    let parts: Vec<AgreementSum> = decisions
        .par_chunks(CHUNK)
        .map(|ds| {
            let mut acc = AgreementSum::default();
            for &d in ds {
                let (mut better, mut ties) = (0, 0);
                for r in data.decision_rows(d as usize) {
                    let z = data.row_dot(r, w_std, scale);
                    if z > TIE_EPS {
                        better += 1;
                    } else if z >= -TIE_EPS {
                        ties += 1;
                    }
                }
                acc.add(better, ties);
            }
            acc
        })
        .collect();
    parts.into_iter().fold(AgreementSum::default(), AgreementSum::merge).finish()
}

#[cfg(test)]
mod tests {
    use super::super::loss::Loss;
    use super::*;

    /// Deterministic pseudo-random numbers for synthetic data (no dependency needed).
    fn lcg(state: &mut u64) -> f64 {
        *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((*state >> 11) as f64) / ((1u64 << 53) as f64)
    }

    /// Decisions whose chosen option is the argmax of a planted weight vector: every loss must
    /// learn a ranking that recovers the choices far better than chance.
    #[test]
    fn recovers_planted_ranking() {
        let truth = [2.0, -1.0, 0.0, 0.5];
        let mut data = RankingData::new(4);
        let mut s = 7u64;
        for _ in 0..400 {
            let rows: Vec<Vec<f32>> =
                (0..5).map(|_| (0..4).map(|_| (lcg(&mut s) * 10.0) as f32).collect()).collect();
            let score = |r: &Vec<f32>| r.iter().zip(&truth).map(|(&x, &w)| x as f64 * w).sum::<f64>();
            let chosen = (0..5).max_by(|&a, &b| score(&rows[a]).total_cmp(&score(&rows[b]))).unwrap();
            let refs: Vec<&[f32]> = rows.iter().map(|r| r.as_slice()).collect();
            data.push(&refs, chosen);
        }
        let all: Vec<u32> = (0..data.decisions() as u32).collect();
        let scale: Vec<f64> = data.moments.std().iter().map(|s| 1.0 / s).collect();
        let zero = vec![0.0; 4];
        let base = agreement(&data, &all, &zero, &scale);
        // all-zero weights: every option ties, top-1 is 1/5 by random tie-break
        assert!((base.top1 - 0.2).abs() < 1e-9);
        for loss in [Loss::Hinge, Loss::Logistic, Loss::Softmax] {
            let params = LossParams { loss, margin: 1.0, smoothing: 0.1 };
            let obj = Objective { data: &data, decisions: &all, params, l2: 1e-4, scale: &scale };
            let t = minimise(obj, vec![0.0; 4], 200).unwrap();
            let a = agreement(&data, &all, &t.w_std, &scale);
            assert!(a.top1 > 0.9, "{loss:?}: top1 {}", a.top1);
            assert!(t.curve.first() >= t.curve.last(), "{loss:?} loss went up");
            // the learnt direction puts the largest weight on feature 0, as planted
            let w: Vec<f64> = t.w_std.iter().zip(&scale).map(|(w, s)| w * s).collect();
            assert!(w[0] > 0.0 && w[1] < 0.0 && w[0] > w[3], "{loss:?}: {w:?}");
        }
    }

    #[test]
    fn agreement_counts_ties_fairly() {
        let mut a = AgreementSum::default();
        a.add(0, 0); // clear first
        a.add(0, 1); // tied with one other: half a top-1
        a.add(3, 0); // fourth
        let r = a.finish();
        assert!((r.top1 - 0.5).abs() < 1e-12);
        assert!((r.top3 - 2.0 / 3.0).abs() < 1e-12);
        assert!((r.mean_rank - (1.0 + 1.5 + 4.0) / 3.0).abs() < 1e-12);
    }
}
