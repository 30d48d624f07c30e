//! The commands of the `haifu` binary, one file each: the command's clap arguments (`XArgs`, whose
//! doc comment is the command's `--help` text) beside its documented `run(args) -> Result<ExitCode>`.
//! A command only parses, calls the library and prints; what it computes lives in the library.
//!
//! To add a command: write `src/cli/<name>.rs` with `pub struct <Name>Args` (`#[derive(clap::Args)]`,
//! documented) and `pub fn run(args: <Name>Args) -> anyhow::Result<ExitCode>`; declare it below;
//! add `<Name>(cli::<name>::<Name>Args)` to `Command` in `main.rs` and its arm to `run` there; and
//! add a test to `tests/cli.rs`. Report bad input clap cannot see with [`usage`] (exit status 2).
//!
//! Exit status: 0 success, 1 some input failed (the batch went on), 2 bad usage, 3 any other
//! runtime error (a file that cannot be written, a missing weights file, ...).

use std::process::ExitCode;

pub mod bot;
pub mod calibrate;
pub mod check;
pub mod convert;
pub mod eval;
pub mod fit;
pub mod ingest;
pub mod nanikiru;
pub mod report;
pub mod review;
pub mod schema;
pub mod select;
pub mod shanten;
pub mod simulate;
pub mod stats;

/// A mistake on the command line that clap cannot see (a hand, a tile, a flag combination):
/// exit status 2, like clap's own usage errors. Every other error is a runtime error (exit 3).
#[derive(Debug)]
pub struct Usage(String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// A [`Usage`] error with this message.
pub fn usage(msg: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Usage(msg.into()))
}

/// The exit status of a failed command: 2 when the error (or any cause) is a [`Usage`] error,
/// else 3.
pub fn error_status(e: &anyhow::Error) -> ExitCode {
    if e.chain().any(|c| c.is::<Usage>()) {
        ExitCode::from(2)
    } else {
        ExitCode::from(3)
    }
}

/// The exit status of a batch that finished: 0 when every input went through, 1 when some failed
/// (they were reported and the batch went on).
pub fn batch_status(all_ok: bool) -> ExitCode {
    if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
