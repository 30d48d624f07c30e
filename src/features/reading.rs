//! Reading the rivers in order: which tiles each opponent cut from the hand (tedashi) and when,
//! and which they threw straight from the draw (tsumogiri).
//!
//! The river and threat families see each river as a set of kinds. A strong player (and a CNN
//! given the whole river sequence) reads more from its order: the latest hand-cut tile tells
//! where a hand is still moving (a shape may sit one or two steps beside it); a tile thrown in
//! the first six discards was useless to that hand early on; a hand that has thrown only its
//! draws for several turns has stopped changing and is often tenpai without a riichi (dama); a
//! terminal or honour cut from the hand late is a hand moving into tenpai. These columns count,
//! per option, the opponents for whom each sign points at the discarded tile.
//!
//! "Safe" is genbutsu (the kind is in that opponent's river) or suji of their river, as the
//! threat family reads it.

use super::column::Cols;
use super::facts::After;
use crate::rank::safety::{is_suji, river_kinds, KindSet};
use crate::replay::view::{Opponent, View};
use crate::tile::{is_yaochu, Kind, Tile};

pub(crate) const COLUMNS: [(&str, &str); 7] = [
    ("read_tedashi_near", "opponents whose latest hand-cut discard is of the discard's suit one or two steps away (0-3)"),
    ("read_tedashi_same", "opponents whose latest hand-cut discard is the discarded kind (0-3)"),
    ("read_early", "opponents who discarded the kind among their first six discards (0-3)"),
    ("read_streak_max", "the longest run of tsumogiri closing the river of an opponent not in riichi"),
    ("read_streak_unsafe", "opponents not in riichi whose 6+ discards close with 3+ tsumogiri, discard neither genbutsu nor suji (0-3)"),
    ("read_late_yaochu_unsafe", "opponents not in riichi whose latest hand-cut is a terminal or honour after their sixth discard, discard neither genbutsu nor suji (0-3)"),
    ("read_melds_max", "the most melds an opponent shows (0-4)"),
];

/// The discards of an opponent's first turns that count as early.
const EARLY: usize = 6;

/// A run of tsumogiri at least this long, closing a river of at least [`EARLY`] discards, reads
/// as a hand that stopped changing.
const STREAK: usize = 3;

/// One opponent's river signs, computed once per decision.
#[derive(Clone, Copy, Debug, Default)]
struct Signs {
    /// Genbutsu against them (their river's kinds).
    river: KindSet,
    /// Kinds among their first [`EARLY`] discards.
    early: KindSet,
    /// Their latest hand-cut discard.
    last_tedashi: Option<Tile>,
    /// Tsumogiri closing their river, when they are not in riichi (0 in riichi: every discard
    /// after it is a draw by rule and tells nothing).
    streak: usize,
    /// At least [`EARLY`] discards closing with at least [`STREAK`] tsumogiri: a hand that
    /// stopped changing.
    stopped: bool,
    /// Not in riichi, and the latest hand-cut is a terminal or honour after their sixth discard.
    late_yaochu: bool,
}

impl Signs {
    fn of(o: &Opponent) -> Signs {
        let river = river_kinds(o);
        let early = o.river.iter().take(EARLY).map(|r| r.tile.kind()).collect();
        let last = o.river.iter().rposition(|r| !r.tsumogiri);
        let last_tedashi = last.map(|i| o.river[i].tile);
        let calm = !o.in_riichi();
        let streak = if calm { o.river.iter().rev().take_while(|r| r.tsumogiri).count() } else { 0 };
        let late_yaochu = calm && last.is_some_and(|i| i >= EARLY && is_yaochu(o.river[i].tile.kind()));
        let stopped = streak >= STREAK && o.river.len() >= EARLY;
        Signs { river, early, last_tedashi, streak, stopped, late_yaochu }
    }

    /// Neither genbutsu nor suji against them.
    fn unsafe_for(&self, k: Kind) -> bool {
        !self.river.contains(k) && !is_suji(self.river, k)
    }
}

/// Per-decision reading facts.
#[derive(Clone, Debug, Default)]
pub(crate) struct ReadingPrep {
    opponents: [Signs; 3],
    streak_max: usize,
    melds_max: usize,
}

impl ReadingPrep {
    pub(crate) fn new(view: &View) -> ReadingPrep {
        let opponents = view.opponents.each_ref().map(Signs::of);
        ReadingPrep {
            streak_max: opponents.iter().map(|s| s.streak).max().unwrap_or(0),
            melds_max: view.opponents.iter().map(|o| o.melds.len()).max().unwrap_or(0),
            opponents,
        }
    }
}

/// Whether `t` is of the suit of kind `k` one or two steps away.
fn near(t: Tile, k: Kind) -> bool {
    (1.0..=2.0).contains(&super::seat_reading::steps(Some(t.kind()), k))
}

pub(crate) fn fill(prep: &ReadingPrep, a: &After, cols: &mut Cols) {
    let k = a.discard.kind();
    let count = |f: &dyn Fn(&Signs) -> bool| prep.opponents.iter().filter(|s| f(s)).count() as f32;
    cols.put("read_tedashi_near", count(&|s| s.last_tedashi.is_some_and(|t| near(t, k))));
    cols.put("read_tedashi_same", count(&|s| s.last_tedashi.is_some_and(|t| t.kind() == k)));
    cols.put("read_early", count(&|s| s.early.contains(k)));
    cols.put("read_streak_max", prep.streak_max as f32);
    cols.put("read_streak_unsafe", count(&|s| s.stopped && s.unsafe_for(k)));
    cols.put("read_late_yaochu_unsafe", count(&|s| s.late_yaochu && s.unsafe_for(k)));
    cols.put("read_melds_max", prep.melds_max as f32);
}

#[cfg(test)]
mod tests {
    use crate::features::facts::tests_support::{get, river, row_of, view};
    use crate::features::DecisionFeatures;

    #[test]
    fn hand_cuts_early_discards_and_tsumogiri_runs() {
        let mut v = view("1234679m2p56789s1z", "", 27, 28);
        // Next player: 1z 9p then six tsumogiri ending the river, last hand-cut 4s at index 2.
        let mut r = river("1z9p4s");
        let mut draws = river("2m8m1p9m3z7z");
        draws.iter_mut().for_each(|d| d.tsumogiri = true);
        r.extend(draws);
        v.opponents[0].river = r;
        // Across: a late 9m cut from the hand (their eighth discard).
        v.opponents[1].river = river("1z2z3z4z5z6z7z9m");
        // Previous player: in riichi on 6s, then tsumogiri (no streak counted).
        let mut r = river("1m6s");
        r.push(river("5z")[0]);
        r[2].tsumogiri = true;
        v.opponents[2].river = r;
        v.opponents[2].riichi_at = Some(1);
        let dec = DecisionFeatures::new(&v).unwrap();
        let row = |t: &str| row_of(&dec, t);
        // 6s: two steps from the next player's last hand-cut 4s; the riichi player's last
        // hand-cut is 6s itself; not genbutsu or suji for the stopped next player.
        let r = row("6s");
        assert_eq!(get(&r, "read_tedashi_near"), 1.0);
        assert_eq!(get(&r, "read_tedashi_same"), 1.0);
        assert_eq!(get(&r, "read_streak_max"), 6.0);
        assert_eq!(get(&r, "read_streak_unsafe"), 1.0);
        assert_eq!(get(&r, "read_late_yaochu_unsafe"), 1.0);
        assert_eq!(get(&r, "read_melds_max"), 0.0);
        // 1z: early in two rivers, genbutsu for both the stopped and the late-yaochu player.
        let r = row("1z");
        assert_eq!(get(&r, "read_early"), 2.0);
        assert_eq!(get(&r, "read_streak_unsafe"), 0.0);
        assert_eq!(get(&r, "read_late_yaochu_unsafe"), 0.0);
        assert_eq!(get(&r, "read_tedashi_near"), 0.0);
        // 1m: the next player's 4s is another suit; 1m is in the riichi player's early river and
        // suji of nothing the stopped player cut (their 1p, 9m... do not cover 1m's 4m).
        let r = row("1m");
        assert_eq!(get(&r, "read_early"), 1.0);
        assert_eq!(get(&r, "read_streak_unsafe"), 1.0);
    }
}
