//! River features: the discarded tile against what the table has shown, whether or not anyone is
//! in riichi.
//!
//! The safety family speaks only when an opponent is in riichi, yet strong players read the rivers
//! all game long: a honor two copies of which are out can no longer make a set and is safe to
//! cut, a tile an opponent (above all the dealer) has discarded is safe against them if they push
//! later, a tile the previous player just discarded is safe against everyone for a turn
//! (合わせ打ち), and a kind already in one's own river keeps the river consistent. These columns
//! let the fit weigh that in calm play; per opponent in riichi the safety family stays the
//! detailed picture.

use super::column::Cols;
use super::facts::{After, Facts};
use crate::rank::safety::{is_suji, river_kinds, KindSet};
use crate::replay::view::View;
use crate::tile::{Kind, KINDS};

pub(crate) const COLUMNS: [(&str, &str); 8] = [
    ("river_seen", "copies of the discarded kind visible outside the hand (rivers, melds, indicators), 0-4"),
    ("river_seen_honor", "river_seen when the discard is a honor, else 0 (a honor with 2+ out is dead)"),
    ("river_seen_terminal", "river_seen when the discard is a 1 or 9, else 0"),
    ("river_genbutsu_count", "opponents whose river holds the discarded kind (0-3)"),
    ("river_genbutsu_dealer", "1 if the dealer is an opponent and their river holds the discarded kind"),
    ("river_suji_count", "opponents for whom the discard is suji of their river (both sides for 4-6; 0-3)"),
    ("river_own", "1 if the discarded kind is already in the player's own river"),
    ("river_kamicha_last", "1 if the discard matches the previous player's last discard (safe for a turn)"),
];

/// Per-decision river facts, computed once.
#[derive(Clone, Debug, Default)]
pub(crate) struct RiverPrep {
    /// Kinds in each opponent's river (called-away tiles included).
    rivers: [KindSet; 3],
    dealer: Option<usize>,
    kamicha_last: Option<Kind>,
}

impl RiverPrep {
    pub(crate) fn new(view: &View) -> RiverPrep {
        let mut p = RiverPrep::default();
        for (i, o) in view.opponents.iter().enumerate() {
            p.rivers[i] = river_kinds(o);
            if o.is_dealer {
                p.dealer = Some(i);
            }
        }
        p.kamicha_last = view.opponents[2].river.last().map(|r| r.tile.kind());
        p
    }
}

pub(crate) fn fill(ctx: &Facts, prep: &RiverPrep, a: &After, cols: &mut Cols) {
    let k = a.discard.kind();
    debug_assert!(k < KINDS);
    let seen = f32::from(ctx.view.visible[k]);
    let honor = k >= 27;
    let terminal = !honor && matches!(k % 9, 0 | 8);
    cols.put("river_seen", seen);
    cols.put("river_seen_honor", if honor { seen } else { 0.0 });
    cols.put("river_seen_terminal", if terminal { seen } else { 0.0 });
    let in_river = |r: KindSet| r.contains(k);
    cols.put("river_genbutsu_count", prep.rivers.iter().filter(|&&r| in_river(r)).count() as f32);
    cols.flag("river_genbutsu_dealer", prep.dealer.is_some_and(|d| in_river(prep.rivers[d])));
    cols.put("river_suji_count", prep.rivers.iter().filter(|&&r| is_suji(r, k)).count() as f32);
    cols.flag("river_own", ctx.own_river_kinds >> k & 1 == 1);
    cols.flag("river_kamicha_last", prep.kamicha_last == Some(k));
}

#[cfg(test)]
mod tests {
    use crate::features::facts::tests_support::{get, river, row_of, tile, view};
    use crate::features::DecisionFeatures;

    #[test]
    fn counts_rivers_dealer_and_the_last_discard() {
        let mut v = view("1234679m2p56789s1z", "", 27, 28);
        v.opponents[0].river = river("1z4m");
        v.opponents[1].river = river("1z9p");
        v.opponents[1].is_dealer = true;
        v.opponents[2].river = river("3s1z");
        for r in v.opponents.iter().flat_map(|o| &o.river) {
            v.visible[r.tile.kind()] += 1;
        }
        v.own_river = vec![tile("2p")];
        let dec = DecisionFeatures::new(&v).unwrap();
        let row = |t: &str| row_of(&dec, t);
        // 1z: three copies out, in every river (the dealer's too), and the previous player's last
        let r = row("1z");
        assert_eq!(get(&r, "river_seen"), 3.0);
        assert_eq!(get(&r, "river_seen_honor"), 3.0);
        assert_eq!(get(&r, "river_seen_terminal"), 0.0);
        assert_eq!(get(&r, "river_genbutsu_count"), 3.0);
        assert_eq!(get(&r, "river_genbutsu_dealer"), 1.0);
        assert_eq!(get(&r, "river_kamicha_last"), 1.0);
        assert_eq!(get(&r, "river_suji_count"), 0.0);
        // 1m: suji of the next player's 4m; nothing else
        let r = row("1m");
        assert_eq!(get(&r, "river_seen"), 0.0);
        assert_eq!(get(&r, "river_suji_count"), 1.0);
        assert_eq!(get(&r, "river_genbutsu_count"), 0.0);
        assert_eq!(get(&r, "river_own"), 0.0);
        // 2p: in the own river only
        let r = row("2p");
        assert_eq!(get(&r, "river_own"), 1.0);
        assert_eq!(get(&r, "river_genbutsu_count"), 0.0);
        // 6s is a middle tile: 3s (the previous player's river) alone is half suji, not suji
        assert_eq!(get(&row("6s"), "river_suji_count"), 0.0);
        // 9s needs 6s in a river
        assert_eq!(get(&row("9s"), "river_suji_count"), 0.0);
    }
}
