//! `haifu stats --agreement`: how often every human seat's decisions agree with the `linear`
//! models, by dan and by year, as NAGA's houou trend charts show them: the match rate (一致率,
//! the choice is the model's first) and the bad-move rate (悪手率, the calibrated model gives the
//! choice less than `--bad-below`).
//!
//! The decisions come from the stats pass's own replay (a [`DecisionRecorder`] beside the outcome
//! and study observers, no second replay); each decision's option rows are built as ingest builds
//! them ([`decision_values`], leaving out the column groups the models do not use) and judged as
//! the review judges them ([`judge`]), so the figures are the review's, summed. They are counts
//! ([`Rate`]s), kept under the scopes `agreement_dan` and `agreement_year` of `counts.parquet`, so
//! shards merge exactly. AI seats (names starting with ⓝ) are left out.

use std::collections::BTreeMap;

use crate::dataset::rows::{decision_row, decision_values, RowsError};
use crate::features::catalog::catalog_width;
use crate::features::groups::{Group, Skip};
use crate::log::event::{date_of_id, Game, Player};
use crate::model::judges::Models;
use crate::model::stake::{DangerReason, Separation, StakeColumns};
use crate::model::trees::inputs::Situation;
use crate::replay::decision::{Decision, DecisionKind, Recording, RoundSink};
use crate::replay::table::Table;
use crate::replay::RoundResult;
use crate::util::Rate;

/// The agreement counts of a group of decisions (one dan, one year, one seat of one game).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AgreementStats {
    /// Every decision (discard, riichi or dama, call offered): the choice was the model's first.
    pub matched: Rate,
    /// Every decision with a calibrated probability: the choice's is below the threshold.
    pub bad_move: Rate,
    /// The same over discard decisions only.
    pub discard_matched: Rate,
    pub discard_bad_move: Rate,
    /// Bad-move discards whose rows hold the danger family: the player's tile deals in
    /// [`crate::model::stake::DANGER_GAP`] or more often than the judge's first choice (a push),
    /// and, over the same, less often (a fold). The rest differ on shape and value.
    pub bad_pushed: Rate,
    pub bad_folded: Rate,
}

impl AgreementStats {
    fn add(&mut self, kind: DecisionKind, matched: bool, bad: Option<bool>, danger: Separation) {
        if bad == Some(true) && danger != Separation::Unknown {
            self.bad_pushed.add(danger == Separation::By(DangerReason::Pushed));
            self.bad_folded.add(danger == Separation::By(DangerReason::Folded));
        }
        self.matched.add(matched);
        if let Some(b) = bad {
            self.bad_move.add(b);
        }
        if kind == DecisionKind::Discard {
            self.discard_matched.add(matched);
            if let Some(b) = bad {
                self.discard_bad_move.add(b);
            }
        }
    }

    /// Both groups' counts added.
    pub fn merged(&self, o: &AgreementStats) -> AgreementStats {
        super::counts::add(self, o)
    }
}

/// The agreement counts of a run: by dan group key ([`dan_key`]) and by year (`unknown` when the
/// game id carries no date).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgreementTables {
    pub by_dan: BTreeMap<String, AgreementStats>,
    pub by_year: BTreeMap<String, AgreementStats>,
    /// Which models judged ([`crate::model::judges::Models::judges_text`]); empty for linear
    /// (runs written before the trees could judge).
    pub judges: String,
}

/// A dan's group key: the Tenhou dan index in two digits (`16` = 7 dan), so keys sort by rank;
/// `unknown` when the record has none. [`dan_group_label`] turns it back into words.
pub fn dan_key(dan: Option<u8>) -> String {
    dan.map_or_else(|| "unknown".into(), |d| format!("{d:02}"))
}

/// The year group of a game id: its year when the id carries a date ([`date_of_id`]), else
/// `unknown`.
pub fn year_key(game_id: &str) -> String {
    date_of_id(game_id).map_or_else(|| "unknown".to_string(), |d| d[..4].to_string())
}

/// `16` → `7 dan`; other keys as they are.
pub fn dan_group_label(key: &str) -> String {
    key.parse::<u8>().map_or_else(|_| key.to_string(), Player::dan_label)
}

impl AgreementTables {
    pub fn is_empty(&self) -> bool {
        self.by_dan.is_empty() && self.by_year.is_empty()
    }

    /// Adds one judged decision under the deciding seat's dan and the game's year ([`year_key`]).
    pub fn add_decision(
        &mut self,
        dan: Option<u8>,
        year: &str,
        kind: DecisionKind,
        matched: bool,
        bad: Option<bool>,
        danger: Separation,
    ) {
        self.by_dan.entry(dan_key(dan)).or_default().add(kind, matched, bad, danger);
        self.by_year.entry(year.to_string()).or_default().add(kind, matched, bad, danger);
    }

    /// Adds one game's per-seat counts under each seat's dan and the game's year.
    pub fn add_game(&mut self, game: &Game, seats: &[AgreementStats; 4]) {
        let year = year_key(&game.id);
        for (p, s) in game.players.iter().zip(seats) {
            if s.matched.n == 0 {
                continue;
            }
            let dan = self.by_dan.entry(dan_key(p.dan)).or_default();
            *dan = dan.merged(s);
            let y = self.by_year.entry(year.clone()).or_default();
            *y = y.merged(s);
        }
    }

    /// Who judged, as the README's heading names them: `linear` unless told otherwise.
    pub fn judges_text(&self) -> &str {
        if self.judges.is_empty() {
            "linear"
        } else {
            &self.judges
        }
    }

    /// Every count of `o` added to these.
    pub fn merge(&mut self, o: &AgreementTables) {
        if self.judges.is_empty() {
            self.judges = o.judges.clone();
        }
        for (mine, theirs) in [(&mut self.by_dan, &o.by_dan), (&mut self.by_year, &o.by_year)] {
            for (k, s) in theirs {
                let e = mine.entry(k.clone()).or_default();
                *e = e.merged(s);
            }
        }
    }

    /// Every group's counts added: all the decisions counted.
    pub fn total(&self) -> AgreementStats {
        self.by_dan.values().fold(AgreementStats::default(), |a, s| a.merged(s))
    }
}

/// An observer that judges every human seat's decisions as the replay reaches the end of each
/// round (so no table snapshot outlives its round): the recording observer with [`Judging`] as
/// its sink. The first error stops the judging and is kept for [`AgreementCollector::finish`].
pub type AgreementCollector<'a> = Recording<Judging<'a>>;

/// The judging of each round's decisions, behind the recording observer.
pub struct Judging<'a> {
    models: &'a Models,
    skip: Skip,
    stake: StakeColumns,
    humans: [bool; 4],
    seats: [AgreementStats; 4],
    error: Option<RowsError>,
}

impl<'a> AgreementCollector<'a> {
    /// For `game`, judged by `models` (option rows without the groups they do not use).
    pub fn for_game(game: &Game, models: &'a Models) -> AgreementCollector<'a> {
        Recording::new(Judging {
            models,
            // the judge states the danger of bad moves whatever the models read
            skip: models.skip().keeping(Group::Danger),
            stake: StakeColumns::default(),
            humans: [0, 1, 2, 3].map(|s| !game.players[s].is_ai()),
            seats: Default::default(),
            error: None,
        })
    }

    /// The per-seat counts, or the first decision whose rows could not be built.
    pub fn finish(self) -> Result<[AgreementStats; 4], RowsError> {
        let j = self.sink;
        match j.error {
            Some(e) => Err(e),
            None => Ok(j.seats),
        }
    }
}

impl RoundSink for Judging<'_> {
    fn round(&mut self, _table: &Table, _result: &RoundResult, decisions: Vec<Decision>) {
        let w = catalog_width();
        for d in decisions {
            if self.error.is_some() || !self.humans[d.seat as usize] || d.options.is_empty() {
                continue;
            }
            let values = match decision_values(&d, self.skip) {
                Ok(v) => v,
                Err(e) => {
                    self.error = Some(e);
                    continue;
                }
            };
            let rows: Vec<&[f32]> = values.chunks_exact(w).collect();
            let r = decision_row(&d);
            let situation =
                Situation::of_decision(r.turn, r.wall_left, r.round_wind, r.dealer, r.scoreboard());
            let (_, j) = self.models.judge(d.kind, &rows, situation, d.chosen);
            let danger = self.stake.separation(d.kind, rows[d.chosen], rows[j.pick]);
            self.seats[d.seat as usize].add(d.kind, j.matched, j.bad_move(self.models.bad_below), danger);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::review::review_game;

    /// On real games, the counts of the stats pass are the review's for every seat: the same
    /// decisions, the same matches and the same bad moves (the review builds every column group,
    /// the stats pass only the ones the models use), under the seat's dan and the game's year.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn counts_are_the_reviews_summed() {
        let mut files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        files.truncate(2);
        // Linear judging every kind, then the shipped trees models.
        for models in [Models::for_tests(0.1, false), Models::for_tests(0.1, true)] {
            judge_as_the_review(&files, &models);
        }
    }

    fn judge_as_the_review(files: &[std::path::PathBuf], models: &Models) {
        let mut tables = AgreementTables::default();
        let mut want = AgreementStats::default();
        for path in files {
            let game = crate::log::source::parse_game("g", &std::fs::read(path).unwrap()).unwrap();
            let mut c = AgreementCollector::for_game(&game, models);
            crate::stats::players::game_outcome_with(&game, &mut c).unwrap();
            let seats = c.finish().unwrap();
            for (s, got) in seats.iter().enumerate() {
                let r = review_game(&game, "", s as u8, models).unwrap();
                let a = &r.summary.game;
                assert_eq!(
                    (got.matched.n, got.matched.hits),
                    (a.decisions as u64, a.top1 as u64),
                    "{path:?} seat {s}"
                );
                assert_eq!(
                    (got.bad_move.n, got.bad_move.hits),
                    (a.with_probability as u64, a.bad_moves as u64)
                );
                let d = &r.summary.discard;
                assert_eq!(
                    (got.discard_matched.n, got.discard_matched.hits),
                    (d.decisions as u64, d.top1 as u64)
                );
                assert_eq!(got.discard_bad_move.hits, d.bad_moves as u64);
                // the bad moves the review names danger for, and those its options' stakes allow
                let bad: Vec<_> = r.decisions().filter(|d| d.bad_move == Some(true)).collect();
                let staked = bad.iter().filter(|d| d.options.iter().any(|o| o.stake.is_some())).count();
                let named =
                    |why| bad.iter().filter(|d| d.danger.as_ref().is_some_and(|n| n.reason == why)).count();
                assert_eq!(
                    (got.bad_pushed.n, got.bad_pushed.hits, got.bad_folded.hits),
                    (staked as u64, named(DangerReason::Pushed) as u64, named(DangerReason::Folded) as u64),
                    "{path:?} seat {s}"
                );
                want = want.merged(got);
            }
            tables.add_game(&game, &seats);
        }
        assert_eq!(tables.total(), want);
        assert!(want.bad_move.hits > 0 && want.bad_move.n == want.matched.n, "{want:?}");
        assert!(want.bad_pushed.hits > 0 && want.bad_pushed.n <= want.discard_bad_move.hits, "{want:?}");
        let years: AgreementStats = tables.by_year.values().fold(Default::default(), |a, s| a.merged(s));
        assert_eq!(years, want, "every decision under one year");
        assert!(tables.by_dan.keys().all(|k| k.len() == 2), "{:?}", tables.by_dan.keys());
    }

    #[test]
    fn dan_keys_sort_by_rank_and_read_back() {
        assert_eq!(dan_key(Some(16)), "16");
        assert_eq!(dan_key(Some(9)), "09");
        assert!(dan_key(Some(9)) < dan_key(Some(16)));
        assert_eq!(dan_group_label("16"), "7 dan");
        assert_eq!(dan_group_label("unknown"), "unknown");
    }
}
