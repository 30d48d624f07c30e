//! One regression tree as LightGBM's text model describes it, and the rule a split applies to a
//! value. This is the reference reading (plain, f64, one row at a time): TreeSHAP walks it, and the
//! fast batch scorer ([`super::flat`]) is checked against it.
//!
//! A split's rule, from its `decision_type` (bit 1: default left; bits 2-3: the missing type):
//! - missing type NaN: NaN takes the default side;
//! - missing type Zero: NaN counts as 0.0, and 0.0 (any |x| ≤ 1e-35) takes the default side;
//! - missing type None: NaN counts as 0.0, and there is no default side;
//! - every other value goes left when `x <= threshold`.

use super::error::{Place, TreesError};

/// LightGBM's zero band: a value this close to 0 is "zero" for missing type Zero. It is the f32
/// 1e-35 widened to f64, as LightGBM keeps it.
pub(super) const ZERO_BAND: f64 = 1e-35_f32 as f64;

/// What a split counts as missing (`decision_type` bits 2-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Missing {
    None,
    Zero,
    NaN,
}

/// Where a branch leads: another split or a leaf, by index within the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Child {
    Split(usize),
    Leaf(usize),
}

/// An internal node: a numerical split.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Split {
    /// Index into the model's `feature_names`.
    pub feature: usize,
    pub threshold: f64,
    pub missing: Missing,
    pub default_left: bool,
    pub left: Child,
    pub right: Child,
    /// Training rows that reached the node (`internal_count`): TreeSHAP's cover.
    pub count: f64,
}

impl Split {
    /// Whether a row whose feature holds `x` goes left (the rule of the module doc).
    pub fn goes_left(&self, x: f64) -> bool {
        let x = if x.is_nan() && self.missing != Missing::NaN { 0.0 } else { x };
        match self.missing {
            Missing::NaN if x.is_nan() => self.default_left,
            Missing::Zero if (-ZERO_BAND..=ZERO_BAND).contains(&x) => self.default_left,
            _ => x <= self.threshold,
        }
    }

    /// The branch a row whose feature holds `x` takes.
    pub fn child(&self, x: f64) -> Child {
        if self.goes_left(x) {
            self.left
        } else {
            self.right
        }
    }
}

/// One tree: its splits (node 0 is the root when there is any) and leaves. A tree of one leaf
/// has no splits.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tree {
    pub splits: Vec<Split>,
    /// Leaf outputs, the learning rate already applied.
    pub leaf_value: Vec<f64>,
    /// Training rows per leaf (`leaf_count`): TreeSHAP's cover.
    pub leaf_count: Vec<f64>,
}

impl Tree {
    /// Checks that the splits form one tree over `n_features` features whose leaves are exactly
    /// `leaf_value`'s: every child in range, every split and leaf reached once from the root. So
    /// a walk down from the root always ends, at a leaf, within `splits.len()` steps.
    pub fn new(
        tree: usize,
        splits: Vec<Split>,
        leaf_value: Vec<f64>,
        leaf_count: Vec<f64>,
        n_features: usize,
    ) -> Result<Tree, TreesError> {
        let bad = |reason: String| TreesError::Structure { at: Place::Tree(tree), reason };
        if splits.len() + 1 != leaf_value.len() || leaf_count.len() != leaf_value.len() {
            return Err(bad(format!(
                "{} splits, {} leaf values and {} leaf counts do not make a tree",
                splits.len(),
                leaf_value.len(),
                leaf_count.len()
            )));
        }
        if let Some((i, s)) = splits.iter().enumerate().find(|(_, s)| s.feature >= n_features) {
            return Err(bad(format!("split {i} uses feature {}, the model has {n_features}", s.feature)));
        }
        let mut seen_split = vec![false; splits.len()];
        let mut seen_leaf = vec![false; leaf_value.len()];
        let mut stack = if splits.is_empty() { vec![Child::Leaf(0)] } else { vec![Child::Split(0)] };
        while let Some(c) = stack.pop() {
            let seen = match c {
                Child::Split(i) => seen_split.get_mut(i),
                Child::Leaf(i) => seen_leaf.get_mut(i),
            };
            match seen {
                None => return Err(bad(format!("a child points to {c:?}, which does not exist"))),
                Some(true) => return Err(bad(format!("{c:?} is reached twice"))),
                Some(s) => *s = true,
            }
            if let Child::Split(i) = c {
                stack.extend([splits[i].left, splits[i].right]);
            }
        }
        if seen_split.contains(&false) || seen_leaf.contains(&false) {
            return Err(bad("some nodes are not reached from the root".to_string()));
        }
        Ok(Tree { splits, leaf_value, leaf_count })
    }

    /// The leaf a row (in the model's feature order) falls into.
    pub fn leaf(&self, row: &[f64]) -> usize {
        if self.splits.is_empty() {
            return 0;
        }
        let mut at = 0;
        loop {
            let s = &self.splits[at];
            match s.child(row[s.feature]) {
                Child::Split(i) => at = i,
                Child::Leaf(i) => return i,
            }
        }
    }

    /// The training rows that reached a node: TreeSHAP's cover.
    pub fn cover(&self, c: Child) -> f64 {
        match c {
            Child::Split(i) => self.splits[i].count,
            Child::Leaf(i) => self.leaf_count[i],
        }
    }

    /// The tree's mean output over its training rows (leaf values weighted by their counts): the
    /// base a TreeSHAP explanation starts from.
    pub fn expected_value(&self) -> f64 {
        if self.splits.is_empty() {
            return self.leaf_value[0];
        }
        let total = self.splits[0].count;
        self.leaf_value.iter().zip(&self.leaf_count).map(|(v, n)| v * n / total).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(missing: Missing, default_left: bool, threshold: f64) -> Split {
        Split {
            feature: 0,
            threshold,
            missing,
            default_left,
            left: Child::Leaf(0),
            right: Child::Leaf(1),
            count: 2.0,
        }
    }

    #[test]
    fn the_rule_of_each_missing_type() {
        // Plain values: left when x <= threshold, whatever the missing type.
        for m in [Missing::None, Missing::Zero, Missing::NaN] {
            for d in [false, true] {
                let s = split(m, d, 1.5);
                assert!(s.goes_left(1.5) && s.goes_left(-3.0) && !s.goes_left(1.5000001), "{m:?} {d}");
            }
        }
        // None: NaN is 0.0, so it follows 0.0 <= threshold, not the default.
        assert!(split(Missing::None, false, 0.5).goes_left(f64::NAN));
        assert!(!split(Missing::None, true, -0.5).goes_left(f64::NAN));
        assert!(split(Missing::None, false, 0.0).goes_left(0.0));
        // NaN: NaN takes the default; 0.0 is a plain value.
        assert!(split(Missing::NaN, true, -1.0).goes_left(f64::NAN));
        assert!(!split(Missing::NaN, false, 1.0).goes_left(f64::NAN));
        assert!(!split(Missing::NaN, true, -1.0).goes_left(0.0));
        // Zero: 0.0, anything within 1e-35 and NaN take the default.
        for x in [0.0, -0.0, 1e-36, -1e-36, f64::NAN] {
            assert!(split(Missing::Zero, true, -1.0).goes_left(x), "{x}");
            assert!(!split(Missing::Zero, false, 1.0).goes_left(x), "{x}");
        }
        assert!(!split(Missing::Zero, true, -1.0).goes_left(1e-30));
    }

    #[test]
    fn a_tree_must_be_one_tree() {
        let s = |left, right| Split { left, right, ..split(Missing::None, false, 0.0) };
        let two = vec![s(Child::Split(1), Child::Leaf(0)), s(Child::Leaf(1), Child::Leaf(2))];
        let t = Tree::new(0, two.clone(), vec![1.0, 2.0, 3.0], vec![1.0; 3], 1).unwrap();
        assert_eq!(t.leaf(&[1.0]), 0);
        assert_eq!(t.leaf(&[-1.0]), 1);
        let cycle = vec![s(Child::Split(1), Child::Leaf(0)), s(Child::Split(0), Child::Leaf(1))];
        assert!(Tree::new(0, cycle, vec![0.0; 3], vec![1.0; 3], 1).is_err());
        let out_of_range = vec![s(Child::Split(1), Child::Leaf(0)), s(Child::Leaf(1), Child::Leaf(5))];
        assert!(Tree::new(0, out_of_range, vec![0.0; 3], vec![1.0; 3], 1).is_err());
        let twice = vec![s(Child::Split(1), Child::Leaf(0)), s(Child::Leaf(0), Child::Leaf(1))];
        assert!(Tree::new(0, twice, vec![0.0; 3], vec![1.0; 3], 1).is_err());
        let wide = vec![Split { feature: 1, ..two[0].clone() }, two[1].clone()];
        assert!(Tree::new(0, wide, vec![0.0; 3], vec![1.0; 3], 1).is_err());
    }
}
