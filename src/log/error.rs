//! Errors of the record readers. Every error says what was wrong and where: a byte offset and a tag
//! index for XML, a round for tenhou.net/6 JSON, an entry for archives. [`LogError::InFile`] wraps
//! any of them with the file (or archive entry, or database row) it came from, so a batch can print
//! one line per bad file and carry on.

use std::fmt;

/// Where in an mjlog XML document something went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XmlPlace {
    /// Byte offset of the tag (in the decompressed XML).
    pub byte: u64,
    /// 0-based index of the tag among all tags of the document.
    pub tag: usize,
    /// 0-based round (INIT count - 1), `None` before the first INIT.
    pub round: Option<usize>,
}

impl fmt::Display for XmlPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}, tag #{}", self.byte, self.tag)?;
        if let Some(r) = self.round {
            write!(f, ", round {r}")?;
        }
        Ok(())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The same error, with the file (or `archive.zip!entry`, or `db.sqlite#log_id`) it came from.
    #[error("{file}: {source}")]
    InFile { file: String, source: Box<LogError> },

    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),

    /// The XML ends before `</mjloggm>` (cut off in a tag, or the closing tag is missing).
    #[error("truncated XML at byte {byte}: {detail}")]
    TruncatedXml { byte: u64, detail: String },

    /// The XML is not well formed.
    #[error("malformed XML at byte {byte}: {detail}")]
    Xml { byte: u64, detail: String },

    /// Content that should be gzip (by its context, e.g. a database column) is not, or is corrupt.
    #[error("not valid gzip/zlib data: {detail}")]
    NotGzip { detail: String },

    /// A compressed entry would decompress past the size limit.
    #[error("zip bomb guard: {entry} decompresses to more than {limit} bytes (declared {declared})")]
    TooLarge { entry: String, declared: u64, limit: u64 },

    #[error("bad zip archive: {detail}")]
    Zip { detail: String },

    #[error("SQLite: {detail}")]
    Sqlite { detail: String },

    /// A tile id outside 0..=135.
    #[error("tile id {value} out of range 0..=135 in <{tag}> ({at})")]
    TileOutOfRange { tag: String, value: String, at: XmlPlace },

    #[error("unknown tag <{tag}> ({at})")]
    UnknownTag { tag: String, at: XmlPlace },

    /// Bytes that are neither gzip, XML nor JSON, or text with control bytes where text is expected.
    #[error("binary junk at byte {byte}: not an mjlog XML, tenhou.net/6 JSON or gzip")]
    BinaryJunk { byte: u64 },

    #[error("bad value {value:?} for attribute {attr} of <{tag}> ({at})")]
    BadAttribute { tag: String, attr: String, value: String, at: XmlPlace },

    #[error("missing attribute {attr} of <{tag}> ({at})")]
    MissingAttribute { tag: String, attr: String, at: XmlPlace },

    /// Tags in an impossible order (a draw before INIT, a game without rounds, ...).
    #[error("bad record structure: {detail} ({at})")]
    Structure { detail: String, at: XmlPlace },

    #[error("JSON: {detail} (line {line}, column {column})")]
    Json { detail: String, line: usize, column: usize },

    /// An mjai event (`event`: its type), or the log as a whole (`None`), that does not replay
    /// into a game.
    #[error(
        "JSON: mjai {}: {error} (line {line}, column 1)",
        event.as_ref().map_or("log".to_string(), |e| format!("event {e}"))
    )]
    Mjai { event: Option<String>, line: usize, error: crate::log::mjai::error::MjaiError },

    /// tenhou.net/6 content that does not fit the format or cannot be replayed into an event order.
    #[error("tenhou.net/6 round {round}: {error}")]
    Tenhou6 { round: usize, error: crate::log::tenhou6::error::Tenhou6Error },

    /// 電脳麻将 paipu content that does not fit the format or does not replay: the round (0-based,
    /// of `log`) and the event within it, when one is to blame.
    #[error("paipu round {round}{}: {error}", event.map_or(String::new(), |e| format!(", event {e}")))]
    Paipu { round: usize, event: Option<usize>, error: PaipuError },
}

impl LogError {
    /// Wraps with a file name (never twice).
    pub fn in_file(self, file: impl Into<String>) -> LogError {
        match self {
            e @ LogError::InFile { .. } => e,
            e => LogError::InFile { file: file.into(), source: Box::new(e) },
        }
    }

    /// The error without its file wrapper, for matching on the kind.
    pub fn inner(&self) -> &LogError {
        match self {
            LogError::InFile { source, .. } => source.inner(),
            e => e,
        }
    }

    /// A short stable name of the error kind, for counting errors in a batch.
    pub fn kind_name(&self) -> &'static str {
        match self.inner() {
            LogError::InFile { .. } => "in_file",
            LogError::Io(_) => "io",
            LogError::TruncatedXml { .. } => "truncated_xml",
            LogError::Xml { .. } => "xml",
            LogError::NotGzip { .. } => "not_gzip",
            LogError::TooLarge { .. } => "too_large",
            LogError::Zip { .. } => "zip",
            LogError::Sqlite { .. } => "sqlite",
            LogError::TileOutOfRange { .. } => "tile_out_of_range",
            LogError::UnknownTag { .. } => "unknown_tag",
            LogError::BinaryJunk { .. } => "binary_junk",
            LogError::BadAttribute { .. } => "bad_attribute",
            LogError::MissingAttribute { .. } => "missing_attribute",
            LogError::Structure { .. } => "structure",
            LogError::Json { .. } => "json",
            LogError::Mjai { .. } => "mjai",
            LogError::Tenhou6 { .. } => "tenhou6",
            LogError::Paipu { .. } => "paipu",
        }
    }
}

/// What is wrong with a paipu ([`LogError::Paipu`] adds the round and the event).
#[derive(Debug, thiserror::Error)]
pub enum PaipuError {
    /// A field missing, or not of its kind (`qipai.jushu`, `dapai.p`, `hule.fenpei`, ...).
    #[error("bad or missing {0}")]
    Field(String),
    /// Content that does not fit the format's shape.
    #[error("{0}")]
    Shape(&'static str),
    #[error("unknown event {0:?}")]
    UnknownEvent(String),
    #[error("unknown yaku {0:?}")]
    UnknownYaku(String),
    /// The events, read as the mjai stream they stand for, do not replay into a game.
    #[error(transparent)]
    Replay(crate::log::mjai::error::MjaiError),
}
