//! What one seat sees at the table ([`View`]), built in one place ([`view_of`]) from the replay's
//! [`Table`], never from the wall or another player's hand. Ingest, the linear evaluator, the
//! studies and the bots all build it here, so a feature means the same thing in training, in
//! evaluation and in self-play.
//!
//! The view is plain data with no references into the table, so a test or a bare position (the
//! `nanikiru` command, [`View::bare`]) can build one too. It is also the one shape every ranker
//! of `rank` takes (with the getters below), so a ranker reads the table as the features do.

use crate::hand::meld::Meld;
use crate::hand::Hand;
use crate::replay::table::{RiichiState, Table};
use crate::tile::{dora_from_indicator_at, Counts, Kind, Tile, EAST, KINDS};

/// One tile in an opponent's river.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeenDiscard {
    pub tile: Tile,
    /// Discarded straight from the draw (tsumogiri).
    pub tsumogiri: bool,
    /// Taken by a call: it now sits in someone's meld (and is counted there in `visible`), but it
    /// still counts for furiten and genbutsu.
    pub called: bool,
}

/// One opponent as the deciding player sees them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opponent {
    /// Every discard in order, called-away tiles included (flagged).
    pub river: Vec<SeenDiscard>,
    pub melds: Vec<Meld>,
    /// Index in `river` of the tile that declared riichi; `None` when not in riichi.
    pub riichi_at: Option<usize>,
    pub is_dealer: bool,
    /// Kinds discarded by ANY player (the deciding player included) after this opponent's
    /// riichi declaration tile, which the opponent let pass. They are safe against this
    /// opponent: a ron on them would have been taken (riichi makes a passed winning tile furiten
    /// for good). All zero when not in riichi. The replay fills it because rivers alone do not
    /// carry the order of discards between players.
    pub riichi_passed: Counts,
}

impl Default for Opponent {
    fn default() -> Opponent {
        Opponent {
            river: vec![],
            melds: vec![],
            riichi_at: None,
            is_dealer: false,
            riichi_passed: [0; KINDS],
        }
    }
}

impl Opponent {
    pub fn in_riichi(&self) -> bool {
        self.riichi_at.is_some()
    }
}

/// Where the game stands for the deciding seat: the round, its counters and every seat's score.
/// Push and fold hang on it (a last-place dealer in the last round pushes what a leader folds),
/// so the trees model sees it through [`Scoreboard::columns`]. The scores are the table's now
/// (riichi deposits paid), as the `decisions` table records them; the riichi trade's
/// `features::riichi_trade::Standing` keeps its own placement before the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoreboard {
    /// 0 = East 1, 1 = East 2, ... 4 = South 1 (`decisions.round`).
    pub round: u8,
    pub honba: u8,
    /// Riichi sticks on the table.
    pub sticks: u8,
    /// Scores by absolute seat.
    pub scores: [i32; 4],
    /// The deciding player's absolute seat.
    pub seat: u8,
    /// Seats at the table (3 or 4): at three the fourth score is an empty seat's 0, which takes
    /// no place.
    pub players: u8,
}

impl Default for Scoreboard {
    /// East 1, no counters, 25,000 each, seat 0: what a bare position knows.
    fn default() -> Scoreboard {
        Scoreboard { round: 0, honba: 0, sticks: 0, scores: [25_000; 4], seat: 0, players: 4 }
    }
}

/// The names of [`Scoreboard::columns`], in order.
pub const SCOREBOARD_COLUMNS: [&str; 8] =
    ["round_index", "honba", "sticks", "placement", "score_own", "top_gap", "next_above", "next_below"];

impl Scoreboard {
    /// The seat's placement, 1..=players, ties broken by seat order
    /// ([`crate::util::placements_of`], as the `decisions` table's `placement`).
    pub fn placement(&self) -> u8 {
        crate::util::placements_of(&self.scores, self.players)[self.seat as usize % 4]
    }

    /// The round, its counters, the placement, the seat's score, the leader's lead over it
    /// (negative when the seat leads), and the gaps to the nearest score above and below it (0
    /// where there is none), in points: [`SCOREBOARD_COLUMNS`]. Integers, exact in f32.
    pub fn columns(&self) -> [f32; 8] {
        let own = self.scores[self.seat as usize % 4];
        let seats = 0..usize::from(self.players.min(4));
        let others = seats.filter(|&s| s != self.seat as usize % 4).map(|s| self.scores[s]);
        let top = others.clone().max().unwrap_or(own);
        let above = others.clone().filter(|&s| s > own).map(|s| s - own).min().unwrap_or(0);
        let below = others.filter(|&s| s < own).map(|s| own - s).min().unwrap_or(0);
        [
            f32::from(self.round),
            f32::from(self.honba),
            f32::from(self.sticks),
            f32::from(self.placement()),
            own as f32,
            (top - own) as f32,
            above as f32,
            below as f32,
        ]
    }
}

/// The deciding player's view of a discard decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// Concealed tiles BEFORE the option (14 - 3 * melds for a discard decision), red fives kept.
    pub hand: Vec<Tile>,
    /// Own melds.
    pub melds: Vec<Meld>,
    /// Round wind kind (27 = East ...).
    pub round_wind: Kind,
    /// Own seat wind kind.
    pub seat_wind: Kind,
    pub dora_indicators: Vec<Tile>,
    /// Every tile the player can see outside their concealed hand: all rivers (tiles not called
    /// away), all melds (own too), the norths set aside and the dora indicators. At three
    /// players the kinds out of the set (2m-8m) count 4: no copy of them is left to draw, hold
    /// or wait on, so ukeire, tile energy and the wall readings count only tiles that exist.
    pub visible: Counts,
    /// Own discards in order, called-away ones included (furiten looks at all of them).
    pub own_river: Vec<Tile>,
    /// The player's draws so far this round.
    pub turn: u8,
    /// Tiles left in the live wall.
    pub wall_left: u8,
    /// Relative seats 1 (next, shimocha), 2 (across, toimen), 3 (previous, kamicha). At three
    /// players nobody sits across: that opponent is empty (no river, no melds, not in riichi),
    /// and the next and previous seats are the two others.
    pub opponents: [Opponent; 3],
    /// The tile just drawn, when the decision follows a draw: 電脳麻将 breaks exact ties in its
    /// favour (a tsumogiri), and the `vis_tsumogiri` column marks it.
    pub drawn: Option<Tile>,
    /// The table plays with red fives (one per suit).
    pub red_fives: bool,
    /// Which red fives (m, p, s) are visible outside the concealed hand: in a river (not called
    /// away), in any meld or among the dora indicators.
    pub visible_reds: [bool; 3],
    /// The deciding player has declared riichi themselves.
    pub riichi: bool,
    /// The round and the scores.
    pub scoreboard: Scoreboard,
    /// The game's last scheduled round (`Scoreboard::round` numbering: 7 = South 4 of a
    /// four-player hanchan, 3 = East 4 of an East-only game, 6 = South 3 at three players), as
    /// its rules state ([`crate::log::rules::Rules::last_rounds`]): all-last is this round.
    pub last_round: u8,
}

impl View {
    /// A bare position (the `nanikiru` command, tests): nothing known but the hand, the winds
    /// and the dora indicators; `visible` holds the indicators and the hand's own melds (add what
    /// else is known), empty rivers, nobody in riichi, turn 0, a full wall, red fives in play
    /// and none visible, no drawn tile.
    pub fn bare(hand: Hand, dora_indicators: Vec<Tile>, round_wind: Kind, seat_wind: Kind) -> View {
        let mut visible = [0u8; KINDS];
        for t in dora_indicators.iter().chain(hand.melds.iter().flat_map(|m| m.tiles())) {
            visible[t.kind()] += 1;
        }
        View {
            hand: hand.tiles,
            melds: hand.melds,
            round_wind,
            seat_wind,
            dora_indicators,
            visible,
            own_river: Vec::new(),
            turn: 0,
            wall_left: 70,
            opponents: Default::default(),
            drawn: None,
            red_fives: true,
            visible_reds: [false; 3],
            riichi: false,
            scoreboard: Scoreboard::default(),
            last_round: FOUR_PLAYER_HANCHAN_LAST,
        }
    }

    /// The hand as a [`Hand`]: concealed tiles and own melds.
    pub fn full_hand(&self) -> Hand {
        Hand::new(self.hand.clone(), self.melds.clone())
    }

    /// Concealed tiles by kind.
    pub fn hand_counts(&self) -> Counts {
        let mut c = [0u8; KINDS];
        for t in &self.hand {
            c[t.kind()] += 1;
        }
        c
    }

    /// The opponents in riichi (declared or accepted), in relative seat order.
    pub fn riichi_opponents(&self) -> impl Iterator<Item = &Opponent> {
        self.opponents.iter().filter(|o| o.in_riichi())
    }

    /// Seats at the table (3 or 4).
    pub fn players(&self) -> u8 {
        self.scoreboard.players
    }

    /// How many dora a tile is worth: once per indicator pointing at its kind (1m points at 9m
    /// at three players), plus one if red.
    pub fn dora_value(&self, tile: Tile) -> u8 {
        let players = self.players();
        let n = self
            .dora_indicators
            .iter()
            .filter(|i| dora_from_indicator_at(i.kind(), players) == tile.kind())
            .count();
        n as u8 + u8::from(tile.is_red())
    }

    /// Dragons, the round wind and the seat wind.
    pub fn is_yakuhai(&self, kind: Kind) -> bool {
        kind >= 31 || kind == self.round_wind || kind == self.seat_wind
    }

    /// A wind that is neither the round's nor the seat's ("guest" wind, otakaze).
    pub fn is_guest_wind(&self, kind: Kind) -> bool {
        (EAST..EAST + 4).contains(&kind) && !self.is_yakuhai(kind)
    }
}

/// Which red fives (m, p, s) the whole table can see: rivers (tiles not called away), every
/// meld and the dora indicators.
fn visible_reds(table: &Table) -> [bool; 3] {
    let red = table.rules.red_fives();
    let mut out = [false; 3];
    let mut mark = |id: crate::tile::TileId| {
        let tile = id.tile(red);
        if tile.is_red() {
            out[tile.suit()] = true;
        }
    };
    for p in table.rules.seats().map(usize::from) {
        table.rivers[p].iter().filter(|r| !r.called).for_each(|r| mark(r.tile));
        table.melds[p].iter().flat_map(|m| m.tiles.iter()).for_each(|&id| mark(id));
    }
    table.dora_indicators.iter().for_each(|&id| mark(id));
    out
}

/// The view of seat `who`, with `hand` as its concealed tiles (the caller may pass a hand
/// changed by the option under study, e.g. after a call).
pub fn view_of(table: &Table, who: u8, hand: Vec<Tile>) -> View {
    let red = table.rules.red_fives();
    let mut own_river = Vec::with_capacity(table.rivers[who as usize].len());
    own_river.extend(table.rivers[who as usize].iter().map(|r| r.tile.tile(red)));
    let opponents = opponent_seats(table.rules.players, who).map(|seat| {
        let Some(seat) = seat else { return Opponent::default() };
        let river: Vec<SeenDiscard> = table.rivers[seat as usize]
            .iter()
            .map(|r| SeenDiscard { tile: r.tile.tile(red), tsumogiri: r.tsumogiri, called: r.called })
            .collect();
        let riichi_at = match table.riichi[seat as usize] {
            RiichiState::Accepted { river_index, .. } => Some(river_index),
            // The declaring tile is on the table (others are deciding whether to call or ron it).
            RiichiState::Declared => table.rivers[seat as usize].iter().position(|r| r.riichi),
            RiichiState::None => None,
        };
        let mut riichi_passed = [0u8; KINDS];
        if let Some(at) = riichi_at {
            let tile = table.rivers[seat as usize][at].tile;
            if let Some(g) = table.discards.iter().position(|&(s, t)| s == seat && t == tile) {
                for &(_, t) in &table.discards[g + 1..] {
                    riichi_passed[t.kind()] = riichi_passed[t.kind()].saturating_add(1);
                }
            }
        }
        Opponent {
            river,
            melds: table.hand_melds(seat),
            riichi_at,
            is_dealer: seat == table.start.dealer,
            riichi_passed,
        }
    });
    View {
        hand,
        melds: table.hand_melds(who),
        round_wind: table.round_wind(),
        seat_wind: table.seat_wind(who),
        dora_indicators: table.dora_indicators.iter().map(|d| d.tile(red)).collect(),
        visible: visible_counts(table),
        own_river,
        turn: table.draws[who as usize].min(u8::MAX as u16) as u8,
        wall_left: table.wall_left,
        opponents,
        drawn: table.last_draw[who as usize].map(|id| id.tile(red)),
        red_fives: red,
        visible_reds: visible_reds(table),
        riichi: table.riichi[who as usize] != RiichiState::None,
        scoreboard: scoreboard_of(table, who),
        last_round: table.rules.last_rounds(table.rules.hanchan).0,
    }
}

/// South 4: the last scheduled round of a four-player hanchan, what a bare position assumes.
pub const FOUR_PLAYER_HANCHAN_LAST: u8 = 7;

/// The absolute seats of `who`'s opponents at relative seats 1 (next), 2 (across) and 3
/// (previous) at a table of `players` seats: at three nobody sits across (`None`), and the next
/// and previous seats are the two others. [`View::opponents`] and the `decisions` table's
/// `opp*_riichi` columns follow it.
pub fn opponent_seats(players: u8, who: u8) -> [Option<u8>; 3] {
    if players == 3 {
        [Some((who + 1) % 3), None, Some((who + 2) % 3)]
    } else {
        [1u8, 2, 3].map(|rel| Some((who + rel) % 4))
    }
}

/// The scoreboard of seat `who` at the table (what the `decisions` table records).
pub fn scoreboard_of(table: &Table, who: u8) -> Scoreboard {
    Scoreboard {
        round: table.start.round,
        honba: table.start.honba,
        sticks: table.sticks,
        scores: table.scores,
        seat: who,
        players: table.rules.players,
    }
}

/// What every seat can see ([`Table::public_counts`]), with the kinds out of the table's set
/// counted as all seen ([`View::visible`]).
fn visible_counts(table: &Table) -> Counts {
    let mut c = table.public_counts();
    for (k, n) in c.iter_mut().enumerate() {
        if !table.rules.has_kind(k) {
            *n = 4;
        }
    }
    c
}

/// The facts of a decision besides its hand and its options: the turn, the wall, the wind, the
/// dealer and the scoreboard. A live position's ([`Situation::of_view`]) and a `decisions` row's
/// ([`Situation::of_decision`], read by `dataset::parts::situations`) are the same value, which
/// the trees' context and table families read (`model::trees::inputs::context`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Situation {
    /// The deciding player's draws so far (`decisions.turn`).
    pub turn: u8,
    pub wall_left: u8,
    /// 0 East, 1 South, 2 West, 3 North (`decisions.round_wind`).
    pub round_wind: u8,
    pub is_dealer: bool,
    /// The round and the scores (the table family).
    pub scoreboard: Scoreboard,
}

impl Situation {
    /// The situation of a live position.
    pub fn of_view(view: &View) -> Situation {
        Situation {
            turn: view.turn,
            wall_left: view.wall_left,
            round_wind: view.round_wind.saturating_sub(27) as u8,
            is_dealer: view.seat_wind == 27,
            scoreboard: view.scoreboard,
        }
    }

    /// The situation of a row of the `decisions` table (`scoreboard.seat` is the row's seat).
    pub fn of_decision(
        turn: u8,
        wall_left: u8,
        round_wind: u8,
        dealer: u8,
        scoreboard: Scoreboard,
    ) -> Situation {
        Situation { turn, wall_left, round_wind, is_dealer: scoreboard.seat == dealer, scoreboard }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The leader sees a negative gap to the top (its lead) and nothing above; the last seat
    /// nothing below; a tie is neither above nor below, and breaks by seat for the placement.
    #[test]
    fn scoreboard_columns_from_each_seat() {
        let at = |seat| Scoreboard {
            round: 7,
            honba: 1,
            sticks: 2,
            scores: [40_000, 20_000, 20_000, 20_000],
            seat,
            players: 4,
        };
        assert_eq!(at(0).columns(), [7.0, 1.0, 2.0, 1.0, 40_000.0, -20_000.0, 0.0, 20_000.0]);
        assert_eq!(at(1).columns(), [7.0, 1.0, 2.0, 2.0, 20_000.0, 20_000.0, 20_000.0, 0.0]);
        assert_eq!(at(3).placement(), 4);
        assert_eq!(Scoreboard::default().columns()[3..], [1.0, 25_000.0, 0.0, 0.0, 0.0]);
        // Three players: the empty fourth seat's 0 is neither a place nor a score below.
        let three = Scoreboard { scores: [-2_000, 30_000, 50_000, 0], players: 3, ..at(0) };
        assert_eq!(three.placement(), 3);
        assert_eq!(three.columns()[3..], [3.0, -2_000.0, 52_000.0, 32_000.0, 0.0]);
    }
}
