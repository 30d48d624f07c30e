//! Study 4: the early 5 (序盤の5切り). Folk defence says a 5 thrown among a player's first
//! discards makes the tiles around it safer against that player's later riichi: a hand that lets
//! a 5 go early rarely keeps the 3-4 / 6-7 shapes that wait there. The seed measured walls,
//! one-chances and early outside tiles from logs, but not this; here it is, counted in the same
//! replay pass as the other studies.
//!
//! "Early 5": the 5 of a suit (red or not) is among the riichi player's first 6 discards, up to
//! the declaring one. A third bucket, the 5 thrown only later (before the riichi), separates the
//! effect of earliness from that of a 5 in the river at all (which makes 2 and 8 suji). Distance d = |rank - 5|: 4/6 (d = 1), 3/7 (d = 2), 2/8 (d = 3, the 5's
//! suji).
//! - **Win rate**: for every accepted tenpai riichi and every suit and distance where its waits
//!   include 5 - d or 5 + d of that suit, one entry (so a riichi waiting on 4m and 6p counts
//!   twice), hit = the riichi player won the round, split by when that suit's 5 was thrown.
//! - **Deal-in rate**: every discard of a suited 2-4 or 6-8 made while a riichi is accepted, for
//!   each riichi opponent of the discarder against whom the tile is not genbutsu, hit = that
//!   riichi player ronned it, split by when the riichi player threw the 5 of the tile's suit.

use crate::tile::{is_five, Kind};
use crate::util::Rate;

/// Labels of the split by when the riichi player threw the 5 ([`five_timing`]).
pub const EARLY_LABELS: [&str; 3] =
    ["no 5 thrown", "5 thrown after the 6th discard", "5 in first 6 discards"];

/// The counts of study 4, indexed [distance - 1][timing of the 5].
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EarlyFive {
    pub riichi_win: [[Rate; 3]; 3],
    pub deal_in: [[Rate; 3]; 3],
}

impl EarlyFive {
    /// Adds another game's counts, rate by rate. Written out here rather than through
    /// `studies`' helper so this module depends on `util` alone (`studies` imports it).
    pub fn merge(&mut self, o: &EarlyFive) {
        let mine = self.riichi_win.iter_mut().chain(&mut self.deal_in).flatten();
        let theirs = o.riichi_win.iter().chain(&o.deal_in).flatten();
        for (a, b) in mine.zip(theirs) {
            a.hits += b.hits;
            a.n += b.n;
        }
    }
}

/// (suit, distance 1..=3) of a suited kind 2-4 or 6-8; `None` for 1, 5, 9 and honours.
pub fn near_five(kind: Kind) -> Option<(usize, usize)> {
    if kind >= 27 {
        return None;
    }
    let rank = kind % 9 + 1;
    let d = rank.abs_diff(5);
    (1..=3).contains(&d).then_some((kind / 9, d))
}

/// When each suit's 5 was first thrown among these discards (in river order): 0 = not at all,
/// 1 = only after the 6th discard, 2 = among the first 6. Indexed by suit.
pub fn five_timing(discards: impl IntoIterator<Item = Kind>) -> [u8; 3] {
    let mut out = [0u8; 3];
    for (i, k) in discards.into_iter().enumerate() {
        if is_five(k) && out[k / 9] == 0 {
            out[k / 9] = if i < 6 { 2 } else { 1 };
        }
    }
    out
}

/// The (distance, timing) entries of a riichi with these wait kinds (bit k = kind k): one per
/// suit and distance the waits reach, with the timing of that suit's 5.
pub fn riichi_entries(waits: u64, timing: [u8; 3]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for suit in 0..3 {
        for d in 1..=3 {
            let (lo, hi) = (suit * 9 + 4 - d, suit * 9 + 4 + d);
            if waits & (1 << lo | 1 << hi) != 0 {
                out.push((d, timing[suit] as usize));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_from_the_five() {
        // 4m, 6m -> 1; 3p -> 2; 8s -> 3; 5m, 1m, 9p, honours -> none.
        assert_eq!(near_five(3), Some((0, 1)));
        assert_eq!(near_five(5), Some((0, 1)));
        assert_eq!(near_five(11), Some((1, 2)));
        assert_eq!(near_five(25), Some((2, 3)));
        for k in [4, 0, 17, 27, 33] {
            assert_eq!(near_five(k), None, "{k}");
        }
    }

    #[test]
    fn the_first_five_of_each_suit_is_timed() {
        // 5p third (early), 5s seventh (late), no 5m.
        assert_eq!(five_timing([27, 0, 13, 1, 2, 3, 22]), [0, 2, 1]);
        // A second 5s among the first six does not change a first one... and the first counts.
        assert_eq!(five_timing([4, 22, 22]), [2, 0, 2]);
        assert_eq!(five_timing([0, 1, 2, 3, 5, 6, 4, 4]), [1, 0, 0]);
        assert_eq!(five_timing([]), [0, 0, 0]);
    }

    #[test]
    fn riichi_entries_per_suit_and_distance() {
        // Waits 3m-6m (d 2 and d 1 in manzu), early 5m.
        assert_eq!(riichi_entries(1 << 2 | 1 << 5, [2, 0, 0]), vec![(1, 2), (2, 2)]);
        // Waits 4m and 6p (two suits), early 5p only.
        assert_eq!(riichi_entries(1 << 3 | 1 << 14, [0, 2, 0]), vec![(1, 0), (1, 2)]);
        // Waits 1m-4m: 4m is d 1; 1m is not near.
        assert_eq!(riichi_entries(1 << 0 | 1 << 3, [1, 1, 1]), vec![(1, 1)]);
        // Honour tanki: nothing.
        assert!(riichi_entries(1 << 31, [2, 2, 2]).is_empty());
    }

    #[test]
    fn merge_adds_every_rate_of_both_tables() {
        let mut a = EarlyFive::default();
        a.riichi_win[0][1] = Rate { hits: 1, n: 3 };
        a.deal_in[2][2] = Rate { hits: 0, n: 1 };
        let mut b = EarlyFive::default();
        b.riichi_win[0][1] = Rate { hits: 2, n: 2 };
        b.riichi_win[2][0] = Rate { hits: 1, n: 1 };
        b.deal_in[2][2] = Rate { hits: 4, n: 5 };
        a.merge(&b);
        assert_eq!(a.riichi_win[0][1], Rate { hits: 3, n: 5 });
        assert_eq!(a.riichi_win[2][0], Rate { hits: 1, n: 1 });
        assert_eq!(a.deal_in[2][2], Rate { hits: 4, n: 6 });
        assert_eq!(a.deal_in[0][0], Rate::default());
    }
}
