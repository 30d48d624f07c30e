//! What can go wrong reading a weights file or declaring interaction columns: each error names
//! the file, the gate, the interaction or the column it is about.

use std::path::PathBuf;

/// An error of the model stage (weights files, gates).
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("cannot read {}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{} is not a haifu weights file", path.display())]
    NotWeights { path: PathBuf, source: serde_json::Error },
    #[error("unknown gate {name:?} (gates: shanten, riichi, value, turn, stage)")]
    UnknownGate { name: String },
    #[error("interaction {spec} selects no column")]
    SelectsNothing { spec: String },
    /// An interaction that cannot be declared (the reason is part of the message).
    #[error("interaction {spec}: {error}")]
    Interaction { spec: String, error: Box<ModelError> },
    #[error(
        "the {gate} gate needs the column(s) {inputs}, which the data does not have (an ingest with \
         --skip leaves some out)"
    )]
    GateNeeds { gate: &'static str, inputs: String },
    #[error("column {column:?}: unknown interaction level {level:?}")]
    UnknownLevel { column: String, level: String },
    #[error("column {column:?}: {base:?} is not a base column")]
    NotABase { column: String, base: String },
}
