//! Player and table statistics: per player-round outcomes collected while a game is replayed,
//! then summed per player name, per table level and overall.
//!
//! Every rate is "per player-round" unless it says otherwise: a game of 9 rounds gives each of
//! its 4 seats 9 player-rounds. `tenpai_at_draw` is per exhaustive draw the player was part of,
//! the average win / deal-in points per win / deal-in.

use crate::hand::MeldKind;
use crate::log::{DrawKind, Game, TableLevel};
use crate::replay::{replay_game, NoWinCheck, Observer, ReplayError, RiichiState, RoundResult, Table};
use crate::util::{placements, Mean, Rate};

/// What one seat did in one round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatRound {
    pub won: bool,
    pub dealt_in: bool,
    /// Another player won by tsumo.
    pub tsumo_lost: bool,
    /// A ron between two other players.
    pub lateral: bool,
    pub exhaustive_draw: bool,
    pub tenpai_at_draw: bool,
    pub riichi: bool,
    /// At least one chi, pon or open kan.
    pub called: bool,
    /// Hand value of the win (Tenhou's points, without honba and sticks).
    pub win_points: i32,
    /// Points paid on the deal-in (honba included).
    pub deal_in_points: i32,
    /// Score after the round minus score before (sticks and payments included).
    pub score_change: i32,
}

/// One game's per-seat, per-round outcomes and final placements.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    pub players: [String; 4],
    pub table: TableLevel,
    pub rounds: Vec<[SeatRound; 4]>,
    /// Placement 1..=4 of each seat.
    pub placement: [u8; 4],
}

#[derive(Default)]
struct Collector {
    rounds: Vec<[SeatRound; 4]>,
}

impl Observer for Collector {
    fn round_end(&mut self, table: &Table, result: &RoundResult) {
        let mut seats = [SeatRound::default(); 4];
        for (p, s) in seats.iter_mut().enumerate() {
            s.riichi = matches!(table.riichi[p], RiichiState::Accepted { .. });
            s.called = table.melds[p].iter().any(|m| m.kind != MeldKind::Ankan);
            s.score_change = table.scores[p] - table.start.scores[p];
        }
        match result {
            RoundResult::Wins(wins) => {
                for a in wins {
                    let w = a.who as usize;
                    seats[w].won = true;
                    seats[w].win_points = a.points;
                    if a.from_who == a.who {
                        for (p, s) in seats.iter_mut().enumerate() {
                            if p != w {
                                s.tsumo_lost = true;
                            }
                        }
                    } else {
                        let f = a.from_who as usize;
                        seats[f].dealt_in = true;
                        seats[f].deal_in_points += -a.deltas[f];
                        for (p, s) in seats.iter_mut().enumerate() {
                            if p != w && p != f {
                                s.lateral = true;
                            }
                        }
                    }
                }
                // In a double ron the second winner is not "lateral" to the first.
                for s in seats.iter_mut() {
                    if s.won || s.dealt_in {
                        s.lateral = false;
                    }
                }
            }
            RoundResult::Draw(d) if d.kind == DrawKind::Exhaustive => {
                for (p, s) in seats.iter_mut().enumerate() {
                    s.exhaustive_draw = true;
                    s.tenpai_at_draw = d.shown[p].is_some();
                }
            }
            RoundResult::Draw(_) => {}
        }
        self.rounds.push(seats);
    }
}

/// Two observers fed in one replay pass (the player outcomes and the studies).
struct Both<'a, A, B>(&'a mut A, &'a mut B);

impl<A: Observer, B: Observer> Observer for Both<'_, A, B> {
    fn before_event(&mut self, table: &Table, index: usize, event: &crate::log::Event) {
        self.0.before_event(table, index, event);
        self.1.before_event(table, index, event);
    }
    fn after_event(&mut self, table: &Table, index: usize, event: &crate::log::Event) {
        self.0.after_event(table, index, event);
        self.1.after_event(table, index, event);
    }
    fn round_end(&mut self, table: &Table, result: &RoundResult) {
        self.0.round_end(table, result);
        self.1.round_end(table, result);
    }
}

/// Replays a game and collects its outcomes.
pub fn game_outcome(game: &Game) -> Result<GameOutcome, ReplayError> {
    game_outcome_with(game, &mut ())
}

/// Replays a game once, collecting its outcomes and feeding `extra` (for example the studies'
/// observer) in the same pass.
pub fn game_outcome_with(game: &Game, extra: &mut impl Observer) -> Result<GameOutcome, ReplayError> {
    let mut c = Collector::default();
    replay_game(game, &mut Both(&mut c, extra), &mut NoWinCheck)?;
    let last = game.rounds.last().map(|r| r.start.scores).unwrap_or([25_000; 4]);
    let final_scores = game.final_scores.unwrap_or_else(|| {
        let mut s = last;
        if let Some(round) = c.rounds.last() {
            for p in 0..4 {
                s[p] += round[p].score_change;
            }
        }
        s
    });
    Ok(GameOutcome {
        players: game.players.clone().map(|p| p.name),
        table: game.rules.table,
        rounds: c.rounds,
        placement: placements(&final_scores),
    })
}

/// Statistics of a group of player-games (one player, one table level, or everything).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct PlayerStats {
    pub games: u64,
    pub rounds: u64,
    /// Games finished 1st, 2nd, 3rd, 4th.
    pub placements: [u64; 4],
    pub avg_placement: Mean,
    pub win: Rate,
    pub deal_in: Rate,
    pub tsumo_lost: Rate,
    pub lateral: Rate,
    pub exhaustive_draw: Rate,
    pub tenpai_at_draw: Rate,
    pub riichi: Rate,
    pub call: Rate,
    pub win_points: Mean,
    pub deal_in_points: Mean,
    pub score_change: Mean,
}

impl PlayerStats {
    /// Adds one seat of one game.
    pub fn add_seat(&mut self, game: &GameOutcome, seat: usize) {
        self.games += 1;
        let place = game.placement[seat];
        self.placements[place as usize - 1] += 1;
        self.avg_placement.add(place as f64);
        for r in &game.rounds {
            let s = &r[seat];
            self.rounds += 1;
            self.win.add(s.won);
            self.deal_in.add(s.dealt_in);
            self.tsumo_lost.add(s.tsumo_lost);
            self.lateral.add(s.lateral);
            self.exhaustive_draw.add(s.exhaustive_draw);
            if s.exhaustive_draw {
                self.tenpai_at_draw.add(s.tenpai_at_draw);
            }
            self.riichi.add(s.riichi);
            self.call.add(s.called);
            if s.won {
                self.win_points.add(s.win_points as f64);
            }
            if s.dealt_in {
                self.deal_in_points.add(s.deal_in_points as f64);
            }
            self.score_change.add(s.score_change as f64);
        }
    }

    /// Placement rates 1st..4th per game.
    pub fn placement_rates(&self) -> [f64; 4] {
        let g = self.games.max(1) as f64;
        self.placements.map(|c| c as f64 / g)
    }
}
