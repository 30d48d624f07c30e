//! What can go wrong reading a trees model or lining it up with haifu's columns. Each message says
//! what was wrong and where (tree, key, column); a cause (an I/O or number error) is the source,
//! not part of the message, so an error chain prints each once.

use std::path::PathBuf;

/// Boxed cause of a number that does not parse (float and integer parse errors differ in type).
pub type NumberCause = Box<dyn std::error::Error + Send + Sync + 'static>;

/// An error of the trees model: reading it, or using it with a set of columns.
#[derive(Debug, thiserror::Error)]
pub enum TreesError {
    /// No model file where one was looked for: the message says how to make one.
    #[error(
        "no trees model at {}: build it with `make trees` (LightGBM in .venv, over `make weights`' \
         ingest), or name a LightGBM text model with --weights",
        path.display()
    )]
    NoModel { path: PathBuf },
    /// The calibration file beside a model (`model::trees::calibration_file`) cannot be used.
    #[error("trees calibration {}: {reason}", path.display())]
    Calibration { path: PathBuf, reason: String },
    #[error("cannot read the trees model {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The file was read but its text is not a model this reader takes.
    #[error("trees model {}", path.display())]
    InFile {
        path: PathBuf,
        #[source]
        source: Box<TreesError>,
    },
    #[error("not a LightGBM text model (its first line is not \"tree\")")]
    NotAModel,
    #[error("{at}: no {key}= line")]
    MissingKey { at: Place, key: &'static str },
    #[error("{at}: {key}= holds {value:?}, not a number")]
    Number {
        at: Place,
        key: &'static str,
        value: String,
        #[source]
        source: NumberCause,
    },
    #[error("{at}: {key}= has {found} values, {expected} expected")]
    Length { at: Place, key: &'static str, expected: usize, found: usize },
    /// The nodes do not form one tree over the declared features (a child out of range, a node
    /// reached twice or never, a feature index past `max_feature_idx`).
    #[error("{at}: {reason}")]
    Structure { at: Place, reason: String },
    #[error("{0}")]
    Unsupported(Unsupported),
    /// A feature of the model that the caller's columns do not provide.
    #[error(
        "the trees model needs the column {name:?}, which is neither an option column nor one of the \
         decision columns given ({context})"
    )]
    MissingColumn { name: String, context: String },
}

/// Where in the model text an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Header,
    Tree(usize),
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Header => write!(f, "header"),
            Place::Tree(i) => write!(f, "tree {i}"),
        }
    }
}

/// A model LightGBM can write that this reader refuses rather than misreads.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unsupported {
    #[error("tree {tree}, node {node}: categorical splits are not supported")]
    Categorical { tree: usize, node: usize },
    #[error("tree {tree}: linear trees are not supported")]
    Linear { tree: usize },
    #[error(
        "{classes} classes ({per_iteration} trees per iteration): only single-output models are supported"
    )]
    Multiclass { classes: usize, per_iteration: usize },
    #[error("objective {0:?}: only lambdarank, rank_xendcg, binary and regression are supported")]
    Objective(String),
    #[error("averaged outputs (random forest mode) are not supported")]
    AverageOutput,
    #[error("a model this large is not supported: {what}")]
    Size { what: String },
}

impl From<Unsupported> for TreesError {
    fn from(u: Unsupported) -> TreesError {
        TreesError::Unsupported(u)
    }
}
