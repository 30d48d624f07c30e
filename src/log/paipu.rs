//! 電脳麻将's own record format: the `paipu` JSON of `@kobalab/majiang-core` (docs/paipu.md).
//!
//! A paipu names its players (`player`), the first dealer among them (`qijia`), and logs each
//! round as a list of one-key events (`qipai`, `zimo`, `dapai`, `fulou`, `gang`, `gangzimo`,
//! `kaigang`, `hule`, `pingju`); it ends with the final scores (`defen`), ranks and points. Seats
//! in a round are counted from that round's dealer (`l` = 0 is the dealer, 1 the next, ...), and
//! tiles are written in majiang notation (`m1`, red `m0`, honors `z1`..`z7`), without ids.
//!
//! The reader turns each round into the mjai events it stands for (absolute seats, mjai tile
//! names) and reads them with the mjai reader ([`super::mjai::read`]), which gives the tiles ids
//! and the events their order: one translation, not a second state machine. What mjai cannot
//! carry is then set from the paipu itself: the rules (majiang-core's defaults,
//! [`Rules::majiang`]), each win's fu, han, yaku and value as majiang-core scored them (so the
//! re-scoring compares them, not only the payments), and the stated final result. An error names
//! the round and the event of the paipu.

use serde_json::{json, Value};

use super::error::{LogError, PaipuError};
use super::event::{Event, Game, Rules};
use super::mjai::tiles::name;
use crate::hand::majiang::parse_meld;
use crate::hand::meld::MeldKind;
use crate::score::Limit;
use crate::tile::{parse_majiang, Tile};

/// Where in a paipu something went wrong: the round (0-based) and the event within it.
fn at(round: usize, event: usize, error: PaipuError) -> LogError {
    LogError::Paipu { round, event: Some(event), error }
}

fn whole(error: PaipuError) -> LogError {
    LogError::Paipu { round: 0, event: None, error }
}

fn field(what: &str) -> PaipuError {
    PaipuError::Field(what.to_string())
}

/// Tiles in majiang notation (`m14p405z7`; `0` a red five) as mjai names (`1m`, `5pr`, `C`),
/// through the notation's one parser ([`parse_majiang`]); a discard's marks (`_` tsumogiri, `*`
/// riichi) are not tiles.
fn mjai_tiles(s: &str) -> Option<Vec<&'static str>> {
    let tiles = parse_majiang(s.trim_end_matches(['_', '*'])).ok()?;
    Some(tiles.into_iter().map(name).collect())
}

/// One tile in majiang notation as its mjai name.
fn mjai_tile(s: &str) -> Option<&'static str> {
    match mjai_tiles(s)?.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// `tiles` without one copy of `tile` (a called or an added tile), as mjai names.
fn consumed(tiles: &[Tile], tile: Tile) -> Vec<&'static str> {
    let mut rest = tiles.to_vec();
    if let Some(i) = rest.iter().position(|&t| t == tile) {
        rest.remove(i);
    }
    rest.into_iter().map(name).collect()
}

/// One round's translation: the mjai lines, and for each the paipu event it came from.
struct Round {
    lines: Vec<Value>,
    origin: Vec<usize>,
}

impl Round {
    fn push(&mut self, event: usize, v: Value) {
        self.lines.push(v);
        self.origin.push(event);
    }
}

/// A string field of an event object.
fn text<'a>(e: &'a Value, key: &str) -> Option<&'a str> {
    e.get(key).and_then(Value::as_str)
}

fn int(e: &Value, key: &str) -> Option<i64> {
    e.get(key).and_then(Value::as_i64)
}

/// The four values of an array indexed by the seat counted from `dealer`, by absolute seat.
fn absolute(v: &Value, dealer: u8) -> Option<[i64; 4]> {
    let a = v.as_array().filter(|a| a.len() == 4)?;
    let mut out = [0; 4];
    for (l, x) in a.iter().enumerate() {
        out[(usize::from(dealer) + l) % 4] = x.as_i64()?;
    }
    Some(out)
}

/// The round's `qipai` as mjai's `start_kyoku`, and the round's dealer (absolute seat).
fn start_kyoku(r: usize, q: &Value) -> Result<(Value, u8), LogError> {
    let wind = int(q, "zhuangfeng")
        .filter(|w| (0..4).contains(w))
        .ok_or_else(|| at(r, 0, field("qipai.zhuangfeng")))?;
    let dealer =
        int(q, "jushu").filter(|j| (0..4).contains(j)).ok_or_else(|| at(r, 0, field("qipai.jushu")))? as u8;
    let scores =
        q.get("defen").and_then(|d| absolute(d, dealer)).ok_or_else(|| at(r, 0, field("qipai.defen")))?;
    let mut hands = vec![Vec::new(); 4];
    for (l, h) in q.get("shoupai").and_then(Value::as_array).into_iter().flatten().enumerate().take(4) {
        let h =
            h.as_str().and_then(mjai_tiles).ok_or_else(|| at(r, 0, field(&format!("qipai.shoupai[{l}]"))))?;
        hands[(usize::from(dealer) + l) % 4] = h;
    }
    let marker = text(q, "baopai").and_then(mjai_tile).ok_or_else(|| at(r, 0, field("qipai.baopai")))?;
    let bakaze = ["E", "S", "W", "N"][wind as usize];
    let line = json!({"type": "start_kyoku", "bakaze": bakaze, "dora_marker": marker,
        "kyoku": dealer + 1, "honba": int(q, "changbang").unwrap_or(0),
        "kyotaku": int(q, "lizhibang").unwrap_or(0), "oya": dealer, "scores": scores, "tehais": hands});
    Ok((line, dealer))
}

/// Translates round `r` (its events `events`) into mjai lines.
fn translate_round(r: usize, events: &[Value]) -> Result<Round, LogError> {
    let mut out = Round { lines: Vec::new(), origin: Vec::new() };
    let q = events
        .first()
        .and_then(|e| e.get("qipai"))
        .ok_or_else(|| at(r, 0, PaipuError::Shape("the round does not start with qipai")))?;
    let (start, dealer) = start_kyoku(r, q)?;
    out.push(0, start);
    // A riichi declared by a discard is accepted when the next event is not a win on that tile.
    let mut pending_riichi: Option<u8> = None;
    for (i, e) in events.iter().enumerate().skip(1) {
        let (key, body) = e
            .as_object()
            .and_then(|o| o.iter().next())
            .map(|(k, v)| (k.as_str(), v))
            .ok_or_else(|| at(r, i, PaipuError::Shape("an event is not a one-key object")))?;
        if let Some(who) = pending_riichi.take() {
            if key != "hule" {
                out.push(i, json!({"type": "reach_accepted", "actor": who}));
            }
        }
        for line in event(dealer, key, body).map_err(|e| at(r, i, e))? {
            if line["type"] == "reach" {
                pending_riichi = line["actor"].as_u64().map(|a| a as u8);
            }
            out.push(i, line);
        }
    }
    out.push(events.len().saturating_sub(1), json!({"type": "end_kyoku"}));
    Ok(out)
}

/// One paipu event after `qipai` as mjai lines, in a round dealt by `dealer`; what is wrong with
/// it otherwise.
fn event(dealer: u8, key: &str, body: &Value) -> Result<Vec<Value>, PaipuError> {
    let seat = |l: i64| -> Option<u8> { (0..4).contains(&l).then(|| (dealer + l as u8) % 4) };
    let bad = |k: &str| PaipuError::Field(format!("{key}.{k}"));
    let actor = || int(body, "l").and_then(seat).ok_or_else(|| bad("l"));
    let tile = |k: &str| text(body, k).and_then(mjai_tile).ok_or_else(|| bad(k));
    let meld_of = || text(body, "m").and_then(|m| parse_meld(m).ok()).ok_or_else(|| bad("m"));
    Ok(match key {
        "zimo" | "gangzimo" => vec![json!({"type": "tsumo", "actor": actor()?, "pai": tile("p")?})],
        "dapai" => {
            let p = text(body, "p").ok_or_else(|| bad("p"))?;
            let who = actor()?;
            let pai = mjai_tile(p).ok_or_else(|| bad("p"))?;
            let discard = json!({"type": "dahai", "actor": who, "pai": pai, "tsumogiri": p.contains('_')});
            if p.contains('*') {
                vec![json!({"type": "reach", "actor": who}), discard]
            } else {
                vec![discard]
            }
        }
        "fulou" => {
            let who = actor()?;
            let m = meld_of()?;
            let kind = match m.kind {
                MeldKind::Chi => "chi",
                MeldKind::Pon => "pon",
                MeldKind::Daiminkan => "daiminkan",
                _ => return Err(PaipuError::Shape("a call that is not a chi, a pon or an open kan")),
            };
            let called = m.called.ok_or(PaipuError::Shape("a call without a marker of its source"))?;
            let (pai, target) = (name(called), (who + m.from) % 4);
            vec![json!({"type": kind, "actor": who, "target": target, "pai": pai,
                "consumed": consumed(m.tiles(), called)})]
        }
        "gang" => {
            let who = actor()?;
            let m = meld_of()?;
            match m.kind {
                MeldKind::Ankan => vec![json!({"type": "ankan", "actor": who,
                    "consumed": m.tiles().iter().map(|&t| name(t)).collect::<Vec<_>>()})],
                MeldKind::Kakan => {
                    // the added tile is the one written after the pon's mark
                    let text = text(body, "m").unwrap_or_default();
                    let added = text
                        .get(..1)
                        .zip(text.get(text.len() - 1..))
                        .and_then(|(suit, digit)| parse_majiang(&format!("{suit}{digit}")).ok())
                        .and_then(|t| t.first().copied())
                        .ok_or_else(|| bad("m"))?;
                    vec![json!({"type": "kakan", "actor": who, "pai": name(added),
                        "consumed": consumed(m.tiles(), added)})]
                }
                _ => return Err(PaipuError::Shape("a kan that is not a closed or an added kan")),
            }
        }
        "kaigang" => vec![json!({"type": "dora", "dora_marker": tile("baopai")?})],
        "hule" => {
            let who = actor()?;
            let target = match body.get("baojia") {
                None | Some(Value::Null) => who,
                Some(b) => b.as_i64().and_then(seat).ok_or_else(|| bad("baojia"))?,
            };
            let deltas = body.get("fenpei").and_then(|f| absolute(f, dealer)).ok_or_else(|| bad("fenpei"))?;
            let ura: Vec<&str> = match body.get("fubaopai") {
                None | Some(Value::Null) => Vec::new(),
                Some(u) => u
                    .as_array()
                    .and_then(|a| {
                        a.iter().map(|t| t.as_str().and_then(mjai_tile)).collect::<Option<Vec<_>>>()
                    })
                    .ok_or_else(|| bad("fubaopai"))?,
            };
            vec![
                json!({"type": "hora", "actor": who, "target": target, "deltas": deltas, "ura_markers": ura}),
            ]
        }
        "pingju" => {
            let deltas = body.get("fenpei").and_then(|f| absolute(f, dealer)).ok_or_else(|| bad("fenpei"))?;
            vec![json!({"type": "ryukyoku", "deltas": deltas})]
        }
        other => return Err(PaipuError::UnknownEvent(other.to_string())),
    })
}

/// What majiang-core scored a win as: fu, han, the hand's value and the yaku by Tenhou id.
struct Scored {
    fu: u32,
    points: i32,
    limit: Limit,
    yaku: Vec<(u8, u8)>,
    yakuman: Vec<u8>,
}

fn scored(h: &Value, rules: &Rules) -> Result<Scored, PaipuError> {
    // A yakuman states no fu (nor fanshu): 0, which the re-scoring reads as "not stated".
    let yakuman_hand = h.get("damanguan").is_some_and(|d| !d.is_null());
    let fu = match h.get("fu").and_then(Value::as_u64) {
        Some(fu) => fu as u32,
        None if yakuman_hand => 0,
        None => return Err(field("hule.fu")),
    };
    let points = h.get("defen").and_then(Value::as_i64).ok_or_else(|| field("hule.defen"))? as i32;
    let (mut yaku, mut yakuman) = (Vec::new(), Vec::new());
    for y in h.get("hupai").and_then(Value::as_array).ok_or_else(|| field("hule.hupai"))? {
        let name = y.get("name").and_then(Value::as_str).ok_or_else(|| field("hule.hupai.name"))?;
        let id = crate::score::yaku::id_of_japanese(name)
            .ok_or_else(|| PaipuError::UnknownYaku(name.to_string()))?;
        match y.get("fanshu") {
            // yakuman write their multiple as `*` (or `**` for a double)
            Some(Value::String(stars)) if stars.chars().all(|c| c == '*') => yakuman.push(id),
            Some(v) => {
                let han = v
                    .as_u64()
                    .filter(|&h| h <= 60)
                    .ok_or_else(|| PaipuError::Field(format!("hule.hupai.fanshu of {name}")))?;
                yaku.push((id, han as u8));
            }
            None => return Err(PaipuError::Field(format!("hule.hupai.fanshu of {name}"))),
        }
    }
    let limit = if yakuman.is_empty() {
        let han = h.get("fanshu").and_then(Value::as_u64).ok_or_else(|| field("hule.fanshu"))?;
        crate::score::points::basic_points(han.min(255) as u8, fu.min(255) as u8, &rules.score_rules()).1
    } else {
        Limit::Yakuman
    };
    Ok(Scored { fu, points, limit, yaku, yakuman })
}

/// Parses a paipu (one game). `id` becomes the game id.
pub fn parse_paipu(id: &str, bytes: &[u8]) -> Result<Game, LogError> {
    let doc: Value = serde_json::from_slice(bytes).map_err(|e| LogError::Json {
        detail: format!("paipu: {e}"),
        line: e.line(),
        column: e.column(),
    })?;
    let qijia =
        int(&doc, "qijia").filter(|q| (0..4).contains(q)).ok_or_else(|| whole(field("qijia")))? as usize;
    // Absolute seat s (0 = the first dealer) is player (qijia + s) % 4 of the paipu's lists.
    let by_seat = |v: &Value| -> Option<Vec<Value>> {
        let a = v.as_array().filter(|a| a.len() == 4)?;
        Some((0..4).map(|s| a[(qijia + s) % 4].clone()).collect())
    };
    let names = doc.get("player").and_then(by_seat).ok_or_else(|| whole(field("player")))?;
    let rounds = doc.get("log").and_then(Value::as_array).ok_or_else(|| whole(field("log")))?;
    let mut lines = vec![json!({"type": "start_game", "names": names, "aka_flag": true})];
    let mut origin = vec![(0usize, 0usize)];
    let mut hule = Vec::new();
    for (r, round) in rounds.iter().enumerate() {
        let events =
            round.as_array().ok_or_else(|| at(r, 0, PaipuError::Shape("a round is not a list of events")))?;
        let t = translate_round(r, events)?;
        origin.extend(t.origin.iter().map(|&e| (r, e)));
        lines.extend(t.lines);
        hule.extend(events.iter().enumerate().filter_map(|(i, e)| e.get("hule").map(|h| (r, i, h))));
    }
    let final_scores: Option<[i32; 4]> = doc.get("defen").and_then(by_seat).and_then(|d| {
        let v: Option<Vec<i32>> = d.iter().map(|x| x.as_i64().map(|x| x as i32)).collect();
        v.and_then(|v| v.try_into().ok())
    });
    lines.push(json!({"type": "end_game", "scores": final_scores}));
    origin.push((rounds.len().saturating_sub(1), 0));
    let text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    let mut game = super::mjai::read::parse_mjai(id, text.as_bytes()).map_err(|e| match e {
        LogError::Mjai { line, error, .. } => {
            let (r, i) = origin.get(line.saturating_sub(1)).copied().unwrap_or((0, 0));
            at(r, i, PaipuError::Replay(error))
        }
        other => other,
    })?;
    game.rules = Rules::majiang();
    // The stated result: final points as majiang-core writes them (strings with one decimal).
    game.final_results = doc.get("point").and_then(by_seat).and_then(|p| {
        let v: Option<Vec<f32>> = p
            .iter()
            .map(|x| x.as_str().and_then(|s| s.parse().ok()).or_else(|| x.as_f64().map(|f| f as f32)))
            .collect();
        v.and_then(|v| v.try_into().ok())
    });
    // Each win as majiang-core scored it, in the order the rounds hold them.
    let rules = game.rules;
    let mut wins = hule.into_iter();
    for ev in game.rounds.iter_mut().flat_map(|r| r.events.iter_mut()) {
        let Event::Agari(a) = ev else { continue };
        let (r, i, h) =
            wins.next().ok_or_else(|| whole(PaipuError::Shape("more wins replayed than the paipu holds")))?;
        let s = scored(h, &rules).map_err(|e| at(r, i, e))?;
        a.fu = s.fu;
        a.points = s.points;
        a.limit = s.limit;
        a.yaku = s.yaku;
        a.yakuman = s.yakuman;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-made paipu in majiang-core's shape (docs/paipu.md) whose one round stops after its
    /// deal: no result.
    const SMALL: &str = r#"{"title":"test","player":["A","B","C","D"],"qijia":1,
      "log":[[{"qipai":{"zhuangfeng":0,"jushu":0,"changbang":0,"lizhibang":0,
        "defen":[25000,25000,25000,25000],"baopai":"s9",
        "shoupai":["m123456789p1122","m1112345678999","p123456789s1122","s1112345678999"]}}]],
      "defen":[25000,25000,25000,25000],"rank":[1,2,3,4],"point":["0.0","0.0","0.0","0.0"]}"#;

    #[test]
    fn tiles_translate() {
        assert_eq!(mjai_tile("m0"), Some("5mr"));
        assert_eq!(mjai_tile("z5"), Some("P"));
        assert_eq!(mjai_tile("p3_*"), Some("3p"), "a discard's marks");
        assert_eq!(mjai_tile("z8"), None);
        assert_eq!(mjai_tiles("m14p405z7").unwrap(), ["1m", "4m", "4p", "5pr", "5p", "C"]);
        let kakan = parse_meld("p505=5").unwrap();
        assert_eq!(consumed(kakan.tiles(), parse_majiang("p5").unwrap()[0]), ["5pr", "5p", "5p"]);
    }

    /// A round without a result is refused with the round named, also when the format is
    /// sniffed from the content.
    #[test]
    fn a_round_without_a_result_is_named() {
        let e = parse_paipu("t", SMALL.as_bytes()).unwrap_err().to_string();
        assert!(e.contains("paipu round 0"), "{e}");
        let e = crate::log::source::parse_game("t.json", SMALL.as_bytes()).unwrap_err().to_string();
        assert!(e.contains("t.json") && e.contains("paipu round 0"), "{e}");
        let e = crate::log::source::parse_game("x.json", br#"{"title":"x","log":[]}"#).unwrap_err();
        assert!(!e.to_string().contains("paipu"), "no qijia: not a paipu ({e})");
    }
}
