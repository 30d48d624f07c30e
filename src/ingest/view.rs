//! What a seat sees at the table, as the feature families' [`View`]: built from the replay's
//! [`Table`], never from the wall or another player's hand.

use crate::features::view::{Opponent, RiverTile as ViewRiverTile};
use crate::features::View;
use crate::replay::{RiichiState, Table};
use crate::tile::{Tile, KINDS};

/// The view of seat `who`, with `hand` as its concealed tiles (the caller may pass a hand
/// changed by the option under study, e.g. after a call).
pub fn view_of(table: &Table, who: u8, hand: Vec<Tile>) -> View {
    let red = table.rules.red_fives;
    let mut own_river = Vec::with_capacity(table.rivers[who as usize].len());
    own_river.extend(table.rivers[who as usize].iter().map(|r| r.tile.tile(red)));
    let opponents = [1u8, 2, 3].map(|rel| {
        let seat = (who + rel) % 4;
        let river: Vec<ViewRiverTile> = table.rivers[seat as usize]
            .iter()
            .map(|r| ViewRiverTile { tile: r.tile.tile(red), tsumogiri: r.tsumogiri, called: r.called })
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
