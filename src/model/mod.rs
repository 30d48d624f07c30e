//! The model: a linear hand-value function over an option's feature row. [`weights`] is the file a
//! fit writes (names, values, the data and loss it came from), [`gates`] the interaction columns
//! that make weights depend on the situation, [`derived`] the decision-relative columns a linear
//! fit can add (the trees' margin family), [`linear`] scores and explains options with them,
//! [`metrics`] the agreement figures stored with them, [`calibration`] the temperature that turns
//! their scores into probabilities, and [`filter`] which decisions (kind, tables, seats) a fit
//! used and an evaluation reads. [`trees`] scores and explains options with gradient-boosted
//! trees trained outside (a LightGBM text model). [`judges`] bundles them into the judges of a
//! player's decisions, for the review pages and the statistics alike.

pub mod calibration;
pub mod defaults;
pub mod derived;
pub mod error;
pub mod filter;
pub mod gates;
pub mod judges;
pub mod linear;
pub mod metrics;
pub mod stake;
pub mod trees;
pub mod weights;
