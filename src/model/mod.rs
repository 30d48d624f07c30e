//! The model: a linear hand-value function over an option's feature row. [`weights`] is the file a
//! fit writes (names, values, the data and loss it came from), [`gates`] the interaction columns
//! that make weights depend on the situation, [`linear`] scores and explains options with them,
//! and [`metrics`] the agreement figures stored with them.

pub mod error;
pub mod gates;
pub mod linear;
pub mod metrics;
pub mod weights;
