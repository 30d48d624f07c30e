//! The trees model against haifu's rows: which option column or decision column feeds each of the
//! model's features ([`Layout`]), the scores of a decision's option rows as
//! [`crate::features::option_rows`] builds them, and contributions summed by feature family.
//!
//! A model is trained outside (Python over the parquet tables), on option columns and, beside
//! them, columns of the decision (`turn`, scores, ...). Its `feature_names` are those columns'
//! names, so the layout is found by name once; the rows are then gathered by index.

use super::{Trees, TreesError};
use crate::features::catalog;
use crate::replay::view::SCOREBOARD_COLUMNS;

/// The family of a model feature that is not an option column of the catalog: the decision's
/// own columns (`turn`, `wall_left`, ...) and any option column the catalog does not know.
pub const CONTEXT_FAMILY: &str = "context";

/// The family of the `rel_<column>` option columns ([`super::inputs::RELATIVE`]).
pub const RELATIVE_FAMILY: &str = "relative";

/// The family of the `margin_<column>` and `rank_<column>` option columns
/// ([`super::inputs::margin_columns`], [`super::inputs::RANKED`]).
pub const MARGIN_FAMILY: &str = "margin";

/// The family of the scoreboard columns of the decision ([`crate::replay::view::SCOREBOARD_COLUMNS`]).
pub const TABLE_FAMILY: &str = "table";

/// Where one model feature comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// Column of the option row.
    Option(usize),
    /// Value of the decision's context (the same for all its options).
    Context(usize),
}

/// The model's features, each tied to a column of the caller's option rows or decision context,
/// and each with its family.
#[derive(Clone, Debug)]
pub struct Layout {
    sources: Vec<Source>,
    families: Vec<&'static str>,
    option_width: usize,
    context_width: usize,
}

impl Layout {
    /// Ties the model's features to `options` (the names of the option row's columns, in row
    /// order) and `context` (the names of the decision values the caller will pass, in order).
    /// An option column wins over a context column of the same name. Fails on the first model
    /// feature found in neither, naming it.
    pub fn new(trees: &Trees, options: &[&str], context: &[&str]) -> Result<Layout, TreesError> {
        let mut sources = Vec::with_capacity(trees.feature_names().len());
        let mut families = Vec::with_capacity(sources.capacity());
        for name in trees.feature_names() {
            let source = if let Some(i) = options.iter().position(|c| c == name) {
                Source::Option(i)
            } else if let Some(i) = context.iter().position(|c| c == name) {
                Source::Context(i)
            } else {
                return Err(TreesError::MissingColumn { name: name.clone(), context: context.join(", ") });
            };
            let derived = super::inputs::DERIVED_PREFIXES.iter().find(|(p, _)| name.starts_with(p));
            let family = match (source, catalog::def_of(name), derived) {
                (Source::Option(_), Some(def), _) => def.family.name(),
                (Source::Option(_), None, Some(&(_, family))) => family,
                (Source::Context(_), _, _) if SCOREBOARD_COLUMNS.contains(&name.as_str()) => TABLE_FAMILY,
                _ => CONTEXT_FAMILY,
            };
            sources.push(source);
            families.push(family);
        }
        Ok(Layout { sources, families, option_width: options.len(), context_width: context.len() })
    }

    /// The layout for rows in catalog order (what [`crate::features::option_rows`] builds).
    pub fn catalog(trees: &Trees, context: &[&str]) -> Result<Layout, TreesError> {
        Layout::new(trees, &catalog::names(), context)
    }

    /// The family of each model feature (a catalog family's name, or [`CONTEXT_FAMILY`]).
    pub fn families(&self) -> &[&'static str] {
        &self.families
    }

    /// `option` and `context` as one row in the model's feature order, appended to `out`.
    /// Panics if either is not as wide as the layout was built for.
    pub fn gather(&self, option: &[f32], context: &[f32], out: &mut Vec<f32>) {
        assert_eq!(option.len(), self.option_width, "option row of the wrong width");
        assert_eq!(context.len(), self.context_width, "context of the wrong width");
        out.extend(self.sources.iter().map(|s| match *s {
            Source::Option(i) => option[i],
            Source::Context(i) => context[i],
        }));
    }

    /// Contributions (one per model feature, then the bias, as [`Trees::contributions`] gives
    /// them) summed by family: the families in the catalog's order, then the derived ones
    /// ([`RELATIVE_FAMILY`], [`MARGIN_FAMILY`]) and the decision's ([`CONTEXT_FAMILY`],
    /// [`TABLE_FAMILY`]), each
    /// present once if any feature of it is in the model; the bias is left out.
    pub fn by_family(&self, contributions: &[f64]) -> Vec<(&'static str, f64)> {
        let mut order: Vec<&'static str> =
            crate::features::column::Family::ALL.iter().map(|f| f.name()).collect();
        order.extend([RELATIVE_FAMILY, MARGIN_FAMILY, CONTEXT_FAMILY, TABLE_FAMILY]);
        let mut sums: Vec<(&'static str, f64)> = Vec::new();
        for name in order {
            let mut present = false;
            let mut sum = 0.0;
            for (family, c) in self.families.iter().zip(contributions) {
                if *family == name {
                    present = true;
                    sum += c;
                }
            }
            if present {
                sums.push((name, sum));
            }
        }
        sums
    }
}

impl Trees {
    /// LightGBM `predict` scores of one decision's options: `rows` as the option rows are built
    /// (the layout's option columns), `context` the decision's values (the layout's context
    /// columns). Higher is better for a ranking model.
    pub fn score_options(&self, layout: &Layout, rows: &[&[f32]], context: &[f32]) -> Vec<f64> {
        let mut x = Vec::with_capacity(rows.len() * self.feature_names().len());
        for r in rows {
            layout.gather(r, context, &mut x);
        }
        self.predict_rows(&x)
    }

    /// TreeSHAP contributions of one option (see [`Trees::contributions`]), gathered like
    /// [`Trees::score_options`].
    pub fn option_contributions(&self, layout: &Layout, row: &[f32], context: &[f32]) -> Vec<f64> {
        let mut x = Vec::with_capacity(self.feature_names().len());
        layout.gather(row, context, &mut x);
        let wide: Vec<f64> = x.iter().map(|&v| v as f64).collect();
        self.contributions(&wide)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gbdt::text::tests::SMALL;

    /// SMALL with its features renamed to a catalog column (`ev`, family value) and a decision
    /// column (`turn`).
    fn model() -> Trees {
        Trees::parse(&SMALL.replace("feature_names=a b", "feature_names=turn ev")).unwrap()
    }

    #[test]
    fn ties_features_to_option_and_context_columns() {
        let t = model();
        let layout = Layout::catalog(&t, &["turn"]).unwrap();
        assert_eq!(layout.families(), ["context", "value"]);
        let ev = catalog::index_of("ev").unwrap();
        let mut row = vec![0.0f32; catalog::catalog_width()];
        let mut x = Vec::new();
        row[ev] = 2.5;
        layout.gather(&row, &[7.0], &mut x);
        assert_eq!(x, [7.0, 2.5]);
        // f1 = ev = 0.2 <= 0.5, so tree 0 asks f0 = turn: -2 <= -1 (leaf 1) or 3 > -1 (leaf 2).
        row[ev] = 0.2;
        let s = t.score_options(&layout, &[&row, &row], &[-2.0]);
        assert_eq!(s, [-0.5 + 0.125, -0.5 + 0.125]);
        assert_eq!(t.score_options(&layout, &[&row], &[3.0]), [0.75 + 0.125]);
    }

    #[test]
    fn a_missing_column_is_named() {
        let e = Layout::catalog(&model(), &["round"]).unwrap_err();
        let shown = e.to_string();
        assert!(shown.contains("\"turn\"") && shown.contains("round"), "{shown}");
    }

    #[test]
    fn sums_contributions_by_family() {
        let t = model();
        let layout = Layout::new(&t, &["ev"], &["turn"]).unwrap();
        assert_eq!(layout.by_family(&[1.0, 2.0, 10.0]), [("value", 2.0), ("context", 1.0)]);
        let c = t.option_contributions(&layout, &[0.2], &[3.0]);
        let families: f64 = layout.by_family(&c).iter().map(|(_, v)| v).sum();
        assert!((families + c[2] - (0.75 + 0.125)).abs() < 1e-12);
    }
}
