//! Which decisions a stage reads from a dataset: the decision kind, table levels and seats.

/// Which decisions a fit or an evaluation uses.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Filter {
    /// Decision kind: `discard`, `riichi` or `call`.
    pub kind: String,
    /// Table levels to keep (empty = all).
    pub tables: Vec<String>,
    /// `Some(false)`: human seats only; `Some(true)`: AI seats only; `None`: both.
    pub ai: Option<bool>,
}
