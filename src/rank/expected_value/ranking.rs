//! Ranking the discards of a position as 電脳麻将 chooses, in two halves: [`EvSearch::options`]
//! gives each discard the value 電脳麻将 gives it when it chooses ([`Valuation`]), and
//! [`pick_order`] orders them. A dataset stores the first half in its `ev` columns, so its `ev`
//! evaluator orders with the same [`pick_order`] and picks exactly as [`EvSearch::rank`] does.

use super::state::St;
use super::{EvSearch, BACK_UKEIRE_RATIO};
use crate::hand::shanten::{kinds_of, min_shanten};
use crate::rank::paijia::Paijia;
use crate::rank::RankedDiscard;
use crate::tile::{Tile, KINDS};

pub use crate::rank::TIE_EPS;

/// [`EvSearch::yaku_shanten`] of a hand with no way to a yaku.
pub(super) const NO_YAKU: i8 = 99;

/// 電脳麻将's view of a hand at 3+ shanten: its shanten toward a hand with a yaku (99 when none
/// is in reach) and its weighted ukeire (each kind that lowers that shanten counted by its
/// unseen copies × 4 when a pon of it lowers it too, × 2 for a chi from the left, × 1 otherwise;
/// 0 with no yaku in reach).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Far {
    pub yaku_shanten: i8,
    pub weighted_ukeire: u32,
}

impl Far {
    /// The ranking score `W / 1000 - x`, or -99 with no yaku in reach: W ≤ 34 × 4 × 4 = 544, so
    /// a hand at a lower x always scores higher.
    pub fn score(self) -> f64 {
        if self.yaku_shanten >= NO_YAKU {
            -(NO_YAKU as f64)
        } else {
            self.weighted_ukeire as f64 / 1000.0 - self.yaku_shanten as f64
        }
    }
}

/// How 電脳麻将 values one discard when it chooses (`select_dapai`), and nothing it never
/// computes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Valuation {
    /// Points: the 12 / 72 / 216 search of a discard that keeps the hand's shanten (≤ 2), or
    /// the シャンテン戻し value of a shanten-raising discard at shanten ≤ 1 that passed the
    /// ukeire gate ([`BACK_UKEIRE_RATIO`]).
    Points(f64),
    /// A shanten-raising discard at shanten ≤ 1 that the gate refused: not searched, ranked
    /// below every valued discard by its shanten, then its ukeire.
    Unvalued,
    /// The hand after the discard is at 3+ shanten: ranked by [`Far::score`], no points.
    Far(Far),
}

/// One distinct discard as 電脳麻将 values it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiscardOption {
    pub tile: Tile,
    /// Minimum shanten of the hand after the discard.
    pub shanten: i8,
    /// Unseen copies of the kinds that lower it.
    pub ukeire: u32,
    pub valuation: Valuation,
}

impl DiscardOption {
    /// The ranking score: points when valued; `-(shanten + 1) + ukeire / 1000` when not (below
    /// every valued option, the lower shanten first); [`Far::score`] at 3+ shanten.
    pub fn score(&self) -> f64 {
        match self.valuation {
            Valuation::Points(v) => v,
            Valuation::Unvalued => -(self.shanten as f64 + 1.0) + self.ukeire as f64 / 1000.0,
            Valuation::Far(f) => f.score(),
        }
    }
}

/// What [`pick_order`] needs of one option: its score, its shanten after the discard, its
/// isolated-tile value, whether it is the drawn tile, and the tile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrderKey {
    pub score: f64,
    pub shanten: i8,
    pub paijia: f64,
    pub drawn: bool,
    pub tile: Tile,
}

/// The order in which 電脳麻将 prefers the options (indices into `keys`, best first), given the
/// hand's shanten before the discard. Higher score first. Exact ties (within [`TIE_EPS`]): at
/// shanten ≤ 1 a discard that keeps shanten before a shanten-back one (`select_dapai` values the
/// kept discards first and leaves the best of them only for a back discard worth strictly more),
/// then by [`tie_key`]. At 3+ shanten 電脳麻将 only weighs the discards that keep its yaku-aware
/// shanten at the hand's shanten; when none does, every option ties and it takes the first tile
/// in its tie order.
pub fn pick_order(hand_shanten: i8, keys: &[OrderKey]) -> Vec<usize> {
    let s = hand_shanten as f64;
    let none_weighed = hand_shanten >= 3 && keys.iter().all(|k| k.score < -s - TIE_EPS);
    let score = |k: &OrderKey| if none_weighed { -(NO_YAKU as f64) } else { k.score };
    let back = |k: &OrderKey| hand_shanten <= 1 && k.shanten > hand_shanten;
    let tie = |k: &OrderKey| tie_key(k.paijia, k.drawn, k.tile);
    let mut idx: Vec<usize> = (0..keys.len()).collect();
    idx.sort_by(|&a, &b| {
        let (ka, kb) = (&keys[a], &keys[b]);
        let q = |x: f64| (x / TIE_EPS).round() as i64;
        q(score(kb))
            .cmp(&q(score(ka)))
            .then(back(ka).cmp(&back(kb)))
            .then(tie(ka).total_cmp(&tie(kb)))
            .then(ka.tile.cmp(&kb.tile))
    });
    idx
}

impl EvSearch<'_> {
    /// Every distinct discard of the position's 14-tile hand (in [`crate::hand::Hand::distinct_tiles`]
    /// order) with the value 電脳麻将 gives it. The discards that keep shanten are searched
    /// first: the best of them gates the shanten-raising ones.
    pub fn options(&mut self) -> Vec<DiscardOption> {
        let all = self.hand.distinct_tiles();
        self.options_among(&all)
    }

    /// [`Self::options`] when only the discards `legal` may be made (a recorded decision: no
    /// kuikae swap after a call, only the drawn tile after riichi), as 電脳麻将 only weighs the
    /// discards the rules allow. Tiles the hand does not hold are left out.
    pub fn options_among(&mut self, legal: &[Tile]) -> Vec<DiscardOption> {
        let h = St::from_hand(&self.hand);
        let s = min_shanten(&h.c);
        let mut opts: Vec<(DiscardOption, St)> = legal
            .iter()
            .filter(|&&t| self.hand.tiles.contains(&t))
            .map(|&tile| {
                let after = h.without(tile);
                let (shanten, need) = after.necessary();
                let held = after.all();
                let ukeire = kinds_of(need).map(|k| self.unseen_kind(&held, k)).sum();
                (DiscardOption { tile, shanten, ukeire, valuation: Valuation::Unvalued }, after)
            })
            .collect();
        for (o, after) in opts.iter_mut() {
            if o.shanten >= 3 {
                o.valuation = Valuation::Far(self.far_parts(after));
            } else if o.shanten == s {
                o.valuation = Valuation::Points(self.value13(after, 0));
            }
        }
        if s <= 1 {
            self.value_backs(&mut opts, s);
        }
        opts.into_iter().map(|(o, _)| o).collect()
    }

    /// Values the shanten-raising discards that pass the ukeire gate of the best normal discard
    /// (the first of [`pick_order`] among those keeping shanten `s`).
    fn value_backs(&mut self, opts: &mut [(DiscardOption, St)], s: i8) {
        let paijia = self.paijia();
        let normal: Vec<usize> = (0..opts.len()).filter(|&i| opts[i].0.shanten == s).collect();
        let keys: Vec<OrderKey> = normal.iter().map(|&i| self.order_key(&opts[i].0, &paijia)).collect();
        let Some(&best) = pick_order(s, &keys).first() else { return };
        let best = &opts[normal[best]].0;
        let (best_value, best_ukeire) = (best.score().max(0.0), best.ukeire);
        for (o, after) in opts.iter_mut().filter(|(o, _)| o.shanten != s) {
            if o.ukeire >= BACK_UKEIRE_RATIO * best_ukeire {
                o.valuation = Valuation::Points(self.back_value(after, o.tile.kind(), 2.0 * best_value));
            }
        }
    }

    fn order_key(&self, o: &DiscardOption, paijia: &Paijia) -> OrderKey {
        OrderKey {
            score: o.score(),
            shanten: o.shanten,
            paijia: paijia.value(o.tile),
            drawn: self.pos.drawn == Some(o.tile),
            tile: o.tile,
        }
    }

    /// Ranks every distinct discard as 電脳麻将 picks: [`Self::options`] in [`pick_order`].
    pub fn rank(&mut self) -> Vec<RankedDiscard> {
        let all = self.hand.distinct_tiles();
        self.rank_among(&all)
    }

    /// [`Self::rank`] over the discards `legal` only ([`Self::options_among`]).
    pub fn rank_among(&mut self, legal: &[Tile]) -> Vec<RankedDiscard> {
        let s = min_shanten(&St::from_hand(&self.hand).c);
        let opts = self.options_among(legal);
        let paijia = self.paijia();
        let keys: Vec<OrderKey> = opts.iter().map(|o| self.order_key(o, &paijia)).collect();
        pick_order(s, &keys)
            .into_iter()
            .map(|i| {
                let o = &opts[i];
                RankedDiscard { tile: o.tile, score: keys[i].score, shanten: o.shanten, ukeire: o.ukeire }
            })
            .collect()
    }
}

/// The tie-break key of a discard: 電脳麻将 tries the discards in order of [`Paijia`] and keeps
/// the first of equal values; among equal paijia it tries the drawn tile first (its tsumogiri),
/// then the hand from the last kind back (honours before suits, 9 before 1, a plain 5 before
/// the red one). Lower = preferred.
pub fn tie_key(paijia: f64, drawn: bool, tile: Tile) -> f64 {
    let place = if drawn { 0 } else { 1 + 2 * (KINDS - 1 - tile.kind()) + usize::from(tile.is_red()) };
    paijia * 128.0 + place as f64
}
