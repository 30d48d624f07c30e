//! Reading game records: typed events ([`event`]) and the readers that produce them:
//! [`mjlog`] (Tenhou XML), [`tenhou6`] (tenhou.net/6 JSON), [`mjai`] (Mortal's JSON lines) and [`source`] (files, folders, gzip,
//! zip archives, SQLite databases), with one error type ([`error::LogError`]).
//!
//! Typical use: [`load_all`] for a whole batch, or `expand(&paths).sources.par_iter().map(Source::load)`
//! to stream.

pub mod error;
pub mod event;
pub mod mjai;
pub mod mjlog;
pub mod source;
pub mod tenhou6;

pub use error::{LogError, XmlPlace};
pub use event::*;
pub use mjai::{parse_mjai, write_mjai};
pub use mjlog::{decode_meld, parse_mjlog};
pub use source::{expand, load_all, parse_game, Inputs, LoadedGames, SkipReason, Skipped, Source};
pub use tenhou6::parse_tenhou6;

#[cfg(test)]
mod corpus_tests;
