//! The training data of a ranking fit: sparse option differences over the base columns, with
//! the gated copies expanded on the fly.
//!
//! A linear score `s = w · x` ranks a decision's options; every loss we fit (pairwise hinge,
//! pairwise logistic, listwise softmax) depends only on `s_j - s_chosen = w · (x_j - x_chosen)`.
//! So each non-chosen option is stored as the sparse difference `d_j = x_j - x_chosen`: options of
//! one decision share most feature values (two discards of the same hand differ in a few columns).
//!
//! **Gated columns are not stored.** An interaction (see [`crate::model::gates`]) copies base
//! columns into one block per gate level, and only the decision's level of each gate is non-zero.
//! A dense expanded row therefore repeats every selected base value once per gate; with the four
//! gates of `make weights` that is five copies of each entry. Here a decision keeps its base
//! differences once plus one level byte per gate ([`Layout`] says where each copy goes), and
//! [`RankingData::row_dot`] / [`RankingData::add_row`] read and write the expanded columns as
//! they go: about five times less memory for the same loss and gradient (a test compares them
//! with the dense expansion).
//!
//! Standardising a feature (`(x - mean) / std`) cancels the mean in a difference, so only the
//! scale is applied: the solver works on `d / std` and weights are reported as `w_std / std`.

use std::sync::Arc;

use crate::model::gates::Expansion;

/// Per-feature running moments over every option row pushed (chosen or not), in expanded
/// columns: a gated column's moments are its base column's over the rows at that level (the
/// other rows hold 0 there, which adds nothing to the sums).
#[derive(Clone, Debug, Default)]
pub struct Moments {
    pub n: f64,
    pub sum: Vec<f64>,
    pub sumsq: Vec<f64>,
}

impl Moments {
    fn new(n_features: usize) -> Self {
        Moments { n: 0.0, sum: vec![0.0; n_features], sumsq: vec![0.0; n_features] }
    }

    /// Moments over the expanded columns of `layout`.
    pub fn for_layout(layout: &Layout) -> Self {
        Self::new(layout.n_features)
    }

    fn add(&mut self, column: usize, v: f32) {
        let v = v as f64;
        self.sum[column] += v;
        self.sumsq[column] += v * v;
    }

    /// Adds a decision's option rows (base columns) at the block levels `levels`.
    pub fn push(&mut self, layout: &Layout, options: &[&[f32]], levels: &[u8]) {
        let starts = layout.starts(levels);
        for row in options {
            debug_assert_eq!(row.len(), layout.n_base);
            self.n += 1.0;
            for (i, &v) in row.iter().enumerate() {
                self.add(i, v);
            }
            for (b, &start) in layout.blocks.iter().zip(&starts) {
                for (p, &col) in b.sel.iter().enumerate() {
                    self.add(start + p, row[col]);
                }
            }
        }
    }

    /// Standard deviation per feature; constant features get 1 (their differences are all 0).
    pub fn std(&self) -> Vec<f64> {
        self.sum
            .iter()
            .zip(&self.sumsq)
            .map(|(&s, &q)| {
                if self.n < 2.0 {
                    return 1.0;
                }
                let mean = s / self.n;
                let var = (q / self.n - mean * mean).max(0.0);
                if var > 1e-12 {
                    var.sqrt()
                } else {
                    1.0
                }
            })
            .collect()
    }
}

/// Marks a base column a block does not copy.
const NOT_GATED: u32 = u32::MAX;

/// One interaction block of the expanded columns.
#[derive(Clone, Debug)]
pub struct Block {
    /// First expanded column of the block (level 0).
    pub offset: usize,
    /// Base columns copied per level.
    pub width: usize,
    pub levels: usize,
    /// Per base column: its place among the copied columns, or [`NOT_GATED`].
    place: Vec<u32>,
    /// The copied base columns, in order.
    sel: Vec<usize>,
}

/// Where the expanded columns sit: the base columns first, then each block level by level
/// (the order of [`Expansion::names`]).
#[derive(Clone, Debug)]
pub struct Layout {
    pub n_base: usize,
    pub blocks: Vec<Block>,
    pub n_features: usize,
}

impl Layout {
    /// No interactions: the expanded columns are the base columns.
    pub fn identity(n_base: usize) -> Layout {
        Layout { n_base, blocks: Vec::new(), n_features: n_base }
    }

    /// The layout of an expansion's columns.
    pub fn of(expansion: &Expansion) -> Layout {
        let n_base = expansion.base().len();
        let mut offset = n_base;
        let blocks = expansion
            .blocks()
            .iter()
            .map(|(gate, sel)| {
                let mut place = vec![NOT_GATED; n_base];
                for (p, &c) in sel.iter().enumerate() {
                    place[c] = p as u32;
                }
                let b =
                    Block { offset, width: sel.len(), levels: gate.levels().len(), place, sel: sel.clone() };
                offset += b.width * b.levels;
                b
            })
            .collect();
        debug_assert_eq!(offset, expansion.names().len());
        Layout { n_base, blocks, n_features: offset }
    }

    /// Start of each block's active level for the levels `lv` (one per block).
    #[inline]
    fn starts(&self, lv: &[u8]) -> [usize; MAX_BLOCKS] {
        let mut s = [0; MAX_BLOCKS];
        for (i, (b, &l)) in self.blocks.iter().zip(lv).enumerate() {
            s[i] = b.offset + l as usize * b.width;
        }
        s
    }
}

/// Interaction blocks one fit can declare (the five gates once each, with room to spare).
pub const MAX_BLOCKS: usize = 8;

/// Decisions as sparse base differences (CSR by non-chosen option) plus each decision's gate levels.
#[derive(Clone, Debug)]
pub struct RankingData {
    pub layout: Arc<Layout>,
    /// Expanded columns: the length of a weight vector.
    pub n_features: usize,
    /// Start of each decision's rows in `row_ptr` (len = decisions + 1).
    pub dec_ptr: Vec<u32>,
    /// Start of each row's entries in `cols`/`vals` (len = rows + 1).
    pub row_ptr: Vec<u64>,
    /// Base columns of the entries.
    pub cols: Vec<u16>,
    pub vals: Vec<f32>,
    /// Level of each block per decision (`decisions × blocks`, row-major).
    pub levels: Vec<u8>,
}

impl RankingData {
    pub fn with_layout(layout: Arc<Layout>) -> Self {
        assert!(layout.n_base <= u16::MAX as usize, "too many features for u16 columns");
        assert!(layout.blocks.len() <= MAX_BLOCKS, "more than {MAX_BLOCKS} interaction blocks");
        RankingData {
            n_features: layout.n_features,
            layout,
            dec_ptr: vec![0],
            row_ptr: vec![0],
            cols: Vec::new(),
            vals: Vec::new(),
            levels: Vec::new(),
        }
    }

    pub fn decisions(&self) -> usize {
        self.dec_ptr.len() - 1
    }

    /// Number of non-chosen options stored.
    pub fn rows(&self) -> usize {
        self.row_ptr.len() - 1
    }

    /// Adds a decision given its dense base option rows, the chosen index and the level of each
    /// interaction block (empty without interactions). Decisions with a single option carry no
    /// ranking information and are skipped (returns false). The feature moments are kept apart
    /// ([`Moments::push`]): they span every split.
    pub fn push(&mut self, options: &[&[f32]], chosen: usize, levels: &[u8]) -> bool {
        assert_eq!(levels.len(), self.layout.blocks.len(), "one level per interaction block");
        if options.len() < 2 {
            return false;
        }
        let c = options[chosen];
        for (j, row) in options.iter().enumerate() {
            if j == chosen {
                continue;
            }
            for (i, (&a, &b)) in row.iter().zip(c).enumerate() {
                let d = a - b;
                if d != 0.0 {
                    self.cols.push(i as u16);
                    self.vals.push(d);
                }
            }
            self.row_ptr.push(self.cols.len() as u64);
        }
        self.levels.extend_from_slice(levels);
        self.dec_ptr.push((self.row_ptr.len() - 1) as u32);
        true
    }

    /// Rows (start, end) of decision `d`.
    #[inline]
    pub fn decision_rows(&self, d: usize) -> std::ops::Range<usize> {
        self.dec_ptr[d] as usize..self.dec_ptr[d + 1] as usize
    }

    #[inline]
    fn starts(&self, d: usize) -> [usize; MAX_BLOCKS] {
        let nb = self.layout.blocks.len();
        self.layout.starts(&self.levels[d * nb..(d + 1) * nb])
    }

    /// `ws · d_row` over the expanded columns of row `row` of decision `d`, where `ws` is the
    /// weight vector in standardised units times the column scale (`w × 1/std`, see
    /// [`scaled`]).
    #[inline]
    pub fn row_dot(&self, d: usize, row: usize, ws: &[f64]) -> f64 {
        let starts = self.starts(d);
        let (a, b) = (self.row_ptr[row] as usize, self.row_ptr[row + 1] as usize);
        let mut s = 0.0;
        for k in a..b {
            let c = self.cols[k] as usize;
            let mut x = ws[c];
            for (blk, &start) in self.layout.blocks.iter().zip(&starts) {
                let p = blk.place[c];
                if p != NOT_GATED {
                    x += ws[start + p as usize];
                }
            }
            s += x * self.vals[k] as f64;
        }
        s
    }

    /// `acc += g × d_row` over the expanded columns of row `row` of decision `d` (the gradient of
    /// `g × z_row` up to the column scale, which [`Objective`](super::train::Objective) applies
    /// once at the end).
    #[inline]
    pub fn add_row(&self, d: usize, row: usize, g: f64, acc: &mut [f64]) {
        let starts = self.starts(d);
        let (a, b) = (self.row_ptr[row] as usize, self.row_ptr[row + 1] as usize);
        for k in a..b {
            let c = self.cols[k] as usize;
            let v = g * self.vals[k] as f64;
            acc[c] += v;
            for (blk, &start) in self.layout.blocks.iter().zip(&starts) {
                let p = blk.place[c];
                if p != NOT_GATED {
                    acc[start + p as usize] += v;
                }
            }
        }
    }

    /// Bytes held, for the memory report.
    pub fn heap_bytes(&self) -> usize {
        self.dec_ptr.len() * 4
            + self.row_ptr.len() * 8
            + self.cols.len() * 2
            + self.vals.len() * 4
            + self.levels.len()
    }
}

/// `w × scale` per column: the weights [`RankingData::row_dot`] takes.
pub fn scaled(w: &[f64], scale: &[f64]) -> Vec<f64> {
    w.iter().zip(scale).map(|(w, s)| w * s).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::gates::Interaction;

    #[test]
    fn stores_differences_to_the_chosen_option() {
        let mut d = RankingData::with_layout(Arc::new(Layout::identity(3)));
        let a = [1.0, 2.0, 0.0];
        let b = [1.0, 0.0, 5.0];
        let c = [1.0, 2.0, 1.0];
        assert!(d.push(&[&a, &b, &c], 0, &[]));
        assert!(!d.push(&[&a], 0, &[]));
        assert_eq!(d.decisions(), 1);
        assert_eq!(d.rows(), 2);
        // b - a = (0, -2, 5): two entries; c - a = (0, 0, 1): one entry
        assert_eq!(d.cols, vec![1, 2, 2]);
        assert_eq!(d.vals, vec![-2.0, 5.0, 1.0]);
        let ws = scaled(&[10.0, 1.0, 1.0], &[1.0; 3]);
        assert_eq!(d.row_dot(0, 0, &ws), 3.0);
        // the first column never varies: its std falls back to 1
        let mut m = Moments::for_layout(&d.layout);
        m.push(&d.layout, &[&a, &b, &c], &[]);
        assert_eq!(m.std()[0], 1.0);
    }

    /// The gated columns read and written on the fly are exactly the dense expansion's: the same
    /// row dots, the same gradient accumulation and the same moments, on rows with every gate.
    #[test]
    fn compact_rows_equal_the_dense_expansion() {
        let base: Vec<String> =
            ["shanten_min", "safety_any_riichi", "ev", "ev_defined", "ukeire_count", "safety_x"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let inter: Vec<Interaction> = ["shanten", "riichi:safety_", "value", "turn:ukeire+ev"]
            .iter()
            .map(|s| Interaction::parse(s).unwrap())
            .collect();
        let e = Expansion::new(&base, &inter).unwrap();
        let layout = Arc::new(Layout::of(&e));
        assert_eq!(layout.n_features, e.names().len());
        let mut compact = RankingData::with_layout(layout.clone());
        let mut moments = Moments::for_layout(&layout);
        let mut dense: Vec<Vec<Vec<f32>>> = Vec::new();
        let mut chosen = Vec::new();
        let mut seed = 11u64;
        let mut rnd = |m: f64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64 * m).floor() as f32
        };
        for dec in 0..60u8 {
            let n = 2 + (dec % 4) as usize;
            let rows: Vec<Vec<f32>> = (0..n)
                .map(|_| vec![rnd(4.0), rnd(2.0), rnd(3000.0), rnd(2.0), rnd(30.0), rnd(5.0)])
                .collect();
            let refs: Vec<&[f32]> = rows.iter().map(|r| r.as_slice()).collect();
            let turn = dec % 18;
            let lv = e.levels(&e.situation(&refs, turn));
            let ch = dec as usize % n;
            assert!(compact.push(&refs, ch, &lv));
            moments.push(&layout, &refs, &lv);
            dense.push(e.expand(&refs, turn));
            chosen.push(ch);
        }
        // Moments over the dense expanded rows.
        let nf = e.names().len();
        let mut sum = vec![0.0f64; nf];
        let mut sumsq = vec![0.0f64; nf];
        for r in dense.iter().flatten() {
            for (i, &v) in r.iter().enumerate() {
                sum[i] += v as f64;
                sumsq[i] += (v as f64) * (v as f64);
            }
        }
        assert_eq!(moments.sum, sum);
        assert_eq!(moments.sumsq, sumsq);
        // Row dots and gradients against the dense differences.
        let ws: Vec<f64> = (0..nf).map(|i| ((i * 37 % 17) as f64 - 8.0) / 3.0).collect();
        let mut acc = vec![0.0; nf];
        let mut dense_acc = vec![0.0; nf];
        for (d, rows) in dense.iter().enumerate() {
            let mut r = compact.decision_rows(d);
            for (j, x) in rows.iter().enumerate().filter(|(j, _)| *j != chosen[d]) {
                let row = r.next().unwrap();
                let diff: Vec<f64> = x.iter().zip(&rows[chosen[d]]).map(|(a, b)| (a - b) as f64).collect();
                let want: f64 = diff.iter().zip(&ws).map(|(x, w)| x * w).sum();
                let got = compact.row_dot(d, row, &ws);
                assert!(
                    (want - got).abs() <= 1e-9 * want.abs().max(1.0),
                    "decision {d} option {j}: {want} vs {got}"
                );
                let g = 0.25 + j as f64;
                compact.add_row(d, row, g, &mut acc);
                for (a, x) in dense_acc.iter_mut().zip(&diff) {
                    *a += g * x;
                }
            }
            assert!(r.next().is_none());
        }
        for (i, (a, b)) in acc.iter().zip(&dense_acc).enumerate() {
            assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "column {}: {a} vs {b}", e.names()[i]);
        }
    }
}
