//! Yaku potential after the discard: how far each common yaku is, measured against the plain
//! standard-form shanten so the columns say "how much slower is this yaku than any hand".
//!
//! Gaps: `<yaku>_gap` = shanten restricted to that yaku's shape ([`Shape`]) minus the standard
//! shanten, clamped to [`GAP_DEAD`]. When a meld already rules the yaku out the gap is
//! `GAP_DEAD` and the `_dead` flag (where there is one) is 1: the restricted DP only counts
//! melds, it cannot see what they hold. Ruled out: tanyao by any meld (closed kans included)
//! holding a terminal or honor; toitoi by a chi; a flush by a meld of another suit (a full
//! flush also by an honor meld); chanta by a meld without a terminal or honor; chiitoitsu by
//! any meld.
//!
//! `open_no_yaku` (open hand that has no yaku in reach), precisely: some meld is open, and none
//! of these holds: a yakuhai set held (concealed triplet or meld of a yakuhai kind); a yakuhai
//! pair held with at least one copy unseen; tanyao, honitsu, toitoi or chanta alive with gap
//! <= 1; 7 or more of the 9 tiles of a sanshoku or ittsu pattern held.

use super::column::Cols;
use super::facts::{After, Facts};
use crate::hand::meld::MeldKind;
use crate::hand::shanten::{chiitoitsu, Shape, ShapeBase};
use crate::tile::{is_yaochu, Counts, KINDS};

/// Gap given to a yaku that is impossible, and the clamp of every gap.
pub const GAP_DEAD: i8 = 6;

pub(crate) const COLUMNS: &[(&str, &str)] = &[
    ("yakuhai_pairs", "concealed pairs of yakuhai kinds, a double wind counted twice"),
    ("yakuhai_sets", "yakuhai triplets held (concealed 3+ or melds), a double wind counted twice"),
    ("tanyao_gap", "tanyao-only shanten minus standard shanten, clamped to 6; 6 when a meld breaks tanyao"),
    ("tanyao_dead", "a meld holds a terminal or honor"),
    ("yaochu_tiles", "concealed terminal and honor tiles after the discard"),
    ("honitsu_gap", "best half-flush shanten minus standard shanten over suits still possible, clamped to 6"),
    (
        "chinitsu_gap",
        "best full-flush shanten minus standard shanten over suits still possible, clamped to 6",
    ),
    ("flush_dead", "melds of two suits: no flush possible"),
    ("chiitoitsu_gap", "chiitoitsu shanten minus standard shanten (may be negative); 6 when open"),
    ("kokushi_missing", "terminal and honor kinds missing from the concealed hand; 13 when melded"),
    ("toitoi_sets", "triplets held: concealed 3+ of a kind plus pon and kan melds"),
    ("toitoi_pairs", "concealed kinds held exactly twice"),
    ("toitoi_gap", "sets-and-pair-only shanten minus standard shanten, clamped to 6; 6 when a chi is melded"),
    ("sanshoku_tiles", "tiles held of the best sanshoku pattern (3 suits x 3), 0-9, a matching chi counts 3"),
    (
        "ittsu_tiles",
        "tiles held of the best ittsu pattern (123 456 789 of a suit), 0-9, a matching chi counts 3",
    ),
    (
        "chanta_gap",
        "chanta-only shanten minus standard shanten, clamped to 6; 6 when a meld lacks a terminal/honor",
    ),
    (
        "iipeikou_tiles",
        "closed hand: tiles held of the best doubled run (min(copies, 2) over its 3 kinds), 0-6",
    ),
    ("menzen", "no open meld"),
    ("open_no_yaku", "open hand with no yaku in reach (see the module doc)"),
];

fn gap(restricted: Option<i8>, standard: i8, dead: bool) -> i8 {
    match restricted {
        Some(r) if !dead => (r - standard).min(GAP_DEAD),
        _ => GAP_DEAD,
    }
}

/// Per-decision meld facts for the yaku columns.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MeldFacts {
    tanyao_dead: bool,
    toitoi_dead: bool,
    chanta_dead: bool,
    /// Bit s set: a meld of suit s (0..=2) exists; bit 3: an honor meld.
    suits: u8,
    yakuhai_sets: u8,
    sets: u8,
    /// Chi melds as bit sets of their first kind.
    chis: u32,
}

impl MeldFacts {
    pub(crate) fn new(ctx: &Facts) -> MeldFacts {
        let mut f = MeldFacts::default();
        for m in &ctx.view.melds {
            let k = m.first_kind();
            let has_yaochu = m.tiles().iter().any(|t| is_yaochu(t.kind()));
            f.tanyao_dead |= has_yaochu;
            f.chanta_dead |= !has_yaochu;
            f.suits |= 1 << (k / 9).min(3);
            if m.kind == MeldKind::Chi {
                f.toitoi_dead = true;
                f.chis |= 1 << k;
            } else {
                f.sets += 1;
                f.yakuhai_sets += ctx.yakuhai[k];
            }
        }
        f
    }
}

fn pattern_tiles(counts: &Counts, chis: u32, first: usize) -> u8 {
    if chis >> first & 1 == 1 {
        3
    } else {
        (0..3).filter(|&i| counts[first + i] > 0).count() as u8
    }
}

/// Tiles of the best sanshoku pattern held (0..=9).
pub fn sanshoku_tiles(counts: &Counts, chis: u32) -> u8 {
    (0..7).map(|n| (0..3).map(|s| pattern_tiles(counts, chis, s * 9 + n)).sum::<u8>()).max().unwrap_or(0)
}

/// Tiles of the best ittsu pattern held (0..=9).
pub fn ittsu_tiles(counts: &Counts, chis: u32) -> u8 {
    (0..3)
        .map(|s| [0, 3, 6].iter().map(|&n| pattern_tiles(counts, chis, s * 9 + n)).sum::<u8>())
        .max()
        .unwrap_or(0)
}

/// Tiles of the best doubled run held, 0..=6.
pub fn iipeikou_tiles(counts: &Counts) -> u8 {
    (0..27)
        .filter(|k| k % 9 <= 6)
        .map(|k| (0..3).map(|i| counts[k + i].min(2)).sum::<u8>())
        .max()
        .unwrap_or(0)
}

/// The restricted shapes of one decision's hand, each built once so that every option (the hand
/// less one tile) shares the suits its discard leaves alone ([`ShapeBase`]).
#[derive(Clone, Debug)]
pub(crate) struct Shapes {
    standard: ShapeBase,
    tanyao: ShapeBase,
    half_flush: [ShapeBase; 3],
    full_flush: [ShapeBase; 3],
    toitoi: ShapeBase,
    chanta: ShapeBase,
}

impl Shapes {
    pub(crate) fn new(ctx: &Facts) -> Shapes {
        let base = |shape| ShapeBase::new(&ctx.hand, shape);
        Shapes {
            standard: base(Shape::Standard),
            tanyao: base(Shape::Tanyao),
            half_flush: [0, 1, 2].map(|s| base(Shape::HalfFlush(s))),
            full_flush: [0, 1, 2].map(|s| base(Shape::FullFlush(s))),
            toitoi: base(Shape::Toitoi),
            chanta: base(Shape::Chanta),
        }
    }
}

pub(crate) fn fill(ctx: &Facts, mf: &MeldFacts, shapes: &Shapes, a: &After, cols: &mut Cols) {
    let c = &a.counts;
    let melds = ctx.view.melds.len();
    let with = |base: &ShapeBase| base.with_suit_changed(c, a.discard.kind(), melds);
    let std_s = with(&shapes.standard).unwrap_or(GAP_DEAD);
    let (mut y_pairs, mut y_sets, mut pair_reachable) = (0u8, mf.yakuhai_sets, false);
    let (mut sets, mut pairs) = (mf.sets, 0u8);
    for k in 0..KINDS {
        match c[k] {
            2 => {
                pairs += 1;
                y_pairs += ctx.yakuhai[k];
                pair_reachable |= ctx.yakuhai[k] > 0 && ctx.seen[k] < 4;
            }
            3 | 4 => {
                sets += 1;
                y_sets += ctx.yakuhai[k];
            }
            _ => {}
        }
    }
    cols.put("yakuhai_pairs", y_pairs as f32);
    cols.put("yakuhai_sets", y_sets as f32);
    let tanyao = gap(with(&shapes.tanyao), std_s, mf.tanyao_dead);
    cols.put("tanyao_gap", tanyao as f32);
    cols.flag("tanyao_dead", mf.tanyao_dead);
    cols.put("yaochu_tiles", (0..KINDS).filter(|&k| is_yaochu(k)).map(|k| c[k] as u32).sum::<u32>() as f32);
    let (mut honitsu, mut chinitsu) = (GAP_DEAD, GAP_DEAD);
    let meld_suits = mf.suits & 0b111;
    for s in 0..3u8 {
        if meld_suits & !(1 << s) != 0 {
            continue;
        }
        honitsu = honitsu.min(gap(with(&shapes.half_flush[s as usize]), std_s, false));
        // concealed honors only slow a full flush (the DP cannot use them); an honor meld kills it
        let full_dead = mf.suits & 0b1000 != 0;
        chinitsu = chinitsu.min(gap(with(&shapes.full_flush[s as usize]), std_s, full_dead));
    }
    let flush_dead = meld_suits.count_ones() >= 2;
    cols.put("honitsu_gap", honitsu as f32);
    cols.put("chinitsu_gap", chinitsu as f32);
    cols.flag("flush_dead", flush_dead);
    let chiitoi = if melds == 0 { chiitoitsu(c).map(|s| (s - std_s).min(GAP_DEAD)) } else { None };
    cols.put("chiitoitsu_gap", chiitoi.unwrap_or(GAP_DEAD) as f32);
    let missing = if melds == 0 { (0..KINDS).filter(|&k| is_yaochu(k) && c[k] == 0).count() } else { 13 };
    cols.put("kokushi_missing", missing as f32);
    cols.put("toitoi_sets", sets as f32);
    cols.put("toitoi_pairs", pairs as f32);
    let toitoi = gap(with(&shapes.toitoi), std_s, mf.toitoi_dead);
    cols.put("toitoi_gap", toitoi as f32);
    let sanshoku = sanshoku_tiles(c, mf.chis);
    let ittsu = ittsu_tiles(c, mf.chis);
    cols.put("sanshoku_tiles", sanshoku as f32);
    cols.put("ittsu_tiles", ittsu as f32);
    let chanta = gap(with(&shapes.chanta), std_s, mf.chanta_dead);
    cols.put("chanta_gap", chanta as f32);
    cols.put("iipeikou_tiles", if ctx.open { 0.0 } else { iipeikou_tiles(c) as f32 });
    cols.flag("menzen", !ctx.open);
    let in_reach = y_sets > 0
        || pair_reachable
        || (!mf.tanyao_dead && tanyao <= 1)
        || (!flush_dead && honitsu <= 1)
        || (!mf.toitoi_dead && toitoi <= 1)
        || (!mf.chanta_dead && chanta <= 1)
        || sanshoku >= 7
        || ittsu >= 7;
    cols.flag("open_no_yaku", ctx.open && !in_reach);
}

#[cfg(test)]
mod tests {
    use crate::features::facts::tests_support::{get, row};

    #[test]
    fn yakuhai_double_wind_counts_twice() {
        // East round, East seat: 11z is a double-wind pair (2), 555z a white triplet (1).
        let r = row("234m567p34s11z555z9s", "9s", 27, 27);
        assert_eq!(get(&r, "yakuhai_pairs"), 2.0);
        assert_eq!(get(&r, "yakuhai_sets"), 1.0);
        assert_eq!(get(&r, "menzen"), 1.0);
        assert_eq!(get(&r, "open_no_yaku"), 0.0);
    }

    #[test]
    fn tanyao_and_open_no_yaku() {
        // Open: chi 234m. Concealed 567p 345s 67s 9m 1z 8p; after 1z: 567p 345s 67s 8p 9m (10 tiles).
        // Standard shanten: 3 melds (234m chi, 567p, 345s) + 67s partial, 8p and 9m singles, no pair
        // -> 1 meld short, no pair: shanten 1 (67s gives the 4th meld, then tanki).
        // Tanyao-only: 9m unusable -> the tanyao DP must do without it: 567p 345s 67s 8p
        // still 1 (67s -> meld, 8p tanki) -> gap 0: tanyao in reach, so not open_no_yaku.
        let r = row("567p345s67s9m1z8p 234m", "1z", 27, 28);
        assert_eq!(get(&r, "shanten_standard"), 1.0);
        assert_eq!(get(&r, "tanyao_gap"), 0.0);
        assert_eq!(get(&r, "tanyao_dead"), 0.0);
        assert_eq!(get(&r, "menzen"), 0.0);
        assert_eq!(get(&r, "open_no_yaku"), 0.0);
        // Chi 123m instead kills tanyao (gap 6, dead). Concealed 567p 345s 67s 9m 1z 8p with the
        // 1z discarded: no yakuhai; honitsu must be manzu (only 9m held: far); toitoi dead (chi);
        // chanta far (567p, 345s). Sanshoku best: 567 -> m 0 + p 3 + s 3 (5s 6s 7s) = 6;
        // ittsu best: s 123 (3s) 1 + 456 3 + 789 (7s) 1 = 5. Both < 7 -> open_no_yaku.
        let r = row("567p345s67s9m1z8p 123m", "1z", 27, 28);
        assert_eq!(get(&r, "tanyao_gap"), 6.0);
        assert_eq!(get(&r, "tanyao_dead"), 1.0);
        assert_eq!(get(&r, "sanshoku_tiles"), 6.0);
        assert_eq!(get(&r, "open_no_yaku"), 1.0);
    }

    #[test]
    fn closed_kan_of_terminals_kills_tanyao() {
        // Closed kan of 1m keeps the hand closed but no tanyao hand can hold it.
        let r = row("234567p345s8p9s (1111m)", "9s", 27, 28);
        assert_eq!(get(&r, "menzen"), 1.0);
        assert_eq!(get(&r, "tanyao_dead"), 1.0);
        assert_eq!(get(&r, "tanyao_gap"), 6.0);
        // A closed kan of 5m does not.
        let r = row("234567p345s8p9s (5555m)", "9s", 27, 28);
        assert_eq!(get(&r, "tanyao_dead"), 0.0);
        // After 9s: 234p 567p 345s 8p + kan: tenpai on 8p (tanki), all simples -> gap 0.
        assert_eq!(get(&r, "tanyao_gap"), 0.0);
    }

    #[test]
    fn flush_toitoi_chiitoitsu_kokushi() {
        // 1133557799m 2p 44z 6z, discard 2p -> 1133557799m 44z 6z (13 tiles).
        // Chiitoitsu: 6 pairs, 7 kinds -> shanten 0.
        // Standard: odd manzu only, so no run is possible; best target turns 4 pairs into sets
        // (4 draws) with a fifth pair as the head -> 4 - 1 = shanten 3. chiitoitsu_gap = -3.
        // Toitoi: the same 4 draws -> gap 0. Honitsu (m): every tile usable -> gap 0.
        // Chinitsu (m): 11 33 55 77 99m alone need the same 4 draws -> gap 0.
        // Kokushi: 1m 9m 4z 6z held of 13 -> 9 missing. Iipeikou: 123m -> 2 + 0 + 2 = 4.
        let r = row("1133557799m2p446z", "2p", 27, 28);
        assert_eq!(get(&r, "shanten_standard"), 3.0);
        assert_eq!(get(&r, "shanten_chiitoitsu"), 0.0);
        assert_eq!(get(&r, "chiitoitsu_gap"), -3.0);
        assert_eq!(get(&r, "toitoi_pairs"), 6.0);
        assert_eq!(get(&r, "toitoi_gap"), 0.0);
        assert_eq!(get(&r, "honitsu_gap"), 0.0);
        assert_eq!(get(&r, "chinitsu_gap"), 0.0);
        assert_eq!(get(&r, "kokushi_missing"), 9.0);
        assert_eq!(get(&r, "flush_dead"), 0.0);
        assert_eq!(get(&r, "iipeikou_tiles"), 4.0);
    }

    #[test]
    fn sanshoku_and_ittsu_patterns() {
        use super::{ittsu_tiles, sanshoku_tiles};
        use crate::tile::{counts_of, parse_mpsz};
        let c = counts_of(&parse_mpsz("345m34p5s123789s").unwrap());
        // s holds 1 2 3 5 7 8 9. 345: m 3 + p 2 + s 2 (3s 5s) = 7; 234: 2 + 2 + 2 = 6.
        // ittsu in s: 123 (3) + 456 (5s: 1) + 789 (3) = 7.
        assert_eq!(sanshoku_tiles(&c, 0), 7);
        assert_eq!(ittsu_tiles(&c, 0), 7);
        // A chi of 345s (first kind 20) makes the s part of 345 count 3: 3 + 2 + 3 = 8.
        assert_eq!(sanshoku_tiles(&c, 1 << 20), 8);
    }
}
