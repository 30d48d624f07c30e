//! `haifu eval`: agreement of evaluators with the recorded choices over an ingested dataset.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use haifu::eval::report::EvalReport;
use haifu::fit::split::Split;
use haifu::rank::push_fold::Thresholds;
use haifu::rank::Evaluator;

use super::select::Select;

/// Agreement of evaluators with the recorded choices over an ingested dataset.
///
/// Top-1, top-3 and mean rank of the chosen option (ties broken at random in expectation),
/// overall and by shanten before the decision, turn (1-6, 7-12, 13+), riichi situation,
/// table level and human vs AI seat.
#[derive(clap::Args)]
pub struct EvalArgs {
    /// Folder written by `haifu ingest`.
    #[arg(long)]
    data: PathBuf,
    /// Weights of the `linear` evaluator [default: data/weights/default.json; with `--players 3` the three-player
    /// model of the `--kind`: data/weights/sanma.json, sanma-riichi.json, sanma-call.json or
    /// sanma-kita.json].
    #[arg(long)]
    weights: Option<PathBuf>,
    /// The `trees` evaluator's model (a LightGBM text model, gzipped or not; `make trees` writes
    /// data/weights/trees.txt.gz, the default).
    #[arg(long, value_name = "FILE")]
    trees: Option<PathBuf>,
    /// Evaluators to compare (repeat); default: ukeire, ev and linear (yaku scores each
    /// decision's hand and is slower; trees needs its model file).
    #[arg(long = "evaluator", value_enum)]
    evaluators: Vec<Evaluator>,
    #[command(flatten)]
    select: Select,
    /// Which games: all, or one split of the seeded game split (`test` = held-out games).
    #[arg(long, value_enum, default_value = haifu::model::defaults::EVAL_SPLIT)]
    split: SplitArg,
    /// Apply the push/fold layer over every evaluator: with an opponent in riichi, weak hands
    /// (best expected value below --good, or 3+ shanten) play the safest tile, good hands
    /// only genbutsu / suji / honors, excellent hands (from --excellent) anything.
    #[arg(long)]
    push_fold: bool,
    /// Expected value at which a hand is good rather than weak (with --push-fold).
    #[arg(long, default_value_t = haifu::rank::push_fold::GOOD)]
    good: f64,
    /// Expected value at which a hand is excellent (with --push-fold).
    #[arg(long, default_value_t = haifu::rank::push_fold::EXCELLENT)]
    excellent: f64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Which games of the seeded split `eval` scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SplitArg {
    All,
    Train,
    Validation,
    Test,
}

impl SplitArg {
    /// The split to keep (`None`: every game).
    fn split(self) -> Option<Split> {
        match self {
            SplitArg::All => None,
            SplitArg::Train => Some(Split::Train),
            SplitArg::Validation => Some(Split::Validation),
            SplitArg::Test => Some(Split::Test),
        }
    }
}

/// Scores the selected decisions with each evaluator (default ukeire, ev and linear), under the
/// push/fold layer when asked, and prints the agreement overall and by slice, as text or JSON.
pub fn run(args: EvalArgs) -> Result<ExitCode> {
    let evaluators = if args.evaluators.is_empty() {
        haifu::model::defaults::evaluators()
    } else {
        args.evaluators.clone()
    };
    let mut enabled = [false; Evaluator::COUNT];
    for e in &evaluators {
        enabled[e.index()] = true;
    }
    let push_fold = args.push_fold.then_some(Thresholds { good: args.good, excellent: args.excellent });
    let mut config =
        args.select.dataset(args.data.clone(), args.weights.clone(), args.split.split(), push_fold, enabled);
    config.trees = args.trees.clone();
    let scored = haifu::eval::dataset::score(&config)?;
    let report = EvalReport::new(&scored, &evaluators, push_fold);
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        let pf = match push_fold {
            Some(t) => format!(", push/fold at {} / {}", t.good, t.excellent),
            None => String::new(),
        };
        println!("{} {} decisions ({:?} split{pf})", scored.decisions, args.select.kind, args.split);
        println!("{report}");
    }
    Ok(ExitCode::SUCCESS)
}
