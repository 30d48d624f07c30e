//! `haifu stats`: player and table statistics over archives, or the merge of earlier runs.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

/// Player and table statistics over archives: placements, stable dan, win / deal-in / riichi /
/// call rates and their breakdowns, yaku, and four log studies...
///
/// Writes into --out: `tables.parquet|csv` (overall and per table level), `players.parquet|csv`
/// (per player name with at least --min-games games), `yaku.parquet|csv`, the study tables,
/// PNG plots, a README.md with every figure, its denominator, its 95% interval and its
/// definition, and the raw counts (`counts.parquet`, `run.json`).
///
/// The counts add up: run `haifu stats` on each shard of an archive (on as many machines as
/// you like), then `haifu stats --merge shard1/ shard2/ ... --out all/` writes exactly the
/// report one run over everything would have written.
///
/// Examples: `haifu stats ../logs --out stats --json | jq .overall.riichi_win_rate`;
/// `haifu stats --merge out/s0 out/s1 --out out/stats`.
#[derive(clap::Args)]
pub struct StatsArgs {
    /// Files, folders, archives or databases.
    #[arg(required_unless_present = "merge", conflicts_with = "merge")]
    paths: Vec<PathBuf>,
    /// Output folder.
    #[arg(long)]
    out: PathBuf,
    /// Instead of reading logs, add up the counts of earlier `haifu stats --out` folders.
    #[arg(long, num_args = 1.., value_name = "DIR")]
    merge: Vec<PathBuf>,
    /// Only the records whose game id hashes (FNV-1a) to I mod N, as `haifu ingest --shard`:
    /// `--merge` the N outputs for the whole.
    #[arg(long, default_value = "0/1", value_name = "I/N", conflicts_with = "merge")]
    shard: haifu::batch::Shard,
    /// Players with fewer games are left out of the player tables (never out of the counts).
    #[arg(long, default_value_t = 10)]
    min_games: u64,
    /// Also print the overall and per-table figures as JSON (names as in the README glossary).
    #[arg(long)]
    json: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Count the games of this variant: 4 (four players) or 3 (sanma). A run counts one
    /// variant; the other variant's games are left out, and the report says how many.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(3..=4), conflicts_with = "merge")]
    players: u8,
    /// Count partial records (clipped logs: a late start, no end under the rules, no stated
    /// result) in the placement and final-score figures too. Without it they are left out of
    /// those figures, and the report says how many.
    #[arg(long, conflicts_with = "merge")]
    allow_partial: bool,
    /// Also judge every human seat's decisions with the linear models, as `haifu review` does,
    /// and report the match rate and bad-move rate by dan and by year (README section,
    /// `agreement.parquet|csv`, two plots; raw counts that --merge adds up). In the replay it
    /// costs about what `haifu ingest` costs per game (every option's feature row), many times
    /// a plain stats run; with --data it reads the rows of an earlier ingest instead.
    #[arg(long, conflicts_with = "merge")]
    agreement: bool,
    /// With --agreement: the discard weights (default data/weights/default.json; riichi.json and
    /// call.json beside it, or the shipped ones). Bad moves need calibrated weights.
    #[arg(long, requires = "agreement")]
    weights: Option<PathBuf>,
    /// With --agreement: read each decision's option rows off this `haifu ingest` folder of the
    /// same records instead of building them in the replay (many times faster: the rows are on
    /// disk). Only the decisions of the games this run reads are counted; a game the folder
    /// does not hold is a failed file.
    #[arg(long, requires = "agreement", value_name = "DIR")]
    data: Option<PathBuf>,
    /// With --agreement: judge with the trees models (FILE: the discard model, default
    /// data/weights/trees.txt.gz; trees-riichi and trees-call beside it, or the shipped ones),
    /// each kind's when it is calibrated (`haifu calibrate --trees`), else linear.
    #[arg(long, requires = "agreement", value_name = "FILE")]
    trees: Option<Option<PathBuf>>,
    /// With --agreement: a choice the model gives a calibrated probability below this is a bad
    /// move (NAGA's 0.05).
    #[arg(long, requires = "agreement", default_value_t = haifu::model::judges::BAD_BELOW)]
    bad_below: f64,
    /// Write only seed 003's wait studies with the seed's definitions as the markdown
    /// file --out (`reports/seed_studies.md`, `make seed-studies`).
    #[arg(long, conflicts_with = "merge")]
    seed_studies: bool,
    /// With --seed-studies: the seed bot's self-play logs, measured the same way.
    #[arg(long, num_args = 1.., value_name = "PATH", requires = "seed_studies")]
    seed_sim: Vec<PathBuf>,
    /// With --seed-studies: play this many pairs of the paired kabe experiment in self-play
    /// (`sim::seed_pairs`, seed 40).
    #[arg(long, value_name = "N", requires = "seed_studies")]
    seed_pairs: Option<u64>,
    /// With --seed-studies: the `haifu eval --json` output of the yaku evaluators on the held-out
    /// houou decisions, rendered as the report's yaku section.
    #[arg(long, value_name = "FILE", requires = "seed_studies")]
    seed_yaku: Option<PathBuf>,
}

/// Counts the records under the paths (or adds up `--merge` folders), writes the report folder
/// and prints the overall figures as text or JSON; exit status 1 when a file failed.
pub fn run(args: StatsArgs) -> Result<ExitCode> {
    if args.seed_studies {
        let yaku: Option<serde_json::Value> = match &args.seed_yaku {
            Some(p) => Some(serde_json::from_str(&std::fs::read_to_string(p)?)?),
            None => None,
        };
        let paired = args.seed_pairs.map(|n| haifu::sim::seed_pairs::run(40, n));
        let md = haifu::stats::seed_report::report(
            &args.paths,
            &args.seed_sim,
            paired.as_ref(),
            yaku.as_ref(),
            args.jobs,
        );
        std::fs::write(&args.out, md)?;
        println!("wrote {}", args.out.display());
        return Ok(ExitCode::SUCCESS);
    }
    if !(0.0..=1.0).contains(&args.bad_below) {
        return Err(super::usage(format!("--bad-below {} is not a probability (0-1)", args.bad_below)));
    }
    let models = if args.agreement {
        let mut m = haifu::model::judges::Models::load(args.weights.as_deref())?;
        m.bad_below = args.bad_below;
        if let Some(t) = &args.trees {
            m.trees = haifu::model::trees::TreesByKind::load(t.as_deref())?;
            if m.trees.iter().any(|t| t.calibration().is_none()) {
                eprintln!("note: a trees model is not calibrated (haifu calibrate --trees): linear judges its decisions");
            }
        }
        Some(m)
    } else {
        None
    };
    let run = if args.merge.is_empty() {
        let judging = models.as_ref().map(|m| match &args.data {
            Some(d) => haifu::stats::Judging::Data(m, d),
            None => haifu::stats::Judging::Replay(m),
        });
        haifu::stats::compute_variant(
            &args.paths,
            args.jobs,
            args.shard,
            args.allow_partial,
            judging,
            args.players,
        )?
    } else {
        haifu::stats::output::merge(&args.merge)?
    };
    haifu::stats::output::write(&run, &args.out, args.min_games)?;
    if args.json {
        println!("{}", haifu::stats::overall_json(&run));
        return Ok(super::batch_status(run.errors.is_empty()));
    }
    let s = &run.overall;
    println!(
        "{} {}games, {} player-rounds: win {:.1}%, deal-in {:.1}%, riichi {:.1}%, call {:.1}%, avg placement {:.3}",
        run.games_of(s),
        // Four-player runs print as before; a three-player one says so.
        if run.players == 3 { "three-player " } else { "" },
        s.rounds,
        s.win.value() * 100.0,
        s.deal_in.value() * 100.0,
        s.riichi.value() * 100.0,
        s.call.value() * 100.0,
        s.avg_placement.value()
    );
    if s.partial_games > 0 {
        println!(
            "{} partial records left out of the placement and final-score figures (--allow-partial counts them)",
            run.partial_games_of(s)
        );
    }
    if let Some(note) = run.other_variant_note() {
        println!("{note}");
    }
    if !run.agreement.is_empty() {
        let a = run.agreement.total();
        println!(
            "agreement with {}: {} human decisions, match rate {:.1}%, bad-move rate {} (by dan and year in the README)",
            run.agreement.judges_text(),
            a.matched.n,
            100.0 * a.matched.value(),
            if a.bad_move.n > 0 { format!("{:.1}%", 100.0 * a.bad_move.value()) } else { "- (weights not calibrated)".into() }
        );
    }
    println!(
        "wrote {}/README.md (+ tables, players, plots); {} files failed",
        args.out.display(),
        run.errors.len()
    );
    for e in run.errors.iter().take(10) {
        println!("  error {}: {}", e.file, e.error);
    }
    Ok(super::batch_status(run.errors.is_empty()))
}
