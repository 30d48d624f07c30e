//! A referee for a bot's answers on a recorded game (a test harness of `tests/bot.rs`).
//!
//! The bot follows one seat's stream on a table of its own with stand-ins for the hidden hands;
//! the referee judges each of its answers on the replay's table of the whole record, every hand
//! known ([`tables`]), and keeps that seat's furiten from the record itself ([`Referee`]). So an
//! answer the bot's own table allows but the real table does not (a tile the seat does not hold,
//! a call its true hand cannot make, a ron in furiten) is caught. The rules it judges by are the
//! replay's ([`haifu::replay::rules`]), the one home of what is legal that the recorder, the engine
//! and `haifu check` share.
//!
//! The stream is fed one event a line, as `haifu bot` reads a log; on each line the seat either
//! has a move to make (its draw, its riichi declaration, its chi or pon: an answer is required),
//! may answer the tile another seat offers (a discard, an added kan, a north set aside: a pass is
//! always legal), or has nothing to do (the answer must be `none`).

use haifu::log::event::{Event, Game};
use haifu::log::mjai::tiles::{parse_tile, tile_name};
use haifu::replay::rules::{call_options, discards, has_win, turn_options, wait_kinds};
use haifu::replay::table::{RiichiState, Table};
use haifu::replay::{replay_game, NoWinCheck, Observer};
use haifu::tile::{TileId, NORTH};
use serde_json::Value;

/// The full table before and after each line's event (`None` for the lines outside a round:
/// `start_game`, `start_kyoku`, `end_kyoku`, `end_game`).
pub type LineTables = Vec<Option<(Table, Table)>>;

#[derive(Default)]
struct Collect {
    rounds: Vec<Vec<(Table, Table, &'static str)>>,
    before: Option<Table>,
}

fn mjai_types(e: &Event) -> &'static str {
    match e {
        Event::Draw { .. } => "tsumo",
        Event::Discard { .. } => "dahai",
        Event::Call { .. } => "call",
        Event::Riichi { step: 1, .. } => "reach",
        Event::Riichi { .. } => "reach_accepted",
        Event::Kita { .. } => "kita",
        Event::NewDora { .. } => "dora",
        Event::Agari(_) => "hora",
        Event::Ryuukyoku(_) => "ryukyoku",
        Event::Disconnect { .. } | Event::Reconnect { .. } => "connection",
    }
}

impl Observer for Collect {
    fn before_event(&mut self, table: &Table, index: usize, _: &Event) {
        if index == 0 {
            self.rounds.push(Vec::new());
        }
        self.before = Some(table.clone());
    }

    fn after_event(&mut self, table: &Table, _: usize, event: &Event) {
        let before = self.before.take().expect("before_event came first");
        if let Some(r) = self.rounds.last_mut() {
            r.push((before, table.clone(), mjai_types(event)));
        }
    }
}

/// The tables of every line of `text`, the mjai form of `game` (read back from that text, so its
/// events are the lines one for one; checked by type).
pub fn tables(game: &Game, text: &str) -> Result<LineTables, String> {
    let mut c = Collect::default();
    replay_game(game, &mut c, &mut NoWinCheck).map_err(|e| format!("replay: {e}"))?;
    let mut out = Vec::new();
    let mut round: Option<std::vec::IntoIter<(Table, Table, &'static str)>> = None;
    let mut rounds = c.rounds.into_iter();
    for (i, line) in text.lines().enumerate() {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        let kind = v["type"].as_str().unwrap_or("");
        match kind {
            "start_game" | "end_game" => out.push(None),
            "start_kyoku" => {
                round = Some(rounds.next().ok_or("more rounds in the text than replayed")?.into_iter());
                out.push(None);
            }
            "end_kyoku" => {
                if round.take().is_some_and(|mut r| r.next().is_some()) {
                    return Err(format!("line {}: the round has events the text does not", i + 1));
                }
                out.push(None);
            }
            _ => {
                let (before, after, want) = round
                    .as_mut()
                    .and_then(|r| r.next())
                    .ok_or_else(|| format!("line {}: {kind} outside the replayed round", i + 1))?;
                let same = want == kind
                    || (want == "call" && ["chi", "pon", "daiminkan", "kakan", "ankan"].contains(&kind));
                if !same {
                    return Err(format!("line {}: {kind} where the replay has {want}", i + 1));
                }
                out.push(Some((before, after)));
            }
        }
    }
    Ok(out)
}

/// What one line was for the seat, once judged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Judged {
    /// The seat had a choice: its own move, or a tile it could ron or call.
    pub decision: bool,
    /// Why the answer was not legal.
    pub illegal: Option<String>,
}

/// One seat's judge over a game: its furiten as the record makes it.
pub struct Referee {
    pub seat: u8,
    temp_furiten: bool,
    riichi_furiten: bool,
}

fn names(ids: &[TileId], red: bool) -> Vec<&'static str> {
    ids.iter().map(|&id| tile_name(id, red)).collect()
}

fn kind_of(name: &str) -> Option<usize> {
    parse_tile(name).ok().map(|(k, _)| k)
}

fn s(v: &Value, key: &str) -> String {
    v[key].as_str().unwrap_or("").to_string()
}

fn consumed(v: &Value) -> Vec<String> {
    v["consumed"]
        .as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect())
        .unwrap_or_default()
}

fn same_multiset(mut a: Vec<String>, mut b: Vec<String>) -> bool {
    a.sort();
    b.sort();
    a == b
}

impl Referee {
    pub fn new(seat: u8) -> Referee {
        Referee { seat, temp_furiten: false, riichi_furiten: false }
    }

    /// Judges `answer` to `line`, whose event turned the full table `before` into `after`, and
    /// then lets the line's tile pass (furiten).
    pub fn judge(&mut self, line: &Value, tables: Option<&(Table, Table)>, answer: &Value) -> Judged {
        let kind = answer["type"].as_str().unwrap_or("?");
        let Some((before, after)) = tables else {
            if line["type"] == "start_kyoku" {
                self.temp_furiten = false;
                self.riichi_furiten = false;
            }
            return self.quiet(kind);
        };
        if answer.get("actor").is_some_and(|a| a.as_u64() != Some(u64::from(self.seat))) {
            return Judged { decision: true, illegal: Some(format!("actor is not seat {}", self.seat)) };
        }
        let me = self.seat;
        let actor = line["actor"].as_u64().map(|a| a as u8);
        let red = after.rules.red_fives();
        let judged = match (line["type"].as_str().unwrap_or(""), actor) {
            ("tsumo", Some(a)) if a == me => {
                Judged { decision: true, illegal: self.own_draw(before, after, answer) }
            }
            ("reach", Some(a)) if a == me => {
                let allowed = discards(after, me, after.last_draw[me as usize]);
                Judged { decision: true, illegal: dahai_among(answer, &names(&allowed, red)) }
            }
            ("chi" | "pon", Some(a)) if a == me => {
                let o = turn_options(after, me, None, false);
                Judged { decision: true, illegal: dahai_among(answer, &names(&o.discards, red)) }
            }
            ("dahai", Some(a)) if a == me => {
                self.temp_furiten = false;
                self.quiet(kind)
            }
            ("dahai", Some(a)) => {
                let tile = after.last_discard.map(|(_, t)| t);
                self.offered(after, a, tile, false, answer)
            }
            ("kakan", Some(a)) if a != me => {
                let tile = after.last_kakan.map(|(_, t)| t);
                self.offered(after, a, tile, true, answer)
            }
            ("kita", Some(a)) if a != me => {
                let tile = after.last_kita.map(|(_, t)| t);
                self.offered(after, a, tile, true, answer)
            }
            _ => self.quiet(kind),
        };
        judged
    }

    fn quiet(&self, kind: &str) -> Judged {
        Judged {
            decision: false,
            illegal: (kind != "none").then(|| format!("{kind} where the seat has no choice")),
        }
    }

    fn furiten(&self, t: &Table) -> bool {
        let w = self.seat as usize;
        let river = t.rivers[w].iter().fold(0u64, |b, x| b | 1 << x.tile.kind());
        self.temp_furiten || self.riichi_furiten || wait_kinds(t, self.seat) & river != 0
    }

    /// Its own draw: any move the turn allows, and never a pass.
    fn own_draw(&self, before: &Table, after: &Table, answer: &Value) -> Option<String> {
        let me = self.seat;
        let red = after.rules.red_fives();
        let drawn = after.last_draw[me as usize]?;
        let o = turn_options(after, me, Some(drawn), !before.rinshan[me as usize]);
        let drawn_name = tile_name(drawn, red);
        let pai = s(answer, "pai");
        let bad = |why: &str| Some(format!("{why} (options {o:?})"));
        match answer["type"].as_str().unwrap_or("") {
            "dahai" => {
                if answer["tsumogiri"] == true && pai != drawn_name {
                    return bad("tsumogiri of a tile not drawn");
                }
                dahai_among(answer, &names(&o.discards, red))
            }
            "reach" if o.riichi.is_empty() => bad("riichi not allowed"),
            "hora" if !o.tsumo => bad("no tsumo win"),
            "hora" if answer["target"].as_u64() != Some(u64::from(me)) || pai != drawn_name => {
                bad("tsumo with a wrong target or tile")
            }
            "ryukyoku" if !o.kyuushu => bad("nine terminals not offered"),
            "kita" if o.kita.is_none() || kind_of(&pai) != Some(NORTH) => bad("no north to set aside"),
            "ankan" => {
                let c = consumed(answer);
                let k = c.first().and_then(|n| kind_of(n));
                match k {
                    Some(k)
                        if c.len() == 4
                            && c.iter().all(|n| kind_of(n) == Some(k))
                            && o.ankan.contains(&k) =>
                    {
                        None
                    }
                    _ => bad("closed kan not allowed"),
                }
            }
            "kakan" if !kind_of(&pai).is_some_and(|k| o.kakan.contains(&k)) => bad("added kan not allowed"),
            "reach" | "hora" | "ryukyoku" | "kita" | "kakan" => None,
            other => bad(&format!("{other} on its own draw")),
        }
    }

    /// A tile another seat offers: a pass, a legal ron, or (on a discard) a legal call.
    fn offered(
        &mut self,
        after: &Table,
        from: u8,
        tile: Option<TileId>,
        ron_only: bool,
        answer: &Value,
    ) -> Judged {
        let me = self.seat;
        let Some(tile) = tile else {
            return Judged { decision: false, illegal: Some("the line offers no tile".into()) };
        };
        let red = after.rules.red_fives();
        let waits = wait_kinds(after, me);
        let winning = waits & (1 << tile.kind()) != 0;
        let ron = winning && !self.furiten(after) && has_win(after, me, from, tile);
        let calls = if ron_only { Default::default() } else { call_options(after, me, from, tile) };
        let decision = ron || calls.any();
        let pai = s(answer, "pai");
        let target_ok = answer["target"].as_u64() == Some(u64::from(from));
        let illegal = match answer["type"].as_str().unwrap_or("") {
            "none" => None,
            "hora" if ron && target_ok && pai == tile_name(tile, red) => None,
            "hora" => Some(format!(
                "ron not allowed (furiten {}, wins {})",
                self.furiten(after),
                has_win(after, me, from, tile)
            )),
            "chi" if after.rules.players == 3 => Some("chi at three players".into()),
            k @ ("pon" | "chi") => {
                let pairs = if k == "pon" { &calls.pon } else { &calls.chi };
                let ok = target_ok
                    && pai == tile_name(tile, red)
                    && pairs.iter().any(|p| {
                        same_multiset(names(p, red).into_iter().map(String::from).collect(), consumed(answer))
                    });
                (!ok).then(|| format!("{k} not allowed (options {calls:?})"))
            }
            "daiminkan" if calls.daiminkan && target_ok && consumed(answer).len() == 3 => None,
            other => Some(format!("{other} on another seat's tile (options {calls:?}, ron {ron})")),
        };
        // The tile passes: a seat that waits on it and did not win on it is furiten.
        if winning {
            self.temp_furiten = true;
            if matches!(after.riichi[me as usize], RiichiState::Accepted { .. }) {
                self.riichi_furiten = true;
            }
        }
        Judged { decision, illegal }
    }
}

fn dahai_among(answer: &Value, allowed: &[&str]) -> Option<String> {
    let pai = s(answer, "pai");
    match answer["type"].as_str() {
        Some("dahai") if allowed.contains(&pai.as_str()) => None,
        Some("dahai") => Some(format!("discard {pai} not among {allowed:?}")),
        other => Some(format!("{} where a discard is due", other.unwrap_or("?"))),
    }
}
