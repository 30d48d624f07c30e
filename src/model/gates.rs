//! Interaction columns: a base feature multiplied by an indicator of the decision's situation.
//!
//! One weight per feature makes the linear evaluator play every situation alike: the value of a
//! wide wait, of a safe tile or of an isolated honor is the same at 3-shanten on turn 2 as at
//! tenpai against a riichi. An interaction `gate × columns` adds, for each level of a
//! decision-level gate (shanten before the decision, riichi on the table, hand-value class, turn),
//! a copy of the chosen columns that is non-zero only at that level. The model stays linear,
//! every weight still reads as "this feature is worth so much here", and one model can both push
//! and fold.
//!
//! Every gate is a fact of the whole decision (the same for all its options), computed from the
//! option rows and the turn alone, so the fit, `haifu eval`, `haifu report` and `nanikiru` all
//! derive it the same way from what they already hold. An expanded column is named
//! `<level>*<base>`, e.g. `sh1*ukeire_count` or `riichi*safety_worst_genbutsu`, so a weights
//! file is self-describing; the specs are also recorded in it.

use super::error::ModelError;

use crate::rank::push_fold::{classify, HandClass, Thresholds};

/// A decision-level situation with a few levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    /// Shanten before the decision (best option's shanten): 0, 1, 2, 3+.
    Shanten,
    /// An opponent in riichi or not.
    Riichi,
    /// Hand-value class by the best expected value of the options, as the push/fold layer
    /// classes it with its default thresholds: weak (< 400 or undefined), good (< 1200), excellent.
    Value,
    /// Turn of the deciding player: 1-6, 7-12, 13+.
    Turn,
    /// Shanten × turn (12 levels): how far the hand is, given how far the round is.
    Stage,
    /// How likely the most advanced opponent is tenpai, by the danger family's tenpai model
    /// (the highest of `danger_tenpai_*`): below 0.3, below 0.7, above. The riichi gate only
    /// sees declared threats; open and dama hands are threats too, and how hard to defend
    /// depends on how likely they are ready.
    Threat,
}

/// The tenpai probabilities that separate the threat gate's levels.
pub const THREAT_LEVELS: [f32; 2] = [0.3, 0.7];

impl Gate {
    pub const ALL: [Gate; 6] =
        [Gate::Shanten, Gate::Riichi, Gate::Value, Gate::Turn, Gate::Stage, Gate::Threat];

    pub fn name(self) -> &'static str {
        match self {
            Gate::Shanten => "shanten",
            Gate::Riichi => "riichi",
            Gate::Value => "value",
            Gate::Turn => "turn",
            Gate::Stage => "stage",
            Gate::Threat => "threat",
        }
    }

    /// Level names, used as the prefix of the expanded column names.
    pub fn levels(self) -> &'static [&'static str] {
        match self {
            Gate::Shanten => &["sh0", "sh1", "sh2", "sh3p"],
            Gate::Riichi => &["calm", "riichi"],
            Gate::Value => &["weak", "good", "excellent"],
            Gate::Turn => &["t1_6", "t7_12", "t13p"],
            Gate::Stage => &[
                "sh0_t1_6",
                "sh0_t7_12",
                "sh0_t13p",
                "sh1_t1_6",
                "sh1_t7_12",
                "sh1_t13p",
                "sh2_t1_6",
                "sh2_t7_12",
                "sh2_t13p",
                "sh3p_t1_6",
                "sh3p_t7_12",
                "sh3p_t13p",
            ],
            Gate::Threat => &["thr_low", "thr_mid", "thr_high"],
        }
    }

    /// The base columns the gate reads its level from (the turn comes with the decision).
    pub fn inputs(self) -> &'static [&'static str] {
        match self {
            Gate::Shanten | Gate::Stage => &["shanten_min"],
            Gate::Riichi => &["safety_any_riichi"],
            Gate::Value => &["ev", "ev_defined"],
            Gate::Turn => &[],
            Gate::Threat => &["danger_tenpai_next", "danger_tenpai_across", "danger_tenpai_prev"],
        }
    }

    fn parse(s: &str) -> Result<Gate, ModelError> {
        Gate::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| ModelError::UnknownGate { name: s.to_string() })
    }

    /// The active level of this gate for a decision.
    pub fn level(self, c: &Situation) -> usize {
        match self {
            Gate::Shanten => c.shanten.clamp(0, 3) as usize,
            Gate::Riichi => c.riichi as usize,
            Gate::Value => match c.best_ev {
                Some(v) => match classify(v as f64, c.shanten, &Thresholds::default()) {
                    HandClass::Weak => 0,
                    HandClass::Good => 1,
                    HandClass::Excellent => 2,
                },
                None => 0,
            },
            Gate::Turn => match c.turn {
                0..=6 => 0,
                7..=12 => 1,
                _ => 2,
            },
            Gate::Stage => Gate::Shanten.level(c) * 3 + Gate::Turn.level(c),
            Gate::Threat => THREAT_LEVELS.iter().filter(|&&t| c.threat >= t).count(),
        }
    }
}

/// The decision-level facts the gates read.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Situation {
    pub shanten: i8,
    pub riichi: bool,
    pub best_ev: Option<f32>,
    pub turn: u8,
    /// The highest opponent tenpai probability (0 when the rows do not hold the danger family).
    pub threat: f32,
}

/// Where the situation's inputs sit in a base row.
#[derive(Clone, Debug)]
struct SituationCols {
    shanten: Option<usize>,
    riichi: Option<usize>,
    ev: Option<usize>,
    ev_defined: Option<usize>,
    tenpai: Vec<usize>,
}

impl SituationCols {
    fn of(base: &[String]) -> SituationCols {
        let at = |n: &str| base.iter().position(|b| b == n);
        SituationCols {
            shanten: at(Gate::Shanten.inputs()[0]),
            riichi: at(Gate::Riichi.inputs()[0]),
            ev: at(Gate::Value.inputs()[0]),
            ev_defined: at(Gate::Value.inputs()[1]),
            tenpai: Gate::Threat.inputs().iter().filter_map(|n| at(n)).collect(),
        }
    }

    fn situation(&self, rows: &[&[f32]], turn: u8) -> Situation {
        let shanten = self
            .shanten
            .map(|c| rows.iter().map(|r| r[c]).fold(f32::INFINITY, f32::min))
            .filter(|v| v.is_finite())
            .unwrap_or(0.0) as i8;
        let riichi = self.riichi.is_some_and(|c| rows.iter().any(|r| r[c] > 0.5));
        let best_ev = match (self.ev, self.ev_defined) {
            (Some(e), Some(d)) => rows.iter().filter(|r| r[d] > 0.5).map(|r| r[e]).reduce(f32::max),
            _ => None,
        };
        // the tenpai columns are the same for every option of a decision
        let threat = rows.first().map_or(0.0, |r| self.tenpai.iter().map(|&c| r[c]).fold(0.0, f32::max));
        Situation { shanten, riichi, best_ev, turn, threat }
    }
}

/// One declared interaction: a gate times the base columns whose names start with one of
/// `prefixes` (all base columns when empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interaction {
    pub gate: Gate,
    pub prefixes: Vec<String>,
}

impl Interaction {
    /// Parses `gate` or `gate:prefix+prefix` (e.g. `riichi:safety_+ev`).
    pub fn parse(spec: &str) -> Result<Interaction, ModelError> {
        let (g, rest) = spec.split_once(':').unwrap_or((spec, ""));
        let prefixes: Vec<String> = rest.split('+').filter(|p| !p.is_empty()).map(String::from).collect();
        Ok(Interaction { gate: Gate::parse(g.trim())?, prefixes })
    }

    pub fn spec(&self) -> String {
        if self.prefixes.is_empty() {
            self.gate.name().to_string()
        } else {
            format!("{}:{}", self.gate.name(), self.prefixes.join("+"))
        }
    }

    fn selects(&self, name: &str) -> bool {
        self.prefixes.is_empty() || self.prefixes.iter().any(|p| name.starts_with(p.as_str()))
    }
}

/// Base columns plus the interaction blocks declared on them: expands a decision's option rows.
#[derive(Clone, Debug)]
pub struct Expansion {
    base: Vec<String>,
    cols: SituationCols,
    /// Per interaction: its gate and the base columns it copies.
    blocks: Vec<(Gate, Vec<usize>)>,
    names: Vec<String>,
}

impl Expansion {
    /// Declares `interactions` over the base columns `base` (in row order).
    pub fn new(base: &[String], interactions: &[Interaction]) -> Result<Expansion, ModelError> {
        let mut e = Expansion {
            base: base.to_vec(),
            cols: SituationCols::of(base),
            blocks: Vec::new(),
            names: base.to_vec(),
        };
        for i in interactions {
            let sel: Vec<usize> = (0..base.len()).filter(|&c| i.selects(&base[c])).collect();
            if sel.is_empty() {
                return Err(ModelError::SelectsNothing { spec: i.spec() });
            }
            e.push_block(i.gate, sel)
                .map_err(|err| ModelError::Interaction { spec: i.spec(), error: Box::new(err) })?;
        }
        Ok(e)
    }

    /// Adds the block `gate × sel` (its columns level by level), once the gate's inputs are known
    /// to be base columns.
    fn push_block(&mut self, gate: Gate, sel: Vec<usize>) -> Result<(), ModelError> {
        if gate.inputs().iter().any(|n| !self.base.iter().any(|b| b == n)) {
            return Err(ModelError::GateNeeds { gate: gate.name(), inputs: gate.inputs().join(", ") });
        }
        for level in gate.levels() {
            self.names.extend(sel.iter().map(|&c| format!("{level}*{}", self.base[c])));
        }
        self.blocks.push((gate, sel));
        Ok(())
    }

    /// Column names of an expanded row: the base columns, then each block level by level.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    pub fn base(&self) -> &[String] {
        &self.base
    }

    pub fn is_identity(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The interaction blocks in column order: each gate and the base columns it copies. Block
    /// `b` occupies `levels × sel.len()` columns after the base and the blocks before it, level by
    /// level (see [`Self::expand_row`]), which lets the fit keep base rows and expand on the fly.
    pub fn blocks(&self) -> &[(Gate, Vec<usize>)] {
        &self.blocks
    }

    /// The active level of every block in situation `s`.
    pub fn levels(&self, s: &Situation) -> Vec<u8> {
        self.blocks.iter().map(|(gate, _)| gate.level(s) as u8).collect()
    }

    /// The gates' view of a decision from its base option rows.
    pub fn situation(&self, rows: &[&[f32]], turn: u8) -> Situation {
        self.cols.situation(rows, turn)
    }

    /// Expanded rows of one decision (base rows in, same order out).
    pub fn expand(&self, rows: &[&[f32]], turn: u8) -> Vec<Vec<f32>> {
        let s = self.situation(rows, turn);
        rows.iter().map(|r| self.expand_row(r, &s)).collect()
    }

    /// One option's expanded row in a known situation.
    pub fn expand_row(&self, row: &[f32], s: &Situation) -> Vec<f32> {
        debug_assert_eq!(row.len(), self.base.len());
        let mut out = Vec::with_capacity(self.names.len());
        out.extend_from_slice(row);
        for (gate, sel) in &self.blocks {
            let active = gate.level(s);
            for level in 0..gate.levels().len() {
                if level == active {
                    out.extend(sel.iter().map(|&c| row[c]));
                } else {
                    out.extend(std::iter::repeat_n(0.0, sel.len()));
                }
            }
        }
        out
    }
}

impl Expansion {
    /// The expansion a weights file's column names describe (`level*base`): each gate copies
    /// exactly the base columns named with one of its levels. Names of other columns are ignored
    /// (an evaluator looks weights up by name, absent ones weigh 0).
    pub fn from_names(base: &[String], names: &[String]) -> Result<Expansion, ModelError> {
        let mut wanted: Vec<(Gate, std::collections::BTreeSet<usize>)> = Vec::new();
        for n in names {
            let Some((level, b)) = n.split_once('*') else { continue };
            let Some(gate) = Gate::ALL.into_iter().find(|g| g.levels().contains(&level)) else {
                return Err(ModelError::UnknownLevel { column: n.clone(), level: level.to_string() });
            };
            let Some(c) = base.iter().position(|x| x == b) else {
                return Err(ModelError::NotABase { column: n.clone(), base: b.to_string() });
            };
            match wanted.iter_mut().find(|(g, _)| *g == gate) {
                Some((_, set)) => {
                    set.insert(c);
                }
                None => wanted.push((gate, [c].into())),
            }
        }
        let mut e = Expansion::new(base, &[])?;
        for (gate, sel) in wanted {
            e.push_block(gate, sel.into_iter().collect())?;
        }
        Ok(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Vec<String> {
        ["shanten_min", "ukeire_count", "safety_any_riichi", "safety_worst_genbutsu", "ev", "ev_defined"]
            .map(String::from)
            .to_vec()
    }

    #[test]
    fn parses_and_prints_specs() {
        let i = Interaction::parse("riichi:safety_+ev").unwrap();
        assert_eq!(i.gate, Gate::Riichi);
        assert_eq!(i.prefixes, vec!["safety_", "ev"]);
        assert_eq!(i.spec(), "riichi:safety_+ev");
        assert_eq!(Interaction::parse("shanten").unwrap().spec(), "shanten");
        assert!(Interaction::parse("weather").is_err());
    }

    #[test]
    fn copies_the_selected_columns_into_the_active_level_only() {
        let e = Expansion::new(&base(), &[Interaction::parse("shanten:ukeire").unwrap()]).unwrap();
        assert_eq!(e.names().len(), 6 + 4);
        assert_eq!(
            &e.names()[6..],
            ["sh0*ukeire_count", "sh1*ukeire_count", "sh2*ukeire_count", "sh3p*ukeire_count"]
        );
        // two options: after the discard 1-shanten with 20 tiles, or 2-shanten with 40
        let a = [1.0, 20.0, 0.0, 0.0, 0.0, 0.0];
        let b = [2.0, 40.0, 0.0, 0.0, 0.0, 0.0];
        let x = e.expand(&[&a, &b], 5);
        // the decision is at 1-shanten (its best option), so both rows fill the sh1 copy
        assert_eq!(&x[0][6..], [0.0, 20.0, 0.0, 0.0]);
        assert_eq!(&x[1][6..], [0.0, 40.0, 0.0, 0.0]);
        assert_eq!(&x[1][..6], b);
    }

    #[test]
    fn situation_reads_riichi_value_and_turn() {
        let e = Expansion::new(&base(), &[]).unwrap();
        let a = [0.0, 4.0, 1.0, 1.0, 1500.0, 1.0];
        let b = [1.0, 30.0, 1.0, 0.0, 9000.0, 0.0]; // ev undefined: not counted
        let s = e.situation(&[&a, &b], 14);
        assert_eq!(s, Situation { shanten: 0, riichi: true, best_ev: Some(1500.0), turn: 14, threat: 0.0 });
        assert_eq!(Gate::Value.level(&s), 2);
        assert_eq!(Gate::Turn.level(&s), 2);
        assert_eq!(Gate::Riichi.level(&s), 1);
        assert_eq!(Gate::Stage.levels()[Gate::Stage.level(&s)], "sh0_t13p");
        for g in Gate::ALL {
            let mut all: Vec<&str> = Gate::ALL.iter().flat_map(|g| g.levels().iter().copied()).collect();
            all.sort();
            all.dedup();
            assert_eq!(
                all.len(),
                Gate::ALL.iter().map(|g| g.levels().len()).sum::<usize>(),
                "{g:?}: level names are unique"
            );
        }
        assert_eq!(Gate::Value.level(&Situation::default()), 0);
    }

    #[test]
    fn the_threat_gate_reads_the_likeliest_tenpai_opponent() {
        let mut cols = base();
        cols.extend(Gate::Threat.inputs().iter().map(|s| s.to_string()));
        let e = Expansion::new(&cols, &[Interaction::parse("threat:safety_worst").unwrap()]).unwrap();
        assert_eq!(
            &e.names()[9..],
            [
                "thr_low*safety_worst_genbutsu",
                "thr_mid*safety_worst_genbutsu",
                "thr_high*safety_worst_genbutsu"
            ]
        );
        let level = |next: f32, across: f32, prev: f32| {
            let a = [0.0, 4.0, 0.0, 1.0, 0.0, 0.0, next, across, prev];
            let s = e.situation(&[&a], 9);
            assert_eq!(s.threat, next.max(across).max(prev));
            (Gate::Threat.level(&s), e.expand_row(&a, &s)[9..].to_vec())
        };
        assert_eq!(level(0.1, 0.05, 0.2), (0, vec![1.0, 0.0, 0.0]));
        assert_eq!(level(0.1, 0.5, 0.2), (1, vec![0.0, 1.0, 0.0]));
        assert_eq!(level(0.1, 0.5, 0.95), (2, vec![0.0, 0.0, 1.0]));
        // the boundaries belong to the higher level
        assert_eq!(level(0.3, 0.0, 0.0).0, 1);
        assert_eq!(level(0.0, 0.7, 0.0).0, 2);
        // rows without the danger family: the gate cannot be declared
        assert!(Expansion::new(&base(), &[Interaction::parse("threat").unwrap()]).is_err());
    }

    #[test]
    fn interactions_are_recovered_from_column_names() {
        let specs = [Interaction::parse("riichi:safety_").unwrap(), Interaction::parse("shanten").unwrap()];
        let e = Expansion::new(&base(), &specs).unwrap();
        let again = Expansion::from_names(&base(), e.names()).unwrap();
        let (mut a, mut b) = (again.names().to_vec(), e.names().to_vec());
        a.sort();
        b.sort();
        assert_eq!(a, b);
        // `ev` alone, not every column starting with "ev"
        let only_ev = Expansion::from_names(&base(), &["good*ev".to_string()]).unwrap();
        assert_eq!(&only_ev.names()[6..], ["weak*ev", "good*ev", "excellent*ev"]);
        assert!(Expansion::from_names(&base(), &["zz*ev".to_string()]).is_err());
        assert!(Expansion::from_names(&base(), &["sh0*nope".to_string()]).is_err());
    }

    #[test]
    fn a_gate_without_its_input_column_is_an_error() {
        let only = vec!["ukeire_count".to_string()];
        let err = Expansion::new(&only, &[Interaction::parse("shanten").unwrap()]).unwrap_err();
        assert!(err.to_string().contains("shanten_min"), "{err}");
        assert!(Expansion::new(&only, &[Interaction::parse("turn").unwrap()]).is_ok());
        assert!(Expansion::new(&only, &[Interaction::parse("turn:zzz").unwrap()]).is_err());
    }
}
