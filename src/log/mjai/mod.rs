//! mjai: the JSON-lines event log of Mortal (`libriichi`), RiichiEnv, akochan and the mjai.app
//! competition, one game per file (Mortal's training sets gzip each: `GAME_ID.json.gz`).
//!
//! [`parse_mjai`] reads it into the same [`Game`](crate::log::event::Game) events as the Tenhou readers,
//! so every command takes it through [`crate::log::source`] unchanged; [`write_mjai`] writes
//! any game back out. What mjai cannot carry (a win's han / fu / yaku, dice, table level, dan,
//! rate) is listed in `docs/mjai.md`.

pub mod error;
pub mod read;
pub mod tiles;
pub mod write;

#[cfg(test)]
mod tests;
