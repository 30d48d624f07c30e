//! Family `value`: the expected value of the hand after a discard, as 電脳麻将's search
//! ([`crate::rank::expected_value`]) gives it, where that search is defined (the hand after the
//! discard at shanten 2 or better). Left at 0 without a search (`ingest --skip ev`).

use super::column::{Cols, Column, Family};
use crate::rank::expected_value::EvSearch;
use crate::tile::Tile;

pub(crate) const COLUMNS: &[(&str, &str)] = &[
    ("ev", "expected hand value after the discard (電脳麻将's 12/72/216 recursion), 0 at 3+ shanten"),
    ("log_ev", "ln(1 + ev), 0 at 3+ shanten"),
    ("ev_defined", "1 when the hand after the discard is at shanten 2 or better (ev is defined)"),
];

/// `ev`: what the value gate and the review read.
pub const EV: Column = Column::new(Family::Value, 0);
/// `ev_defined`.
pub const EV_DEFINED: Column = Column::new(Family::Value, 2);

/// Fills the family for "discard `tile`" whose hand is at `shanten` (the option's `shanten_min`)
/// after the discard; `search` is `None` when the columns are not computed.
pub(crate) fn fill(search: Option<&mut EvSearch>, tile: Tile, shanten: f32, cols: &mut Cols) {
    let value = match search {
        Some(ev) if shanten <= 2.0 => Some(ev.discard_value(tile).unwrap_or(0.0).max(0.0)),
        _ => None,
    };
    cols.put("ev", value.map_or(0.0, |v| v as f32));
    cols.put("log_ev", value.map_or(0.0, |v| v.ln_1p() as f32));
    cols.flag("ev_defined", value.is_some());
}
