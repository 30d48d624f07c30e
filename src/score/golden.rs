//! The 10,000 scored wins of kobalab's majiang-core (`shared/data/kobalab/hule.json`), re-scored
//! and compared field by field: yaku ids and han, fu, total han, yakuman multiplier, points and
//! per-seat payments.
//!
//! majiang-core counts the double yakuman forms twice, so these cases run under
//! [`ScoreRules::MAJIANG`]; everything else is Tenhou's rule set. Its input notation: the concealed
//! part in majiang notation (the last tile is the drawn one for a tsumo), then the melds after
//! commas, where `-` `=` `+` after a digit mark the called tile and its source (left, across,
//! right); `rongpai` like `s2+` is a ron tile and who discarded it. Payments (`fenpei`) are
//! indexed by seat wind, so the winner is seat `menfeng` and the dealer seat 0.

use super::points::{payments, Payers};
use super::{score_with, yaku, ScoreRules, WinInput};
use crate::hand::meld::{Meld, MeldKind};
use crate::tile::{parse_majiang, Tile, EAST};
use serde_json::Value;

/// A kobalab case as our types, plus the fields to compare with.
struct Case {
    input: WinInput,
    winner: u8,
    ron_from: Option<u8>,
}

/// Relative seat of a majiang source marker: `+` next player, `=` across, `-` previous.
/// A golden line that does not parse (the test fails with its text).
type GoldenError = Box<dyn std::error::Error + Send + Sync>;

fn marker_offset(c: char) -> Option<u8> {
    match c {
        '+' => Some(1),
        '=' => Some(2),
        '-' => Some(3),
        _ => None,
    }
}

fn parse_meld(text: &str) -> Result<Meld, GoldenError> {
    let mut chars = text.chars();
    let suit = chars.next().ok_or("empty meld")?;
    let mut tiles: Vec<Tile> = Vec::new();
    let mut marker: Option<(usize, char)> = None;
    for c in chars {
        if marker_offset(c).is_some() {
            marker = Some((tiles.len().checked_sub(1).ok_or("marker before a tile")?, c));
        } else {
            let t = parse_majiang(&format!("{suit}{c}")).map_err(|e| e.to_string())?;
            tiles.push(t[0]);
        }
    }
    let same = tiles.iter().all(|t| t.kind() == tiles[0].kind());
    let kind = match (tiles.len(), marker.map(|m| m.0)) {
        (4, None) => MeldKind::Ankan,
        (4, Some(3)) => MeldKind::Daiminkan,
        (4, Some(_)) => MeldKind::Kakan,
        (3, Some(_)) if same => MeldKind::Pon,
        (3, Some(_)) => MeldKind::Chi,
        _ => return Err(format!("meld {text:?}").into()),
    };
    let called = marker.map(|(i, _)| tiles[i]);
    let from = marker.and_then(|(_, c)| marker_offset(c)).unwrap_or(0);
    Ok(Meld::new(kind, &tiles, called, from))
}

fn tiles_of(v: &Value) -> Vec<Tile> {
    v.as_array()
        .map(|a| a.iter().filter_map(|t| parse_majiang(t.as_str()?).ok()?.first().copied()).collect())
        .unwrap_or_default()
}

fn parse_case(v: &Value) -> Result<Case, GoldenError> {
    let shoupai = v["shoupai"].as_str().ok_or("no shoupai")?;
    let mut parts = shoupai.split(',');
    let mut concealed = parse_majiang(parts.next().unwrap_or("")).map_err(|e| e.to_string())?;
    let melds = parts.filter(|p| !p.is_empty()).map(parse_meld).collect::<Result<Vec<_>, _>>()?;
    let p = &v["param"];
    let menfeng = p["menfeng"].as_u64().ok_or("menfeng")? as u8;
    let zhuangfeng = p["zhuangfeng"].as_u64().ok_or("zhuangfeng")? as usize;
    let (win_tile, ron_from) = match v["rongpai"].as_str() {
        Some(r) => {
            let t = parse_majiang(&r[..2]).map_err(|e| e.to_string())?[0];
            concealed.push(t);
            let off = r.chars().nth(2).and_then(marker_offset).ok_or("rongpai source")?;
            (t, Some((menfeng + off) % 4))
        }
        None => (*concealed.last().ok_or("empty hand")?, None),
    };
    let h = &p["hupai"];
    let flag = |k: &str| h[k].as_bool().unwrap_or(false);
    let num = |k: &str| h[k].as_u64().unwrap_or(0);
    let mut input = WinInput::new(concealed, melds, win_tile);
    input.ron = ron_from.is_some();
    input.round_wind = EAST + zhuangfeng;
    input.seat_wind = EAST + menfeng as usize;
    input.riichi = num("lizhi") == 1;
    input.double_riichi = num("lizhi") == 2;
    input.ippatsu = flag("yifa");
    input.chankan = flag("qianggang");
    input.rinshan = flag("lingshang");
    input.haitei = num("haidi") == 1;
    input.houtei = num("haidi") == 2;
    input.tenhou = num("tianhu") == 1;
    input.chiihou = num("tianhu") == 2;
    input.dora_indicators = tiles_of(&p["baopai"]);
    input.ura_indicators = tiles_of(&p["fubaopai"]);
    input.honba = p["jicun"]["changbang"].as_u64().unwrap_or(0) as u8;
    input.sticks = p["jicun"]["lizhibang"].as_u64().unwrap_or(0) as u8;
    Ok(Case { input, winner: menfeng, ron_from })
}

/// What kobalab answered, in our terms.
#[derive(Debug, PartialEq)]
struct Answer {
    yaku: Vec<(u8, u8)>,
    yakuman: Vec<u8>,
    fu: Option<u8>,
    han: Option<u8>,
    multiplier: u8,
    points: u32,
    payments: [i32; 4],
}

fn expected(out: &Value) -> Result<Answer, GoldenError> {
    let mut yaku = Vec::new();
    let mut yakuman = Vec::new();
    for h in out["hupai"].as_array().ok_or("hupai")? {
        let name = h["name"].as_str().ok_or("name")?;
        let id = yaku::id_of_japanese(name).ok_or_else(|| format!("unknown yaku {name}"))?;
        match &h["fanshu"] {
            Value::Number(n) => yaku.push((id, n.as_u64().ok_or("fanshu")? as u8)),
            _ => yakuman.push(id),
        }
    }
    yaku.sort_unstable();
    yakuman.sort_unstable();
    let multiplier = out["damanguan"].as_u64().unwrap_or(0) as u8;
    let mut payments = [0i32; 4];
    for (slot, v) in payments.iter_mut().zip(out["fenpei"].as_array().ok_or("fenpei")?) {
        *slot = v.as_i64().ok_or("fenpei value")? as i32;
    }
    Ok(Answer {
        yaku,
        yakuman,
        // kobalab gives no fu or han for yakuman hands.
        fu: out["fu"].as_u64().map(|f| f as u8),
        han: out["fanshu"].as_u64().map(|f| f as u8),
        multiplier,
        points: out["defen"].as_u64().ok_or("defen")? as u32,
        payments,
    })
}

fn ours(case: &Case) -> Option<Answer> {
    let s = score_with(&case.input, &ScoreRules::MAJIANG)?;
    let yakuman = s.yakuman_multiplier > 0;
    let p = payments(
        &s,
        &Payers { winner: case.winner, dealer: 0, ron_from: case.ron_from, pao: None, players: 4 },
        case.input.honba,
        case.input.sticks,
    );
    Some(Answer {
        yaku: s.yaku,
        yakuman: s.yakuman,
        fu: (!yakuman).then_some(s.fu),
        han: (!yakuman).then_some(s.han),
        multiplier: s.yakuman_multiplier,
        points: s.base_points,
        payments: p,
    })
}

#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn kobalab_hule_all_cases_agree() {
    let path = crate::testdata::need_file("kobalab/hule.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cases: Vec<Value> = serde_json::from_str(&text).expect("hule.json is a JSON array");
    assert_eq!(cases.len(), 10_000);
    let mut mismatches = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let case = parse_case(&c["in"]).unwrap_or_else(|e| panic!("case {i}: {e}"));
        let want = expected(&c["out"]).unwrap_or_else(|e| panic!("case {i}: {e}"));
        let got = ours(&case);
        if got.as_ref() != Some(&want) {
            mismatches.push((i, c["in"].to_string(), want, got));
        }
    }
    eprintln!("kobalab hule.json: {} of {} cases agree", cases.len() - mismatches.len(), cases.len());
    for (i, input, want, got) in mismatches.iter().take(8) {
        eprintln!("case {i}: {input}\n  kobalab: {want:?}\n  ours:    {got:?}");
    }
    assert!(mismatches.is_empty(), "{} of {} cases differ", mismatches.len(), cases.len());
}
