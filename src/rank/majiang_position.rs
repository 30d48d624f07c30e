//! A discard position in the form 電脳麻将 (`@kobalab/majiang-ai`) is driven with: the lines of
//! the golden files (`src/rank/testdata/majiang_ai_*.jsonl`) and of `haifu nanikiru --positions`.
//! One parser, so the golden tests and the command line read a position the same way.
//!
//! A line is one JSON object:
//!
//! ```text
//! {"id":"game#12","shoupai":"m444p6799p7,z777-,m6-78","zhuangfeng":0,"menfeng":0,"baopai":["s1"],
//!  "red":true,"paishu":{"m":[0,1,3,0,0,3,2,3,1,2],"p":[1,3,3,2,4,4,3,0,4,1],
//!  "s":[1,3,4,2,4,4,2,2,3,0],"z":[0,0,1,1,0,0,1,0]}}
//! ```
//!
//! - `shoupai`: the hand in majiang notation, 14 tiles counting each meld as 3, the drawn tile last
//!   (電脳麻将 breaks exact ties in its favour), melds after commas;
//! - `zhuangfeng`, `menfeng`: round and seat wind, 0 = East … 3 = North;
//! - `baopai`: the dora indicators (optional, default none);
//! - `red`: the table plays with red fives (optional, default true);
//! - `paishu` (optional): the player's unseen copies per suit, `m`/`p`/`s` indexed 0..9 with index
//!   0 = the red five (0 or 1) and index 5 counting every five, `z` indexed 0..7 (index 0 unused).
//!   Whatever the player neither holds concealed nor counts as unseen is visible. Without it, only
//!   the hand, its melds and the indicators are seen, and no red five outside the hand.
//! - `id` (optional): echoed as given. Other fields (a golden file's `pick`, `candidates`, …)
//!   are ignored.

use std::collections::BTreeMap;

use super::expected_value::EvSearch;
use super::RankedDiscard;
use crate::hand::majiang;
use crate::replay::view::View;
use crate::score::ScoreRules;
use crate::tile::{format_majiang, parse_majiang, Tile, EAST};

/// Why a position line was refused.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct PositionError(String);

/// One parsed position line.
#[derive(Clone, Debug)]
pub struct MajiangPosition {
    /// The line's `id`, as given (`null` when absent).
    pub id: serde_json::Value,
    /// The seat's view: hand, melds, drawn tile, winds, indicators, visible tiles and reds.
    pub view: View,
}

#[derive(serde::Deserialize)]
struct Line {
    #[serde(default)]
    id: serde_json::Value,
    shoupai: String,
    zhuangfeng: usize,
    menfeng: usize,
    #[serde(default)]
    baopai: Vec<String>,
    #[serde(default = "yes")]
    red: bool,
    paishu: Option<BTreeMap<String, Vec<u8>>>,
}

fn yes() -> bool {
    true
}

fn bad(what: impl Into<String>) -> PositionError {
    PositionError(what.into())
}

/// Parses one position line (see the module doc).
pub fn parse_line(line: &str) -> Result<MajiangPosition, PositionError> {
    let l: Line = serde_json::from_str(line).map_err(|e| bad(format!("not a position object: {e}")))?;
    let (hand, drawn) =
        majiang::parse(&l.shoupai).map_err(|e| bad(format!("shoupai {:?}: {e}", l.shoupai)))?;
    if !hand.is_full() {
        return Err(bad(format!(
            "shoupai {:?} has {} tiles counting melds as 3; a discard position needs 14",
            l.shoupai,
            hand.tiles.len() + 3 * hand.melds.len()
        )));
    }
    if l.zhuangfeng > 3 || l.menfeng > 3 {
        return Err(bad("zhuangfeng and menfeng are winds 0 (East) to 3 (North)"));
    }
    let dora = l
        .baopai
        .iter()
        .map(|p| match parse_majiang(p).as_deref() {
            Ok([t]) => Ok(*t),
            _ => Err(bad(format!("baopai {p:?} is not one tile in majiang notation (e.g. \"s1\")"))),
        })
        .collect::<Result<Vec<Tile>, _>>()?;
    let mut view = View::bare(hand, dora, EAST + l.zhuangfeng, EAST + l.menfeng);
    view.drawn = drawn;
    view.red_fives = l.red;
    if let Some(paishu) = &l.paishu {
        apply_paishu(&mut view, paishu)?;
    }
    Ok(MajiangPosition { id: l.id, view })
}

/// Sets the view's visible tiles and reds from the unseen counts: everything the player neither
/// holds concealed nor counts as unseen is visible (own melds and indicators included, as in
/// ingest).
fn apply_paishu(view: &mut View, paishu: &BTreeMap<String, Vec<u8>>) -> Result<(), PositionError> {
    let concealed = view.hand_counts();
    for (s, suit) in ["m", "p", "s", "z"].into_iter().enumerate() {
        let len = if s == 3 { 8 } else { 10 };
        let u = paishu.get(suit).filter(|u| u.len() == len).ok_or_else(|| {
            bad(format!(
                "paishu needs \"{suit}\": {len} unseen counts (index 0 = the red five, or unused for z)"
            ))
        })?;
        for n in 1..len {
            let k = s * 9 + n - 1;
            if u[n] + concealed[k] > 4 {
                return Err(bad(format!(
                    "paishu {suit}[{n}] = {} unseen, but the hand holds {} and there are 4",
                    u[n], concealed[k]
                )));
            }
            view.visible[k] = 4 - u[n] - concealed[k];
        }
        if s < 3 && u[0] > u8::from(view.red_fives).min(u[5]) {
            return Err(bad(format!(
                "paishu {suit}[0] = {}: at most one red five, and only among the unseen fives",
                u[0]
            )));
        }
    }
    for s in 0..3 {
        let held_red = view.hand.iter().any(|t| t.is_red() && t.suit() == s);
        view.visible_reds[s] = view.red_fives && paishu[["m", "p", "s"][s]][0] == 0 && !held_red;
    }
    Ok(())
}

/// The seat's unseen counts in the form [`apply_paishu`] reads (the golden scripts feed them to
/// majiang-ai): per suit `m`/`p`/`s` index 0 the red five still unseen, 1..=9 the unseen copies
/// of each number; `z` index 0 unused, 1..=7 the honours. Unseen = 4 − visible − held concealed.
pub fn paishu(view: &View) -> BTreeMap<String, Vec<u8>> {
    let concealed = view.hand_counts();
    let unseen = |k: usize| 4u8.saturating_sub(view.visible[k] + concealed[k]);
    let held_red = |s: usize| view.hand.iter().any(|t| t.is_red() && t.suit() == s);
    let mut out = BTreeMap::new();
    for (s, letter) in ["m", "p", "s"].into_iter().enumerate() {
        let mut v = vec![u8::from(view.red_fives && !view.visible_reds[s] && !held_red(s))];
        v.extend((0..9).map(|n| unseen(s * 9 + n)));
        out.insert(letter.to_string(), v);
    }
    let mut z = vec![0u8];
    z.extend((27..34).map(unseen));
    out.insert("z".to_string(), z);
    out
}

impl MajiangPosition {
    /// `ev`'s ranking as 電脳麻将 is driven here: the position's own red-five rule and visible
    /// reds, wins scored under majiang-core's rules (it counts the "double" yakuman forms twice).
    pub fn rank_ev(&self) -> Vec<RankedDiscard> {
        EvSearch::new(&self.view).with_view_reds().with_rules(ScoreRules::MAJIANG).rank()
    }
}

/// One tile in majiang notation (`m5`, `m0` for the red five, `z7`): how 電脳麻将 names a discard.
pub fn tile_name(t: Tile) -> String {
    format_majiang(&[t])
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"id":"g#173","shoupai":"m444p6799p7,z777-,m6-78","zhuangfeng":0,"menfeng":0,"baopai":["s1"],"red":true,"paishu":{"m":[0,1,3,0,0,3,2,3,1,2],"p":[1,3,3,2,4,4,3,0,4,1],"s":[1,3,4,2,4,4,2,2,3,0],"z":[0,0,1,1,0,0,1,0]}}"#;

    #[test]
    fn a_golden_line_becomes_its_view() {
        let p = parse_line(LINE).unwrap();
        assert_eq!(p.id, serde_json::json!("g#173"));
        let v = &p.view;
        assert_eq!(v.hand.len(), 8);
        assert_eq!(v.melds.len(), 2);
        assert_eq!(v.drawn.map(tile_name).as_deref(), Some("p7"));
        assert_eq!((v.round_wind, v.seat_wind), (EAST, EAST));
        // m4: three held, none unseen → one seen; z7: three in the pon, none unseen → all 4 seen
        // (the meld's tiles count); p7: two held, none unseen → two seen.
        assert_eq!(v.visible[3], 1);
        assert_eq!(v.visible[33], 4);
        assert_eq!(v.visible[15], 2);
        // No red 5m unseen and none held: it is visible; the red 5p and 5s are unseen.
        assert_eq!(v.visible_reds, [true, false, false]);
    }

    /// The writer gives back what the reader read: the unseen counts of every golden position.
    #[test]
    fn paishu_writes_what_it_reads() {
        let open = include_str!("testdata/majiang_ai_open.jsonl");
        for line in LINE.lines().chain(open.lines()) {
            let want: serde_json::Value =
                serde_json::from_str::<serde_json::Value>(line).unwrap()["paishu"].clone();
            assert_eq!(serde_json::json!(paishu(&parse_line(line).unwrap().view)), want, "{line}");
        }
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let err = |l: &str| parse_line(l).unwrap_err().to_string();
        assert!(err("{").contains("not a position object"));
        assert!(err(r#"{"shoupai":"m123","zhuangfeng":0,"menfeng":0}"#).contains("13 or 14 concealed"));
        assert!(err(r#"{"shoupai":"m1234567899p123","zhuangfeng":0,"menfeng":0}"#).contains("needs 14"));
        assert!(err(&LINE.replace(r#""menfeng":0"#, r#""menfeng":4"#)).contains("winds"));
        assert!(err(&LINE.replace(r#"["s1"]"#, r#"["s12"]"#)).contains("baopai"));
        assert!(err(&LINE.replace(r#""z":[0,0,1,1,0,0,1,0]"#, r#""z":[0,0]"#)).contains("\"z\""));
        // Three 4m held: at most one unseen.
        assert!(err(&LINE.replace(r#""m":[0,1,3,0,0"#, r#""m":[0,1,3,0,2"#)).contains("m[4]"));
    }

    #[test]
    fn without_paishu_only_hand_melds_and_indicators_are_seen() {
        let p = parse_line(r#"{"shoupai":"m123456789p1234p5","zhuangfeng":1,"menfeng":2,"baopai":["z1"]}"#)
            .unwrap();
        assert_eq!(p.id, serde_json::Value::Null);
        assert_eq!(p.view.visible.iter().map(|&x| x as u32).sum::<u32>(), 1);
        assert!(p.view.red_fives);
        assert_eq!(p.view.visible_reds, [false; 3]);
    }

    #[test]
    fn tile_names_are_majiang_notation() {
        let t = parse_majiang("m0z7s9").unwrap();
        assert_eq!(t.into_iter().map(tile_name).collect::<Vec<_>>(), ["m0", "z7", "s9"]);
    }
}
