//! tenhou.net/6 JSON (`{"title","name","rule","log":[...]}`) into the same [`Game`] events as the
//! mjlog reader.
//!
//! The JSON does not store events in order: each round lists, per seat, the tiles taken (wall
//! draws and calls) and the tiles given (discards, riichi, added and closed kans). We rebuild the
//! order by playing the turns: the dealer draws and discards, then either another seat's next
//! take is a call on that discard (pon/kan from anyone, chi from the next seat) or the next seat
//! draws. When a discard could be called but need not have been (the same tile was discarded
//! earlier), the order is found by search: try the call, and fall back to "no call" when the rest
//! of the round cannot be played out (every list must be used up exactly when the round ends).
//!
//! Tile codes: 11-19 man, 21-29 pin, 31-39 sou, 41-47 honors, 51/52/53 red 5m/5p/5s; in the
//! discards 60 = the drawn tile (tsumogiri) and 0 = no discard (after an open kan). Call strings
//! hold two-digit codes and one letter before the called (or added) tile: `c` chi, `p` pon,
//! `m` open kan, `k` added kan, `a` closed kan, `r` riichi; the letter's position says where the
//! tile came from (first = previous seat, middle = across, last = next seat).
//!
//! Tenhou ids are assigned as tiles appear: a red five takes copy 0 (id 16/52/88), other tiles the
//! lowest unused copy of their kind, so no id repeats within a round; a tile keeps its id as it
//! moves from wall to hand to river to meld. Dice are not recorded (0, 0). Agari `fu` is 0 for
//! limit hands (the string gives no fu); `hand` and `melds` come from the replayed hand of the
//! winner. Ryuukyoku `shown` hands: the tenpai seats (positive delta, or everyone for 全員聴牌)
//! of an exhaustive draw and the declarer of 九種九牌; other draws show none.
//!
//! Timing rules taken from the mjlogs (so both readers give the same order): riichi step 2
//! (with the scores after the stick) comes when play moves past the riichi discard, before the
//! next draw or call, and never when that discard is ronned; a closed kan's new dora comes right
//! after the kan, an open or added kan's just before that player's next discard (or after their
//! next kan). Win records: `sticks` counts this round's riichi sticks too and goes to the first
//! winner only (0 for a double ron's second, as Tenhou writes it); `scores_before` is the
//! round's start minus riichi sticks, plus the earlier winner's deltas; ura indicators are kept
//! only for riichi wins. The `connection` field (disconnects) is not read.

use serde_json::Value;

use super::error::LogError;
use super::event::*;
use crate::hand::MeldKind;
use crate::tile::TileId;

/// Parses a tenhou.net/6 JSON document. `id` is used when the JSON has no `ref`.
pub fn parse_tenhou6(id: &str, json: &[u8]) -> Result<Game, LogError> {
    let root: Value = serde_json::from_slice(json).map_err(|e| LogError::Json {
        detail: e.to_string(),
        line: e.line(),
        column: e.column(),
    })?;
    let err0 = |detail: &str| LogError::Tenhou6 { round: 0, detail: detail.to_string() };
    let obj = root.as_object().ok_or_else(|| err0("top level is not an object"))?;
    let rules = rules_of(obj.get("rule"), obj.get("lobby"))?;
    let players = players_of(obj);
    let log = obj.get("log").and_then(Value::as_array).ok_or_else(|| err0("no \"log\" array"))?;
    if log.is_empty() {
        return Err(err0("\"log\" has no rounds"));
    }
    let mut rounds = Vec::with_capacity(log.len());
    for (i, entry) in log.iter().enumerate() {
        let round =
            parse_round(entry, rules.red_fives).map_err(|detail| LogError::Tenhou6 { round: i, detail })?;
        rounds.push(round);
    }
    let (final_scores, final_results) = final_of(obj.get("sc"));
    let id = obj.get("ref").and_then(Value::as_str).filter(|s| !s.is_empty()).unwrap_or(id);
    Ok(Game { id: id.to_string(), rules, players, rounds, final_scores, final_results })
}

/// Rebuilds GO type bits from `rule.disp` (e.g. 鳳南喰赤速) and the `aka` fields.
fn rules_of(rule: Option<&Value>, lobby: Option<&Value>) -> Result<Rules, LogError> {
    let disp = rule.and_then(|r| r.get("disp")).and_then(Value::as_str).unwrap_or("");
    let aka_field = |k: &str| rule.and_then(|r| r.get(k)).and_then(Value::as_i64);
    let red = match (aka_field("aka"), aka_field("aka51"), aka_field("aka52"), aka_field("aka53")) {
        (None, None, None, None) => disp.contains('赤'),
        (a, b, c, d) => [a, b, c, d].iter().any(|v| v.unwrap_or(0) > 0),
    };
    if disp.contains('三') || disp.to_ascii_lowercase().contains("sanma") {
        return Err(LogError::Sanma { detail: format!("rule.disp {disp:?}") });
    }
    let mut bits = 0x01u32;
    if !red {
        bits |= 0x02;
    }
    if !disp.contains('喰') && !disp.is_empty() && !disp.is_ascii() {
        bits |= 0x04;
    }
    if disp.contains('南') || disp.contains("South") {
        bits |= 0x08;
    }
    if disp.contains('速') {
        bits |= 0x40;
    }
    if disp.contains('鳳') {
        bits |= 0xA0;
    } else if disp.contains('特') {
        bits |= 0x20;
    } else if disp.contains('上') {
        bits |= 0x80;
    }
    let lobby = lobby.and_then(Value::as_u64).and_then(|v| u32::try_from(v).ok());
    Ok(Rules::from_go_type(bits, lobby))
}

fn players_of(obj: &serde_json::Map<String, Value>) -> [Player; 4] {
    let arr = |k: &str| obj.get(k).and_then(Value::as_array);
    std::array::from_fn(|i| Player {
        name: arr("name").and_then(|a| a.get(i)).and_then(Value::as_str).unwrap_or("").to_string(),
        dan: arr("dan").and_then(|a| a.get(i)).and_then(|v| match v {
            Value::String(s) => dan_index(s),
            Value::Number(n) => n.as_u64().and_then(|n| u8::try_from(n).ok()),
            _ => None,
        }),
        rate: arr("rate").and_then(|a| a.get(i)).and_then(Value::as_f64).map(|r| r as f32),
        sex: arr("sx")
            .and_then(|a| a.get(i))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(String::from),
    })
}

/// Tenhou dan names to the index used by mjlog `dan=` (新人 = 0, 初段 = 10, 天鳳位 = 20).
fn dan_index(name: &str) -> Option<u8> {
    let plain: String = name
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
            c => c,
        })
        .collect();
    const DAN: [&str; 11] =
        ["初段", "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳位"];
    if plain == "新人" {
        return Some(0);
    }
    if let Some(k) = plain.strip_suffix('級') {
        let k: u8 = k.parse().ok()?;
        return (1..=9).contains(&k).then_some(10 - k);
    }
    DAN.iter().position(|d| *d == plain).map(|i| 10 + i as u8)
}

/// `sc`: final score and result per seat; scores may be in points or in hundreds.
fn final_of(sc: Option<&Value>) -> (Option<[i32; 4]>, Option<[f32; 4]>) {
    let Some(a) = sc.and_then(Value::as_array).filter(|a| a.len() == 8) else { return (None, None) };
    let nums: Option<Vec<f64>> = a.iter().map(Value::as_f64).collect();
    let Some(n) = nums else { return (None, None) };
    let sum: f64 = (0..4).map(|i| n[2 * i]).sum();
    let scale = if sum.abs() < 10_000.0 { 100.0 } else { 1.0 };
    (
        Some(std::array::from_fn(|i| (n[2 * i] * scale).round() as i32)),
        Some(std::array::from_fn(|i| n[2 * i + 1] as f32)),
    )
}

/// A tile code of the JSON: kind and redness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Code(u8);

impl Code {
    fn parse(v: i64) -> Result<Code, String> {
        match v {
            11..=19 | 21..=29 | 31..=39 | 41..=47 | 51..=53 => Ok(Code(v as u8)),
            _ => Err(format!("{v} is not a tile code")),
        }
    }

    fn kind(self) -> usize {
        match self.0 {
            51..=53 => (self.0 as usize - 51) * 9 + 4,
            c => (c as usize / 10 - 1) * 9 + (c as usize % 10) - 1,
        }
    }

    fn is_red(self) -> bool {
        self.0 >= 51
    }

    /// The code of an id (red ids count as red only in a red-five game).
    fn of_id(id: TileId, red_fives: bool) -> Code {
        let k = id.kind();
        if red_fives && crate::tile::RED_IDS.contains(&id.get()) {
            return Code(51 + (k / 9) as u8);
        }
        Code(if k >= 27 { 41 + (k - 27) as u8 } else { ((k / 9 + 1) * 10 + k % 9 + 1) as u8 })
    }
}

/// A score or score change in points, within ±10 million (keeps every sum far from overflow).
fn score(v: i64) -> Option<i32> {
    (v.abs() <= 10_000_000).then_some(v as i32)
}

/// What a seat took: a wall tile or a call on a discard.
#[derive(Clone, Debug, PartialEq)]
enum Take {
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
enum Give {
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

fn codes_of(digits: &str) -> Result<Vec<Code>, String> {
    if digits.len() % 2 != 0 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("bad tile digits {digits:?}"));
    }
    (0..digits.len() / 2).map(|i| Code::parse(digits[2 * i..2 * i + 2].parse().unwrap_or(0))).collect()
}

/// Splits a call string at its one letter: (letter, codes before, codes after).
fn split_call(s: &str) -> Result<(char, Vec<Code>, Vec<Code>), String> {
    let pos = s.find(|c: char| c.is_ascii_alphabetic()).ok_or_else(|| format!("no call letter in {s:?}"))?;
    let letter = s[pos..].chars().next().unwrap_or(' ');
    let before = codes_of(&s[..pos]).map_err(|e| format!("{e} in {s:?}"))?;
    let after = codes_of(&s[pos + 1..]).map_err(|e| format!("{e} in {s:?}"))?;
    Ok((letter, before, after))
}

fn parse_take(v: &Value) -> Result<Take, String> {
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

fn parse_give(v: &Value) -> Result<Give, String> {
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
struct Ids {
    used: [u8; 34],
    red_fives: bool,
}

impl Ids {
    fn take(&mut self, code: Code) -> Result<TileId, String> {
        let kind = code.kind();
        let five_with_red = self.red_fives && matches!(kind, 4 | 13 | 22);
        let copy = if code.is_red() {
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

struct RoundData {
    start: RoundStart,
    takes: [Vec<Take>; 4],
    gives: [Vec<Give>; 4],
    dora: Vec<Code>,
    ura: Vec<Code>,
    result: Vec<Value>,
}

fn round_data(entry: &Value) -> Result<(RoundData, [Vec<Code>; 4]), String> {
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

fn parse_round(entry: &Value, red_fives: bool) -> Result<Round, String> {
    if let Some(a) = entry.as_array() {
        if a.get(4).and_then(Value::as_array).is_some_and(|h| h.is_empty())
            || a.get(13).and_then(Value::as_array).is_some_and(|h| h.is_empty())
        {
            return Err("3-player games are not supported (a seat has no hand)".into());
        }
    }
    let (mut data, hand_codes) = round_data(entry)?;
    let mut ids = Ids { used: [0; 34], red_fives };
    let dora_ids: Vec<TileId> = data.dora.iter().map(|&c| ids.take(c)).collect::<Result<_, _>>()?;
    let mut hands: [Vec<TileId>; 4] = Default::default();
    for s in 0..4 {
        hands[s] = hand_codes[s].iter().map(|&c| ids.take(c)).collect::<Result<_, _>>()?;
    }
    data.start.dora_indicator = dora_ids[0];
    data.start.hands = hands.clone();
    let sim = Sim {
        ids,
        hands,
        melds: Default::default(),
        take_at: [0; 4],
        give_at: [0; 4],
        events: Vec::new(),
        last_draw: [None; 4],
        last_given: None,
        riichi_pending: None,
        riichi_paid: [false; 4],
        dora_shown: 1,
        dora_pending: 0,
        last_actor: data.start.dealer,
    };
    let ctx = Ctx { data: &data, dora_ids: &dora_ids, red_fives };
    let mut budget = 20_000usize;
    let mut sim = play(&ctx, sim, data.start.dealer as usize, true, &mut budget)
        .map_err(|e| format!("{} (after {} events)", e.detail, e.events))?;
    let ura_ids: Vec<TileId> = data.ura.iter().map(|&c| sim.ids.take(c)).collect::<Result<_, _>>()?;
    finish_round(&ctx, &mut sim, &ura_ids)?;
    Ok(Round { start: data.start.clone(), events: sim.events })
}

struct Ctx<'a> {
    data: &'a RoundData,
    dora_ids: &'a [TileId],
    red_fives: bool,
}

/// The table as the turns are played back.
#[derive(Clone)]
struct Sim {
    ids: Ids,
    hands: [Vec<TileId>; 4],
    melds: [Vec<Call>; 4],
    take_at: [usize; 4],
    give_at: [usize; 4],
    events: Vec<Event>,
    last_draw: [Option<TileId>; 4],
    /// The last tile given up (discard, or the added tile of a kakan, or a closed kan's tile):
    /// what a ron takes.
    last_given: Option<(u8, TileId)>,
    /// A riichi whose discard has not been passed yet (step 2 is emitted when play moves on).
    riichi_pending: Option<u8>,
    riichi_paid: [bool; 4],
    dora_shown: usize,
    /// Kan doras announced but not yet shown (open and added kans show theirs at the discard).
    dora_pending: usize,
    last_actor: u8,
}

impl Sim {
    fn next_take<'a>(&self, ctx: &'a Ctx, s: usize) -> Option<&'a Take> {
        ctx.data.takes[s].get(self.take_at[s])
    }

    fn next_give<'a>(&self, ctx: &'a Ctx, s: usize) -> Option<&'a Give> {
        ctx.data.gives[s].get(self.give_at[s])
    }

    /// Removes a tile of this code from a hand, preferring not to take `avoid` (the drawn tile:
    /// a discard by code rather than 60 came from the hand).
    fn remove(&mut self, ctx: &Ctx, s: usize, code: Code, avoid: Option<TileId>) -> Result<TileId, String> {
        let hand = &mut self.hands[s];
        let matches = |id: &TileId| Code::of_id(*id, ctx.red_fives) == code;
        let pos = hand
            .iter()
            .position(|id| matches(id) && Some(*id) != avoid)
            .or_else(|| hand.iter().position(matches))
            .ok_or_else(|| format!("seat {s} gives tile code {} it does not hold", code.0))?;
        Ok(hand.swap_remove(pos))
    }

    fn scores_now(&self, ctx: &Ctx) -> [i32; 4] {
        let mut s = ctx.data.start.scores;
        for (i, paid) in self.riichi_paid.iter().enumerate() {
            if *paid {
                s[i] -= 1000;
            }
        }
        s
    }

    /// Play moved on past a riichi discard: the riichi stands and its stick is paid.
    fn accept_riichi(&mut self, ctx: &Ctx) {
        if let Some(who) = self.riichi_pending.take() {
            self.riichi_paid[who as usize] = true;
            let scores = Some(self.scores_now(ctx));
            self.events.push(Event::Riichi { who, step: 2, scores });
        }
    }

    fn show_doras(&mut self, ctx: &Ctx) {
        while self.dora_pending > 0 {
            self.dora_pending -= 1;
            if let Some(&indicator) = ctx.dora_ids.get(self.dora_shown) {
                self.dora_shown += 1;
                self.events.push(Event::NewDora { indicator });
            }
        }
    }
}

/// A dead end of the event-order search: how far it got (events placed) and why it stopped.
struct Stuck {
    events: usize,
    detail: String,
}

fn stuck(st: &Sim, detail: impl Into<String>) -> Stuck {
    Stuck { events: st.events.len(), detail: detail.into() }
}

/// Of two dead ends, the one that got further.
fn deeper(a: Option<Stuck>, b: Stuck) -> Stuck {
    match a {
        Some(a) if a.events >= b.events => a,
        _ => b,
    }
}

/// Plays the round from `actor`'s turn; `draw` says whether the turn starts with a wall draw
/// (false after a chi or pon). Returns the table at the end of the round.
fn play(ctx: &Ctx, mut st: Sim, mut actor: usize, mut draw: bool, budget: &mut usize) -> Result<Sim, Stuck> {
    loop {
        *budget = budget
            .checked_sub(1)
            .ok_or_else(|| stuck(&st, "cannot find an event order (search budget spent)"))?;
        if draw {
            match st.next_take(ctx, actor) {
                None => return check_done(ctx, st),
                Some(Take::Tile(code)) => {
                    st.accept_riichi(ctx);
                    let tile = st.ids.take(*code).map_err(|e| stuck(&st, e))?;
                    st.take_at[actor] += 1;
                    st.hands[actor].push(tile);
                    st.last_draw[actor] = Some(tile);
                    st.last_actor = actor as u8;
                    st.events.push(Event::Draw { who: actor as u8, tile });
                }
                Some(Take::Call { .. }) => {
                    return Err(stuck(&st, format!("seat {actor} should draw but its next take is a call")));
                }
            }
        }
        let drawn = if draw { st.last_draw[actor] } else { None };
        let give = match st.next_give(ctx, actor) {
            None => return check_done(ctx, st),
            Some(g) => g.clone(),
        };
        st.give_at[actor] += 1;
        let who = actor as u8;
        match give {
            Give::Nothing => {
                return Err(stuck(&st, format!("seat {actor} has a 0 (no discard) outside an open kan")))
            }
            Give::Kakan { added } => {
                let tile = st.remove(ctx, actor, added, None).map_err(|e| stuck(&st, e))?;
                let pos = st.melds[actor]
                    .iter()
                    .position(|m| m.kind == MeldKind::Pon && m.tiles[0].kind() == added.kind())
                    .ok_or_else(|| stuck(&st, format!("seat {actor} adds to a pon it does not have")))?;
                let pon = st.melds[actor][pos].clone();
                let mut tiles = pon.tiles.clone();
                tiles.push(tile);
                let call = Call {
                    kind: MeldKind::Kakan,
                    tiles,
                    called: pon.called,
                    from: pon.from,
                    added: Some(tile),
                };
                st.melds[actor][pos] = call.clone();
                st.events.push(Event::Call { who, call });
                st.show_doras(ctx);
                st.dora_pending += 1;
                st.last_given = Some((who, tile));
                draw = true;
            }
            Give::Ankan { tiles } => {
                let mut ids = Vec::with_capacity(4);
                for c in &tiles {
                    ids.push(st.remove(ctx, actor, *c, None).map_err(|e| stuck(&st, e))?);
                }
                ids.sort();
                let call =
                    Call { kind: MeldKind::Ankan, tiles: ids.clone(), called: None, from: 0, added: None };
                st.melds[actor].push(call.clone());
                st.events.push(Event::Call { who, call });
                st.dora_pending += 1;
                st.show_doras(ctx);
                st.last_given = Some((who, ids[0]));
                draw = true;
            }
            Give::Discard { code, riichi } => {
                let tile = match code {
                    None => {
                        let t = drawn.ok_or_else(|| {
                            stuck(&st, format!("seat {actor} discards the drawn tile (60) after a call"))
                        })?;
                        let pos = st.hands[actor]
                            .iter()
                            .position(|&x| x == t)
                            .ok_or_else(|| stuck(&st, "drawn tile not in hand"))?;
                        st.hands[actor].swap_remove(pos)
                    }
                    Some(c) => st.remove(ctx, actor, c, drawn).map_err(|e| stuck(&st, e))?,
                };
                if riichi {
                    st.events.push(Event::Riichi { who, step: 1, scores: None });
                    st.riichi_pending = Some(who);
                }
                st.show_doras(ctx);
                st.events.push(Event::Discard { who, tile });
                st.last_given = Some((who, tile));
                let code = Code::of_id(tile, ctx.red_fives);
                // Seats whose next take is a call on this discard; pon and kan before chi.
                let mut callers: Vec<usize> = Vec::new();
                for off in [1usize, 2, 3] {
                    let s = (actor + off) % 4;
                    if let Some(Take::Call { kind, from, called, .. }) = st.next_take(ctx, s) {
                        let rel = ((actor + 4 - s) % 4) as u8;
                        if *from == rel && *called == code && (*kind != MeldKind::Chi || off == 1) {
                            callers.push(s);
                        }
                    }
                }
                if callers.is_empty() {
                    actor = (actor + 1) % 4;
                    draw = true;
                    continue;
                }
                callers.sort_by_key(|&s| {
                    matches!(st.next_take(ctx, s), Some(Take::Call { kind: MeldKind::Chi, .. }))
                });
                let mut deepest: Option<Stuck> = None;
                for s in callers {
                    let mut branch = st.clone();
                    let outcome = match apply_call(ctx, &mut branch, s, tile) {
                        Ok(draw_next) => play(ctx, branch, s, draw_next, budget),
                        Err(e) => Err(stuck(&branch, e)),
                    };
                    match outcome {
                        Ok(done) => return Ok(done),
                        Err(e) => deepest = Some(deeper(deepest, e)),
                    }
                    if *budget == 0 {
                        break;
                    }
                }
                // Nobody called: the next seat draws. If that cannot finish either, report the
                // failure that got furthest into the round (the most telling one).
                let next = (actor + 1) % 4;
                return play(ctx, st, next, true, budget).map_err(|e| deeper(deepest, e));
            }
        }
    }
}

/// Seat `s` calls `tile`; returns whether it then draws (open kan) or discards straight away.
fn apply_call(ctx: &Ctx, st: &mut Sim, s: usize, tile: TileId) -> Result<bool, String> {
    let Some(Take::Call { kind, from, own, .. }) = st.next_take(ctx, s).cloned() else {
        return Err("no call".into());
    };
    st.accept_riichi(ctx);
    st.take_at[s] += 1;
    let mut tiles = vec![tile];
    for c in &own {
        tiles.push(st.remove(ctx, s, *c, None)?);
    }
    tiles.sort();
    let call = Call { kind, tiles, called: Some(tile), from, added: None };
    st.melds[s].push(call.clone());
    st.events.push(Event::Call { who: s as u8, call });
    st.last_draw[s] = None;
    st.last_actor = s as u8;
    if kind == MeldKind::Daiminkan {
        match st.next_give(ctx, s) {
            Some(Give::Nothing) => st.give_at[s] += 1,
            _ => return Err(format!("seat {s}'s open kan is not followed by a 0 discard")),
        }
        st.dora_pending += 1;
        return Ok(true);
    }
    Ok(false)
}

/// The round is over when a seat cannot act: every list must be used up.
fn check_done(ctx: &Ctx, st: Sim) -> Result<Sim, Stuck> {
    for s in 0..4 {
        let (t, g) = (ctx.data.takes[s].len(), ctx.data.gives[s].len());
        if st.take_at[s] != t || st.give_at[s] != g {
            let msg =
                format!("play ends with seat {s} at take {}/{t}, give {}/{g}", st.take_at[s], st.give_at[s]);
            return Err(stuck(&st, msg));
        }
    }
    Ok(st)
}

/// Appends the round's result (one or more wins, or a draw) from the JSON result entry.
fn finish_round(ctx: &Ctx, st: &mut Sim, ura_ids: &[TileId]) -> Result<(), String> {
    let res = &ctx.data.result;
    let name = res.first().and_then(Value::as_str).ok_or("result has no name")?;
    let deltas_of = |v: Option<&Value>| -> Result<[i32; 4], String> {
        match v {
            None => Ok([0; 4]),
            Some(v) => {
                let a = v.as_array().ok_or("result deltas are not an array")?;
                let d: Vec<i32> = a
                    .iter()
                    .map(|x| x.as_i64().and_then(score))
                    .collect::<Option<_>>()
                    .ok_or("bad deltas")?;
                d.try_into().map_err(|_| "deltas need 4 values".to_string())
            }
        }
    };
    let start = &ctx.data.start;
    let sticks_now = start.sticks.saturating_add(st.riichi_paid.iter().filter(|p| **p).count() as u8);
    if name == "和了" {
        let mut scores = st.scores_now(ctx);
        let mut first = true;
        let mut i = 1;
        while i + 1 < res.len() {
            let deltas = deltas_of(res.get(i))?;
            let info = res[i + 1].as_array().ok_or("win info is not an array")?;
            let agari = win_of(ctx, st, info, deltas, scores, if first { sticks_now } else { 0 }, ura_ids)?;
            for k in 0..4 {
                scores[k] += deltas[k];
            }
            st.events.push(Event::Agari(Box::new(agari)));
            first = false;
            i += 2;
        }
        if first {
            return Err("win without details".into());
        }
        return Ok(());
    }
    let kind = match name {
        "流局" | "全員聴牌" | "全員不聴" | "聴牌" | "不聴" => DrawKind::Exhaustive,
        "九種九牌" => DrawKind::Yao9,
        "四家立直" => DrawKind::Reach4,
        "三家和了" => DrawKind::Ron3,
        "四槓散了" => DrawKind::Kan4,
        "四風連打" => DrawKind::Kaze4,
        "流し満貫" => DrawKind::Nagashi,
        _ => return Err(format!("unknown result {name:?}")),
    };
    if kind != DrawKind::Ron3 {
        st.accept_riichi(ctx);
    }
    let deltas = deltas_of(res.get(1))?;
    let mut shown: [Option<Vec<TileId>>; 4] = Default::default();
    let show = |s: usize| {
        let mut h = st.hands[s].clone();
        h.sort();
        Some(h)
    };
    match kind {
        DrawKind::Exhaustive => {
            for s in 0..4 {
                if deltas[s] > 0 || name == "全員聴牌" {
                    shown[s] = show(s);
                }
            }
        }
        DrawKind::Yao9 => shown[st.last_actor as usize] = show(st.last_actor as usize),
        _ => {}
    }
    st.events.push(Event::Ryuukyoku(Box::new(RoundDraw {
        kind,
        honba: start.honba,
        sticks: sticks_now,
        scores_before: st.scores_now(ctx),
        deltas,
        shown,
    })));
    Ok(())
}

fn win_of(
    ctx: &Ctx,
    st: &Sim,
    info: &[Value],
    deltas: [i32; 4],
    scores_before: [i32; 4],
    sticks: u8,
    ura_ids: &[TileId],
) -> Result<Agari, String> {
    let seat = |i: usize| -> Result<u8, String> {
        info.get(i)
            .and_then(Value::as_u64)
            .filter(|&s| s < 4)
            .map(|s| s as u8)
            .ok_or_else(|| format!("bad win info {info:?}"))
    };
    let (who, from_who, pao) = (seat(0)?, seat(1)?, seat(2)?);
    let w = who as usize;
    let win_tile = if who == from_who {
        st.last_draw[w].ok_or("tsumo without a drawn tile")?
    } else {
        match st.last_given {
            Some((g, t)) if g == from_who => t,
            _ => return Err(format!("ron on seat {from_who}, which gave no tile last")),
        }
    };
    let mut hand = st.hands[w].clone();
    if who != from_who {
        hand.push(win_tile);
    }
    hand.sort();
    let points_text = info.get(3).and_then(Value::as_str).unwrap_or("");
    let (fu, points, limit) = parse_points(points_text)?;
    let mut yaku = Vec::new();
    let mut yakuman = Vec::new();
    for v in &info[4.min(info.len())..] {
        let s = v.as_str().ok_or_else(|| format!("yaku {v} is not a string"))?;
        match parse_yaku(s)? {
            YakuValue::Han(id, han) => yaku.push((id, han)),
            YakuValue::Yakuman(id) => yakuman.push(id),
        }
    }
    let limit = if limit == Limit::None && !yakuman.is_empty() { Limit::Yakuman } else { limit };
    let has_riichi = yaku.iter().any(|&(id, _)| id == 1 || id == 21);
    Ok(Agari {
        who,
        from_who,
        pao_who: (pao != who).then_some(pao),
        honba: ctx.data.start.honba,
        sticks,
        hand,
        melds: st.melds[w].clone(),
        win_tile,
        fu,
        points,
        limit,
        yaku,
        yakuman,
        dora_indicators: ctx.dora_ids.to_vec(),
        ura_indicators: if has_riichi { ura_ids.to_vec() } else { Vec::new() },
        scores_before,
        deltas,
    })
}

/// `30符3飜3900点`, `満貫2000-4000点`, `30符2飜700点∀` (dealer tsumo, all pay) → fu, total
/// points without honba, limit. An empty string gives zeros.
fn parse_points(s: &str) -> Result<(u32, i32, Limit), String> {
    if s.is_empty() {
        return Ok((0, 0, Limit::None));
    }
    let bad = || format!("bad points string {s:?}");
    let (body, all) = match s.strip_suffix('∀') {
        Some(b) => (b, true),
        None => (s, false),
    };
    let body = body.strip_suffix('点').ok_or_else(bad)?;
    let (fu, limit, pay) = if let Some((fu, rest)) = body.split_once('符') {
        let (_, pay) = rest.split_once('飜').ok_or_else(bad)?;
        (fu.parse::<u32>().map_err(|_| bad())?, Limit::None, pay)
    } else {
        let start = body.find(|c: char| c.is_ascii_digit()).ok_or_else(bad)?;
        let limit = match &body[..start] {
            "満貫" => Limit::Mangan,
            "跳満" => Limit::Haneman,
            "倍満" => Limit::Baiman,
            "三倍満" => Limit::Sanbaiman,
            "役満" | "数え役満" => Limit::Yakuman,
            _ => return Err(bad()),
        };
        (0, limit, &body[start..])
    };
    let num = |t: &str| t.parse::<i32>().map_err(|_| bad());
    let points = match pay.split_once('-') {
        Some((child, dealer)) => 2 * num(child)? + num(dealer)?,
        None if all => 3 * num(pay)?,
        None => num(pay)?,
    };
    Ok((fu, points, limit))
}

enum YakuValue {
    Han(u8, u8),
    Yakuman(u8),
}

/// Tenhou yaku names (as tenhou.net/6 writes them) in id order 0..=54.
const YAKU_NAMES: [&str; 55] = [
    "門前清自摸和",
    "立直",
    "一発",
    "槍槓",
    "嶺上開花",
    "海底摸月",
    "河底撈魚",
    "平和",
    "断幺九",
    "一盃口",
    "自風 東",
    "自風 南",
    "自風 西",
    "自風 北",
    "場風 東",
    "場風 南",
    "場風 西",
    "場風 北",
    "役牌 白",
    "役牌 發",
    "役牌 中",
    "両立直",
    "七対子",
    "混全帯幺九",
    "一気通貫",
    "三色同順",
    "三色同刻",
    "三槓子",
    "対々和",
    "三暗刻",
    "小三元",
    "混老頭",
    "二盃口",
    "純全帯幺九",
    "混一色",
    "清一色",
    "人和",
    "天和",
    "地和",
    "大三元",
    "四暗刻",
    "四暗刻単騎",
    "字一色",
    "緑一色",
    "清老頭",
    "九蓮宝燈",
    "純正九蓮宝燈",
    "国士無双",
    "国士無双１３面",
    "大四喜",
    "小四喜",
    "四槓子",
    "ドラ",
    "裏ドラ",
    "赤ドラ",
];

/// English names some exporters write (Tenhou's English client).
const YAKU_ENGLISH: [(&str, u8); 12] = [
    ("Fully Concealed Hand", 0),
    ("Riichi", 1),
    ("Ippatsu", 2),
    ("Pinfu", 7),
    ("All Simples", 8),
    ("Pure Double Sequence", 9),
    ("Double Riichi", 21),
    ("Seven Pairs", 22),
    ("Half Flush", 34),
    ("Dora", 52),
    ("Ura Dora", 53),
    ("Red Five", 54),
];

/// `立直(1飜)` → (1, 1); `国士無双(役満)` → yakuman 47.
fn parse_yaku(s: &str) -> Result<YakuValue, String> {
    let bad = || format!("bad yaku {s:?}");
    let open = s.rfind('(').ok_or_else(bad)?;
    let name = s[..open].trim();
    let value = s[open + 1..].strip_suffix(')').ok_or_else(bad)?;
    let alias = match name {
        "ダブル立直" => Some(21),
        "国士無双13面" | "国士無双十三面" => Some(48),
        _ => None,
    };
    let id = YAKU_NAMES
        .iter()
        .position(|n| *n == name)
        .map(|i| i as u8)
        .or(alias)
        .or_else(|| YAKU_ENGLISH.iter().find(|(n, _)| *n == name).map(|(_, i)| *i))
        .ok_or_else(|| format!("unknown yaku {name:?}"))?;
    if value == "役満" {
        return Ok(YakuValue::Yakuman(id));
    }
    let han = value.strip_suffix('飜').ok_or_else(bad)?.parse::<u8>().map_err(|_| bad())?;
    Ok(YakuValue::Han(id, han))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_strings() {
        assert_eq!(parse_points("30符3飜3900点").unwrap(), (30, 3900, Limit::None));
        assert_eq!(parse_points("30符2飜500-1000点").unwrap(), (30, 2000, Limit::None));
        assert_eq!(parse_points("30符2飜700点∀").unwrap(), (30, 2100, Limit::None));
        assert_eq!(parse_points("跳満3000-6000点").unwrap(), (0, 12000, Limit::Haneman));
        assert_eq!(parse_points("満貫4000点∀").unwrap(), (0, 12000, Limit::Mangan));
        assert_eq!(parse_points("役満48000点").unwrap(), (0, 48000, Limit::Yakuman));
        assert_eq!(parse_points("").unwrap(), (0, 0, Limit::None));
        assert!(parse_points("30符").is_err());
        assert!(parse_points("大満貫8000点").is_err());
    }

    #[test]
    fn yaku_strings() {
        let han = |s| match parse_yaku(s).unwrap() {
            YakuValue::Han(i, h) => (i, h),
            YakuValue::Yakuman(i) => panic!("{s} gave yakuman {i}"),
        };
        assert_eq!(han("立直(1飜)"), (1, 1));
        assert_eq!(han("場風 東(1飜)"), (14, 1));
        assert_eq!(han("役牌 中(1飜)"), (20, 1));
        assert_eq!(han("赤ドラ(3飜)"), (54, 3));
        assert_eq!(han("裏ドラ(0飜)"), (53, 0));
        assert_eq!(han("Ura Dora(0飜)"), (53, 0));
        assert!(matches!(parse_yaku("四暗刻単騎(役満)").unwrap(), YakuValue::Yakuman(41)));
        assert!(matches!(parse_yaku("国士無双(役満)").unwrap(), YakuValue::Yakuman(47)));
        assert!(parse_yaku("謎の役(1飜)").is_err());
    }

    #[test]
    fn dan_names() {
        assert_eq!(dan_index("新人"), Some(0));
        assert_eq!(dan_index("９級"), Some(1));
        assert_eq!(dan_index("1級"), Some(9));
        assert_eq!(dan_index("初段"), Some(10));
        assert_eq!(dan_index("七段"), Some(16));
        assert_eq!(dan_index("天鳳位"), Some(20));
        assert_eq!(dan_index("?"), None);
    }

    #[test]
    fn codes_and_rules() {
        assert_eq!(Code(11).kind(), 0);
        assert_eq!(Code(29).kind(), 17);
        assert_eq!(Code(47).kind(), 33);
        assert_eq!(Code(52).kind(), 13);
        assert_eq!(Code::of_id(TileId::new(52).unwrap(), true), Code(52));
        assert_eq!(Code::of_id(TileId::new(52).unwrap(), false), Code(25));
        assert_eq!(Code::of_id(TileId::new(135).unwrap(), true), Code(47));
        let r = rules_of(Some(&serde_json::json!({"disp": "鳳東喰赤速", "aka": 1})), None).unwrap();
        assert_eq!(r.go_type, 0xE1, "225 = 4p houou tonpuu fast (README)");
        let r = rules_of(
            Some(&serde_json::json!({"disp": "般南喰赤", "aka53": 1, "aka52": 1, "aka51": 1})),
            None,
        )
        .unwrap();
        assert_eq!(r.go_type, 0x09, "9 = 4p ippan hanchan (README)");
        assert!(rules_of(Some(&serde_json::json!({"disp": "鳳南喰赤三"})), None).is_err());
    }

    #[test]
    fn calls_parse_with_their_direction() {
        let t = |s: &str| parse_take(&serde_json::json!(s)).unwrap();
        assert_eq!(
            t("c275226"),
            Take::Call { kind: MeldKind::Chi, from: 3, called: Code(27), own: vec![Code(52), Code(26)] }
        );
        assert_eq!(
            t("p414141"),
            Take::Call { kind: MeldKind::Pon, from: 3, called: Code(41), own: vec![Code(41), Code(41)] }
        );
        assert_eq!(
            t("25p2552"),
            Take::Call { kind: MeldKind::Pon, from: 2, called: Code(25), own: vec![Code(25), Code(52)] }
        );
        assert_eq!(
            t("4747p47"),
            Take::Call { kind: MeldKind::Pon, from: 1, called: Code(47), own: vec![Code(47), Code(47)] }
        );
        assert!(matches!(t("292929m29"), Take::Call { kind: MeldKind::Daiminkan, from: 1, .. }));
        assert!(matches!(t("39m393939"), Take::Call { kind: MeldKind::Daiminkan, from: 2, .. }));
        let g = |s: &str| parse_give(&serde_json::json!(s)).unwrap();
        assert_eq!(g("r60"), Give::Discard { code: None, riichi: true });
        assert_eq!(g("r34"), Give::Discard { code: Some(Code(34)), riichi: true });
        assert_eq!(g("k51151515"), Give::Kakan { added: Code(51) });
        assert_eq!(g("353535a53"), Give::Ankan { tiles: vec![Code(35), Code(35), Code(35), Code(53)] });
        assert!(parse_take(&serde_json::json!("x11")).is_err());
        assert!(parse_take(&serde_json::json!(10)).is_err());
        assert!(parse_give(&serde_json::json!("r")).is_err());
    }

    #[test]
    fn a_real_round_fills_the_win() {
        let Some(p) = crate::testdata::shared_file("tenhou/2008121721gm-00c1-0000-fcadb0d7.t6.json") else {
            return;
        };
        let g = parse_tenhou6("x", &std::fs::read(p).unwrap()).unwrap();
        assert_eq!(g.id, "2008121721gm-00c1-0000-fcadb0d7");
        assert_eq!(g.rules.go_type, 0xC1, "上東喰赤速");
        let r = &g.rounds[0];
        // ["和了",[-6000,12000,-3000,-3000],[1,1,1,"跳満3000-6000点","断幺九(1飜)","ドラ(3飜)","赤ドラ(2飜)"]]
        let Some(Event::Agari(a)) = r.events.last() else { panic!() };
        assert_eq!((a.who, a.from_who, a.pao_who), (1, 1, None));
        assert_eq!((a.points, a.limit, a.fu), (12000, Limit::Haneman, 0));
        assert_eq!(a.yaku, [(8, 1), (52, 3), (54, 2)]);
        assert_eq!(a.deltas, [-6000, 12000, -3000, -3000]);
        assert_eq!(a.scores_before, [25000; 4]);
        // Seat 1's last draw is 38 (8s): the tsumo tile; its two calls are the melds.
        assert_eq!(a.win_tile.kind(), 25);
        assert_eq!(a.melds.len(), 2);
        assert_eq!(a.hand.len() + 3 * a.melds.len(), 14);
        // Red fives get copy 0: seat 1 was dealt 52 (red 5p) → id 52.
        assert!(r.start.hands[1].contains(&TileId::new(52).unwrap()));
    }

    #[test]
    fn chankan_takes_the_added_tile() {
        let name =
            "partial/summivox__riichi-rs__riichi_data_t6-samples_notable-features_chankan.json.t6.json";
        let Some(p) = crate::testdata::shared_file(&format!("tenhou/{name}")) else { return };
        let g = parse_tenhou6("x", &std::fs::read(p).unwrap()).unwrap();
        let ev = &g.rounds[0].events;
        let Some(Event::Call { who: 3, call }) = ev.iter().rev().find(|e| matches!(e, Event::Call { .. }))
        else {
            panic!()
        };
        assert_eq!(call.kind, MeldKind::Kakan);
        let Some(Event::Agari(a)) = ev.last() else { panic!() };
        assert_eq!((a.who, a.from_who), (2, 3));
        assert_eq!(Some(a.win_tile), call.added);
        assert_eq!(a.yaku[0], (3, 1), "槍槓");
    }

    #[test]
    fn bad_json_names_the_round() {
        let e = parse_tenhou6("x", br#"{"log": []}"#).unwrap_err();
        assert!(e.to_string().contains("no rounds"), "{e}");
        let e = parse_tenhou6("x", br#"{"rule": {"aka": 1}, "log": [[[0,0,0],[250,250,250,250],[99]]]}"#)
            .unwrap_err();
        assert!(e.to_string().contains("round 0"), "{e}");
        let e = parse_tenhou6("x", b"[1,2]").unwrap_err();
        assert!(e.to_string().contains("not an object"), "{e}");
    }
}

#[cfg(test)]
mod mutation_tests {
    use super::*;

    /// Structure-aware fuzzing in miniature: real tenhou.net/6 games with one value of the log
    /// replaced (a tile code, a call string, a count) must parse or fail with an error, never
    /// panic or hang. This reaches the turn replay, which byte flips mostly do not.
    #[test]
    fn mutated_logs_never_panic() {
        let Some(dir) = crate::testdata::shared_file("tenhou") else { return };
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with(".t6.json"))
            .collect();
        files.sort();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let replacements = [
            serde_json::json!(0),
            serde_json::json!(60),
            serde_json::json!(51),
            serde_json::json!(99),
            serde_json::json!(-1),
            serde_json::json!("p111111"),
            serde_json::json!("k11111111"),
            serde_json::json!("111111a11"),
            serde_json::json!("r60"),
            serde_json::json!("c1"),
            serde_json::json!([]),
            serde_json::json!(null),
            serde_json::json!(255),
        ];
        let (mut ok, mut err) = (0, 0);
        for path in files.iter().take(8) {
            let root: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
            for _ in 0..400 {
                let mut v = root.clone();
                let log = v["log"].as_array_mut().unwrap();
                let r = (next() as usize) % log.len();
                let entry = log[r].as_array_mut().unwrap();
                let i = (next() as usize) % entry.len();
                match entry[i].as_array_mut() {
                    // Half the time swap two entries: same tiles, impossible order.
                    Some(list) if list.len() > 1 && next() % 2 == 0 => {
                        let (j, k) = ((next() as usize) % list.len(), (next() as usize) % list.len());
                        list.swap(j, k);
                    }
                    Some(list) if !list.is_empty() => {
                        let j = (next() as usize) % list.len();
                        list[j] = replacements[(next() as usize) % replacements.len()].clone();
                    }
                    _ => entry[i] = replacements[(next() as usize) % replacements.len()].clone(),
                }
                match parse_tenhou6("m", v.to_string().as_bytes()) {
                    Ok(_) => ok += 1,
                    Err(_) => err += 1,
                }
            }
        }
        assert!(err > 1000, "mutations that broke the game: {err} (still parsed: {ok})");
    }
}
