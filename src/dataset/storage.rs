//! The storage type of every option feature column: the smallest type that holds its values
//! exactly, declared once here (by name, or by a name prefix for a generated family) so every part
//! of every run has the same schema.
//!
//! Features are computed as f32 rows ([`crate::dataset::rows`]); ingest checks every value of a
//! game against its column's type before writing ([`check`]: a value that would not survive the
//! cast fails that game loudly, by name, instead of being rounded), then casts ([`column`]).
//! Readers that want f32 cast back ([`crate::dataset::parts::f32s`]), which is exact.

use std::sync::OnceLock;

use crate::dataset::columns::Values;
use crate::dataset::rows::{feature_names, option_width};

/// A column's parquet type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// 0 or 1.
    Bool,
    /// 0..=255.
    U8,
    /// -128..=127.
    I8,
    /// 0..=65535.
    U16,
    /// Fractional values.
    F32,
}

impl Storage {
    pub fn name(self) -> &'static str {
        match self {
            Storage::Bool => "bool",
            Storage::U8 => "u8",
            Storage::I8 => "i8",
            Storage::U16 => "u16",
            Storage::F32 => "f32",
        }
    }

    /// Whether `v` is stored exactly.
    pub fn holds(self, v: f32) -> bool {
        let int_in = |lo: f32, hi: f32| v.fract() == 0.0 && (lo..=hi).contains(&v);
        match self {
            Storage::Bool => v == 0.0 || v == 1.0,
            Storage::U8 => int_in(0.0, 255.0),
            Storage::I8 => int_in(-128.0, 127.0),
            Storage::U16 => int_in(0.0, 65535.0),
            Storage::F32 => true,
        }
    }
}

/// The declarations: an exact column name, or a pattern with one `*` (any text); the first match
/// wins. `storage_covers_every_column` checks that every column has one and every line is used.
/// Ranges seen on real games are in the comments; a value outside its type fails ingest loudly.
const DECLARED: &[(&str, Storage)] = &[
    // shape
    ("shanten_*", Storage::I8), // 0..14
    ("tenpai", Storage::Bool),
    ("iishanten", Storage::Bool),
    ("ukeire_kinds", Storage::U8), // 0..34
    ("ukeire_count", Storage::U8), // 0..136
    ("ukeire2_avg", Storage::F32), // a mean
    ("ukeire2_sum", Storage::U16), // 0..~10,000
    ("wait_kinds", Storage::U8),
    ("wait_count", Storage::U8),
    ("wait_*", Storage::Bool),
    ("furiten", Storage::Bool),
    // energy: tiles per pattern, 0..6
    ("energy_*", Storage::U8),
    // dora
    ("dora_*", Storage::U8),
    ("red_fives", Storage::U8),
    // yaku potential
    ("*_dead", Storage::Bool),
    ("*_gap", Storage::I8), // chiitoitsu_gap may be negative
    ("*_tiles", Storage::U8),
    ("yakuhai_*", Storage::U8),
    ("kokushi_missing", Storage::U8),
    ("toitoi_*", Storage::U8),
    ("menzen", Storage::Bool),
    ("open_no_yaku", Storage::Bool),
    // melds21: class counts
    ("m21_*", Storage::U8),
    // safety: flags, but counts, dora value, turns and the danger estimate (fractional)
    ("safety_riichi_count", Storage::U8),
    ("safety_*_honor_unseen", Storage::U8),
    ("safety_*_dora", Storage::U8),
    ("safety_*_turns_since_riichi", Storage::U8),
    ("safety_*_danger_est", Storage::F32),
    ("safety_*", Storage::Bool),
    // river: counts and flags
    ("river_genbutsu_dealer", Storage::Bool),
    ("river_own", Storage::Bool),
    ("river_kamicha_last", Storage::Bool),
    ("river_*", Storage::U8),
    ("threat_*", Storage::U8),
    // action columns (dataset::rows::ACTION_COLUMNS)
    ("ev", Storage::F32),
    ("log_ev", Storage::F32),
    ("ev_defined", Storage::Bool),
    ("discard_class", Storage::U8),
    ("vis_paijia", Storage::U16),
    ("vis_*", Storage::U8),
    ("act_*", Storage::Bool),
    ("riichi_x_dama_points", Storage::F32),
    ("riichi_x_riichi_points", Storage::F32),
    ("riichi_x_dama_mangan", Storage::F32),
    ("riichi_x_*", Storage::U8),
    ("call_x_turn", Storage::U8),
];

fn matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        Some((head, tail)) => {
            name.len() >= head.len() + tail.len() && name.starts_with(head) && name.ends_with(tail)
        }
        None => pattern == name,
    }
}

/// The declared storage of a feature column (`None`: not declared).
pub fn declared(name: &str) -> Option<Storage> {
    DECLARED.iter().find(|(p, _)| matches(p, name)).map(|(_, s)| *s)
}

/// Storage of every option feature column, in column order.
pub fn types() -> &'static [Storage] {
    static TYPES: OnceLock<Vec<Storage>> = OnceLock::new();
    TYPES.get_or_init(|| {
        feature_names()
            .iter()
            .map(|n| {
                declared(n)
                    .unwrap_or_else(|| panic!("feature column {n} has no storage type in dataset::storage"))
            })
            .collect()
    })
}

/// Checks that every value of `values` (rows of `option_width()`) is held exactly by its column's
/// type; the error names the column, the value and the type.
pub fn check(values: &[f32]) -> Result<(), String> {
    let types = types();
    let names = feature_names();
    for row in values.chunks_exact(option_width()) {
        for (j, (&v, t)) in row.iter().zip(types).enumerate() {
            if !t.holds(v) {
                return Err(format!(
                    "option column {} holds {v}, which its declared type {} cannot store exactly \
                     (src/dataset/storage.rs)",
                    names[j],
                    t.name()
                ));
            }
        }
    }
    Ok(())
}

/// Column `j` of the feature rows of several games, in its storage type. Values must have passed
/// [`check`] (a debug build asserts it again).
pub fn column(j: usize, games: &[&[f32]]) -> Values {
    let w = option_width();
    let t = types()[j];
    let vals = || {
        games.iter().flat_map(move |g| {
            g.chunks_exact(w).map(move |row| {
                debug_assert!(t.holds(row[j]), "unchecked value {} in column {j}", row[j]);
                row[j]
            })
        })
    };
    match t {
        Storage::Bool => Values::Bool(vals().map(|v| v != 0.0).collect()),
        Storage::U8 => Values::U8(vals().map(|v| v as u8).collect()),
        Storage::I8 => Values::I8(vals().map(|v| v as i8).collect()),
        Storage::U16 => Values::U16(vals().map(|v| v as u16).collect()),
        Storage::F32 => Values::F32(vals().collect()),
    }
}

/// The declarations as a markdown table (columns, type), for docs/schema.md (`haifu schema`).
pub fn markdown() -> String {
    let rows: Vec<Vec<String>> =
        DECLARED.iter().map(|(p, s)| vec![format!("`{p}`"), s.name().to_string()]).collect();
    crate::util::markdown::table(&["columns", "type"], &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/schema.md shows the storage declarations as `haifu schema` prints them.
    #[test]
    fn schema_doc_lists_storage_types() {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/schema.md")).unwrap();
        assert!(doc.contains(&markdown()), "docs/schema.md: paste the storage table of `haifu schema`");
    }

    /// Every feature column has a declared type, and every declaration names some column.
    #[test]
    fn storage_covers_every_column() {
        let names = feature_names();
        let missing: Vec<&str> = names.iter().copied().filter(|n| declared(n).is_none()).collect();
        assert!(missing.is_empty(), "no storage type for {missing:?}");
        let unused: Vec<&str> =
            DECLARED.iter().map(|(p, _)| *p).filter(|p| !names.iter().any(|n| matches(p, n))).collect();
        assert!(unused.is_empty(), "declarations matching no column: {unused:?}");
        assert_eq!(types().len(), names.len());
    }

    #[test]
    fn holds_is_exact() {
        assert!(Storage::U8.holds(255.0) && !Storage::U8.holds(256.0) && !Storage::U8.holds(-1.0));
        assert!(!Storage::U8.holds(0.5) && !Storage::U8.holds(f32::NAN));
        assert!(Storage::I8.holds(-1.0) && !Storage::I8.holds(128.0));
        assert!(Storage::Bool.holds(1.0) && !Storage::Bool.holds(2.0));
        assert!(Storage::U16.holds(65535.0) && !Storage::U16.holds(65536.0));
        assert!(Storage::F32.holds(0.1));
    }

    /// A value the declared type cannot hold is an error naming the column.
    #[test]
    fn lossy_values_are_refused() {
        let mut row = vec![0.0f32; option_width()];
        assert!(check(&row).is_ok());
        let j = feature_names().iter().position(|n| *n == "ukeire_count").unwrap();
        row[j] = 2.5;
        let e = check(&row).unwrap_err();
        assert!(e.contains("ukeire_count") && e.contains("2.5") && e.contains("u8"), "{e}");
    }
}
