//! The pieces of a tenhou.net/6 round entry: tile codes, the takes (draws and calls) and gives
//! (discards, riichi, kans) of each seat, and Tenhou ids handed out as tiles appear.

use serde_json::Value;

use super::error::{Item, Tenhou6Error};
use crate::hand::meld::MeldKind;
use crate::log::event::*;
use crate::tile::TileId;

/// A tile code of the JSON: kind and redness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Code(pub(super) u8);

impl Code {
    pub(super) fn parse(v: i64) -> Result<Code, Tenhou6Error> {
        match v {
            11..=19 | 21..=29 | 31..=39 | 41..=47 | 51..=53 => Ok(Code(v as u8)),
            _ => Err(Tenhou6Error::NotATileCode(v)),
        }
    }

    pub(super) fn kind(self) -> usize {
        match self.0 {
            51..=53 => (self.0 as usize - 51) * 9 + 4,
            c => (c as usize / 10 - 1) * 9 + (c as usize % 10) - 1,
        }
    }

    pub(super) fn is_red(self) -> bool {
        self.0 >= 51
    }

    /// The code of an id (red ids count as red only in a red-five game).
    pub(super) fn of_id(id: TileId, red_fives: bool) -> Code {
        let k = id.kind();
        if red_fives && crate::tile::RED_IDS.contains(&id.get()) {
            return Code(51 + (k / 9) as u8);
        }
        Code(if k >= 27 { 41 + (k - 27) as u8 } else { ((k / 9 + 1) * 10 + k % 9 + 1) as u8 })
    }
}

/// A score or score change in points, within ±10 million (keeps every sum far from overflow).
pub(super) fn score(v: i64) -> Option<i32> {
    (-10_000_000..=10_000_000).contains(&v).then_some(v as i32)
}

/// What a seat took: a wall tile or a call on a discard.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Take {
    Tile(Code),
    /// `from` relative: 1 = next seat, 2 = across, 3 = previous.
    Call {
        kind: MeldKind,
        from: u8,
        called: Code,
        own: Vec<Code>,
    },
}

/// What a seat gave.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Give {
    /// `None` = tsumogiri (60).
    Discard {
        code: Option<Code>,
        riichi: bool,
    },
    /// The 0 after an open kan.
    Nothing,
    Kakan {
        added: Code,
    },
    Ankan {
        tiles: Vec<Code>,
    },
    /// A north set aside (`"f44"`, three players): the seat's next take is its replacement draw.
    Kita,
}

pub(super) fn codes_of(digits: &str) -> Result<Vec<Code>, Tenhou6Error> {
    if digits.len() % 2 != 0 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Tenhou6Error::Malformed { item: Item::TileDigits, value: format!("{digits:?}") });
    }
    (0..digits.len() / 2).map(|i| Code::parse(digits[2 * i..2 * i + 2].parse().unwrap_or(0))).collect()
}

/// Splits a call string at its one letter: (letter, codes before, codes after).
pub(super) fn split_call(s: &str) -> Result<(char, Vec<Code>, Vec<Code>), Tenhou6Error> {
    let pos =
        s.find(|c: char| c.is_ascii_alphabetic()).ok_or_else(|| Tenhou6Error::NoCallLetter(s.to_string()))?;
    let letter = s[pos..].chars().next().unwrap_or(' ');
    let in_call = |e| Tenhou6Error::InCall { call: s.to_string(), error: Box::new(e) };
    let before = codes_of(&s[..pos]).map_err(in_call)?;
    let after = codes_of(&s[pos + 1..]).map_err(in_call)?;
    Ok((letter, before, after))
}

pub(super) fn parse_take(v: &Value) -> Result<Take, Tenhou6Error> {
    match v {
        Value::Number(n) => Ok(Take::Tile(Code::parse(n.as_i64().unwrap_or(-1))?)),
        Value::String(s) => {
            let (letter, before, after) = split_call(s)?;
            let (kind, need, from) = match (letter, before.len()) {
                ('c', 0) => (MeldKind::Chi, 3, 3),
                ('p', 0) => (MeldKind::Pon, 3, 3),
                ('p', 1) => (MeldKind::Pon, 3, 2),
                ('p', 2) => (MeldKind::Pon, 3, 1),
                ('m', 0) => (MeldKind::Daiminkan, 4, 3),
                ('m', 1) => (MeldKind::Daiminkan, 4, 2),
                ('m', 3) => (MeldKind::Daiminkan, 4, 1),
                _ => return Err(Tenhou6Error::DrawCall(s.to_string())),
            };
            if before.len() + after.len() != need || after.is_empty() {
                return Err(Tenhou6Error::DrawCall(s.to_string()));
            }
            let called = after[0];
            let own: Vec<Code> = before.iter().chain(&after[1..]).copied().collect();
            if own.iter().any(|c| c.kind() / 9 != called.kind() / 9) {
                return Err(Tenhou6Error::MixedCall(s.to_string()));
            }
            Ok(Take::Call { kind, from, called, own })
        }
        _ => Err(Tenhou6Error::Malformed { item: Item::DrawEntry, value: v.to_string() }),
    }
}

pub(super) fn parse_give(v: &Value) -> Result<Give, Tenhou6Error> {
    match v {
        Value::Number(n) => match n.as_i64() {
            Some(60) => Ok(Give::Discard { code: None, riichi: false }),
            Some(0) => Ok(Give::Nothing),
            Some(c) => Ok(Give::Discard { code: Some(Code::parse(c)?), riichi: false }),
            None => Err(Tenhou6Error::Malformed { item: Item::DiscardEntry, value: v.to_string() }),
        },
        Value::String(s) if s.starts_with('r') => match s.get(1..).unwrap_or("") {
            "60" => Ok(Give::Discard { code: None, riichi: true }),
            t if t.len() == 2 => Ok(Give::Discard {
                code: Some(Code::parse(t.parse().map_err(|_| Tenhou6Error::Malformed {
                    item: Item::Riichi,
                    value: format!("{s:?}"),
                })?)?),
                riichi: true,
            }),
            _ => Err(Tenhou6Error::Malformed { item: Item::Riichi, value: format!("{s:?}") }),
        },
        // tensoul's word for a set-aside north (docs/sanma.md); no other tile can be set aside.
        Value::String(s) if s == "f44" => Ok(Give::Kita),
        Value::String(s) => {
            let (letter, before, after) = split_call(s)?;
            match letter {
                'k' if before.len() + after.len() == 4 && !after.is_empty() => {
                    Ok(Give::Kakan { added: after[0] })
                }
                'a' if before.len() + after.len() == 4 => {
                    let tiles: Vec<Code> = before.into_iter().chain(after).collect();
                    if tiles.iter().any(|c| c.kind() != tiles[0].kind()) {
                        return Err(Tenhou6Error::MixedKan(s.to_string()));
                    }
                    Ok(Give::Ankan { tiles })
                }
                _ => Err(Tenhou6Error::Malformed { item: Item::DiscardEntry, value: format!("{s:?}") }),
            }
        }
        _ => Err(Tenhou6Error::Malformed { item: Item::DiscardEntry, value: v.to_string() }),
    }
}

/// Hands out Tenhou ids: red fives copy 0, other tiles the lowest free copy.
#[derive(Clone)]
pub(super) struct Ids {
    pub(super) used: [u8; 34],
    pub(super) red_fives: bool,
    /// Which suits' red five the rule has (`aka51`, `aka52`, `aka53`): a red code of another
    /// suit contradicts the record's own rule.
    pub(super) red_suits: [bool; 3],
}

impl Ids {
    pub(super) fn take(&mut self, code: Code) -> Result<TileId, Tenhou6Error> {
        let kind = code.kind();
        let five_with_red = self.red_fives && matches!(kind, 4 | 13 | 22);
        let copy = if code.is_red() {
            let suit = kind / 9;
            if !self.red_suits[suit] {
                return Err(Tenhou6Error::RedNotInRule { suit, code: code.0.into() });
            }
            0
        } else {
            let first = if five_with_red { 1 } else { 0 };
            (first..4)
                .find(|c| self.used[kind] & (1 << c) == 0)
                .ok_or(Tenhou6Error::TooManyCopies { code: code.0.into(), red_on: first == 1 })?
        };
        if self.used[kind] & (1 << copy) != 0 {
            return Err(Tenhou6Error::CodeTwice(code.0.into()));
        }
        self.used[kind] |= 1 << copy;
        Ok(TileId::new((kind * 4 + copy) as u32).expect("kind < 34, copy < 4"))
    }
}

pub(super) struct RoundData {
    pub(super) start: RoundStart,
    pub(super) takes: [Vec<Take>; 4],
    pub(super) gives: [Vec<Give>; 4],
    pub(super) dora: Vec<Code>,
    pub(super) ura: Vec<Code>,
    pub(super) result: Vec<Value>,
}

/// The entries of one round. At three players (`players` 3) the fourth seat is empty: no hand,
/// draws or discards, and a score of 0 when the scores list four (tensoul pads them to four; a
/// three-entry list is read too).
pub(super) fn round_data(entry: &Value, players: u8) -> Result<(RoundData, [Vec<Code>; 4]), Tenhou6Error> {
    let a = entry.as_array().ok_or_else(|| Tenhou6Error::NotAnArray("round entry".into()))?;
    if a.len() < 17 {
        return Err(Tenhou6Error::RoundItems(a.len()));
    }
    let ints = |v: &Value, what: &str| -> Result<Vec<i64>, Tenhou6Error> {
        v.as_array()
            .ok_or_else(|| Tenhou6Error::NotAnArray(what.to_string()))?
            .iter()
            .map(|x| {
                x.as_i64()
                    .ok_or_else(|| Tenhou6Error::NotANumber { what: what.to_string(), value: x.to_string() })
            })
            .collect()
    };
    let info = ints(&a[0], "round info")?;
    if info.len() < 3 || info.iter().any(|&v| !(0..=255).contains(&v)) {
        return Err(Tenhou6Error::Malformed { item: Item::RoundInfo, value: a[0].to_string() });
    }
    let scores = ints(&a[1], "scores")?;
    let scores: Vec<i32> =
        scores.iter().map(|&s| score(s).ok_or(Tenhou6Error::Score(s))).collect::<Result<_, _>>()?;
    let scores = seat_values(&scores, players).ok_or(Tenhou6Error::ScoreCount(players))?;
    let codes = |v: &Value, what: &str| -> Result<Vec<Code>, Tenhou6Error> {
        ints(v, what)?.into_iter().map(Code::parse).collect()
    };
    let dora = codes(&a[2], "dora")?;
    let ura = codes(&a[3], "ura")?;
    if dora.is_empty() {
        return Err(Tenhou6Error::NoDora);
    }
    let mut hands: [Vec<Code>; 4] = Default::default();
    let mut takes: [Vec<Take>; 4] = Default::default();
    let mut gives: [Vec<Give>; 4] = Default::default();
    for s in 0..4 {
        hands[s] = codes(&a[4 + 3 * s], "hand")?;
        let list = |i: usize| a[i].as_array().ok_or_else(|| Tenhou6Error::NotAnArray(format!("item {i}")));
        takes[s] = list(5 + 3 * s)?.iter().map(parse_take).collect::<Result<_, _>>()?;
        gives[s] = list(6 + 3 * s)?.iter().map(parse_give).collect::<Result<_, _>>()?;
    }
    let seats = usize::from(players);
    if players == 3 {
        let fourth = [
            (!hands[3].is_empty(), "a hand"),
            (!takes[3].is_empty(), "draws"),
            (!gives[3].is_empty(), "discards"),
            (scores[3] != 0, "a score"),
        ];
        if let Some((_, what)) = fourth.iter().find(|(bad, _)| *bad) {
            return Err(Tenhou6Error::FourthSeat(what));
        }
    }
    if hands[..seats].iter().any(|h| h.is_empty()) {
        return Err(Tenhou6Error::NoHand);
    }
    if hands[..seats].iter().any(|h| h.len() != 13) {
        return Err(Tenhou6Error::DealtHand);
    }
    let result = a[16].as_array().ok_or_else(|| Tenhou6Error::NotAnArray("result".into()))?.clone();
    let round = info[0] as u8;
    let start = RoundStart {
        round,
        honba: info[1] as u8,
        sticks: info[2] as u8,
        dice: [0, 0],
        dora_indicator: TileId::new(0).expect("0 is a tile id"),
        scores,
        dealer: round % 4,
        hands: Default::default(),
    };
    Ok((RoundData { start, takes, gives, dora, ura, result }, hands))
}

/// A per-seat list (scores, deltas) as four values: four entries, or at three players three
/// (the empty fourth seat's 0 added). `None` for any other length.
pub(super) fn seat_values(v: &[i32], players: u8) -> Option<[i32; 4]> {
    match v.len() {
        4 => v.try_into().ok(),
        3 if players == 3 => Some([v[0], v[1], v[2], 0]),
        _ => None,
    }
}
