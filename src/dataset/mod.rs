//! The dataset stage: every decision of every game as typed rows ([`rows`]), written to parquet
//! tables (games, rounds, decisions, options) with polars ([`parquet`]) by `haifu ingest`
//! ([`ingest`]), and read back by the stages above through a [`filter::Filter`].

pub mod filter;
pub mod ingest;
pub mod parquet;
pub mod rows;
