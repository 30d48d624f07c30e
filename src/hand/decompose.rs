//! Decompositions of a complete concealed part into one pair and groups (runs and sets).
//!
//! Scoring needs every way a winning hand can be read, because yaku and fu depend on the reading
//! (`111222333m` is three sets or three identical runs). Later features (yaku potential, expected
//! value) reuse the same enumeration. Enumeration is by the lowest remaining tile: it must either
//! start a set or start a run, so each decomposition is produced exactly once, without allocation
//! ([`for_each_decomposition`] calls back with a value on the stack).
//!
//! The two irregular forms live here too: seven pairs ([`is_chiitoitsu`]) and thirteen orphans
//! ([`is_kokushi`]).

use crate::tile::{is_yaochu, Counts, Kind, KINDS};

/// A run of three consecutive suited kinds, or three of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GroupKind {
    Run,
    Set,
}

/// One group of a decomposition: a run starting at `first`, or a set of `first`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Group {
    pub kind: GroupKind,
    pub first: Kind,
}

impl Group {
    pub const fn run(first: Kind) -> Group {
        Group { kind: GroupKind::Run, first }
    }

    pub const fn set(first: Kind) -> Group {
        Group { kind: GroupKind::Set, first }
    }

    /// Whether a tile of `kind` is part of this group.
    #[inline]
    pub fn contains(self, kind: Kind) -> bool {
        match self.kind {
            GroupKind::Set => kind == self.first,
            GroupKind::Run => kind >= self.first && kind <= self.first + 2,
        }
    }

    /// Whether the group holds a terminal or honor (a run 123 or 789, or a set of yaochuuhai).
    #[inline]
    pub fn has_yaochu(self) -> bool {
        match self.kind {
            GroupKind::Set => is_yaochu(self.first),
            GroupKind::Run => self.first % 9 == 0 || self.first % 9 == 6,
        }
    }
}

/// A pair plus up to four groups, covering a concealed part of 3n+2 tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decomposition {
    pub pair: Kind,
    groups: [Group; 4],
    len: u8,
}

impl Decomposition {
    pub fn groups(&self) -> &[Group] {
        &self.groups[..self.len as usize]
    }
}

/// Calls `f` once for every decomposition of `counts` into one pair and groups. Nothing is called
/// when the hand is not complete in the standard form (or holds more than 14 tiles).
pub fn for_each_decomposition(counts: &Counts, mut f: impl FnMut(&Decomposition)) {
    let total: u32 = counts.iter().map(|&c| c as u32).sum();
    if total % 3 != 2 || total > 14 {
        return;
    }
    let mut c = *counts;
    let mut d = Decomposition { pair: 0, groups: [Group::set(0); 4], len: 0 };
    for k in 0..KINDS {
        if c[k] >= 2 {
            c[k] -= 2;
            d.pair = k;
            groups_from(&mut c, 0, &mut d, &mut f);
            c[k] += 2;
        }
    }
}

/// Every decomposition, collected (for callers that are not in a hot loop).
pub fn decompositions(counts: &Counts) -> Vec<Decomposition> {
    let mut out = Vec::new();
    for_each_decomposition(counts, |d| out.push(*d));
    out
}

fn groups_from(c: &mut Counts, from: Kind, d: &mut Decomposition, f: &mut impl FnMut(&Decomposition)) {
    let Some(k) = (from..KINDS).find(|&k| c[k] > 0) else {
        f(d);
        return;
    };
    if d.len as usize == d.groups.len() {
        return;
    }
    if c[k] >= 3 {
        c[k] -= 3;
        d.groups[d.len as usize] = Group::set(k);
        d.len += 1;
        groups_from(c, k, d, f);
        d.len -= 1;
        c[k] += 3;
    }
    if k < 27 && k % 9 <= 6 && c[k + 1] > 0 && c[k + 2] > 0 {
        c[k] -= 1;
        c[k + 1] -= 1;
        c[k + 2] -= 1;
        d.groups[d.len as usize] = Group::run(k);
        d.len += 1;
        groups_from(c, k, d, f);
        d.len -= 1;
        c[k] += 1;
        c[k + 1] += 1;
        c[k + 2] += 1;
    }
}

/// Seven distinct pairs (four of a kind is not two pairs, as under Tenhou rules).
pub fn is_chiitoitsu(counts: &Counts) -> bool {
    counts.iter().filter(|&&c| c == 2).count() == 7 && counts.iter().all(|&c| c == 0 || c == 2)
}

/// Thirteen orphans: one of each terminal and honor, one of them doubled, nothing else.
pub fn is_kokushi(counts: &Counts) -> bool {
    let mut pairs = 0;
    for k in 0..KINDS {
        match (is_yaochu(k), counts[k]) {
            (true, 1) | (false, 0) => {}
            (true, 2) => pairs += 1,
            _ => return false,
        }
    }
    pairs == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{counts_of, parse_mpsz};

    fn counts(s: &str) -> Counts {
        counts_of(&parse_mpsz(s).unwrap())
    }

    #[test]
    fn triple_runs_read_two_ways() {
        // 111222333m: three sets or three identical runs; with 789p and 55s as the rest.
        let ds = decompositions(&counts("111222333m789p55s"));
        assert_eq!(ds.len(), 2);
        assert!(ds.iter().all(|d| d.pair == 22 && d.groups().len() == 4));
        let sets = ds.iter().filter(|d| d.groups().iter().any(|g| g.kind == GroupKind::Set)).count();
        assert_eq!(sets, 1);
    }

    #[test]
    fn pair_choice_matters() {
        // 11123m: pair 11 + 123 or set 111 + ... no; 1112345m: pair 11 + 123 45? incomplete.
        // 11123444m + 567p + 99s: pairs 11 (123 444) or 44 (111 234).
        let ds = decompositions(&counts("11123444m567p99s"));
        assert!(ds.is_empty(), "16 tiles is not a hand");
        let ds = decompositions(&counts("11123444m567p"));
        let pairs: Vec<Kind> = ds.iter().map(|d| d.pair).collect();
        assert_eq!(pairs, vec![0, 3]);
        assert!(decompositions(&counts("123m456p789s1234z")).is_empty());
    }

    #[test]
    fn chuuren_has_many_readings() {
        for extra in 1..=9 {
            let s = format!("1112345678999{extra}m");
            assert!(!decompositions(&counts(&s)).is_empty(), "{s}");
        }
    }

    #[test]
    fn irregular_forms() {
        assert!(is_chiitoitsu(&counts("1133m5577p99s1122z")));
        assert!(!is_chiitoitsu(&counts("1111m5577p99s1122z")));
        assert!(is_kokushi(&counts("19m19p19s12345677z")));
        assert!(!is_kokushi(&counts("19m19p19s12345678m")));
        assert!(!is_kokushi(&counts("119m19p19s1234566z")));
    }
}
