//! Minimising a ranking loss with argmin's L-BFGS (More-Thuente line search).
//!
//! Objective: mean over decisions of the decision loss, plus `l2 / 2 * |w|^2`, in standardised
//! feature units. Cost and gradient are computed in parallel over the store's chunks, each worker
//! summing into its own gradient buffer.

use argmin::core::observers::{Observe, ObserverMode};
use argmin::core::{CostFunction, Error, Executor, Gradient, State, KV};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;

use super::data::scaled;
use super::error::FitError;
use super::loss::{decision_loss, rank_shares};
use super::store::Store;

/// The last point evaluated, with its cost and gradient.
type LastPoint = Option<(Vec<f64>, f64, Vec<f64>)>;

/// The objective over the decisions of a [`Store`].
///
/// argmin asks for the cost and the gradient separately: the More-Thuente line search calls
/// `cost` then `gradient` at each trial point and L-BFGS asks again for the gradient at the point
/// it accepts. Each pass over the data computes both, and the last point's (cost, gradient) is
/// kept, so every point costs one pass (see [`Objective::passes`]).
pub struct Objective<'a> {
    pub data: &'a Store,
    pub params: LossParams,
    pub l2: f64,
    /// 1 / std per feature.
    pub scale: &'a [f64],
    /// Columns whose weight stays where it starts (gradient 0, no L2): the seed's pinned scale.
    frozen: Vec<usize>,
    /// The round's starting weights (standardised units) whose ranking gives the pair weights of
    /// [`Pairs::Ranked`]; all-zero (equal shares) until [`Objective::anchored_at`] sets them.
    anchor: Option<Vec<f64>>,
    last: std::sync::Mutex<LastPoint>,
    passes: std::sync::atomic::AtomicU64,
}

impl<'a> Objective<'a> {
    pub fn new(data: &'a Store, params: LossParams, l2: f64, scale: &'a [f64]) -> Self {
        let (last, passes) = Default::default();
        Objective { data, params, l2, scale, frozen: Vec::new(), anchor: None, last, passes }
    }

    /// The same objective with the weights of `columns` held fixed at their starting values: their
    /// gradient is 0, so L-BFGS (whose steps are combinations of gradients) never moves them.
    pub fn with_frozen(mut self, columns: Vec<usize>) -> Self {
        self.frozen = columns;
        self
    }

    /// The same objective with [`Pairs::Ranked`]'s pair weights taken from the ranking at `w_std`
    /// (held fixed for the whole run, so L-BFGS minimises one function).
    pub fn anchored_at(mut self, w_std: &[f64]) -> Self {
        self.anchor = Some(scaled(w_std, self.scale));
        self
    }

    /// Passes over the data so far.
    pub fn passes(&self) -> u64 {
        self.passes.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Loss and gradient at `w`, from the cache when `w` is the last point evaluated.
    pub fn eval(&self, w: &[f64]) -> Result<(f64, Vec<f64>), FitError> {
        let mut last = self.last.lock().expect("objective cache lock");
        if let Some((lw, l, g)) = last.as_ref() {
            if lw.as_slice() == w {
                return Ok((*l, g.clone()));
            }
        }
        let (l, g) = self.pass(w)?;
        *last = Some((w.to_vec(), l, g.clone()));
        Ok((l, g))
    }

    /// One pass over the data: loss and gradient at `w`.
    fn pass(&self, w: &[f64]) -> Result<(f64, Vec<f64>), FitError> {
        self.passes.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let n = w.len();
        let ws = scaled(w, self.scale);
        // Per-chunk sums added in chunk order: the result does not depend on the thread count or
        // on which chunks were spilled, so the same data and seed always give the same weights.
        let parts = self.data.map_chunks(|data| {
            let mut grad = vec![0.0; n];
            let mut loss = 0.0;
            let (mut z, mut g, mut z0, mut shares) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for d in 0..data.decisions() {
                let rows = data.decision_rows(d);
                z.clear();
                z.extend(rows.clone().map(|r| data.row_dot(d, r, &ws)));
                g.resize(z.len(), 0.0);
                if self.params.pairs == Pairs::Ranked {
                    z0.clear();
                    match &self.anchor {
                        Some(a) => z0.extend(rows.clone().map(|r| data.row_dot(d, r, a))),
                        None => z0.resize(z.len(), 0.0),
                    }
                    rank_shares(&z0, &mut shares);
                }
                loss += decision_loss(&self.params, &z, &shares, &mut g);
                for (r, &gj) in rows.zip(&g) {
                    if gj != 0.0 {
                        data.add_row(d, r, gj, &mut grad);
                    }
                }
            }
            (loss, grad)
        })?;
        let mut loss = 0.0;
        let mut grad = vec![0.0; n];
        for (l, g) in parts {
            loss += l;
            for (x, y) in grad.iter_mut().zip(g) {
                *x += y;
            }
        }
        let m = self.data.decisions().max(1) as f64;
        let mut total = loss / m;
        for ((gi, wi), si) in grad.iter_mut().zip(w).zip(self.scale) {
            *gi = *gi * si / m + self.l2 * wi;
            total += 0.5 * self.l2 * wi * wi;
        }
        for &k in &self.frozen {
            grad[k] = 0.0;
            total -= 0.5 * self.l2 * w[k] * w[k];
        }
        Ok((total, grad))
    }
}

impl CostFunction for Objective<'_> {
    type Param = Vec<f64>;
    type Output = f64;
    fn cost(&self, w: &Self::Param) -> Result<f64, Error> {
        Ok(self.eval(w).map_err(|e| Error::msg(crate::batch::error_text(&e)))?.0)
    }
}

impl Gradient for Objective<'_> {
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;
    fn gradient(&self, w: &Self::Param) -> Result<Vec<f64>, Error> {
        Ok(self.eval(w).map_err(|e| Error::msg(crate::batch::error_text(&e)))?.1)
    }
}

/// Records the cost after every iteration (the loss curve) and shows it on the progress bar;
/// every [`WATCH_EVERY`] iterations it hands the current weights to the validation watcher.
#[derive(Clone)]
struct Curve {
    costs: std::sync::Arc<std::sync::Mutex<Vec<f64>>>,
    bar: indicatif::ProgressBar,
    /// Validation top-1 last measured by the watcher, as text for the bar.
    top1: std::sync::Arc<std::sync::Mutex<String>>,
    watch: Option<std::sync::mpsc::SyncSender<Vec<f64>>>,
}

/// Iterations between two validation top-1 figures on the progress bar.
const WATCH_EVERY: u64 = 10;

impl<I: State<Float = f64, Param = Vec<f64>>> Observe<I> for Curve {
    fn observe_iter(&mut self, state: &I, _kv: &KV) -> Result<(), Error> {
        self.costs.lock().expect("curve lock").push(state.get_cost());
        let iter = state.get_iter();
        if let (Some(tx), Some(w)) = (&self.watch, state.get_param()) {
            if iter % WATCH_EVERY == 0 {
                // The watcher may still be busy: then this point is skipped, never waited for.
                let _ = tx.try_send(w.clone());
            }
        }
        self.bar.set_position(iter);
        let top1 = self.top1.lock().expect("top1 lock").clone();
        self.bar.set_message(format!("L-BFGS, objective {:.6}{top1}", state.get_cost()));
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
    /// Passes over the data (one per point evaluated: cost and gradient come together).
    pub passes: u64,
    /// Cost and gradient calls argmin made (each would have been a pass without the cache).
    pub calls: u64,
}

/// Runs L-BFGS from `init` for at most `max_iters` iterations.
pub fn minimise(obj: Objective<'_>, init: Vec<f64>, max_iters: u64) -> Result<Trained, Error> {
    minimise_watched(obj, init, max_iters, None)
}

/// [`minimise`], showing the top-1 agreement on `validation` (with the objective's scale) on the
/// progress bar every [`WATCH_EVERY`] iterations when the bar is visible. A separate thread
/// measures it from a copy of the weights, so the fit itself is unchanged.
pub fn minimise_watched(
    obj: Objective<'_>,
    init: Vec<f64>,
    max_iters: u64,
    validation: Option<&Store>,
) -> Result<Trained, Error> {
    let linesearch = MoreThuenteLineSearch::new();
    let solver = LBFGS::new(linesearch, 10).with_tolerance_grad(1e-7)?.with_tolerance_cost(1e-10)?;
    let bar = crate::batch::progress(max_iters as usize, "L-BFGS");
    let validation = validation.filter(|v| !bar.is_hidden() && !v.is_empty());
    let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<f64>>(1);
    let curve = Curve { costs: Default::default(), bar, top1: Default::default(), watch: None };
    let scale = obj.scale;
    let res = std::thread::scope(|scope| {
        let mut observer = curve.clone();
        if let Some(val) = validation {
            // The observer holds the only sender: the watcher ends when the run drops it.
            observer.watch = Some(tx);
            let top1 = curve.top1.clone();
            scope.spawn(move || {
                for w in rx {
                    if let Ok(a) = agreement(val, &w, scale) {
                        *top1.lock().expect("top1 lock") =
                            format!(", validation top-1 {:.1}%", a.top1 * 100.0);
                    }
                }
            });
        }
        Executor::new(obj, solver)
            .configure(|s| s.param(init).max_iters(max_iters))
            .add_observer(observer, ObserverMode::Always)
            .run()
    })?;
    let state = res.state();
    let w_std = state.get_best_param().cloned().unwrap_or_default();
    let iterations = state.get_iter();
    curve.bar.finish_and_clear();
    let curve = curve.costs.lock().expect("curve lock").clone();
    let problem = res.problem();
    let calls = problem.counts.values().sum();
    let passes = problem.problem.as_ref().map_or(0, Objective::passes);
    Ok(Trained { w_std, curve, iterations, passes, calls })
}

/// [`Pairs::Ranked`]'s rounds: `params.rounds` L-BFGS runs of at most `max_iters` iterations,
/// each warm-started from the last and with its pair weights taken from the ranking at its start
/// (the first from `init`). Any other loss is one run. The curves are joined, the counts summed.
pub fn minimise_rounds<'a>(
    obj: impl Fn() -> Objective<'a>,
    init: Vec<f64>,
    max_iters: u64,
    validation: Option<&Store>,
) -> Result<Trained, Error> {
    let first = obj();
    let rounds = if first.params.pairs == Pairs::Ranked { first.params.rounds.max(1) } else { 1 };
    let mut done = minimise_watched(first.anchored_at(&init), init, max_iters, validation)?;
    for _ in 1..rounds {
        let next =
            minimise_watched(obj().anchored_at(&done.w_std), done.w_std.clone(), max_iters, validation)?;
        done = Trained {
            w_std: next.w_std,
            curve: [done.curve, next.curve].concat(),
            iterations: done.iterations + next.iterations,
            passes: done.passes + next.passes,
            calls: done.calls + next.calls,
        };
    }
    Ok(done)
}

use crate::model::metrics::TIE_EPS;
use crate::model::metrics::{Agreement, AgreementSum};
use crate::model::weights::{LossParams, Pairs};

/// Agreement of weights `w_std` (standardised units) on the decisions of a store.
pub fn agreement(data: &Store, w_std: &[f64], scale: &[f64]) -> Result<Agreement, FitError> {
    let ws = scaled(w_std, scale);
    let parts = data.map_chunks(|chunk| {
        let mut acc = AgreementSum::default();
        for d in 0..chunk.decisions() {
            let (mut better, mut ties) = (0, 0);
            for r in chunk.decision_rows(d) {
                let z = chunk.row_dot(d, r, &ws);
                if z > TIE_EPS {
                    better += 1;
                } else if z >= -TIE_EPS {
                    ties += 1;
                }
            }
            acc.add(better, ties);
        }
        acc
    })?;
    Ok(parts.into_iter().fold(AgreementSum::default(), AgreementSum::merge).finish())
}

#[cfg(test)]
mod tests {
    use super::super::data::{Layout, Moments};
    use super::super::store::Budget;
    use super::*;
    use crate::model::weights::Loss;

    /// Deterministic pseudo-random numbers for synthetic data (no dependency needed).
    fn lcg(state: &mut u64) -> f64 {
        *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((*state >> 11) as f64) / ((1u64 << 53) as f64)
    }

    /// A decision's base option rows, chosen index and gate levels.
    type Decision = (Vec<Vec<f32>>, usize, Vec<u8>);

    /// A store and the feature moments of `decisions` (base rows, chosen, levels), spilled to
    /// `spill` when given (budget 0), else in memory.
    fn store(layout: Layout, decisions: &[Decision], spill: Option<&std::path::Path>) -> (Store, Moments) {
        let layout = std::sync::Arc::new(layout);
        let mut budget =
            Budget::new(if spill.is_some() { 0 } else { usize::MAX }, spill.unwrap_or(".".as_ref()));
        let mut st = Store::new(layout.clone());
        let mut m = Moments::for_layout(&layout);
        for (rows, c, lv) in decisions {
            let refs: Vec<&[f32]> = rows.iter().map(|r| r.as_slice()).collect();
            if st.push(&refs, *c, lv, &mut budget).unwrap() {
                m.push(&layout, &refs, lv);
            }
        }
        st.finish(&mut budget).unwrap();
        (st, m)
    }

    /// Decisions whose chosen option is the argmax of a planted weight vector: every loss must
    /// learn a ranking that recovers the choices far better than chance.
    #[test]
    fn recovers_planted_ranking() {
        let truth = [2.0, -1.0, 0.0, 0.5];
        let mut decisions = Vec::new();
        let mut s = 7u64;
        for _ in 0..400 {
            let rows: Vec<Vec<f32>> =
                (0..5).map(|_| (0..4).map(|_| (lcg(&mut s) * 10.0) as f32).collect()).collect();
            let score = |r: &Vec<f32>| r.iter().zip(&truth).map(|(&x, &w)| x as f64 * w).sum::<f64>();
            let chosen = (0..5).max_by(|&a, &b| score(&rows[a]).total_cmp(&score(&rows[b]))).unwrap();
            decisions.push((rows, chosen, vec![]));
        }
        let (data, moments) = store(Layout::identity(4), &decisions, None);
        let scale: Vec<f64> = moments.std().iter().map(|s| 1.0 / s).collect();
        let zero = vec![0.0; 4];
        let base = agreement(&data, &zero, &scale).unwrap();
        // all-zero weights: every option ties, top-1 is 1/5 by random tie-break
        assert!((base.top1 - 0.2).abs() < 1e-9);
        for (loss, pairs) in [
            (Loss::Hinge, Pairs::PerDecision),
            (Loss::Logistic, Pairs::PerDecision),
            (Loss::Softmax, Pairs::Sum),
            (Loss::Logistic, Pairs::Ranked),
        ] {
            let params = LossParams { loss, margin: 1.0, smoothing: 0.1, pairs, rounds: 2 };
            let obj = || Objective::new(&data, params, 1e-4, &scale);
            let t = minimise_rounds(obj, vec![0.0; 4], 200, None).unwrap();
            let a = agreement(&data, &t.w_std, &scale).unwrap();
            assert!(a.top1 > 0.9, "{loss:?}: top1 {}", a.top1);
            assert!(t.curve.first() >= t.curve.last(), "{loss:?} loss went up");
            assert!(t.passes < t.calls, "{loss:?}: {} passes for {} calls", t.passes, t.calls);
            // the learnt direction puts the largest weight on feature 0, as planted
            let w: Vec<f64> = t.w_std.iter().zip(&scale).map(|(w, s)| w * s).collect();
            assert!(w[0] > 0.0 && w[1] < 0.0 && w[0] > w[3], "{loss:?}: {w:?}");
        }
    }

    /// A fit whose chunks are all spilled to disk and streamed back gives exactly the weights of
    /// the same fit held in memory (three chunks, so the chunk order matters).
    #[test]
    fn streaming_and_in_memory_fits_give_the_same_weights() {
        let mut s = 9u64;
        let decisions: Vec<Decision> = (0..2 * super::super::store::CHUNK + 300)
            .map(|i| {
                let rows: Vec<Vec<f32>> = (0..2 + i % 3)
                    .map(|_| (0..4).map(|_| (lcg(&mut s) * 8.0).floor() as f32).collect())
                    .collect();
                let chosen = (0..rows.len())
                    .max_by(|&a, &b| (rows[a][0] - rows[a][1]).total_cmp(&(rows[b][0] - rows[b][1])))
                    .unwrap();
                (rows, chosen, vec![])
            })
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let (mem, m1) = store(Layout::identity(4), &decisions, None);
        let (disk, m2) = store(Layout::identity(4), &decisions, Some(dir.path()));
        assert_eq!(m1.sum, m2.sum);
        let scale: Vec<f64> = m1.std().iter().map(|s| 1.0 / s).collect();
        let params =
            LossParams { loss: Loss::Softmax, margin: 0.0, smoothing: 0.0, pairs: Pairs::Sum, rounds: 1 };
        let a = minimise(Objective::new(&mem, params, 1e-3, &scale), vec![0.0; 4], 30).unwrap();
        let b = minimise(Objective::new(&disk, params, 1e-3, &scale), vec![0.0; 4], 30).unwrap();
        assert!(a.iterations > 3);
        assert_eq!(a.w_std, b.w_std);
        assert_eq!(a.curve, b.curve);
    }

    /// The objective over compact data (base differences + gate levels) equals the objective
    /// computed straight from the dense expanded rows, for every loss; and a second call at the
    /// same point is served from the cache, not by another pass.
    #[test]
    fn compact_and_dense_give_the_same_loss_and_gradient() {
        use crate::model::gates::{Expansion, Interaction};
        let base: Vec<String> = ["shanten_min", "safety_any_riichi", "ev", "ev_defined", "a", "b"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let inter: Vec<Interaction> = ["shanten", "riichi", "value:ev+a", "turn"]
            .iter()
            .map(|s| Interaction::parse(s).unwrap())
            .collect();
        let e = Expansion::new(&base, &inter).unwrap();
        let nf = e.names().len();
        let mut decisions = Vec::new();
        let mut dense: Vec<(Vec<Vec<f32>>, usize)> = Vec::new();
        let mut s = 3u64;
        for dec in 0..300usize {
            let n = 2 + dec % 5;
            let rows: Vec<Vec<f32>> = (0..n)
                .map(|_| {
                    let mut r: Vec<f32> = (0..6).map(|_| (lcg(&mut s) * 6.0).floor() as f32).collect();
                    r[2] *= 500.0;
                    r[3] = (r[3] > 1.0) as u8 as f32;
                    r
                })
                .collect();
            let refs: Vec<&[f32]> = rows.iter().map(|r| r.as_slice()).collect();
            let turn = (dec % 17) as u8;
            let chosen = dec % n;
            decisions.push((rows.clone(), chosen, e.levels(&e.situation(&refs, turn))));
            dense.push((e.expand(&refs, turn), chosen));
        }
        let (data, moments) = store(Layout::of(&e), &decisions, None);
        let scale: Vec<f64> = moments.std().iter().map(|s| 1.0 / s).collect();
        let w: Vec<f64> = (0..nf).map(|i| (lcg(&mut s) - 0.5) * (1 + i % 3) as f64).collect();
        for (loss, pairs) in [
            (Loss::Hinge, Pairs::Sum),
            (Loss::Hinge, Pairs::PerDecision),
            (Loss::Logistic, Pairs::PerDecision),
            (Loss::Softmax, Pairs::Sum),
            (Loss::Seed, Pairs::Sum),
            (Loss::Logistic, Pairs::Ranked),
        ] {
            let params = LossParams { loss, margin: 1.0, smoothing: 0.1, pairs, rounds: 1 };
            // the ranked pairs' anchor: another weight vector, so shares differ from 1 / (n − 1)
            let anchor: Vec<f64> = w.iter().rev().map(|x| 2.0 * x).collect();
            let l2 = 1e-3;
            // Dense reference.
            let (mut want_l, mut want_g) = (0.0, vec![0.0; nf]);
            for (rows, c) in &dense {
                let diffs: Vec<Vec<f64>> = (0..rows.len())
                    .filter(|j| j != c)
                    .map(|j| rows[j].iter().zip(&rows[*c]).map(|(a, b)| (a - b) as f64).collect())
                    .collect();
                let z: Vec<f64> = diffs
                    .iter()
                    .map(|d| d.iter().zip(&w).zip(&scale).map(|((x, w), s)| x * w * s).sum())
                    .collect();
                let z0: Vec<f64> = diffs
                    .iter()
                    .map(|d| d.iter().zip(&anchor).zip(&scale).map(|((x, w), s)| x * w * s).sum())
                    .collect();
                let mut shares = Vec::new();
                rank_shares(&z0, &mut shares);
                let mut g = vec![0.0; z.len()];
                want_l += decision_loss(&params, &z, &shares, &mut g);
                for (d, gj) in diffs.iter().zip(&g) {
                    for i in 0..nf {
                        want_g[i] += gj * scale[i] * d[i];
                    }
                }
            }
            let m = dense.len() as f64;
            want_l = want_l / m + w.iter().map(|x| 0.5 * l2 * x * x).sum::<f64>();
            for i in 0..nf {
                want_g[i] = want_g[i] / m + l2 * w[i];
            }
            let obj = Objective::new(&data, params, l2, &scale).anchored_at(&anchor);
            let (l, g) = obj.eval(&w).unwrap();
            assert!((l - want_l).abs() < 1e-9 * want_l.abs().max(1.0), "{loss:?}: {l} vs {want_l}");
            for (i, (a, b)) in g.iter().zip(&want_g).enumerate() {
                assert!((a - b).abs() < 1e-9 * b.abs().max(1e-3), "{loss:?} {}: {a} vs {b}", e.names()[i]);
            }
            assert_eq!(obj.cost(&w).unwrap(), l);
            assert_eq!(obj.gradient(&w).unwrap(), g);
            assert_eq!(obj.passes(), 1, "cost and gradient at the same point: one pass");
        }
    }

    /// The seed's loss with feature 0's weight pinned (the scale fixed): the pinned weight never
    /// moves, the others are learnt around it, and the planted ranking is recovered; without the
    /// pin, margin 0 lets the weights collapse towards 0.
    #[test]
    fn seed_loss_with_a_pinned_weight_learns_around_it() {
        let truth = [2.0, -1.0, 0.0, 0.5];
        let mut s = 11u64;
        let decisions: Vec<Decision> = (0..400)
            .map(|_| {
                let rows: Vec<Vec<f32>> =
                    (0..4).map(|_| (0..4).map(|_| (lcg(&mut s) * 10.0) as f32).collect()).collect();
                let score = |r: &Vec<f32>| r.iter().zip(&truth).map(|(&x, &w)| x as f64 * w).sum::<f64>();
                let chosen = (0..4).max_by(|&a, &b| score(&rows[a]).total_cmp(&score(&rows[b]))).unwrap();
                (rows, chosen, vec![])
            })
            .collect();
        let (data, moments) = store(Layout::identity(4), &decisions, None);
        let std = moments.std();
        let scale: Vec<f64> = std.iter().map(|s| 1.0 / s).collect();
        let params =
            LossParams { loss: Loss::Seed, margin: 0.0, smoothing: 0.01, pairs: Pairs::Sum, rounds: 1 };
        // pinned at 2 in original units, as planted: w_std = 2 × std
        let mut init = vec![0.0; 4];
        init[0] = 2.0 * std[0];
        let obj = Objective::new(&data, params, 1e-6, &scale).with_frozen(vec![0]);
        let t = minimise(obj, init.clone(), 200).unwrap();
        assert_eq!(t.w_std[0], init[0], "the pinned weight moved");
        let a = agreement(&data, &t.w_std, &scale).unwrap();
        assert!(a.top1 > 0.9, "top1 {}", a.top1);
        let w: Vec<f64> = t.w_std.iter().zip(&scale).map(|(w, s)| w * s).collect();
        assert!(w[1] < -0.5 && w[1] > -2.0, "{w:?}");
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
