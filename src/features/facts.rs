//! The per-decision facts every feature family shares ([`Facts`]): the deciding seat's
//! [`View`] (built in one place: [`crate::replay::view`]) and what is derived from it once per
//! decision (hand counts, dora and yakuhai tables, ...). The families read the view's own fields
//! through `facts.view`; nothing here copies them.

use crate::rank::safety::seen_counts;
use crate::replay::view::View;
use crate::tile::{dora_from_indicator_at, Counts, Kind, Tile, EAST, KINDS};

/// The seat's view and the facts derived from it, computed once per decision.
#[derive(Clone, Debug)]
pub struct Facts<'v> {
    pub view: &'v View,
    /// Concealed counts before the option.
    pub hand: Counts,
    /// Red fives in the concealed hand before the option.
    pub hand_reds: u8,
    /// Which suits' red five is in the concealed hand.
    pub red_held: [bool; 3],
    /// `visible` + concealed hand: every copy the player has seen (kabe, honor counts).
    pub seen: Counts,
    /// Some meld is open (a closed kan keeps the hand closed).
    pub open: bool,
    /// Dora count each kind is worth (one per indicator pointing at it; reds not included).
    pub dora: [u8; KINDS],
    /// Yakuhai count of each kind: dragons 1, round / seat wind 1 each (a double wind 2).
    pub yakuhai: [u8; KINDS],
    /// Own discarded kinds as a bit set (furiten).
    pub own_river_kinds: u64,
}

impl<'v> Facts<'v> {
    pub fn new(view: &'v View) -> Facts<'v> {
        let mut hand = [0u8; KINDS];
        for t in &view.hand {
            hand[t.kind()] += 1;
        }
        let hand_reds = view.hand.iter().filter(|t| t.is_red()).count() as u8;
        let mut red_held = [false; 3];
        for t in view.hand.iter().filter(|t| t.is_red()) {
            red_held[t.suit()] = true;
        }
        let seen = seen_counts(view);
        let mut yakuhai = [0u8; KINDS];
        for k in 31..KINDS {
            yakuhai[k] = 1;
        }
        yakuhai[view.round_wind] += 1;
        yakuhai[view.seat_wind] += 1;
        let own_river_kinds = view.own_river.iter().fold(0u64, |acc, t| acc | 1 << t.kind());
        Facts {
            view,
            hand,
            hand_reds,
            red_held,
            seen,
            open: view.melds.iter().any(|m| m.is_open()),
            dora: dora_table(&view.dora_indicators, view.players()),
            yakuhai,
            own_river_kinds,
        }
    }

    /// Whether the concealed hand holds the red five of `tile`'s suit (only meaningful for fives).
    pub fn hand_reds_of(&self, tile: Tile) -> bool {
        self.red_held[tile.suit().min(2)]
    }

    /// A wind that is neither the round's nor the seat's (otakaze).
    pub fn is_guest_wind(&self, k: Kind) -> bool {
        (EAST..EAST + 4).contains(&k) && self.yakuhai[k] == 0
    }
}

/// Dora count each kind is worth by the indicators (reds not included) at a table of `players`
/// seats (1m points at 9m at three).
pub fn dora_table(indicators: &[Tile], players: u8) -> [u8; KINDS] {
    let mut dora = [0u8; KINDS];
    for i in indicators {
        dora[dora_from_indicator_at(i.kind(), players)] += 1;
    }
    dora
}

/// The hand after one discard option: what the option-level features look at.
#[derive(Clone, Copy, Debug)]
pub struct After {
    pub discard: Tile,
    /// Concealed counts after the discard.
    pub counts: Counts,
    /// Red fives left in the concealed hand.
    pub reds: u8,
    /// `visible` plus the discard (it lands in the river): what ukeire counts as gone.
    pub visible: Counts,
}

impl After {
    /// The option "discard `discard`" (the caller checked the tile is held; counts saturate
    /// anyway).
    pub fn new(ctx: &Facts, discard: Tile) -> After {
        let k = discard.kind();
        let mut counts = ctx.hand;
        counts[k] = counts[k].saturating_sub(1);
        let mut visible = ctx.view.visible;
        visible[k] = (visible[k] + 1).min(4);
        let reds = ctx.hand_reds.saturating_sub(u8::from(discard.is_red()));
        After { discard, counts, reds, visible }
    }
}

/// Builders for hand-made test positions.
#[cfg(test)]
pub(crate) mod tests_support {
    use super::*;
    use crate::hand::Hand;
    use crate::replay::view::SeenDiscard;
    use crate::tile::parse_mpsz;

    /// A view with the hand text (mpsz + melds as in [`Hand::parse`]), dora indicators, winds,
    /// nothing visible but the indicators and own melds, and three quiet opponents.
    pub(crate) fn view(hand: &str, dora: &str, round_wind: Kind, seat_wind: Kind) -> View {
        let h = Hand::parse(hand).unwrap();
        let dora_indicators = if dora.is_empty() { vec![] } else { parse_mpsz(dora).unwrap() };
        let mut visible = [0u8; KINDS];
        for t in dora_indicators.iter().chain(h.melds.iter().flat_map(|m| m.tiles())) {
            visible[t.kind()] += 1;
        }
        View {
            hand: h.tiles,
            melds: h.melds,
            round_wind,
            seat_wind,
            dora_indicators,
            visible,
            own_river: vec![],
            turn: 8,
            wall_left: 50,
            opponents: Default::default(),
            drawn: None,
            red_fives: true,
            visible_reds: [false; 3],
            riichi: false,
            scoreboard: Default::default(),
            last_round: crate::replay::view::FOUR_PLAYER_HANCHAN_LAST,
        }
    }

    pub(crate) fn tile(s: &str) -> Tile {
        parse_mpsz(s).unwrap()[0]
    }

    /// A river of plain discards (not tsumogiri, not called).
    pub(crate) fn river(s: &str) -> Vec<SeenDiscard> {
        parse_mpsz(s)
            .unwrap()
            .into_iter()
            .map(|tile| SeenDiscard { tile, tsumogiri: false, called: false })
            .collect()
    }

    /// The whole feature row of discarding `discard` from `hand` (no dora), every column filled
    /// through [`crate::features::DecisionFeatures`], as ingest fills it.
    pub(crate) fn row(hand: &str, discard: &str, round_wind: Kind, seat_wind: Kind) -> Vec<f32> {
        let v = view(hand, "", round_wind, seat_wind);
        let mut r = vec![f32::NAN; crate::features::catalog::catalog_width()];
        crate::features::DecisionFeatures::new(&v).unwrap().fill(tile(discard), &mut r).unwrap();
        r
    }

    /// A feature row's value by column name.
    pub(crate) fn get(r: &[f32], name: &str) -> f32 {
        r[crate::features::catalog::index_of(name).unwrap_or_else(|| panic!("{name}"))]
    }

    /// The hand families' row of "discard `t`" (mpsz) of the decision `dec`, the rest 0.
    pub(crate) fn row_of(dec: &crate::features::DecisionFeatures, t: &str) -> Vec<f32> {
        let mut r = vec![0.0; crate::features::catalog::catalog_width()];
        dec.fill(tile(t), &mut r).unwrap();
        r
    }
}
