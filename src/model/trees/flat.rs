//! The batch scorer: every tree's nodes in one flat array, walked for several f32 rows at once.
//!
//! Option rows are f32, and LightGBM compares them widened to f64. For an f32 `x` and an f64
//! threshold `t`, `x as f64 <= t` exactly when `x <= t'` with `t'` the largest f32 not above `t`,
//! so each threshold is rounded down to f32 once and the walk stays in f32 (half the row bytes);
//! the zero band (1e-35) is an f32 already.
//!
//! A split's missing-value rule (see [`super::tree`]) becomes two flags:
//! - `nan_right`: where a NaN goes. For missing type NaN and Zero that is the default side; for
//!   None (NaN read as 0.0) it is the side of 0.0, right when `threshold < 0`;
//! - `zero_missing` (missing type Zero): values within the zero band go where NaN goes.
//!
//! so a step is `right = x > t || (isnan(x) && nan_right)` after mapping a Zero split's zero band
//! to NaN. Leaves are nodes too, whose two branches lead back to themselves, so a walk can take
//! more steps than its path needs: the walk steps a block of rows together until every row of
//! the block is at a leaf, with no per-row branch to mispredict.

use super::tree::{Child, Missing, Tree, ZERO_BAND};

/// Rows walked together through one tree: enough independent walks to hide the latency of each
/// step's loads.
const BLOCK: usize = 8;

#[derive(Clone, Copy, Debug)]
struct Node {
    threshold: f32,
    /// Feature index, with [`NAN_RIGHT`] and [`ZERO_MISSING`] in the top bits.
    feature: u32,
    /// The next node: `next[0]` when the row goes left, `next[1]` right (global indices).
    next: [u32; 2],
}

const NAN_RIGHT: u32 = 1 << 31;
const ZERO_MISSING: u32 = 1 << 30;
const FEATURE: u32 = ZERO_MISSING - 1;

/// The flattened forest.
#[derive(Clone, Debug)]
pub(super) struct Flat {
    nodes: Vec<Node>,
    /// Each node's output (leaves only; 0 for splits), by global index.
    value: Vec<f64>,
    /// Per tree: its root and its first leaf (its splits come before its leaves).
    trees: Vec<(u32, u32)>,
    width: usize,
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
    /// Flattens `trees` over `width` features. Panics only if a model holds more than 2^30
    /// features or 2^32 nodes, which [`super::text`] cannot produce from a file that fits memory.
    pub fn new(trees: &[Tree], width: usize) -> Flat {
        assert!(width <= FEATURE as usize, "too many features");
        let mut f = Flat { nodes: Vec::new(), value: Vec::new(), trees: Vec::new(), width };
        for t in trees {
            let base = f.nodes.len();
            let first_leaf = base + t.splits.len();
            let global = |c: Child| match c {
                Child::Split(i) => (base + i) as u32,
                Child::Leaf(i) => (first_leaf + i) as u32,
            };
            for s in &t.splits {
                let nan_right = match s.missing {
                    Missing::None => s.threshold < 0.0,
                    Missing::Zero | Missing::NaN => !s.default_left,
                };
                let mut feature = s.feature as u32;
                if nan_right {
                    feature |= NAN_RIGHT;
                }
                if s.missing == Missing::Zero {
                    feature |= ZERO_MISSING;
                }
                let next = [global(s.left), global(s.right)];
                f.nodes.push(Node { threshold: f32_at_most(s.threshold), feature, next });
                f.value.push(0.0);
            }
            for (i, &v) in t.leaf_value.iter().enumerate() {
                let me = (first_leaf + i) as u32;
                f.nodes.push(Node { threshold: 0.0, feature: 0, next: [me, me] });
                f.value.push(v);
            }
            let root = if t.splits.is_empty() { first_leaf } else { base };
            f.trees.push((root as u32, first_leaf as u32));
        }
        u32::try_from(f.nodes.len()).expect("too many nodes");
        f
    }

    /// One step of a walk from node `at` for `row`.
    #[inline(always)]
    fn step(&self, at: u32, row: &[f32]) -> u32 {
        let n = self.nodes[at as usize];
        let mut x = row[(n.feature & FEATURE) as usize];
        if n.feature & ZERO_MISSING != 0 && x.abs() <= ZERO_BAND as f32 {
            x = f32::NAN;
        }
        let right = (x > n.threshold) | (x.is_nan() & (n.feature & NAN_RIGHT != 0));
        n.next[right as usize]
    }

    /// Raw scores (the sum of the trees' leaves, in tree order, in f64) of `rows`, `width` values
    /// each, into `out` (one per row). Panics if `rows` is not `out.len()` rows of the width
    /// the model was built with.
    pub fn scores(&self, rows: &[f32], out: &mut [f64]) {
        assert_eq!(rows.len(), out.len() * self.width, "rows of the wrong width");
        out.fill(0.0);
        let w = self.width;
        let mut start = 0;
        while start < out.len() {
            let n = BLOCK.min(out.len() - start);
            let block = &rows[start * w..(start + n) * w];
            let mine = &mut out[start..start + n];
            if n == BLOCK {
                self.block(block, mine);
            } else {
                for (r, o) in block.chunks_exact(w).zip(mine) {
                    *o = self.one(r);
                }
            }
            start += n;
        }
    }

    /// [`BLOCK`] rows through every tree, each tree walked by all rows together.
    fn block(&self, rows: &[f32], out: &mut [f64]) {
        let w = self.width;
        let row: [&[f32]; BLOCK] = std::array::from_fn(|r| &rows[r * w..(r + 1) * w]);
        for &(root, first_leaf) in &self.trees {
            let mut at = [root; BLOCK];
            while at.iter().any(|&a| a < first_leaf) {
                for r in 0..BLOCK {
                    at[r] = self.step(at[r], row[r]);
                }
            }
            for r in 0..BLOCK {
                out[r] += self.value[at[r] as usize];
            }
        }
    }

    /// One row's raw score.
    fn one(&self, row: &[f32]) -> f64 {
        let mut sum = 0.0;
        for &(root, first_leaf) in &self.trees {
            let mut at = root;
            while at < first_leaf {
                at = self.step(at, row);
            }
            sum += self.value[at as usize];
        }
        sum
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
