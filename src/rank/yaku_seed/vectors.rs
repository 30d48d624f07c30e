//! vec(Y) and Han(Y, isMenzen) of every yaku seed 004 keeps, each number with its reason. The
//! seed leaves the vectors free ("評価関数の決め方というのは自由"); these are chosen by hand, not
//! fitted.
//!
//! Class order (`melds21::CLASS_NAMES`):
//!   0 seq_mid 1 seq_term 2 set_mid 3 set_term 4 pair_mid 5 pair_term 6 pair_yakuhai
//!   7 ryanmen_mid 8 ryanmen_edge 9 dkanchan_mid 10 dkanchan_term 11 kanchan_mid 12 kanchan_24
//!   13 kanchan_13 14 penchan 15 iso_46 16 iso_37 17 iso_28 18 iso_19 19 iso_guest 20 iso_yakuhai
//!
//! The common scale: a complete meld is worth 1, so vec(Y)·vec(ω) of a tenpai hand is about 4-5
//! and Han × that is the combination's worth. A partial is worth roughly its share of a meld by
//! how many tiles finish it (ryanmen 8 tiles ≈ 0.6, kanchan / penchan 4 tiles ≈ 0.3-0.4); an
//! isolated tile by the partials it can grow into (4-6 most, 1/9 least, honors only pair up).

/// The yaku of seed 004's list (types A, B, C, F; no type D such as riichi, no type E).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Yaku {
    Pinfu,
    Tanyao,
    Chanta,
    Toitoi,
    Honroutou,
    Yakuhai,
    Junchan,
    Honitsu,
    Chinitsu,
    Sanshoku,
    Ittsu,
    Sanankou,
    Iipeikou,
    Shousangen,
    Chiitoitsu,
    Kokushi,
    Dora,
}

/// Every yaku, in declaration order (`ALL[y as usize] == y`).
pub const ALL: [Yaku; 17] = [
    Yaku::Pinfu,
    Yaku::Tanyao,
    Yaku::Chanta,
    Yaku::Toitoi,
    Yaku::Honroutou,
    Yaku::Yakuhai,
    Yaku::Junchan,
    Yaku::Honitsu,
    Yaku::Chinitsu,
    Yaku::Sanshoku,
    Yaku::Ittsu,
    Yaku::Sanankou,
    Yaku::Iipeikou,
    Yaku::Shousangen,
    Yaku::Chiitoitsu,
    Yaku::Kokushi,
    Yaku::Dora,
];

/// Han(Y, isMenzen): Tenhou's han closed and open (0 = closed only). Yakuhai and dora are
/// counted on the hand (one han per yakuhai pair or set, per dora); their entry here is 1.
pub fn han(y: Yaku, closed: bool) -> u8 {
    let (c, o) = match y {
        Yaku::Pinfu | Yaku::Iipeikou => (1, 0),
        Yaku::Tanyao | Yaku::Yakuhai | Yaku::Dora => (1, 1),
        Yaku::Chanta | Yaku::Sanshoku | Yaku::Ittsu => (2, 1),
        Yaku::Toitoi | Yaku::Honroutou | Yaku::Sanankou | Yaku::Shousangen => (2, 2),
        Yaku::Junchan | Yaku::Honitsu => (3, 2),
        Yaku::Chinitsu => (6, 5),
        Yaku::Chiitoitsu => (2, 0),
        Yaku::Kokushi => (13, 0),
    };
    if closed {
        c
    } else {
        o
    }
}

/// Plain progress, the base the others start from and the vector of ドラ (a dora is worth its
/// han only if the hand completes, so its weight is the hand's progress): a run or set 1; a pair
/// 0.5 (one is the head, more are spare); ryanmen 0.6, 23/78 0.55 (one side a terminal), double
/// kanchan 0.55 / 0.5 (8 tiles but a worse wait), kanchan 0.4, 24/68 0.4, 13/79 0.35, penchan 0.3;
/// isolated 4-6 0.15 down to 1/9 0.05, a guest wind 0 (it only pairs), a yakuhai 0.02.
pub const PLAIN: [f64; 21] = [
    1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.5, //
    0.6, 0.55, 0.55, 0.5, 0.4, 0.4, 0.35, 0.3, //
    0.15, 0.12, 0.1, 0.05, 0.0, 0.02,
];

/// 平和: four runs and a non-yakuhai head with a two-sided wait. Runs 1; a set -0.5 (it must be
/// broken); a plain pair 0.5 (the head), a yakuhai pair -0.3 (a yakuhai head kills pinfu, and it
/// only gets 1 han more as a set); ryanmen 0.7 / 0.65 (the pinfu wait itself), double kanchan 0.5;
/// kanchan and penchan 0.2-0.1 (they finish as runs but a final kanchan wait is no pinfu);
/// isolated suit tiles as plain; honors -0.1 (they must go).
pub const PINFU: [f64; 21] = [
    1.0, 1.0, -0.5, -0.5, 0.5, 0.5, -0.3, //
    0.7, 0.65, 0.5, 0.45, 0.2, 0.2, 0.15, 0.1, //
    0.15, 0.12, 0.1, 0.05, -0.1, -0.1,
];

/// 断么九: the plain values for 2..8 pieces; every piece holding a terminal or honor is a debt
/// (terminal meld -1: it has to be rebuilt; terminal pair -0.4; isolated terminal / honor -0.3);
/// 23/78 0.4 (one side finishes with a terminal), 135/579 0.2, 13/79 and 12/89 negative (they
/// finish only as terminal runs).
pub const TANYAO: [f64; 21] = [
    1.0, -1.0, 1.0, -1.0, 0.6, -0.4, -0.4, //
    0.6, 0.4, 0.55, 0.2, 0.4, 0.4, -0.2, -0.3, //
    0.15, 0.12, 0.08, -0.3, -0.3, -0.3,
];

/// 混全帯么九: every piece holds a terminal or an honor. Terminal runs and sets 1, middle ones
/// -0.6; terminal and honor pairs 0.6, middle pairs -0.2; partials that finish as 123 / 789
/// (penchan, 13/79, 135/579, 23/78) positive, middle partials negative; isolated terminals and
/// honors a little positive (they can pair or grow into 123), middle ones slightly negative.
pub const CHANTA: [f64; 21] = [
    -0.6, 1.0, -0.6, 1.0, -0.2, 0.6, 0.6, //
    -0.2, 0.3, -0.1, 0.3, -0.2, -0.1, 0.45, 0.45, //
    -0.1, 0.0, 0.05, 0.15, 0.1, 0.15,
];

/// 純全帯么九: chanta without honors. The honor pieces the classes can tell (yakuhai pair and
/// isolated honors) are debts (-0.4 / -0.3); class 5 and 3 mix 1/9 and guest winds / honors, so
/// they keep chanta's weights and the gate forbids honor melds.
pub const JUNCHAN: [f64; 21] = [
    -0.6, 1.0, -0.6, 1.0, -0.2, 0.6, -0.4, //
    -0.2, 0.3, -0.1, 0.3, -0.2, -0.1, 0.45, 0.45, //
    -0.1, 0.0, 0.05, 0.15, -0.3, -0.3,
];

/// 対々和: sets are the yaku (1), pairs are its partials (0.45: two tiles finish one, fewer than
/// a kanchan's four, but a pair is also the head); runs and run partials are pieces to break up
/// (-0.5, -0.1); isolated tiles are all alike (they can only pair), 0.05.
pub const TOITOI: [f64; 21] = [
    -0.5, -0.5, 1.0, 1.0, 0.45, 0.45, 0.5, //
    -0.1, -0.1, -0.1, -0.1, 0.0, 0.0, 0.0, 0.0, //
    0.05, 0.05, 0.05, 0.05, 0.05, 0.05,
];

/// 混老頭: only terminals and honors, in sets and pairs. Terminal / honor sets 1, their pairs 0.5,
/// their isolated tiles 0.1 (they can pair); everything holding a 2-8, and every run, -0.5 (it
/// must go entirely).
pub const HONROUTOU: [f64; 21] = [
    -0.5, -0.5, -0.5, 1.0, -0.5, 0.5, 0.5, //
    -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, //
    -0.3, -0.3, -0.3, 0.1, 0.1, 0.1,
];

/// 飜牌: the gate holds the yakuhai pair or set, so the rest only needs to be fast: plain
/// progress, the yakuhai pair 1 (the yaku's seed, a pon chance) and an isolated yakuhai 0.1 (a
/// second yakuhai pair is one han more).
pub const YAKUHAI: [f64; 21] = [
    1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 1.0, //
    0.6, 0.55, 0.55, 0.5, 0.4, 0.4, 0.35, 0.3, //
    0.15, 0.12, 0.1, 0.05, 0.0, 0.1,
];

/// 混一色 / 清一色, pieces of the flush suit (and the honors for 混一色): every in-suit meld and
/// partial as in plain progress, sets as much as runs (flush hands pon freely), honor pairs and
/// isolated honors a little more (they are in-suit for 混一色). The 21 classes are blind to
/// suits, so the flush vector has a second half, [`OFF_SUIT`], for the pieces of other suits.
pub const FLUSH: [f64; 21] = [
    1.0, 1.0, 1.0, 1.0, 0.5, 0.55, 0.6, //
    0.6, 0.55, 0.55, 0.5, 0.4, 0.4, 0.35, 0.3, //
    0.15, 0.12, 0.1, 0.08, 0.05, 0.08,
];

/// The flush vector's off-suit half: -0.4 per tile of the piece (a run -1.2, a pair -0.8, an
/// isolated tile -0.4): every off-suit tile has to be thrown, and a whole off-suit meld costs
/// three discards.
pub const OFF_SUIT: [f64; 21] = [
    -1.2, -1.2, -1.2, -1.2, -0.8, -0.8, -0.8, //
    -0.8, -0.8, -1.2, -1.2, -0.8, -0.8, -0.8, -0.8, //
    -0.4, -0.4, -0.4, -0.4, -0.4, -0.4,
];

/// 三色同順, 一気通貫, 一盃口: run yaku. The gate has checked the tile pattern; the vector rewards
/// runs (1) and run partials (ryanmen 0.6, kanchan 0.45, penchan 0.35), values sets and pairs
/// below plain progress (a set is a run not made) and isolated tiles as plain.
pub const RUNS: [f64; 21] = [
    1.0, 1.0, 0.6, 0.6, 0.45, 0.45, 0.5, //
    0.6, 0.55, 0.55, 0.5, 0.45, 0.45, 0.4, 0.35, //
    0.15, 0.12, 0.1, 0.05, 0.0, 0.02,
];

/// 三暗刻: three concealed sets. Sets 1; pairs 0.55 (a set waiting for one of two tiles, and a
/// pair is the head); runs 0.5 (the fourth meld may be a run, but a run is no set); partials
/// 0.2-0.3 (they only make runs); isolated tiles 0.05 (they can pair).
pub const SANANKOU: [f64; 21] = [
    0.5, 0.5, 1.0, 1.0, 0.55, 0.55, 0.55, //
    0.3, 0.3, 0.3, 0.3, 0.2, 0.2, 0.2, 0.2, //
    0.05, 0.05, 0.05, 0.05, 0.05, 0.05,
];

/// 小三元: two dragon sets and a dragon head. Terminal / honor sets 1 (the dragon sets are
/// among them), a yakuhai pair 1 (a set or the head), an isolated yakuhai 0.3; the rest of the
/// hand as plain progress (it only has to finish).
pub const SHOUSANGEN: [f64; 21] = [
    1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 1.0, //
    0.6, 0.55, 0.55, 0.5, 0.4, 0.4, 0.35, 0.3, //
    0.15, 0.12, 0.1, 0.05, 0.0, 0.3,
];

/// 七対子: pairs 0.45 (six pairs = tenpai ≈ 2.7 + singles, about a standard tenpai's 4.5 at 2
/// han against 1), a set 0.45 (a pair plus a spare tile), isolated tiles 0.05 (one may pair);
/// runs and partials 0 (the best cut for 七対子 cuts them into isolated tiles anyway).
pub const CHIITOITSU: [f64; 21] = [
    0.0, 0.0, 0.45, 0.45, 0.45, 0.45, 0.45, //
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, //
    0.05, 0.05, 0.05, 0.05, 0.05, 0.05,
];

/// 国士無双: one of each terminal and honor and a pair of one. Isolated terminals and honors
/// 0.05, a terminal / honor pair 0.05 (the head); every piece holding a 2-8 -0.3 per tile, and
/// terminal runs or sets -0.3 (two tiles wasted). Tenpai (12 isolated + a pair) is 0.65 × 13
/// han ≈ 8.5; each middle tile left costs 0.3 × 13 ≈ 3.9, so only hands one or two middle tiles
/// from kokushi score above zero.
pub const KOKUSHI: [f64; 21] = [
    -0.9, -0.3, -0.9, -0.3, -0.6, 0.05, 0.05, //
    -0.6, -0.6, -0.9, -0.9, -0.6, -0.6, -0.6, -0.6, //
    -0.3, -0.3, -0.3, 0.05, 0.05, 0.05,
];

/// vec(Y). The flushes' in-suit half (their off-suit half is [`OFF_SUIT`]).
pub fn vector(y: Yaku) -> &'static [f64; 21] {
    match y {
        Yaku::Pinfu => &PINFU,
        Yaku::Tanyao => &TANYAO,
        Yaku::Chanta => &CHANTA,
        Yaku::Junchan => &JUNCHAN,
        Yaku::Toitoi => &TOITOI,
        Yaku::Honroutou => &HONROUTOU,
        Yaku::Yakuhai => &YAKUHAI,
        Yaku::Honitsu | Yaku::Chinitsu => &FLUSH,
        Yaku::Sanshoku | Yaku::Ittsu | Yaku::Iipeikou => &RUNS,
        Yaku::Sanankou => &SANANKOU,
        Yaku::Shousangen => &SHOUSANGEN,
        Yaku::Chiitoitsu => &CHIITOITSU,
        Yaku::Kokushi => &KOKUSHI,
        Yaku::Dora => &PLAIN,
    }
}
