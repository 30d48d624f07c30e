//! The expected value's tests: unit cases, the tiers on real hands, and the golden values and
//! picks of the reference implementation (電脳麻将) over ../shared/data/kobalab.

use super::ranking::{NO_YAKU, TIE_EPS};
use super::state::*;
use super::yaku_forms::*;
use super::*;
use crate::replay::view::View;
use crate::score::score;
use crate::tile::{parse_mpsz, Counts, Kind, EAST, KINDS};

const SOUTH: Kind = EAST + 1;

/// A position for `hand` (13 or 14 tiles) in East round, South seat (not the dealer), no dora,
/// with `visible` as (tile, copies) pairs.
fn pos(hand: &str, visible: &[(&str, u8)]) -> View {
    let mut p = View::bare(Hand::parse(hand).unwrap(), vec![], EAST, SOUTH);
    for &(t, n) in visible {
        p.visible[parse_mpsz(t).unwrap()[0].kind()] += n;
    }
    p
}

fn value(p: &View) -> f64 {
    hand_value(p, &p.full_hand())
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9 * b.abs().max(1.0)
}

/// The concealed tiles read off the packed counts are the hand's, kind by kind, a red five
/// after the plain ones: on random hands of 1 to 14 tiles with and without their red fives.
#[test]
fn concealed_tiles_are_the_hands_in_kind_order() {
    let mut next = crate::testdata::xorshift(0xC0C0_7111_E500_0001u64);
    let mut tiles = Vec::new();
    for i in 0..3000 {
        let c = crate::testdata::uniform_counts(&mut next, 1 + i % 14);
        let red = (next() % 8) as u8 & [0, 1, 2].iter().fold(0, |r, &s| r | u8::from(c[9 * s + 4] > 0) << s);
        let st = St { c, red, melds: [0; 4], nm: 0, packed: crate::hand::memo::pack(&c) };
        st.concealed_tiles(&mut tiles);
        let mut want = Vec::new();
        for k in 0..KINDS {
            let red_here = red & five_bit(k) != 0;
            for _ in 0..c[k] - u8::from(red_here) {
                want.push(Tile::from_kind(k));
            }
            if red_here {
                want.push(Tile::red_five(k / 9));
            }
        }
        assert_eq!(tiles, want, "{c:?} red {red}");
    }
}

#[test]
fn five_bit_marks_the_three_fives() {
    for k in 0..KINDS {
        let want = if k < 27 && k % 9 == 4 { 1 << (k / 9) } else { 0 };
        assert_eq!(five_bit(k), want, "kind {k}");
    }
}

#[test]
fn complete_hand_is_the_tsumo_score_with_riichi() {
    // 123m 456p 789s 234s 55s, South seat. Best reading: the 2s drawn into 34s (two-sided):
    // riichi + menzen tsumo + pinfu = 3 han 20 fu, non-dealer tsumo 700/1300 = 2700.
    let p = pos("123m456p789s23455s", &[]);
    assert_eq!(value(&p), 2700.0);
    let tiles = parse_mpsz("123m456p789s23455s").unwrap();
    let mut input = WinInput::new(tiles, vec![], parse_mpsz("2s").unwrap()[0]);
    input.seat_wind = SOUTH;
    input.riichi = true;
    assert_eq!(score(&input).unwrap().base_points, 2700);
}

#[test]
fn tenpai_single_wait_is_copies_times_points_over_12() {
    // 234m 456p 789s 13p 55s waits on 2p only (kanchan). Tsumo: riichi + tsumo, 20 + 2 tsumo
    // + 2 kanchan = 24 → 30 fu, 2 han: 500/1000 = 2000. Four 2p unseen: 4 × 2000 / 12.
    let p = pos("234m456p789s13p55s", &[]);
    assert!(close(value(&p), 4.0 * 2000.0 / 12.0), "{}", value(&p));
    // One 2p in a river: 3 copies left.
    let p = pos("234m456p789s13p55s", &[("2p", 1)]);
    assert!(close(value(&p), 3.0 * 2000.0 / 12.0), "{}", value(&p));
}

#[test]
fn red_five_is_its_own_tile() {
    // 234m 46m 678p 789s 55s waits on 5m (kanchan): plain 5m = 2 han 30 fu = 2000 (three
    // copies), the red 5m adds aka: 3 han 30 fu = 1000/2000 = 4000 (one copy).
    let p = pos("23446m678p789s55s", &[]);
    assert!(close(value(&p), (3.0 * 2000.0 + 4000.0) / 12.0), "{}", value(&p));
    // The red 5m is in a river: only the three plain ones are left.
    let mut p = pos("23446m678p789s55s", &[("5m", 1)]);
    let v = EvSearch::new(&p).with_reds(true, [true, false, false]).value(&p.full_hand());
    assert!(close(v, 3.0 * 2000.0 / 12.0), "{v}");
    // Without red fives all four 5m are plain.
    p.visible = [0; KINDS];
    let v = EvSearch::new(&p).with_reds(false, [false; 3]).value(&p.full_hand());
    assert!(close(v, 4.0 * 2000.0 / 12.0), "{v}");
}

/// Visible tiles for the 1- and 2-shanten hands below: three 5z and three 6z are out, so
/// those tiles are dead and only 1z (East, the round wind) and 2z (South, the seat wind)
/// can still be drawn.
const DEAD_DRAGONS: [(&str, u8); 2] = [("5z", 3), ("6z", 3)];

/// C = 123m456p789s 11z 2z 5z (1-shanten), derived by hand:
/// - draw 1z (2 unseen): 111z 2z 5z, discard 5z → 2z tanki (3 unseen). Tsumo 2z: riichi,
///   tsumo, East = 3 han; 20 + 2 tsumo + 8 closed honor set + 2 seat-wind pair + 2 tanki =
///   34 → 40 fu: 1300/2600 = 5200. Tenpai value 3 × 5200 / 12 = 1300.
///   Pon 1z instead: open 2z tanki; East 1 han; 20 + 2 + 4 + 2 + 2 = 30 fu: 300/500 = 1100,
///   value 3 × 1100 / 12 = 275; pon beats chi (none), so the call adds 3 × 275 = 825.
///   Term: 2 × (1300 + 825) = 4250.
/// - draw 2z (3 unseen): 11z 22z 5z, discard 5z → shanpon 1z/2z, 2 unseen each, each tsumo
///   3 han 40 fu = 5200: value (2 + 2) × 5200 / 12; term 3 × that = 5200.
/// - value (4250 + 5200) / 72.
const C_VALUE: f64 = 9450.0 / 72.0;

#[test]
fn one_shanten_divides_by_72_and_counts_pon_three_times() {
    let p = pos("123m456p789s115z2z", &DEAD_DRAGONS);
    assert!(close(value(&p), C_VALUE), "{} vs {}", value(&p), C_VALUE);
}

#[test]
fn two_shanten_divides_by_216() {
    // B = 123m456p789s 1z 2z 5z 6z. Draw 1z (3 unseen): the best discard keeps 11z 2z and a
    // dead dragon, a hand worth C_VALUE (the same counts as C; 11z 5z 6z is worth 0). No pon
    // (one 1z held). Draw 2z (3 unseen): by the 1z/2z symmetry (both one-han winds, the
    // same fu) also C_VALUE. Value: (3 + 3) × C_VALUE / 216.
    let p = pos("123m456p789s1256z", &DEAD_DRAGONS);
    assert!(close(value(&p), 6.0 * C_VALUE / 216.0), "{} vs {}", value(&p), 6.0 * C_VALUE / 216.0);
}

#[test]
fn all_dead_futures_are_worth_zero() {
    // 123m456p789s 1z 3z 5z 6z with every useful tile but 1z out: 1z leads only to tanki
    // waits on dead tiles.
    let p = pos("123m456p789s1356z", &[("3z", 3), ("5z", 3), ("6z", 3)]);
    assert_eq!(value(&p), 0.0);
}

#[test]
fn shanten_back_when_the_normal_wait_is_dead() {
    // 123m456p789s 11z 22z 5z, tenpai after 5z, but both 1z and 2z are out (2 visible each):
    // the normal discard is worth 0. Back: discard 1z, leaving 1-shanten 1z 22z 5z.
    // Drawing 5z (3 unseen) → 1z 22z 55z,
    // discard 1z → shanpon 2z (dead) / 5z (2 unseen): riichi, tsumo, haku, 20 + 2 + 8 + 2
    // seat-wind pair = 32 → 40 fu, 3 han = 5200; tenpai value 2 × 5200 / 12. Future value
    // exceeds 2 × 0, so it counts: 3 × (2 × 5200 / 12) / 72. Discarding 2z is symmetric
    // (11z pair is the round wind: the same 2 fu). The gate passes (6 × 0 ukeire). The tie
    // goes as in 電脳麻将: both winds have paijia 0 (no copy unseen), so the later kind, 2z.
    let p = pos("123m456p789s11225z", &[("1z", 2), ("2z", 2)]);
    let r = rank(&p);
    let want = 3.0 * (2.0 * 5200.0 / 12.0) / 72.0;
    assert_eq!(r[0].tile.to_string(), "2z", "{r:?}");
    assert!(close(r[0].score, want) && close(r[1].score, want), "{r:?}");
    let normal = r.iter().find(|o| o.tile.to_string() == "5z").unwrap();
    assert_eq!((r[0].shanten, normal.shanten, normal.score), (1, 0, 0.0), "{r:?}");
}

#[test]
fn shanten_back_needs_six_times_the_ukeire() {
    // The same hand with one 2z visible: the shanpon keeps one 2z (4 - 1 - 2 held), so the
    // normal discard 5z has ukeire 1 and value 1 × 5200 / 12. Discarding 1z leaves ukeire
    // 0 (1z) + 1 (2z) + 3 (5z) = 4 < 6 × 1: not searched, scored -(1 + 1) + 4 / 1000.
    let p = pos("123m456p789s11225z", &[("1z", 2), ("2z", 1)]);
    let r = rank(&p);
    assert_eq!(r[0].tile.to_string(), "5z", "{r:?}");
    assert!(close(r[0].score, 5200.0 / 12.0), "{r:?}");
    let back = r.iter().find(|o| o.tile.to_string() == "1z").unwrap();
    assert_eq!((back.ukeire, back.shanten), (4, 1));
    assert!(close(back.score, -2.0 + 0.004), "{r:?}");
}

#[test]
fn ties_go_to_the_least_useful_tile() {
    // 123m 456p 789s 234s + 1p 9p: either discard leaves a terminal tanki, 3 unseen, tsumo
    // riichi + tsumo 30 fu (20 + 2 + 2 → 30) = 2000: value 3 × 2000 / 12 = 500 both. With
    // three 2p visible, 1p's paijia is u(1p) + 2 min(u(2p), u(3p)) = 3 + 2 = 5 and 9p's is
    // 3 + 2 min(u(7p), u(8p)) = 3 + 8 = 11: 1p goes first.
    let p = pos("123m456p789s234s19p", &[("2p", 3)]);
    let paijia = Paijia::new(&p, true, [false; 3]);
    assert_eq!(paijia.value(parse_mpsz("1p").unwrap()[0]), 5.0);
    assert_eq!(paijia.value(parse_mpsz("9p").unwrap()[0]), 11.0);
    let r = rank(&p);
    let top: Vec<String> = r.iter().take(2).map(|o| o.tile.to_string()).collect();
    assert_eq!(top, ["1p", "9p"], "{r:?}");
    assert!(close(r[0].score, 500.0) && close(r[1].score, 500.0), "{r:?}");
}

#[test]
fn discard_value_is_the_value_after_the_discard() {
    // 5m discard of the kanchan hand: tenpai on 2p, 4 unseen (nothing visible) × 2000 / 12.
    let p = pos("234m456p789s13p55s5m", &[]);
    let mut search = EvSearch::new(&p);
    let v = search.discard_value(parse_mpsz("5m").unwrap()[0]).unwrap();
    assert!(close(v, 4.0 * 2000.0 / 12.0), "{v}");
    assert_eq!(search.discard_value(parse_mpsz("9m").unwrap()[0]), None);
}

#[test]
fn unnecessary_tiles_keep_shanten() {
    // xiangting's unnecessary tiles of a 3n+2 hand are exactly the kinds whose discard keeps
    // the minimum shanten: checked against discarding each kind.
    for h in ["1234m567p88s12345z", "123m456p789s11225z", "19m19p19s1234567z1m", "123m456p78s115z"] {
        let c = crate::tile::counts_of(&parse_mpsz(h).unwrap());
        let (s, keep) = crate::hand::shanten::unnecessary_kinds(&c);
        assert_eq!(s, min_shanten(&c), "{h}");
        for k in (0..KINDS).filter(|&k| c[k] > 0) {
            let mut d = c;
            d[k] -= 1;
            assert_eq!(keep >> k & 1 == 1, min_shanten(&d) == s, "{h} kind {k}");
        }
    }
}

/// Real hands: kobalab's 14-tile shanten vectors, as positions in East round, South seat,
/// nothing visible. Only hands at minimum shanten `lo..=hi`.
pub(crate) fn kobalab_positions(lo: i8, hi: i8, limit: usize) -> Vec<View> {
    let Some(dir) = crate::testdata::shared_file("kobalab") else { return Vec::new() };
    #[derive(serde::Deserialize)]
    struct Case {
        q: Vec<String>,
        x: [i8; 3],
    }
    let mut out = Vec::new();
    for i in 1..=4 {
        let text = std::fs::read_to_string(dir.join(format!("xiangting_{i}.json"))).unwrap();
        let cases: Vec<Case> = serde_json::from_str(&text).unwrap();
        for c in cases {
            let min = *c.x.iter().min().unwrap();
            if !(lo..=hi).contains(&min) {
                continue;
            }
            let tiles = c.q.iter().map(|t| crate::tile::parse_majiang(t).unwrap()[0]).collect();
            out.push(View::bare(Hand::new(tiles, vec![]), vec![], crate::tile::EAST, crate::tile::EAST + 1));
            if out.len() == limit {
                return out;
            }
        }
    }
    out
}

mod real_data {
    use super::*;

    /// Rankings of real 1- and 2-shanten hands keep the module's tiers: scores never increase
    /// down the list, searched options score ≥ 0, options at 3+ shanten score in
    /// (-shanten, -shanten + 0.544], and the top option never has a higher shanten than needed
    /// unless it is a searched shanten-back discard.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn tiers_hold_on_kobalab_hands() {
        let positions = kobalab_positions(0, 3, 300);
        if positions.is_empty() {
            return;
        }
        for p in &positions {
            let s = min_shanten(&p.hand_counts());
            let r = rank(p);
            assert_eq!(r.len(), p.full_hand().distinct_tiles().len());
            for w in r.windows(2) {
                assert!(w[0].score >= w[1].score - TIE_EPS, "{}: {r:?}", p.full_hand());
            }
            for o in &r {
                if o.shanten >= 3 {
                    let sh = o.shanten as f64;
                    assert!(o.score > -sh && o.score <= -sh + 0.544, "{}: {o:?}", p.full_hand());
                } else if o.shanten == s {
                    assert!(o.score >= 0.0, "{}: {o:?}", p.full_hand());
                }
            }
            assert!(r[0].shanten == s || (s <= 1 && r[0].score >= 0.0), "{}: {r:?}", p.full_hand());
        }
    }

    /// Debug-build timing of `rank` on real 1- and 2-shanten hands; run with
    /// `cargo test --lib expected_value::real_data::timing -- --ignored --nocapture`.
    #[test]
    #[ignore = "a timing, run by hand (see the doc comment): a debug-build figure, not a check"]
    fn timing() {
        for s in [1, 2] {
            let positions = kobalab_positions(s, s, 200);
            let mut memo = 0;
            let mut times: Vec<f64> = positions
                .iter()
                .map(|p| {
                    let t = std::time::Instant::now();
                    let mut search = EvSearch::new(p);
                    std::hint::black_box(search.rank());
                    memo += search.memo_len();
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            times.sort_by(f64::total_cmp);
            let n = times.len();
            let mean = times.iter().sum::<f64>() / n as f64;
            println!(
                "shanten {s}: {n} positions, mean {mean:.3} ms, median {:.3} ms, p99 {:.3} ms, max {:.3} ms, \
                 {} memo entries per position",
                times[n / 2],
                times[(n * 99 / 100).min(n - 1)],
                times[n - 1],
                memo / n
            );
        }
    }
}

/// Golden values from the reference implementation, kobalab's `@kobalab/majiang-ai` 1.0.13 (MIT
/// License, Copyright (c) 2021 Satoshi Kobayashi), computed by its own `eval_shoupai` (every
/// discard that keeps shanten) and its `select_dapai` logic (the pick's value, shanten back
/// included) on 233 kobalab hands at shanten 0, 1 and 2 in three table contexts (8 picks are
/// shanten-back discards, 77 hands hold red fives). testdata/README.md says how it was made.
mod majiang_ai {
    use super::*;
    use crate::tile::{parse_majiang, EAST};

    #[derive(serde::Deserialize)]
    struct Opt {
        discard: String,
        ev: f64,
    }
    #[derive(serde::Deserialize)]
    struct Case {
        q: String,
        variant: u8,
        options: Vec<Opt>,
        pick_ev: f64,
    }

    /// Variant 0: East round, South seat, no dora, nothing visible. Variant 1: South round,
    /// East seat (dealer), dora indicator 4s, visible 5z 5z 7p and the red 5m. Variant 2: as 0,
    /// the hand holding red fives.
    fn position(q: &str, variant: u8) -> (View, [bool; 3]) {
        let hand = Hand::new(parse_majiang(q).unwrap(), vec![]);
        if variant != 1 {
            return (View::bare(hand, vec![], EAST, EAST + 1), [false; 3]);
        }
        let mut p = View::bare(hand, parse_majiang("s4").unwrap(), EAST + 1, EAST);
        for t in parse_majiang("z55p7m0").unwrap() {
            p.visible[t.kind()] += 1;
        }
        (p, [true, false, false])
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-6 * b.abs().max(1.0)
    }

    #[test]
    fn values_and_picks_match_majiang_ai() {
        let text = include_str!("../testdata/majiang_ai_ev.json");
        let cases: Vec<Case> = serde_json::from_str(text).unwrap();
        assert_eq!(cases.len(), 233);
        let mut bad = Vec::new();
        let mut options = 0;
        for c in &cases {
            let (p, reds) = position(&c.q, c.variant);
            // majiang-core counts suuankou tanki and the other "double" forms twice.
            let mut search = EvSearch::new(&p).with_reds(true, reds).with_rules(ScoreRules::MAJIANG);
            for o in &c.options {
                let t = parse_majiang(&o.discard).unwrap()[0];
                let v = search.value(&p.full_hand().without(t).unwrap());
                options += 1;
                if !close(v, o.ev) {
                    bad.push(format!(
                        "{} v{} -{}: ours {v} theirs {}",
                        p.full_hand(),
                        c.variant,
                        o.discard,
                        o.ev
                    ));
                }
            }
            let r = search.rank();
            if !close(r[0].score, c.pick_ev) {
                bad.push(format!(
                    "{} v{} pick: ours {:?} theirs {}",
                    p.full_hand(),
                    c.variant,
                    r[0],
                    c.pick_ev
                ));
            }
        }
        assert_eq!(options, 728);
        assert!(bad.is_empty(), "{} of {options} differ: {:#?}", bad.len(), &bad[..bad.len().min(10)]);
    }
}

/// Golden picks of 電脳麻将 on real positions: 2,502 discard decisions after a draw from shared
/// games, with nobody in riichi (500 per shanten 0, 1, 2, 3, 4+), each with the pick of
/// `@kobalab/majiang-ai` 1.0.13's `select_dapai` (MIT License, Copyright (c) 2021 Satoshi
/// Kobayashi), the paijia of every candidate and the value of every shanten-keeping discard.
/// Made by `scripts/majiang_golden.sh` (examples/majiang_positions.rs, then
/// scripts/majiang_golden.js); `majiang_ai_open.jsonl` (`scripts/majiang_golden.sh --open`) holds
/// open hands from other games: at tenpai without a yaku, then per shanten.
mod majiang_picks {
    use super::*;
    use crate::rank::majiang_position::{parse_line, tile_name, MajiangPosition};
    use crate::tile::parse_majiang;
    use std::collections::BTreeMap;

    #[derive(serde::Deserialize)]
    struct Candidate {
        paijia: f64,
        ev: Option<f64>,
    }

    /// What a golden line adds to its position: majiang-ai's pick and candidates.
    #[derive(serde::Deserialize)]
    struct Golden {
        id: String,
        shoupai: String,
        shanten: i8,
        pick: String,
        candidates: BTreeMap<String, Candidate>,
    }

    struct Case {
        pos: MajiangPosition,
        g: Golden,
    }

    fn cases(text: &str) -> Vec<Case> {
        text.lines()
            .map(|line| Case { pos: parse_line(line).unwrap(), g: serde_json::from_str(line).unwrap() })
            .collect()
    }

    fn picks() -> Vec<Case> {
        cases(include_str!("../testdata/majiang_ai_picks.jsonl"))
    }

    #[test]
    fn paijia_matches_majiang_ai() {
        let mut bad = Vec::new();
        let mut n = 0;
        for c in picks() {
            let v = &c.pos.view;
            let p = Paijia::new(v, v.red_fives, v.visible_reds);
            for (tile, cand) in &c.g.candidates {
                let t = parse_majiang(tile).unwrap()[0];
                n += 1;
                if p.value(t) != cand.paijia {
                    bad.push(format!(
                        "{} {} {tile}: ours {} theirs {}",
                        c.g.id,
                        c.g.shoupai,
                        p.value(t),
                        cand.paijia
                    ));
                }
            }
        }
        assert!(n > 20_000, "{n} candidates");
        assert!(bad.is_empty(), "{} of {n} differ: {:#?}", bad.len(), &bad[..bad.len().min(10)]);
    }

    /// The positions whose `ev` pick differs from majiang-ai's, by shanten: (summary, examples).
    fn differing(cases: &[Case]) -> (Vec<(i8, usize)>, Vec<String>) {
        let mut bad: BTreeMap<i8, Vec<String>> = BTreeMap::new();
        for c in cases {
            let r = c.pos.rank_ev();
            let ours = tile_name(r[0].tile);
            if ours != c.g.pick {
                let theirs_ev = c.g.candidates.get(&c.g.pick).and_then(|x| x.ev);
                let ours_ev = c.g.candidates.get(&ours).and_then(|x| x.ev);
                bad.entry(c.g.shanten).or_default().push(format!(
                    "{} {} ours {ours} ({:.3}; theirs for it {ours_ev:?}) theirs {} ({theirs_ev:?})",
                    c.g.id, c.g.shoupai, r[0].score, c.g.pick
                ));
            }
        }
        let summary = bad.iter().map(|(s, v)| (*s, v.len())).collect();
        (summary, bad.values().flat_map(|v| v.iter().take(4).cloned()).collect())
    }

    #[test]
    fn picks_match_majiang_ai() {
        let cases = picks();
        assert_eq!(cases.len(), 2502);
        let (summary, first) = differing(&cases);
        assert!(summary.is_empty(), "differing picks by shanten {summary:?}: {first:#?}");
    }

    fn open_cases() -> Vec<Case> {
        let cases = cases(include_str!("../testdata/majiang_ai_open.jsonl"));
        assert!(cases.len() > 400, "{} positions", cases.len());
        let called = |c: &Case| c.pos.view.melds.iter().any(|m| m.kind != crate::hand::meld::MeldKind::Ankan);
        assert!(cases.iter().all(called));
        cases
    }

    /// Every pick on the open hands agrees, the open tenpai hands without a yaku among them (a
    /// shanten-back discard that only ties the best normal discard does not take its place).
    #[test]
    fn open_hand_picks_match_majiang_ai() {
        let (summary, first) = differing(&open_cases());
        assert!(summary.is_empty(), "differing picks by shanten {summary:?}: {first:#?}");
    }
}

/// [`EvSearch::far`] against its definition: the form-by-form shortcut gives the same score as
/// trying every form for every draw (the code before the shortcut, kept here as the oracle).
mod far_oracle {
    use super::*;
    use crate::hand::majiang;
    use crate::tile::{parse_majiang, EAST};

    /// The yaku-aware shanten by its definition, every form written out.
    fn yaku_shanten_ref(ev: &EvSearch, c: &Counts, melds: &[u16]) -> i8 {
        let nm = melds.len();
        let ty = |m: u16| m >> 7;
        let first = |m: u16| (m & 63) as usize;
        let closed = melds.iter().all(|&m| ty(m) == CLOSED_KAN);
        let mut best = NO_YAKU;
        if closed {
            best = best.min(plain_shanten(c, nm));
        }
        let roles = [ev.pos.round_wind, ev.pos.seat_wind, 31, 32, 33];
        let mut sets = 0;
        let mut back = None;
        for &k in &roles {
            if c[k] >= 3 {
                sets += 1;
            } else if c[k] == 2 && ev.unseen_kind(&(ev.root, ev.root_red), k) > 0 {
                back = Some(k);
            }
            sets += melds.iter().filter(|&&m| ty(m) != CHI && first(m) == k).count();
        }
        if sets > 0 {
            best = best.min(plain_shanten(c, nm));
        } else if let Some(k) = back {
            let mut c2 = *c;
            c2[k] -= 2;
            best = best.min(plain_shanten(&c2, nm + 1).saturating_add(1));
        }
        let terminal_meld = melds.iter().any(|&m| {
            let k = first(m);
            k >= 27 || if ty(m) == CHI { k % 9 == 0 || k % 9 == 6 } else { k % 9 == 0 || k % 9 == 8 }
        });
        if (closed || ev.rules.kuitan) && !terminal_meld {
            let mut c2 = *c;
            for k in 0..KINDS {
                if k >= 27 || k % 9 == 0 || k % 9 == 8 {
                    c2[k] = 0;
                }
            }
            best = best.min(plain_shanten(&c2, nm));
        }
        if melds.iter().all(|&m| ty(m) != CHI) {
            let kezi = nm as i8 + c.iter().filter(|&&x| x >= 3).count() as i8;
            let mut duizi = c.iter().filter(|&&x| x == 2).count() as i8;
            if kezi + duizi > 5 {
                duizi = 5 - kezi;
            }
            best = best.min(8 - 2 * kezi - duizi);
        }
        for suit in 0..3 {
            if melds.iter().all(|&m| first(m) >= 27 || first(m) / 9 == suit) {
                let mut c2 = *c;
                for k in (0..27).filter(|k| k / 9 != suit) {
                    c2[k] = 0;
                }
                best = best.min(plain_shanten(&c2, nm));
            }
        }
        best
    }

    /// The 3+ shanten score by its definition: every kind's draw tried on every form.
    fn far_ref(ev: &EvSearch, h: &St) -> f64 {
        let melds = &h.melds[..h.nm];
        let x = yaku_shanten_ref(ev, &h.c, melds);
        if x >= NO_YAKU {
            return -(NO_YAKU as f64);
        }
        let held = h.all();
        let mut w = 0u32;
        for k in (0..KINDS).filter(|&k| h.c[k] < 4) {
            let mut c = h.c;
            c[k] += 1;
            if yaku_shanten_ref(ev, &c, melds) >= x {
                continue;
            }
            let n = ev.unseen_kind(&held, k);
            if n == 0 {
                continue;
            }
            let after_call = |c: &Counts, ty: u16, first: Kind| {
                let mut m = [0u16; 4];
                m[..melds.len()].copy_from_slice(melds);
                m[melds.len()] = ty << 7 | first as u16;
                yaku_shanten_ref(ev, c, &m[..melds.len() + 1]) < x
            };
            let pon = x > 0 && h.c[k] >= 2 && {
                let mut c = h.c;
                c[k] -= 2;
                after_call(&c, PON, k)
            };
            let chi = x > 0
                && !pon
                && chi_pairs(&h.c, k).any(|(a, b)| {
                    let mut c = h.c;
                    c[a] -= 1;
                    c[b] -= 1;
                    after_call(&c, CHI, a.min(b).min(k))
                });
            w += n * if pon {
                4
            } else if chi {
                2
            } else {
                1
            };
        }
        w as f64 / 1000.0 - x as f64
    }

    /// Every golden position (real hands, open ones among them, shanten 0 to 6, every seat and
    /// round wind): each 13-tile hand after a discard, and every 97th of that hand with one
    /// drawable kind swapped for one of its tiles, under Tenhou's rules and, for open hands,
    /// without open tanyao too.
    #[test]
    fn far_equals_the_form_by_form_definition() {
        let text = include_str!("../testdata/majiang_ai_picks.jsonl");
        let (mut n, mut bad) = (0, Vec::new());
        for line in text.lines() {
            let g: serde_json::Value = serde_json::from_str(line).unwrap();
            let (hand, _) = majiang::parse(g["shoupai"].as_str().unwrap()).unwrap();
            let dora: Vec<Tile> = g["baopai"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| parse_majiang(p.as_str().unwrap()).unwrap()[0])
                .collect();
            let wind = |f: &str| EAST + g[f].as_u64().unwrap() as usize;
            let pos = View::bare(hand, dora, wind("zhuangfeng"), wind("menfeng"));
            let rules: &[bool] = if pos.melds.is_empty() { &[true] } else { &[true, false] };
            for &kuitan in rules {
                let ev = EvSearch::new(&pos).with_rules(ScoreRules { kuitan, ..ScoreRules::TENHOU });
                let h14 = St::from_hand(&pos.full_hand());
                for d in (0..KINDS).filter(|&d| h14.c[d] > 0) {
                    let h = h14.without(h14.discard_tile(d));
                    let mut hands = vec![h];
                    for k in (0..KINDS).filter(|&k| h.c[k] < 4 && k != d) {
                        for e in (0..KINDS).filter(|&e| h.c[e] > 0 && e != k) {
                            hands.push(h.with(Tile::from_kind(k)).without(h.discard_tile(e)));
                        }
                    }
                    for h in hands.iter().step_by(97) {
                        n += 1;
                        let (a, b) = (ev.far(h), far_ref(&ev, h));
                        if a.to_bits() != b.to_bits() && bad.len() < 10 {
                            bad.push(format!("{} kuitan {kuitan}: {:?} far {a} reference {b}", g["id"], h.c));
                        }
                    }
                }
            }
        }
        assert!(n > 40_000, "{n} hands");
        assert!(bad.is_empty(), "{} hands differ, e.g. {bad:#?}", bad.len());
    }
}

/// [`plain_lowering`] is, kind by kind, whether [`plain_shanten`] of the hand one draw away is
/// lower: random hands of every size up to 13 tiles (clumped so that groups are common, and
/// reduced to a flush or the 2-8 tiles as the yaku forms reduce them), 0-4 melds.
#[test]
fn plain_lowering_is_per_kind() {
    let mut next = crate::testdata::xorshift(0x91A1_0E5E_0000_0007u64);
    let mut checked = 0;
    for i in 0..4_000 {
        let tiles = (next() % 14) as usize;
        let mut c: Counts = [0; KINDS];
        let (mut n, mut k) = (0, (next() % KINDS as u64) as usize);
        while n < tiles {
            k = if next() % 3 == 0 {
                (next() % KINDS as u64) as usize
            } else {
                (k + (next() % 3) as usize) % KINDS
            };
            if c[k] < 4 {
                c[k] += 1;
                n += 1;
            }
        }
        let c = match i % 4 {
            0 => tanyao_counts(&c),
            1 => flush_counts(&c, i / 4 % 3),
            _ => c,
        };
        for melds in 0..=4 {
            let got = plain_lowering(&c, melds);
            let p = plain_shanten(&c, melds);
            for k in (0..KINDS).filter(|&k| c[k] < 4) {
                let mut c2 = c;
                c2[k] += 1;
                assert_eq!(got >> k & 1 == 1, plain_shanten(&c2, melds) < p, "{c:?} + {k}, {melds} melds");
                checked += 1;
            }
            assert_eq!(got & !(0..KINDS).filter(|&k| c[k] < 4).fold(0u64, |a, k| a | 1 << k), 0);
        }
    }
    assert!(checked > 500_000, "{checked}");
}

/// [`POOLED_MEMO_MAX`]' doc: a pooled map's entries take about 1.5 MB, and the pool keeps four.
#[test]
fn pooled_memo_maps_are_bounded() {
    let entries = POOLED_MEMO_MAX * std::mem::size_of::<((u128, u64), f64)>();
    assert!((1_400_000..1_700_000).contains(&entries), "{entries} bytes");
    assert_eq!(MEMO_POOL_MAPS, 4);
}
