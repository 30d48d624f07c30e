//! Self-play: a 4-player Tenhou-rules engine ([`engine`]), bots built from evaluators
//! ([`bots`]), deterministic walls ([`wall`]), written by the mjlog writer beside the reader
//! ([`crate::log::mjlog::write`]), the duplicate format ([`duplicate`]), per-bot summaries ([`summary`]) and the `haifu simulate`
//! run ([`run`]).
//!
//! The engine records typed [`crate::log::event::Event`]s, validated by the replay's table as it plays;
//! the written mjlog files read back through the real reader and re-score with 0 mismatches
//! (the tests check it), so simulated games can feed every later stage like real records.

pub mod boten;
pub mod bots;
pub mod duplicate;
pub mod engine;
pub mod fitted;
pub mod run;
pub mod seed_pairs;
pub mod seed_table;
pub mod summary;
pub mod wall;

#[cfg(test)]
mod tests;
