//! Typed game records: what every reader (mjlog XML, tenhou.net/6 JSON) produces and what the
//! replay consumes. The types mirror Tenhou's mjlog tags closely, so that a reader stays a thin
//! translation and all judgement (is this discard legal? does this score add up?) lives in replay.
//!
//! Seats are absolute (0 = the game's first dealer). Scores are in points (Tenhou writes
//! hundreds; readers multiply). Tiles are Tenhou ids, so the replay can prove that no tile
//! appears twice.

use crate::hand::meld::MeldKind;
use crate::score::Limit;
use crate::tile::TileId;

pub use super::rules::{Rules, TableLevel, MAX_SEATS};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Player {
    /// Decoded UTF-8 name.
    pub name: String,
    /// Tenhou dan index (0 = 新人 ... 10 = 初段 ... 20 = 天鳳位); `None` when not recorded.
    pub dan: Option<u8>,
    pub rate: Option<f32>,
    pub sex: Option<String>,
}

impl Player {
    /// A Tenhou dan index in plain ASCII, for tables and plots: `novice` (新人), `9 kyu` ...
    /// `1 kyu`, `1 dan` (初段) ... `10 dan`, `tenhou` (天鳳位); `dan N` past the known range.
    pub fn dan_label(dan: u8) -> String {
        match dan {
            0 => "novice".into(),
            1..=9 => format!("{} kyu", 10 - dan),
            10..=19 => format!("{} dan", dan - 9),
            20 => "tenhou".into(),
            _ => format!("dan {dan}"),
        }
    }

    /// AI seats on Tenhou carry names starting with ⓝ (Suphx, LuckyJ, NAGA).
    pub fn is_ai(&self) -> bool {
        self.name.starts_with('ⓝ')
    }
}

/// A whole game record.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// Tenhou log id when known, else the file's stem.
    pub id: String,
    pub rules: Rules,
    pub players: [Player; 4],
    pub rounds: Vec<Round>,
    /// Final scores in points and uma/oka-adjusted results, from `owari` (when the game ended).
    pub final_scores: Option<[i32; 4]>,
    pub final_results: Option<[f32; 4]>,
}

impl Game {
    /// The day the game was played, `YYYY-MM-DD`, read from a Tenhou log id
    /// (`2010091009gm-00a9-0000-83af2648`: the date, the hour, then `gm-`); `None` for any other
    /// id (a file stem, a self-play game).
    pub fn date(&self) -> Option<String> {
        date_of_id(&self.id)
    }
}

/// [`Game::date`] of a game id (as the `game_id` columns of an ingest hold them).
pub fn date_of_id(id: &str) -> Option<String> {
    let b = id.as_bytes();
    if b.len() < 13 || !b[..10].iter().all(u8::is_ascii_digit) || &b[10..13] != b"gm-" {
        return None;
    }
    let (month, day) = (&id[4..6], &id[6..8]);
    let ok = |x: &str, hi: u8| x.parse::<u8>().is_ok_and(|v| (1..=hi).contains(&v));
    (ok(month, 12) && ok(day, 31)).then(|| format!("{}-{month}-{day}", &id[..4]))
}

#[cfg(test)]
mod date_tests {
    use super::*;

    #[test]
    fn dates_come_from_tenhou_ids_only() {
        let game = |id: &str| Game {
            id: id.into(),
            rules: Rules::tenhou(4, true, true),
            players: Default::default(),
            rounds: Vec::new(),
            final_scores: None,
            final_results: None,
        };
        assert_eq!(game("2010091009gm-00a9-0000-83af2648").date().as_deref(), Some("2010-09-10"));
        assert_eq!(game("2010131009gm-00a9-0000-83af2648").date(), None, "month 13");
        assert_eq!(game("sim-7-0").date(), None);
        assert_eq!(game("2010091009").date(), None);
        assert_eq!(Player::dan_label(0), "novice");
        assert_eq!(Player::dan_label(1), "9 kyu");
        assert_eq!(Player::dan_label(10), "1 dan");
        assert_eq!(Player::dan_label(16), "7 dan");
        assert_eq!(Player::dan_label(20), "tenhou");
    }
}

/// The start of a round (INIT).
#[derive(Clone, Debug, PartialEq)]
pub struct RoundStart {
    /// 0 = East 1, 1 = East 2, ..., 4 = South 1, 8 = West 1.
    pub round: u8,
    pub honba: u8,
    /// Riichi sticks on the table at the start.
    pub sticks: u8,
    pub dice: [u8; 2],
    pub dora_indicator: TileId,
    /// Scores in points at the start of the round.
    pub scores: [i32; 4],
    pub dealer: u8,
    /// Dealt hands, 13 tiles each.
    pub hands: [Vec<TileId>; 4],
}

/// One round: its start and its events in order, ending with one or two `Agari` or a `Draw`.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub start: RoundStart,
    pub events: Vec<Event>,
}

/// A call as recorded: which tiles form the meld, which one came from whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub kind: MeldKind,
    /// Every tile of the resulting meld (3 for chi/pon, 4 for kans), including the called tile.
    pub tiles: Vec<TileId>,
    /// The tile taken from another seat (for kakan: the pon's called tile); `None` for ankan.
    pub called: Option<TileId>,
    /// Relative seat the called tile came from: 1 = next player, 2 = across, 3 = previous.
    pub from: u8,
    /// For kakan, the tile added from the hand.
    pub added: Option<TileId>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A tile drawn from the wall (or the dead wall after a kan).
    Draw {
        who: u8,
        tile: TileId,
    },
    Discard {
        who: u8,
        tile: TileId,
    },
    /// A call (chi, pon, kans). For chi/pon/daiminkan it follows the discard it takes.
    Call {
        who: u8,
        call: Call,
    },
    /// Riichi declared (step 1, before the discard) or accepted (step 2, after the discard passed).
    /// `scores` after the stick is paid, when the record gives them.
    Riichi {
        who: u8,
        step: u8,
        scores: Option<[i32; 4]>,
    },
    /// A north set aside as a dora (抜きドラ, nukidora; mjai's `kita`), at three players only
    /// ([`Rules::nukidora`]). The seat then draws a replacement, as after a kan; another seat
    /// waiting on 北 may ron the set-aside tile.
    Kita {
        who: u8,
        tile: TileId,
    },
    /// A new dora indicator (after a kan).
    NewDora {
        indicator: TileId,
    },
    /// Boxed, like `Ryuukyoku`: the two big records would otherwise make every event ~190 bytes
    /// (5 million draws and discards in the corpus); boxed, an event is 40 bytes.
    Agari(Box<Agari>),
    Ryuukyoku(Box<RoundDraw>),
    /// A player disconnected (BYE).
    Disconnect {
        who: u8,
    },
    /// A player reconnected (UN inside a game).
    Reconnect {
        who: u8,
    },
}

/// A win as Tenhou recorded it (AGARI).
#[derive(Clone, Debug, PartialEq)]
pub struct Agari {
    pub who: u8,
    /// Who dealt in; equal to `who` for tsumo.
    pub from_who: u8,
    pub pao_who: Option<u8>,
    pub honba: u8,
    pub sticks: u8,
    /// Concealed tiles including the winning tile.
    pub hand: Vec<TileId>,
    pub melds: Vec<Call>,
    pub win_tile: TileId,
    pub fu: u32,
    pub points: i32,
    pub limit: Limit,
    /// (Tenhou yaku id, han) for normal yaku, dora included as ids 52-54.
    pub yaku: Vec<(u8, u8)>,
    /// Tenhou yaku ids of yakuman (each worth 13 han; double yakuman forms have their own ids).
    pub yakuman: Vec<u8>,
    pub dora_indicators: Vec<TileId>,
    pub ura_indicators: Vec<TileId>,
    /// The winner's norths set aside this round ([`Event::Kita`]), as the record lists them
    /// (mjlog writes them among the melds of `m`); empty at four players.
    pub kita: Vec<TileId>,
    /// Scores before the win and the change of each seat, in points (`sc`).
    pub scores_before: [i32; 4],
    pub deltas: [i32; 4],
}

/// How a round ended without a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawKind {
    /// The wall ran out.
    Exhaustive,
    /// Nine terminals (kyuushu kyuuhai).
    Yao9,
    /// Four riichi.
    Reach4,
    /// Triple ron.
    Ron3,
    /// Four kans by different players.
    Kan4,
    /// Four of the same wind discarded in the first go-around.
    Kaze4,
    /// Nagashi mangan.
    Nagashi,
    /// The server ended the game mid-round: a bare `RYUUKYOKU` with no `ba`/`sc` (seen in
    /// bot-vs-bot test games). Not a mahjong outcome; the replay should stop the game here.
    Aborted,
}

impl DrawKind {
    pub fn from_tenhou(t: Option<&str>) -> Option<DrawKind> {
        Some(match t {
            None => DrawKind::Exhaustive,
            Some("yao9") => DrawKind::Yao9,
            Some("reach4") => DrawKind::Reach4,
            Some("ron3") => DrawKind::Ron3,
            Some("kan4") => DrawKind::Kan4,
            Some("kaze4") => DrawKind::Kaze4,
            Some("nm") => DrawKind::Nagashi,
            Some(_) => return None,
        })
    }
}

/// A round that ended without a win (RYUUKYOKU).
#[derive(Clone, Debug, PartialEq)]
pub struct RoundDraw {
    pub kind: DrawKind,
    pub honba: u8,
    pub sticks: u8,
    pub scores_before: [i32; 4],
    pub deltas: [i32; 4],
    /// Hands shown at the draw (tenpai players, or the kyuushu hand).
    pub shown: [Option<Vec<TileId>>; 4],
}
