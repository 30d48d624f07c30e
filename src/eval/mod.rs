//! Evaluators: functions that rank a decision's options. Each one gives every option a score,
//! higher is better; the top score is the evaluator's pick.

pub mod agreement;
#[cfg(feature = "parquet")]
pub mod dataset;
pub mod error;
pub mod ev_order;
pub mod nanikiru;
#[cfg(feature = "parquet")]
pub mod report;

use crate::model::linear::{self, Explained};
use crate::model::trees::TreesRanker;
use crate::rank::{expected_value, max_ukeire, yaku_eval, yaku_seed, Evaluator, RankedDiscard};
use crate::replay::view::View;
use error::EvalError;

/// An evaluator made ready once, then asked for many positions: the one dispatch from an
/// [`Evaluator`] to its ranking. `linear`'s weights are loaded when the ranker is built, not per
/// position (a bad weights file fails before any position), and shared by clones (the self-play
/// bots of one run).
#[derive(Clone, Debug)]
pub enum Ranker {
    /// The fitted function with its weights.
    Linear(std::sync::Arc<linear::Linear>),
    /// The trees model lined up with the rows.
    Trees(std::sync::Arc<TreesRanker>),
    /// An evaluator that needs nothing loaded (ukeire, ev, yaku, yaku-seed).
    Plain(Evaluator),
}

impl Ranker {
    /// The ranker of `evaluator`; `weights` is the fitted evaluator's model file: `linear`'s
    /// weights (default: the shipped ones) or the `trees` model (default: data/weights/trees.txt.gz),
    /// unused by the others.
    pub fn new(evaluator: Evaluator, weights: Option<&std::path::Path>) -> Result<Ranker, EvalError> {
        Ok(match evaluator {
            Evaluator::Linear => Ranker::Linear(std::sync::Arc::new(
                linear::Linear::load(weights).map_err(|e| EvalError::Linear(e.into()))?,
            )),
            Evaluator::Trees => Ranker::Trees(std::sync::Arc::new(TreesRanker::load(weights)?)),
            other => Ranker::Plain(other),
        })
    }

    pub fn evaluator(&self) -> Evaluator {
        match self {
            Ranker::Linear(_) => Evaluator::Linear,
            Ranker::Trees(_) => Evaluator::Trees,
            Ranker::Plain(e) => *e,
        }
    }

    /// The loaded weights of a `linear` ranker (for `--explain`).
    pub fn linear(&self) -> Option<&linear::Linear> {
        match self {
            Ranker::Linear(l) => Some(l),
            _ => None,
        }
    }

    /// Each option's `k` largest feature contributions, relative to the best option (`linear`:
    /// weight times value; `trees`: exact TreeSHAP); `None` for the evaluators without features.
    pub fn explain(&self, pos: &View, k: usize) -> Result<Option<Explained>, EvalError> {
        Ok(match self {
            Ranker::Linear(l) => Some(l.explain(pos, k).map_err(|e| EvalError::Linear(e.into()))?),
            Ranker::Trees(t) => Some(t.explain(pos, k).map_err(|e| EvalError::Linear(e.into()))?),
            Ranker::Plain(_) => None,
        })
    }

    /// Ranks every distinct discard of the seat's 14-tile hand, best first.
    pub fn rank(&self, pos: &View) -> Result<Vec<RankedDiscard>, EvalError> {
        Ok(match self {
            Ranker::Linear(l) => l.rank(pos).map_err(|e| EvalError::Linear(e.into()))?,
            Ranker::Trees(t) => t.rank(pos).map_err(|e| EvalError::Linear(e.into()))?,
            Ranker::Plain(Evaluator::Ukeire) => max_ukeire::rank(pos),
            Ranker::Plain(Evaluator::Ev) => expected_value::rank(pos),
            Ranker::Plain(Evaluator::Yaku) => yaku_eval::rank(pos),
            Ranker::Plain(Evaluator::YakuSeed) => yaku_seed::rank(pos),
            // built only by `Ranker::new`, which loads linear's weights
            Ranker::Plain(Evaluator::Linear | Evaluator::Trees) => {
                return Err(EvalError::Linear("a fitted ranker without its model file".into()))
            }
        })
    }
}
