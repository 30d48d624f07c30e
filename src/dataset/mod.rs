//! The dataset stage: every decision of every game as typed rows ([`rows`]), written to parquet
//! tables (games, rounds, decisions, options) as folders of parts ([`parts`]) with polars
//! ([`parquet`]), option columns in their declared types ([`storage`]), by `haifu ingest`
//! ([`ingest`], leaving out the costly column groups of [`skip`] on request), and read back by the stages above through [`parts`] and a `model::filter::Filter`.

pub mod columns;
#[cfg(feature = "parquet")]
pub mod error;
#[cfg(feature = "parquet")]
pub mod ingest;
#[cfg(feature = "parquet")]
pub mod parquet;
#[cfg(feature = "parquet")]
pub mod parts;
pub mod rows;
/// The column groups an ingest holds, defined with the features they leave out.
pub use crate::features::groups as skip;
pub mod storage;
