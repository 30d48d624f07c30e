//! The one builder of option rows, for every decision kind a row is made of: a discard, a
//! riichi and a call. Ingest writes them, and the `linear` evaluator (so `nanikiru`, `review` and
//! the self-play bots) scores them: a fitted model is served exactly the rows it was trained on.
//!
//! The order of the families is fixed here ([`DecisionFeatures::fill`], then the value and
//! visibility families of [`fill_discard_extras`], which read the hand families' columns), and so
//! is the expected value's configuration: red fives as the seat's view has them (the rule's reds,
//! minus those visible outside the hand) and the table's scoring rules.
//!
//! Which hand each option is scored as:
//! - discard: the hand families of "discard this tile" from the 14-tile hand, then its value and
//!   visibility;
//! - riichi: both options share the hand families of the hand after its best tenpai-keeping
//!   discard; the riichi option adds its action flag and the riichi trade;
//! - call: each option as the hand it leads to. `pass` is scored as taking the offered tile and
//!   throwing it straight back (the hand stays as it is); `chi` / `pon` as the hand after the call
//!   and its best discard (lowest shanten, then most ukeire); `daiminkan` as `pass` plus the kan
//!   flag, since the replacement draw is unknown; each adds its action and call-trade columns.
//!
//! - kita (three players): `kita` as the hand that sets the north aside (the hand families of
//!   "discard the north": the 13 tiles left before the replacement draw), `keep` as the hand
//!   after its best other discard (the north itself for a seat in riichi, whose drawn north is
//!   the only discard); `kita` adds its action flag.
//!
//! The danger family of a riichi, call or kita option is that of the discard its hand is scored
//! as (the riichi tile; the offered tile thrown back for `pass` and `daiminkan`; the best discard
//! after `chi` / `pon`; the north or the kept hand's discard), so those models read the opponents'
//! tenpai and the deal-in their option risks as a discard model does.
//!
//! Columns no family writes for an option stay 0 (the value family of a call, say).

use super::danger::DecisionDanger;
use super::groups::{Group, Skip};
use super::riichi_trade::Standing;
use super::{catalog::catalog_width, fill_action, fill_danger, fill_discard_extras, fill_riichi_trade};
use super::{DecisionFeatures, FeatureError};
use crate::hand::meld::{Meld, MeldKind};
use crate::hand::waits::ukeire;
use crate::rank::expected_value::EvSearch;
use crate::replay::decision::Action;
use crate::replay::view::View;
use crate::tile::{Counts, Tile};

/// A decision a seat faces, besides its view: what the rows are built for.
#[derive(Clone, Copy, Debug)]
pub enum Choice<'a> {
    /// Discard one of these tiles of the view's 14-tile hand (the legal ones).
    Discard(&'a [Tile]),
    /// Declare riichi or not (`Action::Riichi` / `Action::Dama`) with the view's 14-tile hand;
    /// the standing is what the riichi trade crosses with.
    Riichi { options: &'a [Action], standing: Standing },
    /// Call the `offered` tile or pass (`Pass`, `Chi`, `Pon`, `Daiminkan`); the view's hand is
    /// the seat's concealed tiles without the offered one.
    Call { offered: Tile, options: &'a [Action] },
    /// Set the `north` of the view's 14-tile hand aside or keep it (`Action::Kita` /
    /// `Action::Keep`).
    Kita { north: Tile, options: &'a [Action] },
}

/// The rows of `choice`'s options into `rows` (one catalog row each, in the options' order),
/// the columns of the groups `skip` leaves out at 0.
pub fn option_rows(view: &View, choice: Choice, skip: Skip, rows: &mut [f32]) -> Result<(), FeatureError> {
    match choice {
        Choice::Discard(legal) => discard_rows(view, legal, skip, rows),
        Choice::Riichi { options, standing } => riichi_rows(view, options, &standing, skip, rows),
        Choice::Call { offered, options } => call_rows(view, offered, options, skip, rows),
        Choice::Kita { north, options } => kita_rows(view, north, options, skip, rows),
    }
}

/// The features of a decision's view, without the groups `skip` leaves out.
pub fn decision_features(view: &View, skip: Skip) -> Result<DecisionFeatures<'_>, FeatureError> {
    let f = DecisionFeatures::build(view, !skip.has(Group::Seats))?;
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
    // 電脳麻将's value is a four-player search (its wall, payments and opponents): at three
    // players the family stays unset rather than hold a four-player value (docs/evaluators.md).
    let valued =
        if skip.has(Group::Ev) || view.players() != 4 { Vec::new() } else { ev.options_among(legal) };
    let danger =
        (!skip.has(Group::Danger)).then(|| DecisionDanger::new(super::danger::shipped(), view, legal));
    for (tile, r) in legal.iter().zip(rows.chunks_exact_mut(catalog_width())) {
        f.fill(*tile, r)?;
        fill_discard_extras(view, *tile, r, valued.iter().find(|v| v.tile == *tile), &paijia)?;
        if let Some(d) = &danger {
            fill_danger(d, *tile, r)?;
        }
    }
    Ok(())
}

/// Every distinct discard of the view's hand ([`crate::hand::Hand::distinct_tiles`] order) with
/// its row, every column group: what a fitted model scores for a live position.
pub fn every_discard(view: &View) -> Result<Vec<(Tile, Vec<f32>)>, FeatureError> {
    every_discard_but(view, Skip::NONE)
}

/// [`every_discard`] with the groups `skip` leaves out at 0: for a model that does not read them
/// ([`Skip::unread_by`]), every column it reads is the same.
pub fn every_discard_but(view: &View, skip: Skip) -> Result<Vec<(Tile, Vec<f32>)>, FeatureError> {
    let tiles = view.full_hand().distinct_tiles();
    let mut rows = vec![0.0; tiles.len() * catalog_width()];
    discard_rows(view, &tiles, skip, &mut rows)?;
    Ok(tiles.into_iter().zip(rows.chunks_exact(catalog_width()).map(<[f32]>::to_vec)).collect())
}

/// The discard with the lowest shanten, then the most ukeire (kind order breaks ties); with
/// `keep_tenpai` only the discards that leave the hand tenpai.
fn best_discard(view: &View, keep_tenpai: bool) -> Option<Tile> {
    best_discard_but(view, keep_tenpai, None)
}

/// [`best_discard`] among the tiles not of kind `keep`.
fn best_discard_but(view: &View, keep_tenpai: bool, keep: Option<crate::tile::Kind>) -> Option<Tile> {
    let mut counts = [0u8; 34];
    view.hand.iter().for_each(|t| counts[t.kind()] += 1);
    let mut best: Option<(i8, u32, Tile)> = None;
    let mut tiles = view.hand.clone();
    tiles.sort_by_key(|t| (t.kind(), !t.is_red()));
    tiles.dedup();
    for t in tiles.into_iter().filter(|t| Some(t.kind()) != keep) {
        let mut after: Counts = counts;
        after[t.kind()] -= 1;
        let u = ukeire(&after, &view.visible);
        if keep_tenpai && u.shanten > 0 {
            continue;
        }
        if best.is_none_or(|(s, n, _)| (u.shanten, std::cmp::Reverse(u.count)) < (s, std::cmp::Reverse(n))) {
            best = Some((u.shanten, u.count, t));
        }
    }
    best.map(|(_, _, t)| t)
}

fn remove_tiles(hand: &[Tile], take: &[Tile]) -> Option<Vec<Tile>> {
    let mut h = hand.to_vec();
    for t in take {
        let i = h.iter().position(|x| x == t)?;
        h.swap_remove(i);
    }
    Some(h)
}

/// The hand families of "discard `tile`" from `view` into `out` (a whole option row), and its
/// danger family unless `skip` leaves it out.
fn hand_row(view: &View, tile: Tile, out: &mut [f32], skip: Skip) -> Result<(), FeatureError> {
    decision_features(view, skip)?.fill(tile, out)?;
    if skip.has(Group::Danger) {
        return Ok(());
    }
    fill_danger(&DecisionDanger::new(super::danger::shipped(), view, &[tile]), tile, out)
}

fn unexpected(kind: &'static str, option: &Action) -> FeatureError {
    FeatureError::UnexpectedOption { kind, option: option.label() }
}

/// A riichi decision (see the module doc).
fn riichi_rows(
    view: &View,
    options: &[Action],
    standing: &Standing,
    skip: Skip,
    rows: &mut [f32],
) -> Result<(), FeatureError> {
    let tile = best_discard(view, true).ok_or(FeatureError::NoTenpaiDiscard)?;
    let mut row = vec![0.0; catalog_width()];
    hand_row(view, tile, &mut row, skip)?;
    for (o, r) in options.iter().zip(rows.chunks_exact_mut(catalog_width())) {
        r.copy_from_slice(&row);
        fill_action(o, view.turn, r)?;
        fill_riichi_trade(view, tile, standing, *o == Action::Riichi, r)?;
    }
    Ok(())
}

/// A kita decision (see the module doc).
fn kita_rows(
    view: &View,
    north: Tile,
    options: &[Action],
    skip: Skip,
    rows: &mut [f32],
) -> Result<(), FeatureError> {
    let keep = if view.riichi { None } else { best_discard_but(view, false, Some(north.kind())) };
    for (o, r) in options.iter().zip(rows.chunks_exact_mut(catalog_width())) {
        match o {
            Action::Kita => hand_row(view, north, r, skip)?,
            Action::Keep => hand_row(view, keep.unwrap_or(north), r, skip)?,
            other => return Err(unexpected("kita", other)),
        }
        fill_action(o, view.turn, r)?;
    }
    Ok(())
}

/// A call decision (see the module doc); `view.hand` is the concealed hand without `offered`.
fn call_rows(
    view: &View,
    offered: Tile,
    options: &[Action],
    skip: Skip,
    rows: &mut [f32],
) -> Result<(), FeatureError> {
    let mut pass_view = view.clone();
    pass_view.hand.push(offered);
    let mut pass_row = vec![0.0; catalog_width()];
    hand_row(&pass_view, offered, &mut pass_row, skip)?;
    for (o, r) in options.iter().zip(rows.chunks_exact_mut(catalog_width())) {
        match o {
            Action::Pass | Action::Daiminkan => r.copy_from_slice(&pass_row),
            Action::Chi(pair) | Action::Pon(pair) => {
                let rest = remove_tiles(&view.hand, pair).ok_or(FeatureError::CallTilesNotInHand)?;
                let kind = if matches!(o, Action::Chi(_)) { MeldKind::Chi } else { MeldKind::Pon };
                let meld = Meld::new(kind, &[pair[0], pair[1], offered], Some(offered), 0);
                let mut after = View { hand: rest, ..view.clone() };
                after.melds.push(meld);
                // The offered tile is already visible in the discarder's river; the two
                // tiles from the hand become visible in the meld.
                for m in pair {
                    after.visible[m.kind()] += 1;
                }
                if let Some(tile) = best_discard(&after, false) {
                    hand_row(&after, tile, r, skip)?;
                }
            }
            other => return Err(unexpected("call", other)),
        }
        fill_action(o, view.turn, r)?;
    }
    Ok(())
}
