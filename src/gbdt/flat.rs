//! The batch scorer: every tree's nodes in one flat array, walked for several f32 rows at once.
//!
//! Option rows are f32, and LightGBM compares them widened to f64. For an f32 `x` and an f64
//! threshold `t`, `x as f64 <= t` exactly when `x <= t'` with `t'` the largest f32 not above `t`,
//! so each threshold is rounded down to f32 once and the walk stays in f32 (half the row bytes);
//! the zero band (1e-35) is an f32 already.
//!
//! A tree's nodes are laid out breadth first with each split's two children side by side, so a
//! node is 8 bytes (threshold, feature, left child; the right child is the next node) and a step
//! is `next = left + (x > threshold)`. A leaf is a node whose threshold is +inf and whose left
//! child is itself, so a walk can take more steps than its path needs: each tree is walked a
//! fixed number of steps (its depth) by a block of rows together, with no branch to mispredict.
//!
//! That plain step is LightGBM's rule for every value but NaN and, for missing type Zero, the
//! zero band (see [`super::tree`]). Where those matter, the careful step adds two flags a node:
//! - `nan_right`: where a NaN goes. For missing type NaN and Zero that is the default side; for
//!   None (NaN read as 0.0) it is the side of 0.0, right when `threshold < 0`;
//! - `zero`: missing type Zero, whose zero band goes where NaN goes;
//!
//! and steps `right = x > t || (isnan(x) && nan_right)` after mapping a Zero split's zero band to
//! NaN. A block of rows takes the careful step when it holds a NaN or the model has a Zero split.

use super::error::Unsupported;
use super::tree::{Child, Missing, Tree, ZERO_BAND};

/// Rows walked together through one tree: enough independent walks to hide the latency of each
/// step's loads.
const BLOCK: usize = 8;

#[derive(Clone, Copy, Debug)]
struct Node {
    threshold: f32,
    feature: u16,
    /// The left child, within the tree; the right child is `left + 1`.
    left: u16,
}

/// Where a tree's nodes are and how many steps reach its deepest leaf.
#[derive(Clone, Copy, Debug)]
struct Span {
    base: usize,
    len: usize,
    depth: usize,
}

/// The flattened forest.
#[derive(Clone, Debug)]
pub(super) struct Flat {
    nodes: Vec<Node>,
    /// Per node: the careful step's flags (see the module doc).
    nan_right: Vec<bool>,
    zero: Vec<bool>,
    /// Per node: its output (leaves only; 0 for splits).
    value: Vec<f64>,
    trees: Vec<Span>,
    width: usize,
    /// Some split has missing type Zero.
    any_zero: bool,
}

/// The largest f32 not above `t`.
fn f32_at_most(t: f64) -> f32 {
    let r = t as f32;
    if (r as f64) <= t || r.is_nan() {
        return r;
    }
    // One f32 step down: r > t, so r is not -inf.
    if r == 0.0 {
        -f32::from_bits(1)
    } else if r > 0.0 {
        f32::from_bits(r.to_bits() - 1)
    } else {
        f32::from_bits(r.to_bits() + 1)
    }
}

impl Flat {
    /// Flattens `trees` over `width` features; a model too large for 16-bit node and feature
    /// indices is refused.
    pub fn new(trees: &[Tree], width: usize) -> Result<Flat, Unsupported> {
        if width > u16::MAX as usize + 1 {
            return Err(Unsupported::Size { what: format!("{width} features (at most 65,536)") });
        }
        let mut f = Flat {
            nodes: Vec::new(),
            nan_right: Vec::new(),
            zero: Vec::new(),
            value: Vec::new(),
            trees: Vec::new(),
            width,
            any_zero: false,
        };
        for (i, t) in trees.iter().enumerate() {
            if t.splits.len() + t.leaf_value.len() > u16::MAX as usize {
                let what = format!("tree {i} with {} leaves (at most 32,767)", t.leaf_value.len());
                return Err(Unsupported::Size { what });
            }
            f.push_tree(t);
        }
        Ok(f)
    }

    /// Appends one tree, breadth first, each split's children side by side.
    fn push_tree(&mut self, t: &Tree) {
        let base = self.nodes.len();
        let root = if t.splits.is_empty() { Child::Leaf(0) } else { Child::Split(0) };
        // Slot i holds order[i] at depth[i].
        let (mut order, mut depth) = (vec![root], vec![0]);
        let mut i = 0;
        while i < order.len() {
            let (node, nan_right, zero, value) = match order[i] {
                Child::Split(s) => {
                    let s = &t.splits[s];
                    let left = order.len() as u16;
                    order.extend([s.left, s.right]);
                    depth.extend([depth[i] + 1; 2]);
                    let nan_right = match s.missing {
                        Missing::None => s.threshold < 0.0,
                        Missing::Zero | Missing::NaN => !s.default_left,
                    };
                    let node = Node { threshold: f32_at_most(s.threshold), feature: s.feature as u16, left };
                    (node, nan_right, s.missing == Missing::Zero, 0.0)
                }
                Child::Leaf(l) => {
                    let node = Node { threshold: f32::INFINITY, feature: 0, left: i as u16 };
                    (node, false, false, t.leaf_value[l])
                }
            };
            self.nodes.push(node);
            self.nan_right.push(nan_right);
            self.zero.push(zero);
            self.any_zero |= zero;
            self.value.push(value);
            i += 1;
        }
        let depth = depth.into_iter().max().unwrap_or(0);
        self.trees.push(Span { base, len: order.len(), depth });
    }

    /// The careful step (see the module doc) from node `at` of the tree at `base`, for row `r`
    /// of the `N` rows `cols` holds feature by feature.
    #[inline(always)]
    fn careful<const N: usize>(&self, base: usize, at: u32, cols: &[f32], r: usize) -> u32 {
        let g = base + at as usize;
        let n = self.nodes[g];
        let mut x = cols[n.feature as usize * N + r];
        if self.zero[g] && x.abs() <= ZERO_BAND as f32 {
            x = f32::NAN;
        }
        n.left as u32 + ((x > n.threshold) | (x.is_nan() & self.nan_right[g])) as u32
    }

    /// Raw scores (the sum of the trees' leaves, in tree order, in f64) of `rows`, `width` values
    /// each, into `out` (one per row). Panics if `rows` is not `out.len()` rows of the width
    /// the model was built with.
    pub fn scores(&self, rows: &[f32], out: &mut [f64]) {
        assert_eq!(rows.len(), out.len() * self.width, "rows of the wrong width");
        let w = self.width;
        // Room for BLOCK rows of the width rounded up to a power of two (see `walk`).
        let mut cols = vec![0.0; BLOCK * w.next_power_of_two()];
        let mut blocks = rows.chunks_exact(BLOCK * w);
        let mut outs = out.chunks_exact_mut(BLOCK);
        for (block, out) in (&mut blocks).zip(&mut outs) {
            self.block::<BLOCK>(block, out, &mut cols);
        }
        // The last rows walk as a block too, the free lanes holding zeros (a decision's options
        // rarely fill whole blocks, and one row walked alone waits on every load); a block of
        // half the lanes when they fit in it (a decision of 10 options: 8 + 2 rows).
        let (rest, out) = (blocks.remainder(), outs.into_remainder());
        match out.len() {
            0 => {}
            n if n <= BLOCK / 2 => self.block::<{ BLOCK / 2 }>(rest, out, &mut cols),
            _ => self.block::<BLOCK>(rest, out, &mut cols),
        }
    }

    /// The at most `N` rows `rows` walked as one block of `N` lanes (free lanes hold zeros), their
    /// scores written to `out`, with `cols` as room.
    fn block<const N: usize>(&self, rows: &[f32], out: &mut [f64], cols: &mut [f32]) {
        let w = self.width;
        let cols = &mut cols[..N * w.next_power_of_two()];
        if out.len() < N {
            cols.fill(0.0);
        }
        // Feature by feature: a step finds row r's value at feature * N + r, one address from
        // one base whatever the row.
        for (r, row) in rows.chunks_exact(w.max(1)).enumerate() {
            for (f, &x) in row.iter().enumerate() {
                cols[f * N + r] = x;
            }
        }
        let mut all = [0.0; N];
        if self.any_zero || rows.iter().any(|x| x.is_nan()) {
            self.walk::<true, N>(cols, &mut all);
        } else {
            self.walk::<false, N>(cols, &mut all);
        }
        out.copy_from_slice(&all[..out.len()]);
    }

    /// `N` rows, held feature by feature in `cols` (row r's feature f at `f * N + r`), through
    /// every tree, each tree walked by all rows together for its depth in steps; `CAREFUL` picks
    /// the careful step over the plain one (see the module doc).
    fn walk<const CAREFUL: bool, const N: usize>(&self, cols: &[f32], out: &mut [f64]) {
        // A power of two long (see `scores`), so `col_mask` keeps an index in range.
        let cols = &cols[..(self.width.next_power_of_two() * N)];
        let col_mask = cols.len() - 1;
        for t in &self.trees {
            let nodes = &self.nodes[t.base..t.base + t.len];
            let mut at = [0u32; N];
            for _ in 0..t.depth {
                for r in 0..N {
                    at[r] = if CAREFUL {
                        self.careful::<N>(t.base, at[r], cols, r)
                    } else {
                        // The column index is in range by construction; masked, it is in range
                        // for the compiler too, which then drops its bounds check.
                        let n = nodes[at[r] as usize];
                        let x = cols[(n.feature as usize * N + r) & col_mask];
                        n.left as u32 + (x > n.threshold) as u32
                    };
                }
            }
            for r in 0..N {
                out[r] += self.value[t.base + at[r] as usize];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_round_down_to_f32_exactly() {
        for t in [0.5, 0.1, -0.1, 1e-40, -1e-40, 0.0, 3.0000001, -7.999999999, 1e39, -1e39] {
            let r = f32_at_most(t);
            assert!(r as f64 <= t, "{t}: {r}");
            // The next f32 up is above t, so no f32 lies in (r, t].
            let up = if r == 0.0 {
                f32::from_bits(1)
            } else if r > 0.0 {
                f32::from_bits(r.to_bits() + 1)
            } else {
                f32::from_bits(r.to_bits() - 1)
            };
            assert!(up as f64 > t, "{t}: {r} {up}");
        }
    }
}
