//! mjai JSON lines into the same [`Game`] the mjlog reader produces.
//!
//! The reader is a thin translation, like the tenhou.net/6 reader: it keeps each seat's hand only
//! to give every tile a Tenhou id ([`Ids`]) and to fill the facts mjai leaves out but the events
//! need (the winning tile and hand of a win, how a round was drawn, who was tenpai). Whether a
//! move was legal and a win's score adds up is judged by the replay, as for every other format.
//!
//! What mjai does not carry is left empty, never guessed: a win's han, fu, yaku and limit (`fu`
//! and `points` 0, `yaku` empty: the replay's check then compares only the score changes), the
//! dice, the table level and the players' dan and rate. A draw's kind is read from the table: the
//! wall ran out (70 draws), a seat drew and drew the round at once (nine terminals), the fourth
//! riichi was just accepted, four kans were made, four equal winds opened the round, else three
//! rons. Pao is read from the score changes (a tsumo one seat pays alone, a ron two seats pay).
//!
//! Three-player games (docs/sanma.md) are read in either layout seen: RiichiEnv's (three names,
//! three `tehais`, three-entry `scores` and `deltas`) and Akagi-NG's Tenhou bridge's (four
//! entries, the fourth seat empty and 0). Three dealt hands make the game a 3-player one, on
//! Tenhou's 3-player rules. A north set aside is `kita` (RiichiEnv) or `nukidora` (Akagi-NG), its
//! replacement draw the next `tsumo`; the live wall is then 55 draws.

use serde::Deserialize;

use super::error::MjaiError;
use super::tiles::Ids;
use crate::hand::meld::MeldKind;
use crate::log::error::LogError;
use crate::log::event::*;
use crate::score::Limit;
use crate::tile::TileId;

/// One line, as Mortal's `libriichi` `mjai::Event` defines it. Unknown fields (`meta`, `seed`,
/// `kyoku_first`...) are ignored. The bot ([`crate::bot`]) reads its table's stream with it too.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Line {
    None,
    StartGame {
        #[serde(default)]
        names: Vec<String>,
        #[serde(default)]
        aka_flag: Option<bool>,
        /// The seat the stream is sent to (mjai.app and Mortal's bots); a log leaves it out.
        #[serde(default)]
        id: Option<u8>,
    },
    StartKyoku {
        bakaze: String,
        dora_marker: String,
        kyoku: u8,
        honba: u8,
        kyotaku: u8,
        oya: u8,
        #[serde(deserialize_with = "seat_ints")]
        scores: [i32; 4],
        tehais: Vec<Vec<String>>,
    },
    Tsumo {
        actor: u8,
        pai: String,
    },
    Dahai {
        actor: u8,
        pai: String,
        #[serde(default)]
        tsumogiri: bool,
    },
    Chi {
        actor: u8,
        target: u8,
        pai: String,
        consumed: Vec<String>,
    },
    Pon {
        actor: u8,
        target: u8,
        pai: String,
        consumed: Vec<String>,
    },
    Daiminkan {
        actor: u8,
        target: u8,
        pai: String,
        consumed: Vec<String>,
    },
    Kakan {
        actor: u8,
        pai: String,
        consumed: Vec<String>,
    },
    Ankan {
        actor: u8,
        consumed: Vec<String>,
    },
    Dora {
        dora_marker: String,
    },
    Reach {
        actor: u8,
    },
    ReachAccepted {
        actor: u8,
    },
    /// A north set aside (three players): RiichiEnv's `kita`, Akagi-NG's `nukidora`. RiichiEnv
    /// writes no `pai`; the tile is a north either way.
    #[serde(alias = "nukidora")]
    Kita {
        actor: u8,
        #[serde(default)]
        pai: Option<String>,
    },
    Hora {
        actor: u8,
        target: u8,
        #[serde(default, deserialize_with = "opt_seat_ints")]
        deltas: Option<[i32; 4]>,
        #[serde(default)]
        ura_markers: Option<Vec<String>>,
    },
    Ryukyoku {
        #[serde(default, deserialize_with = "opt_seat_ints")]
        deltas: Option<[i32; 4]>,
    },
    EndKyoku,
    /// Some writers (mjai.app's server) state the final scores here; Mortal's logs do not.
    EndGame {
        #[serde(default, deserialize_with = "opt_seat_ints")]
        scores: Option<[i32; 4]>,
    },
}

/// A per-seat list (`scores`, `deltas`): four numbers, or three at a 3-player table (the empty
/// fourth seat's 0 added).
fn seat_ints<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[i32; 4], D::Error> {
    let v: Vec<i32> = Vec::deserialize(d)?;
    match v.len() {
        3 => Ok([v[0], v[1], v[2], 0]),
        4 => Ok([v[0], v[1], v[2], v[3]]),
        n => Err(serde::de::Error::invalid_length(n, &"three or four numbers, one a seat")),
    }
}

/// [`seat_ints`] of an optional field.
fn opt_seat_ints<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<[i32; 4]>, D::Error> {
    #[derive(Deserialize)]
    struct Seats(#[serde(deserialize_with = "seat_ints")] [i32; 4]);
    Ok(Option::<Seats>::deserialize(d)?.map(|Seats(v)| v))
}

/// The `type` of an event line, for error messages (the line did parse).
fn type_of(line: &str) -> String {
    serde_json::from_str::<serde_json::Value>(line)
        .ok()
        .and_then(|v| v.get("type").and_then(|t| t.as_str()).map(String::from))
        .unwrap_or_else(|| "?".into())
}

/// Whether a document looks like mjai: its first non-blank line is a JSON object whose `type`
/// is an mjai event (tenhou.net/6 JSON has no `type`).
pub fn looks_like_mjai(text: &[u8]) -> bool {
    let first = text.split(|&b| b == b'\n').find(|l| l.iter().any(|b| !b.is_ascii_whitespace()));
    let Some(first) = first else { return false };
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(first) else { return false };
    v.get("type").and_then(|t| t.as_str()).is_some_and(|t| {
        matches!(t, "none" | "start_game" | "start_kyoku" | "tsumo" | "dahai" | "end_game" | "end_kyoku")
    })
}

/// Parses an mjai log (one game). `id` becomes the game id. Errors name the line (1-based) and
/// the event type.
pub fn parse_mjai(id: &str, bytes: &[u8]) -> Result<Game, LogError> {
    parse_mjai_with(id, bytes, false)
}

/// Parses a game so far (a bot's view of a live game): as [`parse_mjai`], but the last round
/// may still be in progress, kept as a round without a result (its replay then ends with
/// `NoResult` after its last event), and the game is taken as a hanchan.
pub fn parse_mjai_live(id: &str, bytes: &[u8]) -> Result<Game, LogError> {
    parse_mjai_with(id, bytes, true)
}

fn parse_mjai_with(id: &str, bytes: &[u8], live: bool) -> Result<Game, LogError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = 1 + bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count();
        LogError::Json { detail: format!("mjai: not UTF-8 ({e})"), line, column: 1 }
    })?;
    let mut reader = Reader::default();
    let mut last_line = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        last_line = i + 1;
        let event: Line = serde_json::from_str(line).map_err(|e| LogError::Json {
            detail: format!("mjai event {}: {e}", type_of(line)),
            line: i + 1,
            column: e.column(),
        })?;
        reader.apply(event).map_err(|error| LogError::Mjai {
            event: Some(type_of(line)),
            line: i + 1,
            error,
        })?;
    }
    if live {
        if let Some(k) = reader.kyoku.take() {
            reader.rounds.push(Round { start: k.start, events: k.events });
        }
    }
    reader.finish(id, live).map_err(|error| LogError::Mjai { event: None, line: last_line, error })
}

#[derive(Default)]
struct Reader {
    names: Option<[String; 4]>,
    /// Seats at the table, from the first round's dealt hands (3 or 4).
    players: Option<u8>,
    red_fives: Option<bool>,
    rounds: Vec<Round>,
    kyoku: Option<Kyoku>,
    /// Scores and sticks after the last finished round (for the final scores).
    after_last: Option<([i32; 4], u8)>,
    game_ended: bool,
    /// The final scores `end_game` states, when it does.
    stated_scores: Option<[i32; 4]>,
}

impl Reader {
    fn apply(&mut self, line: Line) -> Result<(), MjaiError> {
        if self.game_ended && !matches!(line, Line::None) {
            return Err(MjaiError::AfterEndGame);
        }
        match line {
            Line::None => Ok(()),
            Line::StartGame { names, aka_flag, .. } => self.start_game(names, aka_flag),
            Line::StartKyoku { bakaze, dora_marker, kyoku, honba, kyotaku, oya, scores, tehais } => {
                if self.kyoku.is_some() {
                    return Err(MjaiError::StartInsideRound);
                }
                let red = self.red_fives.unwrap_or(true);
                let players = players_dealt(&tehais)?;
                if self.players.is_some_and(|p| p != players) {
                    return Err(MjaiError::SeatsChange { was: self.players.unwrap_or(4), now: players });
                }
                self.players = Some(players);
                let table = Table { red_fives: red, players };
                let k =
                    Kyoku::start(table, &bakaze, &dora_marker, kyoku, honba, kyotaku, oya, scores, &tehais)?;
                self.kyoku = Some(k);
                Ok(())
            }
            Line::EndKyoku => {
                let k = self.kyoku.take().ok_or(MjaiError::EndOutsideRound)?;
                if !k.has_result() {
                    return Err(MjaiError::EndWithoutResult);
                }
                self.after_last = Some((k.scores, k.sticks));
                self.rounds.push(Round { start: k.start, events: k.events });
                Ok(())
            }
            Line::EndGame { scores } => {
                if self.kyoku.is_some() {
                    return Err(MjaiError::EndGameInsideRound);
                }
                self.game_ended = true;
                self.stated_scores = scores;
                Ok(())
            }
            other => self.kyoku.as_mut().ok_or(MjaiError::OutsideRound)?.apply(other),
        }
    }

    fn start_game(&mut self, names: Vec<String>, aka_flag: Option<bool>) -> Result<(), MjaiError> {
        if self.names.is_some() || !self.rounds.is_empty() || self.kyoku.is_some() {
            return Err(MjaiError::SecondStartGame);
        }
        let names: [String; 4] = match names.len() {
            0 => Default::default(),
            3 | 4 => std::array::from_fn(|i| names.get(i).cloned().unwrap_or_default()),
            n => return Err(MjaiError::SeatCount(n)),
        };
        self.names = Some(names);
        self.red_fives = aka_flag;
        Ok(())
    }

    fn finish(mut self, id: &str, live: bool) -> Result<Game, MjaiError> {
        if let Some(k) = &self.kyoku {
            return Err(MjaiError::EndsInsideRound(k.start.round));
        }
        if self.rounds.is_empty() {
            return Err(MjaiError::NoRound);
        }
        let red = self.red_fives.unwrap_or(true);
        // mjai does not state the length: a South round makes it a hanchan, and a game still being
        // played (`live`) is taken as one, the length of ranked play (East 4 is then not its last
        // round).
        let hanchan = live || self.rounds.iter().any(|r| r.start.round >= 4);
        let seats = self.players.unwrap_or(4);
        let names = self.names.take().unwrap_or_default();
        if seats == 3 && !names[3].is_empty() {
            return Err(MjaiError::FourthSeat("a name"));
        }
        let players = names.map(|name| Player { name, ..Player::default() });
        // The scores end_game states, which the replay checks; else the scores after the last
        // round, where Tenhou gives sticks left on the table at the end to the first place. A
        // log without end_game states no result: the game is partial.
        let final_scores = self.stated_scores.or_else(|| {
            self.after_last.filter(|_| self.game_ended).map(|(mut s, sticks)| {
                let top = crate::util::placements_of(&s, seats).iter().position(|&p| p == 1).unwrap_or(0);
                s[top] += 1000 * i32::from(sticks);
                s
            })
        });
        Ok(Game {
            id: id.to_string(),
            // mjai states no platform: Tenhou's rules for the seats dealt, of the length its rounds
            // show
            rules: Rules { length_stated: false, ..Rules::tenhou(seats, hanchan, red) },
            players,
            rounds: self.rounds,
            final_scores,
            final_results: None,
        })
    }
}

/// The round a `start_kyoku` opens, checked, without its tiles (the caller deals the hands and
/// the indicator; until then they are empty and tile 0): round wind and number, dealer, honba,
/// sticks, scores. The reader and the bot ([`crate::bot`]) open rounds with it.
pub fn round_header(
    bakaze: &str,
    kyoku: u8,
    honba: u8,
    kyotaku: u8,
    oya: u8,
    scores: [i32; 4],
) -> Result<RoundStart, MjaiError> {
    let wind = ["E", "S", "W", "N"]
        .iter()
        .position(|w| *w == bakaze)
        .ok_or_else(|| MjaiError::Bakaze(bakaze.to_string()))?;
    if !(1..=4).contains(&kyoku) || oya != kyoku - 1 {
        return Err(MjaiError::Kyoku { kyoku, oya });
    }
    if scores.iter().any(|s| s.abs() > 10_000_000) {
        return Err(MjaiError::Scores(scores));
    }
    Ok(RoundStart {
        round: wind as u8 * 4 + kyoku - 1,
        honba,
        sticks: kyotaku,
        dice: [0, 0],
        dora_indicator: TileId::new(0).expect("0 < 136"),
        scores,
        dealer: oya,
        hands: Default::default(),
    })
}

/// What a round needs of the game: red fives, and the seats dealt.
#[derive(Clone, Copy)]
struct Table {
    red_fives: bool,
    players: u8,
}

/// The seats a `start_kyoku` deals: four hands of 13 tiles, or three (a 3-player game, whose
/// fourth entry, when there is one, is empty).
pub fn players_dealt(tehais: &[Vec<String>]) -> Result<u8, MjaiError> {
    let dealt = |hands: &[Vec<String>]| hands.iter().all(|h| h.len() == 13);
    match tehais.len() {
        4 if dealt(tehais) => Ok(4),
        4 if tehais[3].is_empty() && dealt(&tehais[..3]) => Ok(3),
        3 if dealt(tehais) => Ok(3),
        _ => Err(MjaiError::Tehais),
    }
}

/// The round being read.
struct Kyoku {
    start: RoundStart,
    events: Vec<Event>,
    ids: Ids,
    red_fives: bool,
    players: u8,
    hands: [Vec<TileId>; 4],
    melds: [Vec<Call>; 4],
    /// Norths each seat has set aside (three players).
    kita: [Vec<TileId>; 4],
    /// Scores now: after riichi sticks and earlier wins of this round.
    scores: [i32; 4],
    /// Sticks on the table now (taken by the first winner).
    sticks: u8,
    dora: Vec<TileId>,
    ura: Option<(Vec<String>, Vec<TileId>)>,
    last_draw: [Option<TileId>; 4],
    /// The tile another seat may take now (a discard, or a kakan's tile for chankan).
    offered: Option<(u8, TileId)>,
    /// Wall and dead-wall draws so far (the live wall is empty after 70).
    draws: u32,
    discards: u32,
    riichi: [bool; 4],
    kans: [u8; 4],
    calls: u32,
    prev: Prev,
    result: Option<bool>,
}

/// The previous event, as far as a draw's kind depends on it.
#[derive(Clone, Copy, PartialEq)]
enum Prev {
    Start,
    Draw(u8),
    Discard,
    ReachAccepted,
    Other,
}

impl Kyoku {
    #[allow(clippy::too_many_arguments)]
    fn start(
        table: Table,
        bakaze: &str,
        dora_marker: &str,
        kyoku: u8,
        honba: u8,
        kyotaku: u8,
        oya: u8,
        scores: [i32; 4],
        tehais: &[Vec<String>],
    ) -> Result<Kyoku, MjaiError> {
        let Table { red_fives, players } = table;
        let mut start = round_header(bakaze, kyoku, honba, kyotaku, oya, scores)?;
        if oya >= players {
            return Err(MjaiError::Kyoku { kyoku, oya });
        }
        if players == 3 && scores[3] != 0 {
            return Err(MjaiError::FourthSeat("a score"));
        }
        let mut ids = Ids::new(red_fives);
        let dora = ids.take(dora_marker)?;
        let mut hands: [Vec<TileId>; 4] = Default::default();
        for (s, h) in tehais.iter().enumerate() {
            hands[s] = h.iter().map(|t| ids.take(t)).collect::<Result<_, _>>()?;
        }
        start.dora_indicator = dora;
        start.hands = hands.clone();
        Ok(Kyoku {
            start,
            events: Vec::with_capacity(160),
            ids,
            red_fives,
            players,
            hands,
            melds: Default::default(),
            kita: Default::default(),
            scores,
            sticks: kyotaku,
            dora: vec![dora],
            ura: None,
            last_draw: [None; 4],
            offered: None,
            draws: 0,
            discards: 0,
            riichi: [false; 4],
            kans: [0; 4],
            calls: 0,
            prev: Prev::Start,
            result: None,
        })
    }

    fn has_result(&self) -> bool {
        self.result.is_some()
    }

    fn apply(&mut self, line: Line) -> Result<(), MjaiError> {
        let is_hora = matches!(line, Line::Hora { .. });
        if self.result.is_some() && !(is_hora && self.result == Some(true)) {
            return Err(MjaiError::AfterResult);
        }
        let players = self.players;
        let seat = |a: u8| if a < players { Ok(a) } else { Err(MjaiError::NotASeat { actor: a, players }) };
        match line {
            Line::Tsumo { actor, pai } => self.tsumo(seat(actor)?, &pai)?,
            Line::Dahai { actor, pai, tsumogiri } => self.dahai(seat(actor)?, &pai, tsumogiri)?,
            Line::Chi { actor, target, pai, consumed } => {
                self.call(MeldKind::Chi, seat(actor)?, seat(target)?, &pai, &consumed)?
            }
            Line::Pon { actor, target, pai, consumed } => {
                self.call(MeldKind::Pon, seat(actor)?, seat(target)?, &pai, &consumed)?
            }
            Line::Daiminkan { actor, target, pai, consumed } => {
                self.call(MeldKind::Daiminkan, seat(actor)?, seat(target)?, &pai, &consumed)?
            }
            Line::Kakan { actor, pai, consumed } => self.kakan(seat(actor)?, &pai, &consumed)?,
            Line::Ankan { actor, consumed } => self.ankan(seat(actor)?, &consumed)?,
            Line::Dora { dora_marker } => {
                let indicator = self.ids.take(&dora_marker)?;
                self.dora.push(indicator);
                self.events.push(Event::NewDora { indicator });
            }
            Line::Reach { actor } => {
                self.events.push(Event::Riichi { who: seat(actor)?, step: 1, scores: None });
                self.prev = Prev::Other;
            }
            Line::Kita { actor, pai } => self.kita(seat(actor)?, pai.as_deref().unwrap_or("N"))?,
            Line::ReachAccepted { actor } => {
                let who = seat(actor)?;
                self.scores[who as usize] -= 1000;
                self.sticks = self.sticks.saturating_add(1);
                self.riichi[who as usize] = true;
                self.events.push(Event::Riichi { who, step: 2, scores: Some(self.scores) });
                self.prev = Prev::ReachAccepted;
            }
            Line::Hora { actor, target, deltas, ura_markers } => {
                let deltas = deltas.ok_or(MjaiError::HoraWithoutDeltas)?;
                self.hora(seat(actor)?, seat(target)?, deltas, ura_markers.unwrap_or_default())?;
                self.result = Some(true);
            }
            Line::Ryukyoku { deltas } => {
                self.ryukyoku(deltas.unwrap_or([0; 4]));
                self.result = Some(false);
            }
            Line::None
            | Line::StartGame { .. }
            | Line::StartKyoku { .. }
            | Line::EndKyoku
            | Line::EndGame { .. } => {
                unreachable!("handled by the game")
            }
        }
        Ok(())
    }

    fn tsumo(&mut self, who: u8, pai: &str) -> Result<(), MjaiError> {
        let tile = self.ids.take(pai)?;
        self.hands[who as usize].push(tile);
        self.last_draw[who as usize] = Some(tile);
        self.draws += 1;
        self.offered = None;
        self.prev = Prev::Draw(who);
        self.events.push(Event::Draw { who, tile });
        Ok(())
    }

    /// Takes a tile named `pai` out of a seat's hand, preferring (`prefer_drawn`) or avoiding the
    /// tile it just drew, so that tsumogiri survives the trip.
    fn take_from_hand(&mut self, who: u8, pai: &str, prefer_drawn: bool) -> Result<TileId, MjaiError> {
        let hand = &self.hands[who as usize];
        let drawn = self.last_draw[who as usize];
        let matching = |&&id: &&TileId| self.ids.matches(id, pai);
        let pick = if prefer_drawn {
            drawn.filter(|d| hand.contains(d) && self.ids.matches(*d, pai))
        } else {
            hand.iter().filter(matching).find(|&&id| Some(id) != drawn).copied()
        };
        let id = pick
            .or_else(|| hand.iter().find(matching).copied())
            .ok_or_else(|| MjaiError::NotInHand { seat: who, tile: pai.to_string() })?;
        let hand = &mut self.hands[who as usize];
        hand.retain(|&t| t != id);
        Ok(id)
    }

    /// A north set aside: from the hand (the drawn one if it is a north), offered to a robbing
    /// ron; the seat's next `tsumo` replaces it.
    fn kita(&mut self, who: u8, pai: &str) -> Result<(), MjaiError> {
        if self.players != 3 || pai != "N" {
            return Err(MjaiError::Kita { seat: who, tile: pai.to_string() });
        }
        let tile = self.take_from_hand(who, pai, true)?;
        self.kita[who as usize].push(tile);
        self.last_draw[who as usize] = None;
        self.offered = Some((who, tile));
        self.prev = Prev::Other;
        self.events.push(Event::Kita { who, tile });
        Ok(())
    }

    fn dahai(&mut self, who: u8, pai: &str, tsumogiri: bool) -> Result<(), MjaiError> {
        if tsumogiri && self.last_draw[who as usize].is_none_or(|d| !self.ids.matches(d, pai)) {
            return Err(MjaiError::TsumogiriNotDrawn { seat: who, tile: pai.to_string() });
        }
        let tile = self.take_from_hand(who, pai, tsumogiri)?;
        self.last_draw[who as usize] = None;
        self.offered = Some((who, tile));
        self.discards += 1;
        self.prev = Prev::Discard;
        self.events.push(Event::Discard { who, tile });
        Ok(())
    }

    fn call(
        &mut self,
        kind: MeldKind,
        who: u8,
        target: u8,
        pai: &str,
        consumed: &[String],
    ) -> Result<(), MjaiError> {
        let need = if kind == MeldKind::Daiminkan { 3 } else { 2 };
        if consumed.len() != need {
            return Err(MjaiError::Consumed { got: consumed.len(), want: need });
        }
        let called = match self.offered {
            Some((w, t)) if w == target && target != who && self.ids.matches(t, pai) => t,
            _ => return Err(MjaiError::NotOffered { seat: who, tile: pai.to_string(), target }),
        };
        let mut tiles = Vec::with_capacity(4);
        for c in consumed {
            tiles.push(self.take_from_hand(who, c, false)?);
        }
        tiles.push(called);
        tiles.sort_unstable();
        let call = Call { kind, tiles, called: Some(called), from: (target + 4 - who) % 4, added: None };
        self.melds[who as usize].push(call.clone());
        if kind == MeldKind::Daiminkan {
            self.kans[who as usize] += 1;
        }
        self.after_call(who, call);
        Ok(())
    }

    fn after_call(&mut self, who: u8, call: Call) {
        self.calls += 1;
        self.offered = None;
        self.last_draw[who as usize] = None;
        self.prev = Prev::Other;
        self.events.push(Event::Call { who, call });
    }

    fn kakan(&mut self, who: u8, pai: &str, consumed: &[String]) -> Result<(), MjaiError> {
        if consumed.len() != 3 {
            return Err(MjaiError::Consumed { got: consumed.len(), want: 3 });
        }
        let (kind, _) = super::tiles::parse_tile(pai)?;
        let pos = self.melds[who as usize]
            .iter()
            .position(|m| m.kind == MeldKind::Pon && m.tiles[0].kind() == kind)
            .ok_or_else(|| MjaiError::NoPon { seat: who, tile: pai.to_string() })?;
        let added = self.take_from_hand(who, pai, false)?;
        let pon = self.melds[who as usize][pos].clone();
        let mut tiles = pon.tiles.clone();
        tiles.push(added);
        let call =
            Call { kind: MeldKind::Kakan, tiles, called: pon.called, from: pon.from, added: Some(added) };
        self.melds[who as usize][pos] = call.clone();
        self.kans[who as usize] += 1;
        self.after_call(who, call);
        self.offered = Some((who, added));
        Ok(())
    }

    fn ankan(&mut self, who: u8, consumed: &[String]) -> Result<(), MjaiError> {
        if consumed.len() != 4 {
            return Err(MjaiError::Consumed { got: consumed.len(), want: 4 });
        }
        let mut tiles = Vec::with_capacity(4);
        for c in consumed {
            tiles.push(self.take_from_hand(who, c, false)?);
        }
        tiles.sort_unstable();
        let call = Call { kind: MeldKind::Ankan, tiles, called: None, from: 0, added: None };
        self.melds[who as usize].push(call.clone());
        self.kans[who as usize] += 1;
        self.after_call(who, call);
        Ok(())
    }

    /// Ura indicators get ids once per round (a double ron repeats them).
    fn ura_ids(&mut self, names: Vec<String>) -> Result<Vec<TileId>, MjaiError> {
        if let Some((seen, ids)) = &self.ura {
            if *seen == names {
                return Ok(ids.clone());
            }
            return Err(MjaiError::UraDiffers { names, first: seen.clone() });
        }
        let ids: Vec<TileId> = names.iter().map(|n| self.ids.take(n)).collect::<Result<_, _>>()?;
        self.ura = Some((names, ids.clone()));
        Ok(ids)
    }

    fn hora(&mut self, who: u8, target: u8, deltas: [i32; 4], ura: Vec<String>) -> Result<(), MjaiError> {
        if deltas.iter().any(|d| d.abs() > 10_000_000) {
            return Err(MjaiError::Deltas(deltas));
        }
        let tsumo = who == target;
        let win_tile = if tsumo {
            self.last_draw[who as usize].ok_or(MjaiError::TsumoNotDrawn(who))?
        } else {
            match self.offered {
                Some((w, t)) if w == target => t,
                _ => return Err(MjaiError::RonNotOffered { seat: who, target }),
            }
        };
        let mut hand = self.hands[who as usize].clone();
        if !tsumo {
            hand.push(win_tile);
        }
        hand.sort_unstable();
        let first = !self.events.iter().any(|e| matches!(e, Event::Agari(_)));
        let ura_indicators = if ura.is_empty() { Vec::new() } else { self.ura_ids(ura)? };
        let agari = Agari {
            who,
            from_who: target,
            pao_who: pao_of(who, target, &deltas),
            honba: self.start.honba,
            sticks: if first { self.sticks } else { 0 },
            hand,
            melds: self.melds[who as usize].clone(),
            win_tile,
            fu: 0,
            points: 0,
            limit: Limit::None,
            yaku: Vec::new(),
            yakuman: Vec::new(),
            dora_indicators: self.dora.clone(),
            ura_indicators,
            kita: self.kita[who as usize].clone(),
            scores_before: self.scores,
            deltas,
        };
        for s in 0..4 {
            self.scores[s] += deltas[s];
        }
        self.sticks = 0;
        self.events.push(Event::Agari(Box::new(agari)));
        Ok(())
    }

    fn ryukyoku(&mut self, deltas: [i32; 4]) {
        let kind = self.draw_kind(&deltas);
        let mut shown: [Option<Vec<TileId>>; 4] = Default::default();
        let show = |s: usize| {
            let mut h = self.hands[s].clone();
            h.sort_unstable();
            Some(h)
        };
        match kind {
            DrawKind::Exhaustive | DrawKind::Nagashi => {
                let paid = deltas.iter().any(|&d| d != 0) && kind == DrawKind::Exhaustive;
                for s in 0..usize::from(self.players) {
                    if if paid { deltas[s] > 0 } else { self.tenpai(s) } {
                        shown[s] = show(s);
                    }
                }
            }
            DrawKind::Yao9 => {
                if let Prev::Draw(w) = self.prev {
                    shown[w as usize] = show(w as usize);
                }
            }
            _ => {}
        }
        self.events.push(Event::Ryuukyoku(Box::new(RoundDraw {
            kind,
            honba: self.start.honba,
            sticks: self.sticks,
            scores_before: self.scores,
            deltas,
            shown,
        })));
        for s in 0..4 {
            self.scores[s] += deltas[s];
        }
    }

    /// How the round was drawn, from the table (mjai's `ryukyoku` does not say).
    fn draw_kind(&self, deltas: &[i32; 4]) -> DrawKind {
        // The live wall: 70 draws, 55 at three players (replacement draws included).
        let live_wall = u32::from(Rules::tenhou(self.players, true, false).live_wall());
        if self.draws >= live_wall {
            // Noten payments are at most 3000 a seat (2000 at three players); nagashi mangan
            // pays at least 2000 from each other seat (6000 in all at three).
            return if deltas.iter().any(|&d| d > 3000) { DrawKind::Nagashi } else { DrawKind::Exhaustive };
        }
        let four = self.players == 4;
        match self.prev {
            Prev::Draw(_) => DrawKind::Yao9,
            Prev::ReachAccepted if four && self.riichi.iter().all(|&r| r) => DrawKind::Reach4,
            _ if self.kans.iter().sum::<u8>() >= 4 && self.kans.iter().all(|&k| k < 4) => DrawKind::Kan4,
            _ if four && self.four_winds() => DrawKind::Kaze4,
            _ => DrawKind::Ron3,
        }
    }

    /// The first four discards are the same wind, with no call.
    fn four_winds(&self) -> bool {
        if self.discards != 4 || self.calls != 0 {
            return false;
        }
        let kinds: Vec<usize> = self
            .events
            .iter()
            .filter_map(|e| if let Event::Discard { tile, .. } = e { Some(tile.kind()) } else { None })
            .collect();
        (27..=30).contains(&kinds[0]) && kinds.iter().all(|&k| k == kinds[0])
    }

    /// Whether a seat's hand is tenpai (shanten 0), for draws whose payments do not say.
    fn tenpai(&self, s: usize) -> bool {
        let tiles: Vec<_> = self.hands[s].iter().map(|id| id.tile(self.red_fives)).collect();
        tenpai(&tiles, self.melds[s].len())
    }
}

/// Whether concealed `tiles` beside `melds` melds are tenpai. A hand that is not 13 tiles with
/// its melds (a broken record's) is not: its shanten is undefined, and the replay refuses the
/// record at its own checks (a fuzzing find: the shanten of a 12-tile hand panicked here).
pub(super) fn tenpai(tiles: &[crate::tile::Tile], melds: usize) -> bool {
    if tiles.len() + 3 * melds != 13 {
        return false;
    }
    let counts = crate::tile::counts_of(tiles);
    let shanten = if melds == 0 {
        crate::hand::shanten::min_shanten(&counts)
    } else {
        crate::hand::shanten::standard(&counts, melds)
    };
    shanten == 0
}

/// The seat liable for a yakuman (pao), read from the payments: a tsumo normally takes from all
/// three other seats, a ron from one; one payer too few, or one too many, names the liable seat.
fn pao_of(who: u8, target: u8, deltas: &[i32; 4]) -> Option<u8> {
    let payers: Vec<u8> = (0..4u8).filter(|&s| s != who && deltas[s as usize] < 0).collect();
    match payers.as_slice() {
        [only] if who == target => Some(*only),
        [a, b] if who != target => [*a, *b].into_iter().find(|&s| s != target),
        _ => None,
    }
}
