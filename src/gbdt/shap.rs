//! Path-dependent TreeSHAP (Lundberg, Erion and Lee, "Consistent Individualized Feature
//! Attribution for Tree Ensembles", 2018, Algorithm 2): each feature's exact Shapley share of one
//! row's score, where a feature left out of a coalition follows the training rows down both
//! branches in proportion to their counts (the "cover": `internal_count`, `leaf_count`).
//!
//! The walk keeps the path of unique features from the root, each element with the fraction of
//! "zero" paths (the feature left out: the cover share of the branch) and "one" paths (the
//! feature in: 1 on the row's branch, 0 on the other) that flow through it, and a weight per
//! coalition size; `extend` adds a feature, `unwind` takes one out again (a feature met twice
//! on a path is unwound and extended with the product of its fractions). At a leaf, each feature
//! on the path gets `(one - zero) * (sum of the weights with it unwound) * leaf value`.
//!
//! Contract: the shares of a tree plus its expected value (its leaves weighted by count) sum to
//! the leaf the row reaches, so over the model contributions + bias = raw score.

use super::tree::{Child, Tree};

#[derive(Clone, Copy, Debug)]
struct Elem {
    /// The feature this element splits on; `None` for the root's placeholder.
    feature: Option<usize>,
    zero: f64,
    one: f64,
    weight: f64,
}

/// Adds `tree`'s shares of `row` (model feature order) to `phi` (one per feature).
pub(super) fn add_tree(tree: &Tree, row: &[f64], phi: &mut [f64]) {
    if tree.splits.is_empty() {
        return;
    }
    // A node at depth d holds a path of at most d + 1 elements (the placeholder and one per
    // unique feature above it), written right after its parent's in one buffer, so the leaves of
    // a tree of depth D need (D + 1)(D + 2) / 2 elements at most (one level more is allocated).
    // No allocation on the walk: a new path a node was a fifth of the time (docs/performance.md).
    let depth = depth(tree, Child::Split(0));
    let mut buf =
        vec![Elem { feature: None, zero: 0.0, one: 0.0, weight: 0.0 }; (depth + 2) * (depth + 3) / 2];
    recurse(tree, row, phi, Child::Split(0), &mut buf, 0, (1.0, 1.0, None));
}

/// The number of splits on the longest path from `node` down to a leaf.
fn depth(tree: &Tree, node: Child) -> usize {
    match node {
        Child::Leaf(_) => 0,
        Child::Split(j) => 1 + depth(tree, tree.splits[j].left).max(depth(tree, tree.splits[j].right)),
    }
}

/// Visits `node` with its parent's path, `buf[..len]`, extended by `(zero, one, feature)`; the
/// node's own path goes right after it in `buf`.
fn recurse(
    tree: &Tree,
    row: &[f64],
    phi: &mut [f64],
    node: Child,
    buf: &mut [Elem],
    len: usize,
    (zero, one, feature): (f64, f64, Option<usize>),
) {
    let (parent, mine) = buf.split_at_mut(len);
    mine[..len].copy_from_slice(parent);
    extend(mine, len, zero, one, feature);
    let mut len = len + 1;
    match node {
        Child::Leaf(l) => {
            let v = tree.leaf_value[l];
            let path = &mine[..len];
            for (i, e) in path.iter().enumerate().skip(1) {
                if let Some(f) = e.feature {
                    phi[f] += unwound_sum(path, i) * (e.one - e.zero) * v;
                }
            }
        }
        Child::Split(j) => {
            let s = &tree.splits[j];
            let (hot, cold) = if s.goes_left(row[s.feature]) { (s.left, s.right) } else { (s.right, s.left) };
            let (mut in_zero, mut in_one) = (1.0, 1.0);
            if let Some(k) = mine[..len].iter().position(|e| e.feature == Some(s.feature)) {
                in_zero = mine[k].zero;
                in_one = mine[k].one;
                unwind(&mut mine[..len], k);
                len -= 1;
            }
            let cover = s.count;
            let f = Some(s.feature);
            recurse(tree, row, phi, hot, mine, len, (in_zero * tree.cover(hot) / cover, in_one, f));
            recurse(tree, row, phi, cold, mine, len, (in_zero * tree.cover(cold) / cover, 0.0, f));
        }
    }
}

/// Grows the path `path[..l]` by one feature (into `path[l]`), moving the coalition-size
/// weights up by the new element's "one" fraction and keeping them by its "zero" fraction.
fn extend(path: &mut [Elem], l: usize, zero: f64, one: f64, feature: Option<usize>) {
    path[l] = Elem { feature, zero, one, weight: if l == 0 { 1.0 } else { 0.0 } };
    let n = (l + 1) as f64;
    for i in (0..l).rev() {
        path[i + 1].weight += one * path[i].weight * (i + 1) as f64 / n;
        path[i].weight = zero * path[i].weight * (l - i) as f64 / n;
    }
}

/// The sum of the weights [`unwind`] gives, without building the path: the weights depend only
/// on the old weights and element `k`'s fractions.
fn unwound_sum(path: &[Elem], k: usize) -> f64 {
    let l = path.len();
    let n = l as f64;
    let (zero, one) = (path[k].zero, path[k].one);
    let mut carry = path[l - 1].weight;
    let mut total = 0.0;
    for j in (0..l - 1).rev() {
        let size = (j + 1) as f64;
        if one != 0.0 {
            let w = carry * n / (size * one);
            total += w;
            carry = path[j].weight - w * zero * (n - size) / n;
        } else {
            total += path[j].weight * n / (zero * (n - size));
        }
    }
    total
}

/// Takes element `k` out of `path` (`extend` undone for it), in place: the path is then
/// `path[..path.len() - 1]`.
fn unwind(path: &mut [Elem], k: usize) {
    let l = path.len();
    let n = l as f64;
    let (zero, one) = (path[k].zero, path[k].one);
    let mut carry = path[l - 1].weight;
    for j in (0..l - 1).rev() {
        let size = (j + 1) as f64;
        if one != 0.0 {
            let t = path[j].weight;
            path[j].weight = carry * n / (size * one);
            carry = t - path[j].weight * zero * (n - size) / n;
        } else {
            path[j].weight = path[j].weight * n / (zero * (n - size));
        }
    }
    for j in k..l - 1 {
        path[j].feature = path[j + 1].feature;
        path[j].zero = path[j + 1].zero;
        path[j].one = path[j + 1].one;
    }
}

#[cfg(test)]
mod tests {
    use super::super::tree::{Missing, Split};
    use super::*;

    /// Exact Shapley values by brute force over coalitions, with the same "feature left out:
    /// follow both branches by cover" value function: an oracle written from the definition.
    fn brute_force(tree: &Tree, row: &[f64], n: usize) -> Vec<f64> {
        fn value(tree: &Tree, row: &[f64], set: u32, node: Child) -> f64 {
            match node {
                Child::Leaf(l) => tree.leaf_value[l],
                Child::Split(j) => {
                    let s = &tree.splits[j];
                    if set & (1 << s.feature) != 0 {
                        value(tree, row, set, s.child(row[s.feature]))
                    } else {
                        let c = s.count;
                        tree.cover(s.left) / c * value(tree, row, set, s.left)
                            + tree.cover(s.right) / c * value(tree, row, set, s.right)
                    }
                }
            }
        }
        let fact = |k: usize| (1..=k).map(|x| x as f64).product::<f64>();
        let mut phi = vec![0.0; n];
        for (i, p) in phi.iter_mut().enumerate() {
            for set in 0u32..(1 << n) {
                if set & (1 << i) != 0 {
                    continue;
                }
                let k = set.count_ones() as usize;
                let w = fact(k) * fact(n - k - 1) / fact(n);
                *p += w
                    * (value(tree, row, set | 1 << i, Child::Split(0))
                        - value(tree, row, set, Child::Split(0)));
            }
        }
        phi
    }

    /// A tree over 3 features that splits feature 0 twice on one path (the unwind case).
    fn tree() -> Tree {
        let s = |feature, threshold, left, right, count| Split {
            feature,
            threshold,
            missing: Missing::None,
            default_left: false,
            left,
            right,
            count,
        };
        let splits = vec![
            s(0, 0.0, Child::Split(1), Child::Split(2), 100.0),
            s(1, 0.0, Child::Leaf(0), Child::Split(3), 60.0),
            s(2, 1.0, Child::Leaf(1), Child::Leaf(2), 40.0),
            s(0, -1.0, Child::Leaf(3), Child::Leaf(4), 45.0),
        ];
        let values = vec![1.0, -2.0, 0.5, 3.0, -1.5];
        let counts = vec![15.0, 10.0, 30.0, 20.0, 25.0];
        Tree::new(0, splits, values, counts, 3).unwrap()
    }

    #[test]
    fn the_unwound_sum_is_the_sum_of_the_unwound_weights() {
        let mut path = vec![Elem { feature: None, zero: 0.0, one: 0.0, weight: 0.0 }; 5];
        for (i, (z, o)) in
            [(1.0, 1.0), (0.6, 1.0), (0.3, 0.0), (0.7, 1.0), (0.25, 0.0)].into_iter().enumerate()
        {
            extend(&mut path, i, z, o, if i == 0 { None } else { Some(i) });
        }
        for k in 1..path.len() {
            let mut unwound = path.clone();
            unwind(&mut unwound, k);
            let want: f64 = unwound[..path.len() - 1].iter().map(|e| e.weight).sum();
            assert!((unwound_sum(&path, k) - want).abs() < 1e-15, "{k}");
        }
    }

    #[test]
    fn equals_the_shapley_values_by_brute_force() {
        let t = tree();
        for row in [[-2.0, 1.0, 0.0], [-0.5, 1.0, 2.0], [1.0, -1.0, 2.0], [0.5, 0.5, 0.5], [-3.0, -3.0, 3.0]]
        {
            let mut phi = vec![0.0; 3];
            add_tree(&t, &row, &mut phi);
            let want = brute_force(&t, &row, 3);
            for (a, b) in phi.iter().zip(&want) {
                assert!((a - b).abs() < 1e-12, "{row:?}: {phi:?} vs {want:?}");
            }
            let sum: f64 = phi.iter().sum::<f64>() + t.expected_value();
            assert!((sum - t.leaf_value[t.leaf(&row)]).abs() < 1e-12, "{row:?}");
        }
    }
}
