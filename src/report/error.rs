//! What can go wrong writing a report or a review: each error names the file, the game's seat or
//! the decision it is about; the errors of the stages below pass through as they are.

use std::path::PathBuf;

use crate::replay::ReplayError;

/// An error of the report stage (compare, review, review_batch).
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("cannot create {}", path.display())]
    Create { path: PathBuf, source: std::io::Error },
    #[error("plot: {0}")]
    Plot(String),
    /// A table (parquet) that could not be written.
    #[error("{}: {error}", path.display())]
    Table { path: PathBuf, error: String },
    #[error("seat {seat} is not a seat of a {players}-player game (0..={})", players.saturating_sub(1))]
    NoSuchSeat { seat: u8, players: u8 },
    /// A game of `players` seats without judges of its own (a four-player model never judges
    /// a sanma decision).
    #[error("no judges for {players}-player games (sanma.json, sanma-riichi.json, sanma-call.json and sanma-kita.json beside the discard weights or shipped)")]
    NoJudges { players: u8 },
    /// The option rows of the game could not be computed.
    #[error(transparent)]
    Rows(crate::dataset::rows::RowsError),
    #[error("replay: {0}")]
    Replay(ReplayError),
    #[error("{replayed} decisions replayed, {rows} rows")]
    RowCount { replayed: usize, rows: usize },
    #[error("decision {index}: the rows and the replay disagree")]
    Disagree { index: usize },
    #[error("decision after the last round")]
    AfterLastRound,
    /// Loading the judges (the fitted models).
    #[error(transparent)]
    Judges(#[from] crate::model::judges::JudgesError),
    #[cfg(feature = "parquet")]
    #[error(transparent)]
    Eval(#[from] crate::eval::error::EvalError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// The report stage's result.
pub type Result<T, E = ReportError> = std::result::Result<T, E>;
