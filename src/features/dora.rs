//! Dora held after the discard: value, dora tiles by how much each is worth, red fives, and the
//! tiles next to a dora (which turn into dora-holding runs).
//!
//! Within one decision the melds are fixed, so only the concealed part separates the options;
//! `dora_value` still counts melds so the value is the hand's real dora count.

use super::column::Cols;
use super::facts::{After, Facts};
use crate::tile::{Tile, KINDS};

pub(crate) const COLUMNS: &[(&str, &str)] = &[
    (
        "dora_value",
        "dora count of the hand after the discard: indicators per tile plus red fives, melds included",
    ),
    ("dora_tiles_x1", "concealed tiles worth exactly 1 dora by the indicators"),
    ("dora_tiles_x2", "concealed tiles worth 2 or more dora by the indicators"),
    ("red_fives", "red fives held after the discard, melds included"),
    ("dora_adjacent1", "concealed non-dora suited tiles one step from a dora kind in the same suit"),
    (
        "dora_adjacent2",
        "concealed non-dora suited tiles two steps from a dora kind (and not one step from one)",
    ),
];

/// Distance class of kind `k` to the nearest dora kind in its suit: 0 = is dora, 1, 2, or 3 = far
/// (honors are never adjacent).
fn adjacency(dora: &[u8; KINDS], k: usize) -> u8 {
    if dora[k] > 0 {
        return 0;
    }
    if k >= 27 {
        return 3;
    }
    let p = (k % 9) as isize;
    let base = k - k % 9;
    let near =
        |d: isize| [p - d, p + d].into_iter().any(|q| (0..9).contains(&q) && dora[base + q as usize] > 0);
    if near(1) {
        1
    } else if near(2) {
        2
    } else {
        3
    }
}

/// The dora count of `tiles`: one per indicator pointing at each tile's kind (`dora`, see
/// [`crate::features::facts::dora_table`]) plus one per red five. The one definition of "dora
/// held": `dora_value` and the riichi trade's `riichi_x_dora` both count with it.
pub fn held_dora(dora: &[u8; KINDS], tiles: &[Tile]) -> u32 {
    tiles.iter().map(|t| u32::from(dora[t.kind()]) + u32::from(t.is_red())).sum()
}

pub(crate) fn fill(ctx: &Facts, a: &After, cols: &mut Cols) {
    let (mut x1, mut x2, mut adj1, mut adj2, mut value) = (0u32, 0u32, 0u32, 0u32, 0u32);
    for k in 0..KINDS {
        let n = a.counts[k] as u32;
        if n == 0 {
            continue;
        }
        let d = ctx.dora[k] as u32;
        value += n * d;
        match d {
            0 => match adjacency(&ctx.dora, k) {
                1 => adj1 += n,
                2 => adj2 += n,
                _ => {}
            },
            1 => x1 += n,
            _ => x2 += n,
        }
    }
    let melds = &ctx.view.melds;
    let meld_reds = melds.iter().flat_map(|m| m.tiles()).filter(|t| t.is_red()).count() as u32;
    let reds = a.reds as u32 + meld_reds;
    // the melds' dora (by indicator and red), then the concealed reds
    value += melds.iter().map(|m| held_dora(&ctx.dora, m.tiles())).sum::<u32>() + a.reds as u32;
    cols.put("dora_value", value as f32);
    cols.put("dora_tiles_x1", x1 as f32);
    cols.put("dora_tiles_x2", x2 as f32);
    cols.put("red_fives", reds as f32);
    cols.put("dora_adjacent1", adj1 as f32);
    cols.put("dora_adjacent2", adj2 as f32);
}

#[cfg(test)]
mod tests {
    use crate::features::catalog::index_of;
    use crate::features::facts::tests_support::{tile, view};
    use crate::features::DecisionFeatures;

    fn get(row: &[f32], name: &str) -> f32 {
        row[index_of(name).unwrap()]
    }

    #[test]
    fn dora_by_hand() {
        // Indicators 4m and 4m (both point at 5m) and 8p (points at 9p).
        // Hand 0m5m 6m 7m 9p 9p 1s 3s 4s 6s 7s 8s 1z 2z (14 tiles), one red 5m; East round/seat.
        let v = view("056m7m99p134678s12z", "4m4m8p", 27, 27);
        let d = DecisionFeatures::new(&v).unwrap();
        let mut row = vec![0.0; crate::features::catalog::catalog_width()];
        // Discard 1z: the hand keeps 0m 5m (each worth 2 by indicators), 6m 7m, 99p (each 1).
        d.fill(tile("1z"), &mut row).unwrap();
        // value: 5m x2 -> 2 tiles * 2 = 4, 9p x2 -> 2, red 0m -> 1: total 7.
        assert_eq!(get(&row, "dora_value"), 7.0);
        assert_eq!(get(&row, "dora_tiles_x1"), 2.0); // 9p 9p
        assert_eq!(get(&row, "dora_tiles_x2"), 2.0); // 0m 5m
        assert_eq!(get(&row, "red_fives"), 1.0);
        // adjacent to 5m: 6m (distance 1); 7m is distance 2. Adjacent to 9p: none held (8p, 7p).
        assert_eq!(get(&row, "dora_adjacent1"), 1.0);
        assert_eq!(get(&row, "dora_adjacent2"), 1.0);
        // Discarding the red five: value 7 - 2 (indicators) - 1 (red) = 4, no red left.
        d.fill(tile("0m"), &mut row).unwrap();
        assert_eq!(get(&row, "dora_value"), 4.0);
        assert_eq!(get(&row, "red_fives"), 0.0);
        assert_eq!(get(&row, "dora_tiles_x2"), 1.0);
    }
}
