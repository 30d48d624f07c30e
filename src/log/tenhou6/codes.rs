//! The pieces of a tenhou.net/6 round entry: tile codes, the takes (draws and calls) and gives
//! (discards, riichi, kans) of each seat, and Tenhou ids handed out as tiles appear.

use serde_json::Value;

use crate::hand::meld::MeldKind;
use crate::log::event::*;
use crate::tile::TileId;

/// A tile code of the JSON: kind and redness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Code(pub(super) u8);

impl Code {
    pub(super) fn parse(v: i64) -> Result<Code, String> {
        match v {
            11..=19 | 21..=29 | 31..=39 | 41..=47 | 51..=53 => Ok(Code(v as u8)),
            _ => Err(format!("{v} is not a tile code")),
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
}

pub(super) fn codes_of(digits: &str) -> Result<Vec<Code>, String> {
    if digits.len() % 2 != 0 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("bad tile digits {digits:?}"));
    }
    (0..digits.len() / 2).map(|i| Code::parse(digits[2 * i..2 * i + 2].parse().unwrap_or(0))).collect()
}

/// Splits a call string at its one letter: (letter, codes before, codes after).
pub(super) fn split_call(s: &str) -> Result<(char, Vec<Code>, Vec<Code>), String> {
    let pos = s.find(|c: char| c.is_ascii_alphabetic()).ok_or_else(|| format!("no call letter in {s:?}"))?;
    let letter = s[pos..].chars().next().unwrap_or(' ');
    let before = codes_of(&s[..pos]).map_err(|e| format!("{e} in {s:?}"))?;
    let after = codes_of(&s[pos + 1..]).map_err(|e| format!("{e} in {s:?}"))?;
    Ok((letter, before, after))
}

pub(super) fn parse_take(v: &Value) -> Result<Take, String> {
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
                _ => return Err(format!("bad call {s:?} among the draws")),
            };
            if before.len() + after.len() != need || after.is_empty() {
                return Err(format!("bad call {s:?} among the draws"));
            }
            let called = after[0];
            let own: Vec<Code> = before.iter().chain(&after[1..]).copied().collect();
            if own.iter().any(|c| c.kind() / 9 != called.kind() / 9) {
                return Err(format!("call {s:?} mixes suits"));
            }
            Ok(Take::Call { kind, from, called, own })
        }
        _ => Err(format!("bad draw entry {v}")),
    }
}

pub(super) fn parse_give(v: &Value) -> Result<Give, String> {
    match v {
        Value::Number(n) => match n.as_i64() {
            Some(60) => Ok(Give::Discard { code: None, riichi: false }),
            Some(0) => Ok(Give::Nothing),
            Some(c) => Ok(Give::Discard { code: Some(Code::parse(c)?), riichi: false }),
            None => Err(format!("bad discard entry {v}")),
        },
        Value::String(s) if s.starts_with('r') => match s.get(1..).unwrap_or("") {
            "60" => Ok(Give::Discard { code: None, riichi: true }),
            t if t.len() == 2 => Ok(Give::Discard {
                code: Some(Code::parse(t.parse().map_err(|_| format!("bad riichi {s:?}"))?)?),
                riichi: true,
            }),
            _ => Err(format!("bad riichi {s:?}")),
        },
        Value::String(s) => {
            let (letter, before, after) = split_call(s)?;
            match letter {
                'k' if before.len() + after.len() == 4 && !after.is_empty() => {
                    Ok(Give::Kakan { added: after[0] })
                }
                'a' if before.len() + after.len() == 4 => {
                    let tiles: Vec<Code> = before.into_iter().chain(after).collect();
                    if tiles.iter().any(|c| c.kind() != tiles[0].kind()) {
                        return Err(format!("closed kan {s:?} of mixed tiles"));
                    }
                    Ok(Give::Ankan { tiles })
                }
                _ => Err(format!("bad discard entry {s:?}")),
            }
        }
        _ => Err(format!("bad discard entry {v}")),
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
    pub(super) fn take(&mut self, code: Code) -> Result<TileId, String> {
        let kind = code.kind();
        let five_with_red = self.red_fives && matches!(kind, 4 | 13 | 22);
        let copy = if code.is_red() {
            let suit = kind / 9;
            if !self.red_suits[suit] {
                return Err(format!(
                    "a red 5{} (tile code {}) in a game whose rule has no red 5{} (rule aka5{} is 0 or absent)",
                    ["m", "p", "s"][suit],
                    code.0,
                    ["m", "p", "s"][suit],
                    suit + 1
                ));
            }
            0
        } else {
            let first = if five_with_red { 1 } else { 0 };
            (first..4).find(|c| self.used[kind] & (1 << c) == 0).ok_or_else(|| {
                let why = if first == 1 { " (red fives on: the fourth copy is the red 5x)" } else { "" };
                format!("more than {} plain copies of tile code {}{why}", 4 - first, code.0)
            })?
        };
        if self.used[kind] & (1 << copy) != 0 {
            return Err(format!("tile code {} appears twice", code.0));
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

pub(super) fn round_data(entry: &Value) -> Result<(RoundData, [Vec<Code>; 4]), String> {
    let a = entry.as_array().ok_or("round entry is not an array")?;
    if a.len() < 17 {
        return Err(format!("round entry has {} items, want 17", a.len()));
    }
    let ints = |v: &Value, what: &str| -> Result<Vec<i64>, String> {
        v.as_array()
            .ok_or_else(|| format!("{what} is not an array"))?
            .iter()
            .map(|x| x.as_i64().ok_or_else(|| format!("{what}: {x} is not a number")))
            .collect()
    };
    let info = ints(&a[0], "round info")?;
    if info.len() < 3 || info.iter().any(|&v| !(0..=255).contains(&v)) {
        return Err(format!("bad round info {}", a[0]));
    }
    let scores = ints(&a[1], "scores")?;
    let scores: [i32; 4] = scores
        .iter()
        .map(|&s| score(s).ok_or(format!("score {s} out of range")))
        .collect::<Result<Vec<_>, _>>()?
        .try_into()
        .map_err(|_| "scores need 4 values")?;
    let codes = |v: &Value, what: &str| -> Result<Vec<Code>, String> {
        ints(v, what)?.into_iter().map(Code::parse).collect()
    };
    let dora = codes(&a[2], "dora")?;
    let ura = codes(&a[3], "ura")?;
    if dora.is_empty() {
        return Err("no dora indicator".into());
    }
    let mut hands: [Vec<Code>; 4] = Default::default();
    let mut takes: [Vec<Take>; 4] = Default::default();
    let mut gives: [Vec<Give>; 4] = Default::default();
    for s in 0..4 {
        hands[s] = codes(&a[4 + 3 * s], "hand")?;
        let list = |i: usize| a[i].as_array().ok_or_else(|| format!("item {i} is not an array"));
        takes[s] = list(5 + 3 * s)?.iter().map(parse_take).collect::<Result<_, _>>()?;
        gives[s] = list(6 + 3 * s)?.iter().map(parse_give).collect::<Result<_, _>>()?;
    }
    if hands.iter().any(|h| h.is_empty()) {
        return Err("a seat has no hand (3-player games are not supported)".into());
    }
    if hands.iter().any(|h| h.len() != 13) {
        return Err("a dealt hand does not have 13 tiles".into());
    }
    let result = a[16].as_array().ok_or("result is not an array")?.clone();
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
