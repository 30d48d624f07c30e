//! mjai tile names (`1m`..`9s`, `5mr` for a red five, `E S W N P F C` for the honours) and the
//! Tenhou ids a reader hands out for them.
//!
//! mjai names kinds, not physical tiles, while the replay proves that no tile appears twice by its
//! Tenhou id. So the reader gives each tile an id as it appears, the way the tenhou.net/6 reader
//! does: a red five takes copy 0 (id 16 / 52 / 88), any other tile the lowest unused copy of its
//! kind. Ids therefore differ from the mjlog's, but kinds, redness and tsumogiri never do.

use super::error::MjaiError;
use crate::tile::{Tile, TileId};

const HONOURS: [&str; 7] = ["E", "S", "W", "N", "P", "F", "C"];
const SUITS: [char; 3] = ['m', 'p', 's'];

/// `(kind, red)` of an mjai tile name; `?` (a tile the log hides) and anything else is an error.
pub fn parse_tile(s: &str) -> Result<(usize, bool), MjaiError> {
    if s == "?" {
        return Err(MjaiError::HiddenTile);
    }
    if let Some(i) = HONOURS.iter().position(|h| *h == s) {
        return Ok((27 + i, false));
    }
    let b = s.as_bytes();
    let suit = b.get(1).and_then(|c| SUITS.iter().position(|x| *x as u8 == *c));
    match (b.first(), suit, &b[b.len().min(2)..]) {
        (Some(n @ b'1'..=b'9'), Some(suit), []) => Ok((suit * 9 + (n - b'1') as usize, false)),
        (Some(b'5'), Some(suit), b"r") => Ok((suit * 9 + 4, true)),
        _ => Err(MjaiError::NotATile(s.to_string())),
    }
}

/// The mjai name of a tile id (red only in a red-five game).
pub fn tile_name(id: TileId, red_fives: bool) -> &'static str {
    name(id.tile(red_fives))
}

/// The mjai name of a tile (`5mr` for a red five).
pub fn name(tile: Tile) -> &'static str {
    const NAMES: [&str; 34] = [
        "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p",
        "9p", "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "E", "S", "W", "N", "P", "F", "C",
    ];
    const RED: [&str; 3] = ["5mr", "5pr", "5sr"];
    if tile.is_red() {
        RED[tile.suit()]
    } else {
        NAMES[tile.kind()]
    }
}

/// Whether an id is the red copy of its five in a red-five game.
pub fn is_red(id: TileId, red_fives: bool) -> bool {
    red_fives && crate::tile::RED_IDS.contains(&id.get())
}

/// The ids a tile name may stand for, lowest first: the red five is copy 0 of its kind, a plain
/// five in a red-five game copies 1-3, any other tile all four copies.
pub fn ids_of(name: &str, red_fives: bool) -> Result<Vec<TileId>, MjaiError> {
    let (kind, red) = parse_tile(name)?;
    if red && !red_fives {
        return Err(MjaiError::RedWithoutReds(name.to_string()));
    }
    let five_with_red = red_fives && matches!(kind, 4 | 13 | 22);
    let copies = if red {
        0..1
    } else if five_with_red {
        1..4
    } else {
        0..4
    };
    Ok(copies.map(|c| TileId::new((kind * 4 + c) as u32).expect("kind < 34, copy < 4")).collect())
}

/// Hands out Tenhou ids within one round.
#[derive(Clone, Debug)]
pub struct Ids {
    used: [u8; 34],
    red_fives: bool,
}

impl Ids {
    pub fn new(red_fives: bool) -> Ids {
        Ids { used: [0; 34], red_fives }
    }

    /// A fresh id for a tile name: copy 0 for the red five, else the lowest free copy.
    pub fn take(&mut self, name: &str) -> Result<TileId, MjaiError> {
        let (_, red) = parse_tile(name)?;
        let id = ids_of(name, self.red_fives)?
            .into_iter()
            .find(|id| self.used[id.kind()] & (1 << (id.get() % 4)) == 0)
            .ok_or_else(|| {
                if red {
                    MjaiError::SecondRed(name.to_string())
                } else {
                    MjaiError::FifthCopy(name.to_string())
                }
            })?;
        self.used[id.kind()] |= 1 << (id.get() % 4);
        Ok(id)
    }

    /// Whether `id` is the tile `name` names (same kind, same redness).
    pub fn matches(&self, id: TileId, name: &str) -> bool {
        parse_tile(name).is_ok_and(|(kind, red)| id.kind() == kind && is_red(id, self.red_fives) == red)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back_to_its_id_kind() {
        for id in 0..136u32 {
            let id = TileId::new(id).unwrap();
            for red in [true, false] {
                let name = tile_name(id, red);
                let (kind, is) = parse_tile(name).unwrap();
                assert_eq!((kind, is), (id.kind(), is_red(id, red)), "{name}");
            }
        }
        assert_eq!(parse_tile("C").unwrap(), (33, false));
        assert_eq!(parse_tile("5sr").unwrap(), (22, true));
        for bad in ["", "0m", "5", "1z", "6mr", "?", "EE", "1mm"] {
            assert!(parse_tile(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ids_of_keeps_red_fives_apart() {
        let ids = |n: &str, red| ids_of(n, red).unwrap().iter().map(|t| t.get()).collect::<Vec<_>>();
        assert_eq!(ids("5mr", true), [16]);
        assert_eq!(ids("5m", true), [17, 18, 19]);
        assert_eq!(ids("5m", false), [16, 17, 18, 19]);
        assert_eq!(ids("C", true), [132, 133, 134, 135]);
        assert!(ids_of("5mr", false).is_err());
        assert!(ids_of("?", true).is_err());
    }

    #[test]
    fn ids_follow_the_tenhou6_scheme_and_refuse_a_fifth_copy() {
        let mut ids = Ids::new(true);
        let got: Vec<u8> = ["5m", "5mr", "5m", "5m"].iter().map(|n| ids.take(n).unwrap().get()).collect();
        assert_eq!(got, [17, 16, 18, 19]);
        assert!(ids.take("5m").is_err() && ids.take("5mr").is_err());
        let mut plain = Ids::new(false);
        assert_eq!(plain.take("5m").unwrap().get(), 16);
        assert!(plain.take("5mr").is_err());
    }
}
