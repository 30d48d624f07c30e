//! The feature catalog: every column's stable name, family and one-line meaning, in column order.
//!
//! The parquet columns, the weights file and the reports all use these names, so a name never
//! changes meaning once published: add a column, do not repurpose one. The list is built once
//! (the energy family's 168 pattern names are generated, not typed) and then lives for the
//! whole program.

use std::sync::OnceLock;

use super::{dora, energy, melds21, river, safety, shape, threat, yaku_potential};

/// The feature family a column belongs to (one module each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    Shape,
    Energy,
    Dora,
    YakuPotential,
    Melds21,
    Safety,
    River,
    Threat,
}

impl Family {
    pub const ALL: [Family; 8] = [
        Family::Shape,
        Family::Energy,
        Family::Dora,
        Family::YakuPotential,
        Family::Melds21,
        Family::Safety,
        Family::River,
        Family::Threat,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Family::Shape => "shape",
            Family::Energy => "energy",
            Family::Dora => "dora",
            Family::YakuPotential => "yaku_potential",
            Family::Melds21 => "melds21",
            Family::Safety => "safety",
            Family::River => "river",
            Family::Threat => "threat",
        }
    }

    /// The family's columns, in order.
    fn defs(self) -> Vec<(&'static str, &'static str)> {
        match self {
            Family::Shape => shape::COLUMNS.to_vec(),
            Family::Energy => energy::columns(),
            Family::Dora => dora::COLUMNS.to_vec(),
            Family::YakuPotential => yaku_potential::COLUMNS.to_vec(),
            Family::Melds21 => melds21::columns(),
            Family::Safety => safety::columns(),
            Family::River => river::COLUMNS.to_vec(),
            Family::Threat => threat::COLUMNS.to_vec(),
        }
    }
}

/// One column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureDef {
    /// Stable snake_case name.
    pub name: &'static str,
    pub family: Family,
    /// One line: what the value counts or flags.
    pub meaning: &'static str,
}

struct Catalog {
    defs: Vec<FeatureDef>,
    /// Start column of each family, in [`Family::ALL`] order, plus the total at the end.
    starts: [usize; 9],
}

fn build() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let mut defs = Vec::new();
        let mut starts = [0; 9];
        for (i, family) in Family::ALL.into_iter().enumerate() {
            starts[i] = defs.len();
            defs.extend(family.defs().into_iter().map(|(name, meaning)| FeatureDef {
                name,
                family,
                meaning,
            }));
        }
        starts[8] = defs.len();
        Catalog { defs, starts }
    })
}

/// Every column, in order.
pub fn catalog() -> &'static [FeatureDef] {
    &build().defs
}

/// Number of columns (the length of a feature row).
pub fn catalog_width() -> usize {
    build().defs.len()
}

/// Column index of a name.
pub fn index_of(name: &str) -> Option<usize> {
    catalog().iter().position(|d| d.name == name)
}

/// The column range of a family.
pub fn family_range(family: Family) -> std::ops::Range<usize> {
    let i = Family::ALL.iter().position(|f| *f == family).unwrap_or(0);
    let s = &build().starts;
    s[i]..s[i + 1]
}

/// Sequential writer over one family's slice of a row. In debug builds every write names its
/// column and is checked against the catalog, so the fill order cannot drift from the names.
pub(crate) struct Cols<'a> {
    out: &'a mut [f32],
    #[cfg(debug_assertions)]
    names: &'static [FeatureDef],
    i: usize,
}

impl<'a> Cols<'a> {
    pub(crate) fn new(row: &'a mut [f32], family: Family) -> Cols<'a> {
        let r = family_range(family);
        #[cfg(debug_assertions)]
        let names = &catalog()[r.clone()];
        Cols {
            out: &mut row[r],
            #[cfg(debug_assertions)]
            names,
            i: 0,
        }
    }

    #[inline]
    pub(crate) fn put(&mut self, _name: &str, v: f32) {
        #[cfg(debug_assertions)]
        debug_assert_eq!(self.names[self.i].name, _name, "column order drifted from the catalog");
        self.out[self.i] = v;
        self.i += 1;
    }

    #[inline]
    pub(crate) fn flag(&mut self, name: &str, b: bool) {
        self.put(name, f32::from(u8::from(b)));
    }

    /// The whole slice, for families that index columns directly (energy, melds21).
    pub(crate) fn slice(&mut self) -> &mut [f32] {
        self.i = self.out.len();
        self.out
    }

    /// Checks every column was written (debug builds).
    pub(crate) fn done(self) {
        debug_assert_eq!(self.i, self.out.len(), "family wrote {} of {} columns", self.i, self.out.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_unique_snake_case_and_documented() {
        let defs = catalog();
        let mut seen = HashSet::new();
        for d in defs {
            assert!(seen.insert(d.name), "duplicate column {}", d.name);
            assert!(
                d.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{} is not snake_case",
                d.name
            );
            assert!(!d.meaning.is_empty() && !d.meaning.contains('\n'), "{}", d.name);
        }
        assert_eq!(index_of(defs[7].name), Some(7));
        assert_eq!(index_of("no_such_feature"), None);
    }

    /// Guards the published width: shape 19, energy 168 (see its module doc), dora 6, yaku 19,
    /// melds21 21, safety 3 + 4 blocks x 17 = 71, river 8, threat 5. Changing a family must change
    /// this on purpose.
    #[test]
    fn column_counts() {
        let n = |f| family_range(f).len();
        assert_eq!(
            [n(Family::Shape), n(Family::Energy), n(Family::Dora), n(Family::YakuPotential)],
            [19, 168, 6, 19]
        );
        assert_eq!(
            [n(Family::Melds21), n(Family::Safety), n(Family::River), n(Family::Threat)],
            [21, 71, 8, 5]
        );
        assert_eq!(catalog_width(), 317);
    }

    #[test]
    fn families_are_contiguous() {
        let mut end = 0;
        for f in Family::ALL {
            let r = family_range(f);
            assert_eq!(r.start, end);
            assert!(r.end > r.start, "{f:?} has no columns");
            assert!(catalog()[r.clone()].iter().all(|d| d.family == f));
            end = r.end;
        }
        assert_eq!(end, catalog_width());
    }
}
