//! What can go wrong scoring with the evaluators: a dataset without the columns an evaluator
//! needs (the error names the dataset and the columns), a missing weights file, and the errors of
//! the stages below (dataset, fit's loader, the linear model) passed through as they are.

use std::path::PathBuf;

/// An error of the eval stage.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// `users`: the evaluators (or push/fold) that need the `ev` columns.
    #[error(
        "{users} need(s) the column(s) {missing}, which {} does not have (an ingest with --skip, or one \
         before the ev_far columns existed, \
         leaves them out); `haifu report` needs them too: `haifu eval --evaluator ukeire \
         --evaluator linear` without --push-fold scores without them",
        data.display()
    )]
    NeedsEv { users: String, missing: String, data: PathBuf },
    /// A four-player evaluator asked for on three-player decisions (docs/evaluators.md).
    #[error(
        "{users} cannot judge 3-player decisions: 電脳麻将's ev (which push/fold reads) is a \
         four-player search, unset at three players, and the four-player trees models never judge \
         a three-player decision (data/weights/trees-sanma.txt.gz is the three-player discard \
         model; give another with --trees); leave them out \
         (e.g. --evaluator linear --evaluator ukeire)"
    )]
    FourPlayerOnly { users: String },
    /// `missing`: the first eight columns, with how many more.
    #[error(
        "the weights use column(s) {missing} that {} does not have (an ingest with --skip leaves \
         them out): fit weights on this dataset (haifu fit --data ...) or leave out the linear \
         evaluator",
        data.display()
    )]
    WeightsNeed { missing: String, data: PathBuf },
    /// `missing`: the first eight columns, with how many more.
    #[error(
        "the trees model uses column(s) {missing} that {} does not have (an ingest with --skip leaves \
         them out): ingest without --skip, train trees on this dataset (scripts/trees.py), or leave \
         out the trees evaluator",
        data.display()
    )]
    TreesNeed { missing: String, data: PathBuf },
    #[error("the linear evaluator needs a weights file")]
    NoWeights,
    #[error("reading {}", path.display())]
    Options { path: PathBuf, source: Box<EvalError> },
    /// Loading the trees evaluator's model.
    #[error(transparent)]
    Trees(#[from] crate::model::trees::TreesError),
    /// Loading or running the fitted linear evaluator.
    #[error(transparent)]
    Linear(Box<dyn std::error::Error + Send + Sync>),
    #[cfg(feature = "parquet")]
    #[error(transparent)]
    Dataset(#[from] crate::dataset::error::DatasetError),
    #[cfg(feature = "parquet")]
    #[error(transparent)]
    Fit(#[from] crate::fit::error::FitError),
    #[cfg(feature = "parquet")]
    #[error(transparent)]
    Polars(#[from] polars::prelude::PolarsError),
}
