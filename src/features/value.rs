//! Family `value`: the value 電脳麻将's player gives each discard when it chooses
//! ([`crate::rank::expected_value::EvSearch::options`]), and nothing it never computes:
//! - `ev`, in points, for a discard that keeps the hand's shanten at 2 or better (the 12 / 72 /
//!   216 search) and for a shanten-raising discard at shanten ≤ 1 that passed 電脳麻将's ukeire
//!   gate (its シャンテン戻し value); no value (`ev_defined` = 0) for any other option;
//! - at 3+ shanten after the discard, not points but 電脳麻将's own ranking terms, in columns of
//!   their own: its shanten toward a hand with a yaku and its call-weighted ukeire.
//!
//! With the option's `shanten_min`, `ukeire_count`, `vis_paijia` and `vis_tsumogiri` these are
//! all [`crate::rank::expected_value::ranking::pick_order`] needs, so a dataset's `ev` evaluator
//! picks as the live search does. Left at 0 without a search (`ingest --skip ev`).

use super::column::{Cols, Column, Family};
use crate::rank::expected_value::ranking::{DiscardOption, Valuation};

pub(crate) const COLUMNS: &[(&str, &str)] = &[
    (
        "ev",
        "電脳麻将's value of the discard in points: its 12/72/216 search when the discard keeps shanten ≤ 2, its shanten-back value when it raises shanten ≤ 1 past the ukeire gate; 0 otherwise",
    ),
    ("log_ev", "ln(1 + ev), 0 where ev_defined is 0"),
    ("ev_defined", "1 when 電脳麻将 gives the discard a value in points (ev)"),
    (
        "ev_far_shanten",
        "at 3+ shanten after the discard: 電脳麻将's shanten toward a hand with a yaku (99: no yaku in reach); 0 otherwise",
    ),
    (
        "ev_far_ukeire",
        "at 3+ shanten after the discard: 電脳麻将's weighted ukeire (unseen copies of each kind lowering ev_far_shanten, x4 when a pon of it does, x2 a chi); 0 otherwise",
    ),
];

/// `ev`: what the value gate and the review read.
pub const EV: Column = Column::new(Family::Value, 0);
/// `ev_defined`.
pub const EV_DEFINED: Column = Column::new(Family::Value, 2);

/// Fills the family from the option as 電脳麻将 values it; `None` (no search) leaves it at 0.
pub(crate) fn fill(option: Option<&DiscardOption>, cols: &mut Cols) {
    let valuation = option.map(|o| o.valuation);
    let points = match valuation {
        Some(Valuation::Points(v)) => Some(v.max(0.0)),
        _ => None,
    };
    cols.put("ev", points.map_or(0.0, |v| v as f32));
    cols.put("log_ev", points.map_or(0.0, |v| v.ln_1p() as f32));
    cols.flag("ev_defined", points.is_some());
    let far = match valuation {
        Some(Valuation::Far(f)) => Some(f),
        _ => None,
    };
    cols.put("ev_far_shanten", far.map_or(0.0, |f| f.yaku_shanten as f32));
    cols.put("ev_far_ukeire", far.map_or(0.0, |f| f.weighted_ukeire as f32));
}
