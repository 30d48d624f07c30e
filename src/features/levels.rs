//! The seed's step-shaped point tables as indicator columns (nisi5028, 麻雀AI開発その47,
//! `../shared/seeds/002_7cc28119e543da51.txt`): one column per level that the seed gives points,
//! so a linear fit learns one value per level instead of one slope per potential.
//!
//! The seed scores each yaku potential by a table, e.g. 一色力 by (flush-only shanten − standard
//! shanten) 0 / 1 / 2 / ≥ 3 → 10,000 / 5,000 / 1,000 / 0. The yaku family already measures
//! those gaps and counts as one linear column each (`honitsu_gap`, `sanshoku_tiles`...), which
//! cannot hold a step: here each level the seed scores is its own 0/1 column, and the level the
//! seed scores 0 is the reference (no column), so a fitted weight reads as "this level over the
//! seed's zero level", the seed's own starting point.
//!
//! Levels (the seed's conditions; gaps are the yaku family's, clamped to 6 when a meld kills the
//! yaku):
//! - タンヤオ力: tanyao gap 0 / 1, only without a terminal run (端シュンツ: a concealed 123 or
//!   789 of one suit, or such a chi);
//! - 一色力: half-flush gap 0 / 1 / 2; チートイ力: chiitoitsu gap ≤ −1 / 0;
//! - トイトイ力: at toitoi shanten ≤ 3, the sets and the pairs held (the seed's 2,500 a set,
//!   1,000 a pair), 0 otherwise;
//! - 国士力: missing terminal / honour kinds 0 / 1 / 2 / 3 / 4;
//! - 三色力, 一通力: tiles of the best pattern 9 / 8 / 7 / 6; チャンタ力: gap 0 / 1;
//!   一盃口力: tiles 6 / 5 / 4;
//! - 役牌力: sets and pairs are the yaku family's columns; the isolated yakuhai tile (10 points)
//!   is `lv_yakuhai_singles` here, double winds counted twice as the seed does.
//!
//! The seed's two interactions:
//! - `lv_callable` is its "鳴き可能ボーナス付与の属性" (also "役なし副露ペナルティ回避"): a yakuhai
//!   pair or set, tanyao gap ≤ 1 without a terminal run, flush gap ≤ 2, toitoi shanten ≤ 3,
//!   sanshoku or ittsu 7+ tiles, chanta gap ≤ 1. The 鳴き可能ボーナス (extra tile energy when it
//!   holds) is `lv_callable_energy_*`: the concealed tiles by energy class and copies held, counted
//!   only when the attribute holds.
//! - `lv_open_no_yaku` is the seed's 役なし副露 (open, and no attribute holds), and its penalty
//!   (tile energy, dora and red points become 0) is a product: `lv_ony_dora_value`,
//!   `lv_ony_red_fives` and `lv_ony_energy_*` are those columns counted only when it holds, so a
//!   fitted weight near minus the base weight is the seed's zeroing.
//!
//! The gated energy columns use the energy family's tile classes and copies but not its
//! neighbour patterns (21 columns, not 168 per gate): the gate needs the energy's size, and the
//! class × copies carries most of it.
//!
//! 面前ボーナス is the yaku family's `menzen`, 赤 the dora family's `red_fives`: not repeated.
//!
//! Cost: the levels read the yaku and dora columns already written in the row and one pass over
//! the 34 concealed counts; no shanten is computed here.

use std::sync::OnceLock;

use super::column::Cols;
use super::facts::{After, Facts};
use crate::hand::meld::MeldKind;
use crate::tile::KINDS;

/// The fixed columns, in order (the gated energy columns follow, see [`columns`]).
const FIXED: &[(&str, &str)] = &[
    ("lv_tanyao_0", "tanyao gap 0 and no terminal run (seed 5,000)"),
    ("lv_tanyao_1", "tanyao gap 1 and no terminal run (seed 2,500)"),
    ("lv_flush_0", "half-flush gap 0 (seed 10,000)"),
    ("lv_flush_1", "half-flush gap 1 (seed 5,000)"),
    ("lv_flush_2", "half-flush gap 2 (seed 1,000)"),
    ("lv_chiitoi_neg", "chiitoitsu gap -1 or less (seed 10,000)"),
    ("lv_chiitoi_0", "chiitoitsu gap 0 (seed 5,000)"),
    ("lv_toitoi_sets", "triplets held when toitoi shanten <= 3, else 0 (seed 2,500 each)"),
    ("lv_toitoi_pairs", "concealed pairs when toitoi shanten <= 3, else 0 (seed 1,000 each)"),
    ("lv_kokushi_0", "no terminal/honor kind missing (seed 100,000)"),
    ("lv_kokushi_1", "1 terminal/honor kind missing (seed 50,000)"),
    ("lv_kokushi_2", "2 terminal/honor kinds missing (seed 30,000)"),
    ("lv_kokushi_3", "3 terminal/honor kinds missing (seed 10,000)"),
    ("lv_kokushi_4", "4 terminal/honor kinds missing (seed 2,000)"),
    ("lv_sanshoku_9", "9 tiles of the best sanshoku pattern (seed 10,000)"),
    ("lv_sanshoku_8", "8 tiles of the best sanshoku pattern (seed 8,000)"),
    ("lv_sanshoku_7", "7 tiles of the best sanshoku pattern (seed 4,000)"),
    ("lv_sanshoku_6", "6 tiles of the best sanshoku pattern (seed 1,000)"),
    ("lv_ittsu_9", "9 tiles of the best ittsu pattern (seed 10,000)"),
    ("lv_ittsu_8", "8 tiles of the best ittsu pattern (seed 8,000)"),
    ("lv_ittsu_7", "7 tiles of the best ittsu pattern (seed 4,000)"),
    ("lv_ittsu_6", "6 tiles of the best ittsu pattern (seed 1,000)"),
    ("lv_chanta_0", "chanta gap 0 (seed 10,000)"),
    ("lv_chanta_1", "chanta gap 1 (seed 1,000)"),
    ("lv_iipeikou_6", "6 tiles of the best doubled run, closed (seed 5,000)"),
    ("lv_iipeikou_5", "5 tiles of the best doubled run, closed (seed 3,000)"),
    ("lv_iipeikou_4", "4 tiles of the best doubled run, closed (seed 500)"),
    ("lv_yakuhai_singles", "concealed single yakuhai tiles, a double wind counted twice (seed 10 each)"),
    ("lv_callable", "the seed's callable-yaku attribute holds (see the module doc)"),
    ("lv_open_no_yaku", "the seed's 役なし副露: an open meld and no callable-yaku attribute"),
    ("lv_ony_dora_value", "dora_value when lv_open_no_yaku, else 0 (the seed zeroes dora points)"),
    ("lv_ony_red_fives", "red_fives when lv_open_no_yaku, else 0 (the seed zeroes red points)"),
];

/// Energy classes of the gated energy columns: the energy family's suited classes, then the two
/// honor classes.
const CLASSES: [&str; 7] = ["19", "28", "37", "46", "5", "guest", "yakuhai"];

/// Whether a gated energy column can never be non-zero: a yakuhai pair or set is a yaku in reach
/// (`lv_callable`), so an open hand without one holds its yakuhai at most once.
fn never_filled(gate: &str, class: usize, copies: usize) -> bool {
    gate == "ony" && CLASSES[class] == "yakuhai" && copies > 1
}

/// Every column: [`FIXED`], then `lv_ony_energy_<class>_x<copies>` and
/// `lv_callable_energy_<class>_x<copies>` (class-major, copies 1..=3; without the ones
/// [`never_filled`] rules out).
pub(crate) fn columns() -> Vec<(&'static str, &'static str)> {
    static COLUMNS: OnceLock<Vec<(&'static str, &'static str)>> = OnceLock::new();
    COLUMNS
        .get_or_init(|| {
            let mut v = FIXED.to_vec();
            for (gate, meaning) in [
                ("ony", "when lv_open_no_yaku, else 0 (the seed zeroes tile energy)"),
                ("callable", "when lv_callable, else 0 (the seed's 鳴き可能ボーナス)"),
            ] {
                for (ci, class) in CLASSES.iter().enumerate() {
                    for x in (1..=3).filter(|&x| !never_filled(gate, ci, x)) {
                        let name = format!("lv_{gate}_energy_{class}_x{x}");
                        let m = format!(
                            "concealed tiles of energy class {class} held x{x} (x3: 3 or 4), {meaning}"
                        );
                        v.push((leak(name), leak(m)));
                    }
                }
            }
            v
        })
        .clone()
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// The shape / dora / yaku columns the levels read, as written earlier in the row (the last is
/// `red_fives`). The features module looks their row indices up in the catalog (this module is
/// part of the catalog, so it cannot ask it).
pub(crate) const INPUT_NAMES: [&str; 16] = [
    "shanten_standard",
    "tanyao_gap",
    "honitsu_gap",
    "chiitoitsu_gap",
    "toitoi_gap",
    "toitoi_sets",
    "toitoi_pairs",
    "kokushi_missing",
    "sanshoku_tiles",
    "ittsu_tiles",
    "chanta_gap",
    "iipeikou_tiles",
    "yakuhai_pairs",
    "yakuhai_sets",
    "dora_value",
    "red_fives",
];

/// The values of [`INPUT_NAMES`] for one option row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Inputs {
    v: [f32; 16],
}

impl Inputs {
    pub(crate) fn new(v: [f32; 16]) -> Inputs {
        Inputs { v }
    }

    fn get(&self, name: &str) -> f32 {
        let i = INPUT_NAMES.iter().position(|n| *n == name);
        self.v[i.unwrap_or_else(|| panic!("levels read {name}, not one of their inputs"))]
    }
}

/// A terminal run: a concealed 123 or 789 of one suit, or a chi of one (the seed's 端シュンツ,
/// which keeps タンヤオ力 at 0 and does not count for the callable attribute).
fn terminal_run(ctx: &Facts, counts: &[u8; KINDS]) -> bool {
    let held = |k: usize| (0..3).all(|i| counts[k + i] > 0);
    let concealed = (0..3).any(|s| held(s * 9) || held(s * 9 + 6));
    let chi = ctx.view.melds.iter().any(|m| m.kind == MeldKind::Chi && matches!(m.first_kind() % 9, 0 | 6));
    concealed || chi
}

/// Energy class of a concealed kind: index into [`CLASSES`].
fn energy_class(ctx: &Facts, k: usize) -> usize {
    if k >= 27 {
        return if ctx.yakuhai[k] > 0 { 6 } else { 5 };
    }
    let p = k % 9;
    p.min(8 - p)
}

/// One indicator per level in `levels` (values the seed scores), for `value`.
fn put_levels(cols: &mut Cols, names: &[&str], levels: &[f32], value: f32) {
    for (n, l) in names.iter().zip(levels) {
        cols.flag(n, value == *l);
    }
}

pub(crate) fn fill(ctx: &Facts, a: &After, inp: &Inputs, cols: &mut Cols) {
    let c = &a.counts;
    let run = terminal_run(ctx, c);
    let tanyao = if run { f32::INFINITY } else { inp.get("tanyao_gap") };
    put_levels(cols, &["lv_tanyao_0", "lv_tanyao_1"], &[0.0, 1.0], tanyao);
    let flush = inp.get("honitsu_gap");
    put_levels(cols, &["lv_flush_0", "lv_flush_1", "lv_flush_2"], &[0.0, 1.0, 2.0], flush);
    let chiitoi = inp.get("chiitoitsu_gap");
    cols.flag("lv_chiitoi_neg", chiitoi <= -1.0);
    cols.flag("lv_chiitoi_0", chiitoi == 0.0);
    let toitoi_reach = inp.get("toitoi_gap") + inp.get("shanten_standard") <= 3.0;
    cols.put("lv_toitoi_sets", if toitoi_reach { inp.get("toitoi_sets") } else { 0.0 });
    cols.put("lv_toitoi_pairs", if toitoi_reach { inp.get("toitoi_pairs") } else { 0.0 });
    let kokushi = ["lv_kokushi_0", "lv_kokushi_1", "lv_kokushi_2", "lv_kokushi_3", "lv_kokushi_4"];
    put_levels(cols, &kokushi, &[0.0, 1.0, 2.0, 3.0, 4.0], inp.get("kokushi_missing"));
    let tiles = [9.0, 8.0, 7.0, 6.0];
    let sanshoku = inp.get("sanshoku_tiles");
    put_levels(cols, &["lv_sanshoku_9", "lv_sanshoku_8", "lv_sanshoku_7", "lv_sanshoku_6"], &tiles, sanshoku);
    let ittsu = inp.get("ittsu_tiles");
    put_levels(cols, &["lv_ittsu_9", "lv_ittsu_8", "lv_ittsu_7", "lv_ittsu_6"], &tiles, ittsu);
    let chanta = inp.get("chanta_gap");
    put_levels(cols, &["lv_chanta_0", "lv_chanta_1"], &[0.0, 1.0], chanta);
    let iipeikou = ["lv_iipeikou_6", "lv_iipeikou_5", "lv_iipeikou_4"];
    put_levels(cols, &iipeikou, &[6.0, 5.0, 4.0], inp.get("iipeikou_tiles"));
    let singles: u32 = (27..KINDS).filter(|&k| c[k] == 1).map(|k| u32::from(ctx.yakuhai[k])).sum();
    cols.put("lv_yakuhai_singles", singles as f32);
    let callable = inp.get("yakuhai_pairs") + inp.get("yakuhai_sets") > 0.0
        || tanyao <= 1.0
        || flush <= 2.0
        || toitoi_reach
        || sanshoku >= 7.0
        || ittsu >= 7.0
        || chanta <= 1.0;
    let no_yaku = ctx.open && !callable;
    cols.flag("lv_callable", callable);
    cols.flag("lv_open_no_yaku", no_yaku);
    cols.put("lv_ony_dora_value", if no_yaku { inp.get("dora_value") } else { 0.0 });
    cols.put("lv_ony_red_fives", if no_yaku { inp.get("red_fives") } else { 0.0 });
    let mut energy = [[0.0f32; 3]; CLASSES.len()];
    for k in (0..KINDS).filter(|&k| c[k] > 0) {
        energy[energy_class(ctx, k)][usize::from(c[k].min(3)) - 1] += f32::from(c[k]);
    }
    let yakuhai = CLASSES.len() - 1;
    debug_assert!(
        !no_yaku || energy[yakuhai][1..].iter().all(|&x| x == 0.0),
        "a yakuhai pair is a yaku in reach"
    );
    let out = cols.slice();
    let mut at = FIXED.len();
    for (gate, on) in [("ony", no_yaku), ("callable", callable)] {
        for (ci, per_copies) in energy.iter().enumerate() {
            for (_, x) in per_copies.iter().enumerate().filter(|&(xi, _)| !never_filled(gate, ci, xi + 1)) {
                out[at] = if on { *x } else { 0.0 };
                at += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::features::facts::tests_support::get;

    /// The option row in an East round, South seat (the positions below are worked for it).
    fn row(hand: &str, discard: &str) -> Vec<f32> {
        crate::features::facts::tests_support::row(hand, discard, 27, 28)
    }

    /// The chiitoitsu-shaped hand of the yaku family's test (its gaps worked there by hand):
    /// 1133557799m 44z 6z after 2p. Chiitoitsu gap -3 -> the "-1 or less" level; honitsu gap 0;
    /// toitoi gap 0 at standard shanten 3 -> toitoi shanten 3, in reach: 0 sets, 6 pairs;
    /// kokushi 9 missing -> no kokushi level; iipeikou 4 tiles; chanta: 11 99m and the honors
    /// fit, 33 55 77m do not... the levels only copy the gap, checked against the column.
    /// Terminal run: none (no 2m or 8m). Callable (flush, toitoi); closed, so not 役なし副露.
    #[test]
    fn levels_of_a_pairs_hand() {
        let r = row("1133557799m2p446z", "2p");
        assert_eq!(get(&r, "lv_chiitoi_neg"), 1.0);
        assert_eq!(get(&r, "lv_chiitoi_0"), 0.0);
        assert_eq!(get(&r, "lv_flush_0"), 1.0);
        assert_eq!(get(&r, "lv_flush_1") + get(&r, "lv_flush_2"), 0.0);
        assert_eq!(get(&r, "lv_toitoi_sets"), 0.0);
        assert_eq!(get(&r, "lv_toitoi_pairs"), 6.0);
        let kokushi: f32 = (0..5).map(|i| get(&r, &format!("lv_kokushi_{i}"))).sum();
        assert_eq!(kokushi, 0.0);
        assert_eq!(get(&r, "lv_iipeikou_4"), 1.0);
        assert_eq!(get(&r, "lv_iipeikou_5") + get(&r, "lv_iipeikou_6"), 0.0);
        assert_eq!(get(&r, "lv_callable"), 1.0);
        assert_eq!(get(&r, "lv_open_no_yaku"), 0.0);
        // 4z (North) is a guest wind for an East round / South seat: x2; 6z (green) yakuhai x1,
        // an isolated yakuhai tile; manzu: 1 9 -> class 19 x2 (4 tiles), 3 7 -> 37 x2 (4), 5 x2.
        assert_eq!(get(&r, "lv_yakuhai_singles"), 1.0);
        assert_eq!(get(&r, "lv_callable_energy_guest_x2"), 2.0);
        assert_eq!(get(&r, "lv_callable_energy_yakuhai_x1"), 1.0);
        assert_eq!(get(&r, "lv_callable_energy_19_x2"), 4.0);
        assert_eq!(get(&r, "lv_callable_energy_37_x2"), 4.0);
        assert_eq!(get(&r, "lv_callable_energy_5_x2"), 2.0);
        assert_eq!(get(&r, "lv_ony_energy_19_x2"), 0.0);
    }

    /// The yaku family's open hand without yaku: chi 123m, concealed 567p 345s 67s 9m 8p after
    /// 1z. The chi is a terminal run (and kills tanyao anyway); sanshoku 6 tiles, ittsu 5; no
    /// flush (m chi, p and s held), toitoi dead (chi), no yakuhai: nothing callable, so the
    /// seed's 役なし副露 holds and the dora / red / energy copies are live. Dora indicator none
    /// held; the gated energy counts the 10 concealed tiles.
    #[test]
    fn open_hand_without_yaku_gates_its_energy() {
        let r = row("567p345s67s9m1z8p 123m", "1z");
        assert_eq!(get(&r, "lv_sanshoku_6"), 1.0);
        assert_eq!(get(&r, "lv_ittsu_6") + get(&r, "lv_ittsu_7"), 0.0);
        assert_eq!(get(&r, "lv_tanyao_0") + get(&r, "lv_tanyao_1"), 0.0);
        assert_eq!(get(&r, "lv_callable"), 0.0);
        assert_eq!(get(&r, "lv_open_no_yaku"), 1.0);
        assert_eq!(get(&r, "lv_ony_dora_value"), get(&r, "dora_value"));
        assert_eq!(get(&r, "lv_ony_red_fives"), get(&r, "red_fives"));
        let gated: f32 = crate::features::catalog::catalog()
            .iter()
            .filter(|d| d.name.starts_with("lv_ony_energy_"))
            .map(|d| get(&r, d.name))
            .sum();
        assert_eq!(gated, 10.0);
        // 9m is class 19 held once; 8p class 28 x1
        assert_eq!(get(&r, "lv_ony_energy_19_x1"), 1.0);
        assert_eq!(get(&r, "lv_ony_energy_28_x1"), 1.0);
    }

    /// Tanyao levels: chi 234m, concealed 567p 345s 67s 9m 8p after 1z, tanyao gap 0 (worked in
    /// the yaku family's test) and no terminal run -> level 0, callable, not 役なし副露. With a
    /// concealed 789s instead of 67s+8p the terminal run keeps タンヤオ力 at 0.
    #[test]
    fn tanyao_levels_and_terminal_runs() {
        let r = row("567p345s67s9m1z8p 234m", "1z");
        assert_eq!(get(&r, "tanyao_gap"), 0.0);
        assert_eq!(get(&r, "lv_tanyao_0"), 1.0);
        assert_eq!(get(&r, "lv_callable"), 1.0);
        assert_eq!(get(&r, "lv_open_no_yaku"), 0.0);
        assert_eq!(get(&r, "lv_ony_energy_5_x1"), 0.0);
        let r = row("567p345s789s1z5p 234m", "1z");
        assert_eq!(get(&r, "lv_tanyao_0") + get(&r, "lv_tanyao_1"), 0.0);
    }
}
