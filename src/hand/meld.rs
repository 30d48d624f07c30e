//! Melds: called or declared groups that sit face up (or, for a closed kan, face down) beside a hand.

use crate::tile::{Kind, Tile};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeldKind {
    Chi,
    Pon,
    /// Open kan called on a discard.
    Daiminkan,
    /// Added kan: a fourth tile added to a pon.
    Kakan,
    /// Closed kan; does not open the hand.
    Ankan,
}

/// A meld. `tiles` holds 3 or 4 tiles sorted by kind; `called` is the tile taken from another
/// seat (for kakan, the pon's called tile), `from` the relative seat it came from:
/// 1 = the next player (shimocha), 2 = across (toimen), 3 = the previous player (kamicha), 0 = none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Meld {
    pub kind: MeldKind,
    tiles: [Tile; 4],
    len: u8,
    pub called: Option<Tile>,
    pub from: u8,
}

impl Meld {
    /// Builds a meld; tiles are sorted. Panics if the tile count does not fit the kind
    /// (3 for chi/pon, 4 for kans): callers validate input before building melds.
    pub fn new(kind: MeldKind, tiles: &[Tile], called: Option<Tile>, from: u8) -> Meld {
        let want = if kind.is_kan() { 4 } else { 3 };
        assert_eq!(tiles.len(), want, "{kind:?} needs {want} tiles");
        let mut arr = [tiles[0]; 4];
        arr[..tiles.len()].copy_from_slice(tiles);
        arr[..tiles.len()].sort_by_key(|t| (t.kind(), !t.is_red()));
        Meld { kind, tiles: arr, len: tiles.len() as u8, called, from }
    }

    pub fn tiles(&self) -> &[Tile] {
        &self.tiles[..self.len as usize]
    }

    /// The lowest kind in the meld (the kind of a set, the first tile of a run).
    pub fn first_kind(&self) -> Kind {
        self.tiles[0].kind()
    }

    /// Open melds break menzen; a closed kan does not.
    pub fn is_open(&self) -> bool {
        self.kind != MeldKind::Ankan
    }

    pub fn is_kan(&self) -> bool {
        self.kind.is_kan()
    }

    /// A run (chi) rather than a set.
    pub fn is_run(&self) -> bool {
        self.kind == MeldKind::Chi
    }
}

impl MeldKind {
    pub fn is_kan(self) -> bool {
        matches!(self, MeldKind::Daiminkan | MeldKind::Kakan | MeldKind::Ankan)
    }
}
