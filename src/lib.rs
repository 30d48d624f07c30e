//! haifu (牌譜): Tenhou game records into measured knowledge.
//!
//! Stages, one direction: `log` reads records into typed events, `replay` runs them through a
//! validated table state machine, `features` turn each decision's options into vectors, `dataset`
//! writes them to parquet, `fit` learns weights, `eval` compares evaluators with expert picks and
//! `report` writes the results. `tile` and `hand` are the mahjong core every stage shares.

// Tile code indexes count arrays by kind on purpose: the index is the tile.
#![allow(clippy::needless_range_loop)]

pub mod batch;
pub mod bot;
pub mod convert;
pub mod dataset;
pub mod eval;
pub mod features;
pub mod fit;
pub mod gbdt;
pub mod hand;
pub mod log;
pub mod model;
pub mod rank;
pub mod replay;
pub mod report;
pub mod score;
pub mod sim;
pub mod stats;
pub mod tile;
pub mod util;

#[doc(hidden)]
pub mod testdata;
