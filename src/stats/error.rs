//! What can go wrong computing, writing or reading back a stats run: each error names the file
//! (or the count group) it is about.

use std::path::PathBuf;

use super::counts::CountsError;
use crate::replay::ReplayError;

/// An error of the stats stage.
#[derive(Debug, thiserror::Error)]
pub enum StatsError {
    /// One game could not be replayed (kept with its file in the run's error list).
    #[error("replay: {0}")]
    Replay(ReplayError),
    /// A decision of one game whose option rows could not be built for `--agreement` (the
    /// error names the event and seat).
    #[error("agreement")]
    Agreement(#[source] crate::dataset::rows::RowsError),
    /// `--agreement --data DIR`: the ingest folder could not give the counts.
    #[cfg(feature = "parquet")]
    #[error("--agreement --data {}", data.display())]
    AgreementData {
        data: PathBuf,
        #[source]
        source: super::agreement_data::FromDataError,
    },
    /// A group of `counts.parquet` that does not rebuild (the reason is part of the message).
    #[error("{scope} `{group}`: {error}")]
    Group { scope: String, group: String, error: CountsError },
    #[error("unknown scope `{scope}`")]
    UnknownScope { scope: String },
    #[error("cannot create {}", path.display())]
    Create { path: PathBuf, source: std::io::Error },
    #[error("cannot read {}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{}: not JSON", path.display())]
    NotJson { path: PathBuf, source: serde_json::Error },
    #[error("{}: bad `errors`", path.display())]
    BadErrors { path: PathBuf, source: serde_json::Error },
    /// A file that is not what `haifu stats --out` writes (the reason is part of the message).
    #[error("{}: {error} (was it written by `haifu stats --out`?)", path.display())]
    NotAStatsRun { path: PathBuf, error: String },
    /// The counts of a file that do not rebuild a run (the reason is part of the message).
    #[error("{}: {error}", path.display())]
    Counts { path: PathBuf, error: Box<StatsError> },
    /// `--agreement` over three-player games without three-player judges (sanma*.json).
    #[error("no judges for {players}-player games (the three-player weights sanma.json, sanma-riichi.json, sanma-call.json and sanma-kita.json beside the discard weights or shipped)")]
    NoJudges { players: u8 },
    /// `--merge` of runs over different variants: their counts are not added.
    #[error("{} counts {} games and {} counts {} games: --merge adds runs of one variant only (run `haifu stats --players N` per variant)", first.display(), super::variant_name(*first_players), dir.display(), super::variant_name(*players))]
    MixedVariants { first: PathBuf, first_players: u8, dir: PathBuf, players: u8 },
    #[error("--merge needs at least one folder")]
    NothingToMerge,
    /// A plot that could not be drawn (`what`: `plot` or `plot FILE`).
    #[error("{what}: {error}")]
    Plot { what: String, error: String },
    #[cfg(feature = "parquet")]
    #[error(transparent)]
    Polars(#[from] polars::prelude::PolarsError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}
