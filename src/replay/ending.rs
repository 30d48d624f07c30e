//! How a game starts and ends under its rules, and whether a record holds a whole game.
//!
//! A record states more than its wins: the first round's place and scores, that the game is over,
//! and its result (final scores and placement points). The replay re-derives each of them. A
//! record whose first round is not East 1 with 0 honba, 0 sticks and the starting scores, whose
//! last round does not end the game, or that states no result, holds less than a whole game: it
//! is *partial* ([`Completeness`]), and the stages that count placements leave it out. A stated
//! result that differs from the replay's is a mismatch, as a win that re-scores otherwise is.
//!
//! The start, return and uma are the game's [`Rules`] (Tenhou's four-player tables: 25,000,
//! 30,000 and 10/−10/−20 for 2nd to 4th; three-player: 35,000, 40,000 and 0/−20).
//!
//! The end rule (Tenhou's, and the self-play engine's): someone below zero ends the game; from
//! the last round of the length played on (S4, or E4 in tonpuu; S3 / E3 at three players), a
//! round the dealer does not keep ends it when someone has the return score, and a round the
//! dealer keeps by a win or by tenpai at an exhaustive draw ends it when the dealer is then first
//! with the return score or more (agari-yame and tenpai-yame; a record may go on after
//! tenpai-yame, [`must_end`]); otherwise the game goes on into the next wind (sudden death), to
//! its last round at the latest ([`Rules::last_rounds`]).
//!
//! The result: leftover riichi sticks go to the first place (ties rank by seat); each other
//! place's points are (score − return) / 1000 plus its uma, and the first place gets minus their
//! sum (oka and uma included). Tenhou writes them with one decimal since 2023 and rounded to whole
//! points before; the rounding of a half point varies between records of one era, so a whole
//! number within half a point of the exact value is the record's rounding.
//!
//! Rules whose result the record does not spell out ([`Rules::result_known`] false: a lobby's own
//! rule, the chip, ratio and other rule bits above 0xFF of Tenhou's GO type) set their own
//! starting score, return and uma: there the start must only give every seat the same score, the
//! end is the record's own (its stated result), and only the final scores are compared.

use crate::log::event::{Game, Rules};
use crate::util::placements_of;

/// How a round left the game, for the end-of-game rule.
#[derive(Clone, Copy, Debug)]
pub struct RoundEnd {
    /// The round just played (0 = E1 ... 7 = S4, 8 = W1).
    pub round: u8,
    /// The dealer keeps the deal (won, tenpai at an exhaustive draw, or an abortive draw).
    pub stays: bool,
    pub dealer_won: bool,
    /// The dealer was tenpai at an exhaustive draw (or a nagashi draw): what tenpai-yame asks.
    pub dealer_tenpai: bool,
    /// Scores after the round.
    pub scores: [i32; 4],
}

/// Whether the game ends after this round (the rule is in the module doc), played to the length
/// `hanchan` under `rules`.
pub fn game_over(r: &RoundEnd, rules: &Rules, hanchan: bool) -> bool {
    over(r, rules, hanchan, r.dealer_won || r.dealer_tenpai)
}

/// Whether every record must end after this round: [`game_over`] without tenpai-yame. Tenhou's
/// records since 2020 end by tenpai-yame too (37 of the shared corpus), and the self-play engine
/// does; an older record that goes on after it (one test log of a reader project) is not wrong,
/// so a record may do either.
pub fn must_end(r: &RoundEnd, rules: &Rules, hanchan: bool) -> bool {
    over(r, rules, hanchan, r.dealer_won)
}

/// [`game_over`], with `earned`: the dealer kept the deal in a way that can end the game.
fn over(r: &RoundEnd, rules: &Rules, hanchan: bool, earned: bool) -> bool {
    let (last, latest) = rules.last_rounds(hanchan);
    let target = rules.return_score;
    let dealer = rules.dealer_of(r.round);
    let top = placements_of(&r.scores, rules.players).iter().position(|&p| p == 1).unwrap_or(0) as u8;
    let scores = &r.scores[..usize::from(rules.players)];
    scores.iter().any(|&s| s < 0)
        || (r.round >= last
            && if r.stays {
                earned && top == dealer && r.scores[dealer as usize] >= target
            } else {
                r.round >= latest || scores.iter().any(|&s| s >= target)
            })
}

/// Final scores (leftover sticks to the first place) and the results under `rules`' return,
/// uma and oka, with one decimal.
pub fn final_results(scores: &[i32; 4], sticks: u8, rules: &Rules) -> ([i32; 4], [f32; 4]) {
    let (fin, exact) = exact_results_with(scores, sticks, rules, &rules.uma);
    (fin, exact.map(|r| ((r * 10.0).round() / 10.0) as f32))
}

/// Final scores and the exact results before rounding, under `uma` (thousands of points by
/// placement).
fn exact_results_with(scores: &[i32; 4], sticks: u8, rules: &Rules, uma: &[i32; 4]) -> ([i32; 4], [f64; 4]) {
    let place = placements_of(scores, rules.players);
    let mut fin = *scores;
    let top = place.iter().position(|&p| p == 1).unwrap_or(0);
    fin[top] += 1000 * i32::from(sticks);
    let mut res = [0f64; 4];
    for s in rules.seats().map(usize::from) {
        if s != top {
            res[s] = (fin[s] - rules.return_score) as f64 / 1000.0 + f64::from(uma[place[s] as usize - 1]);
        }
    }
    res[top] = -res.iter().sum::<f64>();
    (fin, res)
}

/// Why a record holds less than a whole game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Partial {
    /// The first round is not the game's start: what it is instead.
    LateStart { what: String },
    /// The last round does not end the game under the rules.
    Unfinished { last_round: String },
    /// The record states no result (no `owari`, `sc` or `end_game`).
    NoResult,
}

impl std::fmt::Display for Partial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Partial::LateStart { what } => write!(f, "does not start at the game's start: {what}"),
            Partial::Unfinished { last_round } => {
                write!(f, "its last round {last_round} does not end the game under the rules")
            }
            Partial::NoResult => write!(f, "states no result (final scores and points)"),
        }
    }
}

/// Whether a record holds a whole game: empty when it does, else every reason it does not.
pub type Completeness = Vec<Partial>;

/// What the start of a record says: `None` when its first round is the game's start (East 1, 0
/// honba, 0 sticks, every seat at the starting score), else what it is instead.
pub fn late_start(game: &Game) -> Option<Partial> {
    let first = &game.rounds.first()?.start;
    let mut what = Vec::new();
    if first.round != 0 {
        what.push(format!("first round {}", crate::replay::round_name(first.round, first.honba)));
    } else if first.honba != 0 {
        what.push(format!("{} honba", first.honba));
    }
    if first.sticks != 0 {
        what.push(format!("{} riichi sticks on the table", first.sticks));
    }
    let start = game.rules.start_score;
    let seated = &first.scores[..usize::from(game.rules.players)];
    let start_ok = if game.rules.result_known {
        seated.iter().all(|&s| s == start)
    } else {
        seated.iter().all(|&s| s == first.scores[0])
    };
    if !start_ok {
        what.push(format!("scores {:?}, not {start} each", first.scores));
    }
    (!what.is_empty()).then(|| Partial::LateStart { what: what.join(", ") })
}

/// Follows a replay round by round and says, at the end, whether the record holds a whole game
/// and whether its stated result is the replay's (the module doc's rules).
pub struct EndCheck {
    /// The rules: where their result is known ([`Rules::result_known`]) the game ends by the end
    /// rule; otherwise where the record says.
    rules: Rules,
    /// The lengths (hanchan?) the game may have been played to, each while its rounds allow it:
    /// the stated one, or both when the record does not state it (an mjai log ending in East 4 by
    /// a bust is a hanchan as far as its rounds tell).
    lengths: Vec<(bool, bool)>,
    /// Whether the last round seen ended the game, its name, the scores and sticks after it.
    last: Option<(bool, String, [i32; 4], u8)>,
    late_start: Option<Partial>,
}

impl EndCheck {
    pub fn new(game: &Game) -> EndCheck {
        let lengths = if game.rules.length_stated {
            vec![(game.rules.hanchan, true)]
        } else {
            vec![(false, true), (true, true)]
        };
        EndCheck { rules: game.rules, lengths, last: None, late_start: late_start(game) }
    }

    /// A round `name` ended as `end` says, with `sticks` left on the table; `more`: the record
    /// goes on. False when the record goes on although every length still possible had to end
    /// here (a record the rules contradict).
    pub fn round_ended(&mut self, end: &RoundEnd, more: bool, name: String, sticks: u8) -> bool {
        let rules = &self.rules;
        let over = self.lengths.iter().any(|&(h, possible)| possible && game_over(end, rules, h));
        if more {
            // going on rules out the lengths under which the game had to end here
            for (h, possible) in self.lengths.iter_mut() {
                *possible &= !must_end(end, rules, *h);
            }
        }
        self.last = Some((over, name, end.scores, sticks));
        !self.rules.result_known || self.lengths.iter().any(|&(_, possible)| possible)
    }

    /// Whether the record is whole ([`Partial`] reasons into `summary.partial`) and the
    /// differences of its stated result (into `summary.mismatches`).
    pub fn finish(self, game: &Game, summary: &mut crate::replay::GameSummary) {
        summary.partial.extend(self.late_start);
        let Some((over, name, scores, sticks)) = self.last else { return };
        if self.rules.result_known && !over {
            summary.partial.push(Partial::Unfinished { last_round: name });
        }
        if game.final_scores.is_none() {
            summary.partial.push(Partial::NoResult);
        }
        summary
            .mismatches
            .extend(compare_result(game, &scores, sticks).into_iter().map(|m| format!("result: {m}")));
    }
}

/// Compares a record's stated result with the replay's: `scores` after the last round and the
/// `sticks` left on the table. Returns a description of each difference (final scores; points
/// at a standard table, with the rounding of the module doc).
pub fn compare_result(game: &Game, scores: &[i32; 4], sticks: u8) -> Vec<String> {
    let mut out = Vec::new();
    let rules = &game.rules;
    let (fin, shown) = final_results(scores, sticks, rules);
    if let Some(stated) = game.final_scores {
        if stated != fin {
            out.push(format!("final scores: the record says {stated:?}, the replay gives {fin:?}"));
        }
    }
    if let (Some(stated), true) = (game.final_results, rules.result_known) {
        let mut umas = std::iter::once(&rules.uma).chain(rules.uma_alt.as_ref());
        if !umas.any(|uma| {
            points_agree(&stated, &exact_results_with(scores, sticks, rules, uma).1, &fin, rules.players)
        }) {
            out.push(format!("final points: the record says {stated:?}, the replay gives {shown:?}"));
        }
    }
    out
}

/// Whether stated points are the exact ones written as Tenhou writes them (module doc): each
/// to one decimal, or as whole points within half a point with the first place minus the others.
fn points_agree(stated: &[f32; 4], exact: &[f64; 4], fin: &[i32; 4], players: u8) -> bool {
    let seats = 0..usize::from(players);
    // f32 holds a one-decimal value to about 1e-6 of a point
    let tenth = |s: f64, e: f64| (s - (e * 10.0).round() / 10.0).abs() < 1e-3;
    let stated = stated.map(f64::from);
    if seats.clone().all(|s| tenth(stated[s], exact[s])) {
        return true;
    }
    let top = placements_of(fin, players).iter().position(|&p| p == 1).unwrap_or(0);
    let others: f64 = seats.clone().filter(|&s| s != top).map(|s| stated[s]).sum();
    stated.iter().all(|s| s.fract() == 0.0)
        && (stated[top] + others).abs() < 1e-3
        && seats.filter(|&s| s != top).all(|s| (stated[s] - exact[s]).abs() <= 0.5 + 1e-9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owari_as_tenhou_2023() {
        // 2023 records write exact values: e.g. 32,200 2nd -> 2.2 + 10 = 12.2.
        let rules = Rules::tenhou(4, true, true);
        let (fin, r) = final_results(&[26_000, 32_200, -24_200, 66_000], 0, &rules);
        assert_eq!(fin, [26_000, 32_200, -24_200, 66_000]);
        assert_eq!(r, [-14.0, 12.2, -74.2, 76.0]);
        // Leftover sticks go to first place; ties rank by seat.
        let (fin, r) = final_results(&[25_000, 25_000, 24_000, 24_000], 2, &rules);
        assert_eq!(fin, [27_000, 25_000, 24_000, 24_000]);
        assert_eq!(r, [37.0, 5.0, -16.0, -26.0]);
    }

    #[test]
    fn end_of_game() {
        let end = |round, stays, dealer_won, scores| RoundEnd {
            round,
            stays,
            dealer_won,
            dealer_tenpai: false,
            scores,
        };
        let four = Rules::tenhou(4, true, true);
        let game_over = |e: &RoundEnd, hanchan: bool| super::game_over(e, &four, hanchan);
        let must_end = |e: &RoundEnd, hanchan: bool| super::must_end(e, &four, hanchan);
        let even = [25_000; 4];
        let s4 = [31_000, 25_000, 24_000, 20_000];
        // Not the last round: only a bust ends it.
        assert!(!game_over(&end(6, false, false, s4), true));
        assert!(game_over(&end(2, false, false, [40_000, 35_000, 26_000, -1_000]), true));
        assert!(!game_over(&end(2, false, false, [40_000, 35_000, 25_000, 0]), true), "0 is not a bust");
        // S4 passes with someone at 30,000: over; with nobody: West.
        assert!(game_over(&end(7, false, false, s4), true));
        assert!(!game_over(&end(7, false, false, even), true));
        // S4 dealer (seat 3) wins or is tenpai into first place with 30,000+: agari-yame,
        // tenpai-yame; an abortive draw keeps the deal without ending the game.
        let dealer_top = [20_000, 25_000, 24_000, 31_000];
        assert!(game_over(&end(7, true, true, dealer_top), true));
        assert!(!game_over(&end(7, true, false, dealer_top), true));
        assert!(!game_over(&end(7, true, true, [20_000, 25_000, 26_000, 29_000]), true), "under 30,000");
        let tenpai = RoundEnd { dealer_tenpai: true, ..end(7, true, false, dealer_top) };
        assert!(game_over(&tenpai, true) && !must_end(&tenpai, true), "tenpai-yame is optional");
        assert!(must_end(&end(7, true, true, dealer_top), true), "agari-yame is not optional");
        assert!(!game_over(
            &RoundEnd { dealer_tenpai: true, ..end(7, true, false, [31_000, 25_000, 24_000, 20_000]) },
            true
        ));
        assert!(!game_over(&end(7, true, true, [31_000, 25_000, 24_000, 20_000]), true), "dealer not first");
        // West sudden death, W4 at the latest; tonpuu goes to South, S4 at the latest.
        assert!(!game_over(&end(9, false, false, even), true));
        assert!(game_over(&end(11, false, false, even), true));
        assert!(game_over(&end(3, false, false, s4), false));
        assert!(!game_over(&end(3, false, false, even), false));
        assert!(game_over(&end(7, false, false, even), false));
    }

    /// Stated results: exact one-decimal values, whole points within half a point (either way
    /// at a half), the first place as minus the others; anything else is named.
    #[test]
    fn stated_results_are_compared_with_the_replays() {
        let mut game = Game {
            id: "t".into(),
            rules: Rules::tenhou(4, true, true),
            players: Default::default(),
            rounds: Vec::new(),
            final_scores: Some([51_000, 27_700, 19_500, 1_800]),
            final_results: Some([60.0, 8.0, -20.0, -48.0]),
        };
        let scores = [51_000, 27_700, 19_500, 1_800];
        assert!(compare_result(&game, &scores, 0).is_empty());
        // a half point rounded the other way is Tenhou's rounding too
        game.final_results = Some([61.0, 8.0, -21.0, -48.0]);
        assert!(compare_result(&game, &scores, 0).is_empty());
        // exact values of 2023
        game.final_results = Some([61.0, 7.7, -20.5, -48.2]);
        assert!(compare_result(&game, &scores, 0).is_empty());
        // one point off, and the first place not minus the others
        game.final_results = Some([60.0, 9.0, -20.0, -48.0]);
        let d = compare_result(&game, &scores, 0);
        assert!(d.len() == 1 && d[0].starts_with("final points: the record says"), "{d:?}");
        game.final_results = Some([61.0, 8.0, -20.0, -48.0]);
        assert_eq!(compare_result(&game, &scores, 0).len(), 1);
        // scores: a leftover stick goes to the first place
        game.final_results = None;
        game.final_scores = Some([52_000, 27_700, 19_500, 1_800]);
        assert!(compare_result(&game, &scores, 1).is_empty());
        let d = compare_result(&game, &scores, 0);
        assert!(
            d[0].contains("[52000, 27700, 19500, 1800]") && d[0].contains("[51000, 27700, 19500, 1800]"),
            "{d:?}"
        );
        // a lobby's own rule: scores compared, points not
        game.rules.result_known = false;
        game.final_scores = Some(scores);
        game.final_results = Some([87.4, -10.6, -100.7, 23.9]);
        assert!(compare_result(&game, &scores, 0).is_empty());
    }
}

/// Real houou records edited the way truncated downloads and broken converters leave them, in
/// each format: every edit is flagged (partial, a mismatch of the result, or an error), and the
/// unedited record is a whole game that agrees with itself.
#[cfg(test)]
mod record_edits {
    use crate::log::source::parse_game;
    use crate::replay::check::Rescore;
    use crate::replay::{replay_game, GameSummary};
    use serde_json::Value;

    /// Parse and replay with re-scoring: the summary, or the error as text.
    fn check(name: &str, bytes: &[u8]) -> Result<GameSummary, crate::batch::BoxError> {
        let game = parse_game(name, bytes)?;
        Ok(replay_game(&game, &mut (), &mut Rescore::default())?)
    }

    fn whole(name: &str, bytes: &[u8]) {
        let s = check(name, bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(s.complete() && s.mismatches.is_empty(), "{name}: {:?} {:?}", s.partial, s.mismatches);
    }

    fn partial(name: &str, bytes: &[u8], why: &str) {
        let s = check(name, bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let text: Vec<String> = s.partial.iter().map(|p| p.to_string()).collect();
        assert!(text.iter().any(|t| t.contains(why)), "{name}: {text:?} does not say {why:?}");
    }

    fn mismatch(name: &str, bytes: &[u8], what: &str) {
        let s = check(name, bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(s.mismatches.iter().any(|m| m.contains(what)), "{name}: {:?} has no {what:?}", s.mismatches);
    }

    fn refused(name: &str, bytes: &[u8], what: &str) {
        let e = check(name, bytes).map(|s| format!("{s:?}")).expect_err(name).to_string();
        assert!(e.contains(what), "{name}: {e}");
    }

    fn shared(rel: &str) -> Vec<u8> {
        let path =
            crate::testdata::shared_file(rel).unwrap_or_else(|| panic!("../shared/data/{rel} not found"));
        std::fs::read(path).unwrap()
    }

    /// A houou hanchan of 2010 (15 rounds, ends in South 4 with owari).
    const MJLOG: &str = "tenhou/2010091009gm-00a9-0000-83af2648.mjlog";
    /// A houou hanchan of 2022 in tenhou.net/6 JSON, holding red fives of every suit.
    const T6: &str = "tenhou/2022080600gm-00a9-0000-b8ad3aee.t6.json";

    /// A Houou sanma hanchan of 2020 (9 rounds, ends in South 3 with owari; docs/sanma.md's
    /// examples come from it).
    const SANMA: &str = "tenhou/sanma/2020010100gm-00b9-0000-18a1410f.mjlog";

    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn mjlog_edits_are_flagged() {
        mjlog_edits(MJLOG);
    }

    /// The same edits of a three-player record are flagged the same way, on its own rules.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn sanma_mjlog_edits_are_flagged() {
        mjlog_edits(SANMA);
        // a win's score changes (`sc`) edited: the first AGARI pays its winner 100 points more
        let xml = String::from_utf8(shared(SANMA)).unwrap();
        let at = xml.find("<AGARI ").unwrap();
        let sc = at + xml[at..].find(" sc=\"").unwrap() + 5;
        let stop = sc + xml[sc..].find('"').unwrap();
        let mut v: Vec<i32> = xml[sc..stop].split(',').map(|x| x.parse().unwrap()).collect();
        let winner = (1..8).step_by(2).find(|&i| v[i] > 0).unwrap();
        v[winner] += 1;
        let list: Vec<String> = v.iter().map(i32::to_string).collect();
        let edited = format!("{}{}{}", &xml[..sc], list.join(","), &xml[stop..]);
        refused("sc.mjlog", edited.as_bytes(), "round start");
    }

    fn mjlog_edits(rel: &str) {
        let xml = String::from_utf8(shared(rel)).unwrap();
        whole("whole.mjlog", xml.as_bytes());
        let inits: Vec<usize> = xml.match_indices("<INIT ").map(|(i, _)| i).collect();
        assert!(inits.len() > 3);
        let end = xml.rfind("</mjloggm>").unwrap();
        // the last round removed: the owari goes with it
        let cut = format!("{}{}", &xml[..inits[inits.len() - 1]], &xml[end..]);
        partial("last.mjlog", cut.as_bytes(), "does not end the game");
        partial("last.mjlog", cut.as_bytes(), "states no result");
        // the first round removed
        let cut = format!("{}{}", &xml[..inits[0]], &xml[inits[1]..]);
        partial("first.mjlog", cut.as_bytes(), "does not start at the game's start");
        // a middle round removed, or a round's start scores changed: refused, as before
        let cut = format!("{}{}", &xml[..inits[2]], &xml[inits[3]..]);
        refused("middle.mjlog", cut.as_bytes(), "round start");
        // owari replaced by other numbers: points, then scores
        let at = xml.find("owari=\"").unwrap() + 7;
        let stop = at + xml[at..].find('"').unwrap();
        let mut v: Vec<f64> = xml[at..stop].split(',').map(|x| x.parse().unwrap()).collect();
        let owari = |v: &[f64]| {
            let list: Vec<String> = v.iter().map(|x| format!("{x}")).collect();
            format!("{}{}{}", &xml[..at], list.join(","), &xml[stop..])
        };
        v[1] += 3.0;
        v[3] -= 3.0;
        mismatch("owari.mjlog", owari(&v).as_bytes(), "final points: the record says");
        v[1] -= 3.0;
        v[3] += 3.0;
        v[0] += 10.0;
        v[2] -= 10.0;
        mismatch("owari.mjlog", owari(&v).as_bytes(), "final scores: the record says");
        // owari="" (a game the server stopped) states no result
        let none = format!("{}{}", &xml[..at], &xml[stop..]);
        partial("none.mjlog", none.as_bytes(), "states no result");
    }

    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn tenhou6_edits_are_flagged() {
        let text = shared(T6);
        whole("whole.t6.json", &text);
        let doc: Value = serde_json::from_slice(&text).unwrap();
        let edit = |f: &dyn Fn(&mut Value)| {
            let mut d = doc.clone();
            f(&mut d);
            serde_json::to_vec(&d).unwrap()
        };
        partial("first.json", &edit(&|d| _ = d["log"].as_array_mut().unwrap().remove(0)), "start");
        let last = edit(&|d| _ = d["log"].as_array_mut().unwrap().pop());
        partial("last.json", &last, "does not end the game");
        partial("nosc.json", &edit(&|d| _ = d.as_object_mut().unwrap().remove("sc")), "states no result");
        let points = edit(&|d| {
            d["sc"][1] = Value::from(d["sc"][1].as_f64().unwrap() + 2.0);
            d["sc"][3] = Value::from(d["sc"][3].as_f64().unwrap() - 2.0);
        });
        mismatch("points.json", &points, "final points");
        let scores = edit(&|d| {
            d["sc"][0] = Value::from(d["sc"][0].as_f64().unwrap() + 1000.0);
            d["sc"][2] = Value::from(d["sc"][2].as_f64().unwrap() - 1000.0);
        });
        mismatch("scores.json", &scores, "final scores");
        let retyped = edit(&|d| d["sc"][0] = Value::from(d["sc"][0].to_string()));
        refused("retyped.json", &retyped, "sc");
        // the rule says no red 5m while the log holds one
        refused("aka51.json", &edit(&|d| d["rule"]["aka51"] = Value::from(0)), "a red 5m");
    }

    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn mjai_edits_are_flagged() {
        let game = parse_game("g.mjlog", &shared(MJLOG)).unwrap();
        let text = crate::log::mjai::write::write_mjai(&game).unwrap();
        whole("whole.mjai", text.as_bytes());
        let lines: Vec<&str> = text.lines().collect();
        let starts: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains("\"start_kyoku\"")).collect();
        let ends: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains("\"end_kyoku\"")).collect();
        let without = |from: usize, to: usize| {
            let kept: Vec<&str> = lines[..from].iter().chain(&lines[to..]).copied().collect();
            kept.join("\n")
        };
        partial("first.mjai", without(starts[0], ends[0] + 1).as_bytes(), "start");
        let n = starts.len();
        partial("last.mjai", without(starts[n - 1], ends[n - 1] + 1).as_bytes(), "does not end the game");
        let no_end = without(lines.len() - 1, lines.len());
        assert!(lines[lines.len() - 1].contains("end_game"));
        partial("noend.mjai", no_end.as_bytes(), "states no result");
        // end_game stating scores: the right ones agree, others are a mismatch
        let fin = game.final_scores.unwrap();
        let stated = |s: [i32; 4]| format!("{no_end}\n{{\"type\":\"end_game\",\"scores\":{s:?}}}\n");
        whole("scores.mjai", stated(fin).as_bytes());
        mismatch(
            "scores.mjai",
            stated([fin[0] + 1000, fin[1] - 1000, fin[2], fin[3]]).as_bytes(),
            "final scores",
        );
    }
}
