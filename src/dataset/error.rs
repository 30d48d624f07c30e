//! What can go wrong reading or writing a dataset folder: each error names the file or folder
//! (and the column, part or row where there is one); the underlying I/O, JSON or polars error is
//! its cause, printed after it (`cannot open X: No such file or directory`).

use std::path::PathBuf;

use polars::prelude::PolarsError;

use super::storage::Inexact;

/// An error of the dataset stage (ingest, parts, parquet).
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    #[error("cannot list {}", path.display())]
    List { path: PathBuf, source: std::io::Error },
    #[error("cannot read {}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("cannot open {}", path.display())]
    Open { path: PathBuf, source: std::io::Error },
    #[error("cannot create {}", path.display())]
    Create { path: PathBuf, source: std::io::Error },
    #[error("cannot remove {}", path.display())]
    Remove { path: PathBuf, source: std::io::Error },
    #[error("cannot write {}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
    #[error("{} is not a part manifest", path.display())]
    Manifest { path: PathBuf, source: serde_json::Error },
    #[error("{} holds no part-*.parquet files", folder.display())]
    NoParts { folder: PathBuf },
    #[error("{} is not a dataset: no {table}/part-*.parquet (or {table}.parquet); run haifu ingest", dir.display())]
    NotADataset { dir: PathBuf, table: String },
    #[error("cannot read the schema of {}", path.display())]
    Schema { path: PathBuf, source: PolarsError },
    #[error("reading {}", path.display())]
    Parquet { path: PathBuf, source: PolarsError },
    /// A slice of rows of one file (the polars error is part of the message, not a cause).
    #[error("reading {} rows {offset}..: {error}", path.display())]
    Slice { path: PathBuf, offset: usize, error: PolarsError },
    #[error("{} differs in schema", path.display())]
    SchemaDiffers { path: PathBuf, source: PolarsError },
    #[error("column {name} missing")]
    MissingColumn { name: String, source: PolarsError },
    #[error("column {name} is not numeric")]
    NotNumeric { name: String, source: PolarsError },
    #[error("decision id {id} appears twice (two runs' parts in one folder?)")]
    DuplicateId { id: u64 },
    #[error(
        "{} is not empty: pass --resume to finish an interrupted ingest there, \
         or --force to replace its dataset",
        out.display()
    )]
    NotEmpty { out: PathBuf },
    /// `haifu ingest --resume` refused a part of the output folder (`what`: why, and what to do).
    #[error("{}: {what}", out.display())]
    Refused { out: PathBuf, what: String },
    /// The run was asked to stop ([`crate::batch::request_stop`]): the parts complete so far
    /// stay, and `--resume` finishes the rest.
    #[error("interrupted: {parts} parts complete in {}, resume to finish", out.display())]
    Interrupted { out: PathBuf, parts: usize },
    #[error("writing parquet")]
    WriteParquet { source: Box<DatasetError> },
    /// A job of the writer pool panicked (a bug, not bad input): what it was doing and the
    /// panic's message. The run stops with this error instead of aborting the process.
    #[error("{what} panicked: {message}")]
    Panicked { what: &'static str, message: String },
    #[error(transparent)]
    Polars(#[from] PolarsError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// Why one record could not become rows (kept with its file in the ingest's error list).
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The replay or a feature failed, with the place in the game.
    #[error(transparent)]
    Rows(#[from] super::rows::RowsError),
    #[error("{0} decisions: more than a game's id range")]
    TooManyDecisions(usize),
    #[error(transparent)]
    Storage(#[from] Inexact),
}
