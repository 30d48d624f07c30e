//! The 21-class meld / partial-meld vector: the hand after the discard cut into melds, partial
//! melds and isolated tiles, each piece counted in one of 21 classes.
//!
//! Classes (index: name — pieces; "middle" = numbers 2..8, "terminal" = 1/9 or an honor):
//!  0 `seq_mid`        — runs not holding a 1 or 9 (234 .. 678)
//!  1 `seq_term`       — runs 123 / 789
//!  2 `set_mid`        — triplets (or kans) of 2..8
//!  3 `set_term`       — triplets (or kans) of 1/9 and honors
//!  4 `pair_mid`       — pairs of 2..8
//!  5 `pair_term`      — pairs of 1/9 and of guest winds
//!  6 `pair_yakuhai`   — pairs of yakuhai honors (dragons, round wind, seat wind)
//!  7 `ryanmen_mid`    — two-sided 34 45 56 67
//!  8 `ryanmen_edge`   — two-sided 23 78
//!  9 `dkanchan_mid`   — double kanchan 246 357 468 (one piece: one draw makes a meld)
//! 10 `dkanchan_term`  — double kanchan 135 579
//! 11 `kanchan_mid`    — kanchan 35 46 57
//! 12 `kanchan_24`     — kanchan 24 68
//! 13 `kanchan_13`     — kanchan 13 79
//! 14 `penchan`        — edge 12 89
//! 15 `iso_46`         — isolated 4 5 6
//! 16 `iso_37`         — isolated 3 7
//! 17 `iso_28`         — isolated 2 8
//! 18 `iso_19`         — isolated 1 9
//! 19 `iso_guest`      — isolated guest winds
//! 20 `iso_yakuhai`    — isolated yakuhai honors
//!
//! Own melds count as runs / sets. Decomposition: each suit is cut independently to maximise
//! `2 * melds + partials` (a pair and a double kanchan are one partial each). The brief's
//! "most melds + partials" alone would cut 123456 into 12 34 56; weighting melds twice is the
//! count standard shanten uses and keeps 123 456. Ties: more melds; then the class vector that
//! is lexicographically largest in the index order above (earlier classes preferred, so a run
//! beats a set, a pair beats a ryanmen, a double kanchan beats kanchan + isolated tile). There is
//! no cap on the number of pieces (unlike shanten, which caps at 4 melds + partials and a pair).
//! Honors have no choice: 1 copy isolated, 2 a pair, 3 a set, 4 a set plus an isolated tile.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::hand::meld::Meld;
use crate::tile::{is_yaochu, Counts, Kind};

pub const CLASS_NAMES: [&str; 21] = [
    "seq_mid",
    "seq_term",
    "set_mid",
    "set_term",
    "pair_mid",
    "pair_term",
    "pair_yakuhai",
    "ryanmen_mid",
    "ryanmen_edge",
    "dkanchan_mid",
    "dkanchan_term",
    "kanchan_mid",
    "kanchan_24",
    "kanchan_13",
    "penchan",
    "iso_46",
    "iso_37",
    "iso_28",
    "iso_19",
    "iso_guest",
    "iso_yakuhai",
];

/// One-line meaning of each class, in class order (the catalog's column meanings).
pub const MEANINGS: [&str; 21] = [
    "runs without a 1 or 9 (234..678), own melds included",
    "runs 123 or 789, own melds included",
    "triplets or kans of 2..8, own melds included",
    "triplets or kans of 1/9 or honors, own melds included",
    "pairs of 2..8",
    "pairs of 1/9 or guest winds",
    "pairs of yakuhai honors",
    "two-sided partials 34 45 56 67",
    "two-sided partials 23 78",
    "double kanchan 246 357 468",
    "double kanchan 135 579",
    "kanchan 35 46 57",
    "kanchan 24 68",
    "kanchan 13 79",
    "edge partials 12 89",
    "isolated 4 5 6",
    "isolated 3 7",
    "isolated 2 8",
    "isolated 1 9",
    "isolated guest winds",
    "isolated yakuhai honors",
];

/// Best cut of one suit: (score = 2 melds + partials, melds, class counts 0..=18).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Cut {
    score: u8,
    melds: u8,
    classes: [u8; 19],
}

fn seq_class(p: usize) -> usize {
    if p == 0 || p == 6 {
        1
    } else {
        0
    }
}

fn end(p: usize) -> bool {
    p == 0 || p == 8
}

fn iso_class(p: usize) -> usize {
    match p {
        3..=5 => 15,
        2 | 6 => 16,
        1 | 7 => 17,
        _ => 18,
    }
}

thread_local! {
    static MEMO: RefCell<HashMap<u32, Cut>> = RefCell::new(HashMap::new());
}

fn code(h: &[u8; 9]) -> u32 {
    h.iter().fold(0u32, |acc, &c| acc * 5 + c as u32)
}

fn best_cut(h: &mut [u8; 9]) -> Cut {
    let Some(i) = (0..9).find(|&i| h[i] > 0) else {
        return Cut { score: 0, melds: 0, classes: [0; 19] };
    };
    let key = code(h);
    if let Some(c) = MEMO.with(|m| m.borrow().get(&key).copied()) {
        return c;
    }
    let mut best: Option<Cut> = None;
    // (offsets taken, class, is meld, is partial)
    let mut pieces: [(&[usize], usize, bool); 7] = [(&[0], iso_class(i), false); 7];
    let mut n = 1;
    if i <= 6 {
        pieces[n] = (&[0, 1, 2], seq_class(i), true);
        n += 1;
    }
    pieces[n] = (&[0, 0, 0], if end(i) { 3 } else { 2 }, true);
    n += 1;
    pieces[n] = (&[0, 0], if end(i) { 5 } else { 4 }, false);
    n += 1;
    if i <= 7 {
        let c = match i {
            0 | 7 => 14,
            1 | 6 => 8,
            _ => 7,
        };
        pieces[n] = (&[0, 1], c, false);
        n += 1;
    }
    if i <= 6 {
        let c = match i {
            0 | 6 => 13,
            1 | 5 => 12,
            _ => 11,
        };
        pieces[n] = (&[0, 2], c, false);
        n += 1;
    }
    if i <= 4 {
        pieces[n] = (&[0, 2, 4], if i == 0 || i == 4 { 10 } else { 9 }, false);
        n += 1;
    }
    for &(offs, class, meld) in &pieces[..n] {
        // take the piece if every tile is there (offsets may repeat for sets and pairs)
        let mut ok = true;
        for &o in offs {
            if h[i + o] == 0 {
                ok = false;
            }
            h[i + o] = h[i + o].wrapping_sub(1);
        }
        if ok {
            let mut c = best_cut(h);
            c.classes[class] += 1;
            if meld {
                c.melds += 1;
                c.score += 2;
            } else if class < 15 {
                c.score += 1;
            }
            if best.is_none_or(|b| c > b) {
                best = Some(c);
            }
        }
        for &o in offs {
            h[i + o] = h[i + o].wrapping_add(1);
        }
    }
    let best = best.unwrap_or(Cut { score: 0, melds: 0, classes: [0; 19] });
    MEMO.with(|m| m.borrow_mut().insert(key, best));
    best
}

/// The 21-class vector of concealed `counts` plus `melds` (see the module doc). `round_wind` and
/// `seat_wind` decide which winds are yakuhai.
pub fn classify21(counts: &Counts, melds: &[Meld], round_wind: Kind, seat_wind: Kind) -> [u8; 21] {
    let mut out = [0u8; 21];
    for s in 0..3 {
        let mut h = [0u8; 9];
        h.copy_from_slice(&counts[s * 9..s * 9 + 9]);
        // a malformed count above 4 would break the base-5 key; cap it (valid hands never have it)
        h.iter_mut().for_each(|c| *c = (*c).min(4));
        let cut = best_cut(&mut h);
        for (o, c) in out.iter_mut().zip(cut.classes) {
            *o += c;
        }
    }
    for k in 27..34 {
        let yakuhai = k >= 31 || k == round_wind || k == seat_wind;
        let n = counts[k];
        if n >= 3 {
            out[3] += 1;
        }
        match n % 3 {
            1 => out[if yakuhai { 20 } else { 19 }] += 1,
            2 => out[if yakuhai { 6 } else { 5 }] += 1,
            _ => {}
        }
    }
    for m in melds {
        let k = m.first_kind();
        if m.is_run() {
            out[seq_class(k % 9)] += 1;
        } else {
            out[if is_yaochu(k) { 3 } else { 2 }] += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::Hand;
    use crate::tile::{counts_of, parse_mpsz};

    fn cls(hand: &str) -> Vec<(&'static str, u8)> {
        let h = Hand::parse(hand).unwrap();
        let c = counts_of(&h.tiles);
        let v = classify21(&c, &h.melds, 27, 28);
        CLASS_NAMES.iter().zip(v).filter(|(_, n)| *n > 0).map(|(s, n)| (*s, n)).collect()
    }

    #[test]
    fn exactly_21_classes() {
        assert_eq!(CLASS_NAMES.len(), 21);
        assert_eq!(MEANINGS.len(), 21);
    }

    #[test]
    fn runs_beat_partials() {
        // 123456m: two runs (score 4) beat 12 34 56 (score 3); 123 is seq_term, 456 seq_mid.
        // 789p: seq_term. 35s: kanchan_mid. 9s: isolated 1/9. 1z East (round wind): isolated
        // yakuhai; 3z West (guest for East round, South seat): isolated guest.
        assert_eq!(
            cls("123456m789p359s13z"),
            vec![
                ("seq_mid", 1),
                ("seq_term", 2),
                ("kanchan_mid", 1),
                ("iso_19", 1),
                ("iso_guest", 1),
                ("iso_yakuhai", 1)
            ]
        );
    }

    #[test]
    fn partial_classes_by_hand() {
        // 1m2m: penchan; 4p6p: kanchan_mid; 2s4s6s: double kanchan (one partial, beats 24s +
        // isolated 6s on the tie-break); 78m: ryanmen_edge; 55z pair yakuhai (white);
        // 44z pair of North (guest): pair_term. 13 tiles.
        assert_eq!(
            cls("1278m46p246s4455z"),
            vec![
                ("pair_term", 1),
                ("pair_yakuhai", 1),
                ("ryanmen_edge", 1),
                ("dkanchan_mid", 1),
                ("kanchan_mid", 1),
                ("penchan", 1)
            ]
        );
    }

    #[test]
    fn sets_pairs_and_melds() {
        // Concealed 111m 5p 3456s (8 tiles) with a pon of red dragon and a chi 789s.
        // 111m: set_term. 5p: iso_46. 3456s: 345+6 and 456+3 (a run and a tile, score 2, one
        // meld) beat 34+56 (score 2, no meld); between the two, 345+6 leaves iso_46 (index 15)
        // where 456+3 leaves iso_37 (16): the earlier class wins -> seq_mid + iso_46.
        // Melds: 777z -> set_term, 789s -> seq_term.
        assert_eq!(
            cls("111m5p3456s 777z 789s"),
            vec![("seq_mid", 1), ("seq_term", 1), ("set_term", 2), ("iso_46", 2)]
        );
    }

    #[test]
    fn counts_by_class_sum_to_tiles() {
        // every tile is in exactly one piece: weight pieces by size and compare with 14
        let sizes = [3, 3, 3, 3, 2, 2, 2, 2, 2, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1];
        for h in ["1112345678999m1z", "13579m2468p13579s", "11223344556677z", "19m19p19s12345677z"] {
            let c = counts_of(&parse_mpsz(h).unwrap());
            let v = classify21(&c, &[], 27, 27);
            let n: u32 = v.iter().zip(sizes).map(|(&a, b)| a as u32 * b).sum();
            assert_eq!(n, 14, "{h}");
        }
    }
}
