//! The defaults of fitting, calibrating and evaluating, stated once. The command line
//! (`cli/fit.rs`, `cli/select.rs`, `cli/eval.rs`, `cli/report.rs`) and the Python package
//! (`python/src/models.rs`, whose signatures a test compares with [`all`]) read them here, so the
//! three interfaces cannot drift apart.

/// The decision kind a fit or an evaluation reads by default.
pub const KIND: &str = "discard";
/// The seats kept by default: `human` (the AI seats' picks are not what a fit copies).
pub const SEATS: &str = "human";
/// The variant kept by default: four-player games (three-player ones are another game).
pub const PLAYERS: u8 = 4;
/// The seed of the game split.
pub const SPLIT_SEED: u64 = 1;
/// The fraction of games held out for validation.
pub const VALIDATION: f64 = 0.1;
/// The fraction of games held out for test.
pub const TEST: f64 = 0.1;
/// Which games `eval` scores by default: `all` (report: the test split).
pub const EVAL_SPLIT: &str = "all";
/// The fit's loss: the pairwise logistic (issue 38's choice, reports/losses/losses.md).
pub const LOSS: &str = "logistic";
/// The pair weighting of the pairwise losses.
pub const PAIRS: &str = "per-decision";
/// Rounds of `--pairs ranked` (other pair weightings run one).
pub const RANKED_ROUNDS: u32 = 3;
/// Hinge margin.
pub const MARGIN: f64 = 1.0;
/// Width of the hinge's quadratic smoothing.
pub const SMOOTHING: f64 = 0.1;
/// The L2 strengths tried; the best on validation is kept.
pub const L2_GRID: [f64; 3] = [1e-4, 1e-3, 1e-2];
/// Maximum L-BFGS iterations per fit.
pub const MAX_ITERS: u64 = 150;
/// The evaluators `eval` compares when none is named.
pub const EVALUATORS: [&str; 3] = ["ukeire", "ev", "linear"];
/// The seat names the filters take.
pub const SEAT_NAMES: [&str; 3] = ["human", "ai", "all"];
/// The split names `eval` takes.
pub const SPLIT_NAMES: [&str; 4] = ["all", "train", "validation", "test"];
/// The table levels, lowest first.
pub const TABLE_NAMES: [&str; 4] = ["ippan", "joukyuu", "tokujou", "houou"];

/// [`EVALUATORS`] as evaluators.
pub fn evaluators() -> Vec<crate::rank::Evaluator> {
    use clap::ValueEnum;
    EVALUATORS.iter().map(|e| crate::rank::Evaluator::from_str(e, true).expect("a known evaluator")).collect()
}

/// Every default above by the name the command line's flag and the Python keyword use, for the
/// Python package (`haifu.defaults()`) and its test. Numbers stay numbers, lists stay lists.
pub fn all() -> serde_json::Value {
    let push_fold = crate::rank::push_fold::Thresholds::default();
    serde_json::json!({
        "kind": KIND,
        "seats": SEATS,
        "players": PLAYERS,
        "seed": SPLIT_SEED,
        "validation": VALIDATION,
        "test": TEST,
        "split": EVAL_SPLIT,
        "loss": LOSS,
        "pairs": PAIRS,
        "rounds": RANKED_ROUNDS,
        "margin": MARGIN,
        "smoothing": SMOOTHING,
        "l2": L2_GRID,
        "max_iters": MAX_ITERS,
        "evaluators": EVALUATORS,
        "good": push_fold.good,
        "excellent": push_fold.excellent,
        "seat_names": SEAT_NAMES,
        "split_names": SPLIT_NAMES,
        "table_names": TABLE_NAMES,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names stated here are the ones the code parses.
    #[test]
    fn the_names_are_the_parsed_ones() {
        use clap::ValueEnum;
        let levels = [
            crate::log::rules::TableLevel::Ippan,
            crate::log::rules::TableLevel::Joukyuu,
            crate::log::rules::TableLevel::Tokujou,
            crate::log::rules::TableLevel::Houou,
        ];
        assert_eq!(levels.map(|l| l.name()), TABLE_NAMES);
        for e in EVALUATORS {
            crate::rank::Evaluator::from_str(e, true).unwrap_or_else(|_| panic!("{e}"));
        }
        crate::model::weights::Loss::from_str(LOSS, true).expect("LOSS");
        crate::model::weights::Pairs::from_str(PAIRS, true).expect("PAIRS");
        assert!(SEAT_NAMES.contains(&SEATS) && SPLIT_NAMES.contains(&EVAL_SPLIT));
        assert_eq!(all()["l2"], serde_json::json!([0.0001, 0.001, 0.01]));
    }
}
