//! haifu's players at an mjai table: `haifu bot`, `haifu.Bot` in Python, and the RiichiEnv arena
//! (`scripts/riichienv_arena.py`) all run [`MjaiBot`].
//!
//! The seat follows its stream (its own tiles, everything public, `?` for the rest) on the
//! replay's table with stand-ins for the hidden hands ([`hidden`]), asks a self-play player
//! ([`crate::sim::bots`]) what the engine would ask it ([`react`]), and answers in mjai
//! ([`answer`]). [`seat_stream`] turns a full log into one seat's stream, as a server sends it.

pub mod answer;
pub mod hidden;
pub mod react;
pub mod stream;

pub use crate::sim::bots::plays_three;
pub use answer::Answer;
pub use react::{BotError, MjaiBot};
pub use stream::seat_stream;
