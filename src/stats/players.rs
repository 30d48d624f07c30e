//! Player and table statistics: per player-round outcomes collected while a game is replayed,
//! then summed per player name, per table level and overall.
//!
//! Every rate is "per player-round" unless it says otherwise: a game of 9 rounds gives each of
//! its 4 seats 9 player-rounds. `tenpai_at_draw` is per exhaustive draw the player was part of,
//! the average win / deal-in points per win / deal-in.

use crate::replay::outcome::win_state;
use crate::util::{Mean, Rate};

pub use crate::replay::outcome::{game_outcome, game_outcome_with, yaku_bits, Both, GameOutcome, SeatRound};

/// Tenhou's houou rank points for a placement, at 7-dan (the houou entry grade: the 4th-place
/// loss is 30 + 15 x dan in a hanchan). East-only games move two thirds as much.
pub fn houou_rank_points(place: u8, hanchan: bool) -> i32 {
    let hanchan_points = match place {
        1 => 90,
        2 => 45,
        3 => 0,
        _ => -(30 + 15 * 7),
    };
    if hanchan {
        hanchan_points
    } else {
        hanchan_points * 2 / 3
    }
}

/// Wins with each Tenhou yaku id (0..=54), as a list so that serde writes it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct YakuCounts(pub Vec<u64>);

impl Default for YakuCounts {
    fn default() -> Self {
        YakuCounts(vec![0; crate::score::yaku::YAKU.len()])
    }
}

/// Statistics of a group of player-games (one player, one table level, or everything): counts
/// only, so that groups and whole runs add up ([`super::counts`]); [`super::metrics`] turns them
/// into the figures. Field names are the counter names of `counts.parquet`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PlayerStats {
    /// Whole games: the denominator of the placement and final-score figures.
    pub games: u64,
    /// Partial records ([`crate::replay::ending`]) left out of the placement and final-score
    /// figures; their rounds count in the round figures.
    #[serde(default)]
    pub partial_games: u64,
    pub rounds: u64,
    /// Games finished 1st, 2nd, 3rd, 4th.
    pub placements: [u64; 4],
    pub avg_placement: Mean,
    /// Per game: the final score was below zero.
    pub bust: Rate,
    /// Per game: houou rank points at 7-dan ([`houou_rank_points`]).
    pub rank_points: Mean,
    pub win: Rate,
    pub deal_in: Rate,
    pub tsumo_lost: Rate,
    pub lateral: Rate,
    pub exhaustive_draw: Rate,
    /// Rounds ending in any draw, exhaustive or abortive.
    pub any_draw: Rate,
    pub tenpai_at_draw: Rate,
    pub riichi: Rate,
    pub call: Rate,
    /// Calls per round with a call.
    pub calls: Mean,
    pub win_points: Mean,
    /// The sum of squared win points (for the interval of the average win).
    pub win_points_sq: Mean,
    pub deal_in_points: Mean,
    pub score_change: Mean,
    /// Per win: by tsumo.
    pub tsumo: Rate,
    pub win_points_dealer: Mean,
    pub win_points_non_dealer: Mean,
    pub win_points_riichi: Mean,
    pub win_points_open: Mean,
    pub win_points_dama: Mean,
    pub win_turn: Mean,
    /// Per riichi: the round's outcome for the riichi player.
    pub riichi_win: Rate,
    pub riichi_deal_in: Rate,
    pub riichi_draw: Rate,
    pub riichi_turn: Mean,
    /// Per riichi: no other riichi was declared before it this round.
    pub first_riichi: Rate,
    /// Per riichi: another player declared riichi after it.
    pub chased_riichi: Rate,
    /// Per riichi: waits on two or more kinds.
    pub good_wait_riichi: Rate,
    /// Per riichi: the score change of the round (the stick included).
    pub riichi_balance: Mean,
    /// Per riichi win: with ippatsu; with at least one ura dora.
    pub ippatsu: Rate,
    pub ura: Rate,
    /// Per round with a call: the round's outcome.
    pub call_win: Rate,
    pub call_deal_in: Rate,
    pub call_draw: Rate,
    /// Per win dealt into: the winner was in riichi / open / dama.
    pub deal_in_to_riichi: Rate,
    pub deal_in_to_open: Rate,
    pub deal_in_to_dama: Rate,
    /// Per dealer round: the dealer won.
    pub dealer_win: Rate,
    /// Per win: a yakuman.
    pub yakuman: Rate,
    /// Wins with each yaku id.
    pub yaku: YakuCounts,
    /// Per player-game: Tenhou's uma/oka result as the record states it (`owari`).
    #[serde(default)]
    pub game_points: Mean,
    /// Norths set aside (抜きドラ), per player-round; three-player games only, as the four
    /// nukidora counters below.
    #[serde(default)]
    pub kita: Mean,
    /// Per win: set-aside norths in the winner's hand.
    #[serde(default)]
    pub win_kita: Mean,
    /// Per win: a ron on a north the loser had just set aside.
    #[serde(default)]
    pub kita_ron: Rate,
    /// Per deal-in: dealt in by setting a north aside.
    #[serde(default)]
    pub kita_deal_in: Rate,
}

impl PlayerStats {
    /// Adds one seat of one game.
    pub fn add_seat(&mut self, game: &GameOutcome, seat: usize) {
        self.add_seat_counting(game, seat, game.complete);
    }

    /// Adds one seat of one game; its placement and final score only when `placement` (a whole
    /// game, or partial records allowed), else it counts as a partial game.
    /// The empty fourth seat of a three-player game is nobody's and adds nothing.
    pub fn add_seat_counting(&mut self, game: &GameOutcome, seat: usize, placement: bool) {
        if seat >= usize::from(game.seats) {
            return;
        }
        if game.seats == 3 {
            for r in &game.rounds {
                self.add_kita(&r[seat]);
            }
        }
        if !placement {
            self.partial_games += 1;
            for r in &game.rounds {
                self.add_round(&r[seat]);
            }
            return;
        }
        self.games += 1;
        let place = game.placement[seat];
        self.placements[place as usize - 1] += 1;
        if let Some(r) = game.final_results {
            self.game_points.add(f64::from(r[seat]));
        }
        self.avg_placement.add(place as f64);
        self.bust.add(game.final_scores[seat] < 0);
        self.rank_points.add(houou_rank_points(place, game.hanchan) as f64);
        for r in &game.rounds {
            self.add_round(&r[seat]);
        }
    }

    /// The nukidora counts of one seat's round (three-player games only, so that a four-player
    /// run's counts have none).
    fn add_kita(&mut self, s: &SeatRound) {
        self.kita.add(f64::from(s.kita));
        if s.won {
            self.win_kita.add(f64::from(s.win_kita));
            self.kita_ron.add(s.kita_ron);
        }
        if s.dealt_in {
            self.kita_deal_in.add(s.kita_dealt_in);
        }
    }

    fn add_round(&mut self, s: &SeatRound) {
        self.rounds += 1;
        self.win.add(s.won);
        self.deal_in.add(s.dealt_in);
        self.tsumo_lost.add(s.tsumo_lost);
        self.lateral.add(s.lateral);
        self.exhaustive_draw.add(s.exhaustive_draw);
        self.any_draw.add(s.any_draw);
        if s.exhaustive_draw {
            self.tenpai_at_draw.add(s.tenpai_at_draw);
        }
        self.riichi.add(s.riichi);
        self.call.add(s.called);
        self.score_change.add(s.score_change as f64);
        if s.dealer {
            self.dealer_win.add(s.won);
        }
        if s.won {
            let points = s.win_points as f64;
            self.win_points.add(points);
            self.win_points_sq.add(points * points);
            self.tsumo.add(s.tsumo);
            self.win_turn.add(s.win_turn as f64);
            if s.dealer { &mut self.win_points_dealer } else { &mut self.win_points_non_dealer }.add(points);
            [&mut self.win_points_riichi, &mut self.win_points_open, &mut self.win_points_dama]
                [win_state(s.riichi, s.called)]
            .add(points);
            let has = |id: u8| s.win_yaku & (1 << id) != 0;
            if s.riichi {
                self.ippatsu.add(has(crate::score::yaku::IPPATSU));
                self.ura.add(has(crate::score::yaku::URA_DORA));
            }
            self.yakuman.add((crate::score::yaku::TENHOU..=crate::score::yaku::SUUKANTSU).any(has));
            for (id, n) in self.yaku.0.iter_mut().enumerate() {
                *n += u64::from(has(id as u8));
            }
        }
        if s.dealt_in {
            self.deal_in_points.add(s.deal_in_points as f64);
            // One entry per win dealt into (a double ron gives two).
            let wins = u64::from(s.deal_in_to.iter().sum::<u8>());
            let rates = [&mut self.deal_in_to_riichi, &mut self.deal_in_to_open, &mut self.deal_in_to_dama];
            for (state, rate) in rates.into_iter().enumerate() {
                rate.n += wins;
                rate.hits += u64::from(s.deal_in_to[state]);
            }
        }
        if s.riichi {
            self.riichi_win.add(s.won);
            self.riichi_deal_in.add(s.dealt_in);
            self.riichi_draw.add(s.exhaustive_draw);
            self.riichi_turn.add(s.riichi_turn as f64);
            self.first_riichi.add(s.riichi_order == 1);
            self.chased_riichi.add(s.chased);
            self.good_wait_riichi.add(s.good_wait);
            self.riichi_balance.add(s.score_change as f64);
        }
        if s.called {
            self.calls.add(s.calls as f64);
            self.call_win.add(s.won);
            self.call_deal_in.add(s.dealt_in);
            self.call_draw.add(s.exhaustive_draw);
        }
    }

    /// Per riichi: declared after another player's riichi (every riichi is first or a chase).
    pub fn chase_riichi(&self) -> Rate {
        Rate { hits: self.first_riichi.n - self.first_riichi.hits, n: self.first_riichi.n }
    }

    /// Per closed win (no chi / pon / open kan): without riichi.
    pub fn dama(&self) -> Rate {
        Rate { hits: self.win_points_dama.n, n: self.win_points_riichi.n + self.win_points_dama.n }
    }

    /// Placement rates 1st..4th per game.
    pub fn placement_rates(&self) -> [f64; 4] {
        let g = self.games.max(1) as f64;
        self.placements.map(|c| c as f64 / g)
    }

    /// Placement rates 1st..`players`th per game (the array stays four long; past `players`
    /// nothing is counted).
    pub fn placement_rates_of(&self, players: u8) -> Vec<f64> {
        self.placement_rates().into_iter().take(usize::from(players.clamp(1, 4))).collect()
    }

    /// These counts plus another group's: the stats of both together.
    pub fn merged(&self, other: &PlayerStats) -> PlayerStats {
        super::counts::add(self, other)
    }
}
