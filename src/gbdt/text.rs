//! LightGBM's text model format, read into [`Tree`]s.
//!
//! The file is `key=value` lines: a header (from the first line, `tree`, to the first `Tree=N`),
//! then one block per tree (`Tree=N` and its arrays, space-separated), then `end of trees` and
//! sections this reader does not need (feature importances, parameters). In a tree block the
//! arrays of internal nodes (`split_feature`, `threshold`, `decision_type`, `left_child`,
//! `right_child`, `internal_count`) have `num_leaves - 1` entries and the leaf arrays
//! (`leaf_value`, `leaf_count`) `num_leaves`; a child `c >= 0` is internal node `c`, a child
//! `c < 0` is leaf `!c` (= `-c - 1`). `decision_type` bit 0 marks a categorical split, bit 1
//! default-left, bits 2-3 the missing type (0 None, 1 Zero, 2 NaN). Leaf values already include
//! the learning rate (`shrinkage` is informational). `tree_sizes` (byte lengths of the blocks) is
//! not needed: the blocks are read in turn.

use std::collections::HashMap;
use std::str::FromStr;

use super::error::{Place, TreesError, Unsupported};
use super::tree::{Child, Missing, Split, Tree};

/// How a model turns its raw score (the sum of its trees) into LightGBM's `predict` output.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Objective {
    /// lambdarank, rank_xendcg, and `custom` (a Python-side objective such as `scripts/trees.py
    /// --objective softmax`, whose model LightGBM predicts as raw scores): the raw score itself.
    Ranking,
    /// binary: the probability `1 / (1 + exp(-sigmoid * raw))`.
    Binary { sigmoid: f64 },
    /// regression (L2): the raw score itself, the predicted value (the danger models' points).
    Regression,
}

/// The parts of a model file the scorer needs.
#[derive(Debug)]
pub(super) struct Model {
    pub feature_names: Vec<String>,
    pub objective: Objective,
    pub trees: Vec<Tree>,
}

type Block<'a> = HashMap<&'a str, &'a str>;

/// Reads a model's text (see the module doc). Categorical splits, linear trees, several outputs
/// and averaged (random forest) outputs are refused with [`TreesError::Unsupported`].
pub(super) fn parse(text: &str) -> Result<Model, TreesError> {
    let mut lines = text.lines().map(str::trim_end);
    if lines.next() != Some("tree") {
        return Err(TreesError::NotAModel);
    }
    let mut header = Block::new();
    let mut blocks: Vec<Block> = Vec::new();
    for line in lines {
        if line == "end of trees" {
            break;
        }
        if line == "average_output" {
            return Err(Unsupported::AverageOutput.into());
        }
        if line.starts_with("Tree=") {
            blocks.push(Block::new());
        } else if let Some((k, v)) = line.split_once('=') {
            blocks.last_mut().unwrap_or(&mut header).insert(k, v);
        }
    }
    let at = Place::Header;
    let classes: usize = one(&header, at, "num_class")?;
    let per_iteration: usize = one(&header, at, "num_tree_per_iteration")?;
    if classes != 1 || per_iteration != 1 {
        return Err(Unsupported::Multiclass { classes, per_iteration }.into());
    }
    let n_features = one::<usize>(&header, at, "max_feature_idx")? + 1;
    let feature_names: Vec<String> =
        get(&header, at, "feature_names")?.split_whitespace().map(str::to_string).collect();
    if feature_names.len() != n_features {
        let found = feature_names.len();
        return Err(TreesError::Length { at, key: "feature_names", expected: n_features, found });
    }
    let objective = objective(get(&header, at, "objective")?)?;
    let trees = blocks.iter().enumerate().map(|(i, b)| tree(i, b, n_features)).collect::<Result<_, _>>()?;
    Ok(Model { feature_names, objective, trees })
}

/// The `objective=` line: its first word names the objective, `sigmoid:S` the binary scale.
fn objective(line: &str) -> Result<Objective, TreesError> {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("lambdarank" | "rank_xendcg" | "custom") => Ok(Objective::Ranking),
        Some("regression" | "regression_l2") => Ok(Objective::Regression),
        Some("binary") => {
            let s = words.find_map(|w| w.strip_prefix("sigmoid:")).unwrap_or("1");
            let sigmoid = number(Place::Header, "objective", s)?;
            Ok(Objective::Binary { sigmoid })
        }
        _ => Err(Unsupported::Objective(line.to_string()).into()),
    }
}

/// One `Tree=` block.
fn tree(i: usize, b: &Block, n_features: usize) -> Result<Tree, TreesError> {
    let at = Place::Tree(i);
    let leaves: usize = one(b, at, "num_leaves")?;
    if b.get("is_linear").is_some_and(|v| v.trim() != "0") {
        return Err(Unsupported::Linear { tree: i }.into());
    }
    let inner = leaves.saturating_sub(1);
    let decision: Vec<u8> = list(b, at, "decision_type", inner)?;
    if let Some(node) = decision.iter().position(|d| d & 1 != 0) {
        return Err(Unsupported::Categorical { tree: i, node }.into());
    }
    if one::<usize>(b, at, "num_cat")? != 0 {
        return Err(Unsupported::Categorical { tree: i, node: 0 }.into());
    }
    let feature: Vec<usize> = list(b, at, "split_feature", inner)?;
    let threshold: Vec<f64> = list(b, at, "threshold", inner)?;
    let left: Vec<i64> = list(b, at, "left_child", inner)?;
    let right: Vec<i64> = list(b, at, "right_child", inner)?;
    let count: Vec<f64> = list(b, at, "internal_count", inner)?;
    let leaf_value: Vec<f64> = list(b, at, "leaf_value", leaves)?;
    let leaf_count: Vec<f64> = list(b, at, "leaf_count", leaves)?;
    let mut splits = Vec::with_capacity(inner);
    for n in 0..inner {
        let missing = match (decision[n] >> 2) & 3 {
            0 => Missing::None,
            1 => Missing::Zero,
            2 => Missing::NaN,
            m => return Err(TreesError::Structure { at, reason: format!("node {n}: missing type {m}") }),
        };
        splits.push(Split {
            feature: feature[n],
            threshold: threshold[n],
            missing,
            default_left: decision[n] & 2 != 0,
            left: child(left[n]),
            right: child(right[n]),
            count: count[n],
        });
    }
    Tree::new(i, splits, leaf_value, leaf_count, n_features)
}

/// A child index as the format writes it; an index out of range is [`Tree::new`]'s to find.
fn child(c: i64) -> Child {
    if c >= 0 {
        Child::Split(usize::try_from(c).unwrap_or(usize::MAX))
    } else {
        Child::Leaf(usize::try_from(!c).unwrap_or(usize::MAX))
    }
}

fn get<'a>(b: &Block<'a>, at: Place, key: &'static str) -> Result<&'a str, TreesError> {
    b.get(key).copied().ok_or(TreesError::MissingKey { at, key })
}

fn number<T>(at: Place, key: &'static str, s: &str) -> Result<T, TreesError>
where
    T: FromStr,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    s.parse().map_err(|e: T::Err| TreesError::Number { at, key, value: s.to_string(), source: Box::new(e) })
}

fn one<T>(b: &Block, at: Place, key: &'static str) -> Result<T, TreesError>
where
    T: FromStr,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    number(at, key, get(b, at, key)?.trim())
}

/// A space-separated array that must have `n` entries (an empty value is an empty array).
fn list<T>(b: &Block, at: Place, key: &'static str, n: usize) -> Result<Vec<T>, TreesError>
where
    T: FromStr,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    let v: Vec<T> =
        get(b, at, key)?.split_whitespace().map(|s| number(at, key, s)).collect::<Result<_, _>>()?;
    if v.len() != n {
        return Err(TreesError::Length { at, key, expected: n, found: v.len() });
    }
    Ok(v)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A hand-written model: tree 0 splits f1 at 0.5 (missing NaN, default left), then f0 at -1
    /// (missing None); tree 1 is a single leaf. Its outputs are worked out by hand in the tests.
    pub const SMALL: &str = "tree
version=v4
num_class=1
num_tree_per_iteration=1
label_index=0
max_feature_idx=1
objective=lambdarank
feature_names=a b
feature_infos=[-2:2] [-2:2]
tree_sizes=1 1

Tree=0
num_leaves=3
num_cat=0
split_feature=1 0
split_gain=1 1
threshold=0.5 -1
decision_type=10 0
left_child=1 -2
right_child=-1 -3
leaf_value=0.25 -0.5 0.75
leaf_weight=1 1 1
leaf_count=10 30 60
internal_value=0 0
internal_weight=1 1
internal_count=100 90
is_linear=0
shrinkage=0.1


Tree=1
num_leaves=1
num_cat=0
split_feature=
split_gain=
threshold=
decision_type=
left_child=
right_child=
leaf_value=0.125
leaf_weight=
leaf_count=100
internal_value=
internal_weight=
internal_count=
is_linear=0
shrinkage=1


end of trees

feature_importances:
b=1
a=1

parameters:
[boosting: gbdt]
end of parameters
";

    #[test]
    fn reads_a_small_model() {
        let m = parse(SMALL).unwrap();
        assert_eq!(m.feature_names, ["a", "b"]);
        assert_eq!(m.objective, Objective::Ranking);
        assert_eq!(m.trees.len(), 2);
        let root = &m.trees[0].splits[0];
        assert_eq!(
            (root.feature, root.threshold, root.missing, root.default_left),
            (1, 0.5, Missing::NaN, true)
        );
        assert_eq!((root.left, root.right), (Child::Split(1), Child::Leaf(0)));
        let second = &m.trees[0].splits[1];
        assert_eq!(
            (second.missing, second.default_left, second.left),
            (Missing::None, false, Child::Leaf(1))
        );
        assert_eq!(m.trees[1].leaf_value, [0.125]);
        assert!(m.trees[1].splits.is_empty());
    }

    fn with(from: &str, to: &str) -> String {
        assert!(SMALL.contains(from), "{from}");
        SMALL.replacen(from, to, 1)
    }

    #[test]
    fn refuses_what_it_cannot_read_with_a_typed_error() {
        let cases = [
            (with("decision_type=10 0", "decision_type=10 1"), "categorical"),
            (with("is_linear=0", "is_linear=1"), "linear"),
            (with("num_class=1", "num_class=3"), "classes"),
            (with("objective=lambdarank", "objective=multiclass num_class:3"), "objective"),
            (with("version=v4\n", "version=v4\naverage_output\n"), "random forest"),
            (with("threshold=0.5 -1", "threshold=0.5 x"), "not a number"),
            (with("left_child=1 -2", "left_child=1"), "values"),
            (with("right_child=-1 -3", "right_child=-1 -4"), "does not exist"),
            (with("split_feature=1 0", "split_feature=1 2"), "feature 2"),
            (with("leaf_count=10 30 60\n", ""), "no leaf_count"),
            (SMALL.replacen("tree\n", "model\n", 1), "not a LightGBM"),
        ];
        for (text, says) in cases {
            let e = parse(&text).unwrap_err();
            let shown = format!("{e}");
            assert!(shown.contains(says), "{shown:?} should say {says:?}");
        }
        let e = parse(&with("threshold=0.5 -1", "threshold=0.5 x")).unwrap_err();
        assert!(std::error::Error::source(&e).is_some(), "a number error keeps its cause");
    }

    #[test]
    fn a_custom_objective_scores_raw_as_a_ranking() {
        let m = parse(&with("objective=lambdarank", "objective=custom")).unwrap();
        assert_eq!(m.objective, Objective::Ranking);
    }

    #[test]
    fn reads_the_binary_scale() {
        let m = parse(&with("objective=lambdarank", "objective=binary sigmoid:0.5")).unwrap();
        assert_eq!(m.objective, Objective::Binary { sigmoid: 0.5 });
    }

    /// A regression model (the danger models' points) predicts its raw score.
    #[test]
    fn reads_regression() {
        let m = parse(&with("objective=lambdarank", "objective=regression")).unwrap();
        assert_eq!(m.objective, Objective::Regression);
    }
}
