//! Tiles, Tenhou tile ids and the two text notations.
//!
//! A [`Tile`] is one of the 34 kinds, or one of the three red fives. Kinds follow Tenhou's order:
//! 0..=8 = 1m..9m, 9..=17 = 1p..9p, 18..=26 = 1s..9s, 27..=33 = East South West North White Green Red.
//! Red fives are kept distinct because they change a hand's value; everything that only cares
//! about shape (shanten, waits) works on [`Tile::kind`].
//!
//! Notations:
//! - mpsz: digits then a suit letter, `123m456p789s1122z`, `0` = red five, honors `1z..7z`.
//! - majiang (kobalab's majiang-core): suit letter then digits, `m123p456s789z1122`.

use std::fmt;

/// Number of tile kinds.
pub const KINDS: usize = 34;

/// A tile kind index 0..=33 (see the module doc for the order).
pub type Kind = usize;

/// Counts of each kind: the representation every shape algorithm works on.
pub type Counts = [u8; KINDS];

/// One tile: a kind, or a red five. Stored as 0..=33 for plain kinds and 34..=36 for red 5m/5p/5s.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

impl Tile {
    /// The plain tile of a kind. Panics on a kind out of range (a programming error, not input).
    pub const fn from_kind(kind: Kind) -> Tile {
        assert!(kind < KINDS);
        Tile(kind as u8)
    }

    /// The red five of a suit (0 = m, 1 = p, 2 = s).
    pub const fn red_five(suit: usize) -> Tile {
        assert!(suit < 3);
        Tile(34 + suit as u8)
    }

    /// The kind of this tile (a red five is a five).
    #[inline]
    pub const fn kind(self) -> Kind {
        if self.0 >= 34 {
            (self.0 as usize - 34) * 9 + 4
        } else {
            self.0 as usize
        }
    }

    #[inline]
    pub const fn is_red(self) -> bool {
        self.0 >= 34
    }

    /// The same tile without its red flag.
    #[inline]
    pub const fn plain(self) -> Tile {
        Tile(self.kind() as u8)
    }

    /// A compact index 0..=36 (34..=36 red fives), for tables keyed by tile including redness.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The inverse of [`Tile::index`].
    pub fn from_index(index: usize) -> Option<Tile> {
        (index < 37).then_some(Tile(index as u8))
    }

    /// Suit 0 = m, 1 = p, 2 = s, 3 = honors.
    #[inline]
    pub const fn suit(self) -> usize {
        kind_suit(self.kind())
    }

    /// Number 1..=9 for suited tiles, 1..=7 for honors.
    #[inline]
    pub const fn number(self) -> u8 {
        kind_number(self.kind())
    }

    /// The mpsz spelling: `5m`, `0m` for a red five, `7z` for red dragon.
    pub fn mpsz(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = if self.is_red() { 0 } else { self.number() };
        write!(f, "{}{}", n, SUIT_LETTERS[self.suit()] as char)
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

const SUIT_LETTERS: [u8; 4] = *b"mpsz";

/// Suit of a kind: 0 = m, 1 = p, 2 = s, 3 = honors.
#[inline]
pub const fn kind_suit(kind: Kind) -> usize {
    kind / 9
}

/// Number of a kind: 1..=9 for suits, 1..=7 for honors.
#[inline]
pub const fn kind_number(kind: Kind) -> u8 {
    (kind % 9) as u8 + 1
}

#[inline]
pub const fn is_honor(kind: Kind) -> bool {
    kind >= 27
}

/// 1 or 9 of a suit.
#[inline]
pub const fn is_terminal(kind: Kind) -> bool {
    kind < 27 && (kind % 9 == 0 || kind % 9 == 8)
}

/// The 5 of a suit (the kind whose copies include the red five).
#[inline]
pub const fn is_five(kind: Kind) -> bool {
    kind < 27 && kind % 9 == 4
}

/// Terminal or honor (yaochuuhai).
#[inline]
pub const fn is_yaochu(kind: Kind) -> bool {
    is_honor(kind) || is_terminal(kind)
}

/// The kinds of [`is_honor`], [`is_terminal`] and [`is_yaochu`] as bit sets (bit k = kind k),
/// for code that tests a whole hand's kinds at once; and every kind.
pub const HONOR_KINDS: u64 = 0x7f << 27;
pub const TERMINAL_KINDS: u64 = 1 | 1 << 8 | 1 << 9 | 1 << 17 | 1 << 18 | 1 << 26;
pub const YAOCHU_KINDS: u64 = HONOR_KINDS | TERMINAL_KINDS;
pub const ALL_KINDS: u64 = (1 << KINDS) - 1;

/// Wind kinds: East 27, South 28, West 29, North 30.
pub const EAST: Kind = 27;

/// The dora a dora indicator points at (9m → 1m, North → East, Red → White).
pub const fn dora_from_indicator(indicator: Kind) -> Kind {
    if indicator < 27 {
        indicator - indicator % 9 + (indicator % 9 + 1) % 9
    } else if indicator < 31 {
        27 + (indicator - 27 + 1) % 4
    } else {
        31 + (indicator - 31 + 1) % 3
    }
}

/// The dora an indicator points at on a table of `players` seats: at three, where 2m–8m are
/// out of the set, 1m points at 9m (and 9m at 1m, as at four).
pub const fn dora_from_indicator_at(indicator: Kind, players: u8) -> Kind {
    if players == 3 && indicator == 0 {
        8
    } else {
        dora_from_indicator(indicator)
    }
}

/// North's kind.
pub const NORTH: Kind = 30;

/// A Tenhou tile id 0..=135: kind * 4 + copy. With red fives on, ids 16, 52 and 88 are the red ones.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct TileId(u8);

/// Ids of the three red fives (copy 0 of 5m, 5p, 5s).
pub const RED_IDS: [u8; 3] = [16, 52, 88];

impl TileId {
    /// `None` when the id is out of range.
    pub fn new(id: u32) -> Option<TileId> {
        (id < 136).then_some(TileId(id as u8))
    }

    #[inline]
    pub const fn get(self) -> u8 {
        self.0
    }

    #[inline]
    pub const fn kind(self) -> Kind {
        (self.0 / 4) as usize
    }

    /// The tile this id stands for; `red_fives` says whether the game plays with red fives.
    #[inline]
    pub fn tile(self, red_fives: bool) -> Tile {
        if red_fives {
            match self.0 {
                16 => return Tile::red_five(0),
                52 => return Tile::red_five(1),
                88 => return Tile::red_five(2),
                _ => {}
            }
        }
        Tile::from_kind(self.kind())
    }
}

/// A notation error: what was wrong and where (0-based character position).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("unexpected character {ch:?} at position {pos} in {text:?}")]
    BadChar { ch: char, pos: usize, text: String },
    #[error("digits {digits:?} without a suit letter at the end of {text:?}")]
    MissingSuit { digits: String, text: String },
    #[error("suit letter {suit:?} at position {pos} has no digits in {text:?}")]
    EmptyGroup { suit: char, pos: usize, text: String },
    #[error("{tile} is not a tile (character {ch:?} at position {pos} in {text:?})")]
    NoSuchTile { tile: String, ch: char, pos: usize, text: String },
}

fn make_tile(digit: u8, suit: usize) -> Option<Tile> {
    match (digit, suit) {
        (0, 0..=2) => Some(Tile::red_five(suit)),
        (1..=9, 0..=2) => Some(Tile::from_kind(suit * 9 + digit as usize - 1)),
        (1..=7, 3) => Some(Tile::from_kind(27 + digit as usize - 1)),
        _ => None,
    }
}

fn suit_of_letter(c: char) -> Option<usize> {
    match c {
        'm' => Some(0),
        'p' => Some(1),
        's' => Some(2),
        'z' => Some(3),
        _ => None,
    }
}

/// Parses mpsz notation (`123m456p789s1122z`, `0` = red five). Spaces are not allowed here;
/// callers that accept melds split the text first.
pub fn parse_mpsz(text: &str) -> Result<Vec<Tile>, NotationError> {
    let mut tiles = Vec::with_capacity(14);
    let mut pending: Vec<(u8, usize)> = Vec::new();
    for (pos, ch) in text.chars().enumerate() {
        if let Some(d) = ch.to_digit(10) {
            pending.push((d as u8, pos));
        } else if let Some(suit) = suit_of_letter(ch) {
            if pending.is_empty() {
                return Err(NotationError::EmptyGroup { suit: ch, pos, text: text.into() });
            }
            for (d, dpos) in pending.drain(..) {
                let tile = make_tile(d, suit).ok_or_else(|| NotationError::NoSuchTile {
                    tile: format!("{d}{ch}"),
                    ch: char::from(b'0' + d),
                    pos: dpos,
                    text: text.into(),
                })?;
                tiles.push(tile);
            }
        } else {
            return Err(NotationError::BadChar { ch, pos, text: text.into() });
        }
    }
    if !pending.is_empty() {
        let digits = pending.iter().map(|(d, _)| char::from(b'0' + d)).collect();
        return Err(NotationError::MissingSuit { digits, text: text.into() });
    }
    Ok(tiles)
}

/// Parses majiang notation (`m123p456s789z1122`, `0` = red five).
pub fn parse_majiang(text: &str) -> Result<Vec<Tile>, NotationError> {
    let mut tiles = Vec::with_capacity(14);
    let mut suit: Option<(usize, char, usize, bool)> = None; // (suit, letter, pos, has digits)
    for (pos, ch) in text.chars().enumerate() {
        if let Some(s) = suit_of_letter(ch) {
            if let Some((_, letter, lpos, false)) = suit {
                return Err(NotationError::EmptyGroup { suit: letter, pos: lpos, text: text.into() });
            }
            suit = Some((s, ch, pos, false));
        } else if let Some(d) = ch.to_digit(10) {
            let Some((s, letter, lpos, _)) = suit else {
                return Err(NotationError::BadChar { ch, pos, text: text.into() });
            };
            let tile = make_tile(d as u8, s).ok_or_else(|| NotationError::NoSuchTile {
                tile: format!("{letter}{d}"),
                ch,
                pos,
                text: text.into(),
            })?;
            tiles.push(tile);
            suit = Some((s, letter, lpos, true));
        } else {
            return Err(NotationError::BadChar { ch, pos, text: text.into() });
        }
    }
    if let Some((_, letter, lpos, false)) = suit {
        return Err(NotationError::EmptyGroup { suit: letter, pos: lpos, text: text.into() });
    }
    Ok(tiles)
}

/// Sort order for printing: by kind, the red five just before the plain fives of its suit.
fn print_key(t: &Tile) -> (usize, bool) {
    (t.kind(), !t.is_red())
}

/// Formats tiles in mpsz notation, grouped by suit in m p s z order (`123m456p11z`).
pub fn format_mpsz(tiles: &[Tile]) -> String {
    let mut sorted = tiles.to_vec();
    sorted.sort_by_key(print_key);
    let mut out = String::new();
    for suit in 0..4 {
        let mut any = false;
        for t in sorted.iter().filter(|t| t.suit() == suit) {
            out.push(char::from(b'0' + if t.is_red() { 0 } else { t.number() }));
            any = true;
        }
        if any {
            out.push(SUIT_LETTERS[suit] as char);
        }
    }
    out
}

/// Formats tiles in majiang notation (`m123p456z11`).
pub fn format_majiang(tiles: &[Tile]) -> String {
    let mut sorted = tiles.to_vec();
    sorted.sort_by_key(print_key);
    let mut out = String::new();
    for suit in 0..4 {
        let mut group = sorted.iter().filter(|t| t.suit() == suit).peekable();
        if group.peek().is_some() {
            out.push(SUIT_LETTERS[suit] as char);
            for t in group {
                out.push(char::from(b'0' + if t.is_red() { 0 } else { t.number() }));
            }
        }
    }
    out
}

/// Counts of each kind (red fives counted as fives).
pub fn counts_of(tiles: &[Tile]) -> Counts {
    let mut c = [0u8; KINDS];
    for t in tiles {
        c[t.kind()] += 1;
    }
    c
}

/// Formats a counts array in mpsz (no red fives).
pub fn format_counts(counts: &Counts) -> String {
    let tiles: Vec<Tile> =
        (0..KINDS).flat_map(|k| std::iter::repeat_n(Tile::from_kind(k), counts[k] as usize)).collect();
    format_mpsz(&tiles)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_reds() {
        let t = parse_mpsz("0m0p0s5z").unwrap();
        assert_eq!(t.iter().map(|t| t.kind()).collect::<Vec<_>>(), vec![4, 13, 22, 31]);
        assert!(t[0].is_red() && !t[3].is_red());
        assert_eq!(t[1].to_string(), "0p");
        assert_eq!(t[1].plain().to_string(), "5p");
    }

    /// The fives are 5m, 5p and 5s, the kinds of the three red fives; 5z (a dragon) is not one.
    #[test]
    fn fives_are_the_red_fives_kinds() {
        let fives: Vec<Kind> = (0..KINDS).filter(|&k| is_five(k)).collect();
        let want: Vec<Kind> = parse_mpsz("5m5p5s").unwrap().iter().map(|t| t.kind()).collect();
        assert_eq!(fives, want);
        assert!((0..3).all(|s| is_five(Tile::red_five(s).kind())));
        assert!(!is_five(parse_mpsz("5z").unwrap()[0].kind()));
    }

    #[test]
    fn tile_ids() {
        assert_eq!(TileId::new(16).unwrap().tile(true).to_string(), "0m");
        assert_eq!(TileId::new(16).unwrap().tile(false).to_string(), "5m");
        assert_eq!(TileId::new(17).unwrap().tile(true).to_string(), "5m");
        assert_eq!(TileId::new(52).unwrap().tile(true).to_string(), "0p");
        assert_eq!(TileId::new(88).unwrap().tile(true).to_string(), "0s");
        assert_eq!(TileId::new(135).unwrap().tile(true).to_string(), "7z");
        assert!(TileId::new(136).is_none());
    }

    #[test]
    fn mpsz_round_trip() {
        for text in ["123m456p789s1122z", "1230m", "19m19p19s1234567z", "05m55p"] {
            let tiles = parse_mpsz(text).unwrap();
            assert_eq!(parse_mpsz(&format_mpsz(&tiles)).unwrap().len(), tiles.len());
            let m = format_majiang(&tiles);
            assert_eq!(format_mpsz(&parse_majiang(&m).unwrap()), format_mpsz(&tiles));
        }
        assert_eq!(format_mpsz(&parse_mpsz("5z1m9p").unwrap()), "1m9p5z");
        assert_eq!(format_mpsz(&parse_mpsz("505m").unwrap()), "055m");
        assert_eq!(format_majiang(&parse_mpsz("123m1z").unwrap()), "m123z1");
    }

    #[test]
    fn majiang_parse() {
        let t = parse_majiang("m123p40s9z77").unwrap();
        assert_eq!(format_mpsz(&t), "123m40p9s77z");
    }

    #[test]
    fn errors_name_the_character() {
        let e = parse_mpsz("123x").unwrap_err();
        assert!(matches!(e, NotationError::BadChar { ch: 'x', pos: 3, .. }), "{e}");
        assert!(e.to_string().contains("'x'"));
        let e = parse_mpsz("8z").unwrap_err();
        assert!(matches!(e, NotationError::NoSuchTile { ch: '8', pos: 0, .. }), "{e}");
        let e = parse_mpsz("0z").unwrap_err();
        assert!(matches!(e, NotationError::NoSuchTile { ch: '0', .. }), "{e}");
        assert!(matches!(parse_mpsz("123"), Err(NotationError::MissingSuit { .. })));
        assert!(matches!(parse_mpsz("m"), Err(NotationError::EmptyGroup { suit: 'm', .. })));
        assert!(matches!(parse_majiang("1m"), Err(NotationError::BadChar { ch: '1', pos: 0, .. })));
        assert!(matches!(parse_majiang("mp1"), Err(NotationError::EmptyGroup { suit: 'm', .. })));
        assert!(matches!(parse_majiang("z8"), Err(NotationError::NoSuchTile { ch: '8', .. })));
    }

    #[test]
    fn dora_indicators() {
        let k = |s: &str| parse_mpsz(s).unwrap()[0].kind();
        assert_eq!(dora_from_indicator(k("9m")), k("1m"));
        assert_eq!(dora_from_indicator(k("3p")), k("4p"));
        assert_eq!(dora_from_indicator(k("4z")), k("1z"));
        assert_eq!(dora_from_indicator(k("2z")), k("3z"));
        assert_eq!(dora_from_indicator(k("7z")), k("5z"));
        assert_eq!(dora_from_indicator_at(k("1m"), 3), k("9m"), "sanma wrap");
        assert_eq!(dora_from_indicator_at(k("9m"), 3), k("1m"));
        assert_eq!(dora_from_indicator_at(k("1m"), 4), k("2m"));
        assert_eq!(NORTH, k("4z"));
        assert_eq!(dora_from_indicator(k("5z")), k("6z"));
    }
}
