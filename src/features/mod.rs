//! Features: one vector per option of a decision, for a linear evaluation function.
//!
//! Pure functions over plain data: a [`View`] (what the deciding player sees) and an option
//! ("discard this tile"). Six families, one module each, fill consecutive column ranges of one
//! row; [`catalog()`] names every column in order.
//!
//! Cost: per-decision work (hand counts, dora and yakuhai tables, the safety context of each
//! riichi opponent, the meld facts) is done once in [`DecisionFeatures::new`]; per option only
//! the hand after the discard is evaluated. Nothing in the option path allocates except the
//! per-thread memo tables of the shanten DP and the 21-class cut (filled once per suit pattern).
//!
//! ```
//! use haifu::features::{catalog, DecisionFeatures, View};
//! # fn demo(view: &View) {
//! let dec = DecisionFeatures::new(view);
//! let mut row = vec![0f32; catalog().len()];
//! for &t in &view.hand {
//!     dec.fill(t, &mut row); // one row per option
//! }
//! # }
//! ```

pub mod catalog;
pub mod dora;
pub mod energy;
pub mod melds21;
pub mod safety;
pub mod shape;
pub mod view;
pub mod yaku_potential;

pub use catalog::{catalog, index_of, width, Family, FeatureDef};
pub use melds21::classify21;
pub use view::{Opponent, RiverTile, View};

use catalog::Cols;
use view::{After, Context};

/// Everything about a decision that does not depend on the option, computed once.
#[derive(Clone, Debug)]
pub struct DecisionFeatures {
    ctx: Context,
    melds: yaku_potential::MeldFacts,
    safety: safety::SafetyPrep,
}

impl DecisionFeatures {
    pub fn new(view: &View) -> DecisionFeatures {
        let ctx = Context::new(view);
        let melds = yaku_potential::MeldFacts::new(&ctx);
        DecisionFeatures { ctx, melds, safety: safety::SafetyPrep::new(view) }
    }

    /// Fills `row` (length [`width()`]) for the option "discard `discard`" (red fives are
    /// distinct options: they differ in dora value). A tile not in the hand is treated as if
    /// it were (counts saturate at zero) rather than panicking.
    pub fn fill(&self, discard: Tile, row: &mut [f32]) {
        assert_eq!(row.len(), width(), "a feature row has catalog().len() columns");
        let a = After::new(&self.ctx, discard);
        let mut c = Cols::new(row, Family::Shape);
        shape::fill(&self.ctx, &a, &mut c);
        c.done();
        let mut c = Cols::new(row, Family::Energy);
        energy::fill(&self.ctx, &a, &mut c);
        c.done();
        let mut c = Cols::new(row, Family::Dora);
        dora::fill(&self.ctx, &a, &mut c);
        c.done();
        let mut c = Cols::new(row, Family::YakuPotential);
        yaku_potential::fill(&self.ctx, &self.melds, &a, &mut c);
        c.done();
        let mut c = Cols::new(row, Family::Melds21);
        melds21::fill(&self.ctx, &a, &mut c);
        c.done();
        let mut c = Cols::new(row, Family::Safety);
        safety::fill(&self.ctx, &self.safety, &a, &mut c);
        c.done();
    }
}

use crate::tile::Tile;

/// The features of one option. Convenience for single calls: it redoes the per-decision work
/// each time, so batch code should build one [`DecisionFeatures`] per decision instead.
pub fn discard_features(view: &View, discard: Tile, out: &mut [f32]) {
    DecisionFeatures::new(view).fill(discard, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::{Meld, MeldKind};
    use crate::tile::{parse_mpsz, KINDS};

    fn tiles(s: &str) -> Vec<Tile> {
        parse_mpsz(s).unwrap()
    }

    /// A view built field by field: an open hand (pon of white) with a red five, two dora
    /// indicators, an opponent in riichi with a called tile in the river.
    fn full_view() -> View {
        let pon = Meld::new(MeldKind::Pon, &tiles("555z"), Some(tiles("5z")[0]), 2);
        let mut opponents: [Opponent; 3] = Default::default();
        opponents[0].river = tiles("1z9m2p5s")
            .into_iter()
            .enumerate()
            .map(|(i, tile)| RiverTile { tile, tsumogiri: i == 1, called: false })
            .collect();
        opponents[1].river = tiles("9s5z")
            .into_iter()
            .map(|tile| RiverTile { tile, tsumogiri: false, called: tile.kind() == 31 })
            .collect();
        opponents[1].melds = vec![];
        opponents[2].river = tiles("4z3m6p7s")
            .into_iter()
            .map(|tile| RiverTile { tile, tsumogiri: false, called: false })
            .collect();
        opponents[2].riichi_at = Some(2);
        opponents[2].is_dealer = true;
        opponents[2].riichi_passed[tiles("7s")[0].kind()] = 1;
        let dora_indicators = tiles("4m");
        let mut visible = [0u8; KINDS];
        for t in dora_indicators.iter().chain(pon.tiles()) {
            visible[t.kind()] += 1;
        }
        for o in &opponents {
            for r in o.river.iter().filter(|r| !r.called) {
                visible[r.tile.kind()] += 1;
            }
        }
        View {
            hand: tiles("0m67m2456p789s1z"),
            melds: vec![pon],
            round_wind: 27,
            seat_wind: 28,
            dora_indicators,
            visible,
            own_river: tiles("9p"),
            turn: 5,
            wall_left: 52,
            opponents,
        }
    }

    #[test]
    fn full_row_is_finite_and_complete() {
        let view = full_view();
        assert_eq!(view.hand.len(), 11);
        let dec = DecisionFeatures::new(&view);
        for &t in &view.hand {
            let mut row = vec![f32::NAN; catalog().len()];
            dec.fill(t, &mut row);
            assert_eq!(row.len(), catalog().len());
            assert!(row.iter().all(|x| x.is_finite()), "{t}: {row:?}");
            let mut again = vec![0.0; width()];
            discard_features(&view, t, &mut again);
            assert_eq!(row, again);
        }
        // Discard 1z: 0m6m7m 456p 789s + the pon = 4 melds, 2p left: tenpai, tanki on 2p.
        // 2p unseen: 4 - 1 held - 1 in the next player's river = 2. Own river 9p: no furiten.
        // Dora: indicator 4m -> 5m; the red 0m is worth 1 (indicator) + 1 (red) = 2.
        // Safety: the previous player (opp3, dealer) is in riichi; 1z is not in their river,
        // one 1z is in the next player's river and one in hand -> 2 unseen: honor, danger 4.
        let mut row = vec![0.0; width()];
        dec.fill(tiles("1z")[0], &mut row);
        let get = |n: &str| row[index_of(n).unwrap()];
        assert_eq!(get("shanten_min"), 0.0);
        assert_eq!(get("wait_tanki"), 1.0);
        assert_eq!(get("wait_kinds"), 1.0);
        assert_eq!(get("wait_count"), 2.0);
        assert_eq!(get("furiten"), 0.0);
        assert_eq!(get("dora_value"), 2.0);
        assert_eq!(get("red_fives"), 1.0);
        assert_eq!(get("yakuhai_sets"), 1.0);
        assert_eq!(get("menzen"), 0.0);
        assert_eq!(get("open_no_yaku"), 0.0);
        assert_eq!(get("safety_riichi_count"), 1.0);
        assert_eq!(get("safety_opp3_honor_unseen"), 2.0);
        assert_eq!(get("safety_worst_danger_est"), 4.0);
        assert_eq!(get("safety_worst_dealer"), 1.0);
        assert_eq!(get("safety_opp1_honor"), 0.0);
        // 21 classes: 567m 456p runs (mid), 789s (term), the white pon (set_term), 2p (iso_28).
        assert_eq!(get("m21_seq_mid"), 2.0);
        assert_eq!(get("m21_seq_term"), 1.0);
        assert_eq!(get("m21_set_term"), 1.0);
        assert_eq!(get("m21_iso_28"), 1.0);
        let names: std::collections::HashSet<_> = catalog().iter().map(|d| d.name).collect();
        assert_eq!(names.len(), catalog().len());
    }
}
