//! The safety facts a seat reads off the table, defined once: which kinds are genbutsu against an
//! opponent, a kind's suji partners and its suji class, the copies seen and unseen (kabe), and
//! the two-tile shapes that wait on a kind.
//!
//! Every reader of safety builds on these: 電脳麻将's danger scores ([`super::danger`]), the
//! push / fold classes ([`super::push_fold`]), and the feature families `safety`, `river` and
//! `threat`. Each reader still chooses its own inputs (a riichi player's safe set, or a river
//! alone), but what "genbutsu", "suji" or "a wall" means is decided here.

use crate::replay::view::{Opponent, View};
use crate::tile::{is_honor, Counts, Kind};

/// A set of tile kinds, one bit per kind (34 of the 64 used).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindSet(u64);

impl KindSet {
    /// The empty set.
    pub const EMPTY: KindSet = KindSet(0);

    /// Whether kind `k` is in the set.
    #[inline]
    pub fn contains(self, k: Kind) -> bool {
        self.0 >> k & 1 == 1
    }

    /// Adds kind `k`.
    #[inline]
    pub fn insert(&mut self, k: Kind) {
        self.0 |= 1 << k;
    }

    /// The set as its bits (bit k = kind k).
    pub fn bits(self) -> u64 {
        self.0
    }
}

impl FromIterator<Kind> for KindSet {
    fn from_iter<I: IntoIterator<Item = Kind>>(iter: I) -> KindSet {
        let mut s = KindSet::EMPTY;
        for k in iter {
            s.insert(k);
        }
        s
    }
}

/// Every kind in an opponent's river, called-away tiles included (furiten counts them).
pub fn river_kinds(o: &Opponent) -> KindSet {
    o.river.iter().map(|r| r.tile.kind()).collect()
}

/// The kinds an opponent cannot ron: their river ([`river_kinds`]) and every kind anyone
/// discarded after their riichi declaration ([`Opponent::riichi_passed`]: they let it pass).
/// For an opponent not in riichi this is their river alone.
pub fn genbutsu(o: &Opponent) -> KindSet {
    let mut set = river_kinds(o);
    for (k, &n) in o.riichi_passed.iter().enumerate() {
        if n > 0 {
            set.insert(k);
        }
    }
    set
}

/// The suji partners of suited kind `k`: (n − 3, n + 3) of the same suit, each where it exists;
/// an honour has none. A ryanmen on `k` always waits on `k` and one partner too, so a partner
/// the opponent cannot ron rules out the ryanmen on that side.
pub fn suji_partners(k: Kind) -> [Option<Kind>; 2] {
    if is_honor(k) {
        return [None, None];
    }
    let n = k % 9 + 1;
    [(n >= 4).then(|| k - 3), (n <= 6).then_some(k + 3)]
}

/// How a suited kind stands against a set of safe kinds by its suji partners.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suji {
    /// Every partner is safe: 1-3 and 7-9 by their one partner, 4-6 by both.
    Full,
    /// A 4-6 with exactly one of its two partners safe.
    Half,
    /// No partner safe (musuji).
    None,
}

/// The suji class of kind `k` against `safe`; `None` for an honour. Genbutsu is not looked at:
/// callers that rank genbutsu above suji test it first.
pub fn suji(safe: KindSet, k: Kind) -> Option<Suji> {
    if is_honor(k) {
        return None;
    }
    let partners = suji_partners(k);
    let total = partners.iter().flatten().count();
    let safe_partners = partners.iter().flatten().filter(|&&p| safe.contains(p)).count();
    Some(if safe_partners == total {
        Suji::Full
    } else if safe_partners == 1 {
        Suji::Half
    } else {
        Suji::None
    })
}

/// Whether kind `k` is suji against `safe`: every partner safe ([`Suji::Full`]); never an honour.
pub fn is_suji(safe: KindSet, k: Kind) -> bool {
    suji(safe, k) == Some(Suji::Full)
}

/// Copies of each kind the seat has seen: every visible tile (rivers, melds, own melds, dora
/// indicators) and its concealed hand, at most 4.
pub fn seen_counts(view: &View) -> Counts {
    let held = view.hand_counts();
    std::array::from_fn(|k| (view.visible[k] + held[k]).min(4))
}

/// Copies of each kind the seat has not seen: 4 − [`seen_counts`]. Where a kind has none left
/// (a wall, kabe), no shape needing it can wait.
pub fn unseen_counts(view: &View) -> Counts {
    seen_counts(view).map(|s| 4 - s)
}

/// A sequence shape of two tiles that waits on a suited kind from one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideShape {
    /// The two kinds the shape holds: (n − 1, n − 2) below the kind, (n + 1, n + 2) above.
    pub tiles: [Kind; 2],
    /// The shape is a 1-2 or 8-9 penchan (one-sided); otherwise a ryanmen.
    pub penchan: bool,
    /// For a ryanmen, its other wait (the suji partner on that side).
    pub other_wait: Option<Kind>,
}

/// The two-tile sequence shapes that wait on suited kind `k` from below and from above (none
/// for an honour): penchans included, kanchan (n − 1, n + 1) not.
pub fn side_shapes(k: Kind) -> impl Iterator<Item = SideShape> {
    let suited = !is_honor(k);
    let n = (k % 9 + 1) as i32;
    let base = k as i32 - n; // the kind of rank m is base + m
    [-1i32, 1].into_iter().filter_map(move |dir| {
        let (a, b) = (n + dir, n + 2 * dir);
        if !suited || !(1..=9).contains(&b) {
            return None;
        }
        let penchan = b == 1 || b == 9;
        Some(SideShape {
            tiles: [(base + a) as Kind, (base + b) as Kind],
            penchan,
            other_wait: (!penchan).then(|| (base + n + 3 * dir) as Kind),
        })
    })
}

/// Whether every copy of `k` is seen: a wall (kabe) no shape needing `k` can get past.
pub fn is_wall(seen: &Counts, k: Kind) -> bool {
    seen[k] >= 4
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::parse_mpsz;

    fn k(s: &str) -> Kind {
        parse_mpsz(s).unwrap()[0].kind()
    }

    fn set(s: &str) -> KindSet {
        parse_mpsz(s).unwrap().iter().map(|t| t.kind()).collect()
    }

    #[test]
    fn partners_by_rank() {
        assert_eq!(suji_partners(k("1m")), [None, Some(k("4m"))]);
        assert_eq!(suji_partners(k("5p")), [Some(k("2p")), Some(k("8p"))]);
        assert_eq!(suji_partners(k("9s")), [Some(k("6s")), None]);
        assert_eq!(suji_partners(k("1z")), [None, None]);
    }

    #[test]
    fn suji_classes() {
        assert_eq!(suji(set("4m"), k("1m")), Some(Suji::Full));
        assert_eq!(suji(set("4m"), k("7m")), Some(Suji::Full), "7-9 have one partner, below");
        assert_eq!(suji(set("1m7m"), k("4m")), Some(Suji::Full));
        assert_eq!(suji(set("1m"), k("4m")), Some(Suji::Half));
        assert_eq!(suji(set("4p"), k("7m")), Some(Suji::None), "another suit");
        assert_eq!(suji(set("6s"), k("9s")), Some(Suji::Full));
        assert_eq!(suji(set("1z"), k("1z")), None);
    }

    #[test]
    fn shapes_on_each_side() {
        let s: Vec<SideShape> = side_shapes(k("3m")).collect();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0], SideShape { tiles: [k("2m"), k("1m")], penchan: true, other_wait: None });
        assert_eq!(s[1], SideShape { tiles: [k("4m"), k("5m")], penchan: false, other_wait: Some(k("6m")) });
        let s: Vec<SideShape> = side_shapes(k("8p")).collect();
        assert_eq!(
            s,
            vec![SideShape { tiles: [k("7p"), k("6p")], penchan: false, other_wait: Some(k("5p")) }]
        );
        assert_eq!(side_shapes(k("5z")).count(), 0);
    }
}
