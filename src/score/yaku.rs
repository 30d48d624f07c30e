//! Yaku: Tenhou's yaku ids, their names, and which of them a reading of a hand earns.
//!
//! Ids are Tenhou's (the numbers in mjlog `yaku=` and `yakuman=`), so a re-scored win compares
//! with the record without a translation table. [`YAKU`] also gives the Japanese names that
//! kobalab's majiang-core writes, which is how the golden test maps its answers to ids.

use super::{Block, Facts, Reading, Wait};
use crate::hand::decompose::GroupKind;
use crate::hand::meld::MeldKind;
use crate::tile::{is_honor, is_yaochu, Counts, Kind};

pub const MENZEN_TSUMO: u8 = 0;
pub const RIICHI: u8 = 1;
pub const IPPATSU: u8 = 2;
pub const CHANKAN: u8 = 3;
pub const RINSHAN: u8 = 4;
pub const HAITEI: u8 = 5;
pub const HOUTEI: u8 = 6;
pub const PINFU: u8 = 7;
pub const TANYAO: u8 = 8;
pub const IIPEIKOU: u8 = 9;
/// Seat wind East; South, West, North follow (10..=13).
pub const SEAT_WIND_EAST: u8 = 10;
/// Round wind East; South, West, North follow (14..=17).
pub const ROUND_WIND_EAST: u8 = 14;
/// White dragon; green 19, red 20.
pub const HAKU: u8 = 18;
pub const DOUBLE_RIICHI: u8 = 21;
pub const CHIITOITSU: u8 = 22;
pub const CHANTA: u8 = 23;
pub const ITTSU: u8 = 24;
pub const SANSHOKU_DOUJUN: u8 = 25;
pub const SANSHOKU_DOUKOU: u8 = 26;
pub const SANKANTSU: u8 = 27;
pub const TOITOI: u8 = 28;
pub const SANANKOU: u8 = 29;
pub const SHOUSANGEN: u8 = 30;
pub const HONROUTOU: u8 = 31;
pub const RYANPEIKOU: u8 = 32;
pub const JUNCHAN: u8 = 33;
pub const HONITSU: u8 = 34;
pub const CHINITSU: u8 = 35;
pub const RENHOU: u8 = 36;
pub const TENHOU: u8 = 37;
pub const CHIIHOU: u8 = 38;
pub const DAISANGEN: u8 = 39;
pub const SUUANKOU: u8 = 40;
pub const SUUANKOU_TANKI: u8 = 41;
pub const TSUUIISOU: u8 = 42;
pub const RYUUIISOU: u8 = 43;
pub const CHINROUTOU: u8 = 44;
pub const CHUUREN: u8 = 45;
pub const JUNSEI_CHUUREN: u8 = 46;
pub const KOKUSHI: u8 = 47;
pub const KOKUSHI_13: u8 = 48;
pub const DAISUUSHII: u8 = 49;
pub const SHOUSUUSHII: u8 = 50;
pub const SUUKANTSU: u8 = 51;
pub const DORA: u8 = 52;
pub const URA_DORA: u8 = 53;
pub const AKA_DORA: u8 = 54;

/// (Tenhou id, romaji name, Japanese name as kobalab's majiang-core writes it), indexed by id.
pub const YAKU: [(u8, &str, &str); 55] = [
    (0, "menzen tsumo", "門前清自摸和"),
    (1, "riichi", "立直"),
    (2, "ippatsu", "一発"),
    (3, "chankan", "槍槓"),
    (4, "rinshan kaihou", "嶺上開花"),
    (5, "haitei raoyue", "海底摸月"),
    (6, "houtei raoyui", "河底撈魚"),
    (7, "pinfu", "平和"),
    (8, "tanyao", "断幺九"),
    (9, "iipeikou", "一盃口"),
    (10, "seat wind east", "自風 東"),
    (11, "seat wind south", "自風 南"),
    (12, "seat wind west", "自風 西"),
    (13, "seat wind north", "自風 北"),
    (14, "round wind east", "場風 東"),
    (15, "round wind south", "場風 南"),
    (16, "round wind west", "場風 西"),
    (17, "round wind north", "場風 北"),
    (18, "haku", "翻牌 白"),
    (19, "hatsu", "翻牌 發"),
    (20, "chun", "翻牌 中"),
    (21, "double riichi", "ダブル立直"),
    (22, "chiitoitsu", "七対子"),
    (23, "chanta", "混全帯幺九"),
    (24, "ittsu", "一気通貫"),
    (25, "sanshoku doujun", "三色同順"),
    (26, "sanshoku doukou", "三色同刻"),
    (27, "sankantsu", "三槓子"),
    (28, "toitoi", "対々和"),
    (29, "sanankou", "三暗刻"),
    (30, "shousangen", "小三元"),
    (31, "honroutou", "混老頭"),
    (32, "ryanpeikou", "二盃口"),
    (33, "junchan", "純全帯幺九"),
    (34, "honitsu", "混一色"),
    (35, "chinitsu", "清一色"),
    (36, "renhou", "人和"),
    (37, "tenhou", "天和"),
    (38, "chiihou", "地和"),
    (39, "daisangen", "大三元"),
    (40, "suuankou", "四暗刻"),
    (41, "suuankou tanki", "四暗刻単騎"),
    (42, "tsuuiisou", "字一色"),
    (43, "ryuuiisou", "緑一色"),
    (44, "chinroutou", "清老頭"),
    (45, "chuuren poutou", "九蓮宝燈"),
    (46, "junsei chuuren poutou", "純正九蓮宝燈"),
    (47, "kokushi musou", "国士無双"),
    (48, "kokushi musou juusanmen", "国士無双十三面"),
    (49, "daisuushii", "大四喜"),
    (50, "shousuushii", "小四喜"),
    (51, "suukantsu", "四槓子"),
    (52, "dora", "ドラ"),
    (53, "ura dora", "裏ドラ"),
    (54, "aka dora", "赤ドラ"),
];

/// The romaji name of a Tenhou yaku id.
pub fn name(id: u8) -> Option<&'static str> {
    YAKU.get(id as usize).map(|y| y.1)
}

/// The Tenhou id of a name as kobalab's majiang-core writes it.
pub fn id_of_japanese(name: &str) -> Option<u8> {
    YAKU.iter().find(|y| y.2 == name).map(|y| y.0)
}

/// Yakuman that Tenhou lists under their own id but that some rule sets count twice.
pub fn is_double_form(id: u8) -> bool {
    matches!(id, SUUANKOU_TANKI | JUNSEI_CHUUREN | KOKUSHI_13 | DAISUUSHII)
}

/// The yaku of one reading, in a fixed-size buffer so the inner scoring loop does not allocate.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct YakuSet {
    items: [(u8, u8); 24],
    len: u8,
    yakuman: [u8; 8],
    yakuman_len: u8,
}

impl YakuSet {
    #[inline]
    pub fn add(&mut self, id: u8, han: u8) {
        if (self.len as usize) < self.items.len() {
            self.items[self.len as usize] = (id, han);
            self.len += 1;
        }
    }

    #[inline]
    pub fn add_yakuman(&mut self, id: u8) {
        if (self.yakuman_len as usize) < self.yakuman.len() {
            self.yakuman[self.yakuman_len as usize] = id;
            self.yakuman_len += 1;
        }
    }

    pub fn items(&self) -> &[(u8, u8)] {
        &self.items[..self.len as usize]
    }

    pub fn yakuman(&self) -> &[u8] {
        &self.yakuman[..self.yakuman_len as usize]
    }

    pub fn han(&self) -> u8 {
        self.items().iter().map(|y| y.1).sum()
    }
}

/// The yaku that depend only on the situation (riichi, ippatsu, last tile, kan, first draw).
pub(crate) fn situational(f: &Facts, out: &mut YakuSet) {
    let i = f.input;
    if i.tenhou {
        out.add_yakuman(TENHOU);
    }
    if i.chiihou {
        out.add_yakuman(CHIIHOU);
    }
    if i.double_riichi {
        out.add(DOUBLE_RIICHI, 2);
    } else if i.riichi {
        out.add(RIICHI, 1);
    }
    if i.ippatsu {
        out.add(IPPATSU, 1);
    }
    if f.menzen && !i.ron {
        out.add(MENZEN_TSUMO, 1);
    }
    if i.chankan {
        out.add(CHANKAN, 1);
    }
    if i.rinshan {
        out.add(RINSHAN, 1);
    }
    if i.haitei {
        out.add(HAITEI, 1);
    }
    if i.houtei {
        out.add(HOUTEI, 1);
    }
}

/// Yaku that depend only on which tiles the hand holds, not on how they are grouped.
fn by_tiles(f: &Facts, out: &mut YakuSet) {
    if f.all_simple && (f.rules.kuitan || f.menzen) {
        out.add(TANYAO, 1);
    }
    if f.all_yaochu && f.has_honor && !f.all_honor {
        out.add(HONROUTOU, 2);
    }
    if f.suits.count_ones() == 1 {
        if f.has_honor {
            out.add(HONITSU, if f.menzen { 3 } else { 2 });
        } else {
            out.add(CHINITSU, if f.menzen { 6 } else { 5 });
        }
    }
    if f.all_honor {
        out.add_yakuman(TSUUIISOU);
    }
}

/// Yaku of a seven-pairs reading (the caller has checked the shape).
pub(crate) fn chiitoitsu(f: &Facts, out: &mut YakuSet) {
    situational(f, out);
    out.add(CHIITOITSU, 2);
    by_tiles(f, out);
}

/// Yaku of a thirteen-orphans reading; `thirteen_wait` when the winning tile made the pair.
pub(crate) fn kokushi(f: &Facts, thirteen_wait: bool, out: &mut YakuSet) {
    situational(f, out);
    out.add_yakuman(if thirteen_wait { KOKUSHI_13 } else { KOKUSHI });
}

/// Whether some reading of the complete hand could have a yaku, judged from its tiles alone:
/// `false` only when no reading has one, so the caller can skip reading the hand. Every closed
/// hand and every situational flag passes; an open hand passes when one of the open-hand yaku
/// is not ruled out by a necessary condition on the tile counts (`concealed` includes the
/// winning tile; melds are in `f.all`):
/// - by tiles: tanyao (all simples), honroutou / chinroutou (all terminals and honours), a
///   flush, tsuuiisou or ryuuiisou (at most one suit);
/// - a value set (yakuhai, shousangen, daisangen): three of a value kind;
/// - the four winds: eleven wind tiles (three sets and a pair);
/// - chanta / junchan: a terminal or honour in each of four groups and two in the pair, six;
/// - ittsu: every kind of a suit; sanshoku: the same run in each suit, or three of the same
///   number in each suit;
/// - toitoi: no chi and no kind held exactly once;
/// - sanankou: three concealed sets (closed kans count); sankantsu: three kans.
///
/// Why: most open hands the expected-value search completes have no yaku, and reading every
/// decomposition of each only to find none is wasted work that this cheap test turns away
/// (`may_have_yaku_turns_away_only_hands_without_yaku` holds it to hands without one).
pub(crate) fn may_have_yaku(f: &Facts, concealed: &Counts) -> bool {
    let i = f.input;
    if f.menzen
        || i.riichi
        || i.double_riichi
        || i.ippatsu
        || i.haitei
        || i.houtei
        || i.rinshan
        || i.chankan
        || i.tenhou
        || i.chiihou
    {
        return true;
    }
    if f.all_simple || f.all_yaochu || f.suits.count_ones() <= 1 {
        return true;
    }
    let all = &f.all;
    if (27..34).any(|k| all[k] >= 3 && is_value_kind(k, f)) || all[27..31].iter().sum::<u8>() >= 11 {
        return true;
    }
    if (0..34).filter(|&k| is_yaochu(k)).map(|k| all[k]).sum::<u8>() >= 6 {
        return true;
    }
    let suit = |s: usize| &all[9 * s..9 * s + 9];
    if (0..3).any(|s| suit(s).iter().all(|&c| c > 0)) {
        return true;
    }
    let run = |s: usize, n: usize| suit(s)[n..n + 3].iter().all(|&c| c > 0);
    if (0..7).any(|n| (0..3).all(|s| run(s, n))) || (0..9).any(|n| (0..3).all(|s| suit(s)[n] >= 3)) {
        return true;
    }
    let no_chi = i.melds.iter().all(|m| m.kind != MeldKind::Chi);
    if no_chi && all.iter().all(|&c| c != 1) {
        return true;
    }
    let closed_kans = i.melds.iter().filter(|m| !m.is_open()).count();
    if concealed.iter().filter(|&&c| c >= 3).count() + closed_kans >= 3 {
        return true;
    }
    i.melds.iter().filter(|m| m.is_kan()).count() >= 3
}

/// Whether a pair of `kind` is a value pair (yakuhai) for this seat and round.
#[inline]
pub(crate) fn is_value_kind(kind: Kind, f: &Facts) -> bool {
    kind >= 31 || kind == f.input.round_wind || kind == f.input.seat_wind
}

/// Yaku of a standard reading (four groups and a pair). `pinfu` comes from the fu count, which
/// already knows whether the reading has no fu at all.
pub(crate) fn standard(r: &Reading, f: &Facts, pinfu: bool, out: &mut YakuSet) {
    situational(f, out);
    by_tiles(f, out);
    if pinfu {
        out.add(PINFU, 1);
    }
    let blocks: &[Block] = &r.blocks;
    let mut runs_by_suit = [0u16; 3];
    let mut sets_by_suit = [0u16; 3];
    let mut run_counts = [0u8; 27];
    let (mut n_sets, mut n_concealed_sets, mut n_kans, mut n_runs) = (0, 0, 0, 0);
    let (mut dragon_sets, mut wind_sets) = (0, 0);
    let mut all_yaochu_groups = true;
    for b in blocks {
        let k = b.group.first;
        all_yaochu_groups &= b.group.has_yaochu();
        match b.group.kind {
            GroupKind::Run => {
                n_runs += 1;
                runs_by_suit[k / 9] |= 1 << (k % 9);
                run_counts[k] += 1;
            }
            GroupKind::Set => {
                n_sets += 1;
                n_concealed_sets += b.concealed as u8;
                n_kans += b.kan as u8;
                if k < 27 {
                    sets_by_suit[k / 9] |= 1 << (k % 9);
                } else if k >= 31 {
                    dragon_sets += 1;
                    out.add(HAKU + (k - 31) as u8, 1);
                } else {
                    wind_sets += 1;
                    if k == f.input.seat_wind {
                        out.add(SEAT_WIND_EAST + (k - 27) as u8, 1);
                    }
                    if k == f.input.round_wind {
                        out.add(ROUND_WIND_EAST + (k - 27) as u8, 1);
                    }
                }
            }
        }
    }
    let pair = r.pair;
    let open_han = |closed: u8| if f.menzen { closed } else { closed - 1 };

    if f.menzen {
        let peikou: u8 = run_counts.iter().map(|c| c / 2).sum();
        match peikou {
            1 => out.add(IIPEIKOU, 1),
            2.. => out.add(RYANPEIKOU, 3),
            _ => {}
        }
    }
    if runs_by_suit.iter().any(|m| m & 0b1001001 == 0b1001001) {
        out.add(ITTSU, open_han(2));
    }
    if runs_by_suit[0] & runs_by_suit[1] & runs_by_suit[2] != 0 {
        out.add(SANSHOKU_DOUJUN, open_han(2));
    }
    if sets_by_suit[0] & sets_by_suit[1] & sets_by_suit[2] != 0 {
        out.add(SANSHOKU_DOUKOU, 2);
    }
    if all_yaochu_groups && is_yaochu(pair) && n_runs > 0 {
        if f.has_honor {
            out.add(CHANTA, open_han(2));
        } else {
            out.add(JUNCHAN, open_han(3));
        }
    }
    if n_sets == 4 {
        out.add(TOITOI, 2);
    }
    match n_concealed_sets {
        3 => out.add(SANANKOU, 2),
        4 => out.add_yakuman(if r.wait == Wait::Tanki { SUUANKOU_TANKI } else { SUUANKOU }),
        _ => {}
    }
    match n_kans {
        3 => out.add(SANKANTSU, 2),
        4 => out.add_yakuman(SUUKANTSU),
        _ => {}
    }
    if dragon_sets == 2 && pair >= 31 {
        out.add(SHOUSANGEN, 2);
    }
    if dragon_sets == 3 {
        out.add_yakuman(DAISANGEN);
    }
    if wind_sets == 4 {
        out.add_yakuman(DAISUUSHII);
    } else if wind_sets == 3 && is_honor(pair) && pair < 31 {
        out.add_yakuman(SHOUSUUSHII);
    }
    if f.all_terminal {
        out.add_yakuman(CHINROUTOU);
    }
    if f.all_green {
        out.add_yakuman(RYUUIISOU);
    }
    match f.chuuren {
        Some(true) => out.add_yakuman(JUNSEI_CHUUREN),
        Some(false) => out.add_yakuman(CHUUREN),
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_id() {
        for (i, y) in YAKU.iter().enumerate() {
            assert_eq!(y.0 as usize, i);
        }
        assert_eq!(id_of_japanese("場風 東"), Some(14));
        assert_eq!(id_of_japanese("自風 南"), Some(11));
        assert_eq!(id_of_japanese("翻牌 白"), Some(18));
        assert_eq!(name(40), Some("suuankou"));
        assert_eq!(name(55), None);
    }
}
