//! Ranking the discards of a position ([`EvSearch::rank`]): normal discards by their searched
//! value, shanten-raising ones gated by their ukeire, exact ties broken as 電脳麻将 breaks them.

use super::state::St;
use super::yaku_forms::NO_YAKU;
use super::{EvSearch, BACK_UKEIRE_RATIO};
use crate::hand::shanten::{kinds_of, min_shanten};
use crate::rank::paijia::Paijia;
use crate::rank::RankedDiscard;
use crate::tile::{Tile, KINDS};

/// Two scores closer than this (in points) are a tie, broken by [`tie_key`].
pub(super) const TIE_EPS: f64 = 1e-6;

impl EvSearch<'_> {
    /// See [`rank`].
    pub fn rank(&mut self) -> Vec<RankedDiscard> {
        let h = St::from_hand(&self.hand);
        let s = min_shanten(&h.c);
        let paijia = self.paijia();
        struct Opt {
            tile: Tile,
            after: St,
            shanten: i8,
            ukeire: u32,
            score: f64,
            tie: f64,
        }
        let mut opts: Vec<Opt> = self
            .hand
            .distinct_tiles()
            .into_iter()
            .map(|tile| {
                let after = h.without(tile);
                let (shanten, need) = after.necessary();
                let held = after.all();
                let ukeire = kinds_of(need).map(|k| self.unseen_kind(&held, k)).sum();
                let tie = tie_key(&paijia, self.pos.drawn, tile);
                Opt { tile, after, shanten, ukeire, score: 0.0, tie }
            })
            .collect();
        // Normal discards (shanten kept) first: their best value and ukeire gate the others.
        for o in opts.iter_mut().filter(|o| o.shanten == s) {
            o.score = if s <= 2 { self.value13(&o.after, 0) } else { self.far(&o.after) };
        }
        let best_normal =
            opts.iter().filter(|o| o.shanten == s).min_by(|a, b| order(a.score, a.tie, b.score, b.tie));
        let (best_value, best_ukeire) = best_normal.map_or((0.0, 0), |o| (o.score.max(0.0), o.ukeire));
        for o in opts.iter_mut().filter(|o| o.shanten != s) {
            o.score = if o.shanten >= 3 {
                self.far(&o.after)
            } else if s <= 1 && o.ukeire >= BACK_UKEIRE_RATIO * best_ukeire {
                self.back_value(&o.after, o.tile.kind(), 2.0 * best_value)
            } else {
                -(o.shanten as f64 + 1.0) + o.ukeire as f64 / 1000.0
            };
        }
        // At 3+ shanten 電脳麻将 only weighs the discards that keep its yaku-aware shanten at the
        // hand's shanten; when none does, it takes the first tile in its tie order.
        if s >= 3 && opts.iter().all(|o| o.score < -(s as f64) - 1e-9) {
            opts.iter_mut().for_each(|o| o.score = -(NO_YAKU as f64));
        }
        opts.sort_by(|a, b| order(a.score, a.tie, b.score, b.tie).then(a.tile.cmp(&b.tile)));
        opts.into_iter()
            .map(|o| RankedDiscard { tile: o.tile, score: o.score, shanten: o.shanten, ukeire: o.ukeire })
            .collect()
    }
}

/// The tie-break key of a discard: 電脳麻将 tries the discards in order of [`Paijia`] and keeps
/// the first of equal values; among equal paijia it tries the drawn tile first (its tsumogiri),
/// then the hand from the last kind back (honours before suits, 9 before 1, a plain 5 before
/// the red one). Lower = preferred.
fn tie_key(paijia: &Paijia, drawn: Option<Tile>, tile: Tile) -> f64 {
    let place =
        if drawn == Some(tile) { 0 } else { 1 + 2 * (KINDS - 1 - tile.kind()) + usize::from(tile.is_red()) };
    paijia.value(tile) * 128.0 + place as f64
}

/// Ordering of two options, best first: higher score, then (within [`TIE_EPS`]) the lower
/// [`tie_key`].
fn order(sa: f64, ta: f64, sb: f64, tb: f64) -> std::cmp::Ordering {
    let q = |s: f64| (s / TIE_EPS).round() as i64;
    q(sb).cmp(&q(sa)).then(ta.total_cmp(&tb))
}
