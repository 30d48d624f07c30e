//! Furiten risk: how much of the hand's way forward its own river already holds (issue 69).
//!
//! The shape family flags a tenpai hand whose wait is furiten. Before tenpai the risk is in the
//! making: a discard of a kind the hand still wants (a 4m cut from 2345m) puts that kind in the
//! river, and a hand that later waits on it cannot ron it. Players weigh this (the "don't cut
//! the suji of your own wait" of every strategy book); the columns count, for the hand after the
//! discard, its ukeire kinds that are among its own discards (this one included), and the share
//! of its ukeire copies they hold.

use super::column::Cols;
use super::facts::{After, Facts};
use crate::hand::waits::{unseen, Ukeire};
use crate::tile::KINDS;

pub(crate) const COLUMNS: [(&str, &str); 2] = [
    (
        "furiten_risk_kinds",
        "ukeire kinds of the hand after the discard that are among own discards (this one included)",
    ),
    ("furiten_risk_share", "the unseen copies of those kinds over ukeire_count (0 when there is no ukeire)"),
];

/// `u` is the ukeire of the hand after the discard (the shape family's, computed once).
pub(crate) fn fill(ctx: &Facts, a: &After, u: &Ukeire, cols: &mut Cols) {
    let river = ctx.own_river_kinds | 1 << a.discard.kind();
    let risky = u.kinds & river;
    let copies: u32 =
        (0..KINDS).filter(|k| risky >> k & 1 == 1).map(|k| u32::from(unseen(k, &a.counts, &a.visible))).sum();
    cols.put("furiten_risk_kinds", risky.count_ones() as f32);
    cols.put("furiten_risk_share", if u.count == 0 { 0.0 } else { copies as f32 / u.count as f32 });
}

#[cfg(test)]
mod tests {
    use crate::features::facts::tests_support::{get, row_of, view};
    use crate::features::DecisionFeatures;

    #[test]
    fn a_cut_the_hand_still_wants_is_a_risk() {
        // 23456m 123p 789s 1z2z3z, with 1m in the own river (and so visible)
        let mut v = view("23456m123p789s1z2z3z", "", 27, 28);
        v.own_river = crate::tile::parse_mpsz("1m").unwrap();
        v.visible[0] += 1;
        let dec = DecisionFeatures::new(&v).unwrap();
        let row = |t: &str| row_of(&dec, t);
        // Cutting 5m leaves 2346m: both 1m (123m 46m) and 5m (234m 56m... 456m) still help,
        // and both are in the river: 3 unseen copies each.
        let r = row("5m");
        assert_eq!(get(&r, "furiten_risk_kinds"), 2.0);
        assert_eq!(get(&r, "furiten_risk_share"), 6.0 / get(&r, "ukeire_count"));
        // Cutting 3z: 1m (123m 456m) still helps, 3z does not.
        let r = row("3z");
        assert_eq!(get(&r, "furiten_risk_kinds"), 1.0);
        assert_eq!(get(&r, "furiten_risk_share"), 3.0 / get(&r, "ukeire_count"));
    }
}
