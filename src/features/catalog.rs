//! The feature catalog: every column of an option row, with its stable name, family and one-line
//! meaning, in column order. The families' own modules declare their columns; this module puts
//! them in row order and answers "where is column X" (an index) and "what is column X" (its
//! definition).
//!
//! The parquet columns, the weights file and the reports all use these names, so a name never
//! changes meaning once published: add a column, do not repurpose one. The list is built once
//! (the energy family's 168 pattern names are generated, not typed) and then lives for the
//! whole program.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::column::{Cols, Column, Family, FeatureDef};
use super::{
    action, all_last, call_trade, danger, dora, energy, furiten_risk, levels, melds21, reading, riichi_trade,
    river, safety, seat_reading, shape, threat, value, visibility, yaku_potential,
};

/// A family's columns, in order: (name, meaning).
fn family_columns(family: Family) -> Vec<(&'static str, &'static str)> {
    match family {
        Family::Shape => shape::COLUMNS.to_vec(),
        Family::Energy => energy::columns(),
        Family::Dora => dora::COLUMNS.to_vec(),
        Family::YakuPotential => yaku_potential::COLUMNS.to_vec(),
        Family::Levels => levels::columns(),
        Family::Melds21 => melds21::columns(),
        Family::Safety => safety::columns(),
        Family::River => river::COLUMNS.to_vec(),
        Family::Threat => threat::COLUMNS.to_vec(),
        Family::Value => value::COLUMNS.to_vec(),
        Family::Visibility => visibility::COLUMNS.to_vec(),
        Family::Action => action::COLUMNS.to_vec(),
        Family::RiichiTrade => riichi_trade::COLUMNS.to_vec(),
        Family::CallTrade => call_trade::COLUMNS.to_vec(),
        Family::Reading => reading::COLUMNS.to_vec(),
        Family::Danger => danger::columns(),
        Family::AllLast => all_last::COLUMNS.to_vec(),
        Family::SeatReading => seat_reading::columns(),
        Family::FuritenRisk => furiten_risk::COLUMNS.to_vec(),
    }
}

const FAMILIES: usize = Family::ALL.len();

struct Catalog {
    defs: Vec<FeatureDef>,
    /// Start column of each family, in [`Family::ALL`] order, plus the total at the end.
    starts: [usize; FAMILIES + 1],
    /// Column index by name, for names that come from outside the code (a weights file).
    by_name: HashMap<&'static str, usize>,
}

fn build() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let mut defs = Vec::new();
        let mut starts = [0; FAMILIES + 1];
        for (i, family) in Family::ALL.into_iter().enumerate() {
            starts[i] = defs.len();
            defs.extend(family_columns(family).into_iter().map(|(name, meaning)| FeatureDef {
                name,
                family,
                meaning,
            }));
        }
        starts[FAMILIES] = defs.len();
        let by_name = defs.iter().enumerate().map(|(i, d)| (d.name, i)).collect();
        Catalog { defs, starts, by_name }
    })
}

/// Every column of an option row, in order.
pub fn catalog() -> &'static [FeatureDef] {
    &build().defs
}

/// Number of columns (the length of an option row).
pub fn catalog_width() -> usize {
    build().defs.len()
}

/// Every column's name, in order.
pub fn names() -> Vec<&'static str> {
    catalog().iter().map(|d| d.name).collect()
}

/// Column index of a name (a name read from a file; code holds a [`Column`] instead).
pub fn index_of(name: &str) -> Option<usize> {
    build().by_name.get(name).copied()
}

/// The definition of a named column (its family and meaning).
pub fn def_of(name: &str) -> Option<&'static FeatureDef> {
    index_of(name).map(|i| &catalog()[i])
}

/// Row index of a column.
pub fn index(column: Column) -> usize {
    build().starts[column.family.index()] + column.offset
}

/// The column range of a family.
pub fn family_range(family: Family) -> std::ops::Range<usize> {
    let s = &build().starts;
    s[family.index()]..s[family.index() + 1]
}

/// A writer over `family`'s slice of the option row `row` (full width).
pub(crate) fn cols(row: &mut [f32], family: Family) -> Cols<'_> {
    let r = family_range(family);
    let names = &catalog()[r.clone()];
    Cols::new(&mut row[r], names)
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
        assert_eq!(def_of("ev").map(|d| d.family), Some(Family::Value));
        assert_eq!(index_of("no_such_feature"), None);
    }

    /// Guards the published width, 467: shape 19, energy 168 (see its module doc), dora 6, yaku 19,
    /// levels 32 + 2 gates x 21 - 2 never filled = 72, melds21 21, safety 3 + 4 blocks x 17 = 71,
    /// river 8, threat 5, value 5 (ev, log_ev, ev_defined, ev_far_shanten, ev_far_ukeire),
    /// visibility 4, action 5, riichi trade 14, call trade 1, reading 7, danger 5, and the `seats` group's
    /// all-last 8, seat reading 3 x 9 and furiten risk 2. Changing a family must change this on
    /// purpose.
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
        assert_eq!(
            [n(Family::Value), n(Family::Visibility), n(Family::Action), n(Family::RiichiTrade)],
            [5, 4, 5, 14]
        );
        assert_eq!(
            [n(Family::CallTrade), n(Family::Levels), n(Family::Reading), n(Family::Danger)],
            [1, 72, 7, 5]
        );
        assert_eq!([n(Family::AllLast), n(Family::SeatReading), n(Family::FuritenRisk)], [8, 27, 2]);
        assert_eq!(catalog_width(), 467);
    }

    /// Every typed column address names the column it says it does.
    #[test]
    fn column_constants_address_their_names() {
        use crate::features::{shape, value};
        let name = |c: Column| catalog()[index(c)].name;
        assert_eq!(name(shape::SHANTEN_MIN), "shanten_min");
        assert_eq!(name(shape::UKEIRE_COUNT), "ukeire_count");
        assert_eq!(name(value::EV), "ev");
        assert_eq!(name(value::EV_DEFINED), "ev_defined");
        assert_eq!(index(Column::new(Family::Shape, 0)), 0);
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
