//! Reading game records: typed events ([`event`]), the rules they were played on ([`rules`]), and the readers that produce them:
//! [`mjlog`] (Tenhou XML), [`tenhou6`] (tenhou.net/6 JSON), [`mjai`] (Mortal's JSON lines), [`paipu`] (電脳麻将's own records) and [`source`] (files, folders, gzip,
//! zip archives, SQLite databases), with one error type ([`error::LogError`]).
//!
//! Typical use: `expand(&paths).sources.par_iter().map(Source::load)` to stream; a whole batch
//! in parallel with per-file errors goes through [`crate::batch`] (`batch::run`, `batch::load_all`).

pub mod error;
pub mod event;
pub mod mjai;
pub mod mjlog;
pub mod paipu;
pub mod rules;
pub mod source;
pub mod tenhou6;

#[cfg(test)]
mod corpus_tests;
