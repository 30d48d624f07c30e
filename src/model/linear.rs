//! The linear evaluator: `score = w · features(option)` with weights from `haifu fit`.
//!
//! For a bare position (the `nanikiru` command) nothing but the hand, the winds and the dora
//! indicators is known, so the feature view has empty rivers and nobody in riichi; the safety
//! columns are then zero, as they are in the training data for such decisions.

use std::path::{Path, PathBuf};

use crate::features::catalog::names;
use crate::features::groups::Skip;
use crate::features::FeatureError;
use crate::hand::waits::ukeire;
use crate::model::derived::Derived;
use crate::model::error::ModelError;
use crate::model::gates::Expansion;
use crate::model::weights::WeightsFile;
use crate::rank::RankedDiscard;
use crate::replay::view::View;

/// Why the linear evaluator cannot be loaded or cannot score a position. Causes are sources:
/// print the chain (`{:#}`, [`crate::batch::error_text`]).
#[derive(Debug, thiserror::Error)]
pub enum LinearError {
    /// The weights file is missing or is not a weights file.
    #[error("the linear evaluator needs a weights file (make weights)")]
    Read(#[source] ModelError),
    /// The file names interaction columns this build does not know (a file from another version).
    #[error("weights file {}", path.display())]
    Layout { path: PathBuf, source: Box<LinearError> },
    #[error(transparent)]
    Expansion(ModelError),
    #[error(transparent)]
    Features(#[from] FeatureError),
}

type Result<T, E = LinearError> = std::result::Result<T, E>;

/// A loaded linear evaluator: weights aligned to the option row layout of `ingest`, expanded by
/// the interaction columns the weights file names (situation-dependent weights).
#[derive(Clone, Debug)]
pub struct Linear {
    pub file: WeightsFile,
    /// The decision-relative columns the weights name (none for most files), appended to each
    /// input row before the gates read it ([`Derived::with_augmented`]).
    pub derived: Derived,
    /// Over the input columns (the catalog) and then [`Linear::derived`]'s.
    pub expansion: Expansion,
    pub w: Vec<f64>,
    /// The column groups live rows leave out: those the weights do not read
    /// ([`Skip::unread_by`] of [`Linear::needed_columns`]).
    serve: Skip,
}

/// Each option's largest contributions, by discard (`--explain`).
pub type Explained = Vec<(crate::tile::Tile, Vec<Contribution>)>;

/// One feature's share of an option's score.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Contribution {
    pub feature: String,
    pub value: f32,
    pub contribution: f64,
}

impl Linear {
    /// Aligns a weights file to the row layout; fails on interaction columns this build does not
    /// know (a file from another version).
    pub fn from_file(file: WeightsFile) -> Result<Linear> {
        let mut base: Vec<String> = names().iter().map(|n| n.to_string()).collect();
        let names: Vec<String> = file.features.iter().map(|f| f.name.clone()).collect();
        let derived = Derived::named(&base, &names);
        base.extend(derived.names());
        let expansion = Expansion::from_names(&base, &names).map_err(LinearError::Expansion)?;
        let w = expansion.names().iter().map(|n| file.weight(n)).collect();
        let mut linear = Linear { file, derived, expansion, w, serve: Skip::NONE };
        linear.serve = Skip::unread_by(linear.needed_columns().iter().map(String::as_str));
        Ok(linear)
    }

    /// The base columns the scores depend on: each with a non-zero weight, alone or in an
    /// interaction, and the inputs of the interactions' gates. A dataset without one of them
    /// (`ingest --skip`) cannot be scored by these weights.
    pub fn needed_columns(&self) -> Vec<String> {
        let mut need: Vec<String> = Vec::new();
        let inputs = self.inputs();
        let mut add = |n: &str| {
            let n = self.derived.input_of(n, inputs).unwrap_or(n);
            if !need.iter().any(|x| x == n) {
                need.push(n.to_string());
            }
        };
        for (name, &w) in self.expansion.names().iter().zip(&self.w) {
            if w != 0.0 {
                add(name.split_once('*').map_or(name.as_str(), |(_, base)| base));
            }
        }
        for (gate, _) in self.expansion.blocks() {
            gate.inputs().iter().for_each(|n| add(n));
        }
        need
    }

    /// Loads a weights file; `None` means the default one ([`crate::model::weights::default_path`]).
    pub fn load(path: Option<&Path>) -> Result<Linear> {
        let p = path.map_or_else(crate::model::weights::default_path, Path::to_path_buf);
        let file = WeightsFile::read(&p).map_err(LinearError::Read)?;
        Linear::from_file(file).map_err(|e| LinearError::Layout { path: p, source: Box::new(e) })
    }

    /// Feature rows of every distinct discard, in `distinct_tiles` order, from the seat's view
    /// (rivers, riichi, the drawn tile, the reds in play and in sight): the rows ingest writes for
    /// the same view ([`crate::features::option_rows`]).
    pub fn rows(&self, view: &View) -> Result<Vec<(crate::tile::Tile, Vec<f32>)>> {
        Ok(crate::features::option_rows::every_discard_but(view, self.serve)?)
    }

    /// The columns a decision's option rows supply, in order (the catalog's): the expansion's
    /// base without the derived columns appended to them.
    pub fn inputs(&self) -> &[String] {
        let base = self.expansion.base();
        &base[..base.len() - self.derived.names().len()]
    }

    fn score(&self, row: &[f32]) -> f64 {
        row.iter().zip(&self.w).map(|(&x, &w)| x as f64 * w).sum()
    }

    /// Expanded rows (interaction columns filled from the decision's situation) of the options.
    fn expanded(
        &self,
        rows: Vec<(crate::tile::Tile, Vec<f32>)>,
        turn: u8,
    ) -> Vec<(crate::tile::Tile, Vec<f32>)> {
        if self.expansion.is_identity() && self.derived.is_empty() {
            return rows;
        }
        let refs: Vec<&[f32]> = rows.iter().map(|(_, r)| r.as_slice()).collect();
        let x = self.derived.with_augmented(&refs, |refs| self.expansion.expand(refs, turn));
        rows.iter().map(|(t, _)| *t).zip(x).collect()
    }

    /// Scores of one decision's options given their base rows (as ingest writes them) and the
    /// deciding player's turn: the dataset evaluators use this, so a fitted file scores a
    /// dataset exactly as it scores a live position.
    pub fn score_rows(&self, rows: &[&[f32]], turn: u8) -> Vec<f64> {
        self.derived.with_augmented(rows, |rows| self.score_augmented(rows, turn))
    }

    fn score_augmented(&self, rows: &[&[f32]], turn: u8) -> Vec<f64> {
        if self.expansion.is_identity() {
            return rows.iter().map(|r| self.score(r)).collect();
        }
        let s = self.expansion.situation(rows, turn);
        let levels = self.expansion.levels(&s);
        rows.iter().map(|r| self.score_gated(r, &levels)).collect()
    }

    /// [`Linear::score`] of `expand_row(row)` without building the expanded row (5,395 columns
    /// for the shipped discard weights, most of them zeros): the base terms, then each block's
    /// active level's terms, added in the expanded row's order. The inactive levels' terms are
    /// `0 × w`, which leave a sum as it is, so the score is the same to the bit (a test holds it);
    /// scoring every option of a corpus costs about a tenth.
    fn score_gated(&self, row: &[f32], levels: &[u8]) -> f64 {
        let n = row.len();
        let base: f64 = row.iter().zip(&self.w[..n]).map(|(&x, &w)| x as f64 * w).sum();
        let mut sum = base;
        let mut at = n;
        for ((gate, sel), &level) in self.expansion.blocks().iter().zip(levels) {
            let start = at + level as usize * sel.len();
            for (k, &c) in sel.iter().enumerate() {
                sum += row[c] as f64 * self.w[start + k];
            }
            at += gate.levels().len() * sel.len();
        }
        sum
    }

    /// Ranks every distinct discard, best first.
    pub fn rank(&self, view: &View) -> Result<Vec<RankedDiscard>> {
        let full = view.hand_counts();
        let mut out: Vec<RankedDiscard> = self
            .expanded(self.rows(view)?, view.turn)
            .into_iter()
            .map(|(tile, row)| {
                let mut after = full;
                after[tile.kind()] -= 1;
                let mut seen = view.visible;
                seen[tile.kind()] += 1;
                let u = ukeire(&after, &seen);
                RankedDiscard { tile, score: self.score(&row), shanten: u.shanten, ukeire: u.count }
            })
            .collect();
        out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.tile.cmp(&b.tile)));
        Ok(out)
    }

    /// For each option, the `k` features that move its score most relative to the best option
    /// (for the best option itself: its largest contributions).
    pub fn explain(&self, view: &View, k: usize) -> Result<Vec<(crate::tile::Tile, Vec<Contribution>)>> {
        let rows = self.expanded(self.rows(view)?, 0);
        let best = rows
            .iter()
            .max_by(|a, b| self.score(&a.1).total_cmp(&self.score(&b.1)))
            .map(|(_, r)| r.clone())
            .unwrap_or_default();
        let mut out = Vec::new();
        for (tile, row) in &rows {
            let is_best = *row == best;
            let mut c: Vec<Contribution> = row
                .iter()
                .zip(&best)
                .zip(&self.w)
                .zip(self.expansion.names())
                .map(|(((&x, &b), &w), name)| {
                    let v = if is_best { x as f64 * w } else { (x - b) as f64 * w };
                    Contribution { feature: name.to_string(), value: x, contribution: v }
                })
                .filter(|c| c.contribution.abs() > 1e-9)
                .collect();
            c.sort_by(|a, b| b.contribution.abs().total_cmp(&a.contribution.abs()));
            c.truncate(k);
            out.push((*tile, c));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gated score is the expanded row's score to the bit, over the shipped discard weights
    /// (four interaction gates) and rows that put the decisions in every gate's levels.
    #[test]
    fn gated_scores_equal_expanded_scores_to_the_bit() {
        let l = Linear::load(None).expect("shipped weights");
        assert!(!l.expansion.is_identity());
        let width = l.expansion.base().len();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut levels_seen = std::collections::BTreeSet::new();
        for d in 0..400 {
            let n = 2 + (next() % 12) as usize;
            let rows: Vec<Vec<f32>> = (0..n)
                .map(|_| {
                    (0..width)
                        .map(|_| match next() % 4 {
                            0 => 0.0,
                            1 => 1.0,
                            2 => (next() % 8) as f32,
                            _ => (next() % 100_000) as f32 / 7.0,
                        })
                        .collect()
                })
                .collect();
            let refs: Vec<&[f32]> = rows.iter().map(Vec::as_slice).collect();
            let turn = (d % 20) as u8;
            let s = l.expansion.situation(&refs, turn);
            levels_seen.insert(l.expansion.levels(&s));
            let want: Vec<u64> =
                refs.iter().map(|r| l.score(&l.expansion.expand_row(r, &s)).to_bits()).collect();
            let got: Vec<u64> = l.score_rows(&refs, turn).iter().map(|x| x.to_bits()).collect();
            assert_eq!(got, want, "decision {d}");
        }
        assert!(levels_seen.len() > 10, "{levels_seen:?}");
    }

    /// A weights file naming derived columns (`fit --derived`) is served them: computed from the
    /// decision's input rows, read as inputs by nothing else, gated like any column, and its
    /// needed columns are the inputs they come from.
    #[test]
    fn serves_the_derived_columns_a_file_names() {
        let mut file = Linear::load(None).expect("shipped weights").file;
        file.features.retain(|f| !f.name.contains('*'));
        for f in &mut file.features {
            f.weight = 0.0;
        }
        let named = |name: &str, weight| crate::model::weights::NamedWeight { name: name.into(), weight };
        file.features.push(named("margin_ev", 0.01));
        file.features.push(named("sh1*rank_ev", -0.5));
        let l = Linear::from_file(file).unwrap();
        assert_eq!(l.derived.names(), ["margin_ev", "rank_ev"]);
        assert_eq!(l.inputs().len(), names().len());
        assert_eq!(
            l.needed_columns().iter().filter(|n| n.as_str() != "shanten_min").collect::<Vec<_>>(),
            ["ev"]
        );
        let ev = names().iter().position(|&n| n == "ev").unwrap();
        let shanten = names().iter().position(|&n| n == "shanten_min").unwrap();
        let row = |v: f32, sh: f32| {
            let mut r = vec![0.0f32; names().len()];
            r[ev] = v;
            r[shanten] = sh;
            r
        };
        // 1-shanten before the decision (the best option's shanten): the gated rank weighs in.
        let rows = [row(900.0, 1.0), row(600.0, 1.0), row(100.0, 2.0)];
        let refs: Vec<&[f32]> = rows.iter().map(Vec::as_slice).collect();
        let got = l.score_rows(&refs, 5);
        let want = [0.01 * 300.0, 0.01 * -300.0 - 0.5, 0.01 * -800.0 - 1.0];
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-9, "{got:?} vs {want:?}");
        }
    }
}
