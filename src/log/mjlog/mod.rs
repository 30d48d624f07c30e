//! Tenhou mjlog XML (`<mjloggm ver="2.3">`) into a [`Game`], with a quick-xml pull parser: one
//! pass over the tags, no DOM, so a 100 kB log costs one allocation per event and nothing more.
//!
//! The reader translates and checks only what it must to build well-typed events (attribute
//! syntax, tile ids in range, tags in a possible order); whether a discard was in the hand or a
//! score adds up is the replay's job.
//!
//! Tags (the format has no official spec; this follows the records themselves):
//! - `SHUFFLE` (wall seed), `TAIKYOKU` (game start): ignored.
//! - `GO type= lobby=`: rules from the type bits ([`Rules::from_go_type`]).
//! - `UN n0..n3= dan= rate= sx=`: players; names are URL-encoded UTF-8. A later `UN` (one name
//!   only) is a reconnect of that seat.
//! - `INIT seed="round,honba,sticks,dice0,dice1,dora" ten= oya= hai0..hai3=`: a round starts.
//! - `T/U/V/W<id>` draws and `D/E/F/G<id>` discards of seats 0..3.
//! - `N who= m=`: a call, the meld packed in `m` (see [`decode_meld`]).
//! - `REACH who= step= ten=`, `DORA hai=`, `AGARI ...`, `RYUUKYOKU ...`, `BYE who=`.
//!
//! Extra `GO`/`UN` attributes of special lobbies (`rule`, `csrule`, `ranking`, `rc`, `gold`) and
//! unknown attributes in general are ignored; unknown tags are errors, since they would mean
//! events we silently lose.

use std::borrow::Cow;

use quick_xml::events::{BytesStart, Event as XmlEvent};
use quick_xml::Reader;

use super::error::{LogError, XmlPlace};
use super::event::*;
use crate::hand::meld::MeldKind;
use crate::score::Limit;
use crate::tile::TileId;

/// Parses one mjlog XML document. `id` becomes [`Game::id`] (mjlogs do not carry their log id).
pub fn parse_mjlog(id: &str, xml: &[u8]) -> Result<Game, LogError> {
    let mut reader = Reader::from_reader(xml);
    let mut p = Parser::new(id);
    let mut tag_index = 0usize;
    loop {
        let byte = reader.buffer_position();
        let ev = reader.read_event().map_err(|e| xml_error(e, reader.error_position(), xml.len()))?;
        let at = XmlPlace { byte, tag: tag_index, round: p.rounds.len().checked_sub(1) };
        match ev {
            XmlEvent::Start(e) if e.name().as_ref() == "mjloggm" => p.opened = true,
            XmlEvent::End(e) if e.name().as_ref() == "mjloggm" => {
                p.closed = true;
                break;
            }
            XmlEvent::Start(e) | XmlEvent::Empty(e) => {
                if !p.opened {
                    return Err(LogError::Structure { detail: "content before <mjloggm>".into(), at });
                }
                // Draws and discards are most of the tags: handle them without building a Tag.
                if !p.draw_or_discard(e.name().as_ref(), at)? {
                    p.tag(&Tag::new(&e, at)?)?;
                }
                tag_index += 1;
            }
            // `<T12></T12>` style: the End of a tag already handled.
            XmlEvent::End(_) => {}
            XmlEvent::Text(t) => {
                if !t.trim_ascii().is_empty() {
                    return Err(LogError::Structure { detail: "unexpected text between tags".into(), at });
                }
            }
            XmlEvent::GeneralRef(_) | XmlEvent::CData(_) => {
                return Err(LogError::Structure { detail: "unexpected text between tags".into(), at });
            }
            XmlEvent::Decl(_) | XmlEvent::Comment(_) | XmlEvent::PI(_) | XmlEvent::DocType(_) => {}
            XmlEvent::Eof => break,
        }
    }
    p.finish(reader.buffer_position())
}

/// Maps a quick-xml error: running out of input inside a construct is truncation, not malformation.
fn xml_error(e: quick_xml::Error, byte: u64, len: usize) -> LogError {
    use quick_xml::errors::SyntaxError;
    let detail = e.to_string();
    match e {
        quick_xml::Error::Syntax(
            SyntaxError::UnclosedTag
            | SyntaxError::UnclosedComment
            | SyntaxError::UnclosedCData
            | SyntaxError::UnclosedDoctype
            | SyntaxError::UnclosedPI
            | SyntaxError::UnclosedXmlDecl
            | SyntaxError::UnclosedSingleQuotedAttributeValue
            | SyntaxError::UnclosedDoubleQuotedAttributeValue,
        ) => LogError::TruncatedXml { byte: len as u64, detail },
        quick_xml::Error::Encoding(_) => LogError::BinaryJunk { byte },
        _ => LogError::Xml { byte, detail },
    }
}

/// One tag with its attributes borrowed from the input.
struct Tag<'a> {
    name: String,
    attrs: Vec<(String, Cow<'a, str>)>,
    at: XmlPlace,
}

impl<'a> Tag<'a> {
    fn new(e: &'a BytesStart<'_>, at: XmlPlace) -> Result<Tag<'a>, LogError> {
        let name = e.name().as_ref().to_string();
        let mut attrs = Vec::new();
        for a in e.attributes() {
            let a = a.map_err(|err| LogError::Xml { byte: at.byte, detail: format!("<{name}>: {err}") })?;
            let key = a.key.as_ref().to_string();
            let value = if a.value.contains('&') {
                Cow::Owned(
                    a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .map_err(|err| LogError::Xml { byte: at.byte, detail: format!("<{name}>: {err}") })?
                        .into_owned(),
                )
            } else {
                a.value
            };
            attrs.push((key, value));
        }
        Ok(Tag { name, attrs, at })
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_ref())
    }

    fn req(&self, key: &str) -> Result<&str, LogError> {
        self.get(key).ok_or_else(|| LogError::MissingAttribute {
            tag: self.name.clone(),
            attr: key.into(),
            at: self.at,
        })
    }

    fn bad(&self, key: &str, value: &str) -> LogError {
        LogError::BadAttribute { tag: self.name.clone(), attr: key.into(), value: value.into(), at: self.at }
    }

    fn num<T: std::str::FromStr>(&self, key: &str, text: &str) -> Result<T, LogError> {
        text.trim().parse().map_err(|_| self.bad(key, text))
    }

    fn int<T: std::str::FromStr>(&self, key: &str) -> Result<T, LogError> {
        self.num(key, self.req(key)?)
    }

    fn opt_int<T: std::str::FromStr>(&self, key: &str) -> Result<Option<T>, LogError> {
        self.get(key).map(|v| self.num(key, v)).transpose()
    }

    /// A seat 0..=3.
    fn seat(&self, key: &str) -> Result<u8, LogError> {
        let v = self.req(key)?;
        match self.num::<u8>(key, v)? {
            s @ 0..=3 => Ok(s),
            _ => Err(self.bad(key, v)),
        }
    }

    /// A comma-separated list of numbers (empty string = empty list).
    fn list<T: std::str::FromStr>(&self, key: &str, text: &str) -> Result<Vec<T>, LogError> {
        if text.trim().is_empty() {
            return Ok(Vec::new());
        }
        text.split(',').map(|s| self.num(key, s).map_err(|_| self.bad(key, text))).collect()
    }

    fn tile_value(&self, text: &str) -> Result<TileId, LogError> {
        let v: u32 = text.trim().parse().map_err(|_| self.bad("tile", text))?;
        TileId::new(v).ok_or_else(|| LogError::TileOutOfRange {
            tag: self.name.clone(),
            value: text.into(),
            at: self.at,
        })
    }

    /// A comma-separated list of tile ids; an absent attribute is an empty list.
    fn tiles(&self, key: &str) -> Result<Vec<TileId>, LogError> {
        match self.get(key) {
            None => Ok(Vec::new()),
            Some(v) if v.trim().is_empty() => Ok(Vec::new()),
            Some(v) => v
                .split(',')
                .map(|s| {
                    self.tile_value(s).map_err(|e| match e {
                        LogError::BadAttribute { .. } => self.bad(key, v),
                        e => e,
                    })
                })
                .collect(),
        }
    }

    /// `n` numbers exactly.
    fn fixed<T: std::str::FromStr + Copy, const N: usize>(&self, key: &str) -> Result<[T; N], LogError> {
        let text = self.req(key)?;
        let v: Vec<T> = self.list(key, text)?;
        v.try_into().map_err(|_| self.bad(key, text))
    }

    /// `sc="s0,d0,s1,d1,..."` in hundreds: scores before and deltas, in points.
    /// Chip lobbies append 8 more values (chips and their change), which we drop.
    fn score_pairs(&self) -> Result<([i32; 4], [i32; 4]), LogError> {
        let text = self.req("sc")?;
        let all: Vec<i32> = self.list("sc", text)?;
        if all.len() != 8 && all.len() != 16 {
            return Err(self.bad("sc", text));
        }
        let sc = &all[..8];
        let pts = |v: i32| points(v).ok_or_else(|| self.bad("sc", text));
        let before = [pts(sc[0])?, pts(sc[2])?, pts(sc[4])?, pts(sc[6])?];
        let delta = [pts(sc[1])?, pts(sc[3])?, pts(sc[5])?, pts(sc[7])?];
        Ok((before, delta))
    }

    /// Four scores in hundreds, as points.
    fn scores(&self, key: &str) -> Result<[i32; 4], LogError> {
        let v: [i32; 4] = self.fixed(key)?;
        let bad = || self.bad(key, self.get(key).unwrap_or_default());
        Ok([
            points(v[0]).ok_or_else(bad)?,
            points(v[1]).ok_or_else(bad)?,
            points(v[2]).ok_or_else(bad)?,
            points(v[3]).ok_or_else(bad)?,
        ])
    }

    /// `ba="honba,sticks"`.
    fn ba(&self) -> Result<(u8, u8), LogError> {
        let [h, s]: [u8; 2] = self.fixed("ba")?;
        Ok((h, s))
    }
}

/// Hundreds to points; `None` past ±10 million points (no real score comes near; it keeps
/// every later sum far from overflow).
fn points(hundreds: i32) -> Option<i32> {
    (-100_000..=100_000).contains(&hundreds).then(|| hundreds * 100)
}

struct Parser {
    id: String,
    rules: Option<Rules>,
    players: Option<[Player; 4]>,
    rounds: Vec<Round>,
    /// Events seen before the first INIT (BYE, reconnects): they open the first round.
    early: Vec<Event>,
    final_scores: Option<[i32; 4]>,
    final_results: Option<[f32; 4]>,
    opened: bool,
    closed: bool,
}

impl Parser {
    fn new(id: &str) -> Parser {
        Parser {
            id: id.to_string(),
            rules: None,
            players: None,
            rounds: Vec::new(),
            early: Vec::new(),
            final_scores: None,
            final_results: None,
            opened: false,
            closed: false,
        }
    }

    fn push(&mut self, t: &Tag, ev: Event) -> Result<(), LogError> {
        match self.rounds.last_mut() {
            Some(r) => {
                r.events.push(ev);
                Ok(())
            }
            None => {
                Err(LogError::Structure { detail: format!("<{}> before the first INIT", t.name), at: t.at })
            }
        }
    }

    /// Draws and discards: one letter and the tile id, e.g. `<T77/>`, `<D120/>`. Returns false
    /// when the name is not of that shape.
    fn draw_or_discard(&mut self, name: &str, at: XmlPlace) -> Result<bool, LogError> {
        let b = name.as_bytes();
        if b.len() < 2 || !b[1..].iter().all(u8::is_ascii_digit) {
            return Ok(false);
        }
        let (who, draw) = match b[0] {
            b'T' => (0, true),
            b'U' => (1, true),
            b'V' => (2, true),
            b'W' => (3, true),
            b'D' => (0, false),
            b'E' => (1, false),
            b'F' => (2, false),
            b'G' => (3, false),
            _ => return Err(LogError::UnknownTag { tag: name.into(), at }),
        };
        let out_of_range = || LogError::TileOutOfRange { tag: name.into(), value: name[1..].into(), at };
        let tile = name[1..].parse::<u32>().ok().and_then(TileId::new).ok_or_else(out_of_range)?;
        let ev = if draw { Event::Draw { who, tile } } else { Event::Discard { who, tile } };
        match self.rounds.last_mut() {
            Some(r) => r.events.push(ev),
            None => {
                let detail = format!("<{name}> before the first INIT");
                return Err(LogError::Structure { detail, at });
            }
        }
        Ok(true)
    }

    fn tag(&mut self, t: &Tag) -> Result<(), LogError> {
        let name = t.name.as_str();
        match name {
            "SHUFFLE" | "TAIKYOKU" => Ok(()),
            "GO" => self.go(t),
            "UN" => self.un(t),
            "INIT" => self.init(t),
            "N" => {
                let who = t.seat("who")?;
                let m: u32 = t.int("m")?;
                match decode_meld(m) {
                    Ok(call) => self.push(t, Event::Call { who, call }),
                    Err(MeldError::Nuki) => {
                        let tile =
                            decode_kita(m).ok_or_else(|| t.bad("m", t.get("m").unwrap_or_default()))?;
                        self.push(t, Event::Kita { who, tile })
                    }
                    Err(MeldError::Bad) => Err(t.bad("m", t.get("m").unwrap_or_default())),
                }
            }
            "REACH" => {
                let who = t.seat("who")?;
                let step: u8 = t.int("step")?;
                if !(1..=2).contains(&step) {
                    return Err(t.bad("step", t.get("step").unwrap_or_default()));
                }
                let scores = match t.get("ten") {
                    Some(_) => Some(t.scores("ten")?),
                    None => None,
                };
                self.push(t, Event::Riichi { who, step, scores })
            }
            "DORA" => {
                let indicator = t.tile_value(t.req("hai")?)?;
                self.push(t, Event::NewDora { indicator })
            }
            "AGARI" => {
                let agari = self.agari(t)?;
                self.owari(t)?;
                self.push(t, Event::Agari(Box::new(agari)))
            }
            "RYUUKYOKU" => {
                let draw = match (t.get("ba"), t.get("sc"), self.rounds.last()) {
                    (None, None, Some(r)) => RoundDraw {
                        kind: DrawKind::Aborted,
                        honba: r.start.honba,
                        sticks: r.start.sticks,
                        scores_before: r.start.scores,
                        deltas: [0; 4],
                        shown: Default::default(),
                    },
                    _ => ryuukyoku(t)?,
                };
                self.owari(t)?;
                self.push(t, Event::Ryuukyoku(Box::new(draw)))
            }
            "BYE" => {
                let who = t.seat("who")?;
                self.push_anywhere(Event::Disconnect { who });
                Ok(())
            }
            _ => Err(LogError::UnknownTag { tag: name.into(), at: t.at }),
        }
    }

    /// Disconnects and reconnects can come before the first INIT; keep them for the first round.
    fn push_anywhere(&mut self, ev: Event) {
        match self.rounds.last_mut() {
            Some(r) => r.events.push(ev),
            None => self.early.push(ev),
        }
    }

    fn go(&mut self, t: &Tag) -> Result<(), LogError> {
        let go_type: u32 = t.int("type")?;
        let lobby: Option<u32> = t.opt_int("lobby")?;
        self.rules = Some(Rules::from_go_type(go_type, lobby));
        Ok(())
    }

    fn un(&mut self, t: &Tag) -> Result<(), LogError> {
        if self.players.is_some() {
            // A later UN names only the seat(s) coming back.
            for who in 0..4u8 {
                if t.get(&format!("n{who}")).is_some() {
                    self.push_anywhere(Event::Reconnect { who });
                }
            }
            return Ok(());
        }
        let dan: Vec<u8> = match t.get("dan") {
            Some(v) => t.list("dan", v)?,
            None => Vec::new(),
        };
        let rate: Vec<f32> = match t.get("rate") {
            Some(v) => t.list("rate", v)?,
            None => Vec::new(),
        };
        let sx: Vec<&str> = t.get("sx").map(|v| v.split(',').collect()).unwrap_or_default();
        let mut players: [Player; 4] = Default::default();
        for (i, p) in players.iter_mut().enumerate() {
            let key = format!("n{i}");
            if let Some(raw) = t.get(&key) {
                p.name = percent_encoding::percent_decode_str(raw)
                    .decode_utf8()
                    .map_err(|_| t.bad(&key, raw))?
                    .into_owned();
            }
            p.dan = dan.get(i).copied();
            p.rate = rate.get(i).copied();
            p.sex = sx.get(i).filter(|s| !s.is_empty()).map(|s| s.to_string());
        }
        self.players = Some(players);
        Ok(())
    }

    fn init(&mut self, t: &Tag) -> Result<(), LogError> {
        let seed: [u32; 6] = t.fixed("seed")?;
        let small =
            |i: usize| u8::try_from(seed[i]).map_err(|_| t.bad("seed", t.get("seed").unwrap_or_default()));
        let dora_indicator = TileId::new(seed[5]).ok_or_else(|| LogError::TileOutOfRange {
            tag: t.name.clone(),
            value: seed[5].to_string(),
            at: t.at,
        })?;
        let scores = t.scores("ten")?;
        let dealer = t.seat("oya")?;
        let mut hands: [Vec<TileId>; 4] = Default::default();
        for (i, h) in hands.iter_mut().enumerate() {
            *h = t.tiles(&format!("hai{i}"))?;
        }
        let players = self.rules.map_or(4, |r| r.players);
        if players == 4 && hands[3].is_empty() && !hands[0].is_empty() {
            let detail = "INIT deals no hand to seat 3, yet GO states four players (a 3-player game has \
                          GO type bit 0x10)"
                .into();
            return Err(LogError::Structure { detail, at: t.at });
        }
        if players == 3 && !hands[3].is_empty() {
            let detail = "INIT deals a hand to seat 3, yet GO states three players (type bit 0x10)".into();
            return Err(LogError::Structure { detail, at: t.at });
        }
        let start = RoundStart {
            round: small(0)?,
            honba: small(1)?,
            sticks: small(2)?,
            dice: [small(3)?, small(4)?],
            dora_indicator,
            scores,
            dealer,
            hands,
        };
        let events = if self.rounds.is_empty() { std::mem::take(&mut self.early) } else { Vec::new() };
        self.rounds.push(Round { start, events });
        Ok(())
    }

    fn agari(&self, t: &Tag) -> Result<Agari, LogError> {
        let who = t.seat("who")?;
        let from_who = t.seat("fromWho")?;
        let pao_who = match t.get("paoWho") {
            Some(_) => Some(t.seat("paoWho")?),
            None => None,
        };
        let (honba, sticks) = t.ba()?;
        let mut hand = t.tiles("hai")?;
        // `m` lists the winner's melds, and at three players its set-aside norths too.
        let (mut melds, mut kita) = (Vec::new(), Vec::new());
        if let Some(v) = t.get("m") {
            for m in t.list::<u32>("m", v)? {
                match decode_meld(m) {
                    Ok(call) => melds.push(call),
                    Err(MeldError::Nuki) => kita.push(decode_kita(m).ok_or_else(|| t.bad("m", v))?),
                    Err(MeldError::Bad) => return Err(t.bad("m", v)),
                }
            }
        }
        let win_tile = t.tile_value(t.req("machi")?)?;
        let ten: [u32; 3] = t.fixed("ten")?;
        let limit =
            Limit::from_tenhou(ten[2]).ok_or_else(|| t.bad("ten", t.get("ten").unwrap_or_default()))?;
        let yaku: Vec<(u8, u8)> = match t.get("yaku") {
            Some(v) => {
                let flat: Vec<u8> = t.list("yaku", v)?;
                if flat.len() % 2 != 0 {
                    return Err(t.bad("yaku", v));
                }
                flat.chunks(2).map(|c| (c[0], c[1])).collect()
            }
            None => Vec::new(),
        };
        let yakuman: Vec<u8> = match t.get("yakuman") {
            Some(v) => t.list("yakuman", v)?,
            None => Vec::new(),
        };
        let (scores_before, deltas) = t.score_pairs()?;
        // Some bot-test records (tenhou-python-bot fixtures) leave the winning tile out of `hai`;
        // put it back so `hand` always holds 14 tiles less 3 per meld.
        if hand.len() + 3 * melds.len() == 13 && !hand.contains(&win_tile) {
            hand.push(win_tile);
            hand.sort();
        }
        Ok(Agari {
            who,
            from_who,
            pao_who,
            honba,
            sticks,
            hand,
            melds,
            win_tile,
            fu: ten[0],
            points: i32::try_from(ten[1]).map_err(|_| t.bad("ten", t.get("ten").unwrap_or_default()))?,
            limit,
            yaku,
            yakuman,
            dora_indicators: t.tiles("doraHai")?,
            ura_indicators: t.tiles("doraHaiUra")?,
            kita,
            scores_before,
            deltas,
        })
    }

    /// `owari="s0,r0,s1,r1,..."`: final scores (hundreds) and results, on the game's last tag.
    fn owari(&mut self, t: &Tag) -> Result<(), LogError> {
        let Some(v) = t.get("owari") else { return Ok(()) };
        if v.trim().is_empty() {
            // A game the server aborted (see DrawKind::Aborted) ends with owari="".
            return Ok(());
        }
        let flat: Vec<f64> = t.list("owari", v)?;
        // 8 values, or 16 in chip lobbies (chips appended, dropped here).
        if flat.len() != 8 && flat.len() != 16 {
            return Err(t.bad("owari", v));
        }
        self.final_scores = Some(std::array::from_fn(|i| (flat[2 * i] * 100.0).round() as i32));
        self.final_results = Some(std::array::from_fn(|i| flat[2 * i + 1] as f32));
        Ok(())
    }

    fn finish(self, end_byte: u64) -> Result<Game, LogError> {
        let at = XmlPlace { byte: end_byte, tag: 0, round: self.rounds.len().checked_sub(1) };
        if !self.opened {
            return Err(LogError::Structure { detail: "no <mjloggm> root".into(), at });
        }
        if !self.closed {
            return Err(LogError::TruncatedXml { byte: end_byte, detail: "no closing </mjloggm>".into() });
        }
        if self.rounds.is_empty() {
            return Err(LogError::Structure { detail: "no INIT (no rounds)".into(), at });
        }
        Ok(Game {
            id: self.id,
            rules: self.rules.unwrap_or_else(|| Rules::from_go_type(0, None)),
            players: self.players.unwrap_or_default(),
            rounds: self.rounds,
            final_scores: self.final_scores,
            final_results: self.final_results,
        })
    }
}

fn ryuukyoku(t: &Tag) -> Result<RoundDraw, LogError> {
    let kind =
        DrawKind::from_tenhou(t.get("type")).ok_or_else(|| t.bad("type", t.get("type").unwrap_or("")))?;
    let (honba, sticks) = t.ba()?;
    let (scores_before, deltas) = t.score_pairs()?;
    let mut shown: [Option<Vec<TileId>>; 4] = Default::default();
    for (i, s) in shown.iter_mut().enumerate() {
        let key = format!("hai{i}");
        if t.get(&key).is_some() {
            *s = Some(t.tiles(&key)?);
        }
    }
    Ok(RoundDraw { kind, honba, sticks, scores_before, deltas, shown })
}

/// The north of a set-aside code (`m = id << 8 | 0x20`, docs/sanma.md); `None` for any other
/// value with bit 0x20.
pub fn decode_kita(m: u32) -> Option<TileId> {
    let tile = TileId::new(m >> 8).filter(|t| t.kind() == crate::tile::NORTH)?;
    (m & 0xFF == 0x20).then_some(tile)
}

/// The code of a set-aside north, as mjlog writes it in `N` and `AGARI m`.
pub fn encode_kita(tile: TileId) -> u32 {
    u32::from(tile.get()) << 8 | 0x20
}

/// Why a call's `m` could not be decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeldError {
    /// Bit 5 alone: a kita (North) extraction, which exists only in 3-player games.
    Nuki,
    /// The bits do not describe a possible meld.
    Bad,
}

/// Decodes the `m` attribute of `N` (and of `AGARI`) into a [`Call`].
///
/// Layout, low bits first (16 bits used):
/// - bits 0-1: who the tile came from, relative to the caller: 0 = self (ankan),
///   1 = next seat (shimocha), 2 = across (toimen), 3 = previous seat (kamicha).
/// - bit 2 set → **chi**. bits 3-4, 5-6, 7-8: the copy (id % 4) of the run's 1st, 2nd, 3rd tile.
///   bits 10-15: `t = 3 * base + called`, where `called` (0..2) is which of the three tiles was
///   taken, and `base` (0..20) numbers the runs 7 per suit: kind of the lowest tile =
///   `base / 7 * 9 + base % 7`.
/// - else bit 3 set → **pon**; else bit 4 set → **kakan** (a pon upgraded). Both: bits 5-6 =
///   the copy *not* in the pon (for kakan: the copy added); bits 9-15: `t = 3 * kind + called`,
///   `called` (0..2) indexing the pon's three tiles in id order.
/// - else bit 5 set → nuki (kita, sanma only).
/// - else **kan**: bits 8-15 = the id of the called tile (for ankan, of one of the four); the
///   kan holds all four copies of that kind. From-bits 0 → ankan, else daiminkan.
pub fn decode_meld(m: u32) -> Result<Call, MeldError> {
    if m > 0xFFFF {
        return Err(MeldError::Bad);
    }
    let from = (m & 3) as u8;
    let id = |v: u32| TileId::new(v).ok_or(MeldError::Bad);
    if m & 0x4 != 0 {
        let t = m >> 10;
        let called = (t % 3) as usize;
        let base = t / 3;
        if base >= 21 || from == 0 {
            return Err(MeldError::Bad);
        }
        let kind = base / 7 * 9 + base % 7;
        let copies = [(m >> 3) & 3, (m >> 5) & 3, (m >> 7) & 3];
        let tiles = (0..3).map(|i| id((kind + i as u32) * 4 + copies[i])).collect::<Result<Vec<_>, _>>()?;
        let called = Some(tiles[called]);
        return Ok(Call { kind: MeldKind::Chi, tiles, called, from, added: None });
    }
    if m & 0x18 != 0 {
        let t = m >> 9;
        let called = (t % 3) as usize;
        let kind = t / 3;
        if kind >= 34 || from == 0 {
            return Err(MeldError::Bad);
        }
        let unused = (m >> 5) & 3;
        let pon: Vec<TileId> =
            (0..4).filter(|&c| c != unused).map(|c| id(kind * 4 + c)).collect::<Result<_, _>>()?;
        let called = Some(pon[called]);
        if m & 0x8 != 0 {
            return Ok(Call { kind: MeldKind::Pon, tiles: pon, called, from, added: None });
        }
        let added = id(kind * 4 + unused)?;
        let mut tiles = pon;
        tiles.push(added);
        return Ok(Call { kind: MeldKind::Kakan, tiles, called, from, added: Some(added) });
    }
    if m & 0x20 != 0 {
        return Err(MeldError::Nuki);
    }
    let called = m >> 8;
    if called >= 136 {
        return Err(MeldError::Bad);
    }
    let kind = called / 4;
    let tiles = (0..4).map(|c| id(kind * 4 + c)).collect::<Result<Vec<_>, _>>()?;
    if from == 0 {
        Ok(Call { kind: MeldKind::Ankan, tiles, called: None, from: 0, added: None })
    } else {
        Ok(Call { kind: MeldKind::Daiminkan, tiles, called: Some(id(called)?), from, added: None })
    }
}

/// A one-round game (a riichi, then a win), small enough to build test archives,
/// databases and zips in the tests of any log module without the shared data.
#[cfg(test)]
pub(crate) const SMALL_MJLOG: &str = r#"<mjloggm ver="2.3">
<SHUFFLE seed="x" ref=""/>
<GO type="169" lobby="0"/>
<UN n0="%E3%81%82" n1="B" n2="C" n3="%E2%93%9DAI" dan="16,17,0,20" rate="2121.5,2181,1500,2300" sx="M,F,C,M"/>
<BYE who="2" />
<TAIKYOKU oya="0"/>
<INIT seed="0,0,0,3,4,20" ten="250,250,250,250" oya="0" hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" hai1="13,14,15,16,17,18,19,21,22,23,24,25,26" hai2="27,28,29,30,31,32,33,34,35,36,37,38,39" hai3="40,41,42,43,44,45,46,47,48,49,50,51,53"/>
<UN n2="C"/>
<T60/><REACH who="0" step="1"/><D60/><REACH who="0" ten="240,250,250,250" step="2"/><DORA hai="61"/>
<AGARI ba="0,1" hai="0,1,2,3,4,5,6,7,8,9,10,11,12,60" machi="60" ten="40,12000,1" yaku="1,1,52,2" yakuman="" doraHai="20,61" doraHaiUra="62" who="0" fromWho="0" sc="240,130,250,-40,250,-40,250,-40" owari="370,47.0,210,-9.0,210,-19.0,210,-19.0"/>
</mjloggm>"#;

pub mod write;

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[u32]) -> Vec<TileId> {
        v.iter().map(|&i| TileId::new(i).unwrap()).collect()
    }

    // Expected values below were worked out by hand from the bit layout and checked against
    // the tags around them in 2010081709gm-00a9-0000-fe3371ad.mjlog (the discard just before).
    #[test]
    fn chi_bits() {
        // <D11/><N who="1" m="6367"/>: seat 1 chis 3m (id 11) from seat 0 with 4m 5m.
        let c = decode_meld(6367).unwrap();
        assert_eq!(
            c,
            Call {
                kind: MeldKind::Chi,
                tiles: ids(&[11, 14, 17]),
                called: Some(ids(&[11])[0]),
                from: 3,
                added: None
            }
        );
    }

    #[test]
    fn pon_bits() {
        // <D120/><N who="3" m="46185"/>: seat 3 pons North (id 120) from seat 0 (its next seat).
        let c = decode_meld(46185).unwrap();
        assert_eq!(
            c,
            Call {
                kind: MeldKind::Pon,
                tiles: ids(&[120, 121, 122]),
                called: Some(ids(&[120])[0]),
                from: 1,
                added: None
            }
        );
        // <D118/><N who="1" m="45067"/>: seat 1 pons West 118 from seat 0 (previous seat).
        let c = decode_meld(45067).unwrap();
        assert_eq!(
            (c.kind, c.tiles, c.called, c.from),
            (MeldKind::Pon, ids(&[117, 118, 119]), Some(ids(&[118])[0]), 3)
        );
    }

    #[test]
    fn kan_bits() {
        // m = 1024: 1024 >> 8 = 4 → 2m, from bits 0 → closed kan of ids 4..7.
        let c = decode_meld(1024).unwrap();
        assert_eq!(
            c,
            Call { kind: MeldKind::Ankan, tiles: ids(&[4, 5, 6, 7]), called: None, from: 0, added: None }
        );
        // m = 5169 = 0x1431: kakan; t = 10 → 4m, called index 1; the missing copy 1 is the added tile.
        let c = decode_meld(5169).unwrap();
        assert_eq!(c.kind, MeldKind::Kakan);
        assert_eq!(c.tiles, ids(&[12, 14, 15, 13]));
        assert_eq!((c.called, c.added, c.from), (Some(ids(&[14])[0]), Some(ids(&[13])[0]), 1));
        // Open kan: called id 130 (7z copy 2) from across: (130 << 8) | 2.
        let c = decode_meld((130 << 8) | 2).unwrap();
        assert_eq!(
            c,
            Call {
                kind: MeldKind::Daiminkan,
                tiles: ids(&[128, 129, 130, 131]),
                called: Some(ids(&[130])[0]),
                from: 2,
                added: None
            }
        );
    }

    #[test]
    fn impossible_bits_are_errors() {
        assert_eq!(decode_meld(0x20), Err(MeldError::Nuki));
        assert_eq!(decode_meld(136 << 8 | 1), Err(MeldError::Bad));
        assert_eq!(decode_meld(63 << 10 | 0x4 | 3), Err(MeldError::Bad), "chi base 21 is past 7s-8s-9s");
        assert_eq!(decode_meld(0x4), Err(MeldError::Bad), "chi from self");
        assert_eq!(decode_meld(1 << 16), Err(MeldError::Bad));
    }

    const SMALL: &str = super::SMALL_MJLOG;

    /// Scores at the edge of i32 (`i32::MIN.abs()` overflowed): an error naming the field.
    #[test]
    fn extreme_scores_are_errors() {
        for v in ["-2147483648", "2147483647"] {
            let xml = SMALL.replace(r#"ten="250,250,250,250" oya"#, &format!(r#"ten="{v},250,250,250" oya"#));
            let e = parse_mjlog("edge", xml.as_bytes()).unwrap_err();
            assert!(e.to_string().contains("ten"), "{v}: {e}");
        }
    }

    #[test]
    fn a_small_game_decodes_field_by_field() {
        let g = parse_mjlog("small", SMALL.as_bytes()).unwrap();
        assert_eq!(g.id, "small");
        assert_eq!(g.rules.table, TableLevel::Houou);
        assert!(g.rules.hanchan && g.rules.red_fives() && g.rules.kuitan && !g.rules.fast);
        assert_eq!(g.players[0].name, "あ");
        assert_eq!(g.players[3].name, "ⓝAI");
        assert!(g.players[3].is_ai());
        assert_eq!(g.players[1].dan, Some(17));
        assert_eq!(g.players[0].rate, Some(2121.5));
        assert_eq!(g.players[1].sex.as_deref(), Some("F"));
        let r = &g.rounds[0];
        assert_eq!(r.start.dice, [3, 4]);
        assert_eq!(r.start.scores, [25000; 4]);
        assert_eq!(r.start.dora_indicator.get(), 20);
        assert_eq!(r.start.hands[3][12].get(), 53);
        // BYE before the first INIT opens the first round; the later UN is a reconnect.
        assert_eq!(r.events[0], Event::Disconnect { who: 2 });
        assert_eq!(r.events[1], Event::Reconnect { who: 2 });
        assert_eq!(r.events[3], Event::Riichi { who: 0, step: 1, scores: None });
        assert_eq!(
            r.events[5],
            Event::Riichi { who: 0, step: 2, scores: Some([24000, 25000, 25000, 25000]) }
        );
        assert_eq!(r.events[6], Event::NewDora { indicator: TileId::new(61).unwrap() });
        let Event::Agari(a) = &r.events[7] else { panic!("{:?}", r.events[7]) };
        assert_eq!((a.who, a.from_who, a.honba, a.sticks, a.fu, a.points), (0, 0, 0, 1, 40, 12000));
        assert_eq!(a.limit, Limit::Mangan);
        assert_eq!(a.yaku, [(1, 1), (52, 2)]);
        assert!(a.yakuman.is_empty());
        assert_eq!(a.ura_indicators, ids(&[62]));
        assert_eq!(a.scores_before, [24000, 25000, 25000, 25000]);
        assert_eq!(a.deltas, [13000, -4000, -4000, -4000]);
        assert_eq!(g.final_scores, Some([37000, 21000, 21000, 21000]));
        assert_eq!(g.final_results, Some([47.0, -9.0, -19.0, -19.0]));
    }

    #[test]
    fn draws_before_init_and_missing_root_are_structure_errors() {
        let e = parse_mjlog("x", b"<mjloggm ver=\"2.3\"><T12/></mjloggm>").unwrap_err();
        assert!(matches!(e, LogError::Structure { .. }), "{e}");
        let e = parse_mjlog("x", b"<mjloggm ver=\"2.3\"><GO type=\"169\"/></mjloggm>").unwrap_err();
        assert!(e.to_string().contains("no INIT"), "{e}");
        let e = parse_mjlog("x", b"<mjloggm ver=\"2.3\"><GO type=\"169\"/>").unwrap_err();
        assert!(matches!(e, LogError::TruncatedXml { .. }), "{e}");
    }
}
