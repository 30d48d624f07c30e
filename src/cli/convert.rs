//! `haifu convert`: records in any format haifu reads into one validated mjai or tenhou.net/6
//! file per game.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use haifu::convert::{Options, Summary, Target};

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
}

/// Runs [`haifu::convert::run`] and prints its summary with the rate of games written.
pub fn run(args: ConvertArgs) -> Result<ExitCode> {
    let to = if args.to == "tenhou6" { Target::Tenhou6 } else { Target::Mjai };
    let opts = Options { to, out: args.out, jobs: args.jobs, resume: args.resume };
    let started = std::time::Instant::now();
    let s = haifu::convert::run(&args.paths, &opts);
    print_summary(&s, started.elapsed().as_secs_f64());
    Ok(if !s.write_errors.is_empty() { ExitCode::from(3) } else { super::batch_status(s.failed.is_empty()) })
}

fn print_summary(s: &Summary, secs: f64) {
    println!("files    {}", s.files);
    println!("written  {} ({:.0} games/s)", s.written, s.written as f64 / secs.max(1e-9));
    println!("kept     {}", s.kept);
    println!("failed   {}", s.failed.len());
    println!("skipped  {}", s.skipped.len());
    for e in s.failed.iter().chain(&s.write_errors).take(20) {
        println!("  error {}: {}", e.file, e.error);
    }
}
