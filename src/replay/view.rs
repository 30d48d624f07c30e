//! What one seat sees at the table ([`View`]), built in one place ([`view_of`]) from the replay's
//! [`Table`], never from the wall or another player's hand. Ingest, the linear evaluator, the
//! studies and the bots all build it here, so a feature means the same thing in training, in
//! evaluation and in self-play.
//!
//! The view is plain data with no references into the table, so a test or a bare position (the
//! `nanikiru` command, [`View::bare`]) can build one too.

use crate::hand::Meld;
use crate::replay::table::{RiichiState, Table};
use crate::tile::{Counts, Kind, Tile, KINDS};

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
    /// away), all melds (own too) and the dora indicators.
    pub visible: Counts,
    /// Own discards in order, called-away ones included (furiten looks at all of them).
    pub own_river: Vec<Tile>,
    /// The player's draws so far this round.
    pub turn: u8,
    /// Tiles left in the live wall.
    pub wall_left: u8,
    /// Relative seats 1 (next, shimocha), 2 (across, toimen), 3 (previous, kamicha).
    pub opponents: [Opponent; 3],
}

impl View {
    /// A bare position (the `nanikiru` command): nothing known but the hand, the winds, the dora
    /// indicators and `visible`; empty rivers, nobody in riichi, turn 0, a full wall.
    pub fn bare(
        hand: Vec<Tile>,
        melds: Vec<Meld>,
        round_wind: Kind,
        seat_wind: Kind,
        dora_indicators: Vec<Tile>,
        visible: Counts,
    ) -> View {
        View {
            hand,
            melds,
            round_wind,
            seat_wind,
            dora_indicators,
            visible,
            own_river: Vec::new(),
            turn: 0,
            wall_left: 70,
            opponents: Default::default(),
        }
    }
}

/// The view of seat `who`, with `hand` as its concealed tiles (the caller may pass a hand
/// changed by the option under study, e.g. after a call).
pub fn view_of(table: &Table, who: u8, hand: Vec<Tile>) -> View {
    let red = table.rules.red_fives;
    let mut own_river = Vec::with_capacity(table.rivers[who as usize].len());
    own_river.extend(table.rivers[who as usize].iter().map(|r| r.tile.tile(red)));
    let opponents = [1u8, 2, 3].map(|rel| {
        let seat = (who + rel) % 4;
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
        visible: table.public_counts(),
        own_river,
        turn: table.draws[who as usize].min(u8::MAX as u16) as u8,
        wall_left: table.wall_left,
        opponents,
    }
}
