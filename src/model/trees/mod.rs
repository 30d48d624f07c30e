//! The discard, riichi and call rankers of gradient-boosted trees: a LightGBM model
//! ([`crate::gbdt::Trees`], which reads and scores the file) laid against haifu's option columns
//! and families.
//!
//! The model is trained outside haifu (LightGBM in Python, over the option and decision tables).
//! - [`columns`]: the model against haifu's columns and families, and the scores of a decision's
//!   options; [`inputs`]: the derived and situation columns the training adds;
//! - [`TreesRanker`]: an evaluator over a decision's options, with TreeSHAP contributions by family.
//!
//! The tests hold LightGBM itself as the referee: `testdata/` has two small models and LightGBM's
//! outputs on rows both sides regenerate from a seed (`scripts/trees_fixture.py` writes them).

pub mod calibration_file;
mod columns;
pub mod inputs;
mod ranker;

#[cfg(test)]
mod fixture;

pub use crate::gbdt::{Objective, Place, Trees, TreesError, Unsupported};
pub use columns::{Layout, CONTEXT_FAMILY, MARGIN_FAMILY, RELATIVE_FAMILY, TABLE_FAMILY};
pub use ranker::{
    beside, default_path, default_path_for, sanma_path_for, Difference, Differences, FamilySums, TreesByKind,
    TreesRanker, DEFAULT_PATH, SANMA_PATH,
};
