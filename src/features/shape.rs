//! Shape and speed after the discard: shanten by form, ukeire, second-order ukeire, and for a
//! tenpai hand its wait (size, shape, furiten).
//!
//! Definitions (all on the concealed hand after the discard, own melds counted by number):
//! - ukeire: kinds whose draw lowers the minimum shanten (xiangting's necessary tiles), and the
//!   copies of them the player has not seen (4 - own hand - visible - the discard itself).
//! - second-order ukeire (not tenpai only): for each effective kind `e` with `u_e` unseen copies,
//!   draw it, then take the discard that keeps the lowered shanten and leaves the most unseen
//!   effective tiles; call that count `b_e`. `ukeire2_sum` = Σ u_e·b_e (the tiles that take the
//!   hand two steps forward, weighted by how often each first step happens) and `ukeire2_avg`
//!   = Σ u_e·b_e / Σ u_e (how wide the hand is after a typical first step). Both 0 when tenpai or
//!   when no effective tile is left.
//! - wait shape (tenpai only): for each winning kind `w`, every decomposition of hand + w into
//!   melds and a pair is examined and the group holding `w` names the role: the pair = tanki, a
//!   set = shanpon, the middle of a run = kanchan, the end of a run whose other two tiles are 12
//!   or 89 = penchan, any other run end = ryanmen. The hand's class: `wait_multi` when it waits
//!   on 3 or more kinds; otherwise the best role over its winning kinds in the order ryanmen >
//!   shanpon > kanchan > penchan > tanki. A hand tenpai only as chiitoitsu or kokushi is tanki
//!   (or multi for a 13-sided kokushi).
//! - furiten: a winning kind among own discards, the discard of this option included.

use super::column::{Cols, Column, Family};
use super::facts::{After, Facts};
use crate::hand::memo::{pack, unit};
use crate::hand::replacement::DiscardMemory;
use crate::hand::shanten::{chiitoitsu, kinds_of, kokushi, min_shanten, standard, DiscardQueries, DrawBase};
use crate::hand::waits::{ukeire, unseen, Ukeire};
use crate::tile::{Counts, Kind, KINDS};

pub(crate) const COLUMNS: &[(&str, &str)] = &[
    ("shanten_min", "minimum shanten over standard, chiitoitsu and kokushi after the discard"),
    ("shanten_standard", "standard-form shanten after the discard (4 melds + pair)"),
    ("shanten_chiitoitsu", "chiitoitsu shanten after the discard; 7 when impossible (open hand)"),
    ("shanten_kokushi", "kokushi shanten after the discard; 14 when impossible (open hand)"),
    ("tenpai", "1 when the minimum shanten after the discard is 0"),
    ("iishanten", "1 when the minimum shanten after the discard is 1"),
    ("ukeire_kinds", "kinds whose draw lowers the minimum shanten"),
    ("ukeire_count", "unseen copies of the kinds that lower the minimum shanten"),
    (
        "ukeire2_avg",
        "second-order ukeire: best ukeire after an effective draw and discard, copy-weighted mean",
    ),
    ("ukeire2_sum", "second-order ukeire: sum over effective draws of copies times best next ukeire"),
    ("wait_kinds", "tenpai: number of winning kinds (0 when not tenpai)"),
    ("wait_count", "tenpai: unseen copies of the winning kinds (0 when not tenpai)"),
    ("wait_multi", "tenpai on 3 or more kinds"),
    ("wait_ryanmen", "tenpai on at most 2 kinds, best role a two-sided run wait"),
    ("wait_shanpon", "tenpai on at most 2 kinds, best role a pair waiting to become a set"),
    ("wait_kanchan", "tenpai on at most 2 kinds, best role a closed (middle) run wait"),
    ("wait_penchan", "tenpai on at most 2 kinds, best role an edge 12/89 run wait"),
    ("wait_tanki", "tenpai on at most 2 kinds, best role a single-tile pair wait (incl. chiitoitsu)"),
    ("furiten", "tenpai and a winning kind is among own discards (this discard included)"),
];

/// `shanten_min`: what the value family, the gates and the review read.
pub const SHANTEN_MIN: Column = Column::new(Family::Shape, 0);
/// `ukeire_count`.
pub const UKEIRE_COUNT: Column = Column::new(Family::Shape, 7);

/// Role of a winning tile, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum WaitRole {
    Ryanmen,
    Shanpon,
    Kanchan,
    Penchan,
    Tanki,
}

/// The wait class of a tenpai hand (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitClass {
    Multi,
    Role(WaitRole),
}

/// Calls `f` on the role of `w` in every decomposition of the complete hand `c` (`need` groups
/// plus one pair) that holds `w`.
fn roles_in_complete(c: &mut Counts, need: usize, w: usize, f: &mut impl FnMut(WaitRole)) {
    // groups: (kind, is_run); pair kind
    fn rec(
        c: &mut Counts,
        start: usize,
        need: usize,
        pair: Option<usize>,
        groups: &mut Vec<(usize, bool)>,
        w: usize,
        f: &mut dyn FnMut(WaitRole),
    ) {
        let Some(i) = (start..KINDS).find(|&k| c[k] > 0) else {
            if groups.len() == need && pair.is_some() {
                if pair == Some(w) {
                    f(WaitRole::Tanki);
                }
                for &(k, run) in groups.iter() {
                    if !run && k == w {
                        f(WaitRole::Shanpon);
                    } else if run && (k..k + 3).contains(&w) {
                        let pos = k % 9;
                        f(match w - k {
                            1 => WaitRole::Kanchan,
                            0 if pos == 6 => WaitRole::Penchan,
                            2 if pos == 0 => WaitRole::Penchan,
                            _ => WaitRole::Ryanmen,
                        });
                    }
                }
            }
            return;
        };
        if pair.is_none() && c[i] >= 2 {
            c[i] -= 2;
            rec(c, i, need, Some(i), groups, w, f);
            c[i] += 2;
        }
        if groups.len() < need {
            if c[i] >= 3 {
                c[i] -= 3;
                groups.push((i, false));
                rec(c, i, need, pair, groups, w, f);
                groups.pop();
                c[i] += 3;
            }
            if i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
                c[i] -= 1;
                c[i + 1] -= 1;
                c[i + 2] -= 1;
                groups.push((i, true));
                rec(c, i, need, pair, groups, w, f);
                groups.pop();
                c[i] += 1;
                c[i + 1] += 1;
                c[i + 2] += 1;
            }
        }
    }
    let mut groups = Vec::with_capacity(4);
    rec(c, 0, need, None, &mut groups, w, f);
}

/// Wait class of a tenpai hand (`counts` has 13 - 3 * melds tiles) waiting on `waits`.
pub fn wait_class(counts: &Counts, melds: usize, waits: u64) -> WaitClass {
    if waits.count_ones() >= 3 {
        return WaitClass::Multi;
    }
    let need = 4usize.saturating_sub(melds);
    let mut best = WaitRole::Tanki;
    let mut c = *counts;
    for w in kinds_of(waits) {
        if c[w] >= 4 {
            continue;
        }
        c[w] += 1;
        roles_in_complete(&mut c, need, w, &mut |r| best = best.min(r));
        c[w] -= 1;
    }
    WaitClass::Role(best)
}

/// Second-order ukeire `(avg, sum)` of a 3n+1 hand with min shanten `s` >= 1 and effective
/// kinds `kinds` (see the module doc).
pub fn second_order(hand: &Counts, visible: &Counts, s: i8, kinds: u64) -> (f32, f32) {
    if s <= 0 {
        return (0.0, 0.0);
    }
    let mut h = *hand;
    let (mut weight, mut sum) = (0u32, 0u32);
    // After drawing e and discarding d the hand plus the visible tiles is `hand + visible + e`
    // (d moves from one to the other), so a kind's unseen count depends on e alone: x(k) =
    // 4 - hand - visible, one less at e. Held as three bit planes of x over the kinds, the
    // unseen sum of a kind set is three popcounts instead of a loop over the set.
    let mut planes = [0u64; 3];
    for k in 0..KINDS {
        let x = unseen(k, hand, visible) as u64;
        (0..3).for_each(|b| planes[b] |= (x >> b & 1) << k);
    }
    let plane_sum = |p: &[u64; 3], set: u64| {
        (set & p[0]).count_ones() + 2 * (set & p[1]).count_ones() + 4 * (set & p[2]).count_ones()
    };
    // The hand packed once; each draw's hand is one tile more (the cache key of its queries).
    let packed = pack(hand);
    let base = DrawBase::new(hand);
    // What the necessary-kinds queries of one drawn hand's discards share (cleared per draw).
    let mut memory = DiscardMemory::default();
    // The cache probes wait on memory: each draw's first probe is started one draw ahead, and
    // a drawn hand's discards are all started before the first is asked.
    let draws = kinds_of(kinds).filter(|&e| unseen(e, hand, visible) > 0).fold(0u64, |m, e| m | 1 << e);
    if draws != 0 {
        DiscardQueries::prefetch_unnecessary(packed + unit(draws.trailing_zeros() as Kind));
    }
    for e in kinds_of(draws) {
        let later = draws & !((2u64 << e) - 1);
        if later != 0 {
            DiscardQueries::prefetch_unnecessary(packed + unit(later.trailing_zeros() as Kind));
        }
        let u = unseen(e, hand, visible) as u32;
        let mut p = planes;
        let x = (u - 1) as u64;
        (0..3).for_each(|b| p[b] = p[b] & !(1 << e) | (x >> b & 1) << e);
        h[e] += 1;
        // The discards that take the hand to shanten s - 1 are the ones that keep the 14-tile
        // hand's minimum shanten (s - 1, as e is effective): xiangting's unnecessary kinds. One
        // query instead of one per held kind; the full scan stays as the fallback.
        let mut q = DiscardQueries::near(&base, &h, packed + unit(e), e / 9);
        let (s14, keep) = q.unnecessary();
        let candidates = if s14 == s - 1 { keep } else { crate::tile::ALL_KINDS };
        let mut best = 0u32;
        memory.clear();
        let held = kinds_of(candidates).filter(|&d| h[d] > 0).fold(0u64, |m, d| m | 1 << d);
        kinds_of(held).for_each(|d| q.prefetch_necessary_without(d));
        for d in kinds_of(held) {
            let (s2, k2) = q.necessary_without_remembering(d, &mut memory);
            if s2 < s {
                best = best.max(plane_sum(&p, k2));
            }
        }
        h[e] -= 1;
        weight += u;
        sum += u * best;
    }
    if weight == 0 {
        (0.0, 0.0)
    } else {
        (sum as f32 / weight as f32, sum as f32)
    }
}

/// The shape columns of option `a`; second-order ukeire only when `second_order` (else 0).
/// Returns the ukeire of the hand after the discard, which the furiten risk reads too.
pub(crate) fn fill(ctx: &Facts, a: &After, second_order: bool, cols: &mut Cols) -> Ukeire {
    let melds = ctx.view.melds.len();
    // ukeire counts the discard as gone: it is in `a.visible`.
    let u = ukeire(&a.counts, &a.visible);
    let (s, kinds, count) = (u.shanten, u.kinds, u.count);
    debug_assert_eq!(s, min_shanten(&a.counts));
    let std_s = standard(&a.counts, melds);
    let closed_full = melds == 0;
    let chiitoi = if closed_full { chiitoitsu(&a.counts) } else { None };
    let koku = if closed_full { kokushi(&a.counts) } else { None };
    cols.put("shanten_min", s as f32);
    cols.put("shanten_standard", std_s as f32);
    cols.put("shanten_chiitoitsu", chiitoi.unwrap_or(7) as f32);
    cols.put("shanten_kokushi", koku.unwrap_or(14) as f32);
    cols.flag("tenpai", s == 0);
    cols.flag("iishanten", s == 1);
    cols.put("ukeire_kinds", kinds.count_ones() as f32);
    cols.put("ukeire_count", count as f32);
    let (avg, sum) =
        if second_order { self::second_order(&a.counts, &a.visible, s, kinds) } else { (0.0, 0.0) };
    cols.put("ukeire2_avg", avg);
    cols.put("ukeire2_sum", sum);
    let tenpai = s == 0;
    cols.put("wait_kinds", if tenpai { kinds.count_ones() as f32 } else { 0.0 });
    cols.put("wait_count", if tenpai { count as f32 } else { 0.0 });
    let class = if tenpai { Some(wait_class(&a.counts, melds, kinds)) } else { None };
    let role = |r: WaitRole| class == Some(WaitClass::Role(r));
    cols.flag("wait_multi", class == Some(WaitClass::Multi));
    cols.flag("wait_ryanmen", role(WaitRole::Ryanmen));
    cols.flag("wait_shanpon", role(WaitRole::Shanpon));
    cols.flag("wait_kanchan", role(WaitRole::Kanchan));
    cols.flag("wait_penchan", role(WaitRole::Penchan));
    cols.flag("wait_tanki", role(WaitRole::Tanki));
    let river = ctx.own_river_kinds | 1 << a.discard.kind();
    cols.flag("furiten", tenpai && kinds & river != 0);
    u
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::shanten::necessary_kinds;
    use crate::tile::{counts_of, parse_mpsz};

    fn c(s: &str) -> Counts {
        counts_of(&parse_mpsz(s).unwrap())
    }
    fn bits(s: &str) -> u64 {
        parse_mpsz(s).unwrap().iter().fold(0, |acc, t| acc | 1 << t.kind())
    }

    #[test]
    fn wait_classes() {
        use WaitClass::*;
        use WaitRole::*;
        // 23s waits 1s/4s: ryanmen.
        assert_eq!(wait_class(&c("123m456p789s23s11z"), 0, bits("14s")), Role(Ryanmen));
        // 12s waits 3s only: penchan; 13s waits 2s: kanchan.
        assert_eq!(wait_class(&c("123m456p789s12s11z"), 0, bits("3s")), Role(Penchan));
        assert_eq!(wait_class(&c("123m456p789s13s11z"), 0, bits("2s")), Role(Kanchan));
        // 11z 22z: shanpon on 1z/2z.
        assert_eq!(wait_class(&c("123m456p789s11z22z"), 0, bits("12z")), Role(Shanpon));
        // single 5z: tanki.
        assert_eq!(wait_class(&c("123m456p789s111s5z"), 0, bits("5z")), Role(Tanki));
        // 1234m nobetan with three melds: 1m -> 11m + 234m, 4m -> 123m + 44m, both tanki.
        assert_eq!(wait_class(&c("123p456p789p1234m"), 0, bits("14m")), Role(Tanki));
        // 2345678m with two melds waits 2m (22+345+678), 5m (234+55+678), 8m (234+567+88).
        assert_eq!(wait_class(&c("123p456p2345678m"), 0, bits("258m")), Multi);
    }

    #[test]
    fn second_order_small_hand() {
        // 123p456p789p 13m 5z 6z, nothing visible: three melds, a kanchan, two singles: shanten 1.
        // Effective draws (derived by hand): 2m (123m, then tanki on 5z or 6z), 5z (pair 55z +
        // kanchan 13m) and 6z (same). 1m, 3m or 4m leave a pair or a partial missing: still 1.
        let h = c("123p456p789p13m56z");
        let vis = [0u8; KINDS];
        let (s, kinds) = necessary_kinds(&h);
        assert_eq!((s, kinds), (1, bits("2m56z")));
        // b(2m): discard 5z -> 6z tanki, 3 unseen (one 6z held)      -> 4 copies * 3 = 12
        // b(5z): discard 6z -> 13m kanchan waits 2m, 4 unseen         -> 3 copies * 4 = 12
        //        (discarding 1m or 3m leaves 3m/1m + 6z + 55z: not tenpai, so not a candidate)
        // b(6z): same as 5z                                          -> 3 copies * 4 = 12
        // sum = 36, avg = 36 / (4 + 3 + 3) = 3.6
        let (avg, sum) = second_order(&h, &vis, s, kinds);
        assert_eq!(sum, 36.0);
        assert!((avg - 3.6).abs() < 1e-6, "{avg}");
        // Two 2m seen: the 2m weight halves (2 copies * b 3 = 6) and the kanchan after 5z/6z,
        // still the only tenpai-keeping discard, has 2 unseen: b(5z) = b(6z) = 2.
        // sum = 6 + 3*2 + 3*2 = 18, avg = 18 / 8 = 2.25.
        let mut vis2 = [0u8; KINDS];
        vis2[1] = 2;
        let (avg, sum) = second_order(&h, &vis2, s, kinds);
        assert_eq!(sum, 18.0);
        assert!((avg - 2.25).abs() < 1e-6, "{avg}");
    }

    /// Unseen copies of the kinds in `kinds`, counted one by one.
    fn unseen_sum(kinds: u64, hand: &Counts, visible: &Counts) -> u32 {
        kinds_of(kinds).map(|k| unseen(k, hand, visible) as u32).sum()
    }

    /// The definition of the module doc, scanning every discard: the reference for
    /// [`second_order`], which asks for the shanten-keeping discards and sums unseen counts by
    /// bit planes instead.
    fn second_order_by_scan(hand: &Counts, visible: &Counts, s: i8, kinds: u64) -> (f32, f32) {
        if s <= 0 {
            return (0.0, 0.0);
        }
        let (mut h, mut vis) = (*hand, *visible);
        let (mut weight, mut sum) = (0u32, 0u32);
        for e in kinds_of(kinds) {
            let u = unseen(e, hand, visible) as u32;
            if u == 0 {
                continue;
            }
            h[e] += 1;
            let mut best = 0u32;
            for d in 0..KINDS {
                if h[d] == 0 {
                    continue;
                }
                h[d] -= 1;
                vis[d] += 1;
                let (s2, k2) = necessary_kinds(&h);
                if s2 < s {
                    best = best.max(unseen_sum(k2, &h, &vis));
                }
                vis[d] -= 1;
                h[d] += 1;
            }
            h[e] -= 1;
            weight += u;
            sum += u * best;
        }
        if weight == 0 {
            (0.0, 0.0)
        } else {
            (sum as f32 / weight as f32, sum as f32)
        }
    }

    #[test]
    fn second_order_matches_the_scan_on_random_hands() {
        let mut next = crate::testdata::xorshift(0x2545_F491_4F6C_DD1Du64);
        for i in 0..3000 {
            let mut wall: Vec<usize> = (0..136).map(|t| t / 4).collect();
            for j in (1..wall.len()).rev() {
                wall.swap(j, (next() % (j as u64 + 1)) as usize);
            }
            let size = [13, 10, 7, 4][i % 4];
            let mut h = [0u8; KINDS];
            wall[..size].iter().for_each(|&k| h[k] += 1);
            let mut vis = [0u8; KINDS];
            wall[size..size + (next() % 40) as usize].iter().for_each(|&k| vis[k] += 1);
            let (s, kinds) = necessary_kinds(&h);
            assert_eq!(
                second_order(&h, &vis, s, kinds),
                second_order_by_scan(&h, &vis, s, kinds),
                "{}",
                crate::tile::format_counts(&h)
            );
        }
    }

    #[test]
    fn tenpai_has_no_second_order() {
        let h = c("123m456p789s23s11z");
        let (s, k) = necessary_kinds(&h);
        assert_eq!(second_order(&h, &[0; KINDS], s, k), (0.0, 0.0));
    }
}
