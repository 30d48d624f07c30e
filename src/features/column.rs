//! What a column is: its [`Family`], its definition ([`FeatureDef`]), a typed address
//! ([`Column`]) and the sequential writer the families fill a row with ([`Cols`]).
//!
//! These types live apart from the catalog so that the family modules (which write through
//! [`Cols`]) and the catalog (which lists the families' columns) both import them, and neither
//! imports the other.

/// The feature family a column belongs to (one module each under `features/`), in row order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    Shape,
    Energy,
    Dora,
    YakuPotential,
    /// The seed's step-shaped point tables: one indicator per level, and its two interactions.
    Levels,
    Melds21,
    Safety,
    River,
    Threat,
    /// The rivers read in order: hand-cuts, early discards, tsumogiri runs.
    Reading,
    /// The expected value of the hand after a discard (電脳麻将's search).
    Value,
    /// How visible the discarded tile is: discard order class, paijia, tsumogiri, unseen copies.
    Visibility,
    /// What kind of action an option is (riichi, pass, call, kan).
    Action,
    /// The riichi option crossed with the situation (dama or riichi).
    RiichiTrade,
    /// The call options crossed with the situation.
    CallTrade,
    /// What the danger models (fitted on the opponents' real waits) say of a discard: its
    /// probability of dealing in, the expected loss, each opponent's tenpai probability.
    Danger,
    /// The score situation as needs: what a win or a deal-in must move to change placement.
    AllLast,
    /// Each opponent's river in order, one block of columns per opponent.
    SeatReading,
    /// The hand's ukeire already in its own river.
    FuritenRisk,
}

impl Family {
    pub const ALL: [Family; 19] = [
        Family::Shape,
        Family::Energy,
        Family::Dora,
        Family::YakuPotential,
        Family::Levels,
        Family::Melds21,
        Family::Safety,
        Family::River,
        Family::Threat,
        Family::Reading,
        Family::Value,
        Family::Visibility,
        Family::Action,
        Family::RiichiTrade,
        Family::CallTrade,
        Family::Danger,
        Family::AllLast,
        Family::SeatReading,
        Family::FuritenRisk,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Family::Shape => "shape",
            Family::Energy => "energy",
            Family::Dora => "dora",
            Family::YakuPotential => "yaku_potential",
            Family::Levels => "levels",
            Family::Melds21 => "melds21",
            Family::Safety => "safety",
            Family::River => "river",
            Family::Threat => "threat",
            Family::Value => "value",
            Family::Visibility => "visibility",
            Family::Action => "action",
            Family::RiichiTrade => "riichi_trade",
            Family::CallTrade => "call_trade",
            Family::Reading => "reading",
            Family::Danger => "danger",
            Family::AllLast => "all_last",
            Family::SeatReading => "seat_reading",
            Family::FuritenRisk => "furiten_risk",
        }
    }

    /// Position in [`Family::ALL`] (the row order).
    pub fn index(self) -> usize {
        self as usize
    }
}

/// One column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureDef {
    /// Stable snake_case name.
    pub name: &'static str,
    pub family: Family,
    /// One line: what the value counts or flags.
    pub meaning: &'static str,
}

/// A column's address: its family and its place within the family. Code that reads or writes
/// one named column holds a `Column` constant (declared by the family, checked against the
/// catalog's names by a test) and turns it into a row index with `catalog::index`, an array
/// lookup, never a search over names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub family: Family,
    pub offset: usize,
}

impl Column {
    pub const fn new(family: Family, offset: usize) -> Column {
        Column { family, offset }
    }
}

/// Sequential writer over one family's slice of a row. In debug builds every write names its
/// column and is checked against the catalog, so the fill order cannot drift from the names.
pub(crate) struct Cols<'a> {
    out: &'a mut [f32],
    #[cfg(debug_assertions)]
    names: &'static [FeatureDef],
    i: usize,
}

impl<'a> Cols<'a> {
    /// A writer over `out`, the family's slice of a row; `names` are the family's definitions
    /// (used by the debug checks only).
    pub(crate) fn new(out: &'a mut [f32], _names: &'static [FeatureDef]) -> Cols<'a> {
        Cols {
            out,
            #[cfg(debug_assertions)]
            names: _names,
            i: 0,
        }
    }

    #[inline]
    pub(crate) fn put(&mut self, _name: &str, v: f32) {
        #[cfg(debug_assertions)]
        debug_assert_eq!(self.names[self.i].name, _name, "column order drifted from the catalog");
        self.out[self.i] = v;
        self.i += 1;
    }

    /// [`put`](Self::put) for a column named `{family}_{group}_{name}`, as families with one
    /// block of columns per opponent name them; the debug check matches the group and the name
    /// without building the full name.
    #[inline]
    pub(crate) fn put_in(&mut self, _group: &str, _name: &str, v: f32) {
        #[cfg(debug_assertions)]
        {
            let full = self.names[self.i].name;
            let group = full.strip_suffix(_name).and_then(|s| s.strip_suffix('_'));
            debug_assert!(
                group.is_some_and(|g| g.ends_with(_group) && g[..g.len() - _group.len()].ends_with('_')),
                "column order drifted from the catalog: writing {_group} {_name} at {full}"
            );
        }
        self.out[self.i] = v;
        self.i += 1;
    }

    #[inline]
    pub(crate) fn flag(&mut self, name: &str, b: bool) {
        self.put(name, f32::from(u8::from(b)));
    }

    /// The whole slice, for families that index columns directly (energy, melds21).
    pub(crate) fn slice(&mut self) -> &mut [f32] {
        self.i = self.out.len();
        self.out
    }

    /// Checks every column was written (debug builds).
    pub(crate) fn done(self) {
        debug_assert_eq!(self.i, self.out.len(), "family wrote {} of {} columns", self.i, self.out.len());
    }
}
