//! LightGBM as the referee: the models in `testdata/` and LightGBM's own `predict` and
//! `pred_contrib` outputs, written by `scripts/trees_fixture.py` (see it for the models and the
//! file layout). The rows are not stored: both sides draw them from the same splitmix64 stream.
//!
//! The stored outputs are rounded to a grid of `1 / scale`; manifest.json gives the largest error
//! that rounding made (`*_rounding`, 0 where the grid holds the outputs exactly), and each check
//! allows its bound minus that error: passing means |haifu - LightGBM| is within the bound itself.

use std::io::Read;
use std::path::PathBuf;

use super::Trees;
use crate::gbdt::tree::Missing;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/model/trees/testdata")
}

/// Steele, Lea and Flood's splitmix64, as the fixture script writes it.
pub(super) struct SplitMix64(u64);

impl SplitMix64 {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// One value from one draw (the script's `value`): the top 4 bits pick NaN (0), 0.0 (1, 2) or a
/// number; feature j % 3 == 0 holds integers 0..8, the others multiples of 2^-16 in [-8, 8).
fn value(u: u64, feature: usize) -> f64 {
    match u >> 60 {
        0 => f64::NAN,
        1 | 2 => 0.0,
        _ if feature % 3 == 0 => ((u >> 11) % 9) as f64,
        _ => ((u >> 11) & 0xF_FFFF) as f64 / 65536.0 - 8.0,
    }
}

/// `n` rows of `features` values, row-major (the script's `rows` with every feature allowed NaN).
fn rows(seed: u64, n: usize, features: usize) -> Vec<f64> {
    let mut g = SplitMix64(seed);
    (0..n * features).map(|i| value(g.next(), i % features)).collect()
}

/// One model of the fixture with its referee outputs.
struct Case {
    trees: Trees,
    text: String,
    rows: Vec<f64>,
    features: usize,
    predict: Vec<f64>,
    predict_rounding: f64,
    contrib: Vec<f64>,
    contrib_rounding: f64,
}

fn gunzip(name: &str) -> Vec<u8> {
    let bytes = std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes.as_slice()).read_to_end(&mut out).unwrap();
    out
}

/// A file of zigzag-coded i64 byte planes (the script's `planes`), divided by `scale`.
fn planes(name: &str, scale: f64) -> Vec<f64> {
    let b = gunzip(name);
    assert_eq!(b.len() % 8, 0, "{name}");
    let n = b.len() / 8;
    (0..n)
        .map(|i| {
            let z = (0..8).fold(0u64, |z, k| z | (b[k * n + i] as u64) << (8 * k));
            let q = (z >> 1) as i64 ^ -((z & 1) as i64);
            q as f64 / scale
        })
        .collect()
}

fn case(name: &str) -> Case {
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir().join("manifest.json")).unwrap()).unwrap();
    let m = &manifest[name];
    let int = |k: &str| m[k].as_u64().unwrap_or_else(|| panic!("{name}.{k}"));
    let float = |k: &str| m[k].as_f64().unwrap_or_else(|| panic!("{name}.{k}"));
    let features = int("features") as usize;
    let text = String::from_utf8(gunzip(&format!("{name}.txt.gz"))).unwrap();
    let trees = Trees::parse(&text).unwrap();
    assert_eq!(trees.feature_names().len(), features);
    assert_eq!(trees.len() as u64, int("trees"));
    let predict = planes(&format!("{name}.predict.gz"), float("predict_scale"));
    let contrib = planes(&format!("{name}.contrib.gz"), float("contrib_scale"));
    assert_eq!(predict.len() as u64, int("predict_rows"));
    assert_eq!(contrib.len() as u64, int("contrib_rows") * (features as u64 + 1));
    Case {
        trees,
        text,
        rows: rows(int("row_seed"), predict.len(), features),
        features,
        predict,
        predict_rounding: float("predict_rounding"),
        contrib,
        contrib_rounding: float("contrib_rounding"),
    }
}

impl Case {
    fn row(&self, i: usize) -> &[f64] {
        &self.rows[i * self.features..(i + 1) * self.features]
    }

    /// Largest |haifu - LightGBM| of `predict`, row by row in f64 and in f32 batches: of all the
    /// rows (most batches hold a NaN, so they take the careful step) and of the rows without NaN
    /// alone (the plain step).
    fn predict_gaps(&self, trees: &Trees) -> (f64, f64) {
        let one = (0..self.predict.len()).map(|i| (trees.predict(self.row(i)) - self.predict[i]).abs());
        let narrow: Vec<f32> = self.rows.iter().map(|&x| x as f32).collect();
        let batch = trees.predict_rows(&narrow).into_iter().zip(&self.predict).map(|(a, b)| (a - b).abs());
        let plain: Vec<usize> =
            (0..self.predict.len()).filter(|&i| !self.row(i).iter().any(|x| x.is_nan())).collect();
        let narrow: Vec<f32> = plain.iter().flat_map(|&i| self.row(i).iter().map(|&x| x as f32)).collect();
        let plain =
            trees.predict_rows(&narrow).into_iter().zip(&plain).map(|(a, &i)| (a - self.predict[i]).abs());
        (one.fold(0.0, f64::max), batch.chain(plain).fold(0.0, f64::max))
    }

    /// Checks predictions to 1e-9, contributions to 1e-6 and that contributions sum to the raw
    /// score; returns the largest gaps (predictions, contributions).
    fn check(&self) -> (f64, f64) {
        assert!(self.rows.iter().all(|x| (*x as f32) as f64 == *x || x.is_nan()), "rows exact in f32");
        let (one, batch) = self.predict_gaps(&self.trees);
        let bound = 1e-9 - self.predict_rounding;
        assert!(one <= bound && batch <= bound, "predict: {one:e} (f64), {batch:e} (f32 batches)");
        let width = self.features + 1;
        let mut worst = 0.0f64;
        for (i, want) in self.contrib.chunks_exact(width).enumerate() {
            let got = self.trees.contributions(self.row(i));
            for (g, w) in got.iter().zip(want) {
                worst = worst.max((g - w).abs());
            }
            let raw = self.trees.raw_score(self.row(i));
            assert!((got.iter().sum::<f64>() - raw).abs() < 1e-9, "row {i}: contributions do not sum");
        }
        assert!(worst <= 1e-6 - self.contrib_rounding, "contributions: {worst:e}");
        (one.max(batch), worst)
    }
}

#[test]
fn rank_model_equals_lightgbm() {
    let c = case("rank");
    assert!(c.predict.len() >= 100_000 && c.contrib.len() / (c.features + 1) >= 10_000);
    let (p, s) = c.check();
    eprintln!(
        "rank: {} rows, max |predict gap| {p:e}; {} rows, max |contribution gap| {s:e}",
        c.predict.len(),
        c.contrib.len() / (c.features + 1)
    );
}

#[test]
fn binary_model_equals_lightgbm() {
    let c = case("binary");
    let (p, s) = c.check();
    eprintln!("binary: max |predict gap| {p:e}, max |contribution gap| {s:e}");
}

/// The fixture means something only if its models hold every rule and its rows reach them: NaN
/// splits defaulting left and right, None splits, Zero splits both ways, NaN and 0.0 in rows.
#[test]
fn the_fixture_exercises_every_missing_rule() {
    let kinds = |c: &Case| {
        let mut k: Vec<(Missing, bool)> =
            c.trees.trees.iter().flat_map(|t| t.splits.iter().map(|s| (s.missing, s.default_left))).collect();
        k.sort_by_key(|&(m, d)| (m as u8, d));
        k.dedup();
        k
    };
    let rank = case("rank");
    let k = kinds(&rank);
    for want in [(Missing::NaN, true), (Missing::NaN, false)] {
        assert!(k.contains(&want), "rank lacks {want:?}: {k:?}");
    }
    assert!(k.iter().any(|&(m, _)| m == Missing::None), "{k:?}");
    let k = kinds(&case("binary"));
    assert!(k.contains(&(Missing::Zero, true)) && k.contains(&(Missing::Zero, false)), "{k:?}");
    let nan = rank.rows.iter().filter(|x| x.is_nan()).count();
    let zero = rank.rows.iter().filter(|&&x| x == 0.0).count();
    assert!(nan > rank.rows.len() / 20 && zero > rank.rows.len() / 10, "{nan} NaN, {zero} zeros");
}

/// The comparison can fail: a model with one threshold moved, or one default side flipped,
/// disagrees with LightGBM's outputs.
#[test]
fn a_tampered_model_disagrees_with_lightgbm() {
    let c = case("rank");
    let tampered = |from: &str, to: &str| {
        let at = c.text.find(from).unwrap_or_else(|| panic!("{from}"));
        let mut t = c.text.clone();
        t.replace_range(at..at + from.len(), to);
        Trees::parse(&t).unwrap()
    };
    // Tree 0's first threshold, nudged by 1.
    let line = c.text.lines().find(|l| l.starts_with("threshold=")).unwrap();
    let first = line["threshold=".len()..].split(' ').next().unwrap();
    let plus_one = format!("{:?}", first.parse::<f64>().unwrap() + 1.0);
    let moved = tampered(line, &line.replacen(first, &plus_one, 1));
    let (one, batch) = c.predict_gaps(&moved);
    assert!(one > 1e-3 && batch > 1e-3, "{one} {batch}");
    // The splits of one tree with missing type NaN and default left (decision_type 10), made
    // default right (8).
    let line = c.text.lines().find(|l| l.starts_with("decision_type=") && l.contains("10")).unwrap();
    let flipped =
        line.split(' ').map(|d| if d.ends_with("10") { d.replace("10", "8") } else { d.to_string() });
    let flipped = tampered(line, &flipped.collect::<Vec<_>>().join(" "));
    let (one, batch) = c.predict_gaps(&flipped);
    assert!(one > 1e-3 && batch > 1e-3, "{one} {batch}");
}

/// `scripts/trees.py` ships its models without LightGBM's own per-node statistics (`split_gain`,
/// `leaf_weight`, `internal_value`, `internal_weight`; half the gzipped file): haifu reads such a
/// text to LightGBM's scores and contributions as well (TreeSHAP needs only the counts).
#[test]
fn the_compact_text_equals_lightgbm_too() {
    let mut c = case("rank");
    let unused = ["split_gain=", "leaf_weight=", "internal_value=", "internal_weight="];
    let text: String = c
        .text
        .lines()
        .filter(|l| !unused.iter().any(|k| l.starts_with(k)))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(text.len() * 4 < c.text.len() * 3, "{} of {} bytes", text.len(), c.text.len());
    c.trees = Trees::parse(&text).unwrap();
    c.check();
}
