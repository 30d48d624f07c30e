//! Which decisions a stage reads from a dataset: the variant (four or three players), the
//! decision kind, table levels and seats. Three-player decisions are another game's: a stage
//! reads one variant, four players unless told otherwise, and says which.

/// Which decisions a fit or an evaluation uses.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Filter {
    /// Decision kind: `discard`, `riichi` or `call`.
    pub kind: String,
    /// Table levels to keep (empty = all).
    pub tables: Vec<String>,
    /// `Some(false)`: human seats only; `Some(true)`: AI seats only; `None`: both.
    pub ai: Option<bool>,
    /// Seats at the tables kept: 4, or 3 (sanma). A model file written before the field existed
    /// was fitted on four-player decisions.
    #[serde(default = "four")]
    pub players: u8,
}

fn four() -> u8 {
    4
}

impl Filter {
    /// Whether a decision of `kind` at a `table` level, by an AI seat or not (`is_ai`), at a
    /// table of `players` seats passes.
    pub fn keeps(&self, kind: &str, table: &str, is_ai: bool, players: u8) -> bool {
        kind == self.kind
            && (self.tables.is_empty() || self.tables.iter().any(|t| t == table))
            && self.ai.is_none_or(|a| a == is_ai)
            && players == self.players
    }

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
        if self.players != 4 {
            a.push_str(&format!(" --players {}", self.players));
        }
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
        write!(f, "`{}` decisions at {tables}, {seats}", self.kind)?;
        if self.players != 4 {
            write!(f, ", {}-player games", self.players)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_for_people() {
        let f = Filter { kind: "discard".into(), tables: vec![], ai: None, players: 4 };
        assert_eq!(f.to_string(), "`discard` decisions at every table, every seat (human and AI)");
        let f = Filter {
            kind: "call".into(),
            tables: vec!["houou".into(), "tokujou".into(), "joukyuu".into()],
            ai: Some(false),
            players: 4,
        };
        assert_eq!(f.to_string(), "`call` decisions at houou, tokujou and joukyuu tables, human seats");
    }

    #[test]
    fn cli_args_name_every_choice() {
        let f = Filter {
            kind: "discard".into(),
            tables: vec!["houou".into(), "tokujou".into()],
            ai: Some(false),
            players: 4,
        };
        assert_eq!(f.cli_args(), "--kind discard --tables houou,tokujou --seats human");
        let f = Filter { kind: "call".into(), tables: vec![], ai: None, players: 4 };
        assert_eq!(f.cli_args(), "--kind call --seats all");
        let sanma = Filter { players: 3, ..f };
        assert_eq!(sanma.cli_args(), "--kind call --seats all --players 3");
        assert!(sanma.to_string().ends_with(", 3-player games"), "{sanma}");
        assert!(sanma.keeps("call", "houou", false, 3) && !sanma.keeps("call", "houou", false, 4));
        let old: Filter = serde_json::from_str(r#"{"kind":"discard","tables":[],"ai":null}"#).unwrap();
        assert_eq!(old.players, 4, "a model file from before the field");
    }
}
