//! `haifu convert`: records in any format haifu reads into one validated mjai or tenhou.net/6
//! file per game.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use haifu::convert::{Options, Target};

/// Convert records (any format haifu reads) into one validated mjai or tenhou.net/6 file per game.
///
/// `--to mjai` writes OUT/GAME_ID.json.gz, the layout Mortal trains on; `--to tenhou6` writes
/// OUT/GAME_ID.json, the tenhou.net/6 JSON the Tenhou viewer and mjai-reviewer load. A game is
/// written only when it replays, every win re-scores to the recorded payments, and the file read
/// back replays the same; the others are listed with the reason. Exit status: 0 when every record was written
/// (or kept), 1 when some failed, 2 for bad usage, 3 when an output could not be written.
#[derive(clap::Args)]
pub struct ConvertArgs {
    /// Files, folders, archives or databases.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Output format: mjai (gzipped JSON lines) or tenhou6 (tenhou.net/6 JSON).
    #[arg(long, value_parser = ["mjai", "tenhou6"], default_value = "mjai")]
    to: String,
    /// Output folder.
    #[arg(long)]
    out: PathBuf,
    /// Keep the files already in --out.
    #[arg(long)]
    resume: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Print the summary as one JSON object (counts, every error with its file, seconds).
    #[arg(long)]
    json: bool,
}

/// Runs [`haifu::convert::run`] and prints its summary (text or JSON).
pub fn run(args: ConvertArgs) -> Result<ExitCode> {
    let to = if args.to == "tenhou6" { Target::Tenhou6 } else { Target::Mjai };
    let opts = Options { to, out: args.out, jobs: args.jobs, resume: args.resume };
    let s = haifu::convert::run(&args.paths, &opts);
    if args.json {
        println!("{}", serde_json::to_string(&s)?);
    } else {
        println!("{s}");
    }
    Ok(if !s.write_errors.is_empty() { ExitCode::from(3) } else { super::batch_status(s.failed.is_empty()) })
}
