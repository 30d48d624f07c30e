//! Decision-relative columns for the linear evaluator: the trees' margin family
//! ([`super::trees::inputs`]), computed the same way, under the same names.
//!
//! A linear score `w · x` cannot compare an option with its rivals: adding a decision-wide
//! constant to a column moves every option alike and changes no choice, so "x minus the best x"
//! (the trees' `rel_` columns) would teach it nothing. What it can use is the non-linear part:
//! `margin_<c>`, an option's value of c minus the best value among the *other* options (the best
//! option's lead, positive only for a clear best), and `rank_<c>`, how many options are strictly
//! better. "This discard keeps clearly the most ukeire" then has a weight of its own. Measured
//! with `haifu fit --derived` (reports/losses/losses.md).
//!
//! The columns are appended to the option rows a decision supplies, before the gates copy
//! anything ([`super::gates`]), so a gate can copy them too. A weights file names the ones it was
//! fitted with, and [`Derived::named`] rebuilds exactly those.

use super::trees::inputs::{margin, margin_columns, rank, top_two, Best, RANKED};

/// One derived column: which kind, the input column it reads, and which value is the best.
#[derive(Clone, Debug, PartialEq)]
struct Col {
    name: String,
    rank: bool,
    of: usize,
    best: Best,
}

/// The derived columns of one fit or weights file, over a given input row layout.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Derived {
    cols: Vec<Col>,
}

/// The margin and rank columns the trees know, in their order, as (name, rank?, input, best).
fn known() -> impl Iterator<Item = (String, bool, &'static str, Best)> {
    let margins = margin_columns().map(|&(c, b)| (format!("margin_{c}"), false, c, b));
    margins.chain(RANKED.iter().map(|&(c, b)| (format!("rank_{c}"), true, c, b)))
}

impl Derived {
    /// Every known derived column whose input column is among `inputs`.
    pub fn all(inputs: &[String]) -> Derived {
        Derived::select(inputs, |_| true)
    }

    /// The known derived columns named in `names` (a weights file's columns, gated copies
    /// included: `sh1*margin_ev` asks for `margin_ev`), whose input is among `inputs`.
    pub fn named(inputs: &[String], names: &[String]) -> Derived {
        let wanted = |n: &str| names.iter().any(|x| x.rsplit('*').next() == Some(n));
        Derived::select(inputs, wanted)
    }

    fn select(inputs: &[String], keep: impl Fn(&str) -> bool) -> Derived {
        let cols = known()
            .filter(|(name, ..)| keep(name))
            .filter_map(|(name, rank, c, best)| {
                let of = inputs.iter().position(|n| n == c)?;
                Some(Col { name, rank, of, best })
            })
            .collect();
        Derived { cols }
    }

    pub fn is_empty(&self) -> bool {
        self.cols.is_empty()
    }

    /// The derived columns' names, in the order [`Derived::augment`] appends them.
    pub fn names(&self) -> Vec<String> {
        self.cols.iter().map(|c| c.name.clone()).collect()
    }

    /// The input column a derived column `name` reads (`margin_ev` → `ev`), if it is one of these.
    pub fn input_of<'a>(&self, name: &str, inputs: &'a [String]) -> Option<&'a str> {
        self.cols.iter().find(|c| c.name == name).map(|c| inputs[c.of].as_str())
    }

    /// `f` of the option rows with the derived columns appended ([`Derived::augment`]), or of the
    /// rows themselves, uncopied, when there are none: what every scorer and the fit call.
    pub fn with_augmented<R>(&self, rows: &[&[f32]], f: impl FnOnce(&[&[f32]]) -> R) -> R {
        if self.is_empty() {
            return f(rows);
        }
        let augmented = self.augment(rows);
        let refs: Vec<&[f32]> = augmented.iter().map(Vec::as_slice).collect();
        f(&refs)
    }

    /// Each option row followed by the derived columns, by the trees' own `margin` and `rank`
    /// (`with_derived` calls the same two functions).
    pub fn augment(&self, rows: &[&[f32]]) -> Vec<Vec<f32>> {
        let tops: Vec<(f32, Option<f32>, usize)> =
            self.cols.iter().map(|c| top_two(rows, c.of, c.best)).collect();
        rows.iter()
            .map(|r| {
                let mut out = Vec::with_capacity(r.len() + self.cols.len());
                out.extend_from_slice(r);
                out.extend(self.cols.iter().zip(&tops).map(|(c, &top)| {
                    if c.rank {
                        rank(rows, c.of, c.best, r[c.of])
                    } else {
                        margin(r[c.of], top)
                    }
                }));
                out
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::catalog;
    use crate::model::trees::inputs::{option_names, with_derived};

    /// Over catalog rows, every derived column equals the trees' column of the same name, to
    /// the bit: one definition, two users.
    #[test]
    fn equals_the_trees_columns_of_the_same_name() {
        let inputs: Vec<String> = catalog::names().into_iter().map(String::from).collect();
        let d = Derived::all(&inputs);
        assert_eq!(d.names().len(), margin_columns().count() + RANKED.len());
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 40) % 5) as f32 - 1.0
        };
        let trees_names = option_names();
        for n in 2..9 {
            let rows: Vec<Vec<f32>> = (0..n).map(|_| (0..inputs.len()).map(|_| next()).collect()).collect();
            let refs: Vec<&[f32]> = rows.iter().map(Vec::as_slice).collect();
            let ours = d.augment(&refs);
            let theirs = with_derived(&refs);
            for (o, t) in ours.iter().zip(&theirs) {
                assert_eq!(&o[..inputs.len()], &t[..inputs.len()]);
                for (k, name) in d.names().iter().enumerate() {
                    let j = trees_names.iter().position(|x| x == name).unwrap();
                    assert_eq!(o[inputs.len() + k].to_bits(), t[j].to_bits(), "{name}");
                }
            }
        }
    }

    #[test]
    fn a_clear_best_leads_and_ties_do_not() {
        let inputs: Vec<String> = ["ev", "x"].map(String::from).to_vec();
        let d = Derived::named(&inputs, &["margin_ev".into(), "sh1*rank_ev".into(), "margin_x".into()]);
        assert_eq!(d.names(), ["margin_ev", "rank_ev"]);
        let rows = [[500.0, 0.0], [300.0, 0.0], [100.0, 0.0]];
        let refs: Vec<&[f32]> = rows.iter().map(|r| r.as_slice()).collect();
        let a = d.augment(&refs);
        assert_eq!(a[0][2..], [200.0, 0.0]);
        assert_eq!(a[1][2..], [-200.0, 1.0]);
        assert_eq!(a[2][2..], [-400.0, 2.0]);
        let tied = [[500.0, 0.0], [500.0, 0.0]];
        let refs: Vec<&[f32]> = tied.iter().map(|r| r.as_slice()).collect();
        assert_eq!(d.augment(&refs)[0][2..], [0.0, 0.0]);
        assert_eq!(d.input_of("rank_ev", &inputs), Some("ev"));
    }
}
