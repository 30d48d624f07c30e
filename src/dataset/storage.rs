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
use crate::features::catalog::{catalog_width, names};

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
    #[inline(always)]
    pub fn holds(self, v: f32) -> bool {
        match self.whole_range() {
            Some((lo, hi)) => whole_in(v, lo, hi).1,
            None => true,
        }
    }

    /// The whole numbers the type holds (a flag holds 0 and 1); `None` for `F32`.
    #[inline(always)]
    const fn whole_range(self) -> Option<(i32, i32)> {
        match self {
            Storage::Bool => Some((0, 1)),
            Storage::U8 => Some((0, 255)),
            Storage::I8 => Some((-128, 127)),
            Storage::U16 => Some((0, 65535)),
            Storage::F32 => None,
        }
    }
}

/// `v` as the whole number a flag or integer column stores, and whether that is exact and within
/// `lo..=hi`: the cast to `i32` is exact when it converts back to the same `f32` (a fraction,
/// NaN or a value past `i32` does not). One instruction each way, where `fract` calls libm's
/// truncf on baseline x86-64.
#[inline(always)]
fn whole_in(v: f32, lo: i32, hi: i32) -> (i32, bool) {
    let i = v as i32;
    (i, (i as f32 == v) & (lo <= i) & (i <= hi))
}

/// The declarations: an exact column name, or a pattern with one `*` (any text); the first match
/// wins. `storage_covers_every_column` checks that every column has one and every line is used.
/// Ranges seen on real games are in the comments; a value outside its type fails ingest loudly.
const DECLARED: &[(&str, Storage)] = &[
    // danger (issue 69)
    ("danger_*", Storage::F32), // probabilities and points
    // the seats group (issue 69): all-last needs in points (up to 200,000, exact in f32), each
    // opponent's river positions (-1 none), steps, turns and counts, the furiten risk
    ("al_last", Storage::Bool),
    ("al_rounds_left", Storage::U8),
    ("al_*", Storage::F32),
    ("sr_*_last_seen", Storage::I8),
    ("sr_*_first_seen", Storage::I8),
    ("sr_*", Storage::U8),
    ("furiten_risk_kinds", Storage::U8),
    ("furiten_risk_share", Storage::F32),
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
    // levels (features/levels.rs): counts (toitoi sets / pairs, isolated yakuhai, the dora, red and
    // energy gated copies), 0/1 level indicators otherwise
    ("lv_toitoi_*", Storage::U8),
    ("lv_yakuhai_singles", Storage::U8),
    ("lv_ony_*", Storage::U8),
    ("lv_callable_energy_*", Storage::U8),
    ("lv_*", Storage::Bool),
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
    // reading: counts, the tsumogiri run and melds
    ("read_*", Storage::U8),
    // value, visibility, action, riichi trade and call trade (features/value.rs ... call_trade.rs)
    ("ev", Storage::F32),
    ("log_ev", Storage::F32),
    ("ev_defined", Storage::Bool),
    ("ev_far_shanten", Storage::U8),
    ("ev_far_ukeire", Storage::U16),
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
        names()
            .iter()
            .map(|n| {
                declared(n)
                    .unwrap_or_else(|| panic!("feature column {n} has no storage type in dataset::storage"))
            })
            .collect()
    })
}

/// A value its option column's declared storage type cannot hold exactly (a feature outgrew the
/// type chosen for it in this file).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "option column {column} holds {value}, which its declared type {ty} cannot store exactly \
     (src/dataset/storage.rs)"
)]
pub struct Inexact {
    pub column: &'static str,
    pub value: f32,
    pub ty: &'static str,
}

/// Checks that every value of `values` (rows of `catalog_width()`) is held exactly by its column's
/// type; the error names the column, the value and the type.
pub fn check(values: &[f32]) -> Result<(), Inexact> {
    let types = types();
    let names = names();
    for row in values.chunks_exact(catalog_width()) {
        for (j, (&v, t)) in row.iter().zip(types).enumerate() {
            if !t.holds(v) {
                return Err(Inexact { column: names[j], value: v, ty: t.name() });
            }
        }
    }
    Ok(())
}

/// Empty option columns in their storage types, room for `rows` values each.
pub fn empty_columns(rows: usize) -> Vec<Values> {
    types()
        .iter()
        .map(|t| match t {
            Storage::Bool => Values::Bool(Vec::with_capacity(rows)),
            Storage::U8 => Values::U8(Vec::with_capacity(rows)),
            Storage::I8 => Values::I8(Vec::with_capacity(rows)),
            Storage::U16 => Values::U16(Vec::with_capacity(rows)),
            Storage::F32 => Values::F32(Vec::with_capacity(rows)),
        })
        .collect()
}

/// The option rows `values` (row-major, `catalog_width()` each) as columns in their storage
/// types, in column order; an error as [`check`]'s when a value does not fit its column's type.
///
/// The rows are row-major, so reading one column at a time strides over the whole buffer once
/// per column (one pass per column over megabytes of rows, which evicts the search caches of the
/// core). Instead the rows are read in blocks of [`BLOCK`] that stay in the core's cache: a
/// block is first transposed into a column-major scratch (reads in row order), then each column
/// converts and checks its contiguous run of values, its type known once per block rather than
/// asked per value. A block with a value that does not fit is read again by [`check`], which
/// names the first one in row order.
pub fn columns(values: &[f32]) -> Result<Vec<Values>, Inexact> {
    let w = catalog_width();
    let mut out = empty_columns(values.len() / w);
    let mut scratch = vec![0f32; BLOCK * w];
    for block in values.chunks(BLOCK * w) {
        let rows = block.len() / w;
        for (r, row) in block.chunks_exact(w).enumerate() {
            for (j, &v) in row.iter().enumerate() {
                scratch[j * BLOCK + r] = v;
            }
        }
        let mut fits = true;
        for (j, col) in out.iter_mut().enumerate() {
            let vals = &scratch[j * BLOCK..j * BLOCK + rows];
            fits &= match col {
                Values::Bool(v) => convert_whole(v, vals, Storage::Bool, |i| i != 0),
                Values::U8(v) => convert_whole(v, vals, Storage::U8, |i| i as u8),
                Values::I8(v) => convert_whole(v, vals, Storage::I8, |i| i as i8),
                Values::U16(v) => convert_whole(v, vals, Storage::U16, |i| i as u16),
                Values::F32(v) => {
                    v.extend_from_slice(vals);
                    true
                }
                _ => unreachable!("storage types are bool, u8, i8, u16 and f32"),
            };
        }
        if !fits {
            // The block's first bad value in row order (earlier blocks fit).
            check(block)?;
        }
    }
    Ok(out)
}

/// Rows per block of [`columns`]: a block's scratch (16 rows of [`catalog_width`] f32 values,
/// about 30 KB) stays within the core's L1 data cache, and each column's 16 values fill one 64-byte
/// line of the scratch. Larger blocks make every scratch store an L2 access (docs/performance.md,
/// "Memory waits", has the timings). `block_fits_l1` pins both figures.
const BLOCK: usize = 16;

/// Appends the whole numbers `vals` to `out` through `to`; whether `storage` (a flag or an
/// integer type) holds every one exactly. One pass: [`whole_in`] gives both the stored number and
/// the check ([`Storage::holds`]' own). Always inlined, so that each call site's range is a
/// constant and the loop is a plain loop over the slice.
#[inline(always)]
fn convert_whole<T>(out: &mut Vec<T>, vals: &[f32], storage: Storage, to: impl Fn(i32) -> T) -> bool {
    let Some((lo, hi)) = storage.whole_range() else { unreachable!("{} holds fractions", storage.name()) };
    let mut fits = true;
    out.extend(vals.iter().map(|&x| {
        let (i, exact) = whole_in(x, lo, hi);
        fits &= exact;
        to(i)
    }));
    fits
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

    /// [`BLOCK`]'s doc: the scratch of a block is about 30 KB, within a 32 KiB L1 data cache, and a
    /// column's values in it fill one 64-byte cache line.
    #[test]
    fn block_fits_l1() {
        let scratch = BLOCK * catalog_width() * std::mem::size_of::<f32>();
        assert!((28_000..31_000).contains(&scratch) && scratch <= 32 * 1024, "{scratch} bytes");
        assert_eq!(BLOCK * std::mem::size_of::<f32>(), 64);
    }

    /// docs/schema.md shows the storage declarations as `haifu schema` prints them.
    #[test]
    fn schema_doc_lists_storage_types() {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/schema.md")).unwrap();
        assert!(doc.contains(&markdown()), "docs/schema.md: paste the storage table of `haifu schema`");
    }

    /// Every feature column has a declared type, and every declaration names some column.
    #[test]
    fn storage_covers_every_column() {
        let names = names();
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
        let mut row = vec![0.0f32; catalog_width()];
        assert!(check(&row).is_ok());
        let j = names().iter().position(|n| *n == "ukeire_count").unwrap();
        row[j] = 2.5;
        let e = check(&row).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("ukeire_count") && text.contains("2.5") && text.contains("u8"), "{e}");
        // `columns` checks as it converts: the same error, also from a later block of rows.
        let mut rows = vec![0.0f32; 70 * catalog_width()];
        rows[66 * catalog_width()..67 * catalog_width()].copy_from_slice(&row);
        assert_eq!(columns(&rows).unwrap_err(), e);
    }

    /// `columns` gives row r's value of column j at place r of column j, across the blocks it
    /// reads the rows in (75 rows cross a 64-row block).
    #[test]
    fn columns_take_each_rows_value_in_order() {
        let w = catalog_width();
        // A value every storage type holds: small, whole, non-negative, 0/1 for flags.
        let value = |r: usize, j: usize| match types()[j] {
            Storage::Bool => ((r + j) % 2) as f32,
            _ => ((r * 7 + j) % 100) as f32,
        };
        let rows = |from: usize, n: usize| {
            (from..from + n).flat_map(|r| (0..w).map(move |j| value(r, j))).collect::<Vec<f32>>()
        };
        let cols = columns(&rows(0, 75)).unwrap();
        assert_eq!(cols.len(), w);
        for (j, col) in cols.iter().enumerate() {
            let got: Vec<f32> = match col {
                Values::Bool(v) => v.iter().map(|&x| f32::from(u8::from(x))).collect(),
                Values::U8(v) => v.iter().map(|&x| f32::from(x)).collect(),
                Values::I8(v) => v.iter().map(|&x| f32::from(x)).collect(),
                Values::U16(v) => v.iter().map(|&x| f32::from(x)).collect(),
                Values::F32(v) => v.clone(),
                _ => panic!("column {j}: not a storage type"),
            };
            let want: Vec<f32> = (0..75).map(|r| value(r, j)).collect();
            assert_eq!(got, want, "column {} ({})", j, names()[j]);
        }
    }
}
