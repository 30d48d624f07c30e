//! Replay: runs a [`Game`] through the [`Table`] state machine, validating every event, every
//! round's scores and the round-to-round transitions (dealer, honba, sticks).
//!
//! Later stages see the game through an [`Observer`]: it is called before each event with the
//! table as it stands, which is exactly the information a decision was made on.

pub mod check;
pub mod decision;
pub mod ending;
pub mod kuikae;
pub mod outcome;
pub mod rules;
pub mod table;
pub mod view;
pub mod waits;

use crate::log::event::{Agari, DrawKind, Event, Game, RoundDraw, Rules};
use table::{Table, TableError};

/// A validation failure, placed in the game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("round {round_name} (round index {round}), event {event}: {error}")]
pub struct ReplayError {
    pub round: usize,
    pub round_name: String,
    /// Index of the failing event within the round (`None` for the round start or transition).
    pub event: EventIndex,
    pub error: ReplayErrorKind,
}

/// An event index, printed as `start` for the round start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventIndex(pub Option<usize>);

impl std::fmt::Display for EventIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(i) => write!(f, "{i}"),
            None => write!(f, "start"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayErrorKind {
    #[error(transparent)]
    Table(#[from] TableError),
    #[error("recorded scores before the result {recorded:?}, replay has {replayed:?}")]
    ScoresBefore { recorded: [i32; 4], replayed: [i32; 4] },
    #[error("round start {field}: recorded {recorded}, expected {expected}")]
    Transition { field: &'static str, recorded: String, expected: String },
    #[error("round has no result (no AGARI or RYUUKYOKU)")]
    NoResult,
    #[error("events after the round result")]
    AfterResult,
    #[error("exhaustive draw with {0} tiles left in the wall")]
    EarlyExhaustiveDraw(u8),
    /// The rules ended the game after the round before, yet the record goes on.
    #[error("the game ended after {after} under the rules (scores {scores:?}), yet the record goes on")]
    AfterGameEnd { after: String, scores: [i32; 4] },
}

/// Name of a round: E1, E2, ..., S4, W1, then the honba: "E1-0".
pub fn round_name(round: u8, honba: u8) -> String {
    let wind = ["E", "S", "W", "N"][(round / 4) as usize % 4];
    format!("{wind}{}-{honba}", round % 4 + 1)
}

/// How a round ended, for observers and statistics.
#[derive(Debug, Clone, PartialEq)]
pub enum RoundResult {
    /// One or two wins (double ron).
    Wins(Vec<Agari>),
    Draw(RoundDraw),
}

/// Sees the game as it is replayed. All methods have empty defaults.
pub trait Observer {
    /// Before `event` (index `index` in its round) is applied to `table`.
    fn before_event(&mut self, _table: &Table, _index: usize, _event: &Event) {}
    /// After `event` was applied.
    fn after_event(&mut self, _table: &Table, _index: usize, _event: &Event) {}
    /// After a round's result was applied (`table.scores` are the scores after the round).
    fn round_end(&mut self, _table: &Table, _result: &RoundResult) {}
}

impl Observer for () {}

/// Checks each win against the record; the replay calls it for every AGARI.
pub trait WinChecker {
    /// Returns a description of each disagreement between the record and the re-scoring.
    fn check(&mut self, table: &Table, agari: &Agari, index: usize, events: &[Event]) -> Vec<String>;
}

/// Accepts every win as recorded (for stages that do not re-score).
pub struct NoWinCheck;

impl WinChecker for NoWinCheck {
    fn check(&mut self, _: &Table, _: &Agari, _: usize, _: &[Event]) -> Vec<String> {
        Vec::new()
    }
}

/// Totals of one replayed game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameSummary {
    pub rounds: usize,
    pub discards: usize,
    pub agari: usize,
    /// Wins, and the stated result, whose re-derivation disagreed with the record, with the
    /// reason and place.
    pub mismatches: Vec<String>,
    /// Why the record holds less than a whole game (empty: it is whole; [`ending`]).
    pub partial: ending::Completeness,
}

impl GameSummary {
    /// The record holds a whole game: its start, an end under the rules, and a stated result.
    pub fn complete(&self) -> bool {
        self.partial.is_empty()
    }
}

/// Replays a whole game. Stops at the first validation error (later rounds depend on it).
pub fn replay_game(
    game: &Game,
    observer: &mut impl Observer,
    checker: &mut impl WinChecker,
) -> Result<GameSummary, ReplayError> {
    let mut summary = GameSummary::default();
    let mut end_check = ending::EndCheck::new(game);
    let mut expected_next: Option<Expected> = None;
    for (ri, round) in game.rounds.iter().enumerate() {
        let name = round_name(round.start.round, round.start.honba);
        let err = |event: Option<usize>, error: ReplayErrorKind| ReplayError {
            round: ri,
            round_name: name.clone(),
            event: EventIndex(event),
            error,
        };
        if let Some(exp) = &expected_next {
            exp.check(&round.start, &game.rules).map_err(|e| err(None, e))?;
        }
        let mut table = table::Table::new(game.rules, &round.start).map_err(|e| err(None, e.into()))?;
        let mut wins: Vec<Agari> = Vec::new();
        let mut draw: Option<RoundDraw> = None;
        for (ei, event) in round.events.iter().enumerate() {
            // After the result only a second ron, or players leaving and coming back, may follow.
            let connection = matches!(event, Event::Disconnect { .. } | Event::Reconnect { .. });
            let second_ron = matches!(event, Event::Agari(_)) && draw.is_none();
            if (draw.is_some() || !wins.is_empty()) && !connection && !second_ron {
                return Err(err(Some(ei), ReplayErrorKind::AfterResult));
            }
            observer.before_event(&table, ei, event);
            match event {
                Event::Agari(a) => {
                    if a.scores_before != table.scores {
                        return Err(err(
                            Some(ei),
                            ReplayErrorKind::ScoresBefore {
                                recorded: a.scores_before,
                                replayed: table.scores,
                            },
                        ));
                    }
                    summary.agari += 1;
                    for m in checker.check(&table, a, ei, &round.events) {
                        summary.mismatches.push(format!("{name} event {ei}: {m}"));
                    }
                    table.settle(&a.deltas, true);
                    wins.push((**a).clone());
                }
                Event::Ryuukyoku(d) => {
                    // A game the server stopped has a bare RYUUKYOKU with no scores to check.
                    if d.kind != DrawKind::Aborted && d.scores_before != table.scores {
                        return Err(err(
                            Some(ei),
                            ReplayErrorKind::ScoresBefore {
                                recorded: d.scores_before,
                                replayed: table.scores,
                            },
                        ));
                    }
                    if d.kind == DrawKind::Exhaustive && table.wall_left != 0 {
                        return Err(err(Some(ei), ReplayErrorKind::EarlyExhaustiveDraw(table.wall_left)));
                    }
                    table.settle(&d.deltas, false);
                    draw = Some((**d).clone());
                }
                other => {
                    table.apply(other).map_err(|e| err(Some(ei), e.into()))?;
                    if matches!(other, Event::Discard { .. }) {
                        summary.discards += 1;
                    }
                }
            }
            observer.after_event(&table, ei, event);
        }
        let result = match (wins.is_empty(), draw) {
            (false, _) => RoundResult::Wins(wins),
            (true, Some(d)) => RoundResult::Draw(d),
            (true, None) => return Err(err(None, ReplayErrorKind::NoResult)),
        };
        let (next, end) = Expected::after(&table, &result);
        expected_next = Some(next);
        observer.round_end(&table, &result);
        summary.rounds += 1;
        let more = ri + 1 < game.rounds.len();
        if !end_check.round_ended(&end, more, name.clone(), table.sticks) {
            let next = &game.rounds[ri + 1].start;
            return Err(ReplayError {
                round: ri + 1,
                round_name: round_name(next.round, next.honba),
                event: EventIndex(None),
                error: ReplayErrorKind::AfterGameEnd { after: name, scores: table.scores },
            });
        }
    }
    end_check.finish(game, &mut summary);
    Ok(summary)
}

/// What the next round's start must look like.
struct Expected {
    round: u8,
    honba: u8,
    sticks: u8,
    scores: [i32; 4],
}

impl Expected {
    /// The next round's start, and how this round left the game (for [`ending::game_over`]).
    fn after(table: &Table, result: &RoundResult) -> (Expected, ending::RoundEnd) {
        let start = &table.start;
        let dealer_won = matches!(result, RoundResult::Wins(w) if w.iter().any(|a| a.who == start.dealer));
        let dealer_tenpai = matches!(result, RoundResult::Draw(d)
            if matches!(d.kind, DrawKind::Exhaustive | DrawKind::Nagashi) && d.shown[start.dealer as usize].is_some());
        let (dealer_stays, honba, sticks) = match result {
            // Saturating: a record with 255 honba cannot go on; the next round's check says so.
            RoundResult::Wins(_) => {
                (dealer_won, if dealer_won { start.honba.saturating_add(1) } else { 0 }, 0)
            }
            // After an exhaustive or nagashi draw the dealer stays when tenpai; an abortive draw
            // always keeps the deal.
            RoundResult::Draw(d) => {
                let stays = dealer_tenpai || !matches!(d.kind, DrawKind::Exhaustive | DrawKind::Nagashi);
                (stays, start.honba.saturating_add(1), table.sticks)
            }
        };
        let round = if dealer_stays { start.round } else { table.rules.next_round(start.round) };
        let end = ending::RoundEnd {
            round: start.round,
            stays: dealer_stays,
            dealer_won,
            dealer_tenpai,
            scores: table.scores,
        };
        (Expected { round, honba, sticks, scores: table.scores }, end)
    }

    fn check(&self, start: &crate::log::event::RoundStart, rules: &Rules) -> Result<(), ReplayErrorKind> {
        let field = |field, recorded: String, expected: String| {
            if recorded == expected {
                Ok(())
            } else {
                Err(ReplayErrorKind::Transition { field, recorded, expected })
            }
        };
        field("round", round_name(start.round, 0), round_name(self.round, 0))?;
        field("honba", start.honba.to_string(), self.honba.to_string())?;
        field("riichi sticks", start.sticks.to_string(), self.sticks.to_string())?;
        field("scores", format!("{:?}", start.scores), format!("{:?}", self.scores))?;
        field("dealer", start.dealer.to_string(), rules.dealer_of(start.round).to_string())?;
        Ok(())
    }
}

/// Values at the edge of their types, read from records, end in an error naming the place, never
/// in an arithmetic panic (debug builds, the tests and fuzzing panic on overflow; release would
/// wrap silently).
#[cfg(test)]
mod overflow_tests {
    use super::check::Rescore;
    use super::*;
    use crate::log::mjlog::{parse_mjlog, SMALL_MJLOG};

    fn replay(xml: &str) -> Result<GameSummary, ReplayError> {
        let game = parse_mjlog("edge", xml.as_bytes()).expect("the edited record still parses");
        replay_game(&game, &mut (), &mut Rescore::default())
    }

    #[test]
    fn the_small_game_replays_as_recorded() {
        replay(SMALL_MJLOG).expect("the unedited record replays");
    }

    /// table.rs: the riichi acceptance before the declaration tile was discarded (the river is
    /// empty; `len() - 1` underflowed).
    #[test]
    fn riichi_accepted_before_its_discard() {
        let xml = SMALL_MJLOG.replace(
            r#"<D60/><REACH who="0" ten="240,250,250,250" step="2"/>"#,
            r#"<REACH who="0" ten="240,250,250,250" step="2"/><D60/>"#,
        );
        let e = replay(&xml).unwrap_err();
        assert!(e.to_string().contains("accepted before the declaration tile"), "{e}");
    }

    /// table.rs: a riichi stick on top of 255 (`sticks += 1` in u8).
    #[test]
    fn riichi_stick_past_255() {
        let xml = SMALL_MJLOG.replace(r#"seed="0,0,0,3,4,20""#, r#"seed="0,0,255,3,4,20""#);
        let e = replay(&xml).unwrap_err();
        assert!(e.to_string().contains("more than 255 riichi sticks"), "{e}");
    }

    /// mod.rs (`honba + 1` after a dealer win) and check.rs (`honba * 5` in u8 at a table that
    /// pays 500 per honba, go type bit 0x400): 255 honba.
    #[test]
    fn honba_255_at_a_500_per_honba_table() {
        let xml = SMALL_MJLOG
            .replace(r#"seed="0,0,0,3,4,20""#, r#"seed="0,255,0,3,4,20""#)
            .replace(r#"<GO type="169""#, r#"<GO type="1193""#);
        // The recorded payments are those of 0 honba, so the re-scoring disagrees: a mismatch,
        // not a panic.
        let summary = replay(&xml).expect("replays");
        assert_eq!(summary.mismatches.len(), 1, "{:?}", summary.mismatches);
    }
}
