//! What can be wrong in an mjai log, or keep a game from being written as one. Each variant
//! names what it found; the reader wraps it with the line and the event type
//! ([`crate::log::LogError::Mjai`]).

/// Why an mjai log cannot be read, or a game cannot be written as one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MjaiError {
    #[error("an event after end_game")]
    AfterEndGame,
    #[error("start_kyoku before the last round's end_kyoku")]
    StartInsideRound,
    #[error("end_kyoku outside a round")]
    EndOutsideRound,
    #[error("end_kyoku before the round's hora or ryukyoku")]
    EndWithoutResult,
    #[error("end_game inside a round")]
    EndGameInsideRound,
    #[error("a round event outside a round")]
    OutsideRound,
    #[error("a second start_game")]
    SecondStartGame,
    #[error("{0} names: a table has three or four seats")]
    SeatCount(usize),
    #[error("start_kyoku deals {now} seats, an earlier round {was}")]
    SeatsChange { was: u8, now: u8 },
    #[error("the empty fourth seat of a 3-player game has {0}")]
    FourthSeat(&'static str),
    #[error("seat {seat} sets aside {tile}: only a north, and only at three players")]
    Kita { seat: u8, tile: String },
    #[error("ends inside round {0} without end_kyoku")]
    EndsInsideRound(u8),
    #[error("no complete round")]
    NoRound,
    #[error("bakaze {0:?}")]
    Bakaze(String),
    #[error("kyoku {kyoku} with oya {oya}: kyoku counts 1-4 and its dealer is seat kyoku - 1")]
    Kyoku { kyoku: u8, oya: u8 },
    #[error("scores {0:?} out of range")]
    Scores([i32; 4]),
    #[error("tehais must be four hands of 13 tiles, or three (a 3-player game; a fourth entry empty)")]
    Tehais,
    #[error("an event after the round's result")]
    AfterResult,
    #[error("actor {actor} is not a seat of a {players}-seat table")]
    NotASeat { actor: u8, players: u8 },
    #[error("hora without deltas: the win cannot be checked")]
    HoraWithoutDeltas,
    #[error("seat {seat} has no {tile} in hand")]
    NotInHand { seat: u8, tile: String },
    #[error("tsumogiri of {tile}, which seat {seat} did not just draw")]
    TsumogiriNotDrawn { seat: u8, tile: String },
    #[error("{got} consumed tiles, want {want}")]
    Consumed { got: usize, want: usize },
    #[error("seat {seat} calls {tile} from seat {target}, which did not just discard it")]
    NotOffered { seat: u8, tile: String, target: u8 },
    #[error("seat {seat} adds {tile} to a pon it does not have")]
    NoPon { seat: u8, tile: String },
    #[error("ura_markers {names:?} differ from the first win's {first:?}")]
    UraDiffers { names: Vec<String>, first: Vec<String> },
    #[error("deltas {0:?} out of range")]
    Deltas([i32; 4]),
    #[error("tsumo by seat {0}, who did not just draw")]
    TsumoNotDrawn(u8),
    #[error("ron by seat {seat} on seat {target}, who offered no tile")]
    RonNotOffered { seat: u8, target: u8 },
    #[error("a hidden tile \"?\": this log hides other seats' tiles and cannot be replayed")]
    HiddenTile,
    #[error("{0:?} is not an mjai tile")]
    NotATile(String),
    #[error("red five {0} in a game without red fives")]
    RedWithoutReds(String),
    #[error("a fifth {0}")]
    FifthCopy(String),
    #[error("a second {0}")]
    SecondRed(String),
    // Writing.
    #[error("round {round}: {error}")]
    InRound { round: usize, error: Box<MjaiError> },
    #[error("round past North")]
    RoundPastNorth,
    #[error("the server stopped the game mid-round: mjai has no such result")]
    StoppedMidRound,
    #[error("kakan without its added tile")]
    KakanWithoutTile,
    #[error("a call without its called tile")]
    CallWithoutTile,
}
