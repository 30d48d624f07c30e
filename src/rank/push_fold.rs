//! Push / fold against riichi: a policy layer over any evaluator's ranking.
//!
//! When an opponent is in riichi, the hand is classed by its expected value (the
//! [`expected_value`](super::expected_value) of its best discard): **weak** below
//! [`Thresholds::good`] (400 points), **good** up to [`Thresholds::excellent`] (1200), **excellent**
//! above. A hand at 3+ shanten is weak whatever its value. Then:
//! - weak: fold, every tile ordered by safety (safest first), the evaluator's order among equals;
//! - good: push only safe-looking tiles: genbutsu, suji and honors keep the evaluator's order
//!   and come first; the other tiles follow, safest first (so with no such tile it folds);
//! - excellent: push anything, the ranking is unchanged.
//!
//! Safety is deliberately simple and self-contained, from the riichi players' rivers (each an
//! [`Opponent`] of the seat's [`View`]) and the tiles visible to us; with several riichi players a tile gets its worst
//! class. The policy returns the re-ranked list with scores rewritten to `n, n-1, …, 1` down the
//! list, so "highest score = the pick" still holds; the evaluator's own scores stay in the
//! ranking it was given.

use super::expected_value;
use super::RankedDiscard;
use crate::replay::view::{Opponent, View};
use crate::tile::{is_honor, Counts, Tile, KINDS};

/// How safe a discard is against one riichi player, safest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Safety {
    /// In the riichi player's river, or passed by anyone after the riichi (furiten).
    Genbutsu,
    /// An honor with at most one copy left unseen: only a tanki wait can hit it.
    HonorLast,
    /// Suji of a genbutsu: 1-2-3 and 7-8-9 by their one suji, 4-5-6 by both sides.
    Suji,
    /// Any other honor (shanpon or tanki only).
    Honor,
    /// 4-5-6 with only one of its two suji genbutsu.
    HalfSuji,
    /// A suited tile without suji.
    Unsafe,
}

impl Safety {
    /// Tiles a good hand may still push.
    pub fn is_pushable(self) -> bool {
        matches!(self, Safety::Genbutsu | Safety::HonorLast | Safety::Suji | Safety::Honor)
    }
}

/// The hand's strength against a riichi.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandClass {
    Weak,
    Good,
    Excellent,
}

impl HandClass {
    pub fn name(self) -> &'static str {
        match self {
            HandClass::Weak => "weak",
            HandClass::Good => "good",
            HandClass::Excellent => "excellent",
        }
    }
}

/// Expected-value thresholds (points) between the classes.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Thresholds {
    /// At or above: good.
    pub good: f64,
    /// At or above: excellent.
    pub excellent: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds { good: 400.0, excellent: 1200.0 }
    }
}

/// Classes a hand by its expected value and shanten (3+ shanten is always weak).
pub fn classify(ev: f64, shanten: i8, th: &Thresholds) -> HandClass {
    if shanten >= 3 || ev < th.good {
        HandClass::Weak
    } else if ev < th.excellent {
        HandClass::Good
    } else {
        HandClass::Excellent
    }
}

/// Safety of `tile` against one riichi player. `seen` counts the copies we can see: our hand,
/// our melds and everything visible. Genbutsu: every tile of their river (called-away ones
/// too: their furiten rule forbids a ron on them) and every kind that passed them since the
/// declaration ([`Opponent::riichi_passed`]).
pub fn safety_against(riichi: &Opponent, seen: &Counts, tile: Tile) -> Safety {
    let mut gen = [false; KINDS];
    for r in &riichi.river {
        gen[r.tile.kind()] = true;
    }
    for (k, &n) in riichi.riichi_passed.iter().enumerate() {
        gen[k] |= n > 0;
    }
    let k = tile.kind();
    if gen[k] {
        return Safety::Genbutsu;
    }
    if is_honor(k) {
        return if seen[k] >= 3 { Safety::HonorLast } else { Safety::Honor };
    }
    let n = k % 9; // 0-based number
    let low = (n >= 3).then(|| gen[k - 3]); // suji below: 4 for 1, etc.
    let high = (n <= 5).then(|| gen[k + 3]);
    match (low, high) {
        (Some(true), Some(true)) | (None, Some(true)) | (Some(true), None) => Safety::Suji,
        (Some(true), Some(false)) | (Some(false), Some(true)) => Safety::HalfSuji,
        _ => Safety::Unsafe,
    }
}

/// Safety of `tile` in the position: its worst class over the riichi players; `None` when
/// nobody is in riichi.
pub fn safety(pos: &View, tile: Tile) -> Option<Safety> {
    let seen = seen_counts(pos);
    pos.riichi_opponents().map(|r| safety_against(r, &seen, tile)).max()
}

/// Every tile the player knows of: the visible ones (own melds included) and the concealed hand.
fn seen_counts(pos: &View) -> Counts {
    let mut seen = pos.visible;
    for t in &pos.hand {
        seen[t.kind()] += 1;
    }
    seen
}

/// The policy as one score, for an option with the evaluator's `score`, a `danger` (higher is
/// less safe) and whether a good hand may push it: excellent hands keep the evaluator's score;
/// good hands put pushable tiles first in the evaluator's order; everything else goes safest
/// first, the evaluator's order among equals. Both the policy over a position ([`apply`]) and
/// the dataset evaluators (danger from the safety columns) score with it.
pub fn policy_score(class: HandClass, score: f64, danger: f64, pushable: bool) -> f64 {
    match class {
        HandClass::Excellent => score,
        HandClass::Good if pushable => 1e12 + score,
        _ => -danger * 1e6 + score * 1e-9,
    }
}

/// The policy itself: re-ranks `ranking` (best first) for a hand of class `class`, given each
/// tile's safety, by [`policy_score`]. Scores are rewritten to `n, n-1, …, 1` down the new order.
pub fn apply(
    ranking: &[RankedDiscard],
    safety: impl Fn(Tile) -> Safety,
    class: HandClass,
) -> Vec<RankedDiscard> {
    let n = ranking.len();
    // The given order as the evaluator's score (n for the best), so the policy breaks ties by it.
    let mut order: Vec<(usize, f64)> = ranking
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let s = safety(o.tile);
            (i, policy_score(class, (n - i) as f64, s as u8 as f64, s.is_pushable()))
        })
        .collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    order
        .into_iter()
        .enumerate()
        .map(|(rank, (i, _))| RankedDiscard { score: (n - rank) as f64, ..ranking[i].clone() })
        .collect()
}

/// The policy over a position: unchanged ranking when nobody is in riichi; otherwise the
/// hand is classed by the expected value of its best discard (14-tile [`expected_value::hand_value`])
/// and its shanten, and [`apply`] re-ranks.
pub fn push_fold(pos: &View, ranking: Vec<RankedDiscard>, th: &Thresholds) -> Vec<RankedDiscard> {
    if pos.riichi_opponents().next().is_none() {
        return ranking;
    }
    let shanten = crate::hand::shanten::min_shanten(&pos.hand_counts());
    let ev = if shanten <= 2 { expected_value::hand_value(pos, &pos.full_hand()) } else { 0.0 };
    let seen = seen_counts(pos);
    let worst = |t: Tile| -> Safety {
        pos.riichi_opponents().map(|r| safety_against(r, &seen, t)).max().unwrap_or(Safety::Genbutsu)
    };
    apply(&ranking, worst, classify(ev, shanten.max(0), th))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::Hand;
    use crate::rank::{expected_value, max_ukeire as ukeire};
    use crate::replay::view::SeenDiscard;
    use crate::tile::{parse_mpsz, EAST};

    fn tiles(s: &str) -> Vec<Tile> {
        parse_mpsz(s).unwrap()
    }

    fn t(s: &str) -> Tile {
        tiles(s)[0]
    }

    /// A riichi opponent whose river is `discards`, the last one declaring.
    fn river(discards: &str) -> Opponent {
        let river: Vec<SeenDiscard> = tiles(discards)
            .into_iter()
            .map(|tile| SeenDiscard { tile, tsumogiri: false, called: false })
            .collect();
        Opponent { riichi_at: Some(river.len() - 1), river, ..Opponent::default() }
    }

    fn names(r: &[RankedDiscard]) -> Vec<String> {
        r.iter().map(|o| o.tile.to_string()).collect()
    }

    #[test]
    fn safety_classes() {
        // River 4m 2p 8p 5s 1z; passed after riichi: 9s.
        let mut r = river("4m28p5s1z");
        r.riichi_passed[t("9s").kind()] = 1;
        let mut seen = [0u8; 34];
        seen[t("7z").kind()] = 3;
        let s = |x: &str| safety_against(&r, &seen, t(x));
        assert_eq!(s("4m"), Safety::Genbutsu);
        assert_eq!(s("9s"), Safety::Genbutsu);
        assert_eq!(s("1z"), Safety::Genbutsu);
        assert_eq!(s("1m"), Safety::Suji); // 4m
        assert_eq!(s("7m"), Safety::Suji); // 4m (7 has suji 4 and 10: only 4 exists)
        assert_eq!(s("5p"), Safety::Suji); // 2p and 8p
        assert_eq!(s("6s"), Safety::HalfSuji); // 9s out, 3s not
        assert_eq!(s("2s"), Safety::Suji); // 5s
        assert_eq!(s("8s"), Safety::Suji); // 5s
        assert_eq!(s("4p"), Safety::Unsafe); // needs 1p and 7p
        assert_eq!(s("7z"), Safety::HonorLast);
        assert_eq!(s("6z"), Safety::Honor);
        assert_eq!(s("5m"), Safety::Unsafe); // needs 2m and 8m
    }

    #[test]
    fn half_suji_for_middle_tiles() {
        let r = river("1p");
        let seen = [0u8; 34];
        assert_eq!(safety_against(&r, &seen, t("4p")), Safety::HalfSuji);
        let r = river("1p7p");
        assert_eq!(safety_against(&r, &seen, t("4p")), Safety::Suji);
    }

    fn ranked(order: &str) -> Vec<RankedDiscard> {
        tiles(order)
            .into_iter()
            .enumerate()
            .map(|(i, tile)| RankedDiscard { tile, score: 100.0 - i as f64, shanten: 1, ukeire: 0 })
            .collect()
    }

    #[test]
    fn policy_by_class() {
        // Evaluator order: 5m 3z 7p 1m 9s. Riichi river: 4m 9s. Safety: 5m unsafe (2m, 8m not
        // out), 3z honor, 7p unsafe, 1m suji of 4m, 9s genbutsu.
        let ranking = ranked("5m3z7p1m9s");
        let r = river("4m9s");
        let seen = [0u8; 34];
        let s = |x: Tile| safety_against(&r, &seen, x);
        // Excellent: unchanged order.
        assert_eq!(names(&apply(&ranking, s, HandClass::Excellent)), ["5m", "3z", "7p", "1m", "9s"]);
        // Weak: safest first: 9s (genbutsu), 1m (suji), 3z (honor), then 5m, 7p (unsafe, in the
        // evaluator's order).
        let weak = apply(&ranking, s, HandClass::Weak);
        assert_eq!(names(&weak), ["9s", "1m", "3z", "5m", "7p"]);
        assert_eq!(weak.iter().map(|o| o.score).collect::<Vec<_>>(), [5.0, 4.0, 3.0, 2.0, 1.0]);
        // Good: pushable tiles in the evaluator's order (3z, 1m, 9s), then the others by safety.
        assert_eq!(names(&apply(&ranking, s, HandClass::Good)), ["3z", "1m", "9s", "5m", "7p"]);
    }

    #[test]
    fn classes_by_value() {
        let th = Thresholds::default();
        assert_eq!(classify(399.9, 0, &th), HandClass::Weak);
        assert_eq!(classify(400.0, 1, &th), HandClass::Good);
        assert_eq!(classify(1199.0, 2, &th), HandClass::Good);
        assert_eq!(classify(1200.0, 0, &th), HandClass::Excellent);
        assert_eq!(classify(5000.0, 3, &th), HandClass::Weak);
    }

    fn position(hand: &str, riichi_river: Option<&str>) -> View {
        let mut p = View::bare(Hand::parse(hand).unwrap(), vec![], EAST, EAST + 1);
        if let Some(r) = riichi_river {
            for x in tiles(r) {
                p.visible[x.kind()] += 1;
            }
            p.opponents[1] = river(r);
        }
        p
    }

    #[test]
    fn position_policy_by_expected_value() {
        // Discarding 5m (or 2m) leaves tenpai on 2p only (kanchan 13p); one 2p is in the
        // riichi river, so 3 unseen × 2000 (riichi tsumo 30 fu) / 12 = 500: a good hand by
        // default. (The evaluator's own pick may be a shanten-back discard; the class uses the
        // best normal discard.) Against the river 2p 9s: 9s genbutsu, 5p half suji (2p out, 8p
        // not), everything else unsafe (no suji out). 9s is the only pushable tile.
        let p = position("234m456p789s13p55s5m", Some("2p9s"));
        assert!((expected_value::hand_value(&p, &p.full_hand()) - 500.0).abs() < 1e-9);
        let ev = expected_value::rank(&p);
        // Good: the first pushable tile in the evaluator's order, 9s.
        let good = push_fold(&p, ev.clone(), &Thresholds::default());
        assert_eq!(good[0].tile.to_string(), "9s", "{good:?}");
        // Excellent from 500 points: push the evaluator's pick.
        let th = Thresholds { good: 100.0, excellent: 500.0 };
        assert_eq!(push_fold(&p, ev.clone(), &th)[0].tile, ev[0].tile);
        // Weak below 600 points: fold, genbutsu 9s then the half suji 5p.
        let th = Thresholds { good: 600.0, excellent: 1200.0 };
        let weak = push_fold(&p, ev.clone(), &th);
        assert_eq!(names(&weak[..2]), ["9s", "5p"], "{weak:?}");
        // No riichi: the ranking passes through unchanged.
        let calm = position("234m456p789s13p55s5m", None);
        let r = ukeire::rank(&calm);
        assert_eq!(push_fold(&calm, r.clone(), &Thresholds::default()), r);
    }
}
