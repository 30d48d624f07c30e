//! `haifu report`: the evaluators against the human picks, as a markdown report with plots.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use haifu::fit::split::Split;
use haifu::rank::push_fold::Thresholds;
use haifu::report::compare::ReportConfig;

use super::select::Select;

/// Compare the evaluators (ukeire, ev, linear; each with and without push/fold) with the human
/// picks, and write a markdown report with plots.
///
/// Top-1 / top-3 agreement overall and by shanten, turn and riichi situation; how often the
/// human played safe by hand-value class; the positions where linear and ev disagree with the
/// human most. By default only the test split (games the fit never saw) of human houou discards.
#[derive(clap::Args)]
pub struct ReportArgs {
    /// Folder written by `haifu ingest`.
    #[arg(long)]
    data: PathBuf,
    /// Weights of the linear evaluator [default: data/weights/default.json; with `--players 3` the three-player
    /// model of the `--kind`: data/weights/sanma.json, sanma-riichi.json, sanma-call.json or
    /// sanma-kita.json].
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Output folder (README.md and PNG plots).
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    #[command(flatten)]
    select: Select,
    /// Use every selected decision, not only the test split.
    #[arg(long)]
    all_games: bool,
    /// Expected value at which a hand is good (push safe tiles) rather than weak (fold).
    #[arg(long, default_value_t = haifu::rank::push_fold::GOOD)]
    good: f64,
    /// Expected value at which a hand is excellent (push anything).
    #[arg(long, default_value_t = haifu::rank::push_fold::EXCELLENT)]
    excellent: f64,
}

/// Scores the selected decisions with every evaluator (with and without push/fold), writes the
/// report folder and prints its overall table.
pub fn run(args: ReportArgs) -> Result<ExitCode> {
    let ReportArgs { data, weights, out, select, all_games, good, excellent } = args;
    let split = (!all_games).then_some(Split::Test);
    let dataset = select.dataset(
        data,
        weights,
        split,
        Some(Thresholds { good, excellent }),
        [true; haifu::rank::Evaluator::COUNT],
    );
    let md = haifu::report::compare::run(&ReportConfig { dataset, out: out.clone() })?;
    // The README's whole Overall section: every evaluator it compares, nothing cut.
    println!("{}", haifu::util::markdown::section(&md, "## Overall").trim_end());
    println!("wrote {}/README.md", out.display());
    Ok(ExitCode::SUCCESS)
}
