//! Evaluators: functions that rank a decision's options. Each one gives every option a score,
//! higher is better; the top score is the evaluator's pick.

pub mod agreement;
#[cfg(feature = "parquet")]
pub mod dataset;
pub mod error;
pub mod ev_order;
#[cfg(feature = "parquet")]
pub mod report;

use crate::model::linear;
use crate::rank::{expected_value, max_ukeire, yaku_eval, yaku_seed, Evaluator, RankedDiscard};
use crate::replay::view::View;
use error::EvalError;

/// Ranks every distinct discard of the seat's 14-tile hand, best first. `weights` is the weights
/// file of the `linear` evaluator (default: the shipped one).
pub fn rank_discards(
    evaluator: Evaluator,
    pos: &View,
    weights: Option<&std::path::Path>,
) -> Result<Vec<RankedDiscard>, EvalError> {
    Ok(match evaluator {
        Evaluator::Ukeire => max_ukeire::rank(pos),
        Evaluator::Ev => expected_value::rank(pos),
        Evaluator::Linear => linear::Linear::load(weights)
            .and_then(|l| l.rank(pos))
            .map_err(|e| EvalError::Linear(e.into()))?,
        Evaluator::Yaku => yaku_eval::rank(pos),
        Evaluator::YakuSeed => yaku_seed::rank(pos),
    })
}
