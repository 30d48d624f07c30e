//! Costly option column groups, and which of them an ingest holds (`haifu ingest --skip ev`,
//! `--with ukeire2`).
//!
//! Two option column groups cost most of ingest's time: the expected value (電脳麻将's search)
//! and second-order ukeire (docs/performance.md has the measured shares). The expected value is
//! the seed's and the `value` gate's input, so a run holds it unless `--skip ev` leaves it out.
//! Second-order ukeire is haifu's own column group, no seed defines it and the fitted functions do
//! as well without it, so it is opt-in: a run holds it only with `--with ukeire2`
//! ([`Group::by_default`]). A group a run does not hold is absent from the options table (not
//! zero: a zero would read as a value), every other column keeps exactly the value a run with
//! every group writes, and each part's manifest names the groups it holds, so `--resume` refuses
//! to mix parts written with other groups.
//!
//! The danger family (issue 69) is a group too: the danger models' answers for each option
//! (three small LightGBM models a decision). So is the `seats` group: the all-last needs, each
//! opponent's river read in order and the furiten risk (reports/danger has their ablation). Both
//! are held by default since the shipped discard trees were trained on them, so that a default
//! ingest writes what those trees read; `--skip danger,seats` gives the faster run the linear
//! models need (they were measured to gain nothing from either, and `make weights` drops them).

use std::fmt;

/// A group of option columns that can be left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// `ev`, `log_ev`, `ev_defined`: the expected-value search.
    Ev,
    /// `ukeire2_avg`, `ukeire2_sum`: second-order ukeire.
    Ukeire2,
    /// The danger family (`danger_*`): the danger models' answers for each discard.
    Danger,
    /// The all-last, seat reading and furiten risk families (`al_*`, `sr_*`, `furiten_risk_*`).
    Seats,
}

impl Group {
    pub const ALL: [Group; 4] = [Group::Ev, Group::Ukeire2, Group::Danger, Group::Seats];

    /// The name `--skip` takes.
    pub fn name(self) -> &'static str {
        match self {
            Group::Ev => "ev",
            Group::Ukeire2 => "ukeire2",
            Group::Danger => "danger",
            Group::Seats => "seats",
        }
    }

    /// Whether a run holds the group when neither `--skip` nor `--with` names it: `ev`, `danger`
    /// and `seats` yes (the shipped discard trees read all three); `ukeire2` no (its cost buys no
    /// held-out accuracy; `--with ukeire2` adds it).
    pub fn by_default(self) -> bool {
        match self {
            Group::Ev | Group::Danger | Group::Seats => true,
            Group::Ukeire2 => false,
        }
    }

    /// The option columns of the group.
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            Group::Ev => &["ev", "log_ev", "ev_defined", "ev_far_shanten", "ev_far_ukeire"],
            Group::Ukeire2 => &["ukeire2_avg", "ukeire2_sum"],
            Group::Danger => &super::danger::COLUMN_NAMES,
            Group::Seats => seats_columns(),
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The `seats` group's columns: the all-last, seat reading and furiten risk families, in row
/// order.
fn seats_columns() -> &'static [&'static str] {
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let names = super::all_last::COLUMNS.iter().map(|c| c.0);
        let names = names.chain(super::seat_reading::COLUMN_NAMES);
        names.chain(super::furiten_risk::COLUMNS.iter().map(|c| c.0)).collect()
    })
}

/// The groups an ingest leaves out. A set of [`Group`]s; `--with` lists parse into one too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skip(u8);

impl Default for Skip {
    /// What a run leaves out when not told otherwise: the groups not held [`Group::by_default`].
    fn default() -> Self {
        Skip::of(&Group::ALL.into_iter().filter(|g| !g.by_default()).collect::<Vec<_>>())
    }
}

impl Skip {
    /// Nothing left out: every column.
    pub const NONE: Skip = Skip(0);

    /// What a run leaves out given its `--skip` and `--with` lists: the default groups left out
    /// by default ([`Skip::default`]), plus `skip`, minus `with`. A group named in both is a
    /// contradiction, refused with both flags named.
    pub fn choose(skip: Skip, with: Skip) -> Result<Skip, BothWays> {
        if skip.0 & with.0 != 0 {
            return Err(BothWays(Skip(skip.0 & with.0).to_string()));
        }
        Ok(Skip((Skip::default().0 | skip.0) & !with.0))
    }

    /// The groups a run that leaves out `self` holds, comma-separated (`ev`, `ev,ukeire2`, or
    /// empty): what each part's manifest records as `groups`.
    pub fn holds(self) -> String {
        Skip(!self.0 & Skip::of(&Group::ALL).0).to_string()
    }

    /// The flags that make a run leave out exactly `self`, against the defaults (`--with
    /// ukeire2`, `--skip ev`; empty for the default run), for messages that tell how to resume.
    pub fn flags(self) -> String {
        let mut out = Vec::new();
        // held though not by default / left out though held by default
        let named = |pick: fn(Group, bool) -> bool| -> Vec<&str> {
            Group::ALL.into_iter().filter(|&g| pick(g, self.has(g))).map(Group::name).collect()
        };
        let with = named(|g, left_out| !g.by_default() && !left_out);
        let skip = named(|g, left_out| g.by_default() && left_out);
        if !with.is_empty() {
            out.push(format!("--with {}", with.join(",")));
        }
        if !skip.is_empty() {
            out.push(format!("--skip {}", skip.join(",")));
        }
        out.join(" ")
    }

    /// What a live serving path (a bot, a review) may leave out for a model that reads the
    /// columns `names` (base columns, `level*column` interactions or a trees model's derived
    /// `prefix_column` names): the `danger` group when none of its columns is read, since it
    /// costs three small tree models a decision. Every other group is always served, as before;
    /// a model that reads a danger column gets the family exactly as ingest wrote it.
    pub fn unread_by<'a>(names: impl IntoIterator<Item = &'a str>) -> Skip {
        let reads = |name: &str, col: &str| {
            name.strip_suffix(col).is_some_and(|head| head.is_empty() || head.ends_with(['_', '*']))
        };
        if names.into_iter().any(|n| Group::Danger.columns().iter().any(|c| reads(n, c))) {
            Skip::NONE
        } else {
            Skip::of(&[Group::Danger])
        }
    }

    /// `self` without `group`: a run that must hold it whatever its models read (the judge of
    /// `stats --agreement` states the danger of bad moves, [`crate::model::stake`]).
    pub fn keeping(self, group: Group) -> Skip {
        Skip(self.0 & !group.bit())
    }

    /// The groups not in `self`: a run leaving out `self` holds them.
    pub fn complement(self) -> Skip {
        Skip(!self.0 & Skip::of(&Group::ALL).0)
    }

    /// The groups in `self` or in `other`.
    pub fn union(self, other: Skip) -> Skip {
        Skip(self.0 | other.0)
    }

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

/// A `--skip` or `--with` list naming a group that does not exist (the name, and the groups that
/// do).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("unknown column group {name:?} (known: {known})")]
pub struct UnknownGroup {
    pub name: String,
    pub known: String,
}

/// Groups named by both `--skip` and `--with`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("--skip and --with both name {0}: a run either holds a column group or leaves it out")]
pub struct BothWays(pub String);

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

    /// The default run holds ev, danger and seats, not ukeire2; `--with` and `--skip` move groups
    /// each way, and the flags printed for a choice give that choice back.
    #[test]
    fn default_holds_ev_danger_and_seats_and_with_adds_ukeire2() {
        let none = Skip::NONE;
        let d = Skip::choose(none, none).unwrap();
        assert_eq!(d, Skip::default());
        assert_eq!(d, Skip::of(&[Group::Ukeire2]));
        assert_eq!((d.holds().as_str(), d.flags().as_str()), ("ev,danger,seats", ""));
        let with = Skip::choose(none, Skip::parse("ukeire2").unwrap()).unwrap();
        assert_eq!(
            (with, with.holds().as_str(), with.flags().as_str()),
            (Skip::NONE, "ev,ukeire2,danger,seats", "--with ukeire2")
        );
        let lean = Skip::choose(Skip::parse("danger,seats").unwrap(), none).unwrap();
        assert_eq!(
            (lean, lean.holds().as_str(), lean.flags().as_str()),
            (Skip::of(&[Group::Ukeire2, Group::Danger, Group::Seats]), "ev", "--skip danger,seats")
        );
        let no_ev = Skip::choose(Skip::parse("ev").unwrap(), none).unwrap();
        assert_eq!((no_ev.holds().as_str(), no_ev.flags().as_str()), ("danger,seats", "--skip ev"));
        let swap = Skip::choose(Skip::parse("ev").unwrap(), Skip::parse("ukeire2").unwrap()).unwrap();
        assert_eq!(
            (swap.holds().as_str(), swap.flags().as_str()),
            ("ukeire2,danger,seats", "--with ukeire2 --skip ev")
        );
        // --skip ukeire2 is what the default does anyway, and so is --with danger
        assert_eq!(Skip::choose(Skip::parse("ukeire2").unwrap(), none).unwrap(), d);
        assert_eq!(Skip::choose(none, Skip::parse("danger,seats").unwrap()).unwrap(), d);
        let e = Skip::choose(Skip::parse("ukeire2").unwrap(), Skip::parse("ukeire2").unwrap()).unwrap_err();
        assert!(e.to_string().contains("--skip and --with both name ukeire2"), "{e}");
        for s in [d, with, lean, no_ev, swap] {
            let again = Skip::choose(
                Skip::parse(s.flags().split("--skip ").nth(1).unwrap_or("")).unwrap(),
                Skip::parse(s.flags().split("--with ").nth(1).map_or("", |w| w.split(' ').next().unwrap()))
                    .unwrap(),
            );
            assert_eq!(again.unwrap(), s, "{}", s.flags());
        }
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

    #[test]
    fn a_model_is_served_the_danger_family_only_when_it_reads_it() {
        let without = Skip::of(&[Group::Danger]);
        assert_eq!(Skip::unread_by(["ukeire_count", "sh1*ukeire_count", "safety_worst_danger_est"]), without);
        assert_eq!(Skip::unread_by([]), without);
        for reads in ["danger_loss", "riichi*danger_dealin", "rel_danger_loss", "margin_danger_tenpai_next"] {
            assert_eq!(Skip::unread_by(["ukeire_count", reads]), Skip::NONE, "{reads}");
        }
    }
}
