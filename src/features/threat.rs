//! Threat in calm play: the discarded tile against opponents who have not declared riichi but
//! show a fast or big hand by their melds.
//!
//! The safety family speaks only against riichi. Yet an opponent with two or three calls is often
//! tenpai, a dora pon makes any win of theirs worth a mangan, and melds of one suit announce a
//! flush that wants exactly that suit. Strong players stop feeding such hands long before anyone
//! declares. Per option, these columns count the opponents (not in riichi) of each kind against
//! whom the tile is not safe:
//! - open: two or more calls (chi, pon, open kan; a closed kan is no call);
//! - dora meld: a meld holding a dora (by indicator, or a red five);
//! - flush: every meld of one suit (honours allowed), at least one of them suited, and the tile
//!   of that suit or an honour;
//! - toitoi: two or more pons / kans and no chi, and the tile can still make a set (at most two
//!   copies seen by the player).
//!
//! "Safe" is genbutsu (the kind is in that opponent's river, called-away tiles included) or suji
//! of their river, as `river_suji_count` reads it.

use super::column::Cols;
use super::facts::{After, Facts};
use crate::hand::meld::MeldKind;
use crate::rank::safety::{is_suji, river_kinds, KindSet};
use crate::replay::view::View;

pub(crate) const COLUMNS: [(&str, &str); 5] = [
    ("threat_open2_unsafe", "opponents not in riichi with 2+ calls against whom the discard is neither genbutsu nor suji (0-3)"),
    ("threat_open2_genbutsu", "opponents not in riichi with 2+ calls whose river holds the discarded kind (0-3)"),
    ("threat_dora_meld_unsafe", "opponents not in riichi with a dora (indicator or red) in a meld, discard neither genbutsu nor suji (0-3)"),
    ("threat_flush_suit", "opponents not in riichi whose melds are all one suit (+ honours): the discard is of that suit or an honour and not genbutsu (0-3)"),
    ("threat_toitoi_live", "opponents not in riichi with 2+ pons / kans and no chi: the discard is not genbutsu and at most 2 copies are seen (0-3)"),
];

/// One opponent's threat signs, computed once per decision.
#[derive(Clone, Copy, Debug, Default)]
struct Signs {
    /// Kinds in the opponent's river.
    river: KindSet,
    open2: bool,
    dora_meld: bool,
    /// The flush suit (0-2) when the melds point at one.
    flush: Option<usize>,
    toitoi: bool,
}

/// Per-decision threat facts.
#[derive(Clone, Debug, Default)]
pub(crate) struct ThreatPrep {
    opponents: Vec<Signs>,
}

impl ThreatPrep {
    pub(crate) fn new(view: &View, ctx: &Facts) -> ThreatPrep {
        let opponents = view
            .opponents
            .iter()
            .filter(|o| !o.in_riichi() && !o.melds.is_empty())
            .map(|o| {
                let calls = o.melds.iter().filter(|m| m.kind != MeldKind::Ankan).count();
                let dora_meld =
                    o.melds.iter().flat_map(|m| m.tiles()).any(|t| t.is_red() || ctx.dora[t.kind()] > 0);
                let suits: Vec<usize> =
                    o.melds.iter().map(|m| m.tiles()[0].suit()).filter(|&s| s < 3).collect();
                let flush = suits.first().copied().filter(|&s| suits.iter().all(|&x| x == s));
                let sets = o.melds.iter().filter(|m| !m.is_run()).count();
                let toitoi = sets >= 2 && o.melds.iter().all(|m| !m.is_run());
                let river = river_kinds(o);
                Signs { river, open2: calls >= 2, dora_meld, flush, toitoi }
            })
            .collect();
        ThreatPrep { opponents }
    }
}

pub(crate) fn fill(ctx: &Facts, prep: &ThreatPrep, a: &After, cols: &mut Cols) {
    let k = a.discard.kind();
    let genbutsu = |o: &Signs| o.river.contains(k);
    let safe = |o: &Signs| genbutsu(o) || is_suji(o.river, k);
    let count = |f: &dyn Fn(&Signs) -> bool| prep.opponents.iter().filter(|o| f(o)).count() as f32;
    cols.put("threat_open2_unsafe", count(&|o| o.open2 && !safe(o)));
    cols.put("threat_open2_genbutsu", count(&|o| o.open2 && genbutsu(o)));
    cols.put("threat_dora_meld_unsafe", count(&|o| o.dora_meld && !safe(o)));
    let in_suit = |o: &Signs| o.flush.is_some_and(|s| k >= 27 || k / 9 == s);
    cols.put("threat_flush_suit", count(&|o| in_suit(o) && !genbutsu(o)));
    cols.put("threat_toitoi_live", count(&|o| o.toitoi && !genbutsu(o) && ctx.seen[k] <= 2));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::facts::tests_support::{get, river, row_of, view};
    use crate::features::DecisionFeatures;
    use crate::hand::meld::Meld;
    use crate::tile::parse_mpsz;

    fn meld(kind: MeldKind, s: &str) -> Meld {
        let t = parse_mpsz(s).unwrap();
        Meld::new(kind, &t, Some(t[0]), 3)
    }

    #[test]
    fn open_hands_dora_melds_flushes_and_toitoi() {
        // Dora indicator 4p: 5p is dora.
        let mut v = view("1234679m2p56789s1z", "4p", 27, 28);
        // Next player: two calls in pinzu (chi 123p, pon 555p: a dora pon), river 6s.
        v.opponents[0].melds = vec![meld(MeldKind::Chi, "123p"), meld(MeldKind::Pon, "555p")];
        v.opponents[0].river = river("6s");
        // Across: two pons, 777s and South (toitoi- and souzu-flush-looking), river 1z.
        v.opponents[1].melds = vec![meld(MeldKind::Pon, "777s"), meld(MeldKind::Pon, "222z")];
        v.opponents[1].river = river("1z");
        // The previous player is closed.
        for o in &v.opponents {
            for m in &o.melds {
                m.tiles().iter().for_each(|t| v.visible[t.kind()] += 1);
            }
            o.river.iter().for_each(|r| v.visible[r.tile.kind()] += 1);
        }
        let dec = DecisionFeatures::new(&v).unwrap();
        let row = |t: &str| row_of(&dec, t);
        // 2p: unsafe for both open hands; the next player's flush suit; the dora pon holder's
        // danger; live for the toitoi hand (nothing seen but the tile itself).
        let r = row("2p");
        assert_eq!(get(&r, "threat_open2_unsafe"), 2.0);
        assert_eq!(get(&r, "threat_open2_genbutsu"), 0.0);
        assert_eq!(get(&r, "threat_dora_meld_unsafe"), 1.0);
        assert_eq!(get(&r, "threat_flush_suit"), 1.0);
        assert_eq!(get(&r, "threat_toitoi_live"), 1.0);
        // 1z: genbutsu against the toitoi hand; an honour for the flush hand.
        let r = row("1z");
        assert_eq!(get(&r, "threat_open2_genbutsu"), 1.0);
        assert_eq!(get(&r, "threat_open2_unsafe"), 1.0);
        assert_eq!(get(&r, "threat_flush_suit"), 1.0);
        assert_eq!(get(&r, "threat_toitoi_live"), 0.0);
        // 9s: suji of the next player's 6s, so safe against them; across it is their flush suit,
        // not genbutsu, and live for their toitoi (one copy seen).
        let r = row("9s");
        assert_eq!(get(&r, "threat_open2_unsafe"), 1.0);
        assert_eq!(get(&r, "threat_dora_meld_unsafe"), 0.0);
        assert_eq!(get(&r, "threat_flush_suit"), 1.0);
        assert_eq!(get(&r, "threat_toitoi_live"), 1.0);
    }

    #[test]
    fn riichi_and_closed_opponents_are_not_counted() {
        let mut v = view("1234679m2p56789s1z", "", 27, 28);
        v.opponents[0].melds = vec![meld(MeldKind::Pon, "555p"), meld(MeldKind::Pon, "777p")];
        v.opponents[0].riichi_at = Some(0);
        v.opponents[0].river = river("9m");
        v.opponents[1].melds = vec![meld(MeldKind::Ankan, "1111s")];
        let dec = DecisionFeatures::new(&v).unwrap();
        let r = row_of(&dec, "2p");
        for (name, _) in COLUMNS {
            assert_eq!(get(&r, name), 0.0, "{name}");
        }
    }
}
