//! Each opponent's river read in order, one block of columns per opponent (issue 69's
//! "each opponent's river order and recent hand-cuts, individually rather than as counts", and
//! "the turn of each riichi").
//!
//! The reading family counts the opponents a sign points at (0-3): which opponent, and how far
//! back, is lost. A CNN given the rivers sees both, and so does a player: a tile the riichi player
//! threw two turns ago is safer than one they threw first; a tile beside the riichi tile (its
//! soba) or beside the latest hand-cut is where a shape may still sit; a riichi on the third
//! discard is a different hand from one on the fifteenth. These columns give, per opponent
//! (`opp1` next, `opp2` across, `opp3` previous, as the safety family's blocks), the positions of
//! the discarded kind in their river, its distance to their last two hand-cuts and to their
//! riichi tile, the turn of their riichi, their tsumogiri run, their river's length and their
//! melds. A seat nobody sits in (across, at three players) reads as an empty river.

use super::column::Cols;
use super::facts::After;
use crate::replay::view::{Opponent, View};
use crate::tile::{is_honor, Kind};

/// The names of one opponent's block, in order.
const BLOCK: [(&str, &str); 9] = [
    ("last_seen", "their discards since they last threw the discarded kind (0: their latest discard; -1: never)"),
    ("first_seen", "their discards before their first of the discarded kind (-1: never)"),
    ("cut1", "steps from their latest hand-cut to the discarded kind in its suit (0 same kind; 9 another suit, an honour or none)"),
    ("cut2", "steps from their second-latest hand-cut, as cut1"),
    ("riichi_turn", "their discards up to and including their riichi tile (0: no riichi)"),
    ("riichi_dist", "steps from their riichi tile to the discarded kind, as cut1 (9: no riichi)"),
    ("streak", "tsumogiri closing their river while not in riichi"),
    ("discards", "their river's length (called tiles included)"),
    ("melds", "the melds they show"),
];

/// Every column: three blocks of [`BLOCK`], `sr_opp1_last_seen` … `sr_opp3_melds`.
pub(crate) fn columns() -> Vec<(&'static str, &'static str)> {
    COLUMN_NAMES.iter().enumerate().map(|(i, &n)| (n, BLOCK[i % BLOCK.len()].1)).collect()
}

/// The column names, for the `seats` group's list ([`super::groups::Group::columns`]).
pub const COLUMN_NAMES: [&str; 27] = [
    "sr_opp1_last_seen",
    "sr_opp1_first_seen",
    "sr_opp1_cut1",
    "sr_opp1_cut2",
    "sr_opp1_riichi_turn",
    "sr_opp1_riichi_dist",
    "sr_opp1_streak",
    "sr_opp1_discards",
    "sr_opp1_melds",
    "sr_opp2_last_seen",
    "sr_opp2_first_seen",
    "sr_opp2_cut1",
    "sr_opp2_cut2",
    "sr_opp2_riichi_turn",
    "sr_opp2_riichi_dist",
    "sr_opp2_streak",
    "sr_opp2_discards",
    "sr_opp2_melds",
    "sr_opp3_last_seen",
    "sr_opp3_first_seen",
    "sr_opp3_cut1",
    "sr_opp3_cut2",
    "sr_opp3_riichi_turn",
    "sr_opp3_riichi_dist",
    "sr_opp3_streak",
    "sr_opp3_discards",
    "sr_opp3_melds",
];

/// "Another suit, an honour or nothing": past the largest step in a suit (8).
const FAR: f32 = 9.0;

/// One opponent's river facts, computed once per decision.
#[derive(Clone, Debug, Default)]
struct Seat {
    /// The kind of each discard, oldest first.
    kinds: Vec<Kind>,
    /// Their latest and second-latest hand-cut kinds.
    cuts: [Option<Kind>; 2],
    /// Their riichi tile's kind and the discards up to and including it.
    riichi: Option<(Kind, usize)>,
    streak: usize,
    melds: usize,
}

impl Seat {
    fn of(o: &Opponent) -> Seat {
        let mut cuts = o.river.iter().rev().filter(|r| !r.tsumogiri).map(|r| r.tile.kind());
        let cuts = [cuts.next(), cuts.next()];
        let riichi = o.riichi_at.and_then(|i| o.river.get(i).map(|r| (r.tile.kind(), i + 1)));
        let streak = if o.in_riichi() { 0 } else { o.river.iter().rev().take_while(|r| r.tsumogiri).count() };
        Seat {
            kinds: o.river.iter().map(|r| r.tile.kind()).collect(),
            cuts,
            riichi,
            streak,
            melds: o.melds.len(),
        }
    }
}

/// Steps from `from` to `k` in their suit, or [`FAR`] (the reading family's `near` is 1 or 2).
pub(crate) fn steps(from: Option<Kind>, k: Kind) -> f32 {
    match from {
        Some(j) if j == k => 0.0,
        Some(j) if !is_honor(j) && !is_honor(k) && j / 9 == k / 9 => j.abs_diff(k) as f32,
        _ => FAR,
    }
}

/// Per-decision facts of the three opponents.
#[derive(Clone, Debug, Default)]
pub(crate) struct SeatReadingPrep {
    seats: [Seat; 3],
}

impl SeatReadingPrep {
    pub(crate) fn new(view: &View) -> SeatReadingPrep {
        SeatReadingPrep { seats: view.opponents.each_ref().map(Seat::of) }
    }
}

pub(crate) fn fill(prep: &SeatReadingPrep, a: &After, cols: &mut Cols) {
    let k = a.discard.kind();
    for (s, group) in prep.seats.iter().zip(["opp1", "opp2", "opp3"]) {
        let n = s.kinds.len();
        let last = s.kinds.iter().rposition(|&j| j == k).map_or(-1.0, |i| (n - 1 - i) as f32);
        let first = s.kinds.iter().position(|&j| j == k).map_or(-1.0, |i| i as f32);
        cols.put_in(group, "last_seen", last);
        cols.put_in(group, "first_seen", first);
        cols.put_in(group, "cut1", steps(s.cuts[0], k));
        cols.put_in(group, "cut2", steps(s.cuts[1], k));
        cols.put_in(group, "riichi_turn", s.riichi.map_or(0.0, |(_, t)| t as f32));
        cols.put_in(group, "riichi_dist", steps(s.riichi.map(|(j, _)| j), k));
        cols.put_in(group, "streak", s.streak as f32);
        cols.put_in(group, "discards", n as f32);
        cols.put_in(group, "melds", s.melds as f32);
    }
}

#[cfg(test)]
mod tests {
    use crate::features::facts::tests_support::{get, river, row_of, view};
    use crate::features::DecisionFeatures;

    #[test]
    fn each_opponent_reads_apart() {
        let mut v = view("1234679m2p56789s1z", "", 27, 28);
        // Next player: 1z 4s (hand-cuts), then 2m 4s 9m thrown from the draw.
        let mut r = river("1z4s2m4s9m");
        r[2..].iter_mut().for_each(|d| d.tsumogiri = true);
        v.opponents[0].river = r;
        // Across: riichi on their third discard, 7s, then one tsumogiri.
        let mut r = river("9m1m7s3z");
        r[3].tsumogiri = true;
        v.opponents[1].river = r;
        v.opponents[1].riichi_at = Some(2);
        let dec = DecisionFeatures::new(&v).unwrap();
        let row = |t: &str| row_of(&dec, t);
        let r = row("6s");
        // next player: 6s never thrown; latest hand-cut 4s (2 steps), the one before 1z
        assert_eq!(get(&r, "sr_opp1_last_seen"), -1.0);
        assert_eq!(get(&r, "sr_opp1_cut1"), 2.0);
        assert_eq!(get(&r, "sr_opp1_cut2"), 9.0);
        assert_eq!(get(&r, "sr_opp1_streak"), 3.0);
        assert_eq!(get(&r, "sr_opp1_discards"), 5.0);
        assert_eq!(get(&r, "sr_opp1_riichi_turn"), 0.0);
        assert_eq!(get(&r, "sr_opp1_riichi_dist"), 9.0);
        // across: riichi on the third discard, 7s one step from 6s; no streak counted in riichi
        assert_eq!(get(&r, "sr_opp2_riichi_turn"), 3.0);
        assert_eq!(get(&r, "sr_opp2_riichi_dist"), 1.0);
        assert_eq!(get(&r, "sr_opp2_streak"), 0.0);
        assert_eq!(get(&r, "sr_opp2_cut1"), 1.0);
        // previous player: an empty river
        assert_eq!(get(&r, "sr_opp3_first_seen"), -1.0);
        assert_eq!(get(&r, "sr_opp3_discards"), 0.0);
        // 9m: next player's latest discard (0 back, first at 4); across's first discard (3 back)
        let r = row("9m");
        assert_eq!(get(&r, "sr_opp1_last_seen"), 0.0);
        assert_eq!(get(&r, "sr_opp1_first_seen"), 4.0);
        assert_eq!(get(&r, "sr_opp2_last_seen"), 3.0);
        assert_eq!(get(&r, "sr_opp2_first_seen"), 0.0);
        assert_eq!(get(&r, "sr_opp2_cut2"), 8.0); // 1m, their second-latest hand-cut
    }
}
