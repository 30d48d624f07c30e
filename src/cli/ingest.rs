//! `haifu ingest`: every decision with its options and feature columns, to parquet parts.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use haifu::dataset::ingest::{IngestOptions, IngestSummary};
use haifu::dataset::skip::Skip;

/// Every decision with all its options and their feature vectors, to parquet.
///
/// Writes the tables games (one row per game), rounds, decisions (one row per decision:
/// context and the chosen option) and options (one row per option: decision_id, option, chosen
/// and the feature columns) into --out as folders of parts, `options/part-000012.parquet`, one
/// part per --part-games input records, each complete part marked by `_parts/part-000012.json`;
/// the schema is in docs/schema.md. Files that fail are listed and skipped; a killed run loses
/// only the parts in flight (--resume finishes them); output is the same for any --jobs.
#[derive(clap::Args)]
pub struct IngestArgs {
    /// Files, folders, archives or databases.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Output folder.
    #[arg(long)]
    out: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Input records per part.
    #[arg(long, default_value_t = 200)]
    part_games: usize,
    /// Keep the complete parts already in --out and ingest the rest (same inputs and options; a part written with other columns, by another haifu, is refused).
    #[arg(long, conflicts_with = "force")]
    resume: bool,
    /// Replace the dataset already in --out.
    #[arg(long)]
    force: bool,
    /// Only the records whose game id hashes (FNV-1a) to I mod N, e.g. 3/8: run the N shards
    /// on N machines and put their parts in one folder (part numbers do not clash).
    #[arg(long, default_value = "0/1")]
    shard: haifu::batch::Shard,
    /// Leave out costly option column groups (comma-separated). A default run holds three:
    /// `ev` (ev, log_ev, ev_defined, ev_far_shanten, ev_far_ukeire: 電脳麻将's expected value), the
    /// costliest, since most of a default run's CPU time is its search (docs/performance.md has
    /// the shares); `danger` (danger_dealin, danger_loss, danger_tenpai_next / across / prev: what
    /// the danger models fitted on the opponents' real waits say of each option, docs/schema.md);
    /// and `seats` (al_*: what a win or a deal-in must move to change placement; sr_opp1_* ..
    /// sr_opp3_*: each opponent's river read in order; furiten_risk_*: the hand's ukeire already
    /// in its own river). The shipped discard trees read all three; the linear models read none
    /// of danger and seats. So `--skip ev,danger,seats` is the way to a fast run. The columns are
    /// absent from the options table, every other value is the same; `fit` then fits without them
    /// (the `value` gate needs ev), `eval` takes `--evaluator`s other than ev (and trees, which
    /// need danger and seats).
    #[arg(long, value_parser = haifu::dataset::skip::Skip::parse, value_name = "GROUPS")]
    skip: Option<haifu::dataset::skip::Skip>,
    /// Add opt-in option column groups (comma-separated): `ukeire2` (ukeire2_avg, ukeire2_sum:
    /// second-order ukeire, the tiles that take the hand two steps forward). Not in a default run:
    /// it is the costliest group after ev (docs/performance.md has the shares), no seed defines it,
    /// and the fitted functions do as well without it. With it the values are the same as before it
    /// became opt-in. Each part's manifest records the groups it holds; `--resume` must use the
    /// same groups.
    #[arg(long, value_parser = haifu::dataset::skip::Skip::parse, value_name = "GROUPS")]
    with: Option<haifu::dataset::skip::Skip>,
}

/// Ingests the records into `--out` and prints the totals as text or JSON; exit status 1 when a
/// file failed. `HAIFU_INGEST_STOP_AFTER_PARTS=N` stops after N parts, as a kill between parts
/// would (for testing `--resume`).
pub fn run(args: IngestArgs) -> Result<ExitCode> {
    let stop_after_parts = std::env::var("HAIFU_INGEST_STOP_AFTER_PARTS").ok().and_then(|v| v.parse().ok());
    let opts = IngestOptions {
        jobs: args.jobs,
        part_games: args.part_games,
        shard: args.shard,
        resume: args.resume,
        force: args.force,
        stop_after_parts,
        skip: Skip::choose(args.skip.unwrap_or(Skip::NONE), args.with.unwrap_or(Skip::NONE))
            .map_err(|e| super::usage(e.to_string()))?,
    };
    let summary = haifu::dataset::ingest::run(&args.paths, &args.out, &opts)?;
    if args.json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        print_text(&summary, &args.out);
    }
    Ok(super::batch_status(summary.tally.errors.is_empty()))
}

/// The text summary: totals, decisions by kind, the first 20 failed files.
fn print_text(summary: &IngestSummary, out: &std::path::Path) {
    let t = &summary.tally;
    println!(
        "{} files, {} games, {} rounds, {} decisions, {} options -> {} ({} parts written, {} kept)",
        summary.files,
        t.games,
        t.rounds,
        t.decisions,
        t.options,
        out.display(),
        summary.parts_written,
        summary.parts_kept
    );
    for (k, n) in &t.decisions_by_kind {
        println!("  {k:8} {n}");
    }
    // Only this run's parts were written (kept parts cost the writer nothing).
    let written: u64 = t.games.saturating_sub(summary.games_kept);
    if let Some(ceiling) = summary.writer_ceiling(written) {
        let ms = |s: f64| 1e3 * s / written as f64;
        println!(
            "  writer   {:.2} ms/game on the writer thread, {:.2} ms/game longest columns over {} chunks at once \
             (pool: {:.2} ms/game CPU): writing saturates at {ceiling:.0} games/s",
            ms(summary.writer_cpu_seconds),
            ms(summary.writer_critical_seconds),
            summary.writer_chunks_in_flight,
            ms(summary.writer_pool_cpu_seconds),
        );
    }
    for e in t.errors.iter().take(20) {
        println!("  error {}: {}", e.file, e.error);
    }
}
