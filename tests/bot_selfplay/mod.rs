//! The bot against self-play: the same player, asked the same questions, gives the same answers.
//! (A test harness of `tests/bot.rs`: it plays games in the engine, which the bot itself never
//! needs, so it lives here rather than in `src/bot/`.)
//!
//! [`compare`] plays a game in the engine with every decision recorded, writes it as mjai, feeds
//! each seat's stream ([`seat_stream`]) to an [`MjaiBot`] of the same player, and checks
//! two things:
//! - **the questions and answers**: the bot's player is asked exactly what the engine asked
//!   (the options by tile name, in any order) and answers the same, decision by decision. The
//!   only questions the bot alone gets are calls on a discard another seat won on: a server asks
//!   every seat at once, while the engine, knowing the win, never asks;
//! - **the lines**: each answer the bot writes is the seat's next move in the log (type, tile
//!   and consumed tiles; which of two identical copies is discarded, and so `tsumogiri`, is not
//!   a decision and is not compared), and `none` where the log shows no move of the seat, unless
//!   another seat's call or win took the tile first.

use std::sync::Mutex;

use haifu::bot::{seat_stream, MjaiBot};
use haifu::log::event::Game;
use haifu::log::mjai::tiles::tile_name;
use haifu::replay::rules::{CallOptions, TurnOptions};
use haifu::sim::bots::{Bot, CallAction, Seat, TurnAction};
use haifu::sim::engine::{play_game, GameSpec};
use haifu::tile::TileId;

/// One question to a player and its answer, by tile names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub question: String,
    pub answer: String,
}

/// A player that writes down every question and answer.
pub struct Recorder<B: Bot> {
    pub inner: B,
    pub log: Mutex<Vec<Decision>>,
}

impl<B: Bot> Recorder<B> {
    pub fn new(inner: B) -> Recorder<B> {
        Recorder { inner, log: Mutex::new(Vec::new()) }
    }

    fn push(&self, question: String, answer: String) {
        self.log.lock().unwrap_or_else(|e| e.into_inner()).push(Decision { question, answer });
    }

    pub fn take(&self) -> Vec<Decision> {
        std::mem::take(&mut *self.log.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

fn names(ids: &[TileId]) -> String {
    let mut v: Vec<&str> = ids.iter().map(|&id| tile_name(id, true)).collect();
    v.sort_unstable();
    v.join(" ")
}

fn pairs(ps: &[[TileId; 2]]) -> String {
    let mut v: Vec<String> = ps.iter().map(|p| names(p)).collect();
    v.sort();
    v.join("|")
}

fn turn_question(o: &TurnOptions) -> String {
    format!(
        "turn tsumo={} kyuushu={} ankan={:?} kakan={:?} riichi=[{}] discards=[{}]",
        o.tsumo,
        o.kyuushu,
        o.ankan,
        o.kakan,
        names(&o.riichi),
        names(&o.discards)
    )
}

fn call_question(o: &CallOptions) -> String {
    let tile = o.tile.map(|(from, t)| format!("{} from {from}", tile_name(t, true))).unwrap_or_default();
    format!("call {tile} ron={} pon=[{}] kan={} chi=[{}]", o.ron, pairs(&o.pon), o.daiminkan, pairs(&o.chi))
}

fn turn_answer(a: &TurnAction) -> String {
    match a {
        TurnAction::Discard(t) => format!("discard {}", tile_name(*t, true)),
        TurnAction::Riichi(t) => format!("riichi {}", tile_name(*t, true)),
        // mjai names tiles, not ids: a north is a north.
        TurnAction::Kita(t) => format!("kita {}", tile_name(*t, true)),
        other => format!("{other:?}"),
    }
}

fn call_answer(a: &CallAction) -> String {
    match a {
        CallAction::Pon(p) => format!("pon {}", names(p)),
        CallAction::Chi(p) => format!("chi {}", names(p)),
        other => format!("{other:?}"),
    }
}

impl<B: Bot> Bot for Recorder<B> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn turn(&self, seat: &Seat, options: &TurnOptions) -> TurnAction {
        let a = self.inner.turn(seat, options);
        self.push(turn_question(options), turn_answer(&a));
        a
    }

    fn call(&self, seat: &Seat, options: &CallOptions) -> CallAction {
        let a = self.inner.call(seat, options);
        self.push(call_question(options), call_answer(&a));
        a
    }
}

/// What one game's comparison found.
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    /// Decisions the engine asked for, over all seats.
    pub decisions: usize,
    /// Answer lines compared with the log's next move.
    pub lines: usize,
    /// Norths set aside in the game (three players).
    pub kita: usize,
    /// Differences, each naming the seat and the place (empty: the bot played as in self-play).
    pub differences: Vec<String>,
}

type MakeBot<'a> = &'a dyn Fn() -> Box<dyn Bot>;

/// Plays game `spec` with `players` (one maker per seat), then replays it seat by seat through
/// [`MjaiBot`]s of the same players. `Err` when the engine or the mjai writer fails.
pub fn compare(spec: &GameSpec, players: [MakeBot; 4]) -> Result<Comparison, String> {
    let engine_bots: Vec<Recorder<Boxed>> = players.iter().map(|m| Recorder::new(Boxed(m()))).collect();
    let refs: [&dyn Bot; 4] = std::array::from_fn(|s| &engine_bots[s] as &dyn Bot);
    let game = play_game(spec, refs).map_err(|e| e.to_string())?;
    let log = haifu::log::mjai::write::write_mjai(&game).map_err(|e| e.to_string())?;
    let kita = game.rounds.iter().flat_map(|r| &r.events);
    let mut out = Comparison {
        kita: kita.filter(|e| matches!(e, haifu::log::event::Event::Kita { .. })).count(),
        ..Comparison::default()
    };
    for seat in game.rules.seats() {
        let expected = engine_bots[seat as usize].take();
        out.decisions += expected.len();
        seat_comparison(&game, &log, seat, players[seat as usize], expected, &mut out);
    }
    Ok(out)
}

/// A boxed player as a player (a local type: the orphan rule keeps `impl Bot for Box<dyn Bot>`
/// in the library's crate, and this harness is its own).
pub struct Boxed(pub Box<dyn Bot>);

impl Bot for Boxed {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn turn(&self, seat: &Seat, options: &TurnOptions) -> TurnAction {
        self.0.turn(seat, options)
    }
    fn call(&self, seat: &Seat, options: &CallOptions) -> CallAction {
        self.0.call(seat, options)
    }
}

fn seat_comparison(
    game: &Game,
    log: &str,
    seat: u8,
    make: MakeBot,
    expected: Vec<Decision>,
    out: &mut Comparison,
) {
    let full: Vec<serde_json::Value> =
        log.lines().map(|l| serde_json::from_str(l).unwrap_or(serde_json::Value::Null)).collect();
    let stream = seat_stream(log, seat);
    let mut bot = MjaiBot::new(seat, Recorder::new(Boxed(make()))).with_length(game.rules.hanchan);
    let mut got: Vec<Decision> = Vec::new();
    for (i, line) in stream.iter().enumerate() {
        let answer = match bot.react(line) {
            Ok(a) => a,
            Err((e, _)) => {
                out.differences.push(format!("{} seat {seat} line {}: {e}", game.id, i + 1));
                return;
            }
        };
        let asked = bot.player.take();
        let (mine, theirs) = next_moves(&full, i, seat);
        // Calls on a discard another seat won on: the engine never asked them.
        let won_by_other = theirs.iter().any(|t| t == "hora");
        got.extend(asked.into_iter().filter(|d| !(won_by_other && d.question.contains("ron=false"))));
        let written: serde_json::Value = serde_json::from_str(&bot.json(&answer)).unwrap_or_default();
        let wrote = move_key(&written);
        if !offers(&full[i], seat) {
            if wrote != "none" {
                out.differences.push(format!(
                    "{} seat {seat} line {} ({line}): wrote {wrote}, no choice",
                    game.id,
                    i + 1
                ));
            }
            continue;
        }
        if mine.is_none() && !theirs.is_empty() {
            continue; // another seat's call or win took the tile first
        }
        out.lines += 1;
        let mine = mine.unwrap_or_else(|| "none".into());
        if wrote != mine {
            out.differences.push(format!(
                "{} seat {seat} line {} ({line}): wrote {wrote}, log has {mine}",
                game.id,
                i + 1
            ));
        }
    }
    if got != expected {
        let at = got.iter().zip(&expected).position(|(a, b)| a != b).unwrap_or(got.len().min(expected.len()));
        out.differences.push(format!(
            "{} seat {seat}: decision {at} of {} (engine) / {} (bot): engine {:?}, bot {:?}",
            game.id,
            expected.len(),
            got.len(),
            expected.get(at),
            got.get(at)
        ));
    }
}

/// Whether a line of the full log gives `seat` a choice: its own draw, riichi declaration, chi
/// or pon; another seat's discard, added kan or north set aside (a ron on it).
fn offers(v: &serde_json::Value, seat: u8) -> bool {
    let own = v["actor"].as_u64() == Some(u64::from(seat));
    match v["type"].as_str().unwrap_or("") {
        "tsumo" | "reach" | "chi" | "pon" => own,
        "dahai" | "kakan" | "kita" => !own && v["actor"].is_u64(),
        _ => false,
    }
}

/// A move as `type pai consumed…` (sorted), for comparing a written answer with the log.
fn move_key(v: &serde_json::Value) -> String {
    let kind = v["type"].as_str().unwrap_or("?");
    if kind == "none" {
        return "none".into();
    }
    if kind == "ryukyoku" {
        return "ryukyoku".into();
    }
    if kind == "hora" {
        // Logs name the winner and the seat that paid, not the tile.
        return format!("hora from {}", v["target"]);
    }
    let mut consumed: Vec<&str> =
        v["consumed"].as_array().map(|a| a.iter().filter_map(|x| x.as_str()).collect()).unwrap_or_default();
    consumed.sort_unstable();
    format!("{kind} {} {}", v["pai"].as_str().unwrap_or(""), consumed.join(" ")).trim_end().to_string()
}

/// After line `i` of the full log, up to the next draw or discard: the seat's own move, and the
/// moves (types) of the other seats.
fn next_moves(full: &[serde_json::Value], i: usize, seat: u8) -> (Option<String>, Vec<String>) {
    const MOVES: [&str; 11] =
        ["dahai", "reach", "chi", "pon", "daiminkan", "kakan", "ankan", "kita", "hora", "ryukyoku", "tsumo"];
    let mut mine = None;
    let mut theirs = Vec::new();
    for v in &full[i + 1..] {
        let kind = v["type"].as_str().unwrap_or("");
        if matches!(kind, "end_kyoku" | "start_kyoku" | "end_game") {
            break;
        }
        if !MOVES.contains(&kind) {
            continue;
        }
        let actor = v["actor"].as_u64();
        if kind == "ryukyoku" && actor.is_none() {
            // Nine terminals right after the seat's draw is its move; any other draw the table's.
            let own_draw = full[i]["type"] == "tsumo" && full[i]["actor"].as_u64() == Some(u64::from(seat));
            if own_draw {
                mine = Some("ryukyoku".to_string());
            }
            break;
        }
        if actor == Some(u64::from(seat)) && kind != "tsumo" {
            mine = Some(move_key(v));
            break;
        }
        if matches!(kind, "dahai" | "tsumo") {
            break;
        }
        theirs.push(kind.to_string());
    }
    (mine, theirs)
}
