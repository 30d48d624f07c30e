//! Batch statistics over log archives: player and table statistics ([`players`]).

pub mod players;
