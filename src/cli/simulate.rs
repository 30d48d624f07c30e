//! `haifu simulate`: self-play games between bots.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use haifu::sim::run::{simulate, RecordFormat, SimConfig};

/// Self-play: N games of 4 bots under Tenhou rules, one mjlog per game plus a per-bot summary.
///
/// Writes DIR/sim-<seed>-<index>.mjlog (readable by `haifu check` and every other stage),
/// DIR/summary.csv and DIR/summary.md (placements, win / deal-in / riichi / call rates, score
/// balance by outcome, with 95% intervals). With --duplicate each wall set is played 4 times
/// with the bots rotated through the seats. The same seed gives the same files for any --jobs.
#[derive(clap::Args)]
pub struct SimulateArgs {
    /// Games to play (a multiple of the seat count with --duplicate; rounded up).
    #[arg(long)]
    games: usize,
    /// One bot for all seats or four, comma-separated: an evaluator name (ukeire), stress, or a
    /// 電脳麻将 player of seed 000's table: majiang-0400 (改善前), majiang-0401 (改善(1)),
    /// majiang-0402 (改善(2): push/fold by each discard's value and danger, calls by value), or
    /// fitted: discards, riichi and calls by the shipped models (docs/bot.md).
    #[arg(long, value_delimiter = ',', required = true)]
    bots: Vec<String>,
    /// Seed of the walls (and of the stress bot's random choices).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Play each wall set once per seat, rotating the bots through the seats.
    #[arg(long)]
    duplicate: bool,
    /// East-only games (default: hanchan).
    #[arg(long)]
    tonpuu: bool,
    /// Output folder.
    #[arg(long)]
    out: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Record files per game: mjlog, mjai (DIR/sim-<seed>-<index>.json.gz, validated as `haifu
    /// convert` writes it: Mortal and RiichiEnv read it) or both.
    #[arg(long, value_enum, default_value_t = RecordFormat::Mjlog)]
    format: RecordFormat,
    /// Seats at the table: 4, or 3 (Tenhou's three-player rules: 108 tiles, no chi, norths set
    /// aside, tsumo loss, 35,000 / 40,000); --bots then takes one bot or three, and --duplicate
    /// plays each wall set 3 times. The ev, majiang and trees bots are four-player only.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(3..=4))]
    players: u8,
}

/// Plays the games, writes the records and summaries, prints the per-bot report; exit status 1
/// when a game failed.
pub fn run(args: SimulateArgs) -> Result<ExitCode> {
    let SimulateArgs { games, bots, seed, duplicate, tonpuu, out, jobs, format, players } = args;
    let report =
        simulate(&SimConfig { games, bots, seed, duplicate, hanchan: !tonpuu, players, out, jobs, format })?;
    print!("{}", report.text());
    Ok(super::batch_status(report.failures.is_empty()))
}
