//! Hand-written cases for the tricky parts of fu and yaku. Expected values are worked out from
//! the rules by hand (in the comments), not taken from the code.

use super::yaku::*;
use super::*;
use crate::tile::parse_mpsz;

fn tile(s: &str) -> Tile {
    parse_mpsz(s).unwrap()[0]
}

/// A closed hand by the South seat in East round, with the given win; set flags after.
fn hand(concealed: &str, win: &str, ron: bool) -> WinInput {
    let mut i = WinInput::new(parse_mpsz(concealed).unwrap(), vec![], tile(win));
    i.seat_wind = EAST + 1;
    i.ron = ron;
    i
}

fn meld(kind: MeldKind, tiles: &str) -> Meld {
    let t = parse_mpsz(tiles).unwrap();
    let called = (kind != MeldKind::Ankan).then_some(t[0]);
    Meld::new(kind, &t, called, if called.is_some() { 3 } else { 0 })
}

#[test]
fn pinfu_tsumo_is_20_fu() {
    // 123m 456p 789s 23s+4s 55s: menzen tsumo + pinfu, 20 fu 2 han, 400/700.
    let s = score(&hand("123m456p789s23455s", "4s", false)).unwrap();
    assert_eq!(s.yaku, vec![(MENZEN_TSUMO, 1), (PINFU, 1)]);
    assert_eq!((s.fu, s.han, s.base_points), (20, 2, 1500));
    // The same by ron: pinfu only, 30 fu (20 + 10 closed ron), 1000.
    let s = score(&hand("123m456p789s23455s", "4s", true)).unwrap();
    assert_eq!(s.yaku, vec![(PINFU, 1)]);
    assert_eq!((s.fu, s.han, s.base_points), (30, 1, 1000));
}

#[test]
fn open_pinfu_shape_is_30_fu() {
    // 234m 456p 34s+2s 55s, chi 678s: open tanyao only. Ron: 20 fu raised to 30 (1000).
    let mut i = hand("234m456p23455s", "2s", true);
    i.melds = vec![meld(MeldKind::Chi, "678s")];
    let s = score(&i).unwrap();
    assert_eq!(s.yaku, vec![(TANYAO, 1)]);
    assert_eq!((s.fu, s.base_points), (30, 1000));
    // Tsumo: 20 + 2 = 22, rounded to 30; 300/500.
    i.ron = false;
    let s = score(&i).unwrap();
    assert_eq!((s.fu, s.base_points), (30, 1100));
    // Without kuitan there is no yaku at all.
    assert_eq!(score_with(&i, &ScoreRules { kuitan: false, ..ScoreRules::TENHOU }), None);
}

#[test]
fn chiitoitsu_is_25_fu() {
    // Seven pairs ron: 2 han 25 fu = 25 * 16 * 4 = 1600, even by tsumo no +2 (400/800).
    let s = score(&hand("1133m5577p99s1122z", "9s", true)).unwrap();
    assert_eq!(s.yaku, vec![(CHIITOITSU, 2)]);
    assert_eq!((s.fu, s.base_points), (25, 1600));
    let s = score(&hand("1133m5577p99s1122z", "9s", false)).unwrap();
    assert_eq!((s.fu, s.han, s.base_points), (25, 3, 3200));
}

#[test]
fn ryanpeikou_beats_seven_pairs() {
    // 223344m 556677p 99s: seven pairs (2 han 25 fu) or ryanpeikou (3 han + pinfu). Ron on 4m:
    // ryanpeikou 3 + pinfu 1 = 4 han 30 fu = 7700 beats 2 han 25 fu.
    let s = score(&hand("223344m556677p99s", "4m", true)).unwrap();
    assert_eq!(s.yaku, vec![(PINFU, 1), (RYANPEIKOU, 3)]);
    assert_eq!((s.fu, s.base_points), (30, 7700));
}

#[test]
fn ambiguous_wait_takes_the_better_reading() {
    // 344556m: a 5m completes 345 (ryanmen, 34 waiting on 2/5) or 456 (kanchan 4_6).
    // With 234p 678s 99p and tsumo, ryanmen gives pinfu + tsumo (2 han 20 fu, 1500);
    // kanchan would give tsumo only (30 fu 1 han, 1100).
    let s = score(&hand("344556m23499p678s", "5m", false)).unwrap();
    assert_eq!(s.yaku, vec![(MENZEN_TSUMO, 1), (PINFU, 1)]);
    assert_eq!(s.fu, 20);
    // With a set of 999p instead, no pinfu is possible: ryanmen 20+2+8 = 30 fu, kanchan 32 -> 40.
    // Riichi + tsumo, 2 han: 40 fu (700/1300 = 2700) beats 30 fu (500/1000 = 2000).
    let mut i = hand("344556m999p678s22s", "5m", false);
    i.riichi = true;
    let s = score(&i).unwrap();
    assert_eq!(s.yaku, vec![(MENZEN_TSUMO, 1), (RIICHI, 1)]);
    assert_eq!((s.fu, s.base_points), (40, 2700));
}

#[test]
fn kan_fu_by_kind() {
    // Closed kans of 9m (32) and 5p (16), 234s 678s, tanki on 5s: 20 + 10 + 32 + 16 + 2 = 80 fu;
    // riichi 1 han: 80 * 8 * 4 = 2560 -> 2600.
    let mut i = hand("234s678s55s", "5s", true);
    i.melds = vec![meld(MeldKind::Ankan, "9999m"), meld(MeldKind::Ankan, "5555p")];
    i.riichi = true;
    let s = score(&i).unwrap();
    assert_eq!(s.yaku, vec![(RIICHI, 1)]);
    assert_eq!((s.fu, s.base_points), (80, 2600));
    // Open kans: daiminkan 9m 16, kakan 5p 8, with a closed haku set for a yaku.
    let mut i = hand("555z678s55s", "5s", true);
    i.melds = vec![meld(MeldKind::Daiminkan, "9999m"), meld(MeldKind::Kakan, "5555p")];
    let s = score(&i).unwrap();
    // 20 + 16 + 8 + 8 (closed haku set) + 2 (tanki) = 54 -> 60; haku 1 han: 60 * 8 * 4 = 1920 -> 2000.
    assert_eq!(s.yaku, vec![(HAKU, 1)]);
    assert_eq!((s.fu, s.base_points), (60, 2000));
}

#[test]
fn double_wind_pair_is_4_fu() {
    // Dealer in East round, pair of East: 234m 999p 456s 678s 11z, ron 8s (ryanmen), riichi.
    // 20 + 10 + 8 (closed 999p) + 4 (double wind pair) = 42 -> 50; 50 * 8 * 6 = 2400.
    // (With a 2-fu double-wind rule it would be 40 fu and 2000.)
    let mut i = hand("234m999p456s678s11z", "8s", true);
    i.seat_wind = EAST;
    i.riichi = true;
    let s = score(&i).unwrap();
    assert_eq!(s.yaku, vec![(RIICHI, 1)]);
    assert_eq!((s.fu, s.base_points), (50, 2400));
}

#[test]
fn set_completed_by_ron_is_open() {
    // 222m 555p 345s 77s 88s: shanpon on 7s/8s. Ron 8s: 888s is an open set, two concealed
    // sets only: tanyao, 20 + 10 + 4 + 4 + 2 = 40 fu, 1300.
    let s = score(&hand("222m555p345s7788s8s", "8s", true)).unwrap();
    assert_eq!(s.yaku, vec![(TANYAO, 1)]);
    assert_eq!((s.fu, s.base_points), (40, 1300));
    // Tsumo: three concealed sets, sanankou + tanyao + tsumo = 4 han, 20+2+4+4+4 = 34 -> 40:
    // mangan, 2000/4000 from a non-dealer view = 8000.
    let s = score(&hand("222m555p345s7788s8s", "8s", false)).unwrap();
    assert_eq!(s.yaku, vec![(MENZEN_TSUMO, 1), (TANYAO, 1), (SANANKOU, 2)]);
    assert_eq!((s.fu, s.base_points, s.limit), (40, 8000, Limit::Mangan));
}

#[test]
fn yakuman_counting_tenhou_vs_majiang() {
    // Suuankou tanki: 111m 333p 555s 777z 9m9m, tsumo on 9m.
    let i = hand("111m333p555s777z99m", "9m", false);
    let s = score(&i).unwrap();
    assert_eq!(s.yakuman, vec![SUUANKOU_TANKI]);
    assert!(s.yaku.is_empty());
    assert_eq!((s.yakuman_multiplier, s.base_points), (1, 32000));
    let s = score_with(&i, &ScoreRules::MAJIANG).unwrap();
    assert_eq!((s.yakuman_multiplier, s.base_points), (2, 64000));
    // Daisangen + tsuuiisou add up under both: 555z 666z 777z 111z 22z.
    let s = score(&hand("555666777111z22z", "2z", true)).unwrap();
    assert_eq!(s.yakuman, vec![DAISANGEN, SUUANKOU_TANKI, TSUUIISOU]);
    assert_eq!(s.yakuman_multiplier, 3);
}

#[test]
fn kokushi_and_chuuren() {
    let s = score(&hand("19m19p19s12345677z", "7z", true)).unwrap();
    assert_eq!((s.yakuman.clone(), s.fu), (vec![KOKUSHI_13], 0));
    let s = score(&hand("19m19p19s12345677z", "1z", true)).unwrap();
    assert_eq!(s.yakuman, vec![KOKUSHI]);
    let s = score(&hand("11123455678999m", "5m", true)).unwrap();
    assert_eq!(s.yakuman, vec![JUNSEI_CHUUREN]);
    let s = score(&hand("11123455678999m", "1m", true)).unwrap();
    assert_eq!(s.yakuman, vec![CHUUREN]);
}

#[test]
fn kazoe_yakuman_and_dora_need_a_yaku() {
    // 123p 123p 456p 789p 99p, tsumo 4p: chinitsu 6, ittsu 2, riichi, ippatsu, tsumo, pinfu,
    // iipeikou (1 each) = 13, plus 3 ura: a counted yakuman, 8000/16000 = 32000.
    let mut i = hand("11223345678999p", "4p", false);
    i.riichi = true;
    i.ippatsu = true;
    i.ura_indicators = vec![tile("8p")];
    let s = score(&i).unwrap();
    assert!(s.han >= 13, "{s:?}");
    assert_eq!((s.limit, s.yakuman_multiplier, s.base_points), (Limit::Yakuman, 0, 32000));
    // Dora alone is not a yaku: open hand, no yaku, three dora.
    let mut i = hand("234m456p789m11s", "1s", true);
    i.melds = vec![meld(MeldKind::Chi, "789s")];
    i.dora_indicators = vec![tile("9s")];
    assert_eq!(score(&i), None);
}

#[test]
fn not_a_win() {
    assert_eq!(score(&hand("123m456p789s12344z", "4z", true)), None);
    assert_eq!(score(&hand("123m456p789s1234z", "4z", true)), None, "13 tiles");
    // Winning tile not in the hand.
    assert_eq!(score(&hand("123m456p789s23455s", "9m", true)), None);
}

/// `may_have_yaku` turns away only hands without a yaku: over random complete hands with one to
/// four called melds (chi, pon, open and closed kans), every hand it turns away has no reading
/// with a yaku. The hands are built group by group, so most are open hands of no yaku at all
/// (what the expected-value search meets) and the rest cover the open-hand yaku.
#[test]
fn may_have_yaku_turns_away_only_hands_without_yaku() {
    let mut next = crate::testdata::xorshift(0x9E37_79B9_7F4A_7C15u64);
    let mut rand = |n: usize| (next() % n as u64) as usize;
    let (mut away, mut with_yaku, mut tried) = (0, 0, 0);
    while tried < 200_000 {
        let mut all = [0u8; 34];
        let mut groups = Vec::new();
        while groups.len() < 4 {
            let run = rand(3) > 0;
            let first = if run { 9 * rand(3) + rand(7) } else { rand(34) };
            let ks = if run { [first, first + 1, first + 2] } else { [first; 3] };
            let room = if run { 3 } else { 1 };
            if ks.iter().any(|&k| all[k] > room) {
                continue;
            }
            ks.iter().for_each(|&k| all[k] += 1);
            groups.push((run, first));
        }
        let pair = rand(34);
        if all[pair] > 2 {
            continue;
        }
        all[pair] += 2;
        tried += 1;
        let n_open = 1 + rand(4);
        let mut melds = Vec::new();
        let mut concealed = Vec::new();
        for (i, &(run, first)) in groups.iter().enumerate() {
            if i < n_open {
                let t = |k: usize| Tile::from_kind(k);
                let called = |kind: MeldKind, tiles: &[Tile]| Meld::new(kind, tiles, Some(tiles[0]), 3);
                let m = if run {
                    called(MeldKind::Chi, &[t(first), t(first + 1), t(first + 2)])
                } else if all[first] == 3 && rand(4) == 0 {
                    all[first] += 1;
                    let kind = if i > 0 && rand(2) == 0 { MeldKind::Ankan } else { MeldKind::Daiminkan };
                    Meld::new(kind, &[t(first); 4], (kind != MeldKind::Ankan).then_some(t(first)), 1)
                } else {
                    called(MeldKind::Pon, &[t(first); 3])
                };
                melds.push(m);
            } else {
                let ks = if run { [first, first + 1, first + 2] } else { [first; 3] };
                concealed.extend(ks.map(Tile::from_kind));
            }
        }
        concealed.extend([Tile::from_kind(pair); 2]);
        let win = concealed[rand(concealed.len())];
        let mut input = WinInput::new(concealed, melds, win);
        input.ron = rand(2) == 0;
        input.round_wind = EAST + rand(2);
        input.seat_wind = EAST + rand(4);
        let Some((counts, all)) = checked_counts(&input) else { continue };
        let f = facts(&input, &ScoreRules::TENHOU, &counts, all);
        let best = best_reading(&input, &f, &counts);
        let rules = ScoreRules::TENHOU;
        assert_eq!(base_points_with(&input, &rules), score_with(&input, &rules).map(|s| s.base_points));
        if !may_have_yaku(&f, &counts) {
            away += 1;
            assert!(
                best.is_none(),
                "turned away a hand with a yaku: {:?} {:?}",
                input.concealed,
                input.melds
            );
        }
        with_yaku += usize::from(best.is_some());
    }
    assert!(
        away > 20_000 && with_yaku > 20_000,
        "too few hands of one kind: {away} away, {with_yaku} with yaku"
    );
}

/// Hands with exactly one open-hand yaku each, worked out by hand: the filter lets each through
/// (a condition missing from it would turn the hand away), and the plain hand after them, which
/// has none, is turned away.
#[test]
fn may_have_yaku_lets_each_open_yaku_through() {
    let check = |concealed: &str, win: &str, melds: Vec<Meld>, want: bool| {
        let mut input = WinInput::new(parse_mpsz(concealed).unwrap(), melds, tile(win));
        input.seat_wind = EAST + 1;
        let (counts, all) = checked_counts(&input).unwrap();
        let f = facts(&input, &ScoreRules::TENHOU, &counts, all);
        assert_eq!(may_have_yaku(&f, &counts), want, "{concealed} {:?}", input.melds);
        assert_eq!(
            best_reading(&input, &f, &counts).is_some(),
            want,
            "{concealed}: the case itself is wrong"
        );
    };
    let chi = |s: &str| meld(MeldKind::Chi, s);
    let pon = |s: &str| meld(MeldKind::Pon, s);
    // tanyao: all simples
    check("234m456p678s55s", "5s", vec![chi("345m")], true);
    // yakuhai: pon of white
    check("123m456p789s11s", "1s", vec![pon("555z")], true);
    // honitsu: manzu and honours
    check("123m456m789m11z", "1z", vec![chi("234m")], true);
    // chanta: a terminal or honour in every group and the pair
    check("123m789p999s11z", "1z", vec![chi("789m")], true);
    // ittsu: 123 456 789 of pinzu, one of them called
    check("123p456p11z345s", "3s", vec![chi("789p")], true);
    // sanshoku: 234 in every suit
    check("234p234s678m99m", "9m", vec![chi("234m")], true);
    // toitoi: sets only, one of them concealed, and a pair of a guest wind
    check("222m44z", "4z", vec![pon("444p"), pon("666s"), pon("888s")], true);
    // sanankou: three concealed sets besides a chi
    check("222m444p666s99m", "9m", vec![chi("345s")], true);
    // none: runs of two suits, a simple pair and a terminal run
    check("234m456p678p55m", "5m", vec![chi("123m")], false);
}

/// The kind sets of `facts` are the sets the tile predicates define.
#[test]
fn kind_sets_match_the_tile_predicates() {
    let set = |pred: fn(Kind) -> bool| (0..34).filter(|&k| pred(k)).fold(0u64, |m, k| m | 1 << k);
    assert_eq!(crate::tile::HONOR_KINDS, set(crate::tile::is_honor));
    assert_eq!(crate::tile::TERMINAL_KINDS, set(crate::tile::is_terminal));
    assert_eq!(crate::tile::YAOCHU_KINDS, set(crate::tile::is_yaochu));
    assert_eq!(crate::tile::ALL_KINDS, set(|_| true));
    let green = parse_mpsz("23468s6z").unwrap();
    assert_eq!(GREEN, green.iter().fold(0u64, |m, t| m | 1 << t.kind()));
}
