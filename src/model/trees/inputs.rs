//! The columns a trees model sees beside the option columns, computed here for both uses: a live
//! position ([`Situation::of_view`]) and a row of the `decisions` table
//! ([`Situation::of_decision`]). `scripts/trees.py` computes the same columns from the same
//! tables when it trains, under the same names, so a model is served the rows it was trained on;
//! the tests hold the two to each other on replayed games.
//!
//! Two families:
//! - **context** ([`CONTEXT`]): facts of the decision, the same for each of its options. A tree
//!   splits on one option's columns at a time, so without them it cannot tell "the best tile on
//!   turn 3" from "the best tile on turn 15", nor a 1-shanten hand from a 3-shanten one;
//! - **relative** ([`RELATIVE`]): an option's value of a column minus the decision's best value
//!   of it. A tree cannot compare options with each other; "this discard keeps the most
//!   ukeire" is a split on `rel_ukeire_count` at 0.

use crate::features::catalog;
use crate::replay::view::View;

/// The context columns, in the order [`Situation::context`] gives them.
pub const CONTEXT: [&str; 6] = ["turn", "wall_left", "round_wind", "is_dealer", "n_options", "best_shanten"];

/// Which value of a column is the decision's best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Best {
    Max,
    Min,
}

/// The columns of the relative family (each becomes `rel_<column>`), with their best value.
pub const RELATIVE: [(&str, Best); 6] = [
    ("shanten_min", Best::Min),
    ("ukeire_count", Best::Max),
    ("ev", Best::Max),
    ("log_ev", Best::Max),
    ("vis_paijia", Best::Max),
    ("safety_worst_danger_est", Best::Min),
];

/// The option columns a trees model can ask for, in the order [`with_relative`] builds rows:
/// the catalog's columns, then `rel_<column>` for each of [`RELATIVE`].
pub fn option_names() -> Vec<String> {
    let mut names: Vec<String> = catalog::names().into_iter().map(String::from).collect();
    names.extend(RELATIVE.iter().map(|(c, _)| format!("rel_{c}")));
    names
}

/// The catalog index of one of the columns this module names (a missing one is a bug here).
pub(super) fn column(name: &str) -> usize {
    catalog::index_of(name).unwrap_or_else(|| panic!("{name} is a catalog column"))
}

/// Each option row (catalog order) followed by its relative columns, in f32 as the training
/// script computes them (`x - best(x)` over the decision's options).
pub fn with_relative(rows: &[&[f32]]) -> Vec<Vec<f32>> {
    let bests: Vec<(usize, f32)> = RELATIVE
        .iter()
        .map(|&(name, best)| {
            let c = column(name);
            let values = rows.iter().map(|r| r[c]);
            let b = match best {
                Best::Max => values.fold(f32::NEG_INFINITY, f32::max),
                Best::Min => values.fold(f32::INFINITY, f32::min),
            };
            (c, b)
        })
        .collect();
    rows.iter()
        .map(|r| {
            let mut out = Vec::with_capacity(r.len() + bests.len());
            out.extend_from_slice(r);
            out.extend(bests.iter().map(|&(c, b)| r[c] - b));
            out
        })
        .collect()
}

/// The decision facts of the context family that do not come from the options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Situation {
    /// The deciding player's draws so far (`decisions.turn`).
    pub turn: u8,
    pub wall_left: u8,
    /// 0 East, 1 South, 2 West, 3 North (`decisions.round_wind`).
    pub round_wind: u8,
    pub is_dealer: bool,
}

impl Situation {
    /// The situation of a live position.
    pub fn of_view(view: &View) -> Situation {
        Situation {
            turn: view.turn,
            wall_left: view.wall_left,
            round_wind: view.round_wind.saturating_sub(27) as u8,
            is_dealer: view.seat_wind == 27,
        }
    }

    /// The situation of a row of the `decisions` table.
    pub fn of_decision(turn: u8, wall_left: u8, round_wind: u8, seat: u8, dealer: u8) -> Situation {
        Situation { turn, wall_left, round_wind, is_dealer: seat == dealer }
    }

    /// The [`CONTEXT`] values of a decision with these option rows (catalog order).
    pub fn context(&self, rows: &[&[f32]]) -> [f32; 6] {
        let shanten = column("shanten_min");
        let best_shanten = rows.iter().map(|r| r[shanten]).fold(f32::INFINITY, f32::min);
        [
            self.turn as f32,
            self.wall_left as f32,
            self.round_wind as f32,
            if self.is_dealer { 1.0 } else { 0.0 },
            rows.len() as f32,
            best_shanten,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let out = with_relative(&[&a, &b]);
        let name = |n: &str| option_names().iter().position(|x| x == n).unwrap();
        assert_eq!(out[0].len(), option_names().len());
        assert_eq!((out[0][name("rel_ukeire_count")], out[1][name("rel_ukeire_count")]), (-12.0, 0.0));
        assert_eq!((out[0][name("rel_shanten_min")], out[1][name("rel_shanten_min")]), (0.0, 1.0));
        assert_eq!(&out[1][..w], &b[..]);
        let ctx = Situation::of_decision(5, 40, 1, 2, 2).context(&[&a, &b]);
        assert_eq!(ctx, [5.0, 40.0, 1.0, 1.0, 2.0, 1.0]);
    }
}
