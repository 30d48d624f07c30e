//! Writes a [`Game`] as Tenhou mjlog XML (`<mjloggm ver="2.3">`), the format `log::mjlog` reads,
//! so that simulated games go through the same reader, replay and re-scoring as real records.
//!
//! Calls are packed into Tenhou's `m` bits exactly as [`crate::log::mjlog::decode_meld`] documents them;
//! [`encode_meld`] is its inverse (tested both ways). Scores are written in hundreds, as Tenhou
//! does; every score the engine produces is a multiple of 100.

use std::fmt::Write as _;

use crate::hand::meld::MeldKind;
use crate::log::event::{Agari, Call, DrawKind, Event, Game, RoundDraw};
use crate::score::Limit;
use crate::tile::TileId;

/// Why a call cannot be packed into `m` bits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    #[error("{kind:?} call with tiles {tiles:?}: {reason}")]
    BadCall { kind: MeldKind, tiles: Vec<u8>, reason: &'static str },
}

fn bad(call: &Call, reason: &'static str) -> EncodeError {
    EncodeError::BadCall { kind: call.kind, tiles: call.tiles.iter().map(|t| t.get()).collect(), reason }
}

/// Packs a call into Tenhou's `m` attribute (the inverse of [`crate::log::mjlog::decode_meld`]).
pub fn encode_meld(call: &Call) -> Result<u32, EncodeError> {
    let from = u32::from(call.from);
    match call.kind {
        MeldKind::Chi => {
            let mut tiles = call.tiles.clone();
            tiles.sort_by_key(|t| t.kind());
            let (k0, k1, k2) =
                (tiles[0].kind(), tiles.get(1).map(|t| t.kind()), tiles.get(2).map(|t| t.kind()));
            if tiles.len() != 3 || k0 >= 27 || k0 % 9 > 6 || k1 != Some(k0 + 1) || k2 != Some(k0 + 2) {
                return Err(bad(call, "not a run"));
            }
            if !(1..=3).contains(&from) {
                return Err(bad(call, "no seat to call from"));
            }
            let called = call.called.ok_or_else(|| bad(call, "no called tile"))?;
            let idx = tiles
                .iter()
                .position(|&t| t == called)
                .ok_or_else(|| bad(call, "called tile not in meld"))?;
            let base = (k0 / 9 * 7 + k0 % 9) as u32;
            let t = 3 * base + idx as u32;
            let copy = |i: usize| u32::from(tiles[i].get() % 4);
            Ok(t << 10 | copy(2) << 7 | copy(1) << 5 | copy(0) << 3 | 0x4 | from)
        }
        MeldKind::Pon | MeldKind::Kakan => {
            let kind = call.tiles[0].kind();
            if call.tiles.iter().any(|t| t.kind() != kind) || kind >= 34 {
                return Err(bad(call, "tiles of different kinds"));
            }
            if !(1..=3).contains(&from) {
                return Err(bad(call, "no seat to call from"));
            }
            let mut pon: Vec<TileId> =
                call.tiles.iter().copied().filter(|&t| Some(t) != call.added).collect();
            pon.sort_unstable();
            if pon.len() != 3 || (call.kind == MeldKind::Kakan) != call.added.is_some() {
                return Err(bad(call, "not three tiles plus the added one"));
            }
            let unused = (0..4u32)
                .find(|&c| !pon.iter().any(|t| u32::from(t.get() % 4) == c))
                .ok_or_else(|| bad(call, "repeated tile"))?;
            let called = call.called.ok_or_else(|| bad(call, "no called tile"))?;
            let idx =
                pon.iter().position(|&t| t == called).ok_or_else(|| bad(call, "called tile not in pon"))?;
            let t = 3 * kind as u32 + idx as u32;
            let flag = if call.kind == MeldKind::Pon { 0x8 } else { 0x10 };
            Ok(t << 9 | unused << 5 | flag | from)
        }
        MeldKind::Daiminkan => {
            let called = call.called.ok_or_else(|| bad(call, "no called tile"))?;
            if !(1..=3).contains(&from) {
                return Err(bad(call, "no seat to call from"));
            }
            Ok(u32::from(called.get()) << 8 | from)
        }
        MeldKind::Ankan => {
            let first = call.tiles.iter().min().ok_or_else(|| bad(call, "no tiles"))?;
            Ok(u32::from(first.get() / 4 * 4) << 8)
        }
    }
}

/// Writes a whole game. `shuffle` goes into the `SHUFFLE seed` attribute (Tenhou's wall seed;
/// ours names the simulator's seed instead). Errors only on a call that cannot be encoded.
pub fn write_mjlog(game: &Game, shuffle: &str) -> Result<String, EncodeError> {
    let mut out = String::with_capacity(16 * 1024);
    out.push_str("<mjloggm ver=\"2.3\">");
    let _ = write!(out, "<SHUFFLE seed=\"{}\" ref=\"\"/>", xml_escape(shuffle));
    let lobby = game.rules.lobby.unwrap_or(0);
    let _ = write!(out, "<GO type=\"{}\" lobby=\"{lobby}\"/>", game.rules.tenhou_go_type());
    out.push_str("<UN");
    for (i, p) in game.players.iter().enumerate() {
        let name = percent_encoding::utf8_percent_encode(&p.name, percent_encoding::NON_ALPHANUMERIC);
        let _ = write!(out, " n{i}=\"{name}\"");
    }
    let dan: Vec<String> = game.players.iter().map(|p| p.dan.unwrap_or(0).to_string()).collect();
    let rate: Vec<String> = game.players.iter().map(|p| format!("{:.2}", p.rate.unwrap_or(1500.0))).collect();
    let sx: Vec<&str> = game.players.iter().map(|p| p.sex.as_deref().unwrap_or("C")).collect();
    let _ = write!(out, " dan=\"{}\" rate=\"{}\" sx=\"{}\"/>", dan.join(","), rate.join(","), sx.join(","));
    out.push_str("<TAIKYOKU oya=\"0\"/>");
    let last_round = game.rounds.len().saturating_sub(1);
    for (ri, round) in game.rounds.iter().enumerate() {
        let s = &round.start;
        let _ = write!(
            out,
            "<INIT seed=\"{},{},{},{},{},{}\" ten=\"{}\" oya=\"{}\"",
            s.round,
            s.honba,
            s.sticks,
            s.dice[0],
            s.dice[1],
            s.dora_indicator.get(),
            hundreds(&s.scores),
            s.dealer
        );
        for (i, h) in s.hands.iter().enumerate() {
            let _ = write!(out, " hai{i}=\"{}\"", ids(h));
        }
        out.push_str("/>");
        // owari goes on the game's last result tag.
        let last_result =
            round.events.iter().rposition(|e| matches!(e, Event::Agari(_) | Event::Ryuukyoku(_)));
        for (ei, ev) in round.events.iter().enumerate() {
            let owari = if ri == last_round && Some(ei) == last_result { owari(game) } else { None };
            write_event(&mut out, ev, owari.as_deref())?;
        }
    }
    out.push_str("</mjloggm>");
    Ok(out)
}

fn write_event(out: &mut String, ev: &Event, owari: Option<&str>) -> Result<(), EncodeError> {
    match ev {
        Event::Draw { who, tile } => {
            let _ = write!(out, "<{}{}/>", b"TUVW"[*who as usize % 4] as char, tile.get());
        }
        Event::Discard { who, tile } => {
            let _ = write!(out, "<{}{}/>", b"DEFG"[*who as usize % 4] as char, tile.get());
        }
        Event::Call { who, call } => {
            let _ = write!(out, "<N who=\"{who}\" m=\"{}\" />", encode_meld(call)?);
        }
        Event::Riichi { who, step, scores } => {
            let _ = write!(out, "<REACH who=\"{who}\"");
            if let Some(s) = scores {
                let _ = write!(out, " ten=\"{}\"", hundreds(s));
            }
            let _ = write!(out, " step=\"{step}\"/>");
        }
        Event::Kita { who, tile } => {
            let _ = write!(out, "<N who=\"{who}\" m=\"{}\" />", super::encode_kita(*tile));
        }
        Event::NewDora { indicator } => {
            let _ = write!(out, "<DORA hai=\"{}\" />", indicator.get());
        }
        Event::Agari(a) => write_agari(out, a, owari)?,
        Event::Ryuukyoku(d) => write_draw(out, d, owari),
        Event::Disconnect { who } => {
            let _ = write!(out, "<BYE who=\"{who}\" />");
        }
        Event::Reconnect { who } => {
            let _ = write!(out, "<UN n{who}=\"\" />");
        }
    }
    Ok(())
}

fn write_agari(out: &mut String, a: &Agari, owari: Option<&str>) -> Result<(), EncodeError> {
    let mut hand = a.hand.clone();
    hand.sort_unstable();
    let _ = write!(out, "<AGARI ba=\"{},{}\" hai=\"{}\"", a.honba, a.sticks, ids(&hand));
    if !a.melds.is_empty() || !a.kita.is_empty() {
        let mut m = a.melds.iter().map(encode_meld).collect::<Result<Vec<u32>, _>>()?;
        m.extend(a.kita.iter().map(|&t| super::encode_kita(t)));
        let m: Vec<String> = m.iter().map(u32::to_string).collect();
        let _ = write!(out, " m=\"{}\"", m.join(","));
    }
    let _ =
        write!(out, " machi=\"{}\" ten=\"{},{},{}\"", a.win_tile.get(), a.fu, a.points, limit_code(a.limit));
    if !a.yaku.is_empty() {
        let y: Vec<String> = a.yaku.iter().map(|(id, han)| format!("{id},{han}")).collect();
        let _ = write!(out, " yaku=\"{}\"", y.join(","));
    }
    if !a.yakuman.is_empty() {
        let y: Vec<String> = a.yakuman.iter().map(u8::to_string).collect();
        let _ = write!(out, " yakuman=\"{}\"", y.join(","));
    }
    let _ = write!(out, " doraHai=\"{}\"", ids(&a.dora_indicators));
    if !a.ura_indicators.is_empty() {
        let _ = write!(out, " doraHaiUra=\"{}\"", ids(&a.ura_indicators));
    }
    let _ = write!(out, " who=\"{}\" fromWho=\"{}\"", a.who, a.from_who);
    if let Some(p) = a.pao_who {
        let _ = write!(out, " paoWho=\"{p}\"");
    }
    let _ = write!(out, " sc=\"{}\"", score_pairs(&a.scores_before, &a.deltas));
    if let Some(o) = owari {
        let _ = write!(out, " owari=\"{o}\"");
    }
    out.push_str(" />");
    Ok(())
}

fn write_draw(out: &mut String, d: &RoundDraw, owari: Option<&str>) {
    out.push_str("<RYUUKYOKU");
    if let Some(t) = draw_type(d.kind) {
        let _ = write!(out, " type=\"{t}\"");
    }
    let _ =
        write!(out, " ba=\"{},{}\" sc=\"{}\"", d.honba, d.sticks, score_pairs(&d.scores_before, &d.deltas));
    for (i, h) in d.shown.iter().enumerate() {
        if let Some(h) = h {
            let mut h = h.clone();
            h.sort_unstable();
            let _ = write!(out, " hai{i}=\"{}\"", ids(&h));
        }
    }
    if let Some(o) = owari {
        let _ = write!(out, " owari=\"{o}\"");
    }
    out.push_str(" />");
}

/// Tenhou's `type` attribute of a draw (none for an exhaustive draw).
fn draw_type(kind: DrawKind) -> Option<&'static str> {
    match kind {
        DrawKind::Exhaustive | DrawKind::Aborted => None,
        DrawKind::Yao9 => Some("yao9"),
        DrawKind::Reach4 => Some("reach4"),
        DrawKind::Ron3 => Some("ron3"),
        DrawKind::Kan4 => Some("kan4"),
        DrawKind::Kaze4 => Some("kaze4"),
        DrawKind::Nagashi => Some("nm"),
    }
}

fn limit_code(l: Limit) -> u32 {
    match l {
        Limit::None => 0,
        Limit::Mangan => 1,
        Limit::Haneman => 2,
        Limit::Baiman => 3,
        Limit::Sanbaiman => 4,
        Limit::Yakuman => 5,
    }
}

fn ids(tiles: &[TileId]) -> String {
    let v: Vec<String> = tiles.iter().map(|t| t.get().to_string()).collect();
    v.join(",")
}

fn hundreds(scores: &[i32; 4]) -> String {
    let v: Vec<String> = scores.iter().map(|s| (s / 100).to_string()).collect();
    v.join(",")
}

fn score_pairs(before: &[i32; 4], deltas: &[i32; 4]) -> String {
    let v: Vec<String> = (0..4).map(|i| format!("{},{}", before[i] / 100, deltas[i] / 100)).collect();
    v.join(",")
}

/// `owari="s0,r0,..."` from the game's final scores and results.
fn owari(game: &Game) -> Option<String> {
    let (s, r) = (game.final_scores?, game.final_results?);
    let v: Vec<String> = (0..4).map(|i| format!("{},{:.1}", s[i] / 100, r[i])).collect();
    Some(v.join(","))
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::mjlog::decode_meld;

    /// Every `m` value that decodes to a call encodes back to itself, except the bits the
    /// decoder ignores (the copy of a closed kan's named tile, the unused bit 9 of chi).
    #[test]
    fn encode_inverts_decode_on_every_valid_m() {
        let mut checked = 0;
        for m in 0..=0xFFFFu32 {
            let Ok(call) = decode_meld(m) else { continue };
            let enc = encode_meld(&call).unwrap_or_else(|e| panic!("m={m}: {e}"));
            assert_eq!(decode_meld(enc), Ok(call.clone()), "m={m} -> {enc}");
            // Bits the decoder ignores: chi bit 9; pon/kakan bits 7-8 (and bit 4 when bit 3, pon,
            // is set); kan bits 6-7; and which copy an ankan names.
            let canonical = match call.kind {
                MeldKind::Chi => m & !0x200,
                MeldKind::Pon => m & !0x190,
                MeldKind::Kakan => m & !0x180,
                MeldKind::Daiminkan => m & !0xC0,
                MeldKind::Ankan => ((m >> 8) / 4 * 4) << 8,
            };
            assert_eq!(enc, canonical, "m={m}");
            checked += 1;
        }
        assert!(checked > 20_000, "{checked}");
    }

    #[test]
    fn real_tags_encode_to_their_m() {
        // From 2010081709gm-00a9-0000-fe3371ad.mjlog (see log::mjlog tests for their meaning).
        for m in [6367u32, 46185, 45067, 5169] {
            assert_eq!(encode_meld(&decode_meld(m).unwrap()), Ok(m));
        }
    }
}
