//! Seed 004's yaku evaluation function (雀-X, 役の評価関数), `--evaluator yaku-seed`, beside
//! today's `yaku` ([`super::yaku_eval`]), as the seed defines it:
//!
//! ```text
//! value(ω) = max over cuts d of ω (every way to take the leftover tiles, 余り牌の取り方)
//!            max over the winning shapes t and their compatible combinations C of t
//!            Σ_{Y ∈ C} isYaku(Y, t) · Han(Y, isMenzen(ω)) · vec(Y) · vec(ω_d)
//! ```
//!
//! - `vec(ω_d)`: the 21-class vector of the cut ([`cuts`]: every cut, not `melds21`'s one);
//! - the combinations are the seed's list as given: 15 for 四面子一雀頭, 2 for 七対子, 1 for 国士
//!   ([`STANDARD`], [`CHIITOI`], [`KOKUSHI`]), so compatible yaku add up and incompatible ones
//!   (混一色 and 清一色, 平和 and 対々和) are never summed;
//! - the yaku are the seed's: 平和, 純チャン, 混老頭, 三暗刻 and 小三元 have their own vectors; there is
//!   no riichi (type D) and no type E yaku; ドラ is a yaku of every combination with Han = the
//!   dora held;
//! - `vec(Y)` and `Han` are in [`vectors`], with the reason for every number.
//!
//! Two things the seed's formula cannot say and this adds, each stated: (1) `isYaku` also gates
//! on what the 21 suit-blind classes cannot see (a meld that rules the yaku out, the tile pattern
//! of 三色 / 一通 / 一盃口 / 小三元, [`gate`]); (2) the flushes' vector has an in-suit and an off-suit
//! half, evaluated for each suit. Since the value is linear in `vec(ω_d)`, the best cut for a
//! combination is the sum of the best cut of each suit and each honor kind under the
//! combination's summed weights, so "every cut" costs one small list per suit.
//!
//! Ties (equal value) are ordered as the ukeire evaluator orders them, like today's `yaku`.

pub mod cuts;
pub mod vectors;

use super::max_ukeire as ukeire;
use super::yaku_eval::meld_has_yaochu;
use super::RankedDiscard;
use crate::hand::meld::Meld;
use crate::replay::view::View;
use crate::tile::{is_yaochu, Counts, Kind, KINDS};
use cuts::{honor_cuts, suit_cuts};
use vectors::{han, vector, Yaku, OFF_SUIT};
use Yaku::*;

/// The seed's 15 combinations of the standard shape (四面子一雀頭), in its order.
pub const STANDARD: [&[Yaku]; 15] = [
    &[Pinfu, Tanyao, Sanshoku, Iipeikou, Dora],
    &[Pinfu, Tanyao, Iipeikou, Chinitsu, Dora],
    &[Pinfu, Ittsu, Iipeikou, Chinitsu, Dora],
    &[Pinfu, Ittsu, Iipeikou, Honitsu, Dora],
    &[Pinfu, Chanta, Iipeikou, Honitsu, Dora],
    &[Pinfu, Junchan, Iipeikou, Chinitsu, Dora],
    &[Pinfu, Chanta, Sanshoku, Iipeikou, Dora],
    &[Pinfu, Junchan, Sanshoku, Iipeikou, Dora],
    &[Tanyao, Sanshoku, Iipeikou, Dora],
    &[Tanyao, Toitoi, Sanankou, Chinitsu, Dora],
    &[Yakuhai, Sanshoku, Chanta, Dora],
    &[Yakuhai, Ittsu, Honitsu, Dora],
    &[Yakuhai, Chanta, Iipeikou, Shousangen, Dora],
    &[Yakuhai, Toitoi, Sanankou, Honitsu, Shousangen, Honroutou, Dora],
    &[Yakuhai, Honitsu, Iipeikou, Shousangen, Dora],
];

/// The seed's 2 combinations of 七対子.
pub const CHIITOI: [&[Yaku]; 2] =
    [&[Chiitoitsu, Tanyao, Chinitsu, Dora], &[Chiitoitsu, Honroutou, Honitsu, Dora]];

/// 国士無双 alone.
pub const KOKUSHI: [&[Yaku]; 1] = [&[Kokushi]];

/// Sanshoku and ittsu are gated on this many of the pattern's 9 kinds held (one tile away), as
/// today's `yaku` ([`super::yaku_eval::PATTERN_MIN`]).
pub const PATTERN_MIN: u32 = super::yaku_eval::PATTERN_MIN;
/// A flush is gated off for a suit when more concealed tiles than this are off it.
pub const MAX_OFF_SUIT: u32 = super::yaku_eval::MAX_OFF_SUIT;

/// What the gates and the han need to know about the hand after the discard.
pub struct HandFacts<'a> {
    pub counts: &'a Counts,
    pub melds: &'a [Meld],
    pub round_wind: Kind,
    pub seat_wind: Kind,
    /// Dora held (concealed and melded, red fives included).
    pub dora: u32,
}

impl HandFacts<'_> {
    fn closed(&self) -> bool {
        self.melds.iter().all(|m| !m.is_open())
    }

    fn yakuhai(&self, k: Kind) -> bool {
        k >= 31 || k == self.round_wind || k == self.seat_wind
    }

    /// Concealed and melded tiles by kind (a kan counts 3, enough for the patterns).
    fn all_counts(&self) -> Counts {
        let mut all = *self.counts;
        for m in self.melds {
            for t in m.tiles().iter().take(3) {
                all[t.kind()] += 1;
            }
        }
        all
    }
}

/// Most kinds held (of 9) of one sanshoku run pattern, of one ittsu suit, of a doubled run (6).
fn patterns(all: &Counts) -> (u32, u32, u32) {
    let held = |k: Kind| u32::from(all[k] > 0);
    let sanshoku =
        (0..7).map(|n| (0..3).flat_map(|s| (0..3).map(move |i| s * 9 + n + i)).map(held).sum()).max();
    let ittsu = (0..3).map(|s| (0..9).map(|i| held(s * 9 + i)).sum()).max();
    let iipeikou = (0..3)
        .flat_map(|s| (0..7).map(move |n| s * 9 + n))
        .map(|k| (0..3).map(|i| all[k + i].min(2) as u32).sum())
        .max();
    (sanshoku.unwrap_or(0), ittsu.unwrap_or(0), iipeikou.unwrap_or(0))
}

/// Han of 飜牌 on the hand: one per yakuhai kind held as a pair or more (a double wind twice).
fn yakuhai_han(f: &HandFacts) -> u8 {
    let all = f.all_counts();
    (27..KINDS)
        .filter(|&k| all[k] >= 2)
        .map(|k| if k >= 31 { 1 } else { u8::from(k == f.round_wind) + u8::from(k == f.seat_wind) })
        .sum()
}

/// isYaku beyond the winning shape: false when the hand's melds or tiles rule the yaku out in
/// a way the 21 suit-blind classes cannot show. The flushes are gated per suit in [`combination_value`].
pub fn gate(y: Yaku, f: &HandFacts) -> bool {
    let melds = f.melds;
    let all = f.all_counts();
    let (sanshoku, ittsu, iipeikou) = patterns(&all);
    let sets =
        (0..KINDS).filter(|&k| f.counts[k] >= 3).count() + melds.iter().filter(|m| !m.is_run()).count();
    let dragons: u32 = (31..34).map(|k| all[k].min(3) as u32).sum();
    match y {
        Pinfu | Iipeikou | Chiitoitsu | Kokushi if !f.closed() => false,
        Pinfu => true,
        Tanyao => !melds.iter().any(meld_has_yaochu),
        Chanta => melds.iter().all(meld_has_yaochu),
        Junchan => melds.iter().all(|m| meld_has_yaochu(m) && m.first_kind() < 27),
        Toitoi => !melds.iter().any(|m| m.is_run()) && sets >= 2,
        Honroutou => {
            let middle: u32 = (0..KINDS).filter(|&k| !is_yaochu(k)).map(|k| f.counts[k] as u32).sum();
            !melds.iter().any(|m| m.is_run() || !is_yaochu(m.first_kind())) && middle <= 3
        }
        Yakuhai => yakuhai_han(f) > 0,
        Honitsu | Chinitsu => true,
        Sanshoku => sanshoku >= PATTERN_MIN,
        Ittsu => ittsu >= PATTERN_MIN,
        Iipeikou => iipeikou >= 5,
        Sanankou => (0..KINDS).filter(|&k| f.counts[k] >= 3).count() >= 2,
        Shousangen => dragons >= 7,
        Chiitoitsu => melds.is_empty() && f.counts.iter().filter(|&&c| c >= 2).count() >= 4,
        Kokushi => melds.is_empty() && (0..KINDS).filter(|&k| is_yaochu(k) && f.counts[k] > 0).count() >= 9,
        Dora => f.dora > 0,
    }
}

/// Han(Y, isMenzen(ω)) on this hand: 飜牌 and ドラ counted, the rest from the table.
fn hand_han(y: Yaku, f: &HandFacts) -> f64 {
    match y {
        Yakuhai => yakuhai_han(f) as f64,
        Dora => f.dora as f64,
        _ => han(y, f.closed()) as f64,
    }
}

fn dot(w: &[f64; 21], v: &[u8]) -> f64 {
    w.iter().zip(v).map(|(w, &c)| w * c as f64).sum()
}

/// Σ over the suits and honor kinds of the best cut under weights `w[part]` (part 0-2 = suits,
/// 3 = honors), plus the melds (fixed pieces).
fn best_cut_value(f: &HandFacts, w: &[[f64; 21]; 4]) -> f64 {
    let mut total = 0.0;
    for s in 0..3 {
        let mut h = [0u8; 9];
        h.copy_from_slice(&f.counts[s * 9..s * 9 + 9]);
        let best = suit_cuts(&h).iter().map(|v| dot(&w[s], v)).fold(f64::NEG_INFINITY, f64::max);
        total += best;
    }
    for k in 27..KINDS {
        let (iso, pair) = if f.yakuhai(k) { (20, 6) } else { (19, 5) };
        let best = honor_cuts(f.counts[k])
            .iter()
            .map(|&(i, p, t)| w[3][iso] * i as f64 + w[3][pair] * p as f64 + w[3][3] * t as f64)
            .fold(f64::NEG_INFINITY, f64::max);
        total += best;
    }
    for m in f.melds {
        let k = m.first_kind();
        let part = (k / 9).min(3);
        let class = match (m.is_run(), k % 9 == 0 || k % 9 == 6, is_yaochu(k)) {
            (true, true, _) => 1,
            (true, false, _) => 0,
            (false, _, true) => 3,
            (false, _, false) => 2,
        };
        total += w[part][class];
    }
    total
}

/// Adds `scale × v` to `acc`.
fn add(acc: &mut [f64; 21], v: &[f64; 21], scale: f64) {
    acc.iter_mut().zip(v).for_each(|(a, b)| *a += scale * b);
}

/// The value of one combination: its gated yaku's Han × vec summed into one weight vector per
/// part, the flush (if any) tried in each suit where its gate holds; `None` when no yaku of the
/// combination holds.
fn combination_value(combo: &[Yaku], f: &HandFacts, han_gated: &[f64; YAKU_COUNT]) -> Option<f64> {
    let mut common = [0.0f64; 21];
    let mut flush: Option<(Yaku, f64)> = None;
    let mut any = false;
    for &y in combo {
        let h = han_gated[y as usize];
        if h <= 0.0 {
            continue;
        }
        if matches!(y, Honitsu | Chinitsu) {
            flush = Some((y, h));
        } else {
            add(&mut common, vector(y), h);
            any = true;
        }
    }
    let plain = any.then(|| best_cut_value(f, &[common; 4]));
    let Some((fy, fh)) = flush else { return plain };
    let honors_in = fy == Honitsu;
    let with_flush = (0..3)
        .filter(|&s| flush_gate(f, s, honors_in))
        .map(|s| {
            let mut w = [common; 4];
            for (part, wp) in w.iter_mut().enumerate() {
                let inside = part == s || (part == 3 && honors_in);
                add(wp, if inside { vector(fy) } else { &OFF_SUIT }, fh);
            }
            best_cut_value(f, &w)
        })
        .fold(None, |a: Option<f64>, x| Some(a.map_or(x, |a| a.max(x))));
    match (plain, with_flush) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// A flush in suit `s` is still possible: every meld in the suit (or an honor meld for 混一色)
/// and at most [`MAX_OFF_SUIT`] concealed tiles off it.
fn flush_gate(f: &HandFacts, s: usize, honors_in: bool) -> bool {
    let keeps = |k: Kind| k / 9 == s || (honors_in && k >= 27);
    let off: u32 = (0..KINDS).filter(|&k| !keeps(k)).map(|k| f.counts[k] as u32).sum();
    f.melds.iter().all(|m| keeps(m.first_kind())) && off <= MAX_OFF_SUIT
}

/// Number of [`Yaku`] variants.
const YAKU_COUNT: usize = vectors::ALL.len();

/// isYaku · Han of every yaku on this hand (0 when gated off), by `Yaku as usize`.
fn gated_han(f: &HandFacts) -> [f64; YAKU_COUNT] {
    vectors::ALL.map(|y| if gate(y, f) { hand_han(y, f) } else { 0.0 })
}

/// value(ω): the best combination of every winning shape (0 when no yaku holds at all).
pub fn hand_value(f: &HandFacts) -> f64 {
    let han_gated = gated_han(f);
    STANDARD
        .iter()
        .chain(&CHIITOI)
        .chain(&KOKUSHI)
        .filter_map(|c| combination_value(c, f, &han_gated))
        .fold(0.0, f64::max)
}

/// Ranks every distinct discard, best first, by [`hand_value`] of the hand after it; ties in the
/// ukeire evaluator's order (its shanten and ukeire are reported).
pub fn rank(pos: &View) -> Vec<RankedDiscard> {
    ukeire::rank_by_hand_after(pos, |after, dora| {
        let counts = after.counts();
        let f = HandFacts {
            counts: &counts,
            melds: &after.melds,
            round_wind: pos.round_wind,
            seat_wind: pos.seat_wind,
            dora,
        };
        hand_value(&f)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::Hand;
    use crate::tile::{counts_of, parse_mpsz, EAST};

    fn pos(h: &str, dora: &str) -> View {
        let ind = if dora.is_empty() { vec![] } else { parse_mpsz(dora).unwrap() };
        View::bare(Hand::parse(h).unwrap(), ind, EAST, EAST + 1)
    }

    fn top(h: &str) -> String {
        rank(&pos(h, ""))[0].tile.to_string()
    }

    /// 123456m under 断么九's vector: `melds21`'s one cut (123 + 456) is worth -1 + 1 = 0; the
    /// best of every cut is 1 + 234 + 56: -0.3 + 1 + 0.6 = 1.3 (the other cuts, listed by hand:
    /// 1 + 23 + 456 = 1.1, 1 + 234 + 5 + 6 = 1.0, 12 + 345 + 6 = 0.85, 135 + 246 = 0.75, ...).
    #[test]
    fn every_cut_finds_what_one_cut_misses() {
        let counts = counts_of(&parse_mpsz("123456m").unwrap());
        let f = HandFacts { counts: &counts, melds: &[], round_wind: EAST, seat_wind: EAST + 1, dora: 0 };
        let v = best_cut_value(&f, &[vectors::TANYAO; 4]);
        assert!((v - 1.3).abs() < 1e-9, "{v}");
        let one_cut = super::super::melds21::classify21(&counts, &[], EAST, EAST + 1);
        assert!(dot(&vectors::TANYAO, &one_cut).abs() < 1e-9);
    }

    /// The seed's lists: 15 + 2 + 1 combinations, no riichi anywhere, ドラ in every one but 国士,
    /// and no combination sums two incompatible yaku.
    #[test]
    fn combinations_are_the_seeds() {
        assert_eq!((STANDARD.len(), CHIITOI.len(), KOKUSHI.len()), (15, 2, 1));
        let exclusive =
            [(Honitsu, Chinitsu), (Pinfu, Toitoi), (Tanyao, Chanta), (Chanta, Junchan), (Pinfu, Yakuhai)];
        for c in STANDARD.iter().chain(&CHIITOI) {
            assert!(c.contains(&Dora), "{c:?}");
            for (a, b) in exclusive {
                assert!(!(c.contains(&a) && c.contains(&b)), "{c:?}");
            }
        }
        for y in [Pinfu, Junchan, Honroutou, Sanankou, Shousangen] {
            assert!(STANDARD.iter().any(|c| c.contains(&y)), "{y:?} missing");
        }
        assert!(vectors::ALL.iter().enumerate().all(|(i, &y)| y as usize == i));
    }

    #[test]
    fn flushes_and_pairs_pick_their_discard() {
        // 123 567 89m, 34p, West and North pairs: 混一色 throws a pinzu.
        assert!(["3p", "4p"].contains(&top("12356789m34p3344z").as_str()));
        // Six pairs and two singles: 七対子 throws a single.
        assert!(["3p", "6z"].contains(&top("1144m377p225599s6z").as_str()), "{}", top("1144m377p225599s6z"));
        // An isolated guest wind (North, South seat in the East round) goes first.
        assert_eq!(top("23467m345p56789s4z"), "4z");
    }

    /// Open hands lose the closed-only yaku (平和, 一盃口, 七対子, 国士) and the han drop.
    #[test]
    fn closed_only_yaku_need_a_closed_hand() {
        let h = Hand::parse("234m567p22s456s 678p").unwrap();
        let counts = h.counts();
        let f =
            HandFacts { counts: &counts, melds: &h.melds, round_wind: EAST, seat_wind: EAST + 1, dora: 0 };
        assert!(!gate(Pinfu, &f) && !gate(Chiitoitsu, &f) && gate(Tanyao, &f));
        let closed = Hand::parse("234m567p22s456s678p").unwrap();
        let cc = closed.counts();
        let g = HandFacts { counts: &cc, melds: &[], round_wind: EAST, seat_wind: EAST + 1, dora: 0 };
        assert!(gate(Pinfu, &g));
        assert!(hand_value(&g) > hand_value(&f));
    }
}
