//! The end of a tenhou.net/6 round: wins (points strings, yaku names in Japanese and English)
//! and draws, as the same result events the mjlog reader produces.

use serde_json::Value;

use super::codes::*;
use super::error::{Item, Tenhou6Error};
use super::order::*;
use crate::log::event::*;
use crate::score::Limit;
use crate::tile::TileId;

/// Appends the round's result (one or more wins, or a draw) from the JSON result entry.
pub(super) fn finish_round(ctx: &Ctx, st: &mut Sim, ura_ids: &[TileId]) -> Result<(), Tenhou6Error> {
    let res = &ctx.data.result;
    let name = res.first().and_then(Value::as_str).ok_or(Tenhou6Error::NoResultName)?;
    let players = ctx.players as u8;
    let deltas_of = |v: Option<&Value>| -> Result<[i32; 4], Tenhou6Error> {
        match v {
            None => Ok([0; 4]),
            Some(v) => {
                let a = v.as_array().ok_or_else(|| Tenhou6Error::NotAnArray("result deltas".into()))?;
                let d: Vec<i32> = a
                    .iter()
                    .map(|x| x.as_i64().and_then(score))
                    .collect::<Option<_>>()
                    .ok_or(Tenhou6Error::Deltas)?;
                seat_values(&d, players).ok_or(Tenhou6Error::DeltaCount(players))
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
            let info = res[i + 1].as_array().ok_or_else(|| Tenhou6Error::NotAnArray("win info".into()))?;
            let agari = win_of(ctx, st, info, deltas, scores, if first { sticks_now } else { 0 }, ura_ids)?;
            for k in 0..4 {
                scores[k] += deltas[k];
            }
            st.events.push(Event::Agari(Box::new(agari)));
            first = false;
            i += 2;
        }
        if first {
            return Err(Tenhou6Error::WinWithoutDetails);
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
        _ => return Err(Tenhou6Error::UnknownResult(name.to_string())),
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
            for s in 0..ctx.players {
                if deltas[s] > 0 || name == "全員聴牌" {
                    shown[s] = show(s);
                }
            }
        }
        DrawKind::Yao9 => shown[st.last_actor as usize] = show(st.last_actor as usize),
        // Whether the dealer was tenpai (and stays dealer) is not in the JSON: shown for now,
        // [`super::dealer_tenpai_from_next_round`] keeps it only when the next round says so.
        DrawKind::Nagashi => shown[start.dealer as usize] = show(start.dealer as usize),
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

pub(super) fn win_of(
    ctx: &Ctx,
    st: &Sim,
    info: &[Value],
    deltas: [i32; 4],
    scores_before: [i32; 4],
    sticks: u8,
    ura_ids: &[TileId],
) -> Result<Agari, Tenhou6Error> {
    let seat = |i: usize| -> Result<u8, Tenhou6Error> {
        info.get(i)
            .and_then(Value::as_u64)
            .filter(|&s| s < ctx.players as u64)
            .map(|s| s as u8)
            .ok_or_else(|| Tenhou6Error::Malformed { item: Item::WinInfo, value: format!("{info:?}") })
    };
    let (who, from_who, pao) = (seat(0)?, seat(1)?, seat(2)?);
    let w = who as usize;
    let win_tile = if who == from_who {
        st.last_draw[w].ok_or(Tenhou6Error::TsumoNoDraw)?
    } else {
        match st.last_given {
            Some((g, t)) if g == from_who => t,
            _ => return Err(Tenhou6Error::RonNoTile(from_who)),
        }
    };
    let mut hand = st.hands[w].clone();
    if who != from_who {
        hand.push(win_tile);
    }
    hand.sort();
    let points_text = info.get(3).and_then(Value::as_str).unwrap_or("");
    let (fu, points, limit) = parse_points(points_text, ctx.players as u8)?;
    let mut yaku = Vec::new();
    let mut yakuman = Vec::new();
    for v in &info[4.min(info.len())..] {
        let s = v.as_str().ok_or_else(|| Tenhou6Error::YakuNotString(v.to_string()))?;
        match parse_yaku(s)? {
            YakuValue::Han(id, han) => yaku.push((id, han)),
            YakuValue::Yakuman(id) => yakuman.push(id),
        }
    }
    let limit = if limit == Limit::None && !yakuman.is_empty() { Limit::Yakuman } else { limit };
    // A riichi winner's record carries the ura doras, a yakuman one's too (no riichi yaku then).
    let has_riichi = yaku.iter().any(|&(id, _)| id == 1 || id == 21)
        || st.events.iter().any(|e| matches!(e, Event::Riichi { who: w, step: 1, .. } if *w == who));
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
        kita: st.kita[w].clone(),
        scores_before,
        deltas,
    })
}

/// `30符3飜3900点`, `満貫2000-4000点`, `30符2飜700点∀` (dealer tsumo, all pay) → fu, total
/// points without honba, limit. A tsumo's string gives what each payer pays; at three players
/// (`players` 3) only two seats pay (tsumo loss, docs/sanma.md): `満貫2000-4000点` is 6,000 and
/// `満貫4000点∀` 8,000. An empty string gives zeros.
pub(super) fn parse_points(s: &str, players: u8) -> Result<(u32, i32, Limit), Tenhou6Error> {
    if s.is_empty() {
        return Ok((0, 0, Limit::None));
    }
    let bad = || Tenhou6Error::Malformed { item: Item::Points, value: format!("{s:?}") };
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
    // Non-dealer payers: all but the winner and the dealer (a dealer tsumo: all but the winner).
    let others = i32::from(players.saturating_sub(1));
    let points = match pay.split_once('-') {
        Some((child, dealer)) => {
            num(child)?.checked_mul(others - 1).and_then(|c| c.checked_add(num(dealer).ok()?))
        }
        None if all => num(pay)?.checked_mul(others),
        None => Some(num(pay)?),
    }
    .filter(|p| p.unsigned_abs() <= 10_000_000)
    .ok_or_else(bad)?;
    Ok((fu, points, limit))
}

pub(super) enum YakuValue {
    Han(u8, u8),
    Yakuman(u8),
}

/// Tenhou yaku names (as tenhou.net/6 writes them) in id order 0..=54.
pub(super) const YAKU_NAMES: [&str; 55] = [
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
pub(super) const YAKU_ENGLISH: [(&str, u8); 12] = [
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
pub(super) fn parse_yaku(s: &str) -> Result<YakuValue, Tenhou6Error> {
    let bad = || Tenhou6Error::Malformed { item: Item::Yaku, value: format!("{s:?}") };
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
        .ok_or_else(|| Tenhou6Error::UnknownYaku(name.to_string()))?;
    if value == "役満" {
        return Ok(YakuValue::Yakuman(id));
    }
    let han = value.strip_suffix('飜').ok_or_else(bad)?.parse::<u8>().map_err(|_| bad())?;
    Ok(YakuValue::Han(id, han))
}
