//! 電脳麻将's danger score of a discard against the riichi players (kobalab's `weixian`, from
//! `suanpai.js`), in its two published forms, written from their descriptions and checked against
//! the reference code on real positions (`testdata/majiang_ai_danger.jsonl`):
//!
//! - **[`level`]**, the integer levels of majiang-ai's player 0101 to 0402 (`legacy/suanpai-0305.js`,
//!   the 押し引き posts up to 押し引きアルゴリズムの改善(2), seed 000). Against one riichi player:
//!   0 for a genbutsu; an honour scores its unseen copies, at most 3; a suited tile scores by its
//!   suji: 1/9 3 with the suji out (4 / 6) else 6; 2/8 4 else 8; 3/7 5 else 8; 4-6 4 with both
//!   suji out, 8 with one, 12 with none. So a level above 5 is a "no-suji" tile, which is what
//!   the seed's `min < 6` and `weixian > 5` test.
//! - **[`relative`]**, majiang-ai 1.0.13's (player 0504): an absolute score from the wait shapes
//!   still possible (kabe: a shape needs its two other tiles unseen), then normalised to a share
//!   of the 34 kinds' total (× 100), × 1.4 against the dealer. Absolute score: 0 for a genbutsu;
//!   c = unseen copies minus one when we hold none of it; 3 for c = 3 (8 for an honour), 3 for
//!   c = 2, 1 for c = 1 (shanpon / tanki); an honour stops there. A suited tile adds, per shape
//!   that could wait on it: ryanmen from below (n-2, n-1 unseen) 10, or 3 when it is the 1-2
//!   penchan (n = 3), or 0 when its suji n-3 is genbutsu; kanchan (n-1, n+1 unseen) 3; ryanmen
//!   from above likewise with n+1, n+2, the 8-9 penchan and suji n+3.
//!
//! With several riichi players, both forms take the highest value over them. Genbutsu is what
//! 電脳麻将 counts as discarded against a player: every kind in their river (called-away tiles
//! too) and every kind anyone discarded after their riichi declaration ([`Opponent::riichi_passed`]).

use super::safety::{self, KindSet, Suji};
use crate::replay::view::View;
use crate::tile::{is_honor, Counts, Tile, KINDS};

pub use super::safety::{genbutsu, unseen_counts};

/// The seed-era integer level of kind `k` against one riichi player whose safe kinds are `gen`
/// (see the module doc).
pub fn level_against(gen: KindSet, unseen: &Counts, k: usize) -> u8 {
    if gen.contains(k) {
        return 0;
    }
    let Some(suji) = safety::suji(gen, k) else {
        return unseen[k].min(3);
    };
    // (level with its suji out, level without) for the terminal-side ranks.
    let edge = match k % 9 + 1 {
        1 | 9 => Some((3, 6)),
        2 | 8 => Some((4, 8)),
        3 | 7 => Some((5, 8)),
        _ => None,
    };
    match (edge, suji) {
        (Some((out, _)), Suji::Full) => out,
        (Some((_, bare)), _) => bare,
        (None, Suji::Full) => 4,
        (None, Suji::Half) => 8,
        (None, Suji::None) => 12,
    }
}

/// The seed-era level of `tile` in the position: the highest over the riichi players; `None`
/// when nobody is in riichi.
pub fn level(pos: &View, tile: Tile) -> Option<u8> {
    let unseen = unseen_counts(pos);
    pos.riichi_opponents().map(|r| level_against(genbutsu(r), &unseen, tile.kind())).max()
}

/// 1.0.13's absolute score of kind `k` against one riichi player; `held` = copies in our
/// concealed hand (see the module doc).
pub fn absolute_against(gen: KindSet, unseen: &Counts, held: &Counts, k: usize) -> u32 {
    if gen.contains(k) {
        return 0;
    }
    let honour = is_honor(k);
    let c = unseen[k] as i32 - i32::from(held[k] == 0);
    let mut r = match c {
        3 if honour => 8,
        2 | 3 => 3,
        1 => 1,
        _ => 0,
    };
    if honour {
        return r;
    }
    // Ryanmen or penchan from each side: a shape needs both its tiles unseen (kabe).
    for shape in safety::side_shapes(k) {
        let [a, b] = shape.tiles;
        r += if unseen[a].min(unseen[b]) == 0 {
            0
        } else if shape.penchan {
            3
        } else if shape.other_wait.is_some_and(|w| gen.contains(w)) {
            0
        } else {
            10
        };
    }
    let n = k % 9 + 1;
    if n > 1 && n < 9 && unseen[k - 1].min(unseen[k + 1]) > 0 {
        r += 3; // kanchan
    }
    r
}

/// 1.0.13's relative danger of every kind: per riichi player the absolute scores as a share of
/// their sum × 100 (× 1.4 against the dealer), then the highest over the players; `None` when
/// nobody is in riichi.
pub fn relative_all(pos: &View) -> Option<[f64; KINDS]> {
    let unseen = unseen_counts(pos);
    let held = pos.hand_counts();
    let mut out: Option<[f64; KINDS]> = None;
    for r in pos.riichi_opponents() {
        let gen = genbutsu(r);
        let abs: [u32; KINDS] = std::array::from_fn(|k| absolute_against(gen, &unseen, &held, k));
        let sum = abs.iter().sum::<u32>().max(1) as f64;
        let scale = if r.is_dealer { 1.4 } else { 1.0 };
        let all = out.get_or_insert([0.0; KINDS]);
        for k in 0..KINDS {
            all[k] = all[k].max(abs[k] as f64 / sum * 100.0 * scale);
        }
    }
    out
}

/// 1.0.13's relative danger of `tile` (see [`relative_all`]).
pub fn relative(pos: &View, tile: Tile) -> Option<f64> {
    relative_all(pos).map(|a| a[tile.kind()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::parse_mpsz;

    fn kind(s: &str) -> usize {
        parse_mpsz(s).unwrap()[0].kind()
    }

    fn gen_of(s: &str) -> KindSet {
        parse_mpsz(s).unwrap().iter().map(|t| t.kind()).collect()
    }

    /// Levels worked out from the seed-era table by hand.
    #[test]
    fn seed_levels() {
        let g = gen_of("4m5p9s1z");
        let mut unseen = [4u8; KINDS];
        unseen[kind("2z")] = 1;
        let l = |s: &str| level_against(g, &unseen, kind(s));
        assert_eq!(l("4m"), 0); // genbutsu
        assert_eq!(l("1z"), 0);
        assert_eq!(l("2z"), 1); // one copy unseen
        assert_eq!(l("7z"), 3); // four unseen, capped
        assert_eq!(l("1m"), 3); // suji of 4m
        assert_eq!(l("7m"), 5);
        assert_eq!(l("9m"), 6); // needs 6m
        assert_eq!(l("2p"), 4); // suji of 5p
        assert_eq!(l("8p"), 4);
        assert_eq!(l("3p"), 8); // needs 6p
        assert_eq!(l("6s"), 8); // 9s out, 3s not: half suji
        assert_eq!(l("5s"), 12); // neither 2s nor 8s
        assert_eq!(l("1m"), 3);
        let both = gen_of("1s7s");
        assert_eq!(level_against(both, &unseen, kind("4s")), 4);
    }

    /// Absolute scores of 1.0.13 by hand: shapes, kabe and the held-copy rule.
    #[test]
    fn absolute_scores() {
        let g = gen_of("1m");
        let mut unseen = [4u8; KINDS];
        let mut held = [0u8; KINDS];
        let a = |u: &Counts, h: &Counts, s: &str| absolute_against(g, u, h, kind(s));
        // 4m, none held: c = 3 → 3; below: 2m3m unseen, suji 1m genbutsu → 0; kanchan 3; above
        // 5m6m, suji 7m not out → 10. Total 16.
        assert_eq!(a(&unseen, &held, "4m"), 16);
        // Holding one 4m: c = 4 → 0 shanpon/tanki points, 13.
        held[kind("4m")] = 1;
        assert_eq!(a(&unseen, &held, "4m"), 13);
        // 3m: below is the 1-2 penchan (3), kanchan 3, above 10; c = 3 → 3: 19.
        assert_eq!(a(&unseen, &held, "3m"), 19);
        // Kabe: all 2m seen kills the penchan and the kanchan of 3m: 3 + 10.
        unseen[kind("2m")] = 0;
        assert_eq!(a(&unseen, &held, "3m"), 13);
        // Honours: 3 unseen after the one we would cut → 8; two → 3.
        assert_eq!(a(&unseen, &held, "5z"), 8);
        unseen[kind("6z")] = 3;
        assert_eq!(a(&unseen, &held, "6z"), 3);
        // Genbutsu 0.
        assert_eq!(a(&unseen, &held, "1m"), 0);
    }

    /// One line of `testdata/majiang_ai_danger.jsonl`.
    #[derive(serde::Deserialize)]
    struct Golden {
        id: String,
        unseen: Vec<u8>,
        held: Vec<u8>,
        riichi: Vec<GoldenRiichi>,
        relative: Vec<f64>,
        level: Vec<u8>,
    }

    #[derive(serde::Deserialize)]
    struct GoldenRiichi {
        l: usize,
        genbutsu: Vec<usize>,
    }

    /// The seat's view of a golden line: the concealed hand, everything else not unseen as
    /// visible, each riichi player with its genbutsu kinds as its river.
    fn golden_view(g: &Golden) -> View {
        use crate::replay::view::{Opponent, SeenDiscard};
        let mut hand = Vec::new();
        for (k, &n) in g.held.iter().enumerate() {
            hand.extend((0..n).map(|_| Tile::from_kind(k)));
        }
        let mut p = View::bare(crate::hand::Hand::new(hand, vec![]), vec![], 27, 28);
        p.visible = std::array::from_fn(|k| 4 - g.unseen[k] - g.held[k]);
        for (i, r) in g.riichi.iter().enumerate() {
            let river = r
                .genbutsu
                .iter()
                .map(|&k| SeenDiscard { tile: Tile::from_kind(k), tsumogiri: false, called: false })
                .collect();
            p.opponents[i] =
                Opponent { river, riichi_at: Some(0), is_dealer: r.l == 0, ..Opponent::default() };
        }
        p
    }

    fn golden() -> Vec<Golden> {
        include_str!("testdata/majiang_ai_danger.jsonl")
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// Every kind of 300 real riichi positions: the seed-era levels equal majiang-ai's
    /// `legacy/suanpai-0305.js`, the relative scores its 1.0.13 `suan_weixian_all`.
    #[test]
    fn golden_positions_match_majiang_ai() {
        let lines = golden();
        assert_eq!(lines.len(), 300);
        assert!(lines.iter().any(|g| g.riichi.len() > 1), "the sample has multi-riichi tables");
        for g in &lines {
            let p = golden_view(g);
            let rel = relative_all(&p).unwrap();
            for k in 0..KINDS {
                let t = Tile::from_kind(k);
                assert_eq!(level(&p, t), Some(g.level[k]), "{} kind {k}", g.id);
                assert!(
                    (rel[k] - g.relative[k]).abs() < 1e-9,
                    "{} kind {k}: {} vs {}",
                    g.id,
                    rel[k],
                    g.relative[k]
                );
            }
        }
    }
}
