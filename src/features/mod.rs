//! Features: one row per option of a decision, for a linear evaluation function.
//!
//! Pure functions over plain data: the deciding seat's [`View`] and an option ("discard this
//! tile", "riichi", "pon"). Fourteen families, one module each, fill consecutive column ranges
//! of one row; the [`catalog`] names every column in order, with its family and meaning. The
//! eight hand families (shape to threat) describe the hand after a discard
//! ([`DecisionFeatures::fill`]); value and visibility add what the evaluators of
//! [`crate::rank`] say about the discard ([`fill_discard_extras`]); action, riichi trade and
//! call trade mark the kind of option and cross it with the situation ([`fill_action`],
//! [`fill_riichi_trade`]).
//!
//! Cost: per-decision work (hand counts, dora and yakuhai tables, the safety context of each
//! riichi opponent, the meld facts) is done once in [`DecisionFeatures::new`]; per option only
//! the hand after the discard is evaluated. The option path allocates only in the per-thread
//! memo tables of the shanten DP and the 21-class cut (once per new suit pattern) and one small
//! Vec in the wait analysis of tenpai options. Second-order ukeire, when asked for
//! ([`DecisionFeatures::without_second_order`] leaves it out), costs more than every other hand
//! column together: dozens of necessary- and unnecessary-kinds queries per option, against one
//! for ukeire. That is why ingest leaves it out unless `--with ukeire2` (docs/performance.md has
//! the measured shares).
//!
//! ```
//! use haifu::features::catalog::catalog_width;
//! use haifu::features::DecisionFeatures;
//! use haifu::replay::view::View;
//! # fn demo(view: &View) {
//! let dec = DecisionFeatures::new(view).expect("a discard decision");
//! let mut row = vec![0f32; catalog_width()];
//! for &t in &view.hand {
//!     dec.fill(t, &mut row).expect("held tile"); // one row per option
//! }
//! # }
//! ```

pub mod action;
pub mod all_last;
pub mod call_trade;
pub mod catalog;
pub mod column;
pub mod danger;
pub mod danger_inputs;
pub mod dora;
pub mod energy;
pub mod facts;
pub mod furiten_risk;
pub mod groups;
pub mod levels;
pub mod melds21;
pub mod option_rows;
pub mod reading;
pub mod riichi_trade;
pub mod river;
pub mod safety;
pub mod seat_reading;
pub mod shape;
pub mod threat;
pub mod value;
pub mod visibility;
pub mod yaku_potential;

use crate::rank::expected_value::ranking::DiscardOption;
#[cfg(doc)]
use crate::rank::expected_value::EvSearch;
use crate::rank::paijia::Paijia;
use crate::replay::decision::Action;
use crate::replay::view::View;
use crate::tile::Tile;
use catalog::{catalog_width, cols};
use column::Family;
use facts::{After, Facts};
use riichi_trade::Standing;

/// A view or option the features cannot be computed for (bad input, never a panic).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FeatureError {
    #[error("a discard decision with {melds} meld(s) needs {want} concealed tiles, the view has {got}")]
    HandSize { melds: usize, want: usize, got: usize },
    #[error("{count} copies of {tile} in the concealed hand")]
    TooManyCopies { tile: Tile, count: u8 },
    #[error("discard {0} is not in the hand")]
    NotInHand(Tile),
    #[error("a feature row needs {want} columns, got {got}")]
    RowWidth { want: usize, got: usize },
    #[error("{kind} decision with {option}")]
    UnexpectedOption { kind: &'static str, option: String },
    #[error("riichi decision without a tenpai discard")]
    NoTenpaiDiscard,
    #[error("call tiles not in hand")]
    CallTilesNotInHand,
}

/// Everything about a decision that does not depend on the option, computed once: the seat's
/// view with its derived [`Facts`], and each family's own preparation.
#[derive(Clone, Debug)]
pub struct DecisionFeatures<'v> {
    ctx: Facts<'v>,
    melds: yaku_potential::MeldFacts,
    shapes: yaku_potential::Shapes,
    safety: safety::SafetyPrep,
    river: river::RiverPrep,
    threat: threat::ThreatPrep,
    reading: reading::ReadingPrep,
    /// The `seats` group's per-decision facts: `None` leaves its families at 0
    /// ([`Self::without_seats`]).
    seats: Option<(all_last::AllLastPrep, seat_reading::SeatReadingPrep)>,
    /// Compute second-order ukeire (else its two columns stay 0; see [`Self::without_second_order`]).
    second_order: bool,
}

impl<'v> DecisionFeatures<'v> {
    /// Checks the view is a discard decision (14 - 3 * melds concealed tiles, at most 4 of a
    /// kind) and precomputes the per-decision facts.
    pub fn new(view: &'v View) -> Result<DecisionFeatures<'v>, FeatureError> {
        Self::build(view, true)
    }

    /// [`Self::new`], with the `seats` group's preparation only when `seats` (a run that does not
    /// hold the group does not pay for it).
    pub(crate) fn build(view: &'v View, seats: bool) -> Result<DecisionFeatures<'v>, FeatureError> {
        let melds = view.melds.len();
        let want = 14usize.saturating_sub(3 * melds);
        if melds > 4 || view.hand.len() != want {
            return Err(FeatureError::HandSize { melds, want, got: view.hand.len() });
        }
        let ctx = Facts::new(view);
        if let Some(k) = (0..crate::tile::KINDS).find(|&k| ctx.hand[k] > 4) {
            return Err(FeatureError::TooManyCopies { tile: Tile::from_kind(k), count: ctx.hand[k] });
        }
        let melds = yaku_potential::MeldFacts::new(&ctx);
        let shapes = yaku_potential::Shapes::new(&ctx);
        let threat = threat::ThreatPrep::new(view, &ctx);
        Ok(DecisionFeatures {
            ctx,
            melds,
            shapes,
            safety: safety::SafetyPrep::new(view),
            river: river::RiverPrep::new(view),
            threat,
            reading: reading::ReadingPrep::new(view),
            seats: seats
                .then(|| (all_last::AllLastPrep::new(view), seat_reading::SeatReadingPrep::new(view))),
            second_order: true,
        })
    }

    /// Leaves the `seats` group's families (all-last, seat reading, furiten risk) at 0, for an
    /// ingest that does not hold the group (`--skip seats`).
    pub fn without_seats(mut self) -> Self {
        self.seats = None;
        self
    }

    /// Leaves `ukeire2_avg` and `ukeire2_sum` at 0: they are most of an option's feature cost
    /// (see the module doc), and an ingest that leaves them out of its dataset (`--skip ukeire2`)
    /// need not pay for them.
    pub fn without_second_order(mut self) -> Self {
        self.second_order = false;
        self
    }

    /// Fills the hand families (shape to threat, reading, and the `seats` group's) of `row` (a whole option row, length
    /// [`catalog_width()`]) for the option "discard `discard`"; the other families are left as
    /// they are ([`fill_discard_extras`], [`fill_action`], [`fill_riichi_trade`] write them). A
    /// red five and a plain five are distinct options (they differ in dora value); asking for a
    /// red five when only plain ones are held is an error.
    pub fn fill(&self, discard: Tile, row: &mut [f32]) -> Result<(), FeatureError> {
        check_width(row)?;
        // a red five needs the red copy; a plain five needs a copy besides the red one
        let n = self.ctx.hand[discard.kind()];
        let red = self.ctx.hand_reds_of(discard) && crate::tile::is_five(discard.kind());
        let held = if discard.is_red() { red } else { n > u8::from(red) };
        if !held {
            return Err(FeatureError::NotInHand(discard));
        }
        let a = After::new(&self.ctx, discard);
        let mut c = cols(row, Family::Shape);
        let u = shape::fill(&self.ctx, &a, self.second_order, &mut c);
        c.done();
        let mut c = cols(row, Family::Energy);
        energy::fill(&self.ctx, &a, &mut c);
        c.done();
        let mut c = cols(row, Family::Dora);
        dora::fill(&self.ctx, &a, &mut c);
        c.done();
        let mut c = cols(row, Family::YakuPotential);
        yaku_potential::fill(&self.ctx, &self.melds, &self.shapes, &a, &mut c);
        c.done();
        let inputs = level_inputs(row);
        let mut c = cols(row, Family::Levels);
        levels::fill(&self.ctx, &a, &inputs, &mut c);
        c.done();
        let mut c = cols(row, Family::Melds21);
        melds21::fill(&self.ctx, &a, &mut c);
        c.done();
        let mut c = cols(row, Family::Safety);
        safety::fill(&self.ctx, &self.safety, &a, &mut c);
        c.done();
        let mut c = cols(row, Family::River);
        river::fill(&self.ctx, &self.river, &a, &mut c);
        c.done();
        let mut c = cols(row, Family::Threat);
        threat::fill(&self.ctx, &self.threat, &a, &mut c);
        c.done();
        let mut c = cols(row, Family::Reading);
        reading::fill(&self.reading, &a, &mut c);
        c.done();
        if let Some((all_last, seats)) = &self.seats {
            let mut c = cols(row, Family::AllLast);
            all_last::fill(all_last, &mut c);
            c.done();
            let mut c = cols(row, Family::SeatReading);
            seat_reading::fill(seats, &a, &mut c);
            c.done();
            let mut c = cols(row, Family::FuritenRisk);
            furiten_risk::fill(&self.ctx, &a, &u, &mut c);
            c.done();
        }
        Ok(())
    }
}

/// The earlier columns the levels family reads ([`levels::INPUT_NAMES`]) from a row whose shape
/// to yaku families are filled; their indices are looked up once.
fn level_inputs(row: &[f32]) -> levels::Inputs {
    static IDX: std::sync::OnceLock<[usize; 16]> = std::sync::OnceLock::new();
    let idx = IDX.get_or_init(|| {
        levels::INPUT_NAMES.map(|n| {
            catalog::index_of(n).unwrap_or_else(|| panic!("the levels read {n}, which is not a column"))
        })
    });
    levels::Inputs::new(idx.map(|i| row[i]))
}

fn check_width(row: &[f32]) -> Result<(), FeatureError> {
    match row.len() == catalog_width() {
        true => Ok(()),
        false => Err(FeatureError::RowWidth { want: catalog_width(), got: row.len() }),
    }
}

/// Fills the value and visibility families of "discard `tile`" from `view` into `row`. `ev` is
/// the option as 電脳麻将 values it (from the decision's [`EvSearch::options`]; `None` leaves the
/// value family at 0, as `--skip ev` asks) and `paijia` the decision's table. Shared by ingest and
/// the `linear` evaluator so training and use see the same values.
pub fn fill_discard_extras(
    view: &View,
    tile: Tile,
    row: &mut [f32],
    ev: Option<&DiscardOption>,
    paijia: &Paijia,
) -> Result<(), FeatureError> {
    check_width(row)?;
    let mut c = cols(row, Family::Value);
    value::fill(ev, &mut c);
    c.done();
    let mut c = cols(row, Family::Visibility);
    visibility::fill(view, paijia, tile, &mut c);
    c.done();
    Ok(())
}

/// Fills the danger family of "discard `tile`" from the decision's models' answers `danger`.
pub(crate) fn fill_danger(
    danger: &danger::DecisionDanger,
    tile: Tile,
    row: &mut [f32],
) -> Result<(), FeatureError> {
    check_width(row)?;
    let mut c = cols(row, Family::Danger);
    danger.fill(tile.kind(), &mut c);
    c.done();
    Ok(())
}

/// Fills the action and call-trade families of the option `action`, taken on the player's
/// `turn`.
pub fn fill_action(action: &Action, turn: u8, row: &mut [f32]) -> Result<(), FeatureError> {
    check_width(row)?;
    let mut c = cols(row, Family::Action);
    action::fill(action, &mut c);
    c.done();
    let mut c = cols(row, Family::CallTrade);
    call_trade::fill(action, turn, &mut c);
    c.done();
    Ok(())
}

/// Fills the riichi-trade family: for the riichi option (`riichi`) of `view` whose tenpai
/// discard is `tile`, the trade's columns; for any other option, zeros.
pub fn fill_riichi_trade(
    view: &View,
    tile: Tile,
    standing: &Standing,
    riichi: bool,
    row: &mut [f32],
) -> Result<(), FeatureError> {
    check_width(row)?;
    let mut c = cols(row, Family::RiichiTrade);
    riichi_trade::fill(view, tile, standing, riichi, &mut c);
    c.done();
    Ok(())
}

/// The features of one option. Convenience for single calls: it redoes the per-decision work
/// each time, so batch code should build one [`DecisionFeatures`] per decision instead.
pub fn discard_features(view: &View, discard: Tile, out: &mut [f32]) -> Result<(), FeatureError> {
    DecisionFeatures::new(view)?.fill(discard, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::catalog::{catalog, index_of};
    use crate::hand::meld::{Meld, MeldKind};
    use crate::replay::view::{Opponent, SeenDiscard};
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
            .map(|(i, tile)| SeenDiscard { tile, tsumogiri: i == 1, called: false })
            .collect();
        opponents[1].river = tiles("9s5z")
            .into_iter()
            .map(|tile| SeenDiscard { tile, tsumogiri: false, called: tile.kind() == 31 })
            .collect();
        opponents[1].melds = vec![];
        opponents[2].river = tiles("4z3m6p7s")
            .into_iter()
            .map(|tile| SeenDiscard { tile, tsumogiri: false, called: false })
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
            drawn: None,
            red_fives: true,
            visible_reds: [false; 3],
            riichi: false,
            scoreboard: Default::default(),
            last_round: crate::replay::view::FOUR_PLAYER_HANCHAN_LAST,
        }
    }

    #[test]
    fn full_row_is_finite_and_complete() {
        let view = full_view();
        assert_eq!(view.hand.len(), 11);
        let dec = DecisionFeatures::new(&view).unwrap();
        // the hand families, shape to reading, come first, and the `seats` group's last;
        // `fill` leaves the others (value to danger) as they were
        let hand = 0..catalog::family_range(Family::Reading).end;
        let seats = catalog::family_range(Family::AllLast).start..catalog_width();
        let rest = hand.end..seats.start;
        for &t in &view.hand {
            let mut row = vec![f32::NAN; catalog().len()];
            dec.fill(t, &mut row).unwrap();
            assert!(row[hand.clone()].iter().all(|x| x.is_finite()), "{t}: {row:?}");
            assert!(row[seats.clone()].iter().all(|x| x.is_finite()), "{t}: {row:?}");
            assert!(row[rest.clone()].iter().all(|x| x.is_nan()), "{t}: {row:?}");
            let mut again = vec![f32::NAN; catalog_width()];
            discard_features(&view, t, &mut again).unwrap();
            assert_eq!(row[hand.clone()], again[hand.clone()]);
            assert_eq!(row[seats.clone()], again[seats.clone()]);
            // without the group its families stay as they were
            let mut bare = vec![f32::NAN; catalog_width()];
            DecisionFeatures::new(&view).unwrap().without_seats().fill(t, &mut bare).unwrap();
            assert!(bare[seats.clone()].iter().all(|x| x.is_nan()));
        }
        // Discard 1z: 0m6m7m 456p 789s + the pon = 4 melds, 2p left: tenpai, tanki on 2p.
        // 2p unseen: 4 - 1 held - 1 in the next player's river = 2. Own river 9p: no furiten.
        // Dora: indicator 4m -> 5m; the red 0m is worth 1 (indicator) + 1 (red) = 2.
        // Safety: the previous player (opp3, dealer) is in riichi; 1z is not in their river,
        // one 1z is in the next player's river and one in hand -> 2 unseen: honor, danger 4.
        let mut row = vec![0.0; catalog_width()];
        dec.fill(tiles("1z")[0], &mut row).unwrap();
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

    #[test]
    fn bad_input_is_an_error() {
        let mut view = full_view();
        let dec = DecisionFeatures::new(&view).unwrap();
        let mut row = vec![0.0; catalog_width()];
        assert_eq!(dec.fill(tiles("9m")[0], &mut row), Err(FeatureError::NotInHand(tiles("9m")[0])));
        // the only 5m is the red one, so "discard a plain 5m" is not an option; no red 5p held
        assert_eq!(dec.fill(tiles("5m")[0], &mut row), Err(FeatureError::NotInHand(tiles("5m")[0])));
        assert_eq!(dec.fill(tiles("0m")[0], &mut row), Ok(()));
        assert!(matches!(dec.fill(tiles("0p")[0], &mut row), Err(FeatureError::NotInHand(_))));
        assert!(matches!(dec.fill(tiles("1z")[0], &mut [0.0; 3]), Err(FeatureError::RowWidth { .. })));
        view.hand.pop();
        assert!(matches!(
            DecisionFeatures::new(&view),
            Err(FeatureError::HandSize { melds: 1, want: 11, got: 10 })
        ));
    }

    /// Invariants that hold for every option, checked over generated mid-game positions:
    /// tenpai flags agree with shanten, each concealed tile lands in exactly one energy column,
    /// the 21-class pieces cover every tile, and safety is all zero without a riichi.
    #[test]
    fn invariants_on_generated_positions() {
        let mut rng = 0x1234_5678_9ABC_DEF1u64;
        let col = |n: &str| index_of(n).unwrap();
        let sizes = [3, 3, 3, 3, 2, 2, 2, 2, 2, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1];
        let energy = catalog::family_range(Family::Energy);
        let m21 = catalog::family_range(Family::Melds21);
        let safety = catalog::family_range(Family::Safety);
        let mut row = vec![0.0; catalog_width()];
        for _ in 0..60 {
            let v = random_view(&mut rng);
            let d = DecisionFeatures::new(&v).unwrap();
            let riichi = v.opponents.iter().any(|o| o.in_riichi());
            for &t in &v.hand {
                d.fill(t, &mut row).unwrap();
                assert!(row.iter().all(|x| x.is_finite()));
                let s = row[col("shanten_min")];
                assert_eq!(row[col("tenpai")] == 1.0, s == 0.0);
                assert_eq!(row[col("wait_kinds")] > 0.0, s == 0.0);
                assert!(s <= row[col("shanten_standard")]);
                let wait_flags: f32 = ["multi", "ryanmen", "shanpon", "kanchan", "penchan", "tanki"]
                    .iter()
                    .map(|w| row[col(&format!("wait_{w}"))])
                    .sum();
                assert_eq!(wait_flags, if s == 0.0 { 1.0 } else { 0.0 });
                assert_eq!(row[energy.clone()].iter().sum::<f32>(), 13.0);
                let covered: f32 = row[m21.clone()].iter().zip(sizes).map(|(n, z)| n * z as f32).sum();
                assert_eq!(covered, 13.0);
                if !riichi {
                    assert!(row[safety.clone()].iter().all(|&x| x == 0.0));
                } else {
                    assert_eq!(row[col("safety_riichi_count")], 1.0);
                    assert_eq!(row[col("safety_worst_genbutsu")], row[col("safety_opp2_genbutsu")]);
                }
            }
        }
    }

    // Deterministic xorshift for the timing positions.
    use crate::testdata::xorshift_step as next;

    /// A mid-game position: a random deal, `turn` draws played by a greedy lowest-shanten /
    /// most-ukeire discarder (so shanten is realistic), three opponents discarding random wall
    /// tiles, one of them in riichi half the time.
    fn random_view(rng: &mut u64) -> View {
        use crate::hand::waits::ukeire;
        use crate::tile::TileId;
        let mut wall: Vec<Tile> = (0..136u32).map(|i| TileId::new(i).unwrap().tile(true)).collect();
        for i in (1..wall.len()).rev() {
            let j = (next(rng) % (i as u64 + 1)) as usize;
            wall.swap(i, j);
        }
        let dora = wall.pop().unwrap();
        let mut hand: Vec<Tile> = wall.split_off(wall.len() - 13);
        let turns = 3 + (next(rng) % 12) as usize;
        let mut own_river = Vec::new();
        let mut opponents: [Opponent; 3] = Default::default();
        let mut visible = [0u8; KINDS];
        visible[dora.kind()] += 1;
        let riichi = next(rng) % 2 == 0;
        for turn in 0..turns {
            hand.push(wall.pop().unwrap());
            let counts = crate::tile::counts_of(&hand);
            let best = (0..hand.len())
                .min_by_key(|&i| {
                    let mut c = counts;
                    c[hand[i].kind()] -= 1;
                    let u = ukeire(&c, &visible);
                    (u.shanten, std::cmp::Reverse(u.count))
                })
                .unwrap();
            let d = hand.swap_remove(best);
            own_river.push(d);
            visible[d.kind()] += 1;
            for (i, o) in opponents.iter_mut().enumerate() {
                let tile = wall.pop().unwrap();
                visible[tile.kind()] += 1;
                o.river.push(SeenDiscard { tile, tsumogiri: next(rng) % 3 == 0, called: false });
                if riichi && i == 1 && turn == turns / 2 {
                    o.riichi_at = Some(o.river.len() - 1);
                } else if o.riichi_at.is_some() {
                    o.riichi_passed[tile.kind()] = 1;
                }
            }
            if let Some(at) = opponents[1].riichi_at {
                if at + 1 < opponents[1].river.len() {
                    opponents[1].riichi_passed[d.kind()] = 1;
                }
            }
        }
        hand.push(wall.pop().unwrap());
        View {
            hand,
            melds: vec![],
            round_wind: 27,
            seat_wind: 28,
            dora_indicators: vec![dora],
            visible,
            own_river,
            turn: turns as u8 + 1,
            wall_left: 70 - 4 * turns as u8,
            opponents,
            drawn: None,
            red_fives: true,
            visible_reds: [false; 3],
            riichi: false,
            scoreboard: Default::default(),
            last_round: crate::replay::view::FOUR_PLAYER_HANCHAN_LAST,
        }
    }

    /// Cost per option on realistic closed positions. Run once, by hand:
    /// `cargo test --lib features::tests::timing_per_option -- --ignored --nocapture`
    #[test]
    #[ignore = "a timing, run by hand (see the doc comment): a debug-build figure, not a check"]
    fn timing_per_option() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let views: Vec<View> = (0..2000).map(|_| random_view(&mut rng)).collect();
        let mut row = vec![0.0; catalog_width()];
        // warm the memo tables (they persist per thread in real runs too)
        for v in views.iter().take(200) {
            let d = DecisionFeatures::new(v).unwrap();
            for &t in &v.hand {
                d.fill(t, &mut row).unwrap();
            }
        }
        let start = std::time::Instant::now();
        let (mut options, mut sum) = (0u64, 0.0f64);
        for v in &views {
            let d = DecisionFeatures::new(v).unwrap();
            let mut distinct = v.hand.clone();
            distinct.sort();
            distinct.dedup();
            for &t in &distinct {
                d.fill(t, &mut row).unwrap();
                assert!(row.iter().all(|x| x.is_finite()));
                sum += row[0] as f64;
                options += 1;
            }
        }
        let el = start.elapsed();
        eprintln!(
            "{} decisions, {options} options, {:.1} us/option, {:.1} us/decision (mean shanten {:.2})",
            views.len(),
            el.as_secs_f64() * 1e6 / options as f64,
            el.as_secs_f64() * 1e6 / views.len() as f64,
            sum / options as f64
        );
    }
}
