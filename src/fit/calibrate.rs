//! Calibration of fitted weights ([`crate::model::calibration`]): the gaps of each held-out
//! decision's options to the chosen one under the weights, the temperature fitted on the
//! validation split, and its report on both held-out splits. The fit calls it last; `haifu
//! calibrate` adds it to a weights file written before it existed.

use std::path::Path;

use super::error::Result;
use super::load::{load, Loaded, Memory};
use super::store::Store;
use crate::model::calibration::{Calibration, Gaps};
use crate::model::derived::Derived;
use crate::model::gates::Interaction;
use crate::model::weights::WeightsFile;
use crate::util::markdown::{pct, table};

/// Every decision of `store` as its options' score gaps to the chosen one, under `ws` (weights
/// per expanded column, original units).
pub fn gaps(store: &Store, ws: &[f64]) -> Result<Vec<Gaps>> {
    let parts = store.map_chunks(|chunk| {
        (0..chunk.decisions())
            .map(|d| chunk.decision_rows(d).map(|r| chunk.row_dot(d, r, ws)).collect())
            .collect::<Vec<Gaps>>()
    })?;
    Ok(parts.into_iter().flatten().collect())
}

/// The calibration of weights `ws` on a loaded dataset; `None` without validation decisions.
pub fn calibration(loaded: &Loaded, ws: &[f64]) -> Result<Option<Calibration>> {
    if loaded.validation.is_empty() {
        return Ok(None);
    }
    Ok(Some(Calibration::fit(&gaps(&loaded.validation, ws)?, &gaps(&loaded.test, ws)?)))
}

/// What `haifu calibrate` did: the updated weights file and whether the data it read is the
/// data the weights were fitted on.
pub struct Calibrated {
    pub file: WeightsFile,
    /// The fingerprint of the values read now; the fit's is in `file.data_fingerprint`.
    pub fingerprint: String,
}

/// The held-out decisions of the weights file `path` as score gaps: its filter, split and
/// columns loaded from `data`, scored with its weights. Returns the file, the validation and
/// test gaps, and the fingerprint of the values read.
pub fn held_out_gaps(
    data: &Path,
    path: &Path,
    memory: &Memory,
) -> Result<(WeightsFile, [Vec<Gaps>; 2], String)> {
    let file = WeightsFile::read(path)?;
    let base: Vec<String> =
        file.features.iter().filter(|f| !f.name.contains('*')).map(|f| f.name.clone()).collect();
    // The derived columns are computed from the others, not read (the fit added all it could).
    let derived = Derived::named(&base, &base).names();
    let base: Vec<String> = base.into_iter().filter(|n| !derived.contains(n)).collect();
    let interactions =
        file.interactions.iter().map(|s| Interaction::parse(s)).collect::<Result<Vec<_>, _>>()?;
    let loaded = load(
        data,
        &file.filter,
        file.split_seed,
        file.validation_fraction,
        file.test_fraction,
        file.max_decisions,
        Some(&base),
        &interactions,
        !derived.is_empty(),
        memory,
    )?;
    let ws: Vec<f64> = loaded.feature_names.iter().map(|n| file.weight(n)).collect();
    let held_out = [gaps(&loaded.validation, &ws)?, gaps(&loaded.test, &ws)?];
    Ok((file, held_out, loaded.fingerprint))
}

/// Loads the decisions the weights file `path` was fitted on (its filter, split and columns)
/// from `data`, calibrates the weights, and writes the file back with its calibration (its
/// markdown report is the caller's: `fit::run::write_report`).
pub fn calibrate_file(data: &Path, path: &Path, memory: &Memory) -> Result<Calibrated> {
    let (mut file, [validation, test], fingerprint) = held_out_gaps(data, path, memory)?;
    file.calibration = (!validation.is_empty()).then(|| Calibration::fit(&validation, &test));
    crate::util::write_atomic(path, file.to_json())?;
    Ok(Calibrated { file, fingerprint })
}

/// The calibration section of a weights report (markdown); empty without a calibration.
pub fn markdown(file: &WeightsFile) -> String {
    let Some(c) = &file.calibration else { return String::new() };
    let mut md = format!(
        "## Calibration\n\nProbabilities are `softmax(score / T)` with T = {:.4}, fitted on the validation split. \
         ECE over {} equal-width bins of the first choice's probability.\n\n",
        c.temperature,
        crate::model::calibration::BINS
    );
    md.push_str(&table(
        &["split", "decisions", "log-loss", "ECE"],
        &[("validation", &c.validation), ("test", &c.test)]
            .iter()
            .map(|(n, r)| {
                vec![n.to_string(), r.decisions.to_string(), format!("{:.4}", r.log_loss), pct(r.ece)]
            })
            .collect::<Vec<_>>(),
    ));
    md.push_str("\nReliability on the test split:\n\n");
    md.push_str(&table(
        &["first choice's probability", "decisions", "mean probability", "taken"],
        &c.test
            .bins
            .iter()
            .filter(|b| b.decisions > 0)
            .map(|b| {
                vec![
                    format!("{:.1}-{:.1}", b.lo, b.hi),
                    b.decisions.to_string(),
                    pct(b.confidence),
                    pct(b.accuracy),
                ]
            })
            .collect::<Vec<_>>(),
    ));
    md.push('\n');
    md
}
