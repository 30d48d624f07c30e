//! What a discard risks and what it keeps, as the judge states it beside a bad move: the danger
//! family's probability of dealing in and expected loss (`danger_dealin`, `danger_loss`, served
//! by the danger models fitted on the opponents' real waits, [`crate::features::danger`]), and
//! the value at stake, the option's `ev` less that expected loss.
//!
//! A model's pick and the player's choice often differ on shape alone, where both tiles are as
//! safe; the judge names danger only when it separates them: the player's tile deals in at least
//! [`DANGER_GAP`] more (or less) often than the model's. The gap is in probability, not points,
//! so that a cheap hand pushing into a riichi is named as readily as an expensive one; the points
//! are stated beside it.

use crate::features::catalog::{index, index_of};
use crate::features::danger::COLUMN_NAMES;
use crate::features::value;
use crate::replay::decision::DecisionKind;

/// The difference in deal-in probability from which the judge says danger separated the two
/// options: two percentage points, about the gap between a suji tile and a musuji 4-6 against
/// one riichi late in a round, and ten times the gap between two tiles when nobody is tenpai.
pub const DANGER_GAP: f32 = 0.02;

/// One discard option's danger and value.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Stake {
    /// P(the discard deals in to some opponent).
    pub dealin: f32,
    /// Expected points lost to a deal-in on it.
    pub loss: f32,
    /// 電脳麻将's expected value of the hand after it, where defined.
    pub ev: Option<f64>,
    /// `ev - loss`, where `ev` is defined.
    pub at_stake: Option<f64>,
}

/// How danger separated the player's choice from the model's pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DangerReason {
    /// The player's tile deals in more often: a push the model would not make.
    Pushed,
    /// The player's tile deals in less often: a fold (or a detour) the model would not make.
    Folded,
}

/// Where the columns a stake reads sit in a catalog row.
#[derive(Clone, Copy, Debug)]
pub struct StakeColumns {
    dealin: usize,
    loss: usize,
    ev: usize,
    ev_defined: usize,
    /// The tenpai columns: all three are 0 only where the family was not computed.
    tenpai: [usize; 3],
}

impl Default for StakeColumns {
    fn default() -> Self {
        let at = |n: &str| index_of(n).unwrap_or_else(|| panic!("{n} is a catalog column"));
        let [dealin, loss, next, across, prev] = COLUMN_NAMES.map(at);
        StakeColumns {
            dealin,
            loss,
            ev: index(value::EV),
            ev_defined: index(value::EV_DEFINED),
            tenpai: [next, across, prev],
        }
    }
}

impl StakeColumns {
    /// The stake of a catalog row of an option of a decision of `kind`, or `None` where the row
    /// has no danger family (an ingest `--skip danger`, a live ranker that left it out:
    /// the models give every opponent some probability of tenpai, never exactly 0) or is not a
    /// discard's. A riichi or call option holds the danger of the discard its hand is scored as,
    /// not a choice between discards, so only a discard's options have stakes to compare.
    pub fn of(&self, kind: DecisionKind, row: &[f32]) -> Option<Stake> {
        if kind != DecisionKind::Discard || self.tenpai.iter().all(|&c| row[c] == 0.0) {
            return None;
        }
        let ev = (row[self.ev_defined] > 0.0).then_some(row[self.ev] as f64);
        let loss = row[self.loss];
        Some(Stake { dealin: row[self.dealin], loss, ev, at_stake: ev.map(|e| e - loss as f64) })
    }

    /// The stakes of the options of catalog rows `human` and `pick` of a decision of `kind`,
    /// when both rows hold them.
    pub fn stakes(&self, kind: DecisionKind, human: &[f32], pick: &[f32]) -> Option<(Stake, Stake)> {
        self.of(kind, human).zip(self.of(kind, pick))
    }

    /// How the options of catalog rows `human` and `pick` of a decision of `kind` compare in
    /// danger.
    pub fn separation(&self, kind: DecisionKind, human: &[f32], pick: &[f32]) -> Separation {
        match self.stakes(kind, human, pick) {
            Some((h, p)) => reason(&h, &p).map_or(Separation::Alike, Separation::By),
            None => Separation::Unknown,
        }
    }
}

/// How a decision's choice and the judge's first choice compare in danger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Separation {
    /// The rows hold no danger family (not a discard, or not computed).
    Unknown,
    /// Within [`DANGER_GAP`] of each other (or the same option).
    Alike,
    By(DangerReason),
}

/// Whether danger separated the player's `human` option from the model's `pick`, and which way.
pub fn reason(human: &Stake, pick: &Stake) -> Option<DangerReason> {
    let gap = human.dealin - pick.dealin;
    if gap >= DANGER_GAP {
        Some(DangerReason::Pushed)
    } else if -gap >= DANGER_GAP {
        Some(DangerReason::Folded)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::catalog::catalog_width;

    fn row(dealin: f32, loss: f32, ev: Option<f32>, tenpai: f32) -> Vec<f32> {
        let c = StakeColumns::default();
        let mut r = vec![0.0; catalog_width()];
        r[c.dealin] = dealin;
        r[c.loss] = loss;
        r[c.tenpai[1]] = tenpai;
        if let Some(e) = ev {
            r[c.ev] = e;
            r[c.ev_defined] = 1.0;
        }
        r
    }

    #[test]
    fn a_row_without_the_family_has_no_stake() {
        let c = StakeColumns::default();
        assert_eq!(c.of(DecisionKind::Discard, &row(0.0, 0.0, Some(1000.0), 0.0)), None);
        let s = c.of(DecisionKind::Discard, &row(0.1, 800.0, Some(3000.0), 0.4)).unwrap();
        assert_eq!(c.of(DecisionKind::Call, &row(0.1, 800.0, Some(3000.0), 0.4)), None);
        assert_eq!((s.dealin, s.loss, s.ev, s.at_stake), (0.1, 800.0, Some(3000.0), Some(2200.0)));
        assert_eq!(c.of(DecisionKind::Discard, &row(0.1, 800.0, None, 0.4)).unwrap().at_stake, None);
    }

    #[test]
    fn danger_is_the_reason_only_past_the_gap() {
        let c = StakeColumns::default();
        let s = |d: f32| c.of(DecisionKind::Discard, &row(d, d * 8000.0, None, 0.5)).unwrap();
        assert_eq!(reason(&s(0.15), &s(0.01)), Some(DangerReason::Pushed));
        assert_eq!(reason(&s(0.01), &s(0.15)), Some(DangerReason::Folded));
        assert_eq!(reason(&s(0.030), &s(0.015)), None);
        assert_eq!(reason(&s(0.04), &s(0.01)), Some(DangerReason::Pushed));
    }
}
