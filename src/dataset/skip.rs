//! Column groups an ingest can leave out (`haifu ingest --skip ev,ukeire2`).
//!
//! Two option column groups cost most of ingest's time: the expected value (電脳麻将's search,
//! about two fifths of the CPU time) and second-order ukeire (about a fifth: on the whole shared
//! corpus at `--jobs 2`, 100.4 ms of CPU per game with it and 78.0 ms without, 19.8 against 25.5
//! games/s; README, "Archives: speed", sitting 9). An archive of millions of games whose studies
//! do not read those columns can leave them out. A skipped group is
//! absent from the options table (not zero: a zero would read as a value), every other column
//! keeps exactly the value a full run writes, and the schema fingerprint in each part's manifest
//! differs, so `--resume` refuses to mix parts written with different `--skip`.

use std::fmt;

/// A group of option columns that can be left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// `ev`, `log_ev`, `ev_defined`: the expected-value search.
    Ev,
    /// `ukeire2_avg`, `ukeire2_sum`: second-order ukeire.
    Ukeire2,
}

impl Group {
    pub const ALL: [Group; 2] = [Group::Ev, Group::Ukeire2];

    /// The name `--skip` takes.
    pub fn name(self) -> &'static str {
        match self {
            Group::Ev => "ev",
            Group::Ukeire2 => "ukeire2",
        }
    }

    /// The option columns of the group.
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            Group::Ev => &["ev", "log_ev", "ev_defined", "ev_far_shanten", "ev_far_ukeire"],
            Group::Ukeire2 => &["ukeire2_avg", "ukeire2_sum"],
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The groups an ingest leaves out (none by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skip(u8);

impl Skip {
    /// Nothing left out: every column.
    pub const NONE: Skip = Skip(0);

    /// The set of `groups`.
    pub fn of(groups: &[Group]) -> Skip {
        Skip(groups.iter().fold(0, |acc, g| acc | g.bit()))
    }

    /// Parses a comma-separated list of group names (`ev,ukeire2`; empty: none).
    pub fn parse(list: &str) -> Result<Skip, UnknownGroup> {
        let mut groups = Vec::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let g = Group::ALL.into_iter().find(|g| g.name() == name).ok_or_else(|| {
                let known: Vec<&str> = Group::ALL.iter().map(|g| g.name()).collect();
                UnknownGroup { name: name.to_string(), known: known.join(", ") }
            })?;
            groups.push(g);
        }
        Ok(Skip::of(&groups))
    }

    pub fn has(self, g: Group) -> bool {
        self.0 & g.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The column `name` is left out.
    pub fn leaves_out(self, name: &str) -> bool {
        Group::ALL.into_iter().any(|g| self.has(g) && g.columns().contains(&name))
    }
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Group::ALL.into_iter().filter(|&g| self.has(g)).map(Group::name).collect();
        f.write_str(&names.join(","))
    }
}

/// A `--skip` list naming a group that does not exist (the name, and the groups that do).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("--skip: unknown column group {name:?} (known: {known})")]
pub struct UnknownGroup {
    pub name: String,
    pub known: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_prints_and_refuses_unknown_groups() {
        let s = Skip::parse("ukeire2, ev").unwrap();
        assert!(s.has(Group::Ev) && s.has(Group::Ukeire2));
        assert_eq!(s.to_string(), "ev,ukeire2");
        assert_eq!(Skip::parse("").unwrap(), Skip::NONE);
        assert_eq!(Skip::parse("ev").unwrap().to_string(), "ev");
        let e = Skip::parse("ev,safety").unwrap_err().to_string();
        assert!(e.contains("\"safety\"") && e.contains("ev, ukeire2"), "{e}");
    }

    #[test]
    fn leaves_out_exactly_the_groups_columns() {
        let s = Skip::of(&[Group::Ev]);
        assert!(s.leaves_out("ev") && s.leaves_out("log_ev") && s.leaves_out("ev_defined"));
        assert!(!s.leaves_out("ukeire2_sum") && !s.leaves_out("ukeire_count"));
        assert!(!Skip::NONE.leaves_out("ev"));
    }

    /// Every group names real option columns (a renamed column would silently stop being left
    /// out).
    #[test]
    fn groups_name_option_columns() {
        let names = crate::features::catalog::names();
        for g in Group::ALL {
            for c in g.columns() {
                assert!(names.contains(c), "group {} names {c}, not an option column", g.name());
            }
        }
    }
}
