//! `haifu fit`: fit the linear evaluator's weights to the recorded choices.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use haifu::fit::load::Memory;
use haifu::fit::run::FitConfig;
use haifu::model::defaults;
use haifu::model::gates::Interaction;
use haifu::model::weights::{FitCost, Loss, LossParams, Pairs, WeightsFile, DEFAULT_PATH};

use super::select::Select;
use super::usage;

/// Fit the weights of the linear evaluator to the recorded choices (a ranking loss).
///
/// The default loss is pairwise, as the mission defines the fit: the pairwise logistic, the
/// chosen option against each option not taken, each decision's pairs weighted 1 / (n - 1)
/// (`--loss logistic --pairs per-decision`). The other pairwise losses are `--loss hinge` (with
/// `--margin`) and the seed's `--loss seed`; `--loss softmax` is listwise (the chosen option
/// against all the others at once).
///
/// Reads an `haifu ingest` folder, keeps the decisions the filter selects, splits them by game
/// (seeded) into train / validation / test, picks the L2 strength with the best validation
/// top-1 agreement, and writes the weights file (JSON) with a markdown report and a
/// loss-curve PNG beside it. Features are standardised internally; weights are reported in
/// original units.
#[derive(clap::Args)]
pub struct FitArgs {
    /// Folder written by `haifu ingest`.
    #[arg(long)]
    data: PathBuf,
    /// Weights file to write.
    #[arg(long, default_value = DEFAULT_PATH)]
    out: PathBuf,
    /// Ranking loss: logistic or hinge (pairwise), seed (the seed's pairwise hinge at margin 0,
    /// summed, with the shanten_min weight pinned at -1 a step) or softmax (listwise).
    #[arg(long, value_enum, default_value = defaults::LOSS)]
    loss: Loss,
    /// Pair weighting of the pairwise losses: sum (every pair counts 1), per-decision (each of
    /// a decision's n - 1 pairs counts 1 / (n - 1)) or ranked (LambdaRank-style: each pair counts
    /// the other option's softmax share of the decision's ranking at the round's start, re-taken
    /// each of --rounds rounds). The seed's loss always sums.
    #[arg(long, value_enum, default_value = defaults::PAIRS)]
    pairs: Pairs,
    /// Rounds of --pairs ranked: each is a full L-BFGS run (--max-iters) warm-started from the
    /// last, with the pair weights taken from the ranking at its start. Ignored by other pairs.
    #[arg(long, default_value_t = defaults::RANKED_ROUNDS)]
    rounds: u32,
    /// Hinge margin (0 allowed).
    #[arg(long, default_value_t = defaults::MARGIN)]
    margin: f64,
    /// Width of the hinge's quadratic smoothing.
    #[arg(long, default_value_t = defaults::SMOOTHING)]
    smoothing: f64,
    /// L2 strengths to try (comma-separated); the best on validation is kept.
    #[arg(long, value_delimiter = ',', default_values_t = defaults::L2_GRID)]
    l2: Vec<f64>,
    #[command(flatten)]
    select: Select,
    /// Maximum L-BFGS iterations per fit.
    #[arg(long, default_value_t = defaults::MAX_ITERS)]
    max_iters: u64,
    /// Keep at most this many decisions (whole games, a seeded sample). Not needed to bound
    /// memory: see --memory-budget.
    #[arg(long)]
    max_decisions: Option<usize>,
    /// Decision data held in memory (e.g. 512M, 2G; default a quarter of RAM, at most 2G).
    /// Beyond it the decisions are written once to a temporary cache file beside --out and
    /// streamed back on every pass: peak memory stays flat however large the data, and the
    /// weights are exactly those of an in-memory fit.
    #[arg(long, value_parser = haifu::fit::store::parse_bytes)]
    memory_budget: Option<usize>,
    /// Leave out feature columns whose names start with any of these prefixes (comma-separated),
    /// e.g. `ev,log_ev` to fit without the expected-value features.
    #[arg(long, value_delimiter = ',')]
    drop: Vec<String>,
    /// Fit only the feature columns whose names start with one of these prefixes
    /// (comma-separated; all when absent), e.g. the seed's own features
    /// `shanten_min,ukeire_count,energy_,dora_,red_fives,yakuhai_,lv_,menzen`. --drop applies after.
    #[arg(long, value_delimiter = ',')]
    keep: Vec<String>,
    /// Situation-dependent weights: copies of columns gated by a decision-level fact, one
    /// per level (repeatable). `GATE` copies every column, `GATE:PREFIX+PREFIX` the columns
    /// starting with those prefixes. Gates: shanten (0/1/2/3+ before the decision), riichi
    /// (an opponent in riichi or not), value (weak/good/excellent by the best expected value),
    /// turn (1-6/7-12/13+), stage (shanten × turn, 12 levels), threat (the likeliest opponent tenpai by
    /// the danger family: < 0.3, < 0.7, above; needs the danger_tenpai_ columns). E.g. `--interact shanten --interact riichi:safety_+ev`.
    #[arg(long = "interact")]
    interactions: Vec<String>,
    /// Add the decision-relative columns the trees read: `margin_<c>`, an option's value minus
    /// the best of the other options (the best option's lead), and `rank_<c>`, options strictly
    /// better, for ev, ukeire, paijia and a dozen more. A linear score cannot compare options
    /// by itself; these give "clearly the best ev" a weight. Gates copy them like any column.
    #[arg(long)]
    derived: bool,
}

/// Fits, writes the weights file with its report, loss curve and cost beside it, and prints the
/// agreement and the cost. A malformed `--interact` is a usage error.
pub fn run(args: FitArgs) -> Result<ExitCode> {
    let cfg = config(args)?;
    let (w, cost) = haifu::fit::run::fit(&cfg)?;
    print_result(&w, &cost, &cfg.out);
    Ok(ExitCode::SUCCESS)
}

/// The fit's settings from the arguments; the decision cache, when one is needed, goes beside --out.
fn config(args: FitArgs) -> Result<FitConfig> {
    let interactions = (args.interactions.iter())
        .map(|s| Interaction::parse(s).map_err(|e| usage(format!("--interact {s:?}: {e:#}"))))
        .collect::<Result<Vec<_>>>()?;
    let spill_dir = args.out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Ok(FitConfig {
        data: args.data,
        filter: args.select.filter(),
        loss: LossParams {
            loss: args.loss,
            margin: args.margin,
            smoothing: args.smoothing,
            pairs: args.pairs,
            rounds: if args.pairs == Pairs::Ranked { args.rounds.max(1) } else { 1 },
        },
        l2_grid: args.l2,
        seed: args.select.seed,
        validation: args.select.validation,
        test: args.select.test,
        max_iters: args.max_iters,
        max_decisions: args.max_decisions,
        memory: Memory {
            budget: args.memory_budget.unwrap_or_else(haifu::fit::store::default_budget),
            spill_dir: spill_dir.to_path_buf(),
        },
        drop: args.drop,
        keep: args.keep,
        interactions,
        derived: args.derived,
        out: args.out,
    })
}

/// What was fitted, how well it agrees on each split, what it cost, and where it went.
fn print_result(w: &WeightsFile, cost: &FitCost, out: &Path) {
    let m = &w.metrics;
    println!(
        "fitted {} features on {} decisions (validation {}, test {}), l2 {}, {} iterations",
        w.features.len(),
        w.decisions.train,
        w.decisions.validation,
        w.decisions.test,
        w.l2,
        w.iterations
    );
    println!(
        "top-1 train {:.1}%  validation {:.1}%  test {:.1}%   top-3 test {:.1}%",
        m.train.top1 * 100.0,
        m.validation.top1 * 100.0,
        m.test.top1 * 100.0,
        m.test.top3 * 100.0
    );
    println!(
        "cost: {:.0} s wall, peak RSS {}, {} passes; decision data {:.0} MiB in memory, {:.0} MiB streamed",
        cost.wall_seconds,
        cost.peak_rss_mib.map_or("unknown".to_string(), |m| format!("{m:.0} MiB")),
        cost.passes,
        cost.in_memory_mib,
        cost.spilled_mib
    );
    println!(
        "wrote {}, {} and {}",
        out.display(),
        out.with_extension("md").display(),
        haifu::fit::run::cost_path(out).display()
    );
}
