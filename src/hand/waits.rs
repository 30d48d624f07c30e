//! Ukeire: the kinds that lower shanten when drawn, and how many of each are still unseen.

use super::shanten::{kinds_of, necessary_kinds, standard_with, Shape};
use crate::tile::{Counts, Kind, KINDS};

/// Effective tiles of a 3n+1-tile hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ukeire {
    /// Shanten of the hand before the draw.
    pub shanten: i8,
    /// Bit k set when drawing kind k lowers shanten.
    pub kinds: u64,
    /// Unseen copies of those kinds.
    pub count: u32,
}

impl Ukeire {
    /// Number of distinct effective kinds.
    pub fn kind_count(&self) -> u32 {
        self.kinds.count_ones()
    }

    pub fn kinds(&self) -> impl Iterator<Item = Kind> {
        kinds_of(self.kinds)
    }
}

/// Copies of `kind` not in the hand and not among the visible tiles.
#[inline]
pub fn unseen(kind: Kind, hand: &Counts, visible: &Counts) -> u8 {
    4u8.saturating_sub(hand[kind] + visible[kind])
}

/// Ukeire of the minimum-shanten form (standard, chiitoitsu or kokushi, whichever is lowest)
/// for a 3n+1-tile concealed part. `visible` counts tiles seen outside this hand (rivers, melds,
/// dora indicators).
pub fn ukeire(hand: &Counts, visible: &Counts) -> Ukeire {
    let (shanten, kinds) = necessary_kinds(hand);
    let count = kinds_of(kinds).map(|k| unseen(k, hand, visible) as u32).sum();
    Ukeire { shanten, kinds, count }
}

/// Ukeire restricted to one [`Shape`] of the standard form (for example tanyao-only speed).
/// `None` when the shape has no target for this hand.
pub fn ukeire_of_shape(hand: &Counts, melds: usize, visible: &Counts, shape: Shape) -> Option<Ukeire> {
    let shanten = standard_with(hand, melds, shape)?;
    let mut kinds = 0u64;
    let mut count = 0;
    let mut h = *hand;
    for k in 0..KINDS {
        if h[k] >= 4 {
            continue;
        }
        h[k] += 1;
        // With one more tile the hand has 3n+2 tiles: its shanten is that of the best discard.
        if standard_with(&h, melds, shape).is_some_and(|s| s < shanten) {
            kinds |= 1 << k;
            count += unseen(k, hand, visible) as u32;
        }
        h[k] -= 1;
    }
    Some(Ukeire { shanten, kinds, count })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{counts_of, format_counts, parse_mpsz};

    fn c(s: &str) -> Counts {
        counts_of(&parse_mpsz(s).unwrap())
    }

    fn kinds_text(u: &Ukeire) -> String {
        let mut counts = [0u8; KINDS];
        u.kinds().for_each(|k| counts[k] = 1);
        format_counts(&counts)
    }

    #[test]
    fn ryanmen_wait() {
        let u = ukeire(&c("123m456p789s23s11z"), &[0; KINDS]);
        assert_eq!(u.shanten, 0);
        assert_eq!(kinds_text(&u), "14s");
        assert_eq!(u.count, 8);
        let mut vis = [0u8; KINDS];
        vis[c("1s").iter().position(|&x| x == 1).unwrap()] = 3;
        assert_eq!(ukeire(&c("123m456p789s23s11z"), &vis).count, 5);
    }

    #[test]
    fn shape_ukeire_agrees_with_tables_on_standard() {
        for h in ["1234m567p88s1234z", "13579m2468p1357s", "123m456p789s23s11z"] {
            let counts = c(h);
            let a = ukeire_of_shape(&counts, 0, &[0; KINDS], Shape::Standard).unwrap();
            let b = ukeire(&counts, &[0; KINDS]);
            if a.shanten == b.shanten {
                // same shanten form: the standard ukeire is a subset of the min-form ukeire
                assert_eq!(a.kinds & !b.kinds, 0, "{h}");
            }
        }
    }
}
