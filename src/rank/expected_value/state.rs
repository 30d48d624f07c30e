//! The hand as the search sees it ([`St`]): concealed counts and reds, melds as small integers,
//! the packed key of the memo and the shanten caches.

use crate::hand::meld::{Meld, MeldKind};
use crate::hand::Hand;
use crate::tile::{Counts, Kind, Tile, KINDS};

/// Bit s when kind k is the five of suit s, else 0. A table: the search asks it for every kind
/// of every hand it refills for scoring, and a lookup is cheaper than the division.
#[inline]
pub(super) fn five_bit(k: Kind) -> u8 {
    FIVE_BITS[k]
}

pub(super) const FIVE_BITS: [u8; KINDS] = {
    let mut t = [0u8; KINDS];
    t[4] = 1;
    t[13] = 2;
    t[22] = 4;
    t
};

/// The lowest bit of every kind's 3-bit field of [`crate::hand::memo::pack`] (bit 3k).
const FIELD_LOW_BITS: u128 = {
    let mut m = 0u128;
    let mut k = 0;
    while k < KINDS {
        m |= 1 << (3 * k);
        k += 1;
    }
    m
};

/// Meld codes: type << 7 | red << 6 | first kind.
pub(super) const CHI: u16 = 1;
pub(super) const PON: u16 = 2;
pub(super) const OPEN_KAN: u16 = 3;
pub(super) const CLOSED_KAN: u16 = 4;

/// A hand as the search sees it: concealed counts with a red flag per suit, melds encoded as
/// small integers (sorted, so the order they were made in does not split the memo).
#[derive(Clone, Copy, Debug)]
pub(super) struct St {
    pub(super) c: Counts,
    pub(super) red: u8,
    pub(super) melds: [u16; 4],
    pub(super) nm: usize,
    /// `c` packed 3 bits per kind, kept in step with `c` so the memo key costs nothing.
    pub(super) packed: u128,
}

impl St {
    pub(super) fn from_hand(hand: &Hand) -> St {
        let mut c = [0u8; KINDS];
        let mut red = 0;
        for t in &hand.tiles {
            c[t.kind()] += 1;
            if t.is_red() {
                red |= five_bit(t.kind());
            }
        }
        let packed = crate::hand::memo::pack(&c);
        let mut st = St { c, red, melds: [0; 4], nm: 0, packed };
        for m in hand.melds.iter().take(4) {
            let ty = match m.kind {
                MeldKind::Chi => CHI,
                MeldKind::Pon => PON,
                MeldKind::Daiminkan | MeldKind::Kakan => OPEN_KAN,
                MeldKind::Ankan => CLOSED_KAN,
            };
            st.add_meld(ty, m.first_kind(), m.tiles().iter().any(|t| t.is_red()));
        }
        st
    }

    pub(super) fn add_meld(&mut self, ty: u16, first: Kind, red: bool) {
        self.melds[self.nm] = ty << 7 | u16::from(red) << 6 | first as u16;
        self.nm += 1;
        self.melds[..self.nm].sort_unstable();
    }

    /// Shanten of the 3n+2 concealed counts and the kinds whose discard keeps it
    /// ([`crate::hand::shanten::unnecessary_kinds`]), through the packed key `St` keeps.
    pub(super) fn unnecessary(&self) -> (i8, u64) {
        crate::hand::shanten::unnecessary_kinds_packed(&self.c, self.packed)
    }

    /// [`crate::hand::shanten::necessary_kinds`] of the concealed counts, through the packed
    /// key `St` keeps.
    pub(super) fn necessary(&self) -> (i8, u64) {
        crate::hand::shanten::necessary_kinds_packed(&self.c, self.packed)
    }

    pub(super) fn tiles(&self) -> usize {
        self.c.iter().map(|&x| x as usize).sum()
    }

    pub(super) fn is_closed(&self) -> bool {
        self.melds[..self.nm].iter().all(|m| m >> 7 == CLOSED_KAN)
    }

    pub(super) fn key(&self, tag: u64) -> (u128, u64) {
        let b = self.melds.iter().fold(tag, |b, &m| b << 10 | m as u64);
        (self.packed | (self.red as u128) << 102, b)
    }

    pub(super) fn add(&mut self, k: Kind, n: u8) {
        self.c[k] += n;
        self.packed += (n as u128) << (3 * k);
    }

    pub(super) fn remove(&mut self, k: Kind, n: u8) {
        self.c[k] -= n;
        self.packed -= (n as u128) << (3 * k);
    }

    /// Counts and reds of the whole hand, melds included.
    pub(super) fn all(&self) -> (Counts, u8) {
        let mut c = self.c;
        let mut red = self.red;
        for &m in &self.melds[..self.nm] {
            let (ty, first) = (m >> 7, (m & 63) as usize);
            if m >> 6 & 1 == 1 {
                red |= 1 << (first / 9);
            }
            match ty {
                CHI => (first..first + 3).for_each(|k| c[k] += 1),
                PON => c[first] += 3,
                _ => c[first] += 4,
            }
        }
        (c, red)
    }

    pub(super) fn with(&self, t: Tile) -> St {
        let mut h = *self;
        h.add(t.kind(), 1);
        if t.is_red() {
            h.red |= five_bit(t.kind());
        }
        h
    }

    pub(super) fn without(&self, t: Tile) -> St {
        let mut h = *self;
        h.remove(t.kind(), 1);
        if t.is_red() {
            h.red &= !five_bit(t.kind());
        }
        h
    }

    /// The tile to discard for kind d: a plain copy when one is held, else the red five.
    pub(super) fn discard_tile(&self, d: Kind) -> Tile {
        let red_held = self.red & five_bit(d) != 0;
        if red_held && self.c[d] == 1 {
            Tile::red_five(d / 9)
        } else {
            Tile::from_kind(d)
        }
    }

    pub(super) fn plain_count(&self, k: Kind) -> u8 {
        self.c[k] - u8::from(self.red & five_bit(k) != 0)
    }

    /// Calls `f` with each hand after a pon of `t` (up to two: using the held red five, or two
    /// plain ones). A visitor rather than an array of hands: the search makes millions of calls
    /// and most of them have one or no pon, so no unused hand is built or copied.
    pub(super) fn for_each_pon(&self, t: Tile, mut f: impl FnMut(&St)) {
        let k = t.kind();
        let red_held = self.red & five_bit(k) != 0;
        if red_held && self.plain_count(k) >= 1 {
            let mut h = *self;
            h.remove(k, 2);
            h.red &= !five_bit(k);
            h.add_meld(PON, k, true);
            f(&h);
        }
        if self.plain_count(k) >= 2 {
            let mut h = *self;
            h.remove(k, 2);
            h.add_meld(PON, k, t.is_red());
            f(&h);
        }
    }

    /// Calls `f` with each hand after a chi of `t` and its kuikae-forbidden discards (the
    /// called kind, and the other end of a two-sided wait): at most 6, three runs, each with or
    /// without a held red five.
    pub(super) fn for_each_chi(&self, t: Tile, mut f: impl FnMut(&St, &[Kind])) {
        let k = t.kind();
        let n = k % 9;
        for start in n.saturating_sub(2)..=n.min(6) {
            let first = k - n + start;
            let mut others = [k; 2];
            for (i, x) in (first..first + 3).filter(|&x| x != k).enumerate() {
                others[i] = x;
            }
            if others.iter().any(|&x| self.c[x] == 0) {
                continue;
            }
            let mut forbidden = [k; 2];
            let mut nf = 1;
            if first == k && n <= 5 {
                forbidden[nf] = k + 3;
                nf += 1;
            }
            if first + 2 == k && n >= 3 {
                forbidden[nf] = k - 3;
                nf += 1;
            }
            // A held red five among the two tiles can go into the meld or stay in the hand.
            let five = others.iter().copied().find(|&x| self.red & five_bit(x) != 0);
            let (choices, nc): ([bool; 2], usize) = match five {
                Some(f) if self.plain_count(f) >= 1 => ([false, true], 2),
                Some(_) => ([true, true], 1),
                None => ([false, false], 1),
            };
            for &use_red in &choices[..nc] {
                let mut h = *self;
                for &x in &others {
                    h.remove(x, 1);
                }
                if use_red {
                    h.red &= !five.map_or(0, five_bit);
                }
                h.add_meld(CHI, first, use_red || t.is_red());
                f(&h, &forbidden[..nf]);
            }
        }
    }

    /// The concealed tiles into `out` (emptied first), by kind, a red five after the plain ones.
    ///
    /// Only the kinds held are visited, read off the packed counts: every win the search scores
    /// refills its tiles, and a hand holds a dozen kinds of the 34.
    pub(super) fn concealed_tiles(&self, out: &mut Vec<Tile>) {
        out.clear();
        // Bit 3k is set when kind k's 3-bit field is not zero.
        let p = self.packed;
        let mut held = (p | p >> 1 | p >> 2) & FIELD_LOW_BITS;
        while held != 0 {
            let k = (held.trailing_zeros() / 3) as usize;
            held &= held - 1;
            for _ in 0..self.plain_count(k) {
                out.push(Tile::from_kind(k));
            }
            if self.red & five_bit(k) != 0 {
                out.push(Tile::red_five(k / 9));
            }
        }
    }

    /// The melds as the scoring engine's [`Meld`]s into `out` (emptied first).
    pub(super) fn melds_into(&self, out: &mut Vec<Meld>) {
        out.clear();
        for &m in &self.melds[..self.nm] {
            let (ty, first, red) = (m >> 7, (m & 63) as usize, m >> 6 & 1 == 1);
            let (kind, kinds, len): (MeldKind, [Kind; 4], usize) = match ty {
                CHI => (MeldKind::Chi, [first, first + 1, first + 2, 0], 3),
                PON => (MeldKind::Pon, [first; 4], 3),
                OPEN_KAN => (MeldKind::Daiminkan, [first; 4], 4),
                _ => (MeldKind::Ankan, [first; 4], 4),
            };
            let mut red_left = red;
            let tiles = kinds.map(|k| {
                if red_left && five_bit(k) != 0 {
                    red_left = false;
                    Tile::red_five(k / 9)
                } else {
                    Tile::from_kind(k)
                }
            });
            let called = (kind != MeldKind::Ankan).then_some(tiles[0]);
            out.push(Meld::new(kind, &tiles[..len], called, if called.is_some() { 3 } else { 0 }));
        }
    }
}
