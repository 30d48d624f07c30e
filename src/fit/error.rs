//! What can go wrong fitting weights: each error names the file (the dataset, the fit cache, the
//! report) and the place in it; errors of the stages below (dataset, model) pass through as
//! they are.

use std::path::PathBuf;

#[cfg(feature = "parquet")]
use crate::dataset::error::DatasetError;
use crate::model::error::ModelError;

/// The fit stage's result.
pub type Result<T, E = FitError> = std::result::Result<T, E>;

/// An error of the fit stage (load, store, train, run).
#[derive(Debug, thiserror::Error)]
pub enum FitError {
    #[error("cannot create {}", path.display())]
    Create { path: PathBuf, source: std::io::Error },
    #[error("cannot create the fit cache {}", path.display())]
    CacheCreate { path: PathBuf, source: std::io::Error },
    #[error("writing the fit cache {}", path.display())]
    CacheWrite { path: PathBuf, source: std::io::Error },
    #[error("reading the fit cache {} at byte {offset}", path.display())]
    CacheRead { path: PathBuf, offset: u64, source: std::io::Error },
    #[error("the fit cache {} at byte {offset}", path.display())]
    CacheChunk { path: PathBuf, offset: u64, source: Box<FitError> },
    #[error("truncated chunk")]
    TruncatedChunk,
    #[error("feature {feature} is not a column of {}", options.display())]
    NotAColumn { feature: String, options: PathBuf },
    /// `filter` as reports name it ([`crate::model::filter::Filter`]'s `Display`, which names the
    /// variant: a dataset of the other one is the common cause, `--players` the cure).
    #[error("no training decisions match: {filter} in {} (a 3-player dataset needs --players 3)", data.display())]
    NoTraining { filter: String, data: PathBuf },
    /// The seed's loss pins a column the data lacks (dropped, or an older dataset).
    #[error("the seed's loss pins {0}, which is not among the fitted columns")]
    NoPinnedColumn(String),
    /// The minimiser failed (its message is part of this one).
    #[error("L-BFGS: {0}")]
    Lbfgs(String),
    #[error("plot: {0}")]
    Plot(String),
    #[cfg(feature = "parquet")]
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    #[error(transparent)]
    Model(#[from] ModelError),
    #[cfg(feature = "parquet")]
    #[error(transparent)]
    Polars(#[from] polars::prelude::PolarsError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// A `--memory` size that is not a number with an optional K, M or G (the text as given).
#[derive(Debug, thiserror::Error)]
#[error("{0:?}: expected a size like 512M or 2G")]
pub struct BadSize(pub String);
