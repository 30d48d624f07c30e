//! Tile energy: every concealed tile after the discard falls into one pattern class, and each
//! pattern is one count column (how many held tiles are in it). A linear fit over these columns
//! learns a table of "how much is a tile of this kind in this neighbourhood worth keeping".
//!
//! Pattern = tile class × copies held × neighbours held.
//! - Tile class: suited numbers folded by symmetry, 1/9 → `19`, 2/8 → `28`, 3/7 → `37`,
//!   4/6 → `46`, 5 → `5`; honors are `guest` (a wind that is neither round nor seat wind) or
//!   `yakuhai` (dragons, round wind, seat wind).
//! - Copies held of that kind: `x1`, `x2`, `x3` (3 or 4).
//! - Neighbours (suited only): whether the kinds at distance -2, -1, +1, +2 in the same suit are
//!   held, written as 4 bits `nABCD` in that order. The distances are folded with the tile: for
//!   6..9 the direction is mirrored so that "-" always points to the nearer terminal (7m with
//!   8m held is `37` with -1 held, like 3m with 2m). For 5 both directions are equivalent, so
//!   a pattern and its mirror are one column, named by the reading with the smaller 4-bit value
//!   (bits A B C D = 8 4 2 1): 5 with only 4 held and 5 with only 6 held are both `n0010`.
//! - Impossible patterns are not columns: 1/9 have no -1/-2 neighbours, 2/8 no -2.
//!
//! Column count: (4 + 8 + 16 + 16 + 10) patterns × 3 copy classes + 2 honor classes × 3 = 168.

use std::sync::OnceLock;

use super::column::Cols;
use super::facts::{After, Facts};
use crate::tile::{Counts, KINDS};

const CLASS_NAMES: [&str; 5] = ["19", "28", "37", "46", "5"];
const NONE: u16 = u16::MAX;

struct Table {
    columns: Vec<(&'static str, &'static str)>,
    /// Column of (class, copies - 1, pattern bits), NONE for impossible patterns.
    suited: [[[u16; 16]; 3]; 5],
    /// First column of guest x1..x3, then yakuhai x1..x3.
    guest: u16,
    yakuhai: u16,
}

fn mirror(bits: u8) -> u8 {
    (bits >> 3 & 1) | (bits >> 1 & 2) | (bits << 1 & 4) | (bits << 3 & 8)
}

fn allowed(class: usize, bits: u8) -> bool {
    match class {
        0 => bits & 0b1100 == 0,
        1 => bits & 0b1000 == 0,
        4 => bits <= mirror(bits),
        _ => true,
    }
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut columns = Vec::new();
        let mut suited = [[[NONE; 16]; 3]; 5];
        for (class, cname) in CLASS_NAMES.iter().enumerate() {
            for copies in 0..3 {
                for bits in 0..16u8 {
                    if !allowed(class, bits) {
                        continue;
                    }
                    suited[class][copies][bits as usize] = columns.len() as u16;
                    let b = |i: u8| if bits >> i & 1 == 1 { '1' } else { '0' };
                    let pat = format!("{}{}{}{}", b(3), b(2), b(1), b(0));
                    let held: Vec<&str> = [(3, "-2"), (2, "-1"), (1, "+1"), (0, "+2")]
                        .iter()
                        .filter(|(i, _)| bits >> i & 1 == 1)
                        .map(|(_, s)| *s)
                        .collect();
                    let n = ["1", "2", "3+"][copies];
                    let neighbours = if held.is_empty() { "none".to_string() } else { held.join(" ") };
                    columns.push((
                        leak(format!("energy_{cname}_x{}_n{pat}", copies + 1)),
                        leak(format!(
                            "concealed tiles of a {cname} kind held {n}x with neighbours held at {neighbours}"
                        )),
                    ));
                }
            }
        }
        let guest = columns.len() as u16;
        for (label, what) in [("guest", "guest wind"), ("yakuhai", "yakuhai honor")] {
            for copies in 0..3 {
                let n = ["1", "2", "3+"][copies];
                columns.push((
                    leak(format!("energy_{label}_x{}", copies + 1)),
                    leak(format!("concealed tiles of a {what} kind held {n}x")),
                ));
            }
        }
        Table { columns, suited, guest, yakuhai: guest + 3 }
    })
}

pub(crate) fn columns() -> Vec<(&'static str, &'static str)> {
    table().columns.clone()
}

/// Column index (within the family) of the pattern of kind `k` in `counts` (`counts[k] > 0`).
fn pattern_column(t: &Table, counts: &Counts, k: usize, guest: bool) -> usize {
    let copies = counts[k].clamp(1, 3) as usize - 1;
    if k >= 27 {
        return (if guest { t.guest } else { t.yakuhai }) as usize + copies;
    }
    let p = k % 9;
    let held = |d: isize| {
        let q = p as isize + d;
        (0..9).contains(&q) && counts[k - p + q as usize] > 0
    };
    // bits in the order -2 -1 +1 +2 (8 4 2 1), in the actual direction
    let raw =
        (u8::from(held(-2)) << 3) | (u8::from(held(-1)) << 2) | (u8::from(held(1)) << 1) | u8::from(held(2));
    let (class, bits) = match p {
        0..=3 => (p, raw),
        4 => (4, raw.min(mirror(raw))),
        _ => (8 - p, mirror(raw)),
    };
    t.suited[class][copies][bits as usize] as usize
}

/// Adds each held tile to its pattern column.
pub fn energy_counts(counts: &Counts, ctx: &Facts, out: &mut [f32]) {
    let t = table();
    out.fill(0.0);
    for k in 0..KINDS {
        if counts[k] > 0 {
            out[pattern_column(t, counts, k, ctx.is_guest_wind(k))] += counts[k] as f32;
        }
    }
}

pub(crate) fn fill(ctx: &Facts, a: &After, cols: &mut Cols) {
    energy_counts(&a.counts, ctx, cols.slice());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{counts_of, parse_mpsz};

    fn col(name: &str) -> usize {
        table().columns.iter().position(|c| c.0 == name).unwrap_or_else(|| panic!("no column {name}"))
    }

    #[test]
    fn column_count_and_impossible_patterns() {
        assert_eq!(table().columns.len(), 168);
        assert!(table().columns.iter().all(|c| c.0 != "energy_19_x1_n0100"));
        assert!(table().columns.iter().all(|c| c.0 != "energy_28_x1_n1000"));
        // 5 keeps the smaller reading: n0010 (only +1) exists, n0100 (only -1) does not.
        assert!(table().columns.iter().any(|c| c.0 == "energy_5_x1_n0010"));
        assert!(table().columns.iter().all(|c| c.0 != "energy_5_x1_n0100"));
    }

    #[test]
    fn patterns_by_hand() {
        // Hand 1135m 7p 88s 9s 1z 55z, East round, South seat: 1z East is yakuhai (round wind),
        // 5z white is yakuhai.
        let view = crate::features::facts::tests_support::view("1112345678999m1z", "", 27, 28);
        let view_ctx = Facts::new(&view);
        let counts = counts_of(&parse_mpsz("1135m7p889s155z").unwrap());
        let mut out = vec![0.0; 168];
        energy_counts(&counts, &view_ctx, &mut out);
        // 1m x2: +1 (2m) no, +2 (3m) yes -> n0001, two tiles.
        assert_eq!(out[col("energy_19_x2_n0001")], 2.0);
        // 3m x1: -2 (1m) yes, -1 (2m) no, +1 (4m) no, +2 (5m) yes -> n1001.
        assert_eq!(out[col("energy_37_x1_n1001")], 1.0);
        // 5m x1: -2 (3m) yes, rest no -> raw 1000, mirror 0001 -> n0001.
        assert_eq!(out[col("energy_5_x1_n0001")], 1.0);
        // 7p alone: n0000 in class 37.
        assert_eq!(out[col("energy_37_x1_n0000")], 1.0);
        // 8s x2: actual -1 (7s) no, -2 (6s) no, +1 (9s) yes -> mirrored: the 9s side is "-1"
        // -> n0100 in class 28.
        assert_eq!(out[col("energy_28_x2_n0100")], 2.0);
        // 9s x1: actual -1 (8s) yes, -2 (7s) no -> mirrored +1 -> n0010 in class 19.
        assert_eq!(out[col("energy_19_x1_n0010")], 1.0);
        // East (round wind) x1 and white x2: yakuhai.
        assert_eq!(out[col("energy_yakuhai_x1")], 1.0);
        assert_eq!(out[col("energy_yakuhai_x2")], 2.0);
        // 11 tiles in total (4 + 1 + 3 + 3), each in exactly one column.
        assert_eq!(out.iter().sum::<f32>(), 11.0);
    }
}
