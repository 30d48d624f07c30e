//! Evaluators, one home: every function that ranks a decision's options lives here, below the
//! feature families (the families' value and visibility columns call into it).
//!
//! Every ranker takes the seat's [`View`](crate::replay::view::View) (built by `view_of` for a
//! recorded or simulated table, [`View::bare`](crate::replay::view::View::bare) for a bare hand)
//! and returns [`RankedDiscard`]s:
//! - [`max_ukeire`]: the max-ukeire order (shanten, unseen effective tiles, a fixed discard order);
//! - [`expected_value`]: 電脳麻将's expected hand value (the 12 / 72 / 216 search);
//! - [`paijia`]: 電脳麻将's isolated-tile value, its tie-break;
//! - [`majiang_position`]: a position as 電脳麻将 is driven with (golden files, `nanikiru --positions`);
//! - [`push_fold`]: push or fold against a riichi, by the hand's value and each discard's safety;
//! - [`melds21`] and [`yaku_eval`]: the 21-class cut of a hand and the yaku evaluation function.
//!
//! The fitted `linear` and `trees` evaluators need a model file and the feature row, so their
//! scoring sits above the features in `model::linear` and `model::trees`; they are still
//! [`Evaluator`]s named here.

pub mod calls;
pub mod danger;
pub mod expected_value;
pub mod majiang_position;
pub mod max_ukeire;
pub mod melds21;
pub mod paijia;
pub mod push_fold;
pub mod safety;
pub mod yaku_eval;
pub mod yaku_seed;

use crate::tile::Tile;

/// Two scores closer than this are a tie, for every evaluator and every count of agreement:
/// `ev`'s points (a tie then broken as 電脳麻将 breaks it), the linear and trees scores, and the
/// top-1 / mean-rank figures of `fit`, `eval` and `report`, which share a tie fairly. Scores equal
/// up to floating-point noise (the same sum taken in another order) tie; the dataset scorers
/// that order lexicographically with small weights (`eval::agreement::ev_weights`: 1e-6 per
/// ukeire tile, 1e-8 per discard class) stay above it.
pub const TIE_EPS: f64 = 1e-9;

/// The evaluators, by name: the command line (`--evaluator`), the dataset scorer (`haifu eval`,
/// `haifu report`), the bots and the review page all take this one list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Evaluator {
    /// Lowest shanten, then most unseen effective tiles, then a fixed discard order.
    Ukeire,
    /// 電脳麻将's expected hand value: points × unseen tiles over the 12/72/216 recursion.
    Ev,
    /// Yaku evaluation function: max over yaku families of han × (weights · 21-class vector).
    Yaku,
    /// w · features with weights fitted by `haifu fit` (default data/weights/default.json).
    Linear,
    /// Seed 004's yaku function: best over every cut and the seed's yaku combinations summed.
    YakuSeed,
    /// Gradient-boosted trees (LightGBM lambdarank, `make trees`; default
    /// data/weights/trees.txt.gz) over the option columns and the decision's context.
    Trees,
}

impl Evaluator {
    /// Every evaluator, in the order reports list them.
    pub const ALL: [Evaluator; 6] = [
        Evaluator::Ukeire,
        Evaluator::Ev,
        Evaluator::Yaku,
        Evaluator::Linear,
        Evaluator::YakuSeed,
        Evaluator::Trees,
    ];
    /// Number of evaluators: the length of per-evaluator arrays.
    pub const COUNT: usize = Self::ALL.len();

    /// The evaluator's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Evaluator::Ukeire => "ukeire",
            Evaluator::Ev => "ev",
            Evaluator::Yaku => "yaku",
            Evaluator::Linear => "linear",
            Evaluator::YakuSeed => "yaku-seed",
            Evaluator::Trees => "trees",
        }
    }

    /// Position in [`Evaluator::ALL`]: the index of per-evaluator arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One discard option with the evaluator's score and the shape facts every evaluator reports.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RankedDiscard {
    #[serde(serialize_with = "ser_tile")]
    pub tile: Tile,
    pub score: f64,
    /// Minimum shanten after the discard.
    pub shanten: i8,
    /// Unseen effective tiles after the discard.
    pub ukeire: u32,
}

fn ser_tile<S: serde::Serializer>(t: &Tile, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&t.to_string())
}

#[cfg(test)]
mod tests {
    use super::Evaluator;
    use clap::ValueEnum;

    #[test]
    fn names_match_the_command_line_and_the_index() {
        for (i, e) in Evaluator::ALL.iter().enumerate() {
            assert_eq!(e.index(), i);
            let parsed = Evaluator::from_str(e.name(), false).expect("a known name");
            assert_eq!(parsed, *e);
        }
        assert_eq!(Evaluator::value_variants().len(), Evaluator::ALL.len());
    }
}
