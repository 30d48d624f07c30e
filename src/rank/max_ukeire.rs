//! The max-ukeire baseline: keep the lowest shanten, then the most unseen effective tiles; ties
//! are broken by a fixed discard order (guest winds first, then yakuhai, 1/9, 2/8, 3/7, 4/6, 5,
//! and dora last), the order of the classic "max ukeire" bot.

use super::RankedDiscard;
use crate::hand::waits::ukeire;
use crate::hand::Hand;
use crate::replay::view::View;
use crate::tile::{is_honor, Tile};

/// Discard priority class: lower is discarded first.
pub fn discard_class(pos: &View, tile: Tile) -> u8 {
    let k = tile.kind();
    if pos.dora_value(tile) > 0 {
        return 7;
    }
    if is_honor(k) {
        return if pos.is_guest_wind(k) { 0 } else { 1 };
    }
    match tile.number() {
        1 | 9 => 2,
        2 | 8 => 3,
        3 | 7 => 4,
        4 | 6 => 5,
        _ => 6,
    }
}

/// The score of one discard option: unseen effective tiles − 1000 × shanten after the discard,
/// plus (7 − class) / 10 for the discard order, plus a last tie-break below 0.01 that prefers
/// the lower tile (plain kinds in order, then the red fives), so that distinct tiles never tie.
///
/// One number orders the options, and both the `ukeire` bot ([`rank`]) and the `ukeire`
/// evaluator over a dataset (from the `shanten_min`, `ukeire_count` and `discard_class`
/// columns) compute it here, so the evaluator reproduces every pick of the bot.
pub fn option_score(shanten: i8, ukeire: u32, class: u8, tile: Tile) -> f64 {
    ukeire as f64 - 1000.0 * shanten as f64
        + (7 - class.min(7)) as f64 / 10.0
        + (64 - tile.index()) as f64 * 1e-4
}

/// Ranks every distinct discard, best first, by [`option_score`].
pub fn rank(pos: &View) -> Vec<RankedDiscard> {
    let full = pos.hand_counts();
    // The discarded tile lands in the river, so the 14-tile hand is what the player cannot draw.
    let mut out: Vec<RankedDiscard> = pos
        .full_hand()
        .distinct_tiles()
        .into_iter()
        .map(|tile| {
            let mut after = full;
            after[tile.kind()] -= 1;
            let mut seen = pos.visible;
            seen[tile.kind()] += 1;
            let u = ukeire(&after, &seen);
            RankedDiscard {
                tile,
                score: option_score(u.shanten, u.count, discard_class(pos, tile), tile),
                shanten: u.shanten,
                ukeire: u.count,
            }
        })
        .collect();
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.tile.cmp(&b.tile)));
    out
}

/// Every distinct discard, best first, by `value(hand after it, dora it holds)`; ties in this
/// evaluator's order, whose shanten and ukeire each option reports. The yaku evaluators rank this
/// way (the dora count includes melded tiles and red fives, which the counts alone lose).
pub fn rank_by_hand_after(pos: &View, value: impl Fn(&Hand, u32) -> f64) -> Vec<RankedDiscard> {
    let hand = pos.full_hand();
    let mut scored: Vec<(usize, RankedDiscard)> = rank(pos)
        .into_iter()
        .enumerate()
        .map(|(order, mut o)| {
            if let Some(after) = hand.without(o.tile) {
                let dora: u32 = after
                    .tiles
                    .iter()
                    .chain(after.melds.iter().flat_map(|m| m.tiles()))
                    .map(|&t| pos.dora_value(t) as u32)
                    .sum();
                o.score = value(&after, dora);
            }
            (order, o)
        })
        .collect();
    scored.sort_by(|(ia, a), (ib, b)| b.score.total_cmp(&a.score).then(ia.cmp(ib)));
    scored.into_iter().map(|(_, o)| o).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::Hand;
    use crate::tile::{parse_mpsz, EAST};

    fn pos(h: &str, dora: &str) -> View {
        let ind = if dora.is_empty() { vec![] } else { parse_mpsz(dora).unwrap() };
        View::bare(Hand::parse(h).unwrap(), ind, EAST, EAST + 1)
    }

    #[test]
    fn keeps_shanten_then_ukeire() {
        // 123m456p789s23s11z + 9m: discarding 9m keeps tenpai on 1-4s.
        let r = rank(&pos("1239m456p789s23s11z", ""));
        assert_eq!(r[0].tile.to_string(), "9m");
        assert_eq!((r[0].shanten, r[0].ukeire), (0, 8));
    }

    #[test]
    fn tie_break_order() {
        // West (guest) and South (seat wind) isolated, all else equal: West goes first.
        let r = rank(&pos("123m456p789s1s2z3z11z", ""));
        let first: Vec<String> = r.iter().take(2).map(|o| o.tile.to_string()).collect();
        assert_eq!(first[0], "3z");
        // a dora is discarded last among equals: isolated 9p (dora via 8p) vs isolated 1s.
        let r = rank(&pos("123m456p78s9p1s11z22z", "8p"));
        let i9p = r.iter().position(|o| o.tile.to_string() == "9p").unwrap();
        let i1s = r.iter().position(|o| o.tile.to_string() == "1s").unwrap();
        assert_eq!(r[i9p].score.floor(), r[i1s].score.floor(), "{r:?}");
        assert!(i1s < i9p, "{r:?}");
    }
}
