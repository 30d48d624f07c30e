//! Hands in majiang notation, as kobalab's tools (電脳麻将, majiang-core) write them, so that their
//! users can paste a hand as it is: `m34567p2388s5779p1`, `p456788s3477p0,p222=`.
//!
//! The concealed part is suit letters each followed by digits (`0` = red five; a suit may
//! repeat); with 14 − 3 × melds tiles its last tile is the draw. A trailing `*` (riichi) is
//! ignored. Each meld follows after a comma, its called tile marked by where it came from
//! (`+` the next player, `=` across, `-` the previous one):
//! - chi `m1-23`, `m12-3`, `m123-` (always from the previous player);
//! - pon `p222=`; added kan `p222=2` (the fourth tile after the mark);
//! - open kan `s5555+`; closed kan `z1111` (no mark).

use super::meld::{Meld, MeldKind};
use super::{Hand, HandError};
use crate::tile::{parse_majiang, Tile};

/// Whether `text` is majiang notation rather than mpsz: it starts with a suit letter.
pub fn is_majiang(text: &str) -> bool {
    text.trim_start().starts_with(['m', 'p', 's', 'z'])
}

/// Parses a hand in majiang notation; also returns the draw (the last concealed tile) when the
/// hand has 3n+2 concealed tiles.
pub fn parse(text: &str) -> Result<(Hand, Option<Tile>), HandError> {
    let mut parts = text.trim().split(',');
    let concealed = parts.next().unwrap_or("").trim_end_matches('*');
    let tiles = parse_majiang(concealed)?;
    let melds = parts.filter(|m| !m.is_empty()).map(parse_meld).collect::<Result<Vec<_>, _>>()?;
    let drawn = (tiles.len() % 3 == 2).then(|| tiles.last().copied()).flatten();
    let hand = Hand { tiles, melds };
    hand.validate()?;
    Ok((hand, drawn))
}

/// Parses one meld in majiang notation.
pub fn parse_meld(text: &str) -> Result<Meld, HandError> {
    let bad = || HandError::BadMeld(text.to_string());
    let mut chars = text.chars();
    let suit = chars.next().ok_or_else(bad)?;
    // Digits in order; the index of the digit a mark follows, and the mark.
    let mut digits = String::new();
    let mut mark: Option<(usize, char)> = None;
    for ch in chars {
        match ch {
            '0'..='9' => digits.push(ch),
            '+' | '=' | '-' if mark.is_none() && !digits.is_empty() => mark = Some((digits.len() - 1, ch)),
            _ => return Err(bad()),
        }
    }
    let tiles = parse_majiang(&format!("{suit}{digits}")).map_err(|_| bad())?;
    let from = |m: char| match m {
        '+' => 1,
        '=' => 2,
        _ => 3,
    };
    let same = tiles.iter().all(|t| t.kind() == tiles[0].kind());
    match (tiles.len(), same, mark) {
        (4, true, None) => Ok(Meld::new(MeldKind::Ankan, &tiles, None, 0)),
        (4, true, Some((3, m))) => Ok(Meld::new(MeldKind::Daiminkan, &tiles, Some(tiles[3]), from(m))),
        (4, true, Some((2, m))) => Ok(Meld::new(MeldKind::Kakan, &tiles, Some(tiles[2]), from(m))),
        (3, true, Some((i, m))) => Ok(Meld::new(MeldKind::Pon, &tiles, Some(tiles[i]), from(m))),
        (3, false, Some((i, '-'))) => {
            let mut k: Vec<usize> = tiles.iter().map(|t| t.kind()).collect();
            k.sort_unstable();
            let run = k[0] < 27 && k[0] % 9 <= 6 && k[1] == k[0] + 1 && k[2] == k[0] + 2;
            if !run {
                return Err(bad());
            }
            Ok(Meld::new(MeldKind::Chi, &tiles, Some(tiles[i]), 3))
        }
        _ => Err(bad()),
    }
}

/// One meld in majiang notation, as [`parse_meld`] reads it and majiang-core writes it: a run in
/// order with the mark after the called tile, a pon or open kan with the called tile last and its
/// mark, an added kan with its fourth tile after the mark, a closed kan without a mark. The
/// golden scripts feed real positions to majiang-ai in this form.
pub fn format_meld(m: &Meld) -> String {
    let tiles: Vec<Tile> = m.tiles().to_vec();
    let mut out = String::from(['m', 'p', 's', 'z'][tiles[0].suit()]);
    let digit = |t: &Tile| char::from(b'0' + if t.is_red() { 0 } else { t.number() });
    if m.kind == MeldKind::Ankan {
        out.extend(tiles.iter().map(digit));
        return out;
    }
    let mark = match m.from {
        1 => '+',
        2 => '=',
        _ => '-',
    };
    let called = m.called.unwrap_or(tiles[0]);
    let at = tiles.iter().position(|t| *t == called).unwrap_or(0);
    let mut rest = tiles;
    let called = rest.remove(at);
    if m.kind == MeldKind::Chi {
        rest.insert(at.min(rest.len()), called);
        for t in &rest {
            out.push(digit(t));
            if *t == called {
                out.push(mark);
            }
        }
        return out;
    }
    let added = if m.kind == MeldKind::Kakan { rest.pop() } else { None };
    out.extend(rest.iter().map(digit));
    out.push(digit(&called));
    out.push(mark);
    out.extend(added.iter().map(digit));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::parse_mpsz;

    fn t(s: &str) -> Tile {
        parse_mpsz(s).unwrap()[0]
    }

    #[test]
    fn the_issue_examples() {
        let (h, drawn) = parse("m34567p2388s5779p1").unwrap();
        assert_eq!((h.tiles.len(), h.melds.len()), (14, 0));
        assert_eq!(drawn, Some(t("1p")));
        assert_eq!(h.to_string(), Hand::parse("34567m12388p5779s").unwrap().to_string());
        let (h, drawn) = parse("p456788s3477p0,p222=").unwrap();
        assert_eq!(drawn, Some(t("0p")));
        assert_eq!(h.melds.len(), 1);
        let pon = &h.melds[0];
        assert_eq!((pon.kind, pon.from, pon.called), (MeldKind::Pon, 2, Some(t("2p"))));
        // 13 concealed tiles: no draw.
        assert_eq!(parse("m123p456s789z1122").unwrap().1, None);
    }

    /// Each form written back as majiang-core writes it (the strings are its notation, not our
    /// output): a meld read and written again gives the same text.
    #[test]
    fn melds_write_back_as_read() {
        for text in [
            "m3-45", "m34-5", "m345-", "p40-6", "p222=", "s555+", "z777-", "p222=2", "s5555+", "z1111",
            "m0555=",
        ] {
            assert_eq!(format_meld(&parse_meld(text).unwrap()), text);
        }
    }

    #[test]
    fn every_meld_form() {
        let chi = parse_meld("m3-45").unwrap();
        assert_eq!((chi.kind, chi.called, chi.from), (MeldKind::Chi, Some(t("3m")), 3));
        assert_eq!(parse_meld("m34-5").unwrap().called, Some(t("4m")));
        assert_eq!(parse_meld("p40-6").unwrap().called, Some(t("0p")));
        assert_eq!(parse_meld("s555+").unwrap().from, 1);
        let kakan = parse_meld("p222=2").unwrap();
        assert_eq!((kakan.kind, kakan.from), (MeldKind::Kakan, 2));
        let daiminkan = parse_meld("s5505-").unwrap();
        assert_eq!((daiminkan.kind, daiminkan.called), (MeldKind::Daiminkan, Some(t("5s"))));
        assert_eq!(parse_meld("z1111").unwrap().kind, MeldKind::Ankan);
        for bad in ["m1+23", "m124-", "z1111-1", "m12", "x123-", "m123", "m1-2-3", ""] {
            assert!(matches!(parse_meld(bad), Err(HandError::BadMeld(_))), "{bad}");
        }
    }

    #[test]
    fn riichi_mark_and_errors() {
        assert_eq!(parse("m123p456s789z1122*").unwrap().0.tiles.len(), 13);
        assert!(is_majiang(" m1") && !is_majiang("123m") && !is_majiang("(1111s)"));
        // Bad counts and bad tiles are the usual hand errors.
        assert!(matches!(parse("m123"), Err(HandError::WrongCount { .. })));
        assert!(matches!(parse("m12x3"), Err(HandError::Notation(_))));
    }
}
