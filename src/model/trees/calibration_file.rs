//! The trees model's calibration, kept in a small JSON file beside the model
//! (`trees.txt.gz` → `trees.calibration.json`): the LightGBM text model is LightGBM's format,
//! which haifu reads but does not extend, so the temperature that turns the trees' scores into
//! probabilities ([`crate::model::calibration`]) lives next to it, as the linear weights file
//! holds its own. The file names the model it was fitted for by a hash of the model's bytes, so a
//! retrained model is never served an older model's temperature.

use std::path::{Path, PathBuf};

use super::TreesError;
use crate::model::calibration::Calibration;

/// What `haifu calibrate --trees` writes beside a trees model.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TreesCalibration {
    /// The model file's name (for the reader) and the FNV-1a hash of its bytes, in hex (the check).
    pub model: String,
    pub model_fnv1a: String,
    /// What the decisions were (the linear weights file whose filter and split were used).
    pub decisions_from: String,
    pub calibration: Calibration,
}

/// The calibration file of the model at `model`: its name up to the first `.`, then
/// `.calibration.json`, in the same folder (`trees.txt.gz` → `trees.calibration.json`).
pub fn calibration_path(model: &Path) -> PathBuf {
    let name = model.file_name().and_then(|n| n.to_str()).unwrap_or("trees");
    let stem = name.split('.').next().filter(|s| !s.is_empty()).unwrap_or("trees");
    model.with_file_name(format!("{stem}.calibration.json"))
}

/// The hash that ties a calibration to the model file's bytes.
pub fn model_hash(bytes: &[u8]) -> String {
    format!("{:016x}", crate::util::fnv1a(bytes))
}

/// The calibration of the model whose file holds `bytes`, read from [`calibration_path`]; `None`
/// when there is no such file. A file fitted for other bytes is an error that says so.
pub fn read_for(model: &Path, bytes: &[u8]) -> Result<Option<Calibration>, TreesError> {
    let path = calibration_path(model);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(TreesError::Read { path, source }),
    };
    let file: TreesCalibration = serde_json::from_str(&text)
        .map_err(|e| TreesError::Calibration { path: path.clone(), reason: e.to_string() })?;
    if file.model_fnv1a != model_hash(bytes) {
        return Err(TreesError::Calibration {
            path,
            reason: format!(
                "it was fitted for another model file than {} (rerun `haifu calibrate --trees`, or delete it)",
                model.display()
            ),
        });
    }
    Ok(Some(file.calibration))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calibration_file_sits_beside_the_model() {
        let p = calibration_path(Path::new("data/weights/trees.txt.gz"));
        assert_eq!(p, Path::new("data/weights/trees.calibration.json"));
        assert_eq!(calibration_path(Path::new("m.txt")), Path::new("m.calibration.json"));
    }

    #[test]
    fn a_calibration_fitted_for_other_bytes_is_refused_and_none_is_no_error() {
        let dir = tempfile::tempdir().unwrap();
        let model = dir.path().join("m.txt");
        assert_eq!(read_for(&model, b"model one").unwrap(), None);
        let file = TreesCalibration {
            model: "m.txt".into(),
            model_fnv1a: model_hash(b"model one"),
            decisions_from: "w.json".into(),
            calibration: Calibration { temperature: 0.9, ..Default::default() },
        };
        std::fs::write(calibration_path(&model), serde_json::to_string(&file).unwrap()).unwrap();
        assert_eq!(read_for(&model, b"model one").unwrap().unwrap().temperature, 0.9);
        let e = read_for(&model, b"model two").unwrap_err().to_string();
        assert!(e.contains("m.calibration.json") && e.contains("another model"), "{e}");
    }
}
