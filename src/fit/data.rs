//! The training data of a ranking fit, stored as sparse differences.
//!
//! A linear score `s = w · x` ranks a decision's options; every loss we fit (pairwise hinge,
//! pairwise logistic, listwise softmax) depends only on `s_j - s_chosen = w · (x_j - x_chosen)`.
//! So each non-chosen option is stored as the sparse difference `d_j = x_j - x_chosen`: options of
//! one decision share most feature values (two discards of the same hand differ in a few columns),
//! which makes the differences a fraction of the dense rows' size. That keeps the whole shared
//! corpus in memory with room to spare; larger archives are sampled by decision (see `fit::train`).
//!
//! Standardising a feature (`(x - mean) / std`) cancels the mean in a difference, so only the
//! scale is applied: the solver works on `d / std` and weights are reported as `w_std / std`.

/// Per-feature running moments over every option row pushed (chosen or not).
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

    fn push(&mut self, row: &[f32]) {
        self.n += 1.0;
        for (i, &v) in row.iter().enumerate() {
            let v = v as f64;
            self.sum[i] += v;
            self.sumsq[i] += v * v;
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

/// Decisions as sparse option differences (CSR by non-chosen option).
#[derive(Clone, Debug)]
pub struct RankingData {
    pub n_features: usize,
    /// Start of each decision's rows in `row_ptr` (len = decisions + 1).
    pub dec_ptr: Vec<u32>,
    /// Start of each row's entries in `cols`/`vals` (len = rows + 1).
    pub row_ptr: Vec<u64>,
    pub cols: Vec<u16>,
    pub vals: Vec<f32>,
    pub moments: Moments,
}

impl RankingData {
    pub fn new(n_features: usize) -> Self {
        assert!(n_features <= u16::MAX as usize, "too many features for u16 columns");
        RankingData {
            n_features,
            dec_ptr: vec![0],
            row_ptr: vec![0],
            cols: Vec::new(),
            vals: Vec::new(),
            moments: Moments::new(n_features),
        }
    }

    pub fn decisions(&self) -> usize {
        self.dec_ptr.len() - 1
    }

    /// Number of non-chosen options stored.
    pub fn rows(&self) -> usize {
        self.row_ptr.len() - 1
    }

    /// Adds a decision given its dense option rows and the chosen index. Decisions with a
    /// single option carry no ranking information and are skipped (returns false).
    pub fn push(&mut self, options: &[&[f32]], chosen: usize) -> bool {
        if options.len() < 2 {
            return false;
        }
        let c = options[chosen];
        for row in options {
            debug_assert_eq!(row.len(), self.n_features);
            self.moments.push(row);
        }
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
        self.dec_ptr.push((self.row_ptr.len() - 1) as u32);
        true
    }

    /// Rows (start, end) of decision `d`.
    #[inline]
    pub fn decision_rows(&self, d: usize) -> std::ops::Range<usize> {
        self.dec_ptr[d] as usize..self.dec_ptr[d + 1] as usize
    }

    /// `w · d_row` with `scale` applied per column (`w` in standardised units, `scale = 1/std`).
    #[inline]
    pub fn row_dot(&self, row: usize, w: &[f64], scale: &[f64]) -> f64 {
        let (a, b) = (self.row_ptr[row] as usize, self.row_ptr[row + 1] as usize);
        let mut s = 0.0;
        for k in a..b {
            let c = self.cols[k] as usize;
            s += w[c] * scale[c] * self.vals[k] as f64;
        }
        s
    }

    /// Bytes held, for the memory report.
    pub fn heap_bytes(&self) -> usize {
        self.dec_ptr.len() * 4 + self.row_ptr.len() * 8 + self.cols.len() * 2 + self.vals.len() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_differences_to_the_chosen_option() {
        let mut d = RankingData::new(3);
        let a = [1.0, 2.0, 0.0];
        let b = [1.0, 0.0, 5.0];
        let c = [1.0, 2.0, 1.0];
        assert!(d.push(&[&a, &b, &c], 0));
        assert!(!d.push(&[&a], 0));
        assert_eq!(d.decisions(), 1);
        assert_eq!(d.rows(), 2);
        // b - a = (0, -2, 5): two entries; c - a = (0, 0, 1): one entry
        assert_eq!(d.cols, vec![1, 2, 2]);
        assert_eq!(d.vals, vec![-2.0, 5.0, 1.0]);
        let w = [10.0, 1.0, 1.0];
        let one = [1.0; 3];
        assert_eq!(d.row_dot(0, &w, &one), 3.0);
        // the first column never varies: its std falls back to 1
        assert_eq!(d.moments.std()[0], 1.0);
    }
}
