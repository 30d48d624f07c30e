//! A player's hand: concealed tiles (with red fives) plus melds, and its text form.
//!
//! Text form (used by the CLI): the concealed part in mpsz, then each meld as its own group,
//! separated by spaces or commas: `"2367m34p11z 555z 789s"`. A group of three equal tiles is a
//! pon, three in a row a chi, four equal an open kan; wrap four equal tiles in parentheses for a
//! closed kan: `"123m456p11z (1111s)"`. Majiang notation (`m123p456s789z11,p555=`) is accepted
//! too: see [`majiang`].

pub mod decompose;
pub mod majiang;
pub mod meld;
pub mod memo;
pub mod replacement;
pub mod shanten;
pub mod waits;

use crate::tile::{counts_of, format_mpsz, parse_mpsz, Counts, NotationError, Tile};
use meld::{Meld, MeldKind};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    /// Concealed tiles, in no particular order.
    pub tiles: Vec<Tile>,
    pub melds: Vec<Meld>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HandError {
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error("meld {0:?} is neither a run, a set of three nor four of a kind")]
    BadMeld(String),
    #[error("{count} copies of {tile} (at most 4 exist)")]
    TooManyCopies { tile: Tile, count: u8 },
    #[error("a hand with {melds} meld(s) has {want} or {} concealed tiles, not {got}", want + 1)]
    WrongCount { melds: usize, want: usize, got: usize },
    #[error("more than one red {0}")]
    TwoReds(Tile),
    #[error("more than 4 melds")]
    TooManyMelds,
}

impl Hand {
    pub fn new(tiles: Vec<Tile>, melds: Vec<Meld>) -> Hand {
        Hand { tiles, melds }
    }

    /// Parses the text form described in the module doc, or majiang notation ([`majiang`]:
    /// text starting with a suit letter), and checks tile counts.
    pub fn parse(text: &str) -> Result<Hand, HandError> {
        if majiang::is_majiang(text) {
            return majiang::parse(text).map(|(hand, _)| hand);
        }
        let mut groups = text.split([' ', ',']).filter(|g| !g.is_empty());
        let tiles = parse_mpsz(groups.next().unwrap_or(""))?;
        let melds = groups.map(parse_meld).collect::<Result<Vec<_>, _>>()?;
        let hand = Hand { tiles, melds };
        hand.validate()?;
        Ok(hand)
    }

    fn validate(&self) -> Result<(), HandError> {
        if self.melds.len() > 4 {
            return Err(HandError::TooManyMelds);
        }
        let all: Vec<Tile> =
            self.tiles.iter().chain(self.melds.iter().flat_map(|m| m.tiles())).copied().collect();
        let counts = counts_of(&all);
        if let Some(k) = (0..34).find(|&k| counts[k] > 4) {
            return Err(HandError::TooManyCopies { tile: Tile::from_kind(k), count: counts[k] });
        }
        for suit in 0..3 {
            if all.iter().filter(|t| **t == Tile::red_five(suit)).count() > 1 {
                return Err(HandError::TwoReds(Tile::red_five(suit)));
            }
        }
        let want = 13 - 3 * self.melds.len();
        if self.tiles.len() != want && self.tiles.len() != want + 1 {
            return Err(HandError::WrongCount { melds: self.melds.len(), want, got: self.tiles.len() });
        }
        Ok(())
    }

    /// Concealed tile counts by kind.
    pub fn counts(&self) -> Counts {
        counts_of(&self.tiles)
    }

    /// True when it is this hand's turn to discard (3n+2 concealed tiles).
    pub fn is_full(&self) -> bool {
        self.tiles.len() % 3 == 2
    }

    /// No open meld (a closed kan keeps the hand closed).
    pub fn is_closed(&self) -> bool {
        self.melds.iter().all(|m| !m.is_open())
    }

    /// Shanten of every form.
    pub fn shanten(&self) -> shanten::ShantenAll {
        shanten::shanten_all(&self.counts(), self.melds.len())
    }

    /// The distinct tiles this hand could discard, red fives distinct from plain fives, in
    /// kind order.
    pub fn distinct_tiles(&self) -> Vec<Tile> {
        let mut v = self.tiles.clone();
        v.sort_by_key(|t| (t.kind(), !t.is_red()));
        v.dedup();
        v
    }

    /// The hand without one copy of `tile` (the exact tile, red or not). `None` if not held.
    pub fn without(&self, tile: Tile) -> Option<Hand> {
        let i = self.tiles.iter().position(|t| *t == tile)?;
        let mut h = self.clone();
        h.tiles.swap_remove(i);
        Some(h)
    }
}

impl std::fmt::Display for Hand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", format_mpsz(&self.tiles))?;
        for m in &self.melds {
            if m.kind == MeldKind::Ankan {
                write!(f, " ({})", format_mpsz(m.tiles()))?;
            } else {
                write!(f, " {}", format_mpsz(m.tiles()))?;
            }
        }
        Ok(())
    }
}

fn parse_meld(text: &str) -> Result<Meld, HandError> {
    let bad = || HandError::BadMeld(text.to_string());
    let (closed, inner) = match text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        Some(inner) => (true, inner),
        None => (false, text),
    };
    let mut tiles = parse_mpsz(inner)?;
    tiles.sort_by_key(|t| t.kind());
    let same = tiles.iter().all(|t| t.kind() == tiles[0].kind());
    let kind = match (tiles.len(), same, closed) {
        (4, true, true) => MeldKind::Ankan,
        (4, true, false) => MeldKind::Daiminkan,
        (3, true, false) => MeldKind::Pon,
        (3, false, false) => {
            let k = tiles[0].kind();
            let run = k < 27 && k % 9 <= 6 && tiles[1].kind() == k + 1 && tiles[2].kind() == k + 2;
            if !run {
                return Err(bad());
            }
            MeldKind::Chi
        }
        _ => return Err(bad()),
    };
    let called = (kind != MeldKind::Ankan).then(|| tiles[0]);
    Ok(Meld::new(kind, &tiles, called, if called.is_some() { 3 } else { 0 }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_with_melds() {
        let h = Hand::parse("2367m34p11z 555z,789s").unwrap();
        assert_eq!(h.tiles.len(), 8);
        assert_eq!(h.melds.len(), 2);
        assert_eq!(h.melds[0].kind, MeldKind::Pon);
        assert_eq!(h.melds[1].kind, MeldKind::Chi);
        assert_eq!(h.shanten().standard, 1);
        let k = Hand::parse("123m456p11z23s (1111s)").unwrap();
        assert_eq!(k.melds[0].kind, MeldKind::Ankan);
        assert!(k.is_closed());
        assert_eq!(k.to_string(), "123m456p23s11z (1111s)");
        assert_eq!(Hand::parse("5z 111m 222m 333m 444m").unwrap().shanten().shanten, 0);
    }

    #[test]
    fn parse_errors() {
        assert!(matches!(Hand::parse("123m 135m"), Err(HandError::BadMeld(_))));
        assert!(matches!(Hand::parse("123m 12m"), Err(HandError::BadMeld(_))));
        assert!(matches!(Hand::parse("11111m23456789p"), Err(HandError::TooManyCopies { .. })));
        assert!(matches!(Hand::parse("123m"), Err(HandError::WrongCount { .. })));
        assert!(matches!(Hand::parse("00m123456789p11z"), Err(HandError::TwoReds(_))));
        assert!(matches!(Hand::parse("123q"), Err(HandError::Notation(_))));
        let e = Hand::parse("123m456p789s11z 123m 9x").unwrap_err();
        assert!(e.to_string().contains("'x'"), "{e}");
    }

    #[test]
    fn distinct_keeps_red_apart() {
        let h = Hand::parse("055m123456789p11z").unwrap();
        let d: Vec<String> = h.distinct_tiles().iter().map(|t| t.to_string()).collect();
        assert_eq!(&d[..2], &["0m", "5m"]);
        assert_eq!(d.len(), 12);
    }
}
