//! Reports: `haifu report` (evaluators side by side, [`compare`]) and `haifu review` (one game
//! seen through one player's decisions: data in [`review`], HTML in [`review_html`], many games
//! and their index in [`review_batch`], one player over many games in [`review_summary`]).

#[cfg(feature = "parquet")]
pub mod compare;
pub mod error;
pub mod review;
pub mod review_batch;
pub mod review_html;
pub mod review_summary;
