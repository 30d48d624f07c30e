//! `haifu check`: replay and re-score every record, print the summary.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use haifu::replay::check::check_paths;

/// Replay every game with full validation and re-score every win against Tenhou's record.
///
/// PATH may be mjlog XML (plain or gzipped), tenhou.net/6 JSON, folders (recursive), .zip
/// archives, or SQLite databases of the phoenix-logs downloader. A file that fails is reported
/// with the reason and the batch goes on. Besides every win, the record's start (East 1, 0 honba,
/// the starting scores), its end under the rules and its stated result (final scores and
/// points) are checked: a record holding less than a whole game is listed as partial. Exit
/// status: 0 when everything read and agreed and every record is a whole game, 1 when anything
/// failed, disagreed or was partial (not partial with --allow-partial), 2 for bad usage, 3 for
/// other errors.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// Files, folders, archives or databases.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Partial records (clipped logs: a late start, no end, no stated result) are still listed
    /// but do not make the exit status 1.
    #[arg(long)]
    allow_partial: bool,
}

/// Replays and re-scores everything under the paths and prints [`haifu::replay::check::CheckSummary`]
/// as text or JSON; exit status 1 when a file failed or a win disagreed with its record.
pub fn run(args: CheckArgs) -> Result<ExitCode> {
    let summary = check_paths(&args.paths, args.jobs);
    if args.json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        print!("{summary}");
    }
    Ok(super::batch_status(summary.is_clean(args.allow_partial)))
}
