//! Typed events into tenhou.net/6 JSON, laid out as Tenhou's own `mjlog2json.cgi` writes it (the
//! log the tenhou.net/6 viewer loads and mjai-reviewer reads): compact, keys in Tenhou's order
//! `ver, ref, log, [connection], ratingc, rule, lobby, dan, rate, sx, sc, name`.
//!
//! Byte conventions followed (checked against Tenhou's JSON of games whose mjlog is in the shared
//! corpus): dealt hands sorted by kind with a red five after the plain fives; a call string puts
//! its letter before the called tile and the tile given up from the board in Tenhou's placement
//! order (plain fives before the red one); a closed kan's red five last; no `0` after an open
//! kan that ends the round (a rinshan win); a zero-han ura dora is left out of the yaku; an
//! exhaustive draw with no payments is `全員聴牌` or `全員不聴` without deltas, the other
//! abortive draws carry none either. What the JSON cannot hold (dice, wall seed, the GO type bits
//! beyond table / length / red / kuitan / speed) is not written, and the order of events is
//! implied: [`super::parse_tenhou6`] rebuilds it.
//!
//! A win's points string and yaku come from the [`Agari`] record (`fu`, `points`, `limit`,
//! `yaku`, `yakuman`): a win without them (an mjai record, `points` 0) is refused, so callers
//! fill them from the replay's re-scoring first (as `haifu convert` does).

use std::fmt::Write as _;

use super::codes::Code;
use super::results::YAKU_NAMES;
use crate::hand::meld::MeldKind;
use crate::log::event::*;
use crate::score::Limit;
use crate::tile::TileId;

/// Why a game cannot be written as tenhou.net/6.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    #[error("round {round}: no result (the record stops mid-round)")]
    NoResult { round: usize },
    #[error("round {round}: the server stopped the game mid-round; tenhou.net/6 has no such result")]
    Aborted { round: usize },
    #[error("round {round}: a win without points or yaku (fill them from the re-scoring first)")]
    Unscored { round: usize },
    #[error("round {round}: {points} points cannot be split into Tenhou's tsumo payments")]
    Points { round: usize, points: i32 },
    #[error("round {round}: unknown yaku id {id}")]
    Yaku { round: usize, id: u8 },
    #[error("round {round}: {detail}")]
    Meld { round: usize, detail: &'static str },
}

/// One game as tenhou.net/6 JSON (one line, no trailing newline).
pub fn write(game: &Game) -> Result<String, WriteError> {
    let red = game.rules.red_fives();
    let players = game.rules.players;
    let mut out = String::with_capacity(8 * 1024);
    let _ = write!(out, "{{\"ver\":2.3,\"ref\":{},\"log\":[", json_string(&game.id));
    let mut connections = Vec::new();
    for (ri, round) in game.rounds.iter().enumerate() {
        if ri > 0 {
            out.push(',');
        }
        write_round(&mut out, round, ri, (red, players), &mut connections)?;
    }
    out.push(']');
    if !connections.is_empty() {
        let _ = write!(out, ",\"connection\":[{}]", connections.join(","));
    }
    write_meta(&mut out, game);
    out.push('}');
    Ok(out)
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

fn list<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let parts: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    format!("[{}]", parts.join(","))
}

/// The game's players, rules and final result after the rounds.
fn write_meta(out: &mut String, game: &Game) {
    let r = &game.rules;
    let table = match r.table {
        TableLevel::Ippan => "般",
        TableLevel::Joukyuu => "上",
        TableLevel::Tokujou => "特",
        TableLevel::Houou => "鳳",
    };
    let three = if r.players == 3 { "三" } else { "" };
    let mut disp = format!("{three}{table}{}", if r.hanchan { "南" } else { "東" });
    for (on, mark) in [(r.kuitan, "喰"), (r.red_fives(), "赤"), (r.fast, "速")] {
        if on {
            disp.push_str(mark);
        }
    }
    // Per suit: a 3-player game has no red 5m (`aka51` 0, as tensoul writes it).
    let [m, p, s] = r.red.map(|n| u8::from(n > 0));
    let _ = write!(
        out,
        ",\"ratingc\":\"PF4\",\"rule\":{{\"disp\":{},\"aka53\":{s},\"aka52\":{p},\"aka51\":{m}}}",
        json_string(&disp)
    );
    if let Some(lobby) = r.lobby {
        let _ = write!(out, ",\"lobby\":{lobby}");
    }
    let p = &game.players;
    if p.iter().any(|p| p.dan.is_some()) {
        let _ = write!(out, ",\"dan\":{}", list(p.iter().map(|p| json_string(dan_name(p.dan)))));
    }
    if p.iter().all(|p| p.rate.is_some_and(f32::is_finite)) {
        let _ = write!(out, ",\"rate\":{}", list(p.iter().map(|p| p.rate.unwrap_or(0.0))));
    }
    if p.iter().any(|p| p.sex.is_some()) {
        let _ =
            write!(out, ",\"sx\":{}", list(p.iter().map(|p| json_string(p.sex.as_deref().unwrap_or("")))));
    }
    let finals = game.final_scores.zip(game.final_results.filter(|r| r.iter().all(|x| x.is_finite())));
    if let Some((scores, results)) = finals {
        let sc = (0..4).flat_map(|i| [scores[i].to_string(), results[i].to_string()]);
        let _ = write!(out, ",\"sc\":{}", list(sc));
    }
    let _ = write!(out, ",\"name\":{}", list(p.iter().map(|p| json_string(&p.name))));
}

/// Tenhou's dan names by the mjlog `dan=` index (`""` when unknown).
fn dan_name(dan: Option<u8>) -> &'static str {
    const NAMES: [&str; 21] = [
        "新人", "９級", "８級", "７級", "６級", "５級", "４級", "３級", "２級", "１級", "初段", "二段",
        "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳",
    ];
    dan.and_then(|d| NAMES.get(usize::from(d))).copied().unwrap_or("")
}

/// The two-digit code of a tile.
fn code(id: TileId, red: bool) -> u8 {
    Code::of_id(id, red).0
}

/// Sort key of a code: by kind, a red five after the plain ones (Tenhou's hand order).
fn hand_order(c: u8) -> u16 {
    let c = Code(c);
    c.kind() as u16 * 2 + u16::from(c.is_red())
}

/// Seat lists of one round as JSON values, with the round's doras, ura doras and result.
#[derive(Default)]
struct RoundLists {
    takes: [Vec<String>; 4],
    gives: [Vec<String>; 4],
    dora: Vec<u8>,
    ura: Vec<u8>,
    result: Vec<String>,
}

/// One round's entry, for a game with or without red fives of `players` seats.
fn write_round(
    out: &mut String,
    round: &Round,
    ri: usize,
    (red, players): (bool, u8),
    connections: &mut Vec<String>,
) -> Result<(), WriteError> {
    let s = &round.start;
    let mut l = RoundLists { dora: vec![code(s.dora_indicator, red)], ..RoundLists::default() };
    let mut last_draw: [Option<TileId>; 4] = [None; 4];
    let mut riichi = [false; 4];
    let mut step = 0usize;
    for event in &round.events {
        match event {
            Event::Draw { who, tile } => {
                l.takes[*who as usize].push(code(*tile, red).to_string());
                last_draw[*who as usize] = Some(*tile);
            }
            Event::Discard { who, tile } => {
                let w = *who as usize;
                let c = if last_draw[w].take() == Some(*tile) { 60 } else { code(*tile, red) };
                let r = std::mem::take(&mut riichi[w]);
                l.gives[w].push(if r { format!("\"r{c}\"") } else { c.to_string() });
            }
            Event::Call { who, call } => write_call(&mut l, *who as usize, call, red)
                .map_err(|detail| WriteError::Meld { round: ri, detail })?,
            Event::Riichi { who, step: 1, .. } => riichi[*who as usize] = true,
            Event::Riichi { .. } => {}
            // tenhou.net/6 lists a set-aside north among the discards as "f44" (docs/sanma.md).
            Event::Kita { who, .. } => l.gives[*who as usize].push("\"f44\"".into()),
            Event::NewDora { indicator } => l.dora.push(code(*indicator, red)),
            Event::Agari(a) => write_win(&mut l, a, (s.dealer, players), ri, red)?,
            Event::Ryuukyoku(d) => write_draw(&mut l, d, ri, players)?,
            Event::Disconnect { who } | Event::Reconnect { who } => {
                let what = u8::from(matches!(event, Event::Reconnect { .. }));
                connections.push(format!("{{\"what\":{what},\"log\":{ri},\"who\":{who},\"step\":{step}}}"));
            }
        }
        if matches!(event, Event::Draw { .. } | Event::Discard { .. } | Event::Call { .. }) {
            step += 1;
        }
    }
    if l.result.is_empty() {
        return Err(WriteError::NoResult { round: ri });
    }
    // An open kan's 0 stands for the discard after the replacement draw; a round that ends on
    // that draw (a rinshan win) has none, and Tenhou drops the 0.
    for g in &mut l.gives {
        while g.last().is_some_and(|x| x == "0") {
            g.pop();
        }
    }
    let _ = write!(
        out,
        "[[{},{},{}],{},{},{}",
        s.round,
        s.honba,
        s.sticks,
        list(s.scores),
        list(&l.dora),
        list(&l.ura)
    );
    for seat in 0..4 {
        let mut hand: Vec<u8> = s.hands[seat].iter().map(|&t| code(t, red)).collect();
        hand.sort_by_key(|&c| hand_order(c));
        let _ = write!(out, ",{},{},{}", list(hand), list(&l.takes[seat]), list(&l.gives[seat]));
    }
    let _ = write!(out, ",[{}]]", l.result.join(","));
    Ok(())
}

/// A call as Tenhou writes it: chi, pon and open kan among the takes, added and closed kans among
/// the gives (with the 0 that stands for the open kan's discard).
fn write_call(l: &mut RoundLists, w: usize, call: &Call, red: bool) -> Result<(), &'static str> {
    let c = |t: TileId| code(t, red);
    let mut own: Vec<u8> = call
        .tiles
        .iter()
        .filter(|&&t| Some(t) != call.called && Some(t) != call.added)
        .map(|&t| c(t))
        .collect();
    own.sort_by_key(|&x| hand_order(x));
    let pair = |a: &[u8]| a.iter().map(|x| x.to_string()).collect::<String>();
    let quoted = |s: String| format!("\"{s}\"");
    match call.kind {
        MeldKind::Chi => {
            let called = call.called.ok_or("a chi without its called tile")?;
            l.takes[w].push(quoted(format!("c{}{}", c(called), pair(&own))));
        }
        MeldKind::Pon | MeldKind::Daiminkan => {
            let called = call.called.ok_or("a pon or open kan without its called tile")?;
            let letter = if call.kind == MeldKind::Pon { 'p' } else { 'm' };
            let at = called_position(call.kind, call.from)?;
            l.takes[w].push(quoted(placed(&own, at, &format!("{letter}{}", c(called)))));
            if call.kind == MeldKind::Daiminkan {
                l.gives[w].push("0".into());
            }
        }
        MeldKind::Kakan => {
            let called = call.called.ok_or("an added kan without its pon's called tile")?;
            let added = call.added.ok_or("an added kan without its added tile")?;
            let at = called_position(MeldKind::Pon, call.from)?;
            let board = placed(&own, at, &c(called).to_string());
            // The letter and the added tile go just before the pon's called tile.
            let called_at = 2 * at;
            let s = format!("{}k{}{}", &board[..called_at], c(added), &board[called_at..]);
            l.gives[w].push(quoted(s));
        }
        MeldKind::Ankan => {
            // `own` holds all four (no called tile): plain ones first, a red five last.
            if own.len() != 4 {
                return Err("a closed kan without four tiles");
            }
            l.gives[w].push(quoted(format!("{}a{}", pair(&own[..3]), own[3])));
        }
    }
    Ok(())
}

/// Where the called tile sits among a meld's tiles on the board: first from the previous seat,
/// second from across, last from the next seat.
fn called_position(kind: MeldKind, from: u8) -> Result<usize, &'static str> {
    let last = if kind == MeldKind::Pon { 2 } else { 3 };
    match from {
        3 => Ok(0),
        2 => Ok(1),
        1 => Ok(last),
        _ => Err("a call from no other seat"),
    }
}

/// The own tiles (two digits each) with `called` (letter included) inserted at position `at`.
fn placed(own: &[u8], at: usize, called: &str) -> String {
    let mut s = String::with_capacity(12);
    for (i, x) in own.iter().enumerate() {
        if i == at {
            s.push_str(called);
        }
        let _ = write!(s, "{x}");
    }
    if at >= own.len() {
        s.push_str(called);
    }
    s
}

/// A win: `和了` once, then the deltas and `[who, from, pao, points, yaku...]` of each winner.
/// `seat`: the dealer and the number of players.
fn write_win(
    l: &mut RoundLists,
    a: &Agari,
    (dealer, players): (u8, u8),
    ri: usize,
    red: bool,
) -> Result<(), WriteError> {
    if a.points == 0 || (a.yaku.is_empty() && a.yakuman.is_empty()) {
        return Err(WriteError::Unscored { round: ri });
    }
    if l.result.is_empty() {
        l.result.push("\"和了\"".into());
    }
    if l.ura.is_empty() {
        l.ura = a.ura_indicators.iter().map(|&t| code(t, red)).collect();
    }
    let mut info = vec![
        a.who.to_string(),
        a.from_who.to_string(),
        a.pao_who.unwrap_or(a.who).to_string(),
        json_string(
            &points_text(a, dealer, players).ok_or(WriteError::Points { round: ri, points: a.points })?,
        ),
    ];
    let name = |id: u8| YAKU_NAMES.get(usize::from(id)).ok_or(WriteError::Yaku { round: ri, id });
    for &(id, han) in &a.yaku {
        if (id, han) != (53, 0) {
            info.push(json_string(&format!("{}({han}飜)", name(id)?)));
        }
    }
    for &id in &a.yakuman {
        info.push(json_string(&format!("{}(役満)", name(id)?)));
    }
    l.result.push(list(a.deltas));
    l.result.push(format!("[{}]", info.join(",")));
    Ok(())
}

/// `30符2飜500-1000点`, `満貫4000点∀`, `役満32000点`: the class (fu and han below mangan) and
/// what each payer pays before honba. At three players a tsumo's `points` is the two payments
/// (tsumo loss). `None` when `points` cannot be a Tenhou payment.
pub(super) fn points_text(a: &Agari, dealer: u8, players: u8) -> Option<String> {
    let han: u32 = a.yaku.iter().map(|&(_, h)| u32::from(h)).sum();
    let class = match (a.yakuman.is_empty(), a.limit) {
        (false, _) | (true, Limit::Yakuman) => "役満".to_string(),
        (true, Limit::None) => format!("{}符{han}飜", a.fu),
        (true, Limit::Mangan) => "満貫".into(),
        (true, Limit::Haneman) => "跳満".into(),
        (true, Limit::Baiman) => "倍満".into(),
        (true, Limit::Sanbaiman) => "三倍満".into(),
    };
    let p = a.points;
    // The seats that pay a tsumo: all but the winner.
    let payers = i32::from(players) - 1;
    let pay = if a.who != a.from_who {
        format!("{p}点")
    } else if a.who == dealer {
        (p % (100 * payers) == 0).then(|| format!("{}点∀", p / payers))?
    } else {
        // Non-dealer tsumo: children pay c = ceil100(b), the dealer ceil100(2b), which is 2c or
        // 2c - 100; so the total is (payers + 1) c, or that less 100.
        let shares = payers + 1;
        let (child, dealer_pays) = match p % (100 * shares) {
            0 => (p / shares, 2 * p / shares),
            r if r == 100 * shares - 100 => ((p + 100) / shares, 2 * (p + 100) / shares - 100),
            _ => return None,
        };
        format!("{child}-{dealer_pays}点")
    };
    (p > 0).then(|| format!("{class}{pay}"))
}

/// A draw: its Tenhou name, with the deltas only when someone paid.
fn write_draw(l: &mut RoundLists, d: &RoundDraw, ri: usize, players: u8) -> Result<(), WriteError> {
    let shown = d.shown.iter().filter(|h| h.is_some()).count();
    let everyone = usize::from(players);
    let paid = d.deltas.iter().any(|&x| x != 0);
    let name = match d.kind {
        DrawKind::Exhaustive if !paid && shown == everyone => "全員聴牌",
        DrawKind::Exhaustive if !paid => "全員不聴",
        DrawKind::Exhaustive => "流局",
        DrawKind::Yao9 => "九種九牌",
        DrawKind::Reach4 => "四家立直",
        DrawKind::Ron3 => "三家和了",
        DrawKind::Kan4 => "四槓散了",
        DrawKind::Kaze4 => "四風連打",
        DrawKind::Nagashi => "流し満貫",
        DrawKind::Aborted => return Err(WriteError::Aborted { round: ri }),
    };
    l.result.push(json_string(name));
    if paid {
        l.result.push(list(d.deltas));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tile id of a code: red fives copy 0, plain tiles copy `copy` (1..=3 for fives).
    fn id(code: u8, copy: u32) -> TileId {
        let c = Code(code);
        TileId::new(c.kind() as u32 * 4 + if c.is_red() { 0 } else { copy }).unwrap()
    }

    fn win(who: u8, from: u8, fu: u32, points: i32, limit: Limit, yakuman: Vec<u8>) -> Agari {
        Agari {
            who,
            from_who: from,
            pao_who: None,
            honba: 0,
            sticks: 0,
            hand: vec![],
            melds: vec![],
            win_tile: id(11, 1),
            fu,
            points,
            limit,
            yaku: if yakuman.is_empty() { vec![(1, 1), (0, 1), (7, 1)] } else { vec![] },
            yakuman,
            dora_indicators: vec![],
            ura_indicators: vec![],
            kita: vec![],
            scores_before: [25000; 4],
            deltas: [0; 4],
        }
    }

    /// Expected strings are Tenhou's own (its JSON of games in the shared corpus); the dealer is
    /// seat 0. Points that no payment split gives are refused.
    #[test]
    fn points_strings_as_tenhou_writes_them() {
        let text = |a: Agari| points_text(&a, 0, 4);
        assert_eq!(text(win(3, 3, 20, 2700, Limit::None, vec![])).unwrap(), "20符3飜700-1300点");
        assert_eq!(text(win(3, 3, 30, 1100, Limit::None, vec![])).unwrap(), "30符3飜300-500点");
        assert_eq!(text(win(0, 0, 30, 6000, Limit::None, vec![])).unwrap(), "30符3飜2000点∀");
        assert_eq!(text(win(1, 0, 30, 5200, Limit::None, vec![])).unwrap(), "30符3飜5200点");
        assert_eq!(text(win(1, 1, 0, 8000, Limit::Mangan, vec![])).unwrap(), "満貫2000-4000点");
        assert_eq!(text(win(0, 0, 0, 18000, Limit::Haneman, vec![])).unwrap(), "跳満6000点∀");
        assert_eq!(text(win(2, 1, 0, 32000, Limit::Yakuman, vec![39])).unwrap(), "役満32000点");
        assert_eq!(text(win(3, 3, 0, 64000, Limit::Yakuman, vec![51, 44])).unwrap(), "役満16000-32000点");
        // A counted yakuman (13 han of ordinary yaku) is 役満 too.
        assert_eq!(text(win(0, 0, 40, 48000, Limit::Yakuman, vec![])).unwrap(), "役満16000点∀");
        assert_eq!(text(win(3, 3, 30, 1000, Limit::None, vec![])), None, "1000 is no tsumo total");
        assert_eq!(text(win(0, 0, 30, 1000, Limit::None, vec![])), None);
        assert_eq!(text(win(1, 0, 30, 0, Limit::None, vec![])), None);
        // Three players, the two payers' shares (docs/sanma.md's tsumo table).
        let three = |a: Agari| points_text(&a, 0, 3);
        assert_eq!(three(win(1, 1, 0, 9000, Limit::Haneman, vec![])).unwrap(), "跳満3000-6000点");
        assert_eq!(three(win(0, 0, 0, 8000, Limit::Mangan, vec![])).unwrap(), "満貫4000点∀");
        assert_eq!(
            three(win(2, 2, 30, 1500, Limit::None, vec![])).unwrap(),
            "30符3飜500-1000点",
            "the helper's yaku are 3 han"
        );
        assert_eq!(three(win(2, 2, 20, 2000, Limit::None, vec![])).unwrap(), "20符3飜700-1300点");
        assert_eq!(three(win(0, 0, 30, 3900, Limit::None, vec![])), None, "3900 is no 3-player dealer tsumo");
    }

    fn call(
        kind: MeldKind,
        tiles: &[(u8, u32)],
        called: Option<(u8, u32)>,
        from: u8,
        added: Option<(u8, u32)>,
    ) -> Call {
        Call {
            kind,
            tiles: tiles.iter().map(|&(c, k)| id(c, k)).collect(),
            called: called.map(|(c, k)| id(c, k)),
            from,
            added: added.map(|(c, k)| id(c, k)),
        }
    }

    /// Call strings as they appear in Tenhou's JSON of real games: the letter before the called
    /// tile, whose place says the seat it came from; plain fives before the red one.
    #[test]
    fn call_strings_as_tenhou_writes_them() {
        let written = |c: Call| {
            let mut l = RoundLists::default();
            write_call(&mut l, 0, &c, true).unwrap();
            (l.takes[0].clone(), l.gives[0].clone())
        };
        let take = |s: &str| (vec![format!("\"{s}\"")], vec![]);
        let give = |s: &str| (vec![], vec![format!("\"{s}\"")]);
        let chi = call(MeldKind::Chi, &[(52, 0), (26, 1), (27, 1)], Some((27, 1)), 3, None);
        assert_eq!(written(chi), take("c275226"));
        let pon = call(MeldKind::Pon, &[(52, 0), (25, 1), (25, 2)], Some((25, 1)), 2, None);
        assert_eq!(written(pon), take("25p2552"));
        let pon = call(MeldKind::Pon, &[(47, 0), (47, 1), (47, 2)], Some((47, 2)), 1, None);
        assert_eq!(written(pon), take("4747p47"));
        let pon = call(MeldKind::Pon, &[(41, 0), (41, 1), (41, 2)], Some((41, 0)), 3, None);
        assert_eq!(written(pon), take("p414141"));
        let kan = call(MeldKind::Daiminkan, &[(22, 0), (22, 1), (22, 2), (22, 3)], Some((22, 1)), 1, None);
        assert_eq!(written(kan), (vec!["\"222222m22\"".into()], vec!["0".into()]));
        let kakan =
            call(MeldKind::Kakan, &[(37, 0), (37, 1), (37, 2), (37, 3)], Some((37, 0)), 3, Some((37, 3)));
        assert_eq!(written(kakan), give("k37373737"));
        let kakan =
            call(MeldKind::Kakan, &[(29, 0), (29, 1), (29, 2), (29, 3)], Some((29, 0)), 2, Some((29, 3)));
        assert_eq!(written(kakan), give("29k292929"));
        let kakan =
            call(MeldKind::Kakan, &[(39, 0), (39, 1), (39, 2), (39, 3)], Some((39, 2)), 1, Some((39, 3)));
        assert_eq!(written(kakan), give("3939k3939"));
        let ankan = call(MeldKind::Ankan, &[(53, 0), (35, 1), (35, 2), (35, 3)], None, 0, None);
        assert_eq!(written(ankan), give("353535a53"));
        let bad = call(MeldKind::Pon, &[(11, 0), (11, 1), (11, 2)], None, 3, None);
        assert!(write_call(&mut RoundLists::default(), 0, &bad, true).is_err());
    }
}
