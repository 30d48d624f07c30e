//! The one builder of a discard decision's option rows. Ingest writes them, and the `linear`
//! evaluator (so `nanikiru`, `review` and the self-play bots) scores them: a fitted model is
//! served exactly the rows it was trained on.
//!
//! The order of the families is fixed here ([`DecisionFeatures::fill`], then the value and
//! visibility families of [`fill_discard_extras`], which read the hand families' columns), and so
//! is the expected value's configuration: red fives as the seat's view has them (the rule's reds,
//! minus those visible outside the hand) and the table's scoring rules.

use super::groups::{Group, Skip};
use super::{catalog::catalog_width, fill_discard_extras, DecisionFeatures, FeatureError};
use crate::rank::expected_value::EvSearch;
use crate::replay::view::View;
use crate::tile::Tile;

/// The features of a decision's view, without the groups `skip` leaves out.
pub fn decision_features(view: &View, skip: Skip) -> Result<DecisionFeatures<'_>, FeatureError> {
    let f = DecisionFeatures::new(view)?;
    Ok(if skip.has(Group::Ukeire2) { f.without_second_order() } else { f })
}

/// The expected-value search a view's rows are valued with (see the module doc).
pub fn ev_search(view: &View) -> EvSearch<'_> {
    EvSearch::new(view).with_view_reds()
}

/// The rows of the discards `legal` of `view` into `rows` (one catalog row each, in order), the
/// columns of the groups `skip` leaves out at 0.
pub fn discard_rows(view: &View, legal: &[Tile], skip: Skip, rows: &mut [f32]) -> Result<(), FeatureError> {
    discard_rows_valued_by(view, legal, &mut ev_search(view), skip, rows)
}

/// [`discard_rows`] with the value family from a search the caller configured: for checking the
/// rows against 電脳麻将's golden positions, whose reds and rules the position file states.
pub fn discard_rows_valued_by(
    view: &View,
    legal: &[Tile],
    ev: &mut EvSearch,
    skip: Skip,
    rows: &mut [f32],
) -> Result<(), FeatureError> {
    let f = decision_features(view, skip)?;
    let paijia = ev.paijia();
    let valued = if skip.has(Group::Ev) { Vec::new() } else { ev.options_among(legal) };
    for (tile, r) in legal.iter().zip(rows.chunks_exact_mut(catalog_width())) {
        f.fill(*tile, r)?;
        fill_discard_extras(view, *tile, r, valued.iter().find(|v| v.tile == *tile), &paijia)?;
    }
    Ok(())
}

/// Every distinct discard of the view's hand ([`crate::hand::Hand::distinct_tiles`] order) with
/// its row, every column group: what a fitted model scores for a live position.
pub fn every_discard(view: &View) -> Result<Vec<(Tile, Vec<f32>)>, FeatureError> {
    let tiles = view.full_hand().distinct_tiles();
    let mut rows = vec![0.0; tiles.len() * catalog_width()];
    discard_rows(view, &tiles, Skip::NONE, &mut rows)?;
    Ok(tiles.into_iter().zip(rows.chunks_exact(catalog_width()).map(<[f32]>::to_vec)).collect())
}
