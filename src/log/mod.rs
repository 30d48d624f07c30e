//! Reading game records: typed events ([`event`]) and the readers that produce them.

pub mod event;

pub use event::*;
