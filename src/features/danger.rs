//! The danger models, served: each opponent's probability of being tenpai, each kind's
//! probability of dealing into it, and the points such a deal-in would pay, from the deciding
//! seat's [`View`] alone ([`DangerModels::assess`]).
//!
//! Three LightGBM text models (`scripts/danger.py` trains them on the rows of
//! `examples/danger_rows.rs`, labelled by `replay::waits`), read and scored by [`Trees`]:
//! `danger-tenpai.txt.gz` (binary, over [`tenpai_names`]), `danger-dealin.txt.gz` (binary, over
//! [`deal_in_names`]) and `danger-points.txt.gz` (L2 regression on the rows that dealt in, same
//! columns). The rows are built by `features::danger_inputs`, the functions that built the
//! training rows, so training equals use; a model whose features are not those columns, in that
//! order, is refused.

use std::path::{Path, PathBuf};

use super::column::Cols;
use super::danger_inputs::{
    deal_in_names, kind_inputs, opponent_inputs, seen, tenpai_names, KIND_COLUMNS, OPPONENT_COLUMNS,
};
use crate::gbdt::{Trees, TreesError};
use crate::replay::view::{opponent_seats, View};
use crate::tile::{Kind, KINDS};

/// Where the shipped models live.
pub const DEFAULT_DIR: &str = "data/weights";
/// The three files in a models folder.
pub const FILES: [&str; 3] = ["danger-tenpai.txt.gz", "danger-dealin.txt.gz", "danger-points.txt.gz"];

/// Why the danger models cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum DangerError {
    #[error(transparent)]
    Trees(#[from] TreesError),
    /// The model was trained on other columns than the ones this haifu builds.
    #[error("{}: its features are not the danger columns of this haifu (first difference at {at}: {found:?}, expected {expected:?}); retrain with `make danger`", path.display())]
    Columns { path: PathBuf, at: usize, found: String, expected: String },
}

/// One opponent as the models see it.
#[derive(Clone, Debug, PartialEq)]
pub struct OpponentDanger {
    /// Probability the opponent is tenpai.
    pub tenpai: f64,
    /// Probability a discard of each kind deals into the opponent (0 for kinds not asked).
    pub deal_in: [f64; KINDS],
    /// Expected points of that deal-in, when it happens (0 for kinds not asked).
    pub points: [f64; KINDS],
}

/// The three models.
#[derive(Clone, Debug)]
pub struct DangerModels {
    tenpai: Trees,
    deal_in: Trees,
    points: Trees,
}

impl DangerModels {
    /// Reads the three models of folder `dir` ([`FILES`]), checking their columns.
    pub fn load(dir: &Path) -> Result<DangerModels, DangerError> {
        DangerModels::from(|name| {
            let path = dir.join(name);
            Ok((Trees::read(&path)?, path))
        })
    }

    /// The three models from `read` (a model and the path that names it, by file name), each
    /// checked against the columns this haifu builds for it.
    fn from(
        read: impl Fn(&str) -> Result<(Trees, PathBuf), TreesError>,
    ) -> Result<DangerModels, DangerError> {
        let checked = |name: &str, want: &[&str]| -> Result<Trees, DangerError> {
            let (t, path) = read(name)?;
            check_columns(&path, t.feature_names(), want)?;
            Ok(t)
        };
        Ok(DangerModels {
            tenpai: checked(FILES[0], &tenpai_names())?,
            deal_in: checked(FILES[1], &deal_in_names())?,
            points: checked(FILES[2], &deal_in_names())?,
        })
    }

    /// Each opponent of `view` (relative seats 1, 2, 3 at indices 0, 1, 2; `None` for the empty
    /// seat at three players) with the models' answers for the kinds in `kinds`.
    pub fn assess(&self, view: &View, kinds: &[Kind]) -> [Option<OpponentDanger>; 3] {
        let seen = seen(view);
        let seats = opponent_seats(view.players(), 0);
        std::array::from_fn(|r| {
            seats[r]?;
            let opp = opponent_inputs(view, r);
            let tenpai = self.tenpai.predict_rows(&opp)[0];
            let width = OPPONENT_COLUMNS.len() + KIND_COLUMNS.len();
            let mut rows = Vec::with_capacity(kinds.len() * width);
            for &k in kinds {
                rows.extend_from_slice(&opp);
                rows.extend_from_slice(&kind_inputs(view, &seen, r, k));
            }
            let p = self.deal_in.predict_rows(&rows);
            let v = self.points.predict_rows(&rows);
            let mut d = OpponentDanger { tenpai, deal_in: [0.0; KINDS], points: [0.0; KINDS] };
            for (i, &k) in kinds.iter().enumerate() {
                d.deal_in[k] = p[i];
                d.points[k] = v[i];
            }
            Some(d)
        })
    }
}

/// The danger family's columns (issue 69), written for every option as the discard its hand is
/// scored as (`option_rows`: the riichi tile, the offered tile thrown back for a pass, the best
/// discard after a chi or pon). Points are Tenhou points, as `ev` is. The value at stake, `ev -
/// danger_loss`, is not a column of its own: it would tie this group to the `ev` group, and a
/// run with `--skip ev` must write every other column as a full run does.
pub(crate) const COLUMN_NAMES: [&str; 5] =
    ["danger_dealin", "danger_loss", "danger_tenpai_next", "danger_tenpai_across", "danger_tenpai_prev"];

/// What each of [`COLUMN_NAMES`] means, in order.
const MEANINGS: [&str; 5] = [
    "P(the discard deals in to some opponent) by the danger models: 1 - the product over opponents of 1 - P(deal-in to them)",
    "expected points lost to a deal-in on the discard: the sum over opponents of P(deal-in) x the points such a deal-in pays",
    "P(the next player is tenpai) by the tenpai model (the same for every option)",
    "P(the player across is tenpai) (0 at three players: nobody sits across)",
    "P(the previous player is tenpai)",
];

/// The family's columns for the catalog: (name, meaning).
pub(crate) fn columns() -> Vec<(&'static str, &'static str)> {
    COLUMN_NAMES.into_iter().zip(MEANINGS).collect()
}

/// The shipped models' bytes, in [`FILES`] order, built into the binary (as the shipped linear
/// weights are): a binary or wheel moved away from the source tree still writes the family.
const SHIPPED: [&[u8]; 3] = [
    include_bytes!("../../data/weights/danger-tenpai.txt.gz"),
    include_bytes!("../../data/weights/danger-dealin.txt.gz"),
    include_bytes!("../../data/weights/danger-points.txt.gz"),
];

/// The shipped models ([`SHIPPED`]), read once.
pub fn shipped() -> &'static DangerModels {
    static MODELS: std::sync::OnceLock<DangerModels> = std::sync::OnceLock::new();
    MODELS.get_or_init(|| {
        let models = DangerModels::from(|name| {
            let path = Path::new(DEFAULT_DIR).join(name);
            let i = FILES.iter().position(|f| *f == name).expect("one of FILES");
            Ok((Trees::from_bytes(SHIPPED[i], &path)?, path))
        });
        // The bytes are the repository's own files, checked by the tests: a failure here is a
        // build of a broken tree, not bad input.
        models.unwrap_or_else(|e| panic!("shipped danger model: {e}"))
    })
}

/// The danger columns of one decision's discard options, from the models' answers for its
/// opponents ([`DangerModels::assess`] over the discarded kinds).
pub(crate) struct DecisionDanger {
    opponents: [Option<OpponentDanger>; 3],
}

impl DecisionDanger {
    /// The models' answers for `view`'s opponents on the kinds of `legal`.
    pub(crate) fn new(models: &DangerModels, view: &View, legal: &[crate::tile::Tile]) -> DecisionDanger {
        let mut kinds: Vec<Kind> = legal.iter().map(|t| t.kind()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        DecisionDanger { opponents: models.assess(view, &kinds) }
    }

    /// Writes the family for the discard of kind `kind`.
    pub(crate) fn fill(&self, kind: Kind, cols: &mut Cols) {
        let present = self.opponents.iter().flatten();
        let safe: f64 = present.clone().map(|o| 1.0 - o.deal_in[kind]).product();
        let loss: f64 = present.map(|o| o.deal_in[kind] * o.points[kind]).sum();
        let tenpai = |r: usize| self.opponents[r].as_ref().map_or(0.0, |o| o.tenpai);
        cols.put("danger_dealin", (1.0 - safe) as f32);
        cols.put("danger_loss", loss as f32);
        cols.put("danger_tenpai_next", tenpai(0) as f32);
        cols.put("danger_tenpai_across", tenpai(1) as f32);
        cols.put("danger_tenpai_prev", tenpai(2) as f32);
    }
}

/// The shipped models' folder, under the crate root.
pub fn default_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_DIR)
}

fn check_columns(path: &Path, found: &[String], want: &[&str]) -> Result<(), DangerError> {
    let n = found.len().max(want.len());
    match (0..n).find(|&i| found.get(i).map(String::as_str) != want.get(i).copied()) {
        None => Ok(()),
        Some(at) => Err(DangerError::Columns {
            path: path.to_path_buf(),
            at,
            found: found.get(at).cloned().unwrap_or_default(),
            expected: want.get(at).map(|s| s.to_string()).unwrap_or_default(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::decision::{Action, Decision, Recording, RoundSink};
    use crate::replay::table::Table;
    use crate::replay::view::view_of;
    use crate::replay::{replay_game, NoWinCheck, RoundResult};

    /// Each shipped model fits the repository's 2 MB.
    #[test]
    fn shipped_models_are_under_2_mb() {
        for f in FILES {
            let len = std::fs::metadata(default_dir().join(f)).unwrap().len();
            assert!(len < 2_000_000, "{f}: {len} bytes");
        }
    }

    #[derive(Default)]
    struct All(Vec<Decision>);

    impl RoundSink for All {
        fn round(&mut self, _: &Table, _: &RoundResult, d: Vec<Decision>) {
            self.0.extend(d);
        }
    }

    /// Train equals use on real games: what haifu serves for a position, built from the replayed
    /// view, equals LightGBM's own `predict` of the shipped files on the training rows of the same
    /// positions (`testdata/danger_lightgbm.jsonl`, written by scripts/danger_golden.py from
    /// LightGBM, not from haifu).
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn served_values_are_lightgbms() {
        let models = DangerModels::load(&default_dir()).unwrap();
        let golden: Vec<serde_json::Value> = include_str!("testdata/danger_lightgbm.jsonl")
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let mut games: std::collections::BTreeMap<String, Vec<Decision>> = Default::default();
        let (mut checked, mut worst) = (0, 0.0f64);
        for g in &golden {
            let file = g["file"].as_str().unwrap().to_string();
            let decisions = games.entry(file.clone()).or_insert_with(|| {
                let path = crate::testdata::need_file(&format!("tenhou/{file}"));
                let game = crate::log::source::Source::file(path).load().unwrap();
                let mut all = Recording::new(All::default());
                replay_game(&game, &mut all, &mut NoWinCheck).unwrap();
                all.sink.0
            });
            let d = &decisions[g["k"].as_u64().unwrap() as usize];
            assert!(matches!(d.options[d.chosen], Action::Discard(_)), "{g}: not a discard decision");
            let view = view_of(&d.table, d.seat, d.table.hand_tiles(d.seat));
            let kind = g["kind"].as_u64().unwrap() as usize;
            let r = g["opponent"].as_u64().unwrap() as usize - 1;
            let served = models.assess(&view, &[kind])[r].clone().unwrap();
            for (got, want) in [
                (served.tenpai, &g["tenpai"]),
                (served.deal_in[kind], &g["deal_in"]),
                (served.points[kind], &g["points"]),
            ] {
                let want = want.as_f64().unwrap();
                worst = worst.max((got - want).abs());
                assert!(
                    (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                    "{g}: haifu {got}, LightGBM {want}"
                );
            }
            checked += 1;
        }
        assert!(checked > 1000, "{checked} rows checked (worst difference {worst})");
    }

    /// The decisions of the games at `paths` (shared data).
    fn decisions_of(paths: &[std::path::PathBuf]) -> Vec<Decision> {
        let mut out = Vec::new();
        for p in paths {
            let game = crate::log::source::Source::file(p.clone()).load().unwrap();
            let mut all = Recording::new(All::default());
            replay_game(&game, &mut all, &mut NoWinCheck).unwrap();
            out.extend(all.sink.0);
        }
        out
    }

    /// The family as ingest writes it (a default run holds it): each discard's `danger_dealin` ranks the
    /// discards that would have dealt in (the replay's ground truth, `replay::waits`: an opponent
    /// could ron the kind) above those that would not, on real games the test does not pick by
    /// outcome; the expected loss is never below 0 and is 0 only where the probability is; and
    /// a three-player table has nobody across.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn discard_rows_rank_the_deal_ins_first() {
        use crate::features::catalog::{catalog_width, index_of};
        use crate::features::groups::{Group, Skip};
        use crate::features::option_rows::discard_rows;
        let col = |name: &str| index_of(name).unwrap();
        let (dealin, loss, across) = (col("danger_dealin"), col("danger_loss"), col("danger_tenpai_across"));
        let skip = Skip::of(&[Group::Ev, Group::Ukeire2]);
        let mut files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        files.truncate(30);
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        for d in decisions_of(&files) {
            let Action::Discard(tile) = d.options[d.chosen] else { continue };
            let view = view_of(&d.table, d.seat, d.table.hand_tiles(d.seat));
            let mut row = vec![0.0; catalog_width()];
            discard_rows(&view, &[tile], skip, &mut row).unwrap();
            assert!(row[loss] >= 0.0 && (row[loss] > 0.0) == (row[dealin] > 0.0), "{row:?}");
            let waits = crate::replay::waits::opponent_waits(&d.table, d.seat);
            let deals_in = waits.iter().flatten().any(|w| w.ron_kinds() & (1 << tile.kind()) != 0);
            if deals_in { &mut pos } else { &mut neg }.push(row[dealin]);
        }
        // AUC: the share of (deal-in, safe) pairs the column orders right, ties half.
        let right: f64 = pos
            .iter()
            .map(|p| {
                neg.iter()
                    .map(|n| {
                        if p > n {
                            1.0
                        } else if p == n {
                            0.5
                        } else {
                            0.0
                        }
                    })
                    .sum::<f64>()
            })
            .sum();
        let auc = right / (pos.len() * neg.len()) as f64;
        eprintln!(
            "{} discards would have dealt in, {} not: AUC of danger_dealin {auc:.4}",
            pos.len(),
            neg.len()
        );
        assert!(pos.len() > 80 && auc > 0.8, "AUC {auc} over {} deal-ins", pos.len());

        let mut sanma = crate::testdata::need_sanma_files();
        sanma.truncate(2);
        let d = decisions_of(&sanma)
            .into_iter()
            .find(|d| matches!(d.options[d.chosen], Action::Discard(_)))
            .unwrap();
        let Action::Discard(tile) = d.options[d.chosen] else { unreachable!() };
        let view = view_of(&d.table, d.seat, d.table.hand_tiles(d.seat));
        let mut row = vec![0.0; catalog_width()];
        discard_rows(&view, &[tile], skip, &mut row).unwrap();
        assert_eq!(row[across], 0.0);
        assert!(row[col("danger_tenpai_next")] > 0.0 && row[col("danger_tenpai_prev")] > 0.0, "{row:?}");
        // Left out (`--skip danger`): the same row without the family.
        let mut plain = vec![0.0; catalog_width()];
        discard_rows(&view, &[tile], Skip::default().union(Skip::of(&[Group::Danger])), &mut plain).unwrap();
        assert_eq!(plain[col("danger_tenpai_next")], 0.0);
    }

    #[test]
    fn columns_must_be_the_danger_columns_in_order() {
        let want = tenpai_names();
        let same: Vec<String> = want.iter().map(|s| s.to_string()).collect();
        assert!(check_columns(Path::new("m"), &same, &want).is_ok());
        let mut swapped = same.clone();
        swapped.swap(0, 1);
        let e = check_columns(Path::new("m"), &swapped, &want).unwrap_err().to_string();
        assert!(e.contains("at 0") && e.contains("wall_left"), "{e}");
        let short = &same[..3];
        let e = check_columns(Path::new("m"), short, &want).unwrap_err().to_string();
        assert!(e.contains("at 3"), "{e}");
    }
}
