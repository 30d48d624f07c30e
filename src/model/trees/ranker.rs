//! The `trees` evaluator: a trees model file lined up once with haifu's rows ([`inputs`]), then
//! asked for live positions ([`TreesRanker::rank`], [`TreesRanker::explain`]) and for the
//! dataset's rows ([`TreesRanker::score_rows`]) by the same function.

use std::path::{Path, PathBuf};

use super::inputs::{self, column, Situation};
use super::{calibration_file, Layout, Trees, TreesError};
use crate::features::groups::Skip;
use crate::features::FeatureError;
use crate::model::calibration::Calibration;
use crate::model::linear::{Contribution, Explained};
use crate::rank::RankedDiscard;
use crate::replay::decision::DecisionKind;
use crate::replay::view::View;

/// Where `make trees` writes the discard model and where `--evaluator trees` looks for it,
/// relative to the working directory (else in the source tree the binary was built from).
pub const DEFAULT_PATH: &str = "data/weights/trees.txt.gz";

/// The model file to load when none is named: [`DEFAULT_PATH`] under the working directory when
/// it exists, else the one in this binary's source tree.
pub fn default_path() -> PathBuf {
    default_path_for(DecisionKind::Discard)
}

/// The model of a decision kind beside the discard model `discard`: `trees.txt.gz` →
/// `trees-riichi.txt.gz`, `trees-call.txt.gz` (the discard model itself for discards).
pub fn beside(discard: &Path, kind: DecisionKind) -> PathBuf {
    if kind == DecisionKind::Discard {
        return discard.to_path_buf();
    }
    let name = discard.file_name().and_then(|n| n.to_str()).unwrap_or("trees.txt.gz");
    let (stem, rest) = name.split_once('.').unwrap_or((name, "txt.gz"));
    discard.with_file_name(format!("{stem}-{}.{rest}", kind.name()))
}

/// [`default_path`] for the models of riichi and call decisions (`make trees` trains all three).
pub fn default_path_for(kind: DecisionKind) -> PathBuf {
    let rel = beside(Path::new(DEFAULT_PATH), kind);
    if rel.exists() {
        rel
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
    }
}

/// Where `make sanma-trees` writes the three-player discard model (the riichi and call models
/// beside it, [`beside`]).
pub const SANMA_PATH: &str = "data/weights/trees-sanma.txt.gz";

/// The three-player model of a decision kind, when there is one (discards, riichi and calls;
/// none for the north): [`SANMA_PATH`] or its [`beside`] under the working directory or this
/// binary's source tree. A four-player model never stands in for it.
pub fn sanma_path_for(kind: DecisionKind) -> Option<PathBuf> {
    if !matches!(kind, DecisionKind::Discard | DecisionKind::Riichi | DecisionKind::Call) {
        return None;
    }
    let rel = beside(Path::new(SANMA_PATH), kind);
    Some(if rel.exists() { rel } else { Path::new(env!("CARGO_MANIFEST_DIR")).join(rel) })
        .filter(|p| p.exists())
}

/// The trees models of the three decision kinds, each when it exists: what `review --trees` and
/// `stats --agreement --trees` judge with (linear judges a kind without one).
#[derive(Clone, Debug, Default)]
pub struct TreesByKind {
    pub discard: Option<TreesRanker>,
    pub riichi: Option<TreesRanker>,
    pub call: Option<TreesRanker>,
}

impl TreesByKind {
    /// The discard model at `discard` (default [`default_path`]; it must exist), and the riichi
    /// and call models beside it ([`beside`]), else the shipped ones, else none.
    pub fn load(discard: Option<&Path>) -> Result<TreesByKind, TreesError> {
        let d = discard.map_or_else(default_path, Path::to_path_buf);
        let other = |kind| -> Result<Option<TreesRanker>, TreesError> {
            let path = [beside(&d, kind), default_path_for(kind)].into_iter().find(|p| p.exists());
            path.map(|p| TreesRanker::load(Some(&p))).transpose()
        };
        Ok(TreesByKind {
            discard: Some(TreesRanker::load(Some(&d))?),
            riichi: other(DecisionKind::Riichi)?,
            call: other(DecisionKind::Call)?,
        })
    }

    /// The model of decisions of `kind`, when there is one.
    pub fn get(&self, kind: DecisionKind) -> Option<&TreesRanker> {
        match kind {
            DecisionKind::Discard => self.discard.as_ref(),
            DecisionKind::Riichi => self.riichi.as_ref(),
            DecisionKind::Call => self.call.as_ref(),
            _ => None,
        }
    }

    /// Every model there is.
    pub fn iter(&self) -> impl Iterator<Item = &TreesRanker> {
        [&self.discard, &self.riichi, &self.call].into_iter().flatten()
    }
}

/// A trees model with the layout of its features over option rows and decision context.
#[derive(Clone, Debug)]
pub struct TreesRanker {
    trees: Trees,
    layout: Layout,
    /// The softmax temperature and its report, from the file beside the model
    /// ([`super::calibration_file`]); `None` when the model has not been calibrated.
    calibration: Option<Calibration>,
    /// The column groups live rows leave out: those the model does not read ([`Skip::unread_by`]).
    serve: Skip,
}

impl TreesRanker {
    /// Reads the model at `path` (default [`default_path`]) and lines its features up with the
    /// option rows and [`inputs::context_names`], with its calibration file when there is one
    /// (one fitted for other model bytes is an error). A missing file says how to build one.
    pub fn load(path: Option<&Path>) -> Result<TreesRanker, TreesError> {
        let (ranker, path, bytes) = TreesRanker::read(path)?;
        let calibration = calibration_file::read_for(&path, &bytes)?;
        Ok(TreesRanker { calibration, ..ranker })
    }

    /// The model at `path` without its calibration file: scoring alone (`haifu eval`, and
    /// `haifu calibrate --trees`, which fits the temperature) neither needs nor checks it, so a
    /// stale one does not stop `calibrate --trees` from replacing it.
    pub fn load_uncalibrated(path: Option<&Path>) -> Result<TreesRanker, TreesError> {
        Ok(TreesRanker::read(path)?.0)
    }

    /// The uncalibrated ranker of the file at `path`, the path and the file's bytes.
    fn read(path: Option<&Path>) -> Result<(TreesRanker, PathBuf, Vec<u8>), TreesError> {
        let path = path.map_or_else(default_path, Path::to_path_buf);
        if !path.exists() {
            return Err(TreesError::NoModel { path });
        }
        let bytes = std::fs::read(&path).map_err(|source| TreesError::Read { path: path.clone(), source })?;
        let ranker = TreesRanker::new(Trees::from_bytes(&bytes, &path)?, path.clone())?;
        Ok((ranker, path, bytes))
    }

    /// A ranker of a model already read (`path` names it in messages).
    pub fn new(trees: Trees, path: PathBuf) -> Result<TreesRanker, TreesError> {
        let names = inputs::option_names();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let layout = Layout::new(&trees, &names, &inputs::context_names())
            .map_err(|e| TreesError::InFile { path, source: Box::new(e) })?;
        let serve = Skip::unread_by(trees.feature_names().iter().map(String::as_str));
        Ok(TreesRanker { trees, layout, calibration: None, serve })
    }

    pub fn trees(&self) -> &Trees {
        &self.trees
    }

    /// The option (catalog) columns the model reads, directly or through a relative column: an
    /// option row built without the others scores the same.
    pub fn needed_columns(&self) -> Vec<String> {
        let catalog = crate::features::catalog::names();
        let mut out: Vec<String> = Vec::new();
        for f in self.trees.feature_names() {
            let base = inputs::base_column(f);
            if catalog.contains(&base) && !out.iter().any(|c| c == base) {
                out.push(base.to_string());
            }
        }
        out
    }

    /// The model's calibration (its softmax temperature), when it has one.
    pub fn calibration(&self) -> Option<&Calibration> {
        self.calibration.as_ref()
    }

    /// The ranker with `calibration` (a test's, or one just fitted).
    pub fn with_calibration(self, calibration: Option<Calibration>) -> TreesRanker {
        TreesRanker { calibration, ..self }
    }

    /// The model's score of each of one decision's options (rows in catalog order, as ingest
    /// writes them and as [`crate::features::option_rows`] builds them): higher is better.
    pub fn score_rows(&self, rows: &[&[f32]], situation: Situation) -> Vec<f64> {
        let wide = inputs::with_derived(rows);
        let refs: Vec<&[f32]> = wide.iter().map(Vec::as_slice).collect();
        self.trees.score_options(&self.layout, &refs, &super::inputs::context(&situation, rows))
    }

    /// Ranks every distinct discard of the view's hand, best first (ties by tile).
    pub fn rank(&self, view: &View) -> Result<Vec<RankedDiscard>, FeatureError> {
        let rows = crate::features::option_rows::every_discard_but(view, self.serve)?;
        let refs: Vec<&[f32]> = rows.iter().map(|(_, r)| r.as_slice()).collect();
        let scores = self.score_rows(&refs, Situation::of_view(view));
        let (sh, uk) = (column("shanten_min"), column("ukeire_count"));
        let mut out: Vec<RankedDiscard> = rows
            .iter()
            .zip(scores)
            .map(|((tile, row), score)| RankedDiscard {
                tile: *tile,
                score,
                shanten: row[sh] as i8,
                ukeire: row[uk] as u32,
            })
            .collect();
        out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.tile.cmp(&b.tile)));
        Ok(out)
    }

    /// The model rows (feature order) and TreeSHAP contributions (then the bias) of the
    /// options `which` of one decision, rows in catalog order. The relative and context columns
    /// need every option; the contributions, the costly part, only the options asked for.
    fn terms(&self, rows: &[&[f32]], situation: Situation, which: &[usize]) -> Vec<(Vec<f32>, Vec<f64>)> {
        let context = super::inputs::context(&situation, rows);
        let wide = inputs::with_derived(rows);
        which
            .iter()
            .map(|&o| {
                let mut x = Vec::with_capacity(self.trees.feature_names().len());
                self.layout.gather(&wide[o], &context, &mut x);
                let phi = self.trees.contributions(&x.iter().map(|&v| v as f64).collect::<Vec<f64>>());
                (x, phi)
            })
            .collect()
    }

    /// Each option's model row (feature order, f32 as the trees compare it) and its TreeSHAP
    /// contributions, one per model feature then the bias (they sum to the option's
    /// [`TreesRanker::score_rows`] score): what `scripts/trees_check.sh` holds to LightGBM's
    /// `pred_contrib`.
    pub fn contribution_rows(&self, rows: &[&[f32]], situation: Situation) -> Vec<(Vec<f32>, Vec<f64>)> {
        self.terms(rows, situation, &(0..rows.len()).collect::<Vec<_>>())
    }

    /// Why the model scores option `a` above or below option `b` (rows in catalog order): each
    /// feature's contribution to `score(a) - score(b)`, exact (TreeSHAP), largest first and
    /// zeros left out, and the same summed by family.
    pub fn differences(&self, rows: &[&[f32]], situation: Situation, a: usize, b: usize) -> Differences {
        let terms = self.terms(rows, situation, &[a, b]);
        let ((xa, pa), (xb, pb)) = (&terms[0], &terms[1]);
        let n = self.trees.feature_names().len();
        let delta: Vec<f64> = (0..=n).map(|j| pa[j] - pb[j]).collect();
        let mut features: Vec<Difference> = (0..n)
            .filter(|&j| delta[j].abs() > 1e-12)
            .map(|j| Difference {
                feature: self.trees.feature_names()[j].clone(),
                family: self.layout.families()[j],
                a_value: xa[j],
                b_value: xb[j],
                contribution: delta[j],
            })
            .collect();
        features.sort_by(|x, y| y.contribution.abs().total_cmp(&x.contribution.abs()));
        Differences { total: delta.iter().sum(), families: self.layout.by_family(&delta), features }
    }

    /// For each option, the `k` features that move its score most relative to the best option,
    /// exactly (TreeSHAP contributions sum to the score, so the differences sum to the gap); for
    /// the best option itself its largest contributions.
    pub fn explain(&self, view: &View, k: usize) -> Result<Explained, FeatureError> {
        let rows = crate::features::option_rows::every_discard_but(view, self.serve)?;
        let refs: Vec<&[f32]> = rows.iter().map(|(_, r)| r.as_slice()).collect();
        let all = self.terms(&refs, Situation::of_view(view), &(0..refs.len()).collect::<Vec<_>>());
        let n = self.trees.feature_names().len();
        let total = |c: &[f64]| c.iter().sum::<f64>();
        let Some(best) = (0..all.len())
            .max_by(|&a, &b| total(&all[a].1).total_cmp(&total(&all[b].1)).then(rows[b].0.cmp(&rows[a].0)))
        else {
            return Ok(Vec::new());
        };
        let best_c = all[best].1.clone();
        Ok(rows
            .iter()
            .zip(all)
            .enumerate()
            .map(|(o, ((tile, _), (x, c)))| {
                let mut terms: Vec<Contribution> = (0..n)
                    .map(|j| Contribution {
                        feature: self.trees.feature_names()[j].clone(),
                        value: x[j],
                        contribution: if o == best { c[j] } else { c[j] - best_c[j] },
                    })
                    .filter(|t| t.contribution.abs() > 1e-9)
                    .collect();
                terms.sort_by(|a, b| b.contribution.abs().total_cmp(&a.contribution.abs()));
                terms.truncate(k);
                (*tile, terms)
            })
            .collect())
    }
}

/// One feature's share of the score gap between two options.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Difference {
    pub feature: String,
    pub family: &'static str,
    pub a_value: f32,
    pub b_value: f32,
    /// Its contribution to `score(a) - score(b)`.
    pub contribution: f64,
}

/// [`TreesRanker::differences`]: the gap, by feature and by family.
#[derive(Clone, Debug, PartialEq)]
pub struct Differences {
    /// `score(a) - score(b)`: the sum of every contribution.
    pub total: f64,
    pub families: FamilySums,
    /// Every feature that moves the gap, largest first.
    pub features: Vec<Difference>,
}

/// Contributions summed by feature family, in the families' order.
pub type FamilySums = Vec<(&'static str, f64)>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gbdt::text::tests::SMALL;
    use crate::hand::Hand;
    use crate::tile::EAST;

    /// SMALL's two features named after two relative columns: a discard at the hand's best
    /// shanten keeping the most ukeire of all discards scores 0.75, one at a worse shanten 0.25,
    /// one at the best shanten with fewer ukeire -0.5 (tree 1 adds 0.125 to each).
    fn ranker() -> TreesRanker {
        let text = SMALL.replace("feature_names=a b", "feature_names=rel_ukeire_count rel_shanten_min");
        TreesRanker::new(Trees::parse(&text).unwrap(), PathBuf::from("small")).unwrap()
    }

    #[test]
    fn ranks_a_hand_by_the_relative_columns_it_computes() {
        let view = View::bare(Hand::parse("123m456p789s1122z3m").unwrap(), vec![], EAST, EAST + 1);
        let ranked = ranker().rank(&view).unwrap();
        assert_eq!(ranked.len(), 11);
        let best_shanten = ranked.iter().map(|r| r.shanten).min().unwrap();
        let most = ranked.iter().map(|r| r.ukeire).max().unwrap();
        for r in &ranked {
            let want = match (r.shanten == best_shanten, r.ukeire == most) {
                (true, true) => 0.75,
                (true, false) => -0.5,
                (false, _) => 0.25,
            } + 0.125;
            assert_eq!(r.score, want, "{r:?}");
        }
        // 3m keeps the tenpai hand, the only discard at shanten 0, but with 4 ukeire against 20:
        // last; the rest at a worse shanten tie and go in tile order.
        assert_eq!((ranked[10].tile.to_string().as_str(), ranked[10].score), ("3m", -0.375));
        assert!(ranked.windows(2).all(|w| w[0].score > w[1].score || w[0].tile < w[1].tile));
    }

    #[test]
    fn differences_sum_to_the_score_gap() {
        let t = ranker();
        let view = View::bare(Hand::parse("123m456p789s1122z3m").unwrap(), vec![], EAST, EAST + 1);
        let rows = crate::features::option_rows::every_discard(&view).unwrap();
        let refs: Vec<&[f32]> = rows.iter().map(|(_, r)| r.as_slice()).collect();
        let s = Situation::of_view(&view);
        let scores = t.score_rows(&refs, s);
        for a in 0..refs.len() {
            let d = t.differences(&refs, s, a, 0);
            assert!((d.total - (scores[a] - scores[0])).abs() < 1e-12, "{a}");
            let by_feature: f64 = d.features.iter().map(|f| f.contribution).sum();
            let by_family: f64 = d.families.iter().map(|f| f.1).sum();
            assert!((by_feature - d.total).abs() < 1e-12 && (by_family - d.total).abs() < 1e-12);
            assert!(d.features.iter().all(|f| f.family == crate::model::trees::RELATIVE_FAMILY));
        }
    }

    #[test]
    fn the_riichi_and_call_models_sit_beside_the_discard_model() {
        let d = Path::new("data/weights/trees.txt.gz");
        assert_eq!(beside(d, DecisionKind::Riichi), Path::new("data/weights/trees-riichi.txt.gz"));
        assert_eq!(beside(d, DecisionKind::Call), Path::new("data/weights/trees-call.txt.gz"));
        assert_eq!(beside(d, DecisionKind::Discard), d);
        assert_eq!(beside(Path::new("m.txt"), DecisionKind::Call), Path::new("m-call.txt"));
    }

    #[test]
    fn a_missing_model_says_how_to_build_one() {
        let e = TreesRanker::load(Some(Path::new("/nonexistent/trees.txt.gz"))).unwrap_err();
        assert!(e.to_string().contains("make trees"), "{e}");
        let wrong = Trees::parse(&SMALL.replace("feature_names=a b", "feature_names=turn nonsense")).unwrap();
        let e = TreesRanker::new(wrong, PathBuf::from("wrong.txt")).unwrap_err();
        assert!(format!("{e:#}").contains("wrong.txt"), "{e}");
    }
}
