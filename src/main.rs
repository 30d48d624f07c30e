//! The haifu command line: a thin layer that parses arguments and hands each command to its file
//! under `src/cli/` (see `cli/mod.rs` for how to add one). The commands' `--help` texts are the
//! doc comments of their argument structs there.

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

mod cli;

#[derive(Parser)]
#[command(name = "haifu", version, about = "Tenhou game records into measured knowledge", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The commands, in the order `haifu --help` lists them.
#[derive(Subcommand)]
enum Command {
    Check(cli::check::CheckArgs),
    Bot(cli::bot::BotArgs),
    Convert(cli::convert::ConvertArgs),
    Ingest(cli::ingest::IngestArgs),
    Fit(cli::fit::FitArgs),
    Calibrate(cli::calibrate::CalibrateArgs),
    Eval(cli::eval::EvalArgs),
    Report(cli::report::ReportArgs),
    Review(cli::review::ReviewArgs),
    Schema(cli::schema::SchemaArgs),
    Stats(cli::stats::StatsArgs),
    Shanten(cli::shanten::ShantenArgs),
    Simulate(cli::simulate::SimulateArgs),
    Nanikiru(cli::nanikiru::NanikiruArgs),
}

/// Exit status: 0 success, 1 some input failed (the batch went on), 2 bad usage, 3 any other
/// runtime error (a file that cannot be written, a missing weights file, ...).
fn main() -> ExitCode {
    quiet_broken_pipe();
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("haifu: error: {e:#}");
            cli::error_status(&e)
        }
    }
}

/// A reader that stops early (`haifu schema | head`) closes the pipe, and `println!` then panics
/// with "failed printing to stdout: Broken pipe". That is the reader's choice, not an error of
/// haifu's: the process ends quietly with status 0, as other command-line tools do, instead of a
/// panic message and a backtrace. Every other panic keeps the default report.
fn quiet_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.starts_with("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info)
    }));
}

/// Runs one command.
fn run(command: Command) -> Result<ExitCode> {
    match command {
        Command::Check(args) => cli::check::run(args),
        Command::Convert(args) => cli::convert::run(args),
        Command::Ingest(args) => cli::ingest::run(args),
        Command::Fit(args) => cli::fit::run(args),
        Command::Calibrate(args) => cli::calibrate::run(args),
        Command::Eval(args) => cli::eval::run(args),
        Command::Report(args) => cli::report::run(args),
        Command::Review(args) => cli::review::run(args),
        Command::Schema(args) => cli::schema::run(args),
        Command::Stats(args) => cli::stats::run(args),
        Command::Shanten(args) => cli::shanten::run(args),
        Command::Bot(args) => cli::bot::run(args),
        Command::Simulate(args) => cli::simulate::run(args),
        Command::Nanikiru(args) => cli::nanikiru::run(args),
    }
}
