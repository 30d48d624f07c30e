//! Typed events into mjai JSON lines, the layout Mortal trains on and RiichiEnv replays.
//!
//! Fields come in the order Mortal's `libriichi` serialises them (`type` first), one event a
//! line, so a file written here and read back writes the same bytes again. Disconnections have
//! no mjai event and are left out; a game the server stopped mid-round (an aborted draw) has no
//! mjai result and is refused, as is a win with no score changes.
//!
//! A 3-player game is written in RiichiEnv 0.4.11's layout (`riichienv-core/src/replay/
//! mjai_replay.rs` reads the seat count from `scores`): three names, three `tehais`, three-entry
//! `scores` and `deltas`, and a north set aside as `{"type":"kita","actor":N,"pai":"N"}` followed
//! by the replacement `tsumo`.

use std::fmt::Write as _;

use super::error::MjaiError;
use super::tiles::tile_name;
use crate::hand::meld::MeldKind;
use crate::log::event::*;
use crate::tile::TileId;

/// One game as mjai lines, each ending in `\n`.
pub fn write_mjai(game: &Game) -> Result<String, MjaiError> {
    let red = game.rules.red_fives();
    let seats = usize::from(game.rules.players);
    let mut out = String::with_capacity(32 * 1024);
    let names: Vec<String> = game.players[..seats].iter().map(|p| json_string(&p.name)).collect();
    let _ = writeln!(out, "{{\"type\":\"start_game\",\"names\":[{}]}}", names.join(","));
    for (i, round) in game.rounds.iter().enumerate() {
        write_round(&mut out, round, red, seats)
            .map_err(|e| MjaiError::InRound { round: i, error: Box::new(e) })?;
    }
    out.push_str("{\"type\":\"end_game\"}\n");
    Ok(out)
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

fn tiles(ids: &[TileId], red: bool) -> String {
    let names: Vec<String> = ids.iter().map(|&id| format!("\"{}\"", tile_name(id, red))).collect();
    format!("[{}]", names.join(","))
}

/// The first `seats` entries of a per-seat list.
fn ints(v: &[i32; 4], seats: usize) -> String {
    let v: Vec<String> = v[..seats].iter().map(i32::to_string).collect();
    format!("[{}]", v.join(","))
}

fn write_round(out: &mut String, round: &Round, red: bool, seats: usize) -> Result<(), MjaiError> {
    let s = &round.start;
    let wind = ["E", "S", "W", "N"].get(usize::from(s.round / 4)).ok_or(MjaiError::RoundPastNorth)?;
    let hands: Vec<String> = s.hands[..seats].iter().map(|h| tiles(h, red)).collect();
    let _ = writeln!(
        out,
        "{{\"type\":\"start_kyoku\",\"bakaze\":\"{wind}\",\"dora_marker\":\"{}\",\"kyoku\":{},\"honba\":{},\
         \"kyotaku\":{},\"oya\":{},\"scores\":{},\"tehais\":[{}]}}",
        tile_name(s.dora_indicator, red),
        s.round % 4 + 1,
        s.honba,
        s.sticks,
        s.dealer,
        ints(&s.scores, seats),
        hands.join(",")
    );
    let mut last_draw: [Option<TileId>; 4] = [None; 4];
    for event in &round.events {
        write_event(out, event, (red, seats), &mut last_draw)?;
    }
    out.push_str("{\"type\":\"end_kyoku\"}\n");
    Ok(())
}

/// One event's line; `(red, seats)`: red fives, and the seats the per-seat lists have.
fn write_event(
    out: &mut String,
    event: &Event,
    (red, seats): (bool, usize),
    last_draw: &mut [Option<TileId>; 4],
) -> Result<(), MjaiError> {
    let t = |id: TileId| tile_name(id, red);
    match event {
        Event::Draw { who, tile } => {
            last_draw[*who as usize] = Some(*tile);
            let _ = writeln!(out, "{{\"type\":\"tsumo\",\"actor\":{who},\"pai\":\"{}\"}}", t(*tile));
        }
        Event::Discard { who, tile } => {
            let tsumogiri = last_draw[*who as usize].take() == Some(*tile);
            let _ = writeln!(
                out,
                "{{\"type\":\"dahai\",\"actor\":{who},\"pai\":\"{}\",\"tsumogiri\":{tsumogiri}}}",
                t(*tile)
            );
        }
        Event::Call { who, call } => {
            last_draw[*who as usize] = None;
            write_call(out, *who, call, red)?;
        }
        Event::Riichi { who, step: 1, .. } => {
            let _ = writeln!(out, "{{\"type\":\"reach\",\"actor\":{who}}}");
        }
        Event::Riichi { who, .. } => {
            let _ = writeln!(out, "{{\"type\":\"reach_accepted\",\"actor\":{who}}}");
        }
        Event::Kita { who, tile } => {
            last_draw[*who as usize] = None;
            let _ = writeln!(out, "{{\"type\":\"kita\",\"actor\":{who},\"pai\":\"{}\"}}", t(*tile));
        }
        Event::NewDora { indicator } => {
            let _ = writeln!(out, "{{\"type\":\"dora\",\"dora_marker\":\"{}\"}}", t(*indicator));
        }
        Event::Agari(a) => {
            let ura = if a.ura_indicators.is_empty() {
                String::new()
            } else {
                format!(",\"ura_markers\":{}", tiles(&a.ura_indicators, red))
            };
            let _ = writeln!(
                out,
                "{{\"type\":\"hora\",\"actor\":{},\"target\":{},\"deltas\":{}{ura}}}",
                a.who,
                a.from_who,
                ints(&a.deltas, seats)
            );
        }
        Event::Ryuukyoku(d) => {
            if d.kind == DrawKind::Aborted {
                return Err(MjaiError::StoppedMidRound);
            }
            let _ = writeln!(out, "{{\"type\":\"ryukyoku\",\"deltas\":{}}}", ints(&d.deltas, seats));
        }
        Event::Disconnect { .. } | Event::Reconnect { .. } => {}
    }
    Ok(())
}

fn write_call(out: &mut String, who: u8, call: &Call, red: bool) -> Result<(), MjaiError> {
    let without = |skip: Option<TileId>| -> Vec<TileId> {
        let mut v = call.tiles.clone();
        if let Some(p) = skip.and_then(|s| v.iter().position(|&x| x == s)) {
            v.remove(p);
        }
        v
    };
    let target = (who + call.from) % 4;
    let name = match call.kind {
        MeldKind::Chi => "chi",
        MeldKind::Pon => "pon",
        MeldKind::Daiminkan => "daiminkan",
        MeldKind::Kakan => {
            let added = call.added.ok_or(MjaiError::KakanWithoutTile)?;
            let _ = writeln!(
                out,
                "{{\"type\":\"kakan\",\"actor\":{who},\"pai\":\"{}\",\"consumed\":{}}}",
                tile_name(added, red),
                tiles(&without(Some(added)), red)
            );
            return Ok(());
        }
        MeldKind::Ankan => {
            let _ = writeln!(
                out,
                "{{\"type\":\"ankan\",\"actor\":{who},\"consumed\":{}}}",
                tiles(&call.tiles, red)
            );
            return Ok(());
        }
    };
    let called = call.called.ok_or(MjaiError::CallWithoutTile)?;
    let _ = writeln!(
        out,
        "{{\"type\":\"{name}\",\"actor\":{who},\"target\":{target},\"pai\":\"{}\",\"consumed\":{}}}",
        tile_name(called, red),
        tiles(&without(Some(called)), red)
    );
    Ok(())
}
