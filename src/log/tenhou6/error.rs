//! What can be wrong in a tenhou.net/6 record. Each variant names what it found; the reader
//! wraps it with the round ([`crate::log::LogError::Tenhou6`]).

/// A part of a record that can be malformed, as its message names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    TileDigits,
    DrawEntry,
    DiscardEntry,
    Riichi,
    RoundInfo,
    WinInfo,
    Points,
    Yaku,
}

impl std::fmt::Display for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Item::TileDigits => "tile digits",
            Item::DrawEntry => "draw entry",
            Item::DiscardEntry => "discard entry",
            Item::Riichi => "riichi",
            Item::RoundInfo => "round info",
            Item::WinInfo => "win info",
            Item::Points => "points string",
            Item::Yaku => "yaku",
        })
    }
}

/// Why a tenhou.net/6 record, or one of its rounds, cannot be read or replayed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Tenhou6Error {
    /// An entry that does not parse; `value` is the entry as the record has it.
    #[error("bad {item} {value}")]
    Malformed { item: Item, value: String },
    #[error("{0} is not a tile code")]
    NotATileCode(i64),
    #[error("no call letter in {0:?}")]
    NoCallLetter(String),
    #[error("{error} in {call:?}")]
    InCall { call: String, error: Box<Tenhou6Error> },
    #[error("bad call {0:?} among the draws")]
    DrawCall(String),
    #[error("call {0:?} mixes suits")]
    MixedCall(String),
    #[error("closed kan {0:?} of mixed tiles")]
    MixedKan(String),
    #[error(
        "a red 5{suit} (tile code {code}) in a game whose rule has no red 5{suit} (rule aka5{rule} is 0 or absent)",
        suit = ["m", "p", "s"][*suit], rule = suit + 1
    )]
    RedNotInRule { suit: usize, code: i64 },
    #[error(
        "more than {} plain copies of tile code {code}{}",
        4 - usize::from(*red_on),
        if *red_on { " (red fives on: the fourth copy is the red 5x)" } else { "" }
    )]
    TooManyCopies { code: i64, red_on: bool },
    #[error("tile code {0} appears twice")]
    CodeTwice(i64),
    #[error("{0} is not an array")]
    NotAnArray(String),
    #[error("{what}: {value} is not a number")]
    NotANumber { what: String, value: String },
    #[error("round entry has {0} items, want 17")]
    RoundItems(usize),
    #[error("score {0} out of range")]
    Score(i64),
    #[error("scores need one value a seat ({0} seats, or four with the empty fourth seat's 0)")]
    ScoreCount(u8),
    #[error("no dora indicator")]
    NoDora,
    #[error("a seat has no hand in a 4-player game (a 3-player game says 三 in rule.disp)")]
    NoHand,
    #[error("the empty fourth seat of a 3-player game has {0}")]
    FourthSeat(&'static str),
    #[error("a dealt hand does not have 13 tiles")]
    DealtHand,
    #[error("top level is not an object")]
    NotAnObject,
    #[error("no \"log\" array")]
    NoLog,
    #[error("\"log\" has no rounds")]
    NoRounds,
    #[error("\"sc\" (the final scores and points) is not eight numbers (six at three players): {0}")]
    FinalScores(String),
    /// The event order of a round could not be found: the failure that got furthest.
    #[error("{error} (after {events} events)")]
    NoOrder { events: usize, error: Box<Tenhou6Error> },
    #[error("seat {seat} gives tile code {code} it does not hold")]
    NotHeld { seat: usize, code: i64 },
    #[error("cannot find an event order (search budget spent)")]
    Budget,
    #[error("seat {0} has a 0 (no discard) outside an open kan")]
    StrayZero(usize),
    #[error("seat {0} should draw but its next take is a call")]
    DrawIsCall(usize),
    #[error("seat {0} adds to a pon it does not have")]
    NoPon(usize),
    #[error("seat {0} discards the drawn tile (60) after a call")]
    DrawnAfterCall(usize),
    #[error("drawn tile not in hand")]
    DrawnNotInHand,
    #[error("no call")]
    NoCall,
    #[error("seat {0}'s open kan is not followed by a 0 discard")]
    KanWithoutZero(usize),
    #[error("play ends with seat {seat} at take {take}/{takes}, give {give}/{gives}")]
    Unfinished { seat: usize, take: usize, takes: usize, give: usize, gives: usize },
    #[error("result has no name")]
    NoResultName,
    #[error("bad deltas")]
    Deltas,
    #[error("deltas need one value a seat ({0} seats, or four with the empty fourth seat's 0)")]
    DeltaCount(u8),
    #[error("win without details")]
    WinWithoutDetails,
    #[error("unknown result {0:?}")]
    UnknownResult(String),
    #[error("tsumo without a drawn tile")]
    TsumoNoDraw,
    #[error("ron on seat {0}, which gave no tile last")]
    RonNoTile(u8),
    #[error("yaku {0} is not a string")]
    YakuNotString(String),
    #[error("unknown yaku {0:?}")]
    UnknownYaku(String),
}
