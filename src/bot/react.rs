//! [`MjaiBot`]: one seat of a table that speaks mjai, played by one of haifu's players.
//!
//! It follows the stream on a [`HiddenTable`] and, where an event gives the seat a choice, asks
//! the player exactly what the self-play engine asks it, through the rule functions both use
//! ([`crate::replay::rules`]): the same [`TurnOptions`] ([`turn_options`]) and [`CallOptions`], tsumo
//! and ron by the same scorer ([`has_win`]), furiten against the same waits ([`wait_kinds`]), ron
//! asked before calls, and the calls asked on the table the engine has then (a declared riichi
//! already paid for, none on a discard that draws the round: the fourth riichi, or
//! [`draw_after_discard`]). So a player answers here as it
//! plays in `haifu simulate`: `tests/bot.rs` replays simulated games seat by seat and compares.
//!
//! Three players (docs/sanma.md, docs/bot.md): a `start_kyoku` that deals three hands (RiichiEnv's
//! three entries, or Akagi-NG's four with an empty fourth) puts the round on Tenhou's 3-player
//! rules; `start_game`'s names, when there are three, must agree. Every seat's `kita` /
//! `nukidora` sets a north aside (the replacement `tsumo` follows) and offers it to the others'
//! ron; the seat answers `kita` on its own turn when its player sets one aside; no chi is
//! offered at three. Players whose evaluator is four-player only ([`plays_three`]) are refused
//! at a 3-player table: the round is sat out with tsumogiri and the error names the line.

use super::answer::Answer;
use super::hidden::{HiddenError, HiddenTable};
use crate::hand::meld::MeldKind;
use crate::log::event::{Call, Event, Rules};
use crate::log::mjai::error::MjaiError;
use crate::log::mjai::read::{players_dealt, round_header, Line};
use crate::replay::rules::{self, CallOptions, TurnOptions};
use crate::replay::rules::{draw_after_discard, has_win, turn_options, wait_kinds};
use crate::replay::table::{RiichiState, Table};
use crate::sim::bots::{plays_three, Bot, CallAction, Seat, TurnAction};
use crate::tile::{Kind, TileId, NORTH};

/// Why an event could not be followed. The bot answers with a legal fallback and keeps going
/// (the round is skipped until the next `start_kyoku` when its table broke).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    #[error("not an mjai event: {0}")]
    Json(String),
    #[error("{event}: {error}")]
    Event { event: &'static str, error: HiddenError },
    #[error("{0} outside a round")]
    OutsideRound(&'static str),
    #[error("actor {actor} is not a seat of this table (0-{})", players - 1)]
    NotASeat { actor: u8, players: u8 },
    #[error("seat {seat} is not dealt at this {players}-player table")]
    NotSeated { seat: u8, players: u8 },
    #[error("start_game names {named} players but start_kyoku deals {dealt}")]
    SeatsDiffer { named: u8, dealt: u8 },
    #[error(
        "player {player} is four-player only (電脳麻将's ev search, or the default trees model fitted \
         on four-player games: docs/evaluators.md); at a 3-player table the round is sat out with \
         tsumogiri: play linear, ukeire, yaku, yaku-seed, boten or random"
    )]
    FourPlayerOnly { player: String },
}

struct Round {
    t: HiddenTable,
    /// A win or a draw was announced: nothing more to decide this round.
    over: bool,
    temp_furiten: bool,
    riichi_furiten: bool,
    /// The discard chosen with a riichi declaration, played when the `reach` comes back.
    riichi_tile: Option<TileId>,
}

/// One seat at an mjai table. `react` takes each line of the stream and returns the seat's
/// answer to it.
pub struct MjaiBot<B: Bot> {
    pub seat: u8,
    pub player: B,
    red: bool,
    /// The game's length when the table states it out of band ([`MjaiBot::with_length`]):
    /// `Some(true)` hanchan, `Some(false)` tonpuu; `None`, Tenhou's hanchan assumed.
    hanchan: Option<bool>,
    /// The players `start_game`'s names count (3 or 4), when it names them.
    named: Option<u8>,
    round: Option<Round>,
    /// On the seat's own turn, the discard it makes when its table cannot answer.
    fallback: Option<TileId>,
    /// The fallback is the tile just drawn, known by its name only.
    drawn_by_name: bool,
    /// Questions put to the player so far (what the response-time bench counts as decisions).
    pub questions: u64,
}

fn bit(k: Kind) -> u64 {
    1u64 << k
}

fn event_name(line: &Line) -> &'static str {
    match line {
        Line::None => "none",
        Line::StartGame { .. } => "start_game",
        Line::StartKyoku { .. } => "start_kyoku",
        Line::Tsumo { .. } => "tsumo",
        Line::Dahai { .. } => "dahai",
        Line::Chi { .. } => "chi",
        Line::Pon { .. } => "pon",
        Line::Daiminkan { .. } => "daiminkan",
        Line::Kakan { .. } => "kakan",
        Line::Ankan { .. } => "ankan",
        Line::Dora { .. } => "dora",
        Line::Reach { .. } => "reach",
        Line::ReachAccepted { .. } => "reach_accepted",
        Line::Kita { .. } => "kita",
        Line::Hora { .. } => "hora",
        Line::Ryukyoku { .. } => "ryukyoku",
        Line::EndKyoku => "end_kyoku",
        Line::EndGame { .. } => "end_game",
    }
}

impl<B: Bot> MjaiBot<B> {
    pub fn new(seat: u8, player: B) -> MjaiBot<B> {
        MjaiBot {
            seat: seat % 4,
            player,
            red: true,
            hanchan: None,
            named: None,
            round: None,
            fallback: None,
            drawn_by_name: false,
            questions: 0,
        }
    }

    /// The bot told the game's length, which mjai's `start_game` never states: hanchan (`true`)
    /// or tonpuu. Players that read the standing (the `fitted` player's riichi model asks whether
    /// the round is all-last) need it at a tonpuu table; without it the bot assumes hanchan.
    pub fn with_length(mut self, hanchan: bool) -> MjaiBot<B> {
        self.hanchan = Some(hanchan);
        self
    }

    /// The answer to one line of the stream: one event or a JSON array of events (the answer
    /// is to the last that can offer a choice; the others only move the table). Errors come
    /// with the fallback answer the seat gives instead (a tsumogiri on its own turn, else
    /// `none`), so a table is never left waiting.
    pub fn react(&mut self, line: &str) -> Result<Answer, (BotError, Answer)> {
        let events: Vec<Line> =
            match serde_json::from_str::<serde_json::Value>(line) {
                Ok(serde_json::Value::Array(items)) => items
                    .into_iter()
                    .map(serde_json::from_value)
                    .collect::<Result<_, _>>()
                    .map_err(|e| (BotError::Json(e.to_string()), self.fallback()))?,
                Ok(v) => vec![serde_json::from_value(v)
                    .map_err(|e| (BotError::Json(e.to_string()), self.fallback()))?],
                Err(e) => return Err((BotError::Json(e.to_string()), self.fallback())),
            };
        // The answer is to the last event that can offer a choice: a `reach_accepted` or a new
        // dora indicator after it does not take the choice away.
        let decisive = events
            .iter()
            .rposition(|e| !matches!(e, Line::ReachAccepted { .. } | Line::Dora { .. } | Line::None))
            .unwrap_or(events.len().saturating_sub(1));
        let mut answer = Answer::None;
        // An event that cannot be followed breaks its round (sat out with tsumogiri); the line's
        // later events still move the bot on (a new round, its own draw to discard), and the first
        // error is reported with the fallback answer to the whole line.
        let mut failed: Option<BotError> = None;
        for (i, ev) in events.into_iter().enumerate() {
            let name = event_name(&ev);
            match self.step(ev, i == decisive) {
                Ok(a) if i == decisive => answer = a,
                Ok(_) => {}
                Err(e) => {
                    if let Some(r) = &mut self.round {
                        r.over = true;
                    }
                    failed.get_or_insert(match e {
                        StepError::Hidden(error) => BotError::Event { event: name, error },
                        StepError::Bot(e) => e,
                    });
                }
            }
        }
        match failed {
            Some(e) => Err((e, self.fallback())),
            None => Ok(answer),
        }
    }

    /// The line to write for a [`react`](Self::react) answer.
    pub fn json(&self, answer: &Answer) -> String {
        answer.to_json(self.seat, self.red)
    }

    fn fallback(&self) -> Answer {
        match self.fallback {
            Some(tile) => Answer::Dahai {
                tile,
                tsumogiri: self
                    .round
                    .as_ref()
                    .is_some_and(|r| r.t.table.last_draw[self.seat as usize] == Some(tile))
                    || self.drawn_by_name,
            },
            None => Answer::None,
        }
    }

    fn step(&mut self, ev: Line, last: bool) -> Result<Answer, StepError> {
        let seat = self.seat;
        self.fallback = None;
        self.drawn_by_name = false;
        if let Line::Tsumo { actor, pai } = &ev {
            if *actor == seat {
                // Its own draw: whatever happens, a tsumogiri of it is legal.
                self.fallback = super::hidden::name_id(pai, self.red);
                self.drawn_by_name = true;
            }
        }
        match ev {
            Line::None | Line::EndGame { .. } => Ok(Answer::None),
            Line::StartGame { id, aka_flag, names } => {
                if let Some(id) = id {
                    self.seat = id.min(3);
                }
                self.red = aka_flag.unwrap_or(true);
                self.round = None;
                // Three names are a 3-player table, four with a named fourth seat a 4-player one.
                // Four with an empty fourth say nothing: Akagi-NG's 3-player layout writes them,
                // and so does a 4-player log of unnamed seats (self-play's); the deal decides.
                self.named = match names.len() {
                    3 => Some(3),
                    4 if !names[3].is_empty() => Some(4),
                    _ => None,
                };
                Ok(Answer::None)
            }
            Line::StartKyoku { bakaze, dora_marker, kyoku, honba, kyotaku, oya, scores, tehais } => {
                self.start(&bakaze, &dora_marker, kyoku, honba, kyotaku, oya, scores, &tehais)?;
                Ok(Answer::None)
            }
            Line::EndKyoku => {
                self.round = None;
                Ok(Answer::None)
            }
            other => {
                let Some(r) = self.round.as_mut() else {
                    return Err(StepError::Bot(BotError::OutsideRound(event_name(&other))));
                };
                if r.over {
                    // A round whose table broke still gets a legal move on the seat's turn.
                    return Ok(self.fallback());
                }
                let player =
                    Counting { inner: &self.player, asked: std::cell::Cell::new(0), base: self.questions };
                let reply = round_event(r, seat, &player, other, last);
                self.questions += player.asked.get();
                let reply = reply?;
                if let Some(tile) = reply.fallback {
                    self.fallback = Some(tile);
                    self.drawn_by_name = false;
                }
                Ok(reply.answer)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn start(
        &mut self,
        bakaze: &str,
        dora_marker: &str,
        kyoku: u8,
        honba: u8,
        kyotaku: u8,
        oya: u8,
        scores: [i32; 4],
        tehais: &[Vec<String>],
    ) -> Result<(), StepError> {
        self.round = None;
        let start = round_header(bakaze, kyoku, honba, kyotaku, oya, scores)?;
        let players = players_dealt(tehais)?;
        if let Some(named) = self.named.filter(|&n| n != players) {
            return Err(StepError::Bot(BotError::SeatsDiffer { named, dealt: players }));
        }
        if self.seat >= players {
            return Err(StepError::Bot(BotError::NotSeated { seat: self.seat, players }));
        }
        if oya >= players || (players == 3 && scores[3] != 0) {
            return Err(MjaiError::Kyoku { kyoku, oya }.into());
        }
        let own = tehais
            .get(self.seat as usize)
            .filter(|h| h.len() == 13)
            .ok_or(StepError::Hidden(HiddenError::Tile(MjaiError::Tehais)))?;
        // mjai's start_game states neither the platform nor the length: Tenhou's rules for the
        // seats dealt, with the red fives the stream showed, hanchan unless told otherwise.
        let rules = Rules {
            length_stated: self.hanchan.is_some(),
            ..Rules::tenhou(players, self.hanchan.unwrap_or(true), self.red)
        };
        let t = HiddenTable::deal(rules, start, self.seat, own, dora_marker).map_err(StepError::Hidden)?;
        // A four-player-only player follows the round but never decides in it.
        let refused = players == 3 && !plays_three(self.player.name());
        self.round =
            Some(Round { t, over: refused, temp_furiten: false, riichi_furiten: false, riichi_tile: None });
        if refused {
            return Err(StepError::Bot(BotError::FourPlayerOnly { player: self.player.name().to_string() }));
        }
        Ok(())
    }
}

/// The player, counting the questions put to it.
struct Counting<'a, B: Bot> {
    inner: &'a B,
    asked: std::cell::Cell<u64>,
    /// Questions asked before this line: the seat's random numbers are drawn from the count
    /// (the `random` player's choices; every other player ignores them), so a bot is
    /// deterministic for its stream.
    base: u64,
}

impl<B: Bot> Counting<'_, B> {
    fn random(&self) -> u64 {
        let n = self.asked.get() + 1;
        self.asked.set(n);
        crate::sim::wall::mix(&[self.base + n, 0xB07])
    }

    fn turn(&self, table: &Table, who: u8, o: &TurnOptions) -> TurnAction {
        self.inner.turn(&Seat { table, who, random: self.random() }, o)
    }

    fn call(&self, table: &Table, who: u8, o: &CallOptions) -> CallAction {
        self.inner.call(&Seat { table, who, random: self.random() }, o)
    }
}

enum StepError {
    Hidden(HiddenError),
    Bot(BotError),
}

impl From<HiddenError> for StepError {
    fn from(e: HiddenError) -> Self {
        StepError::Hidden(e)
    }
}

impl From<MjaiError> for StepError {
    fn from(e: MjaiError) -> Self {
        StepError::Hidden(e.into())
    }
}

/// An answer, and on the seat's own turn the discard to make if a later event breaks the table.
struct Reply {
    answer: Answer,
    fallback: Option<TileId>,
}

fn reply(answer: Answer) -> Reply {
    Reply { answer, fallback: None }
}

fn seat_of(r: &Round, actor: u8) -> Result<u8, StepError> {
    let players = r.t.table.rules.players;
    if actor < players {
        Ok(actor)
    } else {
        Err(StepError::Bot(BotError::NotASeat { actor, players }))
    }
}

/// Applies one round event and, when it is the last of its line and offers the seat a choice,
/// asks the player.
fn round_event<B: Bot>(
    r: &mut Round,
    seat: u8,
    player: &Counting<B>,
    ev: Line,
    last: bool,
) -> Result<Reply, StepError> {
    match ev {
        Line::Tsumo { actor, pai } => {
            let who = seat_of(r, actor)?;
            let live = !r.t.table.rinshan[who as usize];
            let tile = if who == seat { r.t.from_wall(&pai)? } else { r.t.stand_in()? };
            r.t.apply(&Event::Draw { who, tile })?;
            if who != seat {
                return Ok(reply(Answer::None));
            }
            let fallback = Some(tile);
            if !last {
                return Ok(Reply { answer: Answer::None, fallback });
            }
            let o = turn_options(&r.t.table, seat, Some(tile), live);
            Ok(Reply { answer: turn_answer(r, seat, player, &o, Some(tile)), fallback })
        }
        Line::Dahai { actor, pai, tsumogiri } => {
            let who = seat_of(r, actor)?;
            let tile = r.t.from_hand(who, &pai, tsumogiri)?;
            r.t.apply(&Event::Discard { who, tile })?;
            if who == seat {
                r.temp_furiten = false;
                r.riichi_tile = None;
                return Ok(reply(Answer::None));
            }
            Ok(reply(offered(r, seat, player, who, tile, false, last)))
        }
        Line::Reach { actor } => {
            let who = seat_of(r, actor)?;
            r.t.apply(&Event::Riichi { who, step: 1, scores: None })?;
            if who != seat {
                return Ok(reply(Answer::None));
            }
            riichi_discard(r, seat, player)
        }
        Line::ReachAccepted { actor } => {
            let who = seat_of(r, actor)?;
            // Already paid when the seat was asked about the declaring discard (see `offered`).
            if r.t.table.riichi[who as usize] == RiichiState::Declared {
                r.t.apply(&Event::Riichi { who, step: 2, scores: None })?;
            }
            Ok(reply(Answer::None))
        }
        Line::Chi { actor, target, pai, consumed } => {
            open_call(r, seat, player, MeldKind::Chi, actor, target, &pai, &consumed, last)
        }
        Line::Pon { actor, target, pai, consumed } => {
            open_call(r, seat, player, MeldKind::Pon, actor, target, &pai, &consumed, last)
        }
        Line::Daiminkan { actor, target, pai, consumed } => {
            open_call(r, seat, player, MeldKind::Daiminkan, actor, target, &pai, &consumed, last)
        }
        Line::Kakan { actor, pai, .. } => {
            let who = seat_of(r, actor)?;
            let call = r.t.kakan(who, &pai)?;
            let added = call.added.expect("kakan has its tile");
            r.t.apply(&Event::Call { who, call })?;
            if who == seat {
                return Ok(reply(Answer::None));
            }
            Ok(reply(offered(r, seat, player, who, added, true, last)))
        }
        Line::Ankan { actor, consumed } => {
            let who = seat_of(r, actor)?;
            let tiles = r.t.many_from_hand(who, &consumed)?;
            if tiles.len() != 4 {
                return Err(MjaiError::Consumed { got: tiles.len(), want: 4 }.into());
            }
            let call = Call { kind: MeldKind::Ankan, tiles, called: None, from: 0, added: None };
            r.t.apply(&Event::Call { who, call })?;
            Ok(reply(Answer::None))
        }
        Line::Kita { actor, pai } => kita(r, seat, player, actor, pai.as_deref(), last),
        Line::Dora { dora_marker } => {
            let indicator = r.t.from_wall(&dora_marker)?;
            r.t.apply(&Event::NewDora { indicator })?;
            Ok(reply(Answer::None))
        }
        Line::Hora { .. } | Line::Ryukyoku { .. } => {
            r.over = true;
            Ok(reply(Answer::None))
        }
        Line::None
        | Line::StartGame { .. }
        | Line::StartKyoku { .. }
        | Line::EndKyoku
        | Line::EndGame { .. } => Ok(reply(Answer::None)),
    }
}

/// The seat's own riichi declaration came back: the discard chosen with it, asked again if the
/// table lost it.
fn riichi_discard<B: Bot>(r: &mut Round, seat: u8, player: &Counting<B>) -> Result<Reply, StepError> {
    let allowed = rules::discards(&r.t.table, seat, r.t.table.last_draw[seat as usize]);
    let tile = match r.riichi_tile.filter(|t| allowed.contains(t)) {
        Some(t) => t,
        None => {
            let o = TurnOptions { discards: allowed.clone(), ..TurnOptions::default() };
            match ask_turn(r, seat, player, &o) {
                TurnAction::Discard(t) | TurnAction::Riichi(t) if allowed.contains(&t) => t,
                _ => *allowed.first().ok_or_else(|| no_discard(seat))?,
            }
        }
    };
    let answer = dahai(&r.t.table, seat, tile);
    let fallback = match answer {
        Answer::Dahai { tile, .. } => Some(tile),
        _ => None,
    };
    Ok(Reply { answer, fallback })
}

/// A north set aside (the table refuses it under four-player rules): the seat's own north is the
/// one just drawn when it drew one (in riichi it must be), and another seat's is offered to the
/// seat's ron, as the engine offers it (no call: it is not a discard).
fn kita<B: Bot>(
    r: &mut Round,
    seat: u8,
    player: &Counting<B>,
    actor: u8,
    pai: Option<&str>,
    last: bool,
) -> Result<Reply, StepError> {
    let who = seat_of(r, actor)?;
    let drawn = who == seat && r.t.table.last_draw[who as usize].is_some_and(|d| d.kind() == NORTH);
    let tile = r.t.from_hand(who, pai.unwrap_or("N"), drawn)?;
    r.t.apply(&Event::Kita { who, tile })?;
    if who == seat {
        return Ok(reply(Answer::None));
    }
    Ok(reply(offered(r, seat, player, who, tile, true, last)))
}

/// The discard of `tile`, of two copies of one tile the drawn one (Mortal's and Tenhou's
/// tsumogiri), with its `tsumogiri` flag.
fn dahai(t: &Table, seat: u8, tile: TileId) -> Answer {
    let drawn = t.last_draw[seat as usize];
    let red = t.rules.red_fives();
    let tile = drawn.filter(|d| d.tile(red) == tile.tile(red)).unwrap_or(tile);
    Answer::Dahai { tile, tsumogiri: drawn == Some(tile) }
}

fn no_discard(seat: u8) -> StepError {
    StepError::Hidden(HiddenError::NotInHand { seat, tile: "a legal discard".into() })
}

#[allow(clippy::too_many_arguments)]
fn open_call<B: Bot>(
    r: &mut Round,
    seat: u8,
    player: &Counting<B>,
    kind: MeldKind,
    actor: u8,
    target: u8,
    pai: &str,
    consumed: &[String],
    last: bool,
) -> Result<Reply, StepError> {
    let who = seat_of(r, actor)?;
    let target = seat_of(r, target)?;
    let called = match r.t.table.last_discard {
        Some((w, t))
            if w == target && crate::log::mjai::tiles::tile_name(t, r.t.table.rules.red_fives()) == pai =>
        {
            t
        }
        _ => return Err(MjaiError::NotOffered { seat: who, tile: pai.to_string(), target }.into()),
    };
    let want = if kind == MeldKind::Daiminkan { 3 } else { 2 };
    if consumed.len() != want {
        return Err(MjaiError::Consumed { got: consumed.len(), want }.into());
    }
    let mut tiles = vec![called];
    tiles.extend(r.t.many_from_hand(who, consumed)?);
    let call = Call { kind, tiles, called: Some(called), from: (target + 4 - who) % 4, added: None };
    r.t.apply(&Event::Call { who, call })?;
    if who != seat {
        return Ok(reply(Answer::None));
    }
    r.temp_furiten = false;
    if kind == MeldKind::Daiminkan {
        return Ok(reply(Answer::None));
    }
    let o = turn_options(&r.t.table, seat, None, false);
    let fallback = Some(*o.discards.first().ok_or_else(|| no_discard(seat))?);
    if !last {
        return Ok(Reply { answer: Answer::None, fallback });
    }
    Ok(Reply { answer: turn_answer(r, seat, player, &o, None), fallback })
}

fn ask_turn<B: Bot>(r: &Round, seat: u8, player: &Counting<B>, o: &TurnOptions) -> TurnAction {
    player.turn(&r.t.table, seat, o)
}

/// The seat's own turn as an answer.
fn turn_answer<B: Bot>(
    r: &mut Round,
    seat: u8,
    player: &Counting<B>,
    o: &TurnOptions,
    drawn: Option<TileId>,
) -> Answer {
    let t = &r.t.table;
    let hand = &t.hands[seat as usize];
    let of_kind = |k: Kind| -> Vec<TileId> { hand.iter().copied().filter(|x| x.kind() == k).collect() };
    let fallback = || dahai(t, seat, drawn.or(o.discards.first().copied()).unwrap_or(hand[0]));
    match ask_turn(r, seat, player, o) {
        TurnAction::Tsumo if o.tsumo => Answer::Hora { target: seat, tile: drawn.unwrap_or(hand[0]) },
        TurnAction::Kyuushu if o.kyuushu => Answer::Ryukyoku,
        TurnAction::Ankan(k) if o.ankan.contains(&k) => match of_kind(k).try_into() {
            Ok(consumed) => Answer::Ankan { consumed },
            Err(_) => fallback(),
        },
        TurnAction::Kakan(k) if o.kakan.contains(&k) => {
            let pon =
                t.melds[seat as usize].iter().find(|m| m.kind == MeldKind::Pon && m.tiles[0].kind() == k);
            match (of_kind(k).first(), pon.and_then(|p| <[TileId; 3]>::try_from(p.tiles.clone()).ok())) {
                (Some(&tile), Some(consumed)) => Answer::Kakan { tile, consumed },
                _ => fallback(),
            }
        }
        TurnAction::Riichi(tile) if o.riichi.contains(&tile) => {
            r.riichi_tile = Some(tile);
            Answer::Reach
        }
        TurnAction::Discard(tile) if o.discards.contains(&tile) => dahai(t, seat, tile),
        TurnAction::Kita(tile) if o.kita == Some(tile) => Answer::Kita { tile },
        _ => fallback(),
    }
}

/// A tile another seat offers (`ron_only`: an added kan or a north set aside), as the engine
/// offers it: ron first, then, unless the discard ends the round, the calls. Furiten follows the
/// stream: a winning tile that passes makes the seat furiten whatever it answered, since a stream
/// that goes on shows that its ron did not happen.
fn offered<B: Bot>(
    r: &mut Round,
    seat: u8,
    player: &Counting<B>,
    from: u8,
    tile: TileId,
    ron_only: bool,
    last: bool,
) -> Answer {
    let t = &r.t.table;
    let w = seat as usize;
    let waits = wait_kinds(t, seat);
    if waits & bit(tile.kind()) != 0 {
        let river: u64 = t.rivers[w].iter().fold(0, |b, x| b | bit(x.tile.kind()));
        let furiten = r.temp_furiten || r.riichi_furiten || waits & river != 0;
        let ron = last && !furiten && has_win(t, seat, from, tile) && {
            let o = CallOptions { tile: Some((from, tile)), ron: true, ..Default::default() };
            player.call(t, seat, &o) == CallAction::Ron
        };
        r.temp_furiten = true;
        if matches!(t.riichi[w], RiichiState::Accepted { .. }) {
            r.riichi_furiten = true;
        }
        if ron {
            return Answer::Hora { target: from, tile };
        }
    }
    if ron_only || !last {
        return Answer::None;
    }
    // The engine asks for calls once the discard has passed: a declared riichi is paid for.
    let mut after = t.clone();
    if after.riichi[from as usize] == RiichiState::Declared {
        if after
            .riichi
            .iter()
            .enumerate()
            .all(|(s, x)| s == from as usize || matches!(x, RiichiState::Accepted { .. }))
        {
            return Answer::None; // the fourth riichi: the round is drawn
        }
        if after.apply(&Event::Riichi { who: from, step: 2, scores: None }).is_err() {
            return Answer::None;
        }
    }
    if draw_after_discard(&after).is_some() {
        return Answer::None;
    }
    let o = rules::call_options(&after, seat, from, tile);
    if !o.any() {
        return Answer::None;
    }
    let hand = &after.hands[w];
    match player.call(&after, seat, &o) {
        CallAction::Pon(pair) if o.pon.contains(&pair) => Answer::Pon { target: from, tile, consumed: pair },
        CallAction::Chi(pair) if o.chi.contains(&pair) => Answer::Chi { target: from, tile, consumed: pair },
        CallAction::Daiminkan if o.daiminkan => {
            let same: Vec<TileId> = hand.iter().copied().filter(|x| x.kind() == tile.kind()).collect();
            match same.try_into() {
                Ok(consumed) => Answer::Daiminkan { target: from, tile, consumed },
                Err(_) => Answer::None,
            }
        }
        _ => Answer::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::bots::parse_bot;

    const START: &str = r#"[{"type":"start_game","names":["a","b","c"]},{"type":"start_kyoku","bakaze":"E","dora_marker":"1p","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[35000,35000,35000],"tehais":[["1m","9m","1p","2p","3p","4p","5p","6p","7p","8p","9p","N","E"],["?","?","?","?","?","?","?","?","?","?","?","?","?"],["?","?","?","?","?","?","?","?","?","?","?","?","?"]]}]"#;

    #[test]
    fn three_players_set_a_north_aside_and_refuse_the_fourth_seat() {
        let mut bot = MjaiBot::new(0, parse_bot("ukeire").unwrap());
        assert_eq!(bot.react(START), Ok(Answer::None));
        assert_eq!(bot.round.as_ref().map(|r| r.t.table.rules.players), Some(3));
        // Its own draw with a north in hand: the north goes aside, in RiichiEnv's words.
        let a = bot.react(r#"{"type":"tsumo","actor":0,"pai":"S"}"#).unwrap();
        let v: serde_json::Value = serde_json::from_str(&bot.json(&a)).unwrap();
        assert_eq!(v, serde_json::json!({"type":"kita","actor":0,"pai":"N"}));
        assert_eq!(bot.react(r#"{"type":"kita","actor":0,"pai":"N"}"#), Ok(Answer::None));
        let a = bot.react(r#"{"type":"tsumo","actor":0,"pai":"W"}"#).unwrap();
        assert!(matches!(a, Answer::Dahai { .. }), "{a:?}");
        // Seat 3 is empty, and 2m-8m are not in the set.
        let (e, _) = bot.react(r#"{"type":"dahai","actor":3,"pai":"W","tsumogiri":true}"#).unwrap_err();
        assert_eq!(e, BotError::NotASeat { actor: 3, players: 3 });
        let mut bot = MjaiBot::new(0, parse_bot("ukeire").unwrap());
        let (e, _) = bot.react(&START.replace("\"9m\"", "\"2m\"")).unwrap_err();
        assert!(e.to_string().contains("not in this table's set"), "{e}");
    }

    #[test]
    fn four_player_only_players_sit_a_three_player_round_out() {
        assert!(plays_three("linear") && plays_three("random") && !plays_three("ev"));
        assert!(!plays_three("majiang-0402") && !plays_three("trees"));
        let mut bot = MjaiBot::new(0, parse_bot("ev").unwrap());
        let (e, answer) =
            bot.react(&START.replace("]}]", r#"]},{"type":"tsumo","actor":0,"pai":"S"}]"#)).unwrap_err();
        assert_eq!(e, BotError::FourPlayerOnly { player: "ev".into() });
        // The line's own draw still gets a legal answer: its tsumogiri.
        assert_eq!(bot.json(&answer), r#"{"type":"dahai","actor":0,"pai":"S","tsumogiri":true}"#);
        // start_game naming three seats and start_kyoku dealing four disagree.
        let mut bot = MjaiBot::new(0, parse_bot("ukeire").unwrap());
        let four = START
            .replace(r#""scores":[35000,35000,35000],"#, r#""scores":[25000,25000,25000,25000],"#)
            .replace(r#"]]}]"#, r#"],["?","?","?","?","?","?","?","?","?","?","?","?","?"]]}]"#);
        let (e, _) = bot.react(&four).unwrap_err();
        assert_eq!(e, BotError::SeatsDiffer { named: 3, dealt: 4 });
    }
}
