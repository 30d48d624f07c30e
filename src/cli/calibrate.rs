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
/// With `--trees [MODEL]`, a trees model is calibrated instead (default the shipped one of the
/// weights file's decision kind), on the same decisions (the weights file's filter and split):
/// its temperature and report go into `<model>.calibration.json` beside it (trees.txt.gz ->
/// trees.calibration.json), which `review --trees` and `stats --agreement --trees` read to judge
/// that kind's decisions with the trees' probabilities.
///
/// Examples: `haifu calibrate --data out/corpus --weights data/weights/default.json`;
/// `haifu calibrate --data out/corpus --trees` (and `--weights data/weights/riichi.json --trees`
/// for the riichi model)
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
    /// Calibrate this trees model instead (no MODEL: the shipped one of the weights file's
    /// decision kind: data/weights/trees.txt.gz, trees-riichi.txt.gz or trees-call.txt.gz);
    /// --weights only names the decisions (its filter and split).
    #[arg(long, value_name = "MODEL")]
    trees: Option<Option<PathBuf>>,
}

pub fn run(args: CalibrateArgs) -> Result<ExitCode> {
    if let Some(model) = &args.trees {
        return run_trees(&args, model.clone());
    }
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

/// `--trees`: the trees' score gaps on the weights file's validation and test decisions (one
/// scoring pass each, as `haifu eval` scores them), the temperature fitted on the first, and
/// the calibration file written beside the model.
fn run_trees(args: &CalibrateArgs, model: Option<PathBuf>) -> Result<ExitCode> {
    use haifu::eval::dataset::{score, DatasetConfig};
    use haifu::fit::split::Split;
    use haifu::model::calibration::Calibration;
    use haifu::model::trees::calibration_file::{calibration_path, model_hash, TreesCalibration};
    use haifu::rank::Evaluator;

    let file = haifu::model::weights::WeightsFile::read(&args.weights)?;
    let kind = haifu::replay::decision::DecisionKind::from_name(&file.filter.kind)
        .ok_or_else(|| anyhow::anyhow!("{}: decision kind {:?}", args.weights.display(), file.filter.kind))?;
    let model = model.unwrap_or_else(|| haifu::model::trees::default_path_for(kind));
    let mut enabled = [false; Evaluator::COUNT];
    enabled[Evaluator::Trees.index()] = true;
    let gaps = |split: Split| -> Result<Vec<_>> {
        let cfg = DatasetConfig {
            data: args.data.clone(),
            weights: None,
            trees: Some(model.clone()),
            filter: file.filter.clone(),
            seed: file.split_seed,
            validation: file.validation_fraction,
            test: file.test_fraction,
            split: Some(split),
            thresholds: Default::default(),
            push_fold: false,
            enabled,
            gaps_of: Some(Evaluator::Trees),
        };
        Ok(score(&cfg)?.gaps)
    };
    let (validation, test) = (gaps(Split::Validation)?, gaps(Split::Test)?);
    if validation.is_empty() {
        anyhow::bail!(
            "{}: no validation decisions of {} to calibrate on",
            args.data.display(),
            args.weights.display()
        );
    }
    let c = Calibration::fit(&validation, &test);
    let bytes = std::fs::read(&model)?;
    let out = TreesCalibration {
        model: model.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        model_fnv1a: model_hash(&bytes),
        decisions_from: args.weights.display().to_string(),
        calibration: c.clone(),
    };
    let path = calibration_path(&model);
    haifu::util::write_atomic(&path, serde_json::to_string_pretty(&out)? + "\n")?;
    println!("temperature {:.4} (fitted on {} validation decisions)", c.temperature, c.validation.decisions);
    for (name, r) in [("validation", &c.validation), ("test", &c.test)] {
        println!("{name:>10}: {} decisions, log-loss {:.4}, ECE {}", r.decisions, r.log_loss, pct(r.ece));
    }
    println!("wrote {}", path.display());
    Ok(ExitCode::SUCCESS)
}
