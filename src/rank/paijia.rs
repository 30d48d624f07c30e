//! The isolated-tile value of 電脳麻将 (孤立牌の評価値, kobalab's `paijia`, from 麻雀の打牌選択
//! アルゴリズム(9)): how much a tile could still grow into, used to break ties between discards
//! of equal expected value. The lower it is, the sooner the tile goes. Written from the
//! description in `@kobalab/majiang-ai` 1.0.13's `lib/suanpai.js` (MIT); the golden picks test
//! (`expected_value::majiang_picks`) checks that our picks then equal its picks.
//!
//! With u(n) = the unseen copies of rank n in the tile's suit (4 − visible − held, the player's
//! own tiles included), w(n) = 2^(dora indicators pointing at n), and 0 outside 1..=9:
//! - **honour**: u(n) × w(n), doubled for the round wind, the seat wind and a dragon;
//! - **suited**: with the two-tile shapes the tile can still make, left = min(u(n−2), u(n−1)),
//!   centre = min(u(n−1), u(n+1)), right = min(u(n+1), u(n+2)), the sum
//!   left × w(n−2) + max(left, centre) × w(n−1) + u(n) × w(n) + max(centre, right) × w(n+1) +
//!   right × w(n+2); while the suit's red five is unseen, plus min(1, the shape that reaches the
//!   5) × w(5) for ranks 3 to 7; doubled for a red five;
//! - then × w(n) again, and × a hand factor: 8 for a wind when the hand holds 9+ wind tiles
//!   (melds count 3), 8 for a dragon with 6+ dragon tiles, 4 for an honour when the longest suit
//!   plus the honours reach 10, 2 for any tile whose suit plus the honours reach 10, else 1.
//!   The factor keeps the tiles of a flush or honour hand in the making.

use crate::replay::view::View;
use crate::tile::{dora_from_indicator_at, Kind, Tile, KINDS};

/// The paijia of every tile of one position (the factors depend on the whole 14-tile hand).
#[derive(Clone, Debug)]
pub struct Paijia {
    /// Unseen copies per kind.
    unseen: [u8; KINDS],
    /// Whether each suit's red five is unseen.
    red_unseen: [bool; 3],
    /// 2^(dora indicators pointing at the kind).
    weight: [f64; KINDS],
    /// Tiles per suit (m, p, s, honours) in the hand, melds counted 3 each.
    n_suit: [u32; 4],
    n_winds: u32,
    n_dragons: u32,
    round_wind: Kind,
    seat_wind: Kind,
}

impl Paijia {
    /// `visible_reds`: the red five of each suit is seen outside the concealed hand (a river, a
    /// meld, an indicator); `reds_in_play`: the game has red fives.
    pub fn new(pos: &View, reds_in_play: bool, visible_reds: [bool; 3]) -> Paijia {
        let concealed = pos.hand_counts();
        let mut unseen = [0u8; KINDS];
        for k in 0..KINDS {
            unseen[k] = 4u8.saturating_sub(pos.visible[k] + concealed[k]);
        }
        let mut held_red = [false; 3];
        for t in pos.hand.iter().filter(|t| t.is_red()) {
            held_red[t.suit()] = true;
        }
        let red_unseen = [0, 1, 2].map(|s| reds_in_play && !visible_reds[s] && !held_red[s]);
        let mut weight = [1.0f64; KINDS];
        for i in &pos.dora_indicators {
            weight[dora_from_indicator_at(i.kind(), pos.players())] *= 2.0;
        }
        let mut n_suit = [0u32; 4];
        let (mut n_winds, mut n_dragons) = (0u32, 0u32);
        let mut add = |k: Kind, n: u32| {
            n_suit[k / 9] += n;
            if (27..31).contains(&k) {
                n_winds += n;
            } else if k >= 31 {
                n_dragons += n;
            }
        };
        for (k, &c) in concealed.iter().enumerate() {
            add(k, c as u32);
        }
        for m in &pos.melds {
            add(m.tiles()[0].kind(), 3);
        }
        Paijia {
            unseen,
            red_unseen,
            weight,
            n_suit,
            n_winds,
            n_dragons,
            round_wind: pos.round_wind,
            seat_wind: pos.seat_wind,
        }
    }

    /// Copies of kind `k` the player has not seen (neither held nor visible).
    pub fn unseen(&self, k: Kind) -> u8 {
        self.unseen[k]
    }

    /// The tile's paijia (lower = discarded first among equals).
    pub fn value(&self, tile: Tile) -> f64 {
        let k = tile.kind();
        let suit = k / 9;
        let n = (k % 9 + 1) as i32;
        // Unseen copies and weight of rank m in this suit; 0 outside 1..=9.
        let u =
            |m: i32| if (1..=9).contains(&m) { self.unseen[suit * 9 + m as usize - 1] as f64 } else { 0.0 };
        let w = |m: i32| {
            let top = if suit == 3 { 7 } else { 9 };
            if (1..=top).contains(&m) {
                self.weight[suit * 9 + m as usize - 1]
            } else {
                0.0
            }
        };
        let mut rv = if suit == 3 {
            let mut v = u(n) * w(n);
            if k == self.round_wind {
                v *= 2.0;
            }
            if k == self.seat_wind {
                v *= 2.0;
            }
            if k >= 31 {
                v *= 2.0;
            }
            v
        } else {
            let left = if n >= 3 { u(n - 2).min(u(n - 1)) } else { 0.0 };
            let centre = if (2..=8).contains(&n) { u(n - 1).min(u(n + 1)) } else { 0.0 };
            let right = if n <= 7 { u(n + 1).min(u(n + 2)) } else { 0.0 };
            let shapes = [left, left.max(centre), u(n), centre.max(right), right];
            let mut v: f64 = (0..5).map(|i| shapes[i] * w(n - 2 + i as i32)).sum();
            if self.red_unseen[suit] && (3..=7).contains(&n) {
                // The shape whose middle is the 5: index 5 − n + 2 of `shapes`.
                v += shapes[(7 - n) as usize].min(1.0) * w(5);
            }
            if tile.is_red() {
                v *= 2.0;
            }
            v
        };
        rv *= w(n);
        rv * self.factor(k)
    }

    fn factor(&self, k: Kind) -> f64 {
        let honours = self.n_suit[3];
        let wind_hand = (27..31).contains(&k) && self.n_winds >= 9;
        let dragon_hand = k >= 31 && self.n_dragons >= 6;
        if wind_hand || dragon_hand {
            8.0
        } else if k >= 27 && self.n_suit[..3].iter().max().copied().unwrap_or(0) + honours >= 10 {
            4.0
        } else if self.n_suit[k / 9] + honours >= 10 {
            2.0
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::Hand;
    use crate::tile::{parse_mpsz, EAST};

    fn pos(hand: &str, dora: &str) -> View {
        let tiles = parse_mpsz(hand).unwrap();
        let dora = if dora.is_empty() { vec![] } else { parse_mpsz(dora).unwrap() };
        View::bare(Hand::new(tiles, vec![]), dora, EAST, EAST + 1)
    }

    /// Values worked out by hand from the definition.
    #[test]
    fn isolated_tiles_by_hand() {
        // 1m alone: u(1) = 3, right = min(u2, u3) = 4: shapes [0, 0, 3, 4, 4] × w 1.
        let p = pos("1m456p789s11122z3z", "");
        let v = Paijia::new(&p, true, [false; 3]);
        assert_eq!(v.value(parse_mpsz("1m").unwrap()[0]), 3.0 + 4.0 + 4.0);
        // 3z (west): a guest wind for an East round / South seat: u = 3. The hand factor is 2:
        // kobalab adds the honours to the tile's own suit, which for an honour counts them twice
        // (6 + 6 >= 10).
        assert_eq!(v.value(parse_mpsz("3z").unwrap()[0]), 3.0 * 2.0);
        // 1z (east, the round wind): u = 1, × 2 for the wind, × 2 for the hand.
        assert_eq!(v.value(parse_mpsz("1z").unwrap()[0]), 4.0);
        // 5p held with 4p and 6p: u(4) = u(5) = u(6) = 3, u(3) = u(7) = 4; left = 3, centre = 3,
        // right = 3; shapes [3, 3, 3, 3, 3] = 15, plus the unseen red: min(1, 3) = 1.
        assert_eq!(v.value(parse_mpsz("5p").unwrap()[0]), 16.0);
    }

    #[test]
    fn dora_and_red_weigh_in() {
        // Dora indicator 2m: 3m is dora (w 2). 3m alone: u(3) = 3 (the indicator is not a 3m).
        let p = pos("3m456p789s11122z3z", "2m");
        let v = Paijia::new(&p, true, [false; 3]);
        // u(1)=4, u(2)=3 (indicator), u(4)=u(5)=4: left = min(4,3)=3, centre = min(3,4)=3,
        // right = 4; shapes [3, 3, 3, 4, 4] × w [1, 1, 2, 1, 1] = 3+3+6+4+4 = 20; red 5m unseen:
        // + min(1, right 4) × w(5) = 1 → 21; × w(3) = 2 → 42.
        assert_eq!(v.value(parse_mpsz("3m").unwrap()[0]), 42.0);
        // A red five is doubled before the dora weight; its own red bonus needs an unseen red.
        let p = pos("0m456p789s11122z3z", "");
        let v = Paijia::new(&p, true, [false; 3]);
        // u = 3 for 5m, 4 elsewhere: shapes [4, 4, 3, 4, 4] = 19, red held: no bonus; × 2.
        assert_eq!(v.value(parse_mpsz("0m").unwrap()[0]), 38.0);
    }

    #[test]
    fn flush_and_honour_hands_keep_their_tiles() {
        // 10 pinzu + honours: pinzu tiles × 2, honours × 4 (longest suit + honours >= 10).
        let p = pos("1234567p123m1z5z6z", "");
        let v = Paijia::new(&p, true, [false; 3]);
        let plain = Paijia { n_suit: [0; 4], ..v.clone() };
        let one_z = parse_mpsz("1z").unwrap()[0];
        assert_eq!(v.value(one_z), 4.0 * plain.value(one_z));
        let nine_p = parse_mpsz("7p").unwrap()[0];
        assert_eq!(v.value(nine_p), 2.0 * plain.value(nine_p));
        let m1 = parse_mpsz("1m").unwrap()[0];
        assert_eq!(v.value(m1), plain.value(m1));
    }
}
