//! Gradient-boosted trees read from LightGBM's text model (plain or gzipped), scored in Rust, with
//! exact TreeSHAP contributions: [`Trees`].
//!
//! The models are trained outside haifu (LightGBM in Python) and this module answers as LightGBM's
//! `predict` does: single-output models (lambdarank, rank_xendcg, binary, regression) of numerical
//! splits with their missing-value rules. Anything else LightGBM can write (categorical splits,
//! linear trees, several classes, random forest averaging) is refused with a typed error, never
//! misread.
//!
//! It sits low in the house, beside the tiles and hands, because it knows nothing of mahjong: the
//! discard rankers (`model::trees`) and the danger models the option rows are built with
//! (`features::danger`) both score through it.
//!
//! - [`text`]: the file format; [`tree`]: one tree and the rule of a split (the reference);
//! - `flat`: the batch scorer over f32 rows (the fast path; equal to the reference);
//! - `shap`: path-dependent TreeSHAP.

mod error;
mod flat;
mod shap;
pub(crate) mod text;
pub(crate) mod tree;

use std::io::Read;
use std::path::Path;

pub use error::{Place, TreesError, Unsupported};
pub use text::Objective;

/// A model file read and ready to score: see the module doc.
#[derive(Clone, Debug)]
pub struct Trees {
    feature_names: Vec<String>,
    objective: Objective,
    pub(crate) trees: Vec<tree::Tree>,
    flat: flat::Flat,
}

impl Trees {
    /// Reads a model from its text.
    pub fn parse(text: &str) -> Result<Trees, TreesError> {
        let m = text::parse(text)?;
        let flat = flat::Flat::new(&m.trees, m.feature_names.len())?;
        Ok(Trees { feature_names: m.feature_names, objective: m.objective, trees: m.trees, flat })
    }

    /// Reads a model file, gzipped or not (told apart by the gzip magic bytes).
    pub fn read(path: &Path) -> Result<Trees, TreesError> {
        let bytes =
            std::fs::read(path).map_err(|source| TreesError::Read { path: path.to_path_buf(), source })?;
        Trees::from_bytes(&bytes, path)
    }

    /// A model from a file's bytes, gzipped or not (`path` names it in errors).
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Trees, TreesError> {
        let io = |source| TreesError::Read { path: path.to_path_buf(), source };
        let text = if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut s = String::new();
            flate2::read::MultiGzDecoder::new(bytes).read_to_string(&mut s).map_err(io)?;
            s
        } else {
            String::from_utf8(bytes.to_vec())
                .map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))?
        };
        Trees::parse(&text).map_err(|e| TreesError::InFile { path: path.to_path_buf(), source: Box::new(e) })
    }

    /// The model's features, in the order its rows take them.
    pub fn feature_names(&self) -> &[String] {
        &self.feature_names
    }

    pub fn objective(&self) -> Objective {
        self.objective
    }

    /// Number of trees.
    pub fn len(&self) -> usize {
        self.trees.len()
    }

    pub fn is_empty(&self) -> bool {
        self.trees.is_empty()
    }

    /// The sum of the trees' outputs for `row` (model feature order), summed in tree order as
    /// LightGBM does. Panics if `row` is shorter than the model's features.
    pub fn raw_score(&self, row: &[f64]) -> f64 {
        self.trees.iter().map(|t| t.leaf_value[t.leaf(row)]).fold(0.0, |s, v| s + v)
    }

    /// What LightGBM's `predict` gives for `row` (model feature order): the raw score for a
    /// ranking model, the probability for a binary one. Panics if `row` is shorter than the
    /// model's features.
    pub fn predict(&self, row: &[f64]) -> f64 {
        self.output(self.raw_score(row))
    }

    fn output(&self, raw: f64) -> f64 {
        match self.objective {
            Objective::Ranking | Objective::Regression => raw,
            Objective::Binary { sigmoid } => 1.0 / (1.0 + (-sigmoid * raw).exp()),
        }
    }

    /// [`Trees::predict`] of many f32 rows at once (`rows` is row-major, as many features a row
    /// as the model has): the fast path, equal to predicting each row widened to f64. Panics if
    /// `rows` is not a whole number of rows.
    pub fn predict_rows(&self, rows: &[f32]) -> Vec<f64> {
        let width = self.feature_names.len().max(1);
        let mut out = vec![0.0; rows.len() / width];
        self.flat.scores(rows, &mut out);
        if matches!(self.objective, Objective::Binary { .. }) {
            out.iter_mut().for_each(|s| *s = self.output(*s));
        }
        out
    }

    /// Path-dependent TreeSHAP contributions of `row` (model feature order) to its raw score:
    /// one per feature, then the bias (the trees' expected value over their training rows).
    /// They sum to [`Trees::raw_score`] (up to rounding). LightGBM's `pred_contrib=True`.
    pub fn contributions(&self, row: &[f64]) -> Vec<f64> {
        let n = self.feature_names.len();
        let mut phi = vec![0.0; n + 1];
        for t in &self.trees {
            shap::add_tree(t, row, &mut phi[..n]);
            phi[n] += t.expected_value();
        }
        phi
    }
}

#[cfg(test)]
mod tests {
    use super::text::tests::SMALL;
    use super::*;

    #[test]
    fn scores_the_small_model_as_worked_out_by_hand() {
        let t = Trees::parse(SMALL).unwrap();
        // Tree 0: b <= 0.5 (NaN: default left) leads to a <= -1 (NaN: 0.0) -> -0.5, else 0.75;
        // b > 0.5 -> 0.25. Tree 1 adds 0.125.
        let cases = [
            ([-2.0, 0.0], -0.5),
            ([-1.0, 0.5], -0.5),
            ([0.0, 0.0], 0.75),
            ([f64::NAN, 0.0], 0.75),
            ([-2.0, f64::NAN], -0.5),
            ([5.0, 0.6], 0.25),
        ];
        for (row, want) in cases {
            assert_eq!(t.predict(&row), want + 0.125, "{row:?}");
            let wide: Vec<f32> = row.iter().map(|&x| x as f32).collect();
            assert_eq!(t.predict_rows(&wide), [want + 0.125], "{row:?}");
        }
        // Contributions of [0, 0]: tree 0's expected value is (0.25*10 - 0.5*30 + 0.75*60)/100.
        let c = t.contributions(&[0.0, 0.0]);
        assert!((c[2] - (0.325 + 0.125)).abs() < 1e-15, "{c:?}");
        assert!((c.iter().sum::<f64>() - 0.875).abs() < 1e-15);
    }

    #[test]
    fn reads_plain_and_gzipped_files_and_names_the_file_in_errors() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("m.txt");
        std::fs::write(&plain, SMALL).unwrap();
        let gz = dir.path().join("m.txt.gz");
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut e, SMALL.as_bytes()).unwrap();
        std::fs::write(&gz, e.finish().unwrap()).unwrap();
        assert_eq!(Trees::read(&plain).unwrap().len(), 2);
        assert_eq!(Trees::read(&gz).unwrap().len(), 2);
        let bad = dir.path().join("bad.txt");
        std::fs::write(&bad, SMALL.replace("num_class=1", "num_class=3")).unwrap();
        let e = Trees::read(&bad).unwrap_err();
        assert!(e.to_string().contains("bad.txt"), "{e}");
        assert!(
            matches!(e, TreesError::InFile { ref source, .. } if matches!(**source, TreesError::Unsupported(_)))
        );
        assert!(matches!(Trees::read(&dir.path().join("none")), Err(TreesError::Read { .. })));
    }
}
