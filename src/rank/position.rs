//! A discard position as the evaluators see it: the hand, the table's winds and dora, and the
//! tiles visible outside the hand.

use crate::hand::Hand;
use crate::replay::view::View;
use crate::tile::{dora_from_indicator, Counts, Kind, Tile, EAST, KINDS};

#[derive(Clone, Debug)]
pub struct Position {
    /// The player's hand, 3n+2 concealed tiles (it is their turn to discard).
    pub hand: Hand,
    pub dora_indicators: Vec<Tile>,
    /// Round wind kind (27 = East ...).
    pub round_wind: Kind,
    /// Seat wind kind.
    pub seat_wind: Kind,
    /// Tiles seen outside the concealed hand: rivers, every meld (the player's own included, as
    /// in [`View::visible`]) and the dora indicators.
    pub visible: Counts,
    /// One entry per opponent in riichi (empty when nobody is): what the push/fold policy needs
    /// to judge which tiles are safe against them.
    pub opponents_riichi: Vec<RiverInfo>,
    /// The tile just drawn, when the decision follows a draw: 電脳麻将 breaks exact ties in its
    /// favour (a tsumogiri).
    pub drawn: Option<Tile>,
}

/// What is known about one riichi opponent's safe tiles.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RiverInfo {
    /// The opponent's own discards, in order, including tiles called away from the river: all
    /// of them are genbutsu (their furiten rule forbids a ron on them).
    pub discards: Vec<Tile>,
    /// Tiles discarded by anyone after the riichi declaration: the riichi player let them pass,
    /// so they are furiten for the rest of the hand and safe too.
    pub passed_after_riichi: Vec<Tile>,
}

impl Position {
    /// A position with nothing visible but the dora indicators and the hand's own melds.
    pub fn new(hand: Hand, dora_indicators: Vec<Tile>, round_wind: Kind, seat_wind: Kind) -> Self {
        let mut visible = [0u8; KINDS];
        for t in dora_indicators.iter().chain(hand.melds.iter().flat_map(|m| m.tiles())) {
            visible[t.kind()] += 1;
        }
        Position {
            hand,
            dora_indicators,
            round_wind,
            seat_wind,
            visible,
            opponents_riichi: Vec::new(),
            drawn: None,
        }
    }

    /// The evaluators' position of a seat's [`View`] (built by [`crate::replay::view::view_of`]):
    /// hand and melds, winds, dora, what is visible, and each opponent in riichi with their river
    /// and the kinds that passed them since the declaration. Bots and evaluators thus read the
    /// table through the same view as ingest.
    pub fn from_view(view: &View) -> Position {
        let mut pos = Position::new(
            Hand::new(view.hand.clone(), view.melds.clone()),
            view.dora_indicators.clone(),
            view.round_wind,
            view.seat_wind,
        );
        pos.visible = view.visible;
        pos.opponents_riichi = view
            .opponents
            .iter()
            .filter(|o| o.in_riichi())
            .map(|o| RiverInfo {
                discards: o.river.iter().map(|r| r.tile).collect(),
                passed_after_riichi: (0..KINDS)
                    .flat_map(|k| std::iter::repeat_n(Tile::from_kind(k), o.riichi_passed[k] as usize))
                    .collect(),
            })
            .collect();
        pos
    }

    /// How many dora a tile is worth: once per indicator pointing at its kind, plus one if red.
    pub fn dora_value(&self, tile: Tile) -> u8 {
        let n = self.dora_indicators.iter().filter(|i| dora_from_indicator(i.kind()) == tile.kind()).count();
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

/// One discard option with the evaluator's score and the shape facts every evaluator reports.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RankedDiscard {
    #[serde(serialize_with = "ser_tile")]
    pub tile: Tile,
    pub score: f64,
    /// Minimum shanten after the discard.
    pub shanten: i8,
    /// Unseen effective tiles after the discard.
    pub ukeire: u32,
}

fn ser_tile<S: serde::Serializer>(t: &Tile, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&t.to_string())
}
