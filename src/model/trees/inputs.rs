//! The columns a trees model sees beside the option columns, computed here for both uses: a live
//! position ([`Situation::of_view`]) and a row of the `decisions` table
//! ([`Situation::of_decision`]). `scripts/trees.py` computes the same columns from the same
//! tables when it trains, under the same names, so a model is served the rows it was trained on;
//! the tests hold the two to each other on replayed games.
//!
//! Four families:
//! - **context** ([`CONTEXT`]): facts of the decision, the same for each of its options. A tree
//!   splits on one option's columns at a time, so without them it cannot tell "the best tile on
//!   turn 3" from "the best tile on turn 15", nor a 1-shanten hand from a 3-shanten one;
//! - **table** ([`SCOREBOARD_COLUMNS`]): the round and the scores seen from the seat
//!   ([`Scoreboard::columns`]), which push and fold hang on;
//! - **relative** ([`RELATIVE`]): an option's value of a column minus the decision's best value
//!   of it. A tree cannot compare options with each other; "this discard keeps the most
//!   ukeire" is a split on `rel_ukeire_count` at 0;
//! - **margin** ([`margin_columns`], [`RANKED`]): an option's value minus the best value among the
//!   decision's *other* options (for the best option its lead, which `rel_` leaves at 0: a clear
//!   best and a tie look alike there), and how many options are strictly better than it.

use crate::features::catalog;
use crate::replay::view::SCOREBOARD_COLUMNS;

/// The context columns, in the order [`Situation::context`] gives them.
pub const CONTEXT: [&str; 6] = ["turn", "wall_left", "round_wind", "is_dealer", "n_options", "best_shanten"];

/// Which value of a column is the decision's best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Best {
    Max,
    Min,
}

/// The columns of the relative family (each becomes `rel_<column>`), with their best value.
///
/// The danger family's two option columns are here because a tree needs them relative: "this
/// discard is the safest the hand has" is `rel_danger_dealin` at 0, whatever the table's level of
/// danger. A model that reads neither still has them computed (as 0 where an ingest or a live
/// ranker leaves the family out, [`crate::features::Skip::unread_by`]), and ignores them.
pub const RELATIVE: [(&str, Best); 8] = [
    ("shanten_min", Best::Min),
    ("ukeire_count", Best::Max),
    ("ev", Best::Max),
    ("log_ev", Best::Max),
    ("vis_paijia", Best::Max),
    ("safety_worst_danger_est", Best::Min),
    ("danger_dealin", Best::Min),
    ("danger_loss", Best::Min),
];

/// The columns of the margin family (each becomes `margin_<column>`) besides [`RELATIVE`]'s,
/// with their best value; [`margin_columns`] lists them all.
pub const MARGIN_MORE: [(&str, Best); 7] = [
    ("ukeire_kinds", Best::Max),
    ("wait_count", Best::Max),
    ("ev_far_ukeire", Best::Max),
    ("ev_far_shanten", Best::Min),
    ("dora_value", Best::Max),
    ("discard_class", Best::Min),
    ("river_genbutsu_count", Best::Max),
];

/// Every column of the margin family, in order: [`RELATIVE`]'s, then [`MARGIN_MORE`].
pub fn margin_columns() -> impl Iterator<Item = &'static (&'static str, Best)> {
    RELATIVE.iter().chain(&MARGIN_MORE)
}

/// The columns ranked within the decision (each becomes `rank_<column>`: how many options are
/// strictly better), with their best value; part of the margin family.
pub const RANKED: [(&str, Best); 3] =
    [("ev", Best::Max), ("ukeire_count", Best::Max), ("vis_paijia", Best::Max)];

/// The prefixes of the columns derived from option columns, and the family each names.
pub const DERIVED_PREFIXES: [(&str, &str); 3] =
    [("rel_", "relative"), ("margin_", "margin"), ("rank_", "margin")];

/// The option columns a trees model can ask for, in the order [`with_derived`] builds rows:
/// the catalog's columns, then `rel_<column>` for each of [`RELATIVE`], `margin_<column>` for
/// each of [`margin_columns`] and `rank_<column>` for each of [`RANKED`].
pub fn option_names() -> Vec<String> {
    let mut names: Vec<String> = catalog::names().into_iter().map(String::from).collect();
    names.extend(RELATIVE.iter().map(|(c, _)| format!("rel_{c}")));
    names.extend(margin_columns().map(|(c, _)| format!("margin_{c}")));
    names.extend(RANKED.iter().map(|(c, _)| format!("rank_{c}")));
    names
}

/// The decision values a trees model can ask for, in the order [`Situation::context`] gives
/// them: [`CONTEXT`], then the table family's [`SCOREBOARD_COLUMNS`].
pub fn context_names() -> Vec<&'static str> {
    CONTEXT.iter().chain(&SCOREBOARD_COLUMNS).copied().collect()
}

/// The catalog column a derived column is computed from (`rel_ev` -> `ev`), or the name itself.
pub fn base_column(name: &str) -> &str {
    DERIVED_PREFIXES.iter().find_map(|(p, _)| name.strip_prefix(p)).unwrap_or(name)
}

/// The catalog index of one of the columns this module names (a missing one is a bug here).
pub(super) fn column(name: &str) -> usize {
    catalog::index_of(name).unwrap_or_else(|| panic!("{name} is a catalog column"))
}

impl Best {
    /// Whether `a` is strictly better than `b`.
    fn better(self, a: f32, b: f32) -> bool {
        match self {
            Best::Max => a > b,
            Best::Min => a < b,
        }
    }
}

/// The best of `values` (`None` when there are none).
fn best_of(values: impl Iterator<Item = f32>, best: Best) -> Option<f32> {
    values.fold(None, |b, x| match b {
        Some(b) if !best.better(x, b) => Some(b),
        _ => Some(x),
    })
}

/// The best value of column `c` over `rows`, the best over the rows that do not hold it
/// (`None` when every row ties at the best), and how many rows hold the best.
pub(crate) fn top_two(rows: &[&[f32]], c: usize, best: Best) -> (f32, Option<f32>, usize) {
    let top = best_of(rows.iter().map(|r| r[c]), best).unwrap_or(0.0);
    let ties = rows.iter().filter(|r| r[c] == top).count();
    let second = best_of(rows.iter().map(|r| r[c]).filter(|&x| x != top), best);
    (top, second, ties)
}

/// `margin_`: `x` minus the best of the *other* options, from [`top_two`]'s answer for its
/// column (the best option's lead when it is the only best, else `x - top`).
pub(crate) fn margin(x: f32, (top, second, ties): (f32, Option<f32>, usize)) -> f32 {
    let other = if x == top && ties == 1 { second.unwrap_or(top) } else { top };
    x - other
}

/// `rank_`: how many of `rows` are strictly better than `x` in column `c`.
pub(crate) fn rank(rows: &[&[f32]], c: usize, best: Best, x: f32) -> f32 {
    rows.iter().filter(|o| best.better(o[c], x)).count() as f32
}

/// Each option row (catalog order) followed by its derived columns, in f32 as the training
/// script computes them: `rel_` (`x - best(x)` over the decision's options), `margin_` (`x`
/// minus the best of the *other* options) and `rank_` (options strictly better).
pub fn with_derived(rows: &[&[f32]]) -> Vec<Vec<f32>> {
    // The margin family's first columns are RELATIVE's: their bests serve both families.
    let margins: Vec<(usize, f32, Option<f32>, usize)> = margin_columns()
        .map(|&(name, best)| {
            let c = column(name);
            let (top, second, ties) = top_two(rows, c, best);
            (c, top, second, ties)
        })
        .collect();
    let ranked: Vec<(usize, Best)> = RANKED.iter().map(|&(name, best)| (column(name), best)).collect();
    let extra = RELATIVE.len() + margins.len() + ranked.len();
    rows.iter()
        .map(|r| {
            let mut out = Vec::with_capacity(r.len() + extra);
            out.extend_from_slice(r);
            out.extend(margins[..RELATIVE.len()].iter().map(|&(c, top, _, _)| r[c] - top));
            out.extend(margins.iter().map(|&(c, top, second, ties)| margin(r[c], (top, second, ties))));
            out.extend(ranked.iter().map(|&(c, best)| rank(rows, c, best, r[c])));
            out
        })
        .collect()
}

pub use crate::replay::view::Situation;

/// The values of [`context_names`] for a decision in `situation` with these option rows (catalog
/// order).
pub fn context(situation: &Situation, rows: &[&[f32]]) -> [f32; CONTEXT.len() + SCOREBOARD_COLUMNS.len()] {
    let shanten = column("shanten_min");
    let best_shanten = rows.iter().map(|r| r[shanten]).fold(f32::INFINITY, f32::min);
    let mut out = [0.0; CONTEXT.len() + SCOREBOARD_COLUMNS.len()];
    out[..CONTEXT.len()].copy_from_slice(&[
        situation.turn as f32,
        situation.wall_left as f32,
        situation.round_wind as f32,
        if situation.is_dealer { 1.0 } else { 0.0 },
        rows.len() as f32,
        best_shanten,
    ]);
    out[CONTEXT.len()..].copy_from_slice(&situation.scoreboard.columns());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::view::Scoreboard;

    #[test]
    fn relative_columns_are_each_value_minus_the_decisions_best() {
        let w = catalog::catalog_width();
        let (u, s) = (column("ukeire_count"), column("shanten_min"));
        let mut a = vec![0.0f32; w];
        let mut b = vec![0.0f32; w];
        a[u] = 20.0;
        b[u] = 32.0;
        a[s] = 1.0;
        b[s] = 2.0;
        let out = with_derived(&[&a, &b]);
        let name = |n: &str| option_names().iter().position(|x| x == n).unwrap();
        assert_eq!(out[0].len(), option_names().len());
        assert_eq!((out[0][name("rel_ukeire_count")], out[1][name("rel_ukeire_count")]), (-12.0, 0.0));
        assert_eq!((out[0][name("rel_shanten_min")], out[1][name("rel_shanten_min")]), (0.0, 1.0));
        assert_eq!(&out[1][..w], &b[..]);
        let scoreboard = Scoreboard {
            round: 5,
            honba: 2,
            sticks: 1,
            scores: [31_000, 18_000, 25_000, 25_000],
            seat: 2,
            players: 4,
        };
        let ctx = context(&Situation::of_decision(5, 40, 1, 2, scoreboard), &[&a, &b]);
        let mut want = vec![5.0, 40.0, 1.0, 1.0, 2.0, 1.0];
        // South 2, 2 honba, 1 stick; seat 2 holds 25,000: second (seat 3 ties, and ties break by
        // seat), 6,000 behind the leader, 6,000 below the next score above, 7,000 above the next
        // below (the tie at 25,000 is neither).
        want.extend([5.0, 2.0, 1.0, 2.0, 25_000.0, 6_000.0, 6_000.0, 7_000.0]);
        assert_eq!(ctx.to_vec(), want);
        assert_eq!(context_names().len(), ctx.len());
    }

    /// Margins against the other options, with a clear best, a tie at the top and every option
    /// tied; ranks count the options strictly better.
    #[test]
    fn margin_columns_are_against_the_best_other_option() {
        let w = catalog::catalog_width();
        let (e, s) = (column("ev"), column("shanten_min"));
        let rows: Vec<Vec<f32>> = [(900.0, 1.0), (500.0, 1.0), (500.0, 2.0), (100.0, 1.0)]
            .iter()
            .map(|&(ev, sh)| {
                let mut r = vec![0.0f32; w];
                r[e] = ev;
                r[s] = sh;
                r
            })
            .collect();
        let refs: Vec<&[f32]> = rows.iter().map(Vec::as_slice).collect();
        let out = with_derived(&refs);
        let name = |n: &str| option_names().iter().position(|x| x == n).unwrap();
        let col = |n: &str| out.iter().map(|r| r[name(n)]).collect::<Vec<f32>>();
        assert_eq!(col("margin_ev"), [400.0, -400.0, -400.0, -800.0]);
        assert_eq!(col("rel_ev"), [0.0, -400.0, -400.0, -800.0]);
        assert_eq!(col("rank_ev"), [0.0, 1.0, 1.0, 3.0]);
        // three options tie at the best shanten (1, the min): each one's margin is 0
        assert_eq!(col("margin_shanten_min"), [0.0, 0.0, 1.0, 0.0]);
        // every option ties: margins 0, ranks 0
        assert_eq!(col("margin_ukeire_count"), [0.0; 4]);
        assert_eq!(col("rank_ukeire_count"), [0.0; 4]);
        assert_eq!(base_column("margin_ev"), "ev");
        assert_eq!(base_column("rank_vis_paijia"), "vis_paijia");
        assert_eq!(base_column("turn"), "turn");
    }
}
