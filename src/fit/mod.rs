//! Fitting the weights of a linear hand-value function to expert picks by minimising a ranking
//! loss over each decision's options: [`data`] holds the options, [`loss`] the losses, [`train`]
//! runs argmin's L-BFGS and measures agreement, [`split`] assigns games to train / validation / test.

#[cfg(feature = "parquet")]
pub mod calibrate;
pub mod data;
pub mod error;
#[cfg(feature = "parquet")]
pub mod load;
pub mod loss;
#[cfg(feature = "parquet")]
pub mod run;
pub mod split;
pub mod store;
pub mod train;
