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
//! discards 60 = the drawn tile (tsumogiri) and 0 = no discard (after an open kan; Tenhou leaves it
//! out when the replacement draw wins). Call strings
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
//! only for the wins of a seat that declared riichi (yakuman ones too). The `connection` entries (`what` 0 = disconnect, 1 = reconnect, in round
//! `log` after `step` draws, discards and calls; `log` -1 = before the game) become
//! `Disconnect` / `Reconnect` events just before the next of those (after the round's result
//! when none follows). [`write::write`] writes a game back out the way Tenhou does.

use serde_json::Value;

use super::error::LogError;
use super::event::*;
use crate::tile::TileId;

mod codes;
pub mod error;
mod order;
mod results;
pub mod write;

use codes::*;
use error::Tenhou6Error;
use order::*;
use results::*;

/// Parses a tenhou.net/6 JSON document. `id` is used when the JSON has no `ref`.
pub fn parse_tenhou6(id: &str, json: &[u8]) -> Result<Game, LogError> {
    let root: Value = serde_json::from_slice(json).map_err(|e| LogError::Json {
        detail: e.to_string(),
        line: e.line(),
        column: e.column(),
    })?;
    let err0 = |error| LogError::Tenhou6 { round: 0, error };
    let obj = root.as_object().ok_or_else(|| err0(Tenhou6Error::NotAnObject))?;
    let log = obj.get("log").and_then(Value::as_array).ok_or_else(|| err0(Tenhou6Error::NoLog))?;
    if log.is_empty() {
        return Err(err0(Tenhou6Error::NoRounds));
    }
    let rules = rules_of(obj.get("rule"), obj.get("lobby"), fourth_seat_empty(&log[0]));
    let red_suits = red_suits_of(obj.get("rule"));
    let players = players_of(obj);
    let mut rounds = Vec::with_capacity(log.len());
    for (i, entry) in log.iter().enumerate() {
        let round = parse_round(entry, red_suits, rules.players)
            .map_err(|error| LogError::Tenhou6 { round: i, error })?;
        rounds.push(round);
    }
    dealer_tenpai_from_next_round(&mut rounds);
    insert_connections(&mut rounds, obj.get("connection"));
    let table_total: i32 = rounds[0].start.scores.iter().sum();
    let (final_scores, final_results) = final_of(obj.get("sc"), f64::from(table_total), rules.players)?;
    let id = obj.get("ref").and_then(Value::as_str).filter(|s| !s.is_empty()).unwrap_or(id);
    Ok(Game { id: id.to_string(), rules, players, rounds, final_scores, final_results })
}

/// A nagashi mangan's payments leave out the tenpai ones, so the JSON does not say whether the
/// dealer was tenpai; the next round does (the dealer stays). The reader shows the dealer's hand
/// at a nagashi draw (see `results`); it is dropped here when the deal moved on or the game ended.
fn dealer_tenpai_from_next_round(rounds: &mut [Round]) {
    for i in 0..rounds.len() {
        let stays = rounds.get(i + 1).is_some_and(|next| next.start.round == rounds[i].start.round);
        let dealer = rounds[i].start.dealer as usize;
        if let Some(Event::Ryuukyoku(d)) = rounds[i].events.last_mut() {
            if d.kind == DrawKind::Nagashi && !stays {
                d.shown[dealer] = None;
            }
        }
    }
}

/// Places the `connection` entries among the rounds' events (see the module doc); entries that
/// name no round or seat are ignored, as the field is informational.
fn insert_connections(rounds: &mut [Round], connection: Option<&Value>) {
    let Some(list) = connection.and_then(Value::as_array) else { return };
    for c in list {
        let num = |k: &str| c.get(k).and_then(Value::as_i64);
        let (Some(what), Some(log), Some(who), Some(step)) =
            (num("what"), num("log"), num("who"), num("step"))
        else {
            continue;
        };
        let (round, step) = if log < 0 { (0, 0) } else { (log as usize, step.max(0) as usize) };
        let (Some(round), Ok(who)) = (rounds.get_mut(round), u8::try_from(who)) else { continue };
        if who > 3 {
            continue;
        }
        let event = if what == 0 { Event::Disconnect { who } } else { Event::Reconnect { who } };
        let is_action =
            |e: &Event| matches!(e, Event::Draw { .. } | Event::Discard { .. } | Event::Call { .. });
        let at = round.events.iter().enumerate().filter(|(_, e)| is_action(e)).nth(step);
        let at = at.map_or(round.events.len(), |(i, _)| i);
        round.events.insert(at, event);
    }
}

/// Which suits have a red five under `rule`: each suit's field (`aka51`, `aka52`, `aka53`), or
/// `aka` for the suits without one; with none of them, the `disp` text's 赤.
fn red_suits_of(rule: Option<&Value>) -> [bool; 3] {
    let disp = rule.and_then(|r| r.get("disp")).and_then(Value::as_str).unwrap_or("");
    let aka_field = |k: &str| rule.and_then(|r| r.get(k)).and_then(Value::as_i64);
    let suits = [aka_field("aka51"), aka_field("aka52"), aka_field("aka53")];
    match (aka_field("aka"), suits) {
        (None, [None, None, None]) => [disp.contains('赤'); 3],
        (all, s) => s.map(|v| v.or(all).unwrap_or(0) > 0),
    }
}

/// Whether a round entry deals the fourth seat no hand (`[]` as its item 13): how a 3-player
/// game looks when its `rule.disp` does not say 三.
fn fourth_seat_empty(round: &Value) -> bool {
    round.get(13).and_then(Value::as_array).is_some_and(|h| h.is_empty())
}

/// The rules a record states: `rule.disp` (Tenhou's 三鳳南喰赤: 三 for three players, the table,
/// 東/南, 喰, 赤, 速) and the `aka` fields, read as the GO type bits they stand for; three players
/// also when the first round deals the fourth seat nothing (`fourth_empty`).
fn rules_of(rule: Option<&Value>, lobby: Option<&Value>, fourth_empty: bool) -> Rules {
    let disp = rule.and_then(|r| r.get("disp")).and_then(Value::as_str).unwrap_or("");
    let red = red_suits_of(rule).iter().any(|&r| r);
    let mut bits = 0x01u32;
    let lower = disp.to_ascii_lowercase();
    if disp.contains('三') || lower.contains("sanma") || lower.contains("3-player") || fourth_empty {
        bits |= 0x10;
    }
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
    Rules::from_go_type(bits, lobby)
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
    match plain.as_str() {
        "新人" => return Some(0),
        // Tenhou's mjlog2json writes 天鳳 for index 20.
        "天鳳" => return Some(20),
        _ => {}
    }
    if let Some(k) = plain.strip_suffix('級') {
        let k: u8 = k.parse().ok()?;
        return (1..=9).contains(&k).then_some(10 - k);
    }
    DAN.iter().position(|d| *d == plain).map(|i| 10 + i as u8)
}

/// A record's final scores and points, each when stated.
type Finals = (Option<[i32; 4]>, Option<[f32; 4]>);

/// `sc`: final score and result per seat; scores may be in points or in hundreds, told by which
/// reading sums closer to the points on the table (`table_total`, the first round's scores).
/// The stated result: `sc`, four (score, points) pairs, or three at three players (the empty
/// fourth seat's pair is then 0, 0). Absent: the record states no result (the replay calls the
/// game partial). Present but not eight (or six) numbers: an error, not a missing result.
fn final_of(sc: Option<&Value>, table_total: f64, players: u8) -> Result<Finals, LogError> {
    let Some(sc) = sc else { return Ok((None, None)) };
    let bad = || LogError::Tenhou6 { round: 0, error: Tenhou6Error::FinalScores(sc.to_string()) };
    let a = sc.as_array().filter(|a| a.len() == 8 || (players == 3 && a.len() == 6)).ok_or_else(bad)?;
    let mut n: Vec<f64> = a.iter().map(Value::as_f64).collect::<Option<_>>().ok_or_else(bad)?;
    if n.iter().any(|x| !x.is_finite() || x.abs() > 1e7) {
        return Err(bad());
    }
    n.resize(8, 0.0);
    let sum: f64 = (0..4).map(|i| n[2 * i]).sum();
    let scale = if (sum * 100.0 - table_total).abs() < (sum - table_total).abs() { 100.0 } else { 1.0 };
    Ok((
        Some(std::array::from_fn(|i| (n[2 * i] * scale).round() as i32)),
        Some(std::array::from_fn(|i| n[2 * i + 1] as f32)),
    ))
}

fn parse_round(entry: &Value, red_suits: [bool; 3], players: u8) -> Result<Round, Tenhou6Error> {
    let red_fives = red_suits.iter().any(|&r| r);
    let (mut data, hand_codes) = round_data(entry, players)?;
    let mut ids = Ids { used: [0; 34], red_fives, red_suits };
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
        kita: Default::default(),
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
    let ctx = Ctx { data: &data, dora_ids: &dora_ids, red_fives, players: usize::from(players) };
    let mut budget = 20_000usize;
    let mut sim = play(&ctx, sim, data.start.dealer as usize, true, &mut budget)
        .map_err(|e| Tenhou6Error::NoOrder { events: e.events, error: Box::new(e.error) })?;
    let ura_ids: Vec<TileId> = data.ura.iter().map(|&c| sim.ids.take(c)).collect::<Result<_, _>>()?;
    finish_round(&ctx, &mut sim, &ura_ids)?;
    Ok(Round { start: data.start.clone(), events: sim.events })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::meld::MeldKind;
    use crate::score::Limit;

    /// Scores and points at the edge of their types (`i64::MIN.abs()`, `2 *` / `3 *` on parsed
    /// points overflowed): errors, never panics.
    #[test]
    fn extreme_numbers_are_errors() {
        let round = |scores: &str| {
            // Entries 2..=16: dora, ura, then hand / takes / gives per seat (hands non-empty).
            let rest: Vec<&str> =
                (2..17).map(|i| if [4, 7, 10, 13].contains(&i) { "[11]" } else { "[]" }).collect();
            let rest = rest.join(",");
            format!(r#"{{"rule": {{"aka": 1}}, "log": [[[0,0,0],[{scores}],{rest}]]}}"#)
        };
        for s in ["-9223372036854775808,250,250,250", "9223372036854775807,0,0,0"] {
            let e = parse_tenhou6("edge", round(s).as_bytes()).unwrap_err();
            assert!(e.to_string().contains("out of range"), "{s}: {e}");
        }
        for p in ["2147483647-2147483647点", "30符1飜2147483647点∀", "満貫2000000000-1点"] {
            let e = results::parse_points(p, 4).unwrap_err();
            assert!(
                matches!(e, error::Tenhou6Error::Malformed { item: error::Item::Points, .. }),
                "{p}: {e}"
            );
            assert!(e.to_string().starts_with("bad points string"), "{p}: {e}");
        }
    }

    #[test]
    fn points_strings() {
        assert_eq!(parse_points("30符3飜3900点", 4).unwrap(), (30, 3900, Limit::None));
        assert_eq!(parse_points("30符2飜500-1000点", 4).unwrap(), (30, 2000, Limit::None));
        assert_eq!(parse_points("30符2飜700点∀", 4).unwrap(), (30, 2100, Limit::None));
        assert_eq!(parse_points("跳満3000-6000点", 4).unwrap(), (0, 12000, Limit::Haneman));
        assert_eq!(parse_points("満貫4000点∀", 4).unwrap(), (0, 12000, Limit::Mangan));
        assert_eq!(parse_points("役満48000点", 4).unwrap(), (0, 48000, Limit::Yakuman));
        assert_eq!(parse_points("", 4).unwrap(), (0, 0, Limit::None));
        // Three players: two payers (docs/sanma.md's tsumo examples).
        assert_eq!(parse_points("跳満3000-6000点", 3).unwrap(), (0, 9000, Limit::Haneman));
        assert_eq!(parse_points("満貫4000点∀", 3).unwrap(), (0, 8000, Limit::Mangan));
        assert_eq!(parse_points("30符3飜7700点", 3).unwrap(), (30, 7700, Limit::None));
        assert!(parse_points("30符", 4).is_err());
        assert!(parse_points("大満貫8000点", 4).is_err());
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

    /// `sc` in points (Tenhou) or hundreds, also for a table of 1000-point starts.
    #[test]
    fn final_scores_in_points_or_hundreds() {
        let sc = |v: serde_json::Value, total: f64| final_of(Some(&v), total, 4).unwrap().0.unwrap();
        let tenhou = serde_json::json!([4400, -46, 7100, -33, 40700, 21, 47800, 58]);
        assert_eq!(sc(tenhou, 100_000.0), [4400, 7100, 40700, 47800]);
        let hundreds = serde_json::json!([44, -46, 71, -33, 407, 21, 478, 58]);
        assert_eq!(sc(hundreds, 100_000.0), [4400, 7100, 40700, 47800]);
        let small = serde_json::json!([-300, -1.3, 2300, 1.3, 1000, 0, 1000, 0]);
        assert_eq!(sc(small, 4000.0), [-300, 2300, 1000, 1000]);
        // absent: no result; present but not eight numbers: an error naming the field
        assert_eq!(final_of(None, 100_000.0, 4).unwrap(), (None, None));
        // three players: the fourth pair 0, 0, or left out
        let three =
            final_of(Some(&serde_json::json!([52100, 32.1, 30500, -29.5, 22400, -2.6])), 105_000.0, 3);
        assert_eq!(three.unwrap().0, Some([52100, 30500, 22400, 0]));
        assert!(final_of(Some(&serde_json::json!([1, 2, 3, 4, 5, 6])), 105_000.0, 4).is_err());
        for bad in [
            serde_json::json!([4400, "-46", 7100, -33, 40700, 21, 47800, 58]),
            serde_json::json!([1, 2]),
            serde_json::json!("x"),
        ] {
            let e = final_of(Some(&bad), 100_000.0, 4).unwrap_err().to_string();
            assert!(e.contains("\"sc\"") && e.contains("eight numbers"), "{e}");
        }
    }

    #[test]
    fn dan_names() {
        assert_eq!(dan_index("新人"), Some(0));
        assert_eq!(dan_index("９級"), Some(1));
        assert_eq!(dan_index("1級"), Some(9));
        assert_eq!(dan_index("初段"), Some(10));
        assert_eq!(dan_index("七段"), Some(16));
        assert_eq!(dan_index("天鳳位"), Some(20));
        assert_eq!(dan_index("天鳳"), Some(20));
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
        let r = rules_of(Some(&serde_json::json!({"disp": "鳳東喰赤速", "aka": 1})), None, false);
        assert_eq!(r.go_type, 0xE1, "225 = 4p houou tonpuu fast (README)");
        let r = rules_of(
            Some(&serde_json::json!({"disp": "般南喰赤", "aka53": 1, "aka52": 1, "aka51": 1})),
            None,
            false,
        );
        assert_eq!(r.go_type, 0x09, "9 = 4p ippan hanchan (README)");
        let sanma = serde_json::json!({"disp": "三鳳南喰赤", "aka53": 1, "aka52": 1, "aka51": 0});
        let r = rules_of(Some(&sanma), None, false);
        assert_eq!(
            (r.go_type, r.players, r.red),
            (0xB9, 3, [0, 1, 1]),
            "185 = the Houou sanma mjlogs' GO type"
        );
        let r = rules_of(Some(&serde_json::json!({"disp": "鳳南喰赤", "aka": 1})), None, true);
        assert_eq!(r.players, 3, "an empty fourth hand without 三");
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
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn a_real_round_fills_the_win() {
        let p = crate::testdata::need_file("tenhou/2008121721gm-00c1-0000-fcadb0d7.t6.json");
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
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn chankan_takes_the_added_tile() {
        let name =
            "partial/summivox__riichi-rs__riichi_data_t6-samples_notable-features_chankan.json.t6.json";
        let p = crate::testdata::need_file(&format!("tenhou/{name}"));
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
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn mutated_logs_never_panic() {
        let dir = crate::testdata::need_file("tenhou");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with(".t6.json"))
            .collect();
        files.sort();
        let mut next = crate::testdata::xorshift(0x9e37_79b9_7f4a_7c15u64);
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
