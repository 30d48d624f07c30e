//! Evaluators: functions that rank a decision's options. Each one gives every option a score,
//! higher is better; the top score is the evaluator's pick.

pub mod agreement;
#[cfg(feature = "parquet")]
pub mod dataset;
pub mod yaku_eval;

pub use crate::features::position::{Position, RankedDiscard, RiverInfo};
use crate::features::{expected_value, max_ukeire};
use crate::model::linear;

/// The evaluators the CLI knows, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EvaluatorName {
    /// Lowest shanten, then most unseen effective tiles, then a fixed discard order.
    Ukeire,
    /// 電脳麻将's expected hand value: points × unseen tiles over the 12/72/216 recursion.
    Ev,
    /// w · features with weights fitted by `haifu fit` (default data/weights/default.json).
    Linear,
    /// Yaku evaluation function: max over yaku families of han × (weights · 21-class vector).
    Yaku,
}

/// Ranks every distinct discard of a 14-tile position, best first. `weights` is the weights
/// file of the `linear` evaluator (default: the shipped one).
pub fn rank_discards(
    name: EvaluatorName,
    pos: &Position,
    weights: Option<&std::path::Path>,
) -> anyhow::Result<Vec<RankedDiscard>> {
    Ok(match name {
        EvaluatorName::Ukeire => max_ukeire::rank(pos),
        EvaluatorName::Ev => expected_value::rank(pos),
        EvaluatorName::Linear => linear::Linear::load(weights)?.rank(pos)?,
        EvaluatorName::Yaku => yaku_eval::rank(pos),
    })
}
