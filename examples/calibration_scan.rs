//! How the calibration of a weights file moves with the temperature: log-loss and ECE on the
//! validation and test splits over a grid of temperatures around the fitted one (the
//! maximum-likelihood temperature `haifu calibrate` writes is marked).
//!
//!     cargo run --release --example calibration_scan -- DATA WEIGHTS
use std::path::Path;

use haifu::fit::calibrate::held_out_gaps;
use haifu::fit::load::Memory;
use haifu::model::calibration::{fit_temperature, report};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    anyhow::ensure!(args.len() == 3, "usage: calibration_scan DATA WEIGHTS");
    let memory = Memory { budget: haifu::fit::store::default_budget(), spill_dir: std::env::temp_dir() };
    let (_, [val, test], _) = held_out_gaps(Path::new(&args[1]), Path::new(&args[2]), &memory)?;
    let t0 = fit_temperature(&val);
    println!(
        "| T | validation log-loss | validation ECE | test log-loss | test ECE |\n|---|---|---|---|---|"
    );
    for i in -8..=8 {
        let t = t0 * 1.1f64.powi(i);
        let (v, s) = (report(&val, t), report(&test, t));
        let mark = if i == 0 { " (fitted)" } else { "" };
        println!(
            "| {t:.4}{mark} | {:.4} | {:.2}% | {:.4} | {:.2}% |",
            v.log_loss,
            100.0 * v.ece,
            s.log_loss,
            100.0 * s.ece
        );
    }
    Ok(())
}
