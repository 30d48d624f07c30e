//! The yaku evaluation function (`--evaluator yaku`), after the Japanese mahjong-AI writing that
//! scores a hand by inner products over its 21-class meld / partial-meld vector.
//!
//! For the 13 tiles left after a discard:
//!
//! ```text
//! value = max over shapes (standard, chiitoitsu, kokushi) and, in the standard shape, over the
//!         yaku families Y:   isYaku(Y, hand) · Han(Y, closed) · max(0, vec(Y) · vec(hand) + head)
//!       + DORA_WEIGHT · dora held
//! ```
//!
//! - `vec(hand)` is [`classify21`] of the hand: the one decomposition that maximises
//!   `2 × melds + partials` (classify21 keeps only the best cut per suit, so there is no list of
//!   decompositions to maximise over; "the best decomposition" is the one it returns). The flush
//!   families use the vector of the in-suit part instead (see below).
//! - `vec(Y)` are hand-chosen weights per family ([`weights`]; the rationale is written next to
//!   each vector). They could be fitted with `haifu fit` later: the 21 counts are the `m21_*`
//!   columns of the ingest dataset.
//! - `isYaku(Y, hand)` is a 0/1 gate: melds that rule the yaku out (a terminal meld for tanyao,
//!   an open meld for closed-only yaku, a chi for toitoi, a meld of another suit for a flush), or
//!   fewer than 2 sets for toitoi, a hand too far from the yaku's suit pattern (sanshoku, ittsu: [`PATTERN_MIN`] of the 9
//!   pattern kinds held; iipeikou: 5 of the 6 tiles of a doubled run; flushes: at most
//!   [`MAX_OFF_SUIT`] tiles off the suit).
//! - `Han(Y, closed)` is Tenhou's han for the yaku, open or closed. The family "riichi" stands
//!   for what every closed hand has: riichi (1 han). Yakuhai counts 1 han per yakuhai kind held
//!   as a pair or better, a double wind twice.
//! - The max is clamped at 0 per family so a bad fit never turns a bigger han into a bigger
//!   penalty. An open hand with no yaku in reach scores only its dora.
//!
//! Three terms are not 21-class inner products and say so: [`HEAD_BONUS`] for holding a pair
//! (the vector alone cannot tell the head from a spare pair), the flush families subtract
//! [`OFF_SUIT_PENALTY`] per concealed tile off the suit (the 21 classes are blind to suits, and
//! "discard the off-suit tile" is the whole point of a flush), and the dora term is additive
//! (a han-like bonus kept small so shape still decides; ukeire's own tie-break keeps dora too).
//!
//! Options with equal value are ordered as the ukeire evaluator orders them (lowest shanten,
//! most ukeire, its fixed discard order), so the ranking is total.

use super::RankedDiscard;
use crate::hand::meld::Meld;
use crate::rank::max_ukeire as ukeire;
use crate::rank::melds21::classify21;
use crate::replay::view::View;
use crate::tile::{is_yaochu, Counts, Kind, KINDS};

/// The yaku families of the standard shape (chiitoitsu and kokushi are their own shapes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Tanyao,
    Yakuhai,
    /// Riichi / menzen, with pinfu-like weights: the yaku every closed hand can have.
    Riichi,
    Honitsu,
    Chinitsu,
    Toitoi,
    Chanta,
    Sanshoku,
    Ittsu,
    Iipeikou,
}

pub const FAMILIES: [Family; 10] = [
    Family::Tanyao,
    Family::Yakuhai,
    Family::Riichi,
    Family::Honitsu,
    Family::Chinitsu,
    Family::Toitoi,
    Family::Chanta,
    Family::Sanshoku,
    Family::Ittsu,
    Family::Iipeikou,
];

/// Value of one dora held, added to the yaku value (about a quarter of a han's worth at a
/// typical inner product of 2..4, so a dora breaks near-ties but does not outweigh a meld).
pub const DORA_WEIGHT: f64 = 0.5;
/// Subtracted from a flush family's inner product per concealed tile off the suit.
pub const OFF_SUIT_PENALTY: f64 = 0.4;
/// A flush is gated off when more concealed tiles than this are off the suit.
pub const MAX_OFF_SUIT: u32 = 3;
/// Sanshoku and ittsu are gated on this many of the pattern's 9 kinds held (one tile away). At 7
/// the gate opened on hands two specific tiles away and doubled their value over plain riichi.
pub const PATTERN_MIN: u32 = 8;
/// Added to every standard-shape family's inner product when the hand holds a pair. The 21-class
/// vector has no cap on pieces and no notion of "the head": without this term a hand that breaks
/// its only pair into two partials (66s 4s 7s -> 46s 67s) looks better than the tenpai it had.
pub const HEAD_BONUS: f64 = 0.35;

// Class order of `melds21::CLASS_NAMES`:
//   0 seq_mid 1 seq_term 2 set_mid 3 set_term 4 pair_mid 5 pair_term 6 pair_yakuhai
//   7 ryanmen_mid 8 ryanmen_edge 9 dkanchan_mid 10 dkanchan_term 11 kanchan_mid 12 kanchan_24
//   13 kanchan_13 14 penchan 15 iso_46 16 iso_37 17 iso_28 18 iso_19 19 iso_guest 20 iso_yakuhai

/// Plain hand progress, pinfu-leaning. A meld is worth 1; a run a little more than a set (sets
/// break pinfu); a pair 0.5 (one is needed, more are spare); partials by how many tiles finish
/// them (ryanmen 8, double kanchan 8, kanchan 4, penchan 4 but worse upgrades); isolated tiles by
/// how many partials they can grow into (4-6 best, honors worst: a guest wind only pairs).
const RIICHI: [f64; 21] = [
    1.0, 1.0, 0.9, 0.9, 0.5, 0.5, 0.5, //
    0.6, 0.55, 0.55, 0.5, 0.4, 0.4, 0.35, 0.3, //
    0.15, 0.12, 0.1, 0.05, 0.0, 0.02,
];

/// Tanyao: the plain values for 2..8 pieces; every piece holding a terminal or honor is a
/// debt (a terminal meld -1, a terminal pair -0.4, an isolated terminal/honor -0.3: it must go).
/// 23/78 ryanmen keep 0.4 (one side completes with a terminal); 135/579 double kanchan 0.2 and
/// 13/79 kanchan, 12/89 penchan are negative (they finish only with a terminal run).
const TANYAO: [f64; 21] = [
    1.0, -1.0, 1.0, -1.0, 0.6, -0.4, -0.4, //
    0.6, 0.4, 0.55, 0.2, 0.4, 0.4, -0.2, -0.3, //
    0.15, 0.12, 0.08, -0.3, -0.3, -0.3,
];

/// Yakuhai: the gate already holds the yakuhai pair/set, so the rest of the hand only needs to
/// be fast: plain progress, with the yakuhai pair itself worth 1 (it is the yaku's seed and a
/// second copy seen makes it a pon chance) and an isolated yakuhai a little more than a plain
/// honor (a second yakuhai pair is more han).
const YAKUHAI: [f64; 21] = [
    1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 1.0, //
    0.6, 0.55, 0.55, 0.5, 0.4, 0.4, 0.35, 0.3, //
    0.15, 0.12, 0.1, 0.05, 0.0, 0.1,
];

/// Flushes, applied to the in-suit part only (honors included for honitsu): every in-suit meld
/// and partial counts as in plain progress, sets as much as runs (flush hands pon freely),
/// honor pairs/isolated honors a little more (they are in-suit for honitsu). Off-suit tiles are
/// absent from this vector and cost [`OFF_SUIT_PENALTY`] each.
const FLUSH: [f64; 21] = [
    1.0, 1.0, 1.0, 1.0, 0.5, 0.55, 0.6, //
    0.6, 0.55, 0.55, 0.5, 0.4, 0.4, 0.35, 0.3, //
    0.15, 0.12, 0.1, 0.08, 0.05, 0.08,
];

/// Toitoi: sets are the yaku (1), pairs are its partials (0.45: two tiles finish one, fewer than
/// a kanchan's four, but a pair is also the head); runs and run partials are pieces that must be
/// broken up (negative or near zero); isolated tiles are all alike (they can only pair), 0.05.
/// Gated on at least 2 sets held: with pairs alone this is chiitoitsu's ground, and six pairs
/// are 3-shanten for toitoi.
const TOITOI: [f64; 21] = [
    -0.5, -0.5, 1.0, 1.0, 0.45, 0.45, 0.5, //
    -0.1, -0.1, -0.1, -0.1, 0.0, 0.0, 0.0, 0.0, //
    0.05, 0.05, 0.05, 0.05, 0.05, 0.05,
];

/// Chanta / junchan: every piece must hold a terminal or honor. Terminal runs and sets 1, middle
/// ones -0.6; terminal and honor pairs 0.6, middle pairs -0.2; partials that finish into 123/789
/// (penchan, kanchan 13/79, 135/579, 23/78) positive, middle partials negative; isolated
/// terminals and honors a little positive, isolated middles slightly negative.
const CHANTA: [f64; 21] = [
    -0.6, 1.0, -0.6, 1.0, -0.2, 0.6, 0.6, //
    -0.2, 0.3, -0.1, 0.3, -0.2, -0.1, 0.45, 0.45, //
    -0.1, 0.0, 0.05, 0.15, 0.1, 0.15,
];

/// Sanshoku, ittsu, iipeikou: run yaku. The gate has checked the suit pattern; the vector rewards
/// runs (1) and run partials (ryanmen 0.6, kanchan 0.45, penchan 0.35), values sets and pairs
/// lower than plain progress (a set is a run not made) and isolated tiles as in plain progress.
const RUNS: [f64; 21] = [
    1.0, 1.0, 0.6, 0.6, 0.45, 0.45, 0.5, //
    0.6, 0.55, 0.55, 0.5, 0.45, 0.45, 0.4, 0.35, //
    0.15, 0.12, 0.1, 0.05, 0.0, 0.02,
];

/// Chiitoitsu, its own shape, over (pairs, singles): a pair is worth less than a meld (6 pairs =
/// tenpai ≈ a standard tenpai hand's 3 melds + pair + partial ≈ 4.5 at 2 han vs 1), a single a
/// little (it may pair). Gated on at least 4 pairs.
pub const CHIITOITSU: [f64; 2] = [0.4, 0.05];
/// Kokushi, its own shape, over (yaochu kinds, has a yaochu pair, 1): 0.35 per step with a bias
/// so 10 steps (3-shanten) is barely positive (0.2) and tenpai (13) is 1.25, × 13 han.
pub const KOKUSHI: [f64; 3] = [0.35, 0.35, -3.3];

/// The hand-chosen weight vector of a standard-shape family.
pub fn weights(f: Family) -> &'static [f64; 21] {
    match f {
        Family::Tanyao => &TANYAO,
        Family::Yakuhai => &YAKUHAI,
        Family::Riichi => &RIICHI,
        Family::Honitsu | Family::Chinitsu => &FLUSH,
        Family::Toitoi => &TOITOI,
        Family::Chanta => &CHANTA,
        Family::Sanshoku | Family::Ittsu | Family::Iipeikou => &RUNS,
    }
}

/// Tenhou's han for the family (kuitan on): closed value, open value (0 = closed only).
/// Yakuhai's han depends on the hand and is computed in [`yakuhai_han`].
pub fn han(f: Family, closed: bool) -> u8 {
    let (c, o) = match f {
        Family::Tanyao => (1, 1),
        Family::Yakuhai => (1, 1),
        Family::Riichi => (1, 0),
        Family::Honitsu => (3, 2),
        Family::Chinitsu => (6, 5),
        Family::Toitoi => (2, 2),
        Family::Chanta => (2, 1),
        Family::Sanshoku => (2, 1),
        Family::Ittsu => (2, 1),
        Family::Iipeikou => (1, 0),
    };
    if closed {
        c
    } else {
        o
    }
}

pub const CHIITOITSU_HAN: u8 = 2;
pub const KOKUSHI_HAN: u8 = 13;

fn dot(w: &[f64; 21], v: &[u8; 21]) -> f64 {
    w.iter().zip(v).map(|(w, &c)| w * c as f64).sum()
}

/// [`HEAD_BONUS`] when the vector holds a pair (classes 4..=6).
fn head(v: &[u8; 21]) -> f64 {
    if v[4] + v[5] + v[6] > 0 {
        HEAD_BONUS
    } else {
        0.0
    }
}

/// Whether a meld holds a terminal or honour (a run 123 / 789, or a set of 1, 9 or an honour):
/// the chanta / junchan condition both yaku evaluators test.
pub(crate) fn meld_has_yaochu(m: &Meld) -> bool {
    let k = m.first_kind();
    if m.is_run() {
        k % 9 == 0 || k % 9 == 6
    } else {
        is_yaochu(k)
    }
}

/// Suit of a kind: 0 m, 1 p, 2 s, 3 honors.
fn suit_of(k: Kind) -> usize {
    k / 9
}

/// Han of yakuhai: one per yakuhai kind held as a concealed pair or more, or as a set meld; a
/// double wind (round = seat) counts twice.
fn yakuhai_han(counts: &Counts, melds: &[Meld], round_wind: Kind, seat_wind: Kind) -> u8 {
    (27..KINDS)
        .filter(|&k| counts[k] >= 2 || melds.iter().any(|m| !m.is_run() && m.first_kind() == k))
        .map(|k| if k >= 31 { 1 } else { u8::from(k == round_wind) + u8::from(k == seat_wind) })
        .sum()
}

/// All tiles of the hand by kind, concealed and melded (a kan counts 3, enough for patterns).
fn all_counts(counts: &Counts, melds: &[Meld]) -> Counts {
    let mut all = *counts;
    for m in melds {
        for t in m.tiles().iter().take(3) {
            all[t.kind()] += 1;
        }
    }
    all
}

/// Most distinct kinds held of one sanshoku pattern (run n in all three suits), 0..=9.
fn sanshoku_tiles(all: &Counts) -> u32 {
    (0..7).map(|n| count_kinds(all, n)).max().unwrap_or(0)
}

fn count_kinds(all: &Counts, n: usize) -> u32 {
    (0..3).flat_map(|s| (0..3).map(move |i| s * 9 + n + i)).filter(|&k| all[k] > 0).count() as u32
}

/// Most distinct kinds held of one ittsu pattern (1..9 of a suit), 0..=9.
fn ittsu_tiles(all: &Counts) -> u32 {
    (0..3).map(|s| (0..9).filter(|&i| all[s * 9 + i] > 0).count() as u32).max().unwrap_or(0)
}

/// Closed hand: the best doubled run's held tiles, min(copies, 2) over its 3 kinds, 0..=6.
fn iipeikou_tiles(counts: &Counts) -> u32 {
    (0..3)
        .flat_map(|s| (0..7).map(move |n| s * 9 + n))
        .map(|k| (0..3).map(|i| counts[k + i].min(2) as u32).sum())
        .max()
        .unwrap_or(0)
}

/// The gated inner product of one flush suit: `None` when the flush is ruled out.
fn flush_value(
    counts: &Counts,
    melds: &[Meld],
    suit: usize,
    honors: bool,
    round_wind: Kind,
    seat_wind: Kind,
) -> Option<f64> {
    let keeps = |k: Kind| suit_of(k) == suit || (honors && suit_of(k) == 3);
    if !melds.iter().all(|m| keeps(m.first_kind())) {
        return None;
    }
    let mut inside = [0u8; KINDS];
    let mut off = 0u32;
    for k in 0..KINDS {
        if keeps(k) {
            inside[k] = counts[k];
        } else {
            off += counts[k] as u32;
        }
    }
    if off > MAX_OFF_SUIT {
        return None;
    }
    let v = classify21(&inside, melds, round_wind, seat_wind);
    Some(dot(&FLUSH, &v) + head(&v) - OFF_SUIT_PENALTY * off as f64)
}

/// Value of each standard-shape family for the hand (`counts` concealed, after the discard):
/// `isYaku · Han · max(0, vec(Y) · vec(hand) + head)`, 0 when gated off. Dora not included.
pub fn family_values(
    counts: &Counts,
    melds: &[Meld],
    round_wind: Kind,
    seat_wind: Kind,
) -> Vec<(Family, f64)> {
    let closed = melds.iter().all(|m| !m.is_open());
    let v = classify21(counts, melds, round_wind, seat_wind);
    let all = all_counts(counts, melds);
    FAMILIES
        .iter()
        .map(|&f| {
            let h = match f {
                Family::Yakuhai => yakuhai_han(counts, melds, round_wind, seat_wind),
                _ => han(f, closed),
            };
            let gate = h > 0
                && match f {
                    Family::Tanyao => !melds.iter().any(meld_has_yaochu),
                    Family::Chanta => melds.iter().all(meld_has_yaochu),
                    Family::Toitoi => !melds.iter().any(|m| m.is_run()) && v[2] + v[3] >= 2,
                    Family::Sanshoku => sanshoku_tiles(&all) >= PATTERN_MIN,
                    Family::Ittsu => ittsu_tiles(&all) >= PATTERN_MIN,
                    Family::Iipeikou => iipeikou_tiles(counts) >= 5,
                    Family::Yakuhai | Family::Riichi | Family::Honitsu | Family::Chinitsu => true,
                };
            if !gate {
                return (f, 0.0);
            }
            let ip = match f {
                Family::Honitsu | Family::Chinitsu => {
                    let honors = f == Family::Honitsu;
                    (0..3)
                        .filter_map(|s| flush_value(counts, melds, s, honors, round_wind, seat_wind))
                        .fold(f64::NEG_INFINITY, f64::max)
                }
                _ => dot(weights(f), &v) + head(&v),
            };
            (f, h as f64 * ip.max(0.0))
        })
        .collect()
}

/// Chiitoitsu value: 2 han × (pairs, singles) · [`CHIITOITSU`], gated on no melds and 4+ pairs.
fn chiitoitsu_value(counts: &Counts, melds: &[Meld]) -> f64 {
    if !melds.is_empty() {
        return 0.0;
    }
    let pairs = counts.iter().filter(|&&c| c >= 2).count() as f64;
    let singles = counts.iter().filter(|&&c| c == 1).count() as f64;
    if pairs < 4.0 {
        return 0.0;
    }
    CHIITOITSU_HAN as f64 * (CHIITOITSU[0] * pairs + CHIITOITSU[1] * singles).max(0.0)
}

/// Kokushi value: 13 han × (yaochu kinds, yaochu pair, 1) · [`KOKUSHI`], gated on no melds.
fn kokushi_value(counts: &Counts, melds: &[Meld]) -> f64 {
    if !melds.is_empty() {
        return 0.0;
    }
    let yao = (0..KINDS).filter(|&k| is_yaochu(k));
    let kinds = yao.clone().filter(|&k| counts[k] > 0).count() as f64;
    let pair = f64::from(u8::from(yao.clone().any(|k| counts[k] >= 2)));
    KOKUSHI_HAN as f64 * (KOKUSHI[0] * kinds + KOKUSHI[1] * pair + KOKUSHI[2]).max(0.0)
}

/// The yaku value of a hand after its discard: `counts` the concealed tiles (3n+1), `melds` the
/// hand's melds, `dora` the number of dora held (concealed and melded, red fives included; the
/// caller counts them because counts lose the red flag). See the module doc for the formula.
pub fn hand_score(counts: &Counts, melds: &[Meld], round_wind: Kind, seat_wind: Kind, dora: u32) -> f64 {
    let standard =
        family_values(counts, melds, round_wind, seat_wind).into_iter().map(|(_, x)| x).fold(0.0, f64::max);
    let best = standard.max(chiitoitsu_value(counts, melds)).max(kokushi_value(counts, melds));
    best + DORA_WEIGHT * dora as f64
}

/// Ranks every distinct discard, best first, by [`hand_score`] of the hand after it; ties in the
/// ukeire evaluator's order. `score` is the yaku value; shanten and ukeire are the ukeire
/// evaluator's.
pub fn rank(pos: &View) -> Vec<RankedDiscard> {
    ukeire::rank_by_hand_after(pos, |after, dora| {
        hand_score(&after.counts(), &after.melds, pos.round_wind, pos.seat_wind, dora)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::Hand;
    use crate::tile::{parse_mpsz, EAST};

    /// East round, South seat: East and the dragons are yakuhai, West and North are guests.
    fn pos(h: &str, dora: &str) -> View {
        let ind = if dora.is_empty() { vec![] } else { parse_mpsz(dora).unwrap() };
        View::bare(Hand::parse(h).unwrap(), ind, EAST, EAST + 1)
    }

    fn show(r: &[RankedDiscard]) -> String {
        r.iter()
            .map(|o| format!("{}:{:.2}/{}/{}", o.tile, o.score, o.shanten, o.ukeire))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn position_of(r: &[RankedDiscard], tile: &str) -> usize {
        r.iter().position(|o| o.tile.to_string() == tile).unwrap_or_else(|| panic!("{tile} in {}", show(r)))
    }

    fn after(h: &str) -> (Counts, Vec<Meld>) {
        let h = Hand::parse(h).unwrap();
        (h.counts(), h.melds)
    }

    #[test]
    fn honitsu_discards_the_off_suit_tile() {
        // 123 567 89m, 34p, West pair, North pair (both guest winds: no yakuhai).
        let p = pos("12356789m34p3344z", "");
        let r = rank(&p);
        assert!(["3p", "4p"].contains(&r[0].tile.to_string().as_str()), "{}", show(&r));
        // The ukeire evaluator breaks an honor pair instead (more tiles for the 34p ryanmen).
        assert_eq!(ukeire::rank(&p)[0].tile.to_string(), "3z");
        // By hand, after 3p: honitsu in manzu sees 12356789m + 3344z cut as 123 (seq_term),
        // 567 (seq_mid), 89 (penchan; 56 + 789 ties on score and melds, the earlier class
        // wins), 33z and 44z (pair_term, guest winds). FLUSH · v = 1 + 1 + 0.3 + 2 × 0.55 = 3.4;
        // + head 0.35; - 0.4 for the one off-suit tile (4p) = 3.35; × 3 han (closed) = 10.05.
        // Riichi on the whole hand: 1 + 1 + 0.3 + 0.5 + 0.5 + 0.15 (4p iso_46) + 0.35 = 3.8 × 1.
        let (c, m) = after("12356789m4p3344z");
        assert!((hand_score(&c, &m, EAST, EAST + 1, 0) - 10.05).abs() < 1e-9);
        assert!((r[0].score - 10.05).abs() < 1e-9);
    }

    #[test]
    fn open_tanyao_discards_the_terminal() {
        // Chi 345s: tanyao is the only yaku. 79s can only finish as 789s, so 9s goes; the
        // ukeire evaluator cuts 2p (keeping the kanchan's 8s tiles).
        let p = pos("234m66s79s2468p 345s", "");
        assert_eq!(rank(&p)[0].tile.to_string(), "9s", "{}", show(&rank(&p)));
        assert_eq!(ukeire::rank(&p)[0].tile.to_string(), "2p");
    }

    #[test]
    fn open_hand_keeps_its_yakuhai_pair() {
        // Chi 234p; the white-dragon pair is the only yaku. 99m and 55z are alike for ukeire
        // (12 tiles either way), and its fixed order cuts the honor first; the yaku evaluator
        // keeps 55z and ranks 5z last.
        let p = pos("567m46p99m55z78s 234p", "");
        let r = rank(&p);
        let u = ukeire::rank(&p);
        assert_eq!(u[0].tile.to_string(), "5z");
        assert!(position_of(&r, "9m") < position_of(&r, "5z"), "{}", show(&r));
        assert_eq!(r.last().unwrap().tile.to_string(), "5z", "{}", show(&r));
        // By hand, after 9m: seq_mid 2 (567m, chi 234p), kanchan_mid 1 (46p), ryanmen_edge 1
        // (78s), pair_yakuhai 1, iso_19 1 (9m). Yakuhai: 1 + 1 + 0.4 + 0.55 + 1.0 + 0.05 + head
        // 0.35 = 4.35 × 1 han. Tanyao (the chi allows it): 1 + 1 + 0.4 + 0.4 - 0.4 - 0.3 + 0.35 =
        // 2.45. Riichi is closed only, toitoi / chanta / flushes are gated off.
        let (c, m) = after("567m46p9m55z78s 234p");
        let v = family_values(&c, &m, EAST, EAST + 1);
        let get = |f: Family| v.iter().find(|x| x.0 == f).unwrap().1;
        assert!((get(Family::Yakuhai) - 4.35).abs() < 1e-9, "{v:?}");
        assert!((get(Family::Tanyao) - 2.45).abs() < 1e-9, "{v:?}");
        for f in [Family::Riichi, Family::Toitoi, Family::Chanta, Family::Honitsu, Family::Chinitsu] {
            assert_eq!(get(f), 0.0, "{f:?}");
        }
        assert!((hand_score(&c, &m, EAST, EAST + 1, 0) - 4.35).abs() < 1e-9);
    }

    #[test]
    fn chiitoitsu_and_kokushi_shapes() {
        // Six pairs: 2 han × (0.4 × 6 pairs + 0.05 × 1 single) = 4.9 after cutting 4z (North,
        // guest) or 1z. Standard families: riichi 6 × 0.5 + 0.35 = 3.35; toitoi gated (no set).
        let r = rank(&pos("1133m5577p2299s14z", ""));
        assert!(["1z", "4z"].contains(&r[0].tile.to_string().as_str()), "{}", show(&r));
        assert!((r[0].score - 4.9).abs() < 1e-9, "{}", show(&r));
        // Thirteen yaochu kinds and a 5m: 13 han × (0.35 × 13 - 3.3) = 16.25 after cutting 5m.
        let r = rank(&pos("19m19p19s1234567z5m", ""));
        assert_eq!(r[0].tile.to_string(), "5m");
        assert!((r[0].score - 16.25).abs() < 1e-9, "{}", show(&r));
    }

    #[test]
    fn dora_counts_red_indicated_and_melded() {
        // 8s indicator: 9s is dora, held once concealed and once in the chi 789s; 0p is red.
        let with = rank(&pos("123m406p59s11z2z 789s", "8s"));
        let without = rank(&pos("123m406p59s11z2z 789s", ""));
        let diff = |t: &str| with[position_of(&with, t)].score - without[position_of(&without, t)].score;
        // The indicator adds the 9s dora left in hand: 2 after 2z, 1 after 9s, 2 after 0p.
        assert!((diff("2z") - 2.0 * DORA_WEIGHT).abs() < 1e-9);
        assert!((diff("9s") - DORA_WEIGHT).abs() < 1e-9);
        assert!((diff("0p") - 2.0 * DORA_WEIGHT).abs() < 1e-9);
        // and the red five counts without any indicator: 3 dora after 2z in all.
        let (c, m) = after("123m406p59s11z 789s");
        let z = with[position_of(&with, "2z")].score;
        assert!((z - hand_score(&c, &m, EAST, EAST + 1, 0) - 3.0 * DORA_WEIGHT).abs() < 1e-9);
    }

    #[test]
    fn ties_follow_the_ukeire_order() {
        for h in ["12356789m34p3344z", "567m46p99m55z78s 234p", "1133m5577p2299s14z", "123m456p789s1s2z3z11z"]
        {
            let p = pos(h, "");
            let r = rank(&p);
            let u = ukeire::rank(&p);
            assert_eq!(r.len(), p.full_hand().distinct_tiles().len());
            for w in r.windows(2) {
                if w[0].score == w[1].score {
                    let (a, b) =
                        (position_of(&u, &w[0].tile.to_string()), position_of(&u, &w[1].tile.to_string()));
                    assert!(a < b, "{h}: {}", show(&r));
                }
            }
            // shanten and ukeire are the ukeire evaluator's
            for o in &r {
                let x = &u[position_of(&u, &o.tile.to_string())];
                assert_eq!((o.shanten, o.ukeire), (x.shanten, x.ukeire));
            }
        }
    }

    /// Cost per position on kobalab's real hands (0..=6 shanten). Run with
    /// `cargo test --lib yaku_eval::tests::timing -- --ignored --nocapture`.
    #[test]
    #[ignore = "a timing, run by hand (see the doc comment): a debug-build figure, not a check"]
    fn timing() {
        let positions = crate::rank::expected_value::tests::kobalab_positions(0, 6, 4000);
        assert!(!positions.is_empty(), "kobalab data missing");
        for p in positions.iter().take(200) {
            std::hint::black_box(rank(p)); // warm the memo tables
        }
        let t = std::time::Instant::now();
        for p in &positions {
            std::hint::black_box(rank(p));
        }
        let yaku = t.elapsed().as_secs_f64() * 1e6 / positions.len() as f64;
        let t = std::time::Instant::now();
        for p in &positions {
            std::hint::black_box(ukeire::rank(p));
        }
        let base = t.elapsed().as_secs_f64() * 1e6 / positions.len() as f64;
        println!("{} positions: yaku {yaku:.1} µs per position (ukeire alone {base:.1} µs)", positions.len());
    }

    /// Top-1 agreement with the recorded discards of real Tenhou games, yaku vs ukeire. Run with
    /// `cargo test --lib yaku_eval::tests::agreement_on_real_games -- --ignored --nocapture`.
    #[test]
    #[ignore = "a study over the whole shared corpus (minutes in a debug build), run by hand: it prints figures"]
    fn agreement_on_real_games() {
        use crate::replay::decision::{Action, DecisionKind, DecisionRecorder};
        let dir = crate::testdata::need_file("tenhou");
        let batch = crate::batch::load_all(&[dir]);
        let (mut n, mut yaku, mut uke, mut sy) = (0, 0, 0, 0);
        let (mut open_n, mut open_yaku, mut open_uke) = (0, 0, 0);
        for g in batch.games.iter().take(200) {
            let mut rec = DecisionRecorder::new();
            if crate::replay::replay_game(g, &mut rec, &mut crate::replay::NoWinCheck).is_err() {
                continue;
            }
            for d in rec.take().iter().filter(|d| d.kind == DecisionKind::Discard && d.chosen_listed) {
                let Action::Discard(chosen) = d.options[d.chosen] else { continue };
                let view = crate::replay::view::view_of(&d.table, d.seat, d.table.hand_tiles(d.seat));
                let r = rank(&view);
                let hit_y = r[0].tile == chosen;
                // For comparison only: lowest shanten first, then the yaku value (not the brief's
                // evaluator; a hint of what a shanten guard would add).
                let min_sh = r.iter().map(|o| o.shanten).min().unwrap_or(0);
                sy += usize::from(r.iter().find(|o| o.shanten == min_sh).is_some_and(|o| o.tile == chosen));
                let hit_u = ukeire::rank(&view)[0].tile == chosen;
                n += 1;
                yaku += usize::from(hit_y);
                uke += usize::from(hit_u);
                if !view.full_hand().is_closed() {
                    open_n += 1;
                    open_yaku += usize::from(hit_y);
                    open_uke += usize::from(hit_u);
                }
            }
        }
        assert!(n > 0);
        let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
        println!(
            "{n} discards: yaku {:.1}%, ukeire {:.1}%, shanten-then-yaku {:.1}%; open hands ({open_n}): \
             yaku {:.1}%, ukeire {:.1}%",
            pct(yaku, n),
            pct(uke, n),
            pct(sy, n),
            pct(open_yaku, open_n),
            pct(open_uke, open_n)
        );
    }
}
