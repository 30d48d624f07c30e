//! The dataset stage: typed records to parquet tables (games, rounds, decisions, options) with
//! polars, written in batches and atomically.

pub mod parquet;
