//! The judges of a player's decisions: the three linear models (discard, riichi, call), the trees
//! models when asked for, and the probability under which a choice is a bad move. The review
//! pages ([`crate::report::review`]) and `stats --agreement` ([`crate::stats::agreement`]) judge
//! through the same [`Models`], so a match or a bad move means the same in both.

use std::path::{Path, PathBuf};

use super::calibration::{judge, Judgement};
use super::linear::{Linear, LinearError};
use crate::replay::decision::DecisionKind;

/// Why the judges cannot be loaded: a weights file that does not load, or one that holds the
/// weights of another decision kind than its place asks for.
#[derive(Debug, thiserror::Error)]
pub enum JudgesError {
    #[error(transparent)]
    Linear(#[from] LinearError),
    #[error("{} holds {holds} weights, the judges need {needs} weights there", path.display())]
    WrongWeights { path: PathBuf, holds: String, needs: String },
}

type Result<T, E = JudgesError> = std::result::Result<T, E>;

/// NAGA's threshold of a bad move: the model gives the player's choice less than 5%.
pub const BAD_BELOW: f64 = 0.05;

/// What a review judges with: the three linear models, one per decision kind, the trees models
/// when asked for, and the probability under which a choice is a bad move.
#[derive(Clone)]
pub struct Models {
    pub discard: Linear,
    pub riichi: Linear,
    pub call: Linear,
    /// Where each came from (discard, riichi, call).
    pub paths: [String; 3],
    /// A choice the model gives a probability below this is a bad move ([`BAD_BELOW`]).
    pub bad_below: f64,
    /// The trees models of the kinds that have one, when the review asks for them: their ranking
    /// of each decision and why it differs from the player ([`TreesReview`]); a calibrated one
    /// judges its kind ([`Models::trees_judge`]).
    pub trees: crate::model::trees::TreesByKind,
    /// The three-player judges (`sanma.json`, `sanma-riichi.json`, `sanma-call.json` and the
    /// north's `sanma-kita.json`, beside the discard weights or the shipped ones), when there
    /// are: a sanma decision is judged by them, never by the four-player models
    /// ([`Models::for_players`]).
    pub three: Option<Box<Models>>,
    /// The model of the north decision (set aside or keep), three players only.
    pub kita: Option<Linear>,
}

impl Models {
    /// The column groups ([`crate::features::groups`]) none of the three models needs: option
    /// rows built without them score exactly as full rows do.
    pub fn skip(&self) -> crate::features::groups::Skip {
        use crate::features::groups::{Group, Skip};
        let need = self.needed_columns();
        let unused = |g: &Group| !g.columns().iter().any(|c| need.iter().any(|n| n == c));
        Skip::of(&Group::ALL.into_iter().filter(unused).collect::<Vec<_>>())
    }

    /// The option columns the models read (the three linear models', then the trees models'),
    /// a column once for each model that reads it.
    pub fn needed_columns(&self) -> Vec<String> {
        let linear = [&self.discard, &self.riichi, &self.call].into_iter().flat_map(|m| m.needed_columns());
        linear.chain(self.trees.iter().flat_map(|t| t.needed_columns())).collect()
    }

    /// `weights` is the discard weights file (default: the shipped one); the riichi and call
    /// weights are `riichi.json` and `call.json` in the same folder, or the shipped ones.
    pub fn load(weights: Option<&Path>) -> Result<Models> {
        let default_path = crate::model::weights::default_path();
        let default_dir = default_path.parent().map(Path::to_path_buf).unwrap_or_default();
        let discard_path = weights.map_or(default_path, Path::to_path_buf);
        let dir = discard_path.parent().map(Path::to_path_buf).unwrap_or_default();
        let beside = |name: &str| -> PathBuf {
            let p = dir.join(name);
            if p.exists() {
                p
            } else {
                default_dir.join(name)
            }
        };
        let riichi_path = beside("riichi.json");
        let call_path = beside("call.json");
        let three = match beside("sanma.json") {
            p if p.exists() => Some(Box::new(Models {
                discard: load_kind(&p, "discard")?,
                riichi: load_kind(&beside("sanma-riichi.json"), "riichi")?,
                call: load_kind(&beside("sanma-call.json"), "call")?,
                paths: [p, beside("sanma-riichi.json"), beside("sanma-call.json")]
                    .map(|p| p.display().to_string()),
                bad_below: BAD_BELOW,
                trees: Default::default(),
                three: None,
                kita: Some(load_kind(&beside("sanma-kita.json"), "kita")?),
            })),
            _ => None,
        };
        Ok(Models {
            discard: load_kind(&discard_path, "discard")?,
            riichi: load_kind(&riichi_path, "riichi")?,
            call: load_kind(&call_path, "call")?,
            paths: [discard_path, riichi_path, call_path].map(|p| p.display().to_string()),
            bad_below: BAD_BELOW,
            trees: Default::default(),
            three,
            kita: None,
        })
    }

    /// The judges of a table of `players` seats: these, or the three-player ones (`None` at
    /// three players when there are none: a four-player model never judges a sanma decision).
    pub fn for_players(&self, players: u8) -> Option<&Models> {
        if players == 3 {
            self.three.as_deref()
        } else {
            Some(self)
        }
    }

    /// The model that judges decisions of `kind` (discards and anything else: the discard model).
    pub fn for_kind(&self, kind: DecisionKind) -> &Linear {
        match kind {
            DecisionKind::Riichi => &self.riichi,
            DecisionKind::Call => &self.call,
            DecisionKind::Kita => self.kita.as_ref().unwrap_or(&self.discard),
            _ => &self.discard,
        }
    }

    /// The trees model that judges decisions of `kind`: the kind's, when it is calibrated (its
    /// probabilities are what the bad moves and the similarity need); linear judges the rest.
    pub fn trees_judge(&self, kind: DecisionKind) -> Option<&crate::model::trees::TreesRanker> {
        self.trees.get(kind).filter(|t| t.calibration().is_some())
    }

    /// The model that judges discards, riichi and calls: `trees` where [`Models::trees_judge`]
    /// has one, else `linear`.
    pub fn judges(&self) -> [&'static str; 3] {
        [DecisionKind::Discard, DecisionKind::Riichi, DecisionKind::Call].map(|k| {
            if self.trees_judge(k).is_some() {
                "trees"
            } else {
                "linear"
            }
        })
    }

    /// The judges in words: `linear`, or e.g. `trees (discards, riichi), linear (calls)`.
    pub fn judges_text(&self) -> String {
        judges_text(&self.judges())
    }

    /// The judgement of a decision whose option rows (catalog order) are `rows`: by
    /// [`Models::trees_judge`] where it judges, else by the kind's linear model; with the name of
    /// the model that judged. `stats --agreement` judges through here; the review judges the same
    /// way from the scores it shows (a test holds the two to each other).
    pub fn judge(
        &self,
        kind: DecisionKind,
        rows: &[&[f32]],
        situation: crate::model::trees::inputs::Situation,
        chosen: usize,
    ) -> (&'static str, Judgement) {
        match self.trees_judge(kind) {
            Some(t) => {
                let scores = t.score_rows(rows, situation);
                ("trees", judge(&scores, chosen, t.calibration().map(|c| c.temperature)))
            }
            None => {
                let model = self.for_kind(kind);
                let scores = model.score_rows(rows, situation.turn);
                ("linear", judge(&scores, chosen, model.file.calibration.as_ref().map(|c| c.temperature)))
            }
        }
    }
}

#[cfg(test)]
impl Models {
    /// The shipped linear models, each with a temperature (1 where its file has none) so that
    /// tests count bad moves whether or not the shipped files are calibrated, at `bad_below`; with
    /// `trees`, the shipped trees models too, calibrated at 0.9, so that they judge every kind.
    pub(crate) fn for_tests(bad_below: f64, trees: bool) -> Models {
        use crate::model::calibration::Calibration;
        let mut models = Models::load(None).expect("shipped weights");
        for m in [&mut models.discard, &mut models.riichi, &mut models.call] {
            if m.file.calibration.is_none() {
                m.file.calibration = Some(Calibration { temperature: 1.0, ..Default::default() });
            }
        }
        models.bad_below = bad_below;
        if trees {
            let t = &mut models.trees;
            *t = crate::model::trees::TreesByKind::load(None).expect("the shipped trees models");
            for m in [&mut t.discard, &mut t.riichi, &mut t.call] {
                let cal = Calibration { temperature: 0.9, ..Default::default() };
                *m = m.take().map(|m| m.with_calibration(Some(cal)));
            }
            assert_eq!(models.judges(), ["trees"; 3]);
        }
        models
    }
}

/// A weights file that must hold `kind`'s weights.
fn load_kind(p: &Path, kind: &str) -> Result<Linear> {
    let l = Linear::load(Some(p))?;
    if l.file.filter.kind != kind {
        let (holds, needs) = (l.file.filter.kind.clone(), kind.to_string());
        return Err(JudgesError::WrongWeights { path: p.to_path_buf(), holds, needs });
    }
    Ok(l)
}

/// [`Models::judges_text`] of a review's `judges`.
pub fn judges_text(judges: &[&str; 3]) -> String {
    if judges.iter().all(|&j| j == judges[0]) {
        return judges[0].to_string();
    }
    let kinds = ["discards", "riichi", "calls"];
    let of = |m: &str| (0..3).filter(|&i| judges[i] == m).map(|i| kinds[i]).collect::<Vec<_>>().join(", ");
    format!("trees ({}), linear ({})", of("trees"), of("linear"))
}

#[cfg(test)]
mod variant_tests {
    use super::*;

    /// The shipped judges hold the three-player ones (make sanma-weights), fitted on sanma
    /// decisions, and the north's model judges kita decisions only there.
    #[test]
    fn sanma_decisions_have_sanma_judges() {
        let m = Models::load(None).expect("shipped weights");
        assert!(std::ptr::eq(m.for_players(4).unwrap(), &m));
        let three = m.for_players(3).expect("the shipped sanma weights");
        for k in [DecisionKind::Discard, DecisionKind::Riichi, DecisionKind::Call, DecisionKind::Kita] {
            assert_eq!(three.for_kind(k).file.filter.players, 3, "{k:?}");
        }
        assert_eq!(three.for_kind(DecisionKind::Kita).file.filter.kind, "kita");
        assert_eq!(m.for_kind(DecisionKind::Discard).file.filter.players, 4);
    }
}
