//! `haifu calibrate`: the temperature that turns a weights file's scores into probabilities.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use haifu::fit::load::Memory;
use haifu::model::weights::DEFAULT_PATH;
use haifu::util::markdown::pct;

/// Calibrate fitted weights: fit the softmax temperature that turns their scores into
/// probabilities, and report how well those probabilities match the recorded choices.
///
/// Reads the decisions the weights were fitted on (the weights file's filter, split seed and
/// fractions, columns and interactions) from an `haifu ingest` folder, fits one temperature by
/// maximum likelihood on the validation split, and reports on the validation and test splits
/// the log-loss and the expected calibration error (ECE) of the first choice's probability, with
/// a reliability table. The temperature and the report are written into the weights file (and
/// its markdown report beside it); `haifu fit` does the same as its last step.
///
/// Example: `haifu calibrate --data out/corpus --weights data/weights/default.json`
#[derive(clap::Args)]
pub struct CalibrateArgs {
    /// Folder written by `haifu ingest` (the data the weights were fitted on).
    #[arg(long)]
    data: PathBuf,
    /// Weights file to calibrate (rewritten with its calibration).
    #[arg(long, default_value = DEFAULT_PATH)]
    weights: PathBuf,
    /// Decision data held in memory (e.g. 512M, 2G; default a quarter of RAM, at most 2G); the
    /// rest is streamed from a cache file beside the weights, as `haifu fit` does.
    #[arg(long, value_parser = haifu::fit::store::parse_bytes)]
    memory_budget: Option<usize>,
}

pub fn run(args: CalibrateArgs) -> Result<ExitCode> {
    let spill_dir =
        args.weights.parent().filter(|p| !p.as_os_str().is_empty()).map_or(".".into(), PathBuf::from);
    let memory =
        Memory { budget: args.memory_budget.unwrap_or_else(haifu::fit::store::default_budget), spill_dir };
    let done = haifu::fit::calibrate::calibrate_file(&args.data, &args.weights, &memory)?;
    haifu::fit::run::write_report(&done.file, &args.weights)?;
    let Some(c) = &done.file.calibration else {
        anyhow::bail!("{}: no validation decisions to calibrate on", args.data.display());
    };
    println!("temperature {:.4} (fitted on {} validation decisions)", c.temperature, c.validation.decisions);
    for (name, r) in [("validation", &c.validation), ("test", &c.test)] {
        println!("{name:>10}: {} decisions, log-loss {:.4}, ECE {}", r.decisions, r.log_loss, pct(r.ece));
    }
    if done.fingerprint != done.file.data_fingerprint {
        println!(
            "note: the data read differs from the data the weights were fitted on (fingerprint {} vs {})",
            done.fingerprint, done.file.data_fingerprint
        );
    }
    println!("wrote {} and its report", args.weights.display());
    Ok(ExitCode::SUCCESS)
}
