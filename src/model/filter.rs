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

impl Filter {
    /// The command-line arguments that select these decisions (`--kind`, `--tables`, `--seats`),
    /// for "regenerate with" lines in reports.
    pub fn cli_args(&self) -> String {
        let mut a = format!("--kind {}", self.kind);
        if !self.tables.is_empty() {
            a.push_str(&format!(" --tables {}", self.tables.join(",")));
        }
        let seats = match self.ai {
            Some(false) => "human",
            Some(true) => "ai",
            None => "all",
        };
        a.push_str(&format!(" --seats {seats}"));
        a
    }
}

/// For people, in report headers: "`discard` decisions at houou and tokujou tables, human seats".
impl std::fmt::Display for Filter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tables = match self.tables.as_slice() {
            [] => "every table".to_string(),
            [one] => format!("{one} tables"),
            [init @ .., last] => format!("{} and {last} tables", init.join(", ")),
        };
        let seats = match self.ai {
            Some(false) => "human seats",
            Some(true) => "AI seats",
            None => "every seat (human and AI)",
        };
        write!(f, "`{}` decisions at {tables}, {seats}", self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_for_people() {
        let f = Filter { kind: "discard".into(), tables: vec![], ai: None };
        assert_eq!(f.to_string(), "`discard` decisions at every table, every seat (human and AI)");
        let f = Filter {
            kind: "call".into(),
            tables: vec!["houou".into(), "tokujou".into(), "joukyuu".into()],
            ai: Some(false),
        };
        assert_eq!(f.to_string(), "`call` decisions at houou, tokujou and joukyuu tables, human seats");
    }

    #[test]
    fn cli_args_name_every_choice() {
        let f = Filter {
            kind: "discard".into(),
            tables: vec!["houou".into(), "tokujou".into()],
            ai: Some(false),
        };
        assert_eq!(f.cli_args(), "--kind discard --tables houou,tokujou --seats human");
        let f = Filter { kind: "call".into(), tables: vec![], ai: None };
        assert_eq!(f.cli_args(), "--kind call --seats all");
    }
}
