//! The weights file: a fitted linear evaluator with everything needed to trust and reproduce it.
//! Deterministic content (no timestamps): the same data and seed give the same file.

use std::path::Path;

use super::error::ModelError;
use super::metrics::Agreement;
use crate::model::filter::Filter;

/// Which loss the fit minimises.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Loss {
    /// Pairwise hinge `Σ_j max(0, margin + z_j)`, the original formulation, made differentiable by
    /// a quadratic piece of width `smoothing` at the kink (a Huberised hinge) so that L-BFGS can
    /// minimise it; as `smoothing` goes to 0 it is the plain hinge.
    Hinge,
    /// Pairwise logistic `Σ_j log(1 + exp(z_j))`.
    Logistic,
    /// Listwise softmax: cross-entropy of the chosen option, `log(1 + Σ_j exp(z_j))`.
    Softmax,
    /// The seed's loss (nisi5028, 麻雀AI開発その47): `Σ_j max(0, v_j − v_chosen)` over every
    /// not-chosen option, summed (a hinge at margin 0, pairs never reweighted). At margin 0 the
    /// all-zero weights are a trivial minimum; the seed avoids it by fixing the scale (shanten
    /// worth 10,000 points a step), so the fit pins the `shanten_min` weight at −1 a step (and
    /// its gated copies at 0): scores are in shanten steps, ×10,000 gives the seed's points.
    /// Smoothed at the kink like [`Loss::Hinge`] so that L-BFGS can minimise it.
    Seed,
}

impl Loss {
    /// Whether the loss sums over (chosen, other) pairs, so that `Pairs` applies.
    pub fn is_pairwise(self) -> bool {
        !matches!(self, Loss::Softmax)
    }
}

/// How a pairwise loss weighs a decision's pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Pairs {
    /// Every pair counts 1: a decision with 14 options weighs 13 times one with 2.
    #[default]
    Sum,
    /// Each of a decision's `n − 1` pairs counts `1 / (n − 1)`: every decision weighs the same,
    /// as in the listwise softmax.
    PerDecision,
    /// LambdaRank-style: each pair counts the other option's share of the decision's current
    /// ranking, `exp(z_j) / Σ_k exp(z_k)` over the not-chosen options at the round's starting
    /// weights, so the pairs that decide top-1 (the pick against the rivals ranked near the top)
    /// carry the weight, and every decision still weighs 1. The shares are held fixed within a
    /// round (the objective L-BFGS sees stays one function) and re-taken at the start of each of
    /// `rounds` rounds; the first round, from all-zero weights, is [`Pairs::PerDecision`].
    Ranked,
}

/// Loss settings beyond the kind.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LossParams {
    pub loss: Loss,
    /// Hinge margin (0 allowed).
    pub margin: f64,
    /// Hinge smoothing width.
    pub smoothing: f64,
    /// Pair weighting of the pairwise losses (ignored by softmax; files written before it existed
    /// read as `sum`, how they were fitted).
    #[serde(default)]
    pub pairs: Pairs,
    /// Rounds of [`Pairs::Ranked`] re-weighting, each a full L-BFGS run warm-started from the
    /// last (1 for every other setting; files written before it existed read as 1).
    #[serde(default = "one_round")]
    pub rounds: u32,
}

fn one_round() -> u32 {
    1
}

/// The column the seed's loss pins ([`Loss::Seed`]): the seed's score starts from
/// `(6 − shanten) × 10,000`.
pub const SEED_PINNED: &str = "shanten_min";

/// The pinned weight of [`SEED_PINNED`], in score units per shanten step (one unit = 10,000 of
/// the seed's points).
pub const SEED_PIN_WEIGHT: f64 = -1.0;

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NamedWeight {
    pub name: String,
    /// Weight in the feature's original units (score = Σ weight × value).
    pub weight: f64,
}

#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SplitCounts {
    pub train: u64,
    pub validation: u64,
    pub test: u64,
}

#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SplitMetrics {
    pub train: Agreement,
    pub validation: Agreement,
    pub test: Agreement,
}

/// One regularisation strength tried, with its validation agreement.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct L2Trial {
    pub l2: f64,
    pub iterations: u64,
    pub validation: Agreement,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WeightsFile {
    pub haifu_version: String,
    pub features: Vec<NamedWeight>,
    pub loss: LossParams,
    /// The chosen L2 strength (on standardised features) and every one tried.
    pub l2: f64,
    pub l2_trials: Vec<L2Trial>,
    pub filter: Filter,
    pub split_seed: u64,
    pub validation_fraction: f64,
    pub test_fraction: f64,
    pub max_decisions: Option<usize>,
    /// Interaction specs of the fit (`gate` or `gate:prefix+prefix`); the expanded columns are
    /// named `level*base` in `features`.
    #[serde(default)]
    pub interactions: Vec<String>,
    pub data_fingerprint: String,
    pub decisions: SplitCounts,
    pub metrics: SplitMetrics,
    pub iterations: u64,
    /// Objective after each L-BFGS iteration of the final fit.
    pub loss_curve: Vec<f64>,
    /// The softmax temperature that turns these weights' scores into probabilities, fitted on
    /// the validation split, with its calibration on both held-out splits; absent in files
    /// written before it existed (`haifu calibrate` adds it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<super::calibration::Calibration>,
}

/// What a fit cost: the whole `haifu fit` run (load, every L2 trial, metrics). Written beside the
/// weights as `NAME.cost.json`, not into them: the weights file and its report stay the same for
/// the same data and seed, the cost never does.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FitCost {
    pub wall_seconds: f64,
    /// Peak resident memory of the process, MiB (`None` off Linux).
    pub peak_rss_mib: Option<f64>,
    /// Passes over the training data (each L-BFGS point costs one).
    pub passes: u64,
    /// Decision data held in memory and streamed from the cache file, MiB.
    pub in_memory_mib: f64,
    pub spilled_mib: f64,
}

impl WeightsFile {
    /// Reads a weights file. A shipped file ([`default_path`] and its `riichi.json` /
    /// `call.json`) that is not on disk any more is read from the copy built into the binary.
    pub fn read(path: &Path) -> Result<WeightsFile, ModelError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(source) => match shipped(path) {
                Some(text) if source.kind() == std::io::ErrorKind::NotFound => text.to_string(),
                _ => return Err(ModelError::Read { path: path.to_path_buf(), source }),
            },
        };
        serde_json::from_str(&text)
            .map_err(|source| ModelError::NotWeights { path: path.to_path_buf(), source })
    }

    /// Pretty JSON with a trailing newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("weights serialise");
        s.push('\n');
        s
    }

    /// The weight of a feature (0 when absent).
    pub fn weight(&self, name: &str) -> f64 {
        self.features.iter().find(|f| f.name == name).map_or(0.0, |f| f.weight)
    }
}

/// Where the linear evaluator's discard weights live unless a command is told otherwise, relative
/// to the working directory: `haifu fit` writes there and `eval` / `report` read there (the clap
/// defaults), `make weights` regenerates the file, and `riichi.json` / `call.json` sit beside it.
pub const DEFAULT_PATH: &str = "data/weights/default.json";

/// The shipped weights, built into the binary: a binary, or the Python package's wheel, moved away
/// from the source tree it was built from still has them ([`WeightsFile::read`]).
const SHIPPED: [(&str, &str); 7] = [
    ("default.json", include_str!("../../data/weights/default.json")),
    ("riichi.json", include_str!("../../data/weights/riichi.json")),
    ("call.json", include_str!("../../data/weights/call.json")),
    ("sanma.json", include_str!("../../data/weights/sanma.json")),
    ("sanma-riichi.json", include_str!("../../data/weights/sanma-riichi.json")),
    ("sanma-call.json", include_str!("../../data/weights/sanma-call.json")),
    ("sanma-kita.json", include_str!("../../data/weights/sanma-kita.json")),
];

/// The built-in copy of a shipped weights file, by its path in the source tree.
fn shipped(path: &Path) -> Option<&'static str> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/weights");
    if path.parent()? != dir {
        return None;
    }
    let name = path.file_name()?.to_str()?;
    SHIPPED.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}

/// The default weights file to load when none is named: [`DEFAULT_PATH`] under the working
/// directory when it exists (weights you refitted), else the one shipped in the source tree this
/// binary was built from, so `nanikiru`, `review` and the `linear` bot work from any folder.
pub fn default_path() -> std::path::PathBuf {
    default_path_of(DEFAULT_PATH)
}

/// The three-player discard weights ([`default_path`]'s rule): `data/weights/sanma.json`.
pub fn default_sanma_path() -> std::path::PathBuf {
    default_path_of(SANMA_PATH)
}

/// The weights `eval` and `report` score a kind of decision with when none is named: at four
/// players [`DEFAULT_PATH`] (as named, under the working directory); at three the three-player
/// model of the kind (`sanma.json`, `sanma-riichi.json`, `sanma-call.json`, `sanma-kita.json`,
/// [`default_path`]'s rule), so a four-player model never judges a three-player decision.
pub fn default_for(players: u8, kind: &str) -> std::path::PathBuf {
    match (players, kind) {
        (3, "discard") => default_sanma_path(),
        (3, k) => default_path_of(&format!("data/weights/sanma-{k}.json")),
        _ => std::path::PathBuf::from(DEFAULT_PATH),
    }
}

/// Where `make sanma-weights` writes the three-player discard weights (the riichi, call and
/// north models beside them).
pub const SANMA_PATH: &str = "data/weights/sanma.json";

fn default_path_of(path: &str) -> std::path::PathBuf {
    let local = Path::new(path);
    if local.exists() {
        local.to_path_buf()
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_copies_are_the_shipped_files() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/weights");
        for name in SHIPPED.map(|(n, _)| n) {
            let path = dir.join(name);
            let on_disk = std::fs::read_to_string(&path).unwrap();
            assert_eq!(shipped(&path), Some(on_disk.as_str()), "{name}");
            let file: WeightsFile = serde_json::from_str(shipped(&path).unwrap()).unwrap();
            assert!(!file.features.is_empty());
        }
        // Only the shipped paths: a file of the same name elsewhere is not replaced.
        assert_eq!(shipped(Path::new("/elsewhere/default.json")), None);
        assert_eq!(shipped(&dir.join("other.json")), None);
        assert!(matches!(
            WeightsFile::read(Path::new("/elsewhere/default.json")),
            Err(ModelError::Read { .. })
        ));
    }

    #[test]
    fn three_player_decisions_default_to_the_three_player_weights() {
        assert_eq!(default_for(4, "discard"), Path::new(DEFAULT_PATH));
        assert_eq!(default_for(4, "riichi"), Path::new(DEFAULT_PATH));
        for (kind, file) in
            [("discard", "sanma.json"), ("riichi", "sanma-riichi.json"), ("kita", "sanma-kita.json")]
        {
            let p = default_for(3, kind);
            assert!(p.ends_with(format!("data/weights/{file}")) && p.exists(), "{}", p.display());
        }
    }
}
