//! What happened to each seat in each round of a game, and how the game ended for it: the
//! outcomes a replay leaves behind ([`game_outcome`]). The player statistics ([`crate::stats`])
//! and the self-play summaries ([`crate::sim`]) both count them, so they live here, below both.

use crate::hand::meld::MeldKind;
use crate::hand::shanten::necessary_kinds;
use crate::log::event::{DrawKind, Game, TableLevel};
use crate::replay::table::{RiichiState, Table};
use crate::replay::{replay_game, NoWinCheck, Observer, ReplayError, RoundResult};
use crate::util::placements_of;

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
    /// The round ended in any draw (exhaustive or abortive).
    pub any_draw: bool,
    pub tenpai_at_draw: bool,
    /// Riichi declared, including a declaration whose discard was ronned (the stick never paid).
    pub riichi: bool,
    /// At least one chi, pon or open kan (a closed kan is not a call).
    pub called: bool,
    /// Chi, pon and open kans this round (an added kan upgrades its pon and adds nothing).
    pub calls: u8,
    /// This seat dealt the round.
    pub dealer: bool,
    /// The win was a tsumo.
    pub tsumo: bool,
    /// The winner's draws so far when they won (a tsumo counts its winning draw).
    pub win_turn: u16,
    /// The yaku of the win as a bit set over Tenhou yaku ids (dora ids only when they scored).
    pub win_yaku: u64,
    /// Hand value of the win (Tenhou's points, without honba and sticks).
    pub win_points: i32,
    /// Hand value of the win(s) dealt into (without honba and sticks; both wins of a double ron).
    pub deal_in_points: i32,
    /// The wins dealt into by the winner's state: [riichi, open, dama].
    pub deal_in_to: [u8; 3],
    /// The seat's draws when it declared riichi.
    pub riichi_turn: u16,
    /// 1 = the first riichi declared this round, 2 = the second, ... (0 = no riichi).
    pub riichi_order: u8,
    /// Another player declared riichi after this seat did.
    pub chased: bool,
    /// The riichi waits on two or more kinds (counted from the hand alone, not from what is
    /// visible).
    pub good_wait: bool,
    /// Score after the round minus score before (sticks and payments included).
    pub score_change: i32,
    /// Norths this seat set aside this round (抜きドラ; three players only).
    pub kita: u8,
    /// The win was a ron on a north another seat had just set aside.
    pub kita_ron: bool,
    /// This seat dealt in by setting a north aside (a ron on the set-aside north).
    pub kita_dealt_in: bool,
    /// The set-aside norths of the win (each a dora).
    pub win_kita: u8,
}

/// One game's per-seat, per-round outcomes and final placements.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    pub players: [String; 4],
    /// Seats at the table (3 or 4, [`crate::log::rules::Rules::players`]): at three the fourth
    /// entry of every array is the empty seat, which has no round and no placement.
    pub seats: u8,
    /// The uma/oka results the record states (`owari`), when it states them.
    pub final_results: Option<[f32; 4]>,
    pub table: TableLevel,
    /// East + South; rank points of an East-only game are two thirds.
    pub hanchan: bool,
    pub rounds: Vec<[SeatRound; 4]>,
    /// Placement 1..=4 of each seat.
    pub placement: [u8; 4],
    pub final_scores: [i32; 4],
    /// The record holds a whole game ([`crate::replay::ending`]): only then are its placements
    /// and final scores the game's.
    pub complete: bool,
}

/// Per-round facts the round-end table no longer shows: who declared riichi when, and with
/// what wait.
#[derive(Default)]
struct RiichiLog {
    /// Seats in declaration order.
    order: Vec<u8>,
    turn: [u16; 4],
    good_wait: [bool; 4],
}

#[derive(Default)]
struct Collector {
    rounds: Vec<[SeatRound; 4]>,
    riichi: RiichiLog,
}

/// The winner's state: 0 riichi, 1 open, 2 dama.
pub fn win_state(riichi: bool, called: bool) -> usize {
    if riichi {
        0
    } else if called {
        1
    } else {
        2
    }
}

/// The bit set of a win's yaku: every yaku and yakuman id, dora ids only when they scored han.
pub fn yaku_bits(a: &crate::log::event::Agari) -> u64 {
    let yaku = a.yaku.iter().filter(|&&(_, han)| han > 0).map(|&(id, _)| id);
    yaku.chain(a.yakuman.iter().copied()).filter(|&id| id < 64).fold(0, |bits, id| bits | 1 << id)
}

impl Observer for Collector {
    fn after_event(&mut self, table: &Table, _index: usize, event: &crate::log::event::Event) {
        match *event {
            crate::log::event::Event::Riichi { who, step: 1, .. } => {
                self.riichi.order.push(who);
                self.riichi.turn[who as usize] = table.draws[who as usize];
            }
            crate::log::event::Event::Discard { who, .. }
                if table.riichi[who as usize] == RiichiState::Declared =>
            {
                let (shanten, waits) = necessary_kinds(&table.hand_counts(who));
                self.riichi.good_wait[who as usize] = shanten == 0 && waits.count_ones() >= 2;
            }
            _ => {}
        }
    }

    fn round_end(&mut self, table: &Table, result: &RoundResult) {
        let mut seats = [SeatRound::default(); 4];
        let log = std::mem::take(&mut self.riichi);
        // The table keeps each seat's set-aside norths, and the one just set aside while a ron
        // on it can still come (the replay's re-scoring reads the same).
        let robbed = table.last_kita.map(|(who, _)| who);
        for (p, s) in seats.iter_mut().enumerate() {
            s.kita = table.kita[p].len() as u8;
            s.riichi = table.riichi[p] != RiichiState::None;
            s.calls = table.melds[p].iter().filter(|m| m.kind != MeldKind::Ankan).count() as u8;
            s.called = s.calls > 0;
            s.dealer = table.start.dealer as usize == p;
            s.score_change = table.scores[p] - table.start.scores[p];
            if let Some(i) = log.order.iter().position(|&w| w as usize == p) {
                s.riichi_order = i as u8 + 1;
                s.chased = i + 1 < log.order.len();
                s.riichi_turn = log.turn[p];
                s.good_wait = log.good_wait[p];
            }
        }
        match result {
            RoundResult::Wins(wins) => {
                for a in wins {
                    let w = a.who as usize;
                    let state = win_state(seats[w].riichi, seats[w].called);
                    let s = &mut seats[w];
                    s.won = true;
                    s.win_points = a.points;
                    s.tsumo = a.from_who == a.who;
                    s.win_turn = table.draws[w];
                    s.win_yaku = yaku_bits(a);
                    s.win_kita = a.kita.len() as u8;
                    let on_kita = a.from_who != a.who && robbed == Some(a.from_who);
                    s.kita_ron = on_kita;
                    if a.from_who == a.who {
                        for (p, s) in seats.iter_mut().enumerate() {
                            if p != w {
                                s.tsumo_lost = true;
                            }
                        }
                    } else {
                        let f = a.from_who as usize;
                        seats[f].dealt_in = true;
                        seats[f].deal_in_points += a.points;
                        seats[f].deal_in_to[state] += 1;
                        seats[f].kita_dealt_in |= on_kita;
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
            // A record cut off by the server (`Aborted`) is no mahjong outcome.
            RoundResult::Draw(d) if d.kind == DrawKind::Aborted => {}
            RoundResult::Draw(d) => {
                for (p, s) in seats.iter_mut().enumerate() {
                    s.any_draw = true;
                    if d.kind == DrawKind::Exhaustive {
                        s.exhaustive_draw = true;
                        s.tenpai_at_draw = d.shown[p].is_some();
                    }
                }
            }
        }
        self.rounds.push(seats);
    }
}

/// Two observers fed in one replay pass (the player outcomes and the studies), in that order.
pub struct Both<'a, A, B>(pub &'a mut A, pub &'a mut B);

impl<A: Observer, B: Observer> Observer for Both<'_, A, B> {
    fn before_event(&mut self, table: &Table, index: usize, event: &crate::log::event::Event) {
        self.0.before_event(table, index, event);
        self.1.before_event(table, index, event);
    }
    fn after_event(&mut self, table: &Table, index: usize, event: &crate::log::event::Event) {
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
    let summary = replay_game(game, &mut Both(&mut c, extra), &mut NoWinCheck)?;
    let last = game.rounds.last().map(|r| r.start.scores).unwrap_or(game.rules.start_scores());
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
        seats: game.rules.players,
        final_results: game.final_results,
        table: game.rules.table,
        hanchan: game.rules.hanchan,
        rounds: c.rounds,
        placement: placements_of(&final_scores, game.rules.players),
        final_scores,
        complete: summary.complete(),
    })
}
