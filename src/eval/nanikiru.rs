//! `nanikiru` ("what to discard"): a position from notation alone, ranked by an evaluator, and the
//! JSON `haifu nanikiru --json` prints. The command line and the Python package call these, so
//! both give the same answer and refuse bad input with the same messages.
//!
//! The position is built from the hand (its drawn tile when written in majiang notation), the
//! dora indicators and the winds; riichi opponents are known only by their discards, which also
//! count as seen tiles. Nothing else is known (no rivers, no scores).

use crate::eval::error::EvalError;
use crate::eval::Ranker;
use crate::hand::majiang::is_majiang;
use crate::hand::Hand;
use crate::rank::majiang_position::{tile_name, MajiangPosition};
use crate::rank::push_fold::{push_fold, Thresholds};
use crate::rank::{Evaluator, RankedDiscard};
use crate::replay::view::{Opponent, Scoreboard, SeenDiscard, View};
use crate::tile::{parse_majiang, parse_mpsz, Kind, Tile, EAST};

/// Bad input (a hand, a tile, a flag combination): the message says what and why.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// Why a position could not be ranked.
#[derive(Debug, thiserror::Error)]
pub enum NanikiruError {
    #[error(transparent)]
    Input(#[from] BadInput),
    #[error(transparent)]
    Eval(#[from] EvalError),
}

/// A position in notation: what `haifu nanikiru HAND --dora … --riichi …` is given.
#[derive(Clone, Debug)]
pub struct Query {
    /// mpsz with melds (as `haifu shanten` reads it) or majiang notation.
    pub hand: String,
    /// Dora indicators, each one tile in mpsz (`4p`) or majiang (`p4`) notation.
    pub dora: Vec<String>,
    pub round_wind: Kind,
    pub seat_wind: Kind,
    /// Opponents in riichi, each by their discards in mpsz (at most three).
    pub riichi: Vec<String>,
    /// The round of the round wind, 1-4 (East 3 is round wind East, kyoku 3).
    pub kyoku: u8,
    /// Scores: the player's, then the next player's, the one across and the previous one's
    /// (`None`: 25,000 each). The trees model's table family reads them.
    pub scores: Option<[i32; 4]>,
}

/// `hand` parsed, or the message `haifu shanten` and `nanikiru` give for a hand that does not parse.
pub fn parse_hand(text: &str) -> Result<Hand, BadInput> {
    Hand::parse(text).map_err(|e| BadInput(format!("bad hand {text:?}: {e}")))
}

/// The position the query describes.
pub fn position(q: &Query) -> Result<View, BadInput> {
    let text = q.hand.as_str();
    // Majiang notation names the drawn tile (its last concealed tile): 電脳麻将's ties go to it.
    let drawn =
        if is_majiang(text) { crate::hand::majiang::parse(text).ok().and_then(|(_, d)| d) } else { None };
    let hand = parse_hand(text)?;
    if !hand.is_full() {
        return Err(BadInput(format!(
            "nanikiru needs a hand whose turn it is: 14 tiles counting each meld as 3, got {}",
            hand.tiles.len() + 3 * hand.melds.len()
        )));
    }
    let indicators = q.dora.iter().map(|d| dora_indicator(d)).collect::<Result<Vec<_>, _>>()?;
    let mut pos = View::bare(hand, indicators, q.round_wind, q.seat_wind);
    pos.drawn = drawn;
    if !(1..=4).contains(&q.kyoku) {
        return Err(BadInput(format!("the kyoku is 1-4, got {}", q.kyoku)));
    }
    // The player sits at seat 0 of the scores, so a tie in points places them first.
    pos.scoreboard = Scoreboard {
        round: (q.round_wind.saturating_sub(EAST) as u8) * 4 + q.kyoku - 1,
        scores: q.scores.unwrap_or([25_000; 4]),
        seat: 0,
        ..Scoreboard::default()
    };
    if q.riichi.len() > 3 {
        return Err(BadInput("--riichi can be given at most three times (three opponents)".into()));
    }
    // Each riichi river goes to the next opponent seat, its last tile the declaration.
    for (r, opp) in q.riichi.iter().zip(pos.opponents.iter_mut()) {
        let discards = parse_mpsz(r).map_err(|e| BadInput(format!("bad --riichi discards {r:?}: {e}")))?;
        for t in &discards {
            pos.visible[t.kind()] = pos.visible[t.kind()].saturating_add(1);
        }
        let river: Vec<SeenDiscard> =
            discards.into_iter().map(|tile| SeenDiscard { tile, tsumogiri: false, called: false }).collect();
        *opp = Opponent { riichi_at: Some(river.len().saturating_sub(1)), river, ..Opponent::default() };
    }
    Ok(pos)
}

/// One dora indicator, in mpsz (`4p`) or majiang (`p4`) notation.
pub fn dora_indicator(d: &str) -> Result<Tile, BadInput> {
    let t = if is_majiang(d) { parse_majiang(d) } else { parse_mpsz(d) }
        .map_err(|e| BadInput(format!("bad dora indicator {d:?}: {e}")))?;
    if t.len() != 1 {
        return Err(BadInput(format!("--dora takes one tile, got {d:?}")));
    }
    Ok(t[0])
}

/// A wind: E, S, W or N (any case). (clap takes the typed error as it takes a `String`: its
/// `Display` is the message.)
pub fn parse_wind(s: &str) -> Result<Kind, BadInput> {
    match s.to_ascii_uppercase().as_str() {
        "E" => Ok(EAST),
        "S" => Ok(EAST + 1),
        "W" => Ok(EAST + 2),
        "N" => Ok(EAST + 3),
        _ => Err(BadInput(format!("wind must be E, S, W or N, not {s:?}"))),
    }
}

/// A ranking of one position: the options best first (after the push/fold layer when asked),
/// with `explain`'s largest feature contributions per option.
pub struct Ranking {
    pub options: Vec<RankedDiscard>,
    pub explained: Option<Vec<(Tile, Vec<crate::model::linear::Contribution>)>>,
}

/// Ranks `pos` with `ranker`, then the push/fold layer when `push_fold`; `explain` (linear and
/// trees) adds each option's five largest contributions.
pub fn rank(ranker: &Ranker, pos: &View, push: bool, explain: bool) -> Result<Ranking, NanikiruError> {
    let mut options = ranker.rank(pos)?;
    if push {
        options = push_fold(pos, options, &Thresholds::default());
    }
    let explained = if explain {
        let needs = || BadInput("--explain needs --evaluator linear or trees".into());
        Some(ranker.explain(pos, 5)?.ok_or_else(needs)?)
    } else {
        None
    };
    Ok(Ranking { options, explained })
}

impl Ranking {
    /// What `haifu nanikiru --json` prints: `{"discard","options":[…],"explain":{…}}`.
    pub fn json(&self) -> serde_json::Value {
        let mut out = serde_json::json!({
            "discard": self.options[0].tile.to_string(),
            "options": self.options,
        });
        if let Some(ex) = &self.explained {
            out["explain"] = ex.iter().map(|(t, c)| (t.to_string(), serde_json::json!(c))).collect();
        }
        out
    }
}

/// One `--positions` line ranked: with `ev`, the position's own reds and rules (電脳麻将's golden
/// files), else `ranker`.
pub fn rank_position(ranker: &Ranker, p: &MajiangPosition) -> Result<Vec<RankedDiscard>, EvalError> {
    if ranker.evaluator() == Evaluator::Ev {
        Ok(p.rank_ev())
    } else {
        ranker.rank(&p.view)
    }
}

/// One position's ranking as `nanikiru --positions --json` prints it: its id, the pick in
/// majiang notation (as 電脳麻将 names it) and in mpsz, then every option best first.
pub fn position_json(p: &MajiangPosition, options: &[RankedDiscard]) -> serde_json::Value {
    let opts: Vec<serde_json::Value> = options
        .iter()
        .map(|o| {
            serde_json::json!({
                "tile": o.tile.to_string(),
                "majiang": tile_name(o.tile),
                "score": o.score,
                "shanten": o.shanten,
                "ukeire": o.ukeire,
            })
        })
        .collect();
    serde_json::json!({
        "id": p.id,
        "pick": tile_name(options[0].tile),
        "discard": options[0].tile.to_string(),
        "options": opts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(kyoku: u8, scores: Option<[i32; 4]>) -> Query {
        Query {
            hand: "123m456p789s1122z3m".into(),
            dora: vec![],
            round_wind: EAST + 1,
            seat_wind: EAST + 2,
            riichi: vec![],
            kyoku,
            scores,
        }
    }

    /// South 4 (all-last), 18,000 against 32,000 / 25,000 / 25,000: fourth, 14,000 behind the
    /// leader, 7,000 below the next score, nobody below.
    #[test]
    fn the_round_and_scores_reach_the_view() {
        let pos = position(&query(4, Some([18_000, 32_000, 25_000, 25_000]))).unwrap();
        assert_eq!(pos.scoreboard.columns(), [7.0, 0.0, 0.0, 4.0, 18_000.0, 14_000.0, 7_000.0, 0.0]);
        let even = position(&query(1, None)).unwrap();
        assert_eq!(even.scoreboard.columns()[..5], [4.0, 0.0, 0.0, 1.0, 25_000.0]);
        let e = position(&query(5, None)).unwrap_err();
        assert!(e.to_string().contains("kyoku is 1-4"), "{e}");
    }
}
