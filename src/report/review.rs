//! `haifu review`: one game seen through one player's decisions, as data ([`GameReview`], the
//! `--json` schema of docs/review.md, `schema_version` 1). The HTML page is drawn from this data
//! by [`super::review_html`]; a batch of games is written by [`super::review_batch`].
//!
//! Every decision of the player (discards, riichi or dama, calls offered) comes from the replay's
//! [`DecisionRecorder`]; its option rows from [`game_rows`], exactly as `haifu ingest` computes
//! them, so the `linear` scores here are the ones `haifu eval` measures. Discards are ranked with
//! the discard weights (`--weights`, default `data/weights/default.json`), riichi and call
//! decisions with `riichi.json` and `call.json` next to them (or the shipped ones).

use super::error::{ReportError, Result};
use serde::Serialize;

use crate::dataset::rows::{game_rows, DecisionRow, RoundRow};
use crate::features::catalog::{catalog_width, def_of, index};
use crate::features::column::Family;
use crate::features::safety::safety_against;
use crate::features::{shape, value};
use crate::log::event::{Event, Game};
use crate::model::calibration::{judge_with, probabilities, Judgement};
use crate::model::linear::Linear;
use crate::model::stake::{DangerReason, Stake, StakeColumns};
use crate::rank::push_fold::{self, Safety};
use crate::replay::decision::{Action, Decision, DecisionKind, Recording, RoundSink};
use crate::replay::table::Table;
use crate::replay::view::{opponent_seats, view_of, View};
use crate::replay::{replay_game, NoWinCheck, RoundResult};
use crate::tile::Tile;

/// Version of the JSON schema (docs/review.md). Bumped on any change that is not a new field.
pub const SCHEMA_VERSION: u32 = 1;

/// How many feature contributions a disagreement lists.
pub const CONTRIBUTIONS: usize = 6;

/// How many largest-margin disagreements the summary links.
pub const TOP_DISAGREEMENTS: usize = 8;

use crate::model::judges::Models;

/// Whose decisions to review.
#[derive(Clone, Debug)]
pub enum Who {
    Seat(u8),
    Player(String),
}

impl Who {
    /// The seat in `game`, or `None` when the named player is not at this table.
    pub fn seat(&self, game: &Game) -> Option<u8> {
        match self {
            Who::Seat(s) => (*s < game.rules.players).then_some(*s),
            Who::Player(name) => game.players.iter().position(|p| &p.name == name).map(|s| s as u8),
        }
    }
}

/// The whole review of one game for one seat: the `--json` document.
#[derive(Clone, Debug, Serialize)]
pub struct GameReview {
    pub schema_version: u32,
    pub haifu_version: String,
    pub game: GameInfo,
    /// The reviewed seat (0 = the game's first dealer) and its player's name.
    pub seat: u8,
    pub player: String,
    /// Weights files used: discard, riichi, call.
    pub weights: [String; 3],
    /// The model that judges discards, riichi and calls ([`DecisionReview::judged_by`]).
    pub judges: [&'static str; 3],
    pub summary: Summary,
    pub rounds: Vec<RoundReview>,
}

#[derive(Clone, Debug, Serialize)]
pub struct GameInfo {
    /// Tenhou log id when known, else the file's stem.
    pub id: String,
    /// The file (or archive entry) the record came from.
    pub source: String,
    /// The day played (`YYYY-MM-DD`, from a Tenhou id; `None` otherwise) and the table level
    /// (`ippan`, `joukyuu`, `tokujou`, `houou`).
    pub date: Option<String>,
    pub table: String,
    /// Seats at the table: 4, or 3 for a three-player (sanma) game, whose judges are the
    /// three-player models ([`Models::for_players`]).
    pub seats: u8,
    /// The seated players (three at a three-player table).
    pub players: Vec<PlayerInfo>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PlayerInfo {
    pub seat: u8,
    pub name: String,
    /// Tenhou dan index (10 = 初段), when recorded.
    pub dan: Option<u8>,
    /// Final points, the uma/oka-adjusted result and the placement 1..=4 (1..=3 at three
    /// players), when the game ended.
    pub final_score: Option<i32>,
    pub final_result: Option<f32>,
    pub placement: Option<u8>,
}

/// Agreement of `linear` with the player, as counts and as the figures players read
/// (`match_rate`, `bad_move_rate`, `similarity`, `points_lost`). The counts are kept so that
/// games and players sum exactly; each figure is over the decisions it is defined on.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Agreement {
    pub decisions: usize,
    /// The player's choice was linear's first option.
    pub top1: usize,
    /// ... among linear's first three.
    pub top3: usize,
    /// Decisions with a probability (the model is calibrated), and the bad moves among them.
    pub with_probability: usize,
    pub bad_moves: usize,
    /// Sum over those decisions of p(player's choice) / p(model's first choice).
    pub similarity_sum: f64,
    /// Decisions where 電脳麻将's value is defined for the choice and the best option, and the
    /// sum of the points lost on them.
    pub with_points: usize,
    pub points_lost_sum: f64,
    /// `top1 / decisions`: the share of choices equal to the model's first choice (一致率).
    pub match_rate: f64,
    /// Bad moves per decision with a probability (悪手率); 0 without.
    pub bad_move_rate: f64,
    /// Mean of p(player's choice) / p(model's first choice): 1 when every choice is the model's.
    pub similarity: f64,
    /// Mean points lost per decision where defined (see [`DecisionReview::points_lost`]).
    pub points_lost: f64,
}

impl Agreement {
    fn add(&mut self, d: &DecisionReview) {
        self.decisions += 1;
        self.top1 += usize::from(d.matched);
        self.top3 += usize::from(d.judge_rank <= 3);
        if let (Some(p), Some(best)) = (d.probability, d.best_probability) {
            self.with_probability += 1;
            self.bad_moves += usize::from(d.bad_move == Some(true));
            self.similarity_sum += if best > 0.0 { p / best } else { 1.0 };
        }
        if let Some(lost) = d.points_lost {
            self.with_points += 1;
            self.points_lost_sum += lost;
        }
        self.finish();
    }

    /// Adds another agreement's counts (games into a player's total).
    pub fn merge(&mut self, o: &Agreement) {
        self.decisions += o.decisions;
        self.top1 += o.top1;
        self.top3 += o.top3;
        self.with_probability += o.with_probability;
        self.bad_moves += o.bad_moves;
        self.similarity_sum += o.similarity_sum;
        self.with_points += o.with_points;
        self.points_lost_sum += o.points_lost_sum;
        self.finish();
    }

    fn finish(&mut self) {
        let per = |x: f64, n: usize| if n == 0 { 0.0 } else { x / n as f64 };
        self.match_rate = per(self.top1 as f64, self.decisions);
        self.bad_move_rate = per(self.bad_moves as f64, self.with_probability);
        self.similarity = per(self.similarity_sum, self.with_probability);
        self.points_lost = per(self.points_lost_sum, self.with_points);
    }

    pub fn top1_rate(&self) -> f64 {
        self.top1 as f64 / self.decisions.max(1) as f64
    }

    pub fn top3_rate(&self) -> f64 {
        self.top3 as f64 / self.decisions.max(1) as f64
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The whole game, then by decision kind.
    pub game: Agreement,
    pub discard: Agreement,
    pub riichi: Agreement,
    pub call: Agreement,
    /// The north decisions (set aside or keep) of a three-player game, judged by the north's
    /// model; empty at four players.
    pub kita: Agreement,
    /// The largest-margin disagreements, largest first (ids of decisions).
    pub largest_disagreements: Vec<DisagreementRef>,
}

#[derive(Clone, Debug, Serialize)]
pub struct DisagreementRef {
    pub id: String,
    pub round: String,
    pub turn: u8,
    pub kind: DecisionKind,
    pub human: String,
    pub linear: String,
    pub margin: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct RoundReview {
    /// "East 1, 0 honba" and the short form "E1-0".
    pub name: String,
    pub short: String,
    pub dealer: u8,
    /// `ron`, `tsumo`, or the kind of draw (`exhaustive`, ...).
    pub result: String,
    pub winners: Vec<u8>,
    /// Score changes of the four seats.
    pub deltas: [i32; 4],
    /// One line: who won from whom, and the reviewed player's score change.
    pub result_text: String,
    pub agreement: Agreement,
    pub decisions: Vec<DecisionReview>,
}

#[derive(Clone, Debug, Serialize)]
pub struct DecisionReview {
    /// Anchor id, `d1`, `d2`, ... in game order.
    pub id: String,
    pub kind: DecisionKind,
    /// The player's draws so far this round, and the tiles left in the live wall.
    pub turn: u8,
    pub wall_left: u8,
    /// The hand before the decision as `haifu nanikiru` reads it (concealed tiles, then melds).
    pub hand: String,
    /// Concealed tiles in mpsz, sorted, the drawn tile left out (it is `drawn`).
    pub concealed: Vec<String>,
    /// The tile just drawn (discard and riichi decisions after a draw).
    pub drawn: Option<String>,
    /// Melds, each as its tiles in mpsz.
    pub melds: Vec<String>,
    /// For call decisions: the discard on offer and who threw it.
    pub offered: Option<String>,
    pub offered_by: Option<u8>,
    pub dora_indicators: Vec<String>,
    /// Opponents in riichi (declared or accepted).
    pub riichi: Vec<RiichiPlayer>,
    /// Scores of the four seats before the decision.
    pub scores: [i32; 4],
    /// The player's choice (an option label) and linear's pick.
    pub human: String,
    pub linear: String,
    /// 1-based rank of the player's choice in linear's order.
    pub human_rank: usize,
    /// Linear score of its pick minus that of the player's choice (0 when they agree).
    pub margin: f64,
    /// The model that judges the decision (`matched`, `probability`, `bad_move` and the
    /// game's figures): `trees` when the review has a calibrated trees model of the decision's
    /// kind (`--trees`), else `linear`.
    pub judged_by: &'static str,
    /// The player took the judge's first choice (a tie at the top counts).
    pub matched: bool,
    /// 1-based rank of the player's choice in the judge's order.
    pub judge_rank: usize,
    /// The probability the calibrated judge gives the player's choice (`softmax(score / T)`);
    /// `None` when the model has no calibration (`haifu calibrate [--trees]`).
    pub probability: Option<f64>,
    /// The probability of the judge's first choice (the similarity's denominator).
    pub best_probability: Option<f64>,
    /// The probability is below the bad-move threshold (`--bad-below`, NAGA's 5%).
    pub bad_move: Option<bool>,
    /// 電脳麻将's expected value of the best option minus that of the player's choice, in points;
    /// `None` where the value is not defined for either: riichi and call decisions, and discards
    /// that leave the hand at 3+ shanten (no value computed).
    pub points_lost: Option<f64>,
    /// Every option, best first by linear.
    pub options: Vec<OptionReview>,
    /// Why linear prefers its pick, when it differs from the player's choice.
    pub explanation: Option<Explanation>,
    /// The trees model's view of a discard, when the review has a trees model.
    pub trees: Option<TreesReview>,
    /// A discard where the judge's first choice and the player's differ in danger: the
    /// deal-in probabilities, expected losses and values at stake of both.
    pub danger: Option<DangerNote>,
}

/// The trees evaluator on one discard decision: its order, and where it differs from the player,
/// the exact (TreeSHAP) contributions of each feature to the gap.
#[derive(Clone, Debug, Serialize)]
pub struct TreesReview {
    /// The trees' first choice.
    pub pick: String,
    /// 1-based rank of the player's choice in the trees' order.
    pub human_rank: usize,
    /// The player took the trees' first choice (a tie at the top counts).
    pub matched: bool,
    /// Every option best first: label and score.
    pub order: Vec<(String, f64)>,
    /// The options' probabilities in `order`'s order, when the trees model is calibrated.
    pub probabilities: Option<Vec<f64>>,
    /// `score(player's choice) - score(pick)` (0 when they agree): the sum of every feature's
    /// contribution below, exactly.
    pub gap: f64,
    /// The largest contributions to the gap (at most [`TREES_SHOWN`]); negative ones favour the
    /// trees' pick.
    pub contributions: Vec<crate::model::trees::Difference>,
    /// The whole gap summed by feature family.
    pub families: Vec<(String, f64)>,
}

/// How many contributions a [`TreesReview`] lists.
pub const TREES_SHOWN: usize = 8;

#[derive(Clone, Debug, Serialize)]
pub struct RiichiPlayer {
    pub seat: u8,
    /// shimocha (next), toimen (across) or kamicha (previous).
    pub relative: String,
    pub name: String,
    /// The player's river in mpsz, the riichi tile marked with a following `*`.
    pub river: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct OptionReview {
    /// Option label: a tile (`5m`, `0p` red five), `riichi`, `dama`, `pass`, `chi_34m`,
    /// `pon_55z`, `daiminkan`.
    pub label: String,
    pub chosen: bool,
    pub linear_score: f64,
    /// 1-based rank by linear score.
    pub linear_rank: usize,
    /// The calibrated probability of the option (see [`DecisionReview::probability`]).
    pub probability: Option<f64>,
    /// Expected hand value (`ev` column, 電脳麻将), `None` at 3+ shanten.
    pub ev: Option<f64>,
    /// Unseen effective tiles and shanten after the option (`ukeire_count`, `shanten_min`).
    pub ukeire: u32,
    pub shanten: i8,
    /// Discards only: the safety class against each opponent in riichi.
    pub safety: Vec<SafetyReview>,
    /// Discards only: the danger models' probability of dealing in and expected loss, and the
    /// value at stake (`ev` less that loss).
    pub stake: Option<Stake>,
}

/// Where danger separated the player's discard from the judge's first choice
/// ([`crate::model::stake::reason`]): which way, both options' stakes, and the line that says it.
#[derive(Clone, Debug, Serialize)]
pub struct DangerNote {
    pub reason: DangerReason,
    /// The judge's first choice (an option label).
    pub pick: String,
    pub human: Stake,
    pub judge: Stake,
    pub text: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct SafetyReview {
    pub seat: u8,
    /// `genbutsu`, `honor_last`, `suji`, `honor`, `half_suji`, `unsafe` (push/fold's classes).
    pub class: String,
    /// The hand-set danger estimate of the safety features (`danger_est`, 0 = safe).
    pub danger: f32,
    /// No-chance / one-chance (kabe) when the tile is not genbutsu.
    pub kabe: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Explanation {
    /// Largest contributions to `score(player's choice) - score(linear's pick)`; negative ones
    /// favour linear's pick.
    pub contributions: Vec<ContributionReview>,
    /// How many features differ in score between the two options (the line sums over all).
    pub features_differing: usize,
    /// A plain-language line.
    pub text: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct ContributionReview {
    /// Column name as in the weights file (`level*base` for a situation-dependent weight).
    pub feature: String,
    pub family: String,
    pub meaning: String,
    pub human_value: f32,
    pub linear_value: f32,
    pub weight: f64,
    /// weight × (human_value - linear_value).
    pub contribution: f64,
}

/// The trees model's order of a decision's options, the contributions to the gap between the
/// player's choice and the trees' pick, and the trees' judgement of the choice (with
/// probabilities when the model is calibrated).
fn trees_review(
    t: &crate::model::trees::TreesRanker,
    d: &Decision,
    row: &DecisionRow,
    base: &[&[f32]],
) -> (TreesReview, Judgement) {
    use crate::model::trees::inputs::Situation;
    let situation =
        Situation::of_decision(row.turn, row.wall_left, row.round_wind, row.dealer, row.scoreboard());
    let scores = t.score_rows(base, situation);
    let probs = t.calibration().map(|c| probabilities(&scores, c.temperature));
    let judged = judge_with(&scores, d.chosen, probs.as_deref());
    let order = best_first(&scores);
    let (pick, human) = (order[0], d.chosen);
    // TreeSHAP only where there is a gap to explain (no contribution is non-zero otherwise).
    let (contributions, families) = if pick == human {
        (Vec::new(), Vec::new())
    } else {
        let diff = t.differences(base, situation, human, pick);
        let families = diff.families.into_iter().filter(|f| f.1.abs() > 1e-12);
        (
            diff.features.into_iter().take(TREES_SHOWN).collect(),
            families.map(|(f, v)| (f.to_string(), v)).collect(),
        )
    };
    let review = TreesReview {
        pick: d.options[pick].label(),
        human_rank: order.iter().position(|&o| o == human).unwrap_or(0) + 1,
        matched: judged.matched,
        order: order.iter().map(|&o| (d.options[o].label(), scores[o])).collect(),
        probabilities: probs.map(|p| order.iter().map(|&o| p[o]).collect()),
        gap: scores[human] - scores[pick],
        contributions,
        families,
    };
    (review, judged)
}

/// Option indices by score, best first; equal scores keep the options' order.
fn best_first(scores: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    order
}

/// Collects each decision with the ordinal of its round.
#[derive(Default)]
struct Collector {
    round: usize,
    done: Vec<(usize, Decision)>,
}

impl RoundSink for Collector {
    fn round(&mut self, _table: &Table, _result: &RoundResult, decisions: Vec<Decision>) {
        let round = self.round;
        self.done.extend(decisions.into_iter().map(|d| (round, d)));
        self.round += 1;
    }
}

const WINDS: [&str; 4] = ["East", "South", "West", "North"];
const RELATIVE: [&str; 4] = ["self", "shimocha", "toimen", "kamicha"];

fn safety_name(s: Safety) -> &'static str {
    match s {
        Safety::Genbutsu => "genbutsu",
        Safety::HonorLast => "honor_last",
        Safety::Suji => "suji",
        Safety::Honor => "honor",
        Safety::HalfSuji => "half_suji",
        Safety::Unsafe => "unsafe",
    }
}

/// Family and meaning of a weights-file column (`level*base` names the base's meaning).
pub fn describe(feature: &str) -> (String, String) {
    let (level, base) = match feature.split_once('*') {
        Some((l, b)) => (Some(l), b),
        None => (None, feature),
    };
    let (family, meaning) = match def_of(base) {
        Some(d) => (d.family.name().to_string(), d.meaning.to_string()),
        None => ("?".to_string(), String::new()),
    };
    match level {
        Some(l) => (family, format!("{meaning} (weight for situation `{l}`)")),
        None => (family, meaning),
    }
}

/// What a feature is about, for the plain-language line: the catalog's family says it, and
/// the shape and visibility families name the few columns a reader knows by name.
fn theme(feature: &str) -> &'static str {
    let base = feature.split_once('*').map_or(feature, |(_, b)| b);
    let Some(family) = def_of(base).map(|d| d.family) else { return "the shape" };
    match family {
        Family::Value => "the hand value (ev)",
        Family::Action | Family::RiichiTrade | Family::CallTrade => "its baseline for this kind of action",
        Family::Shape if base.starts_with("ukeire") || base.starts_with("shanten") => "the ukeire",
        Family::Shape if base == "tenpai" || base == "iishanten" => "the ukeire",
        Family::Shape if base.starts_with("wait") => "the wait shape",
        Family::Visibility if base == "discard_class" => {
            "the usual discard order (honors and terminals first)"
        }
        Family::Safety => "safety against the riichi",
        Family::Dora => "the dora",
        Family::YakuPotential | Family::Levels => "the yaku chances",
        Family::Energy => "the tile-efficiency patterns",
        Family::Melds21 => "the meld structure",
        Family::River => "the river",
        Family::Reading => "the order of the opponents' discards",
        Family::Danger => "the danger of dealing in (the danger models)",
        Family::AllLast => "what the scores need",
        Family::SeatReading => "each opponent's river in order",
        Family::FuritenRisk => "the furiten risk",
        Family::Shape | Family::Visibility | Family::Threat => "the shape",
    }
}

fn round_long(round: u8, honba: u8) -> String {
    format!("{} {}, {honba} honba", WINDS[(round / 4) as usize % 4], round % 4 + 1)
}

/// Reviews one game for `seat`. `source` names the file in the output. A three-player game is
/// judged by the three-player models of `models` ([`Models::for_players`]; an error when there
/// are none: a four-player model never judges a sanma decision).
pub fn review_game(game: &Game, source: &str, seat: u8, models: &Models) -> Result<GameReview> {
    let players = game.rules.players;
    if seat >= players {
        return Err(ReportError::NoSuchSeat { seat, players });
    }
    let models = models.for_players(players).ok_or(ReportError::NoJudges { players })?;
    let rows = game_rows(game).map_err(ReportError::Rows)?;
    let mut recording = Recording::new(Collector::default());
    replay_game(game, &mut recording, &mut NoWinCheck).map_err(ReportError::Replay)?;
    let c = recording.sink;
    if c.done.len() != rows.decisions.len() {
        return Err(ReportError::RowCount { replayed: c.done.len(), rows: rows.decisions.len() });
    }
    let names: Vec<String> = game.players.iter().map(|p| p.name.clone()).collect();
    let reviewer =
        Reviewer { seat, players, names: &names, red: game.rules.red_fives(), models, cols: Columns::new() };
    let mut rounds: Vec<RoundReview> =
        rows.rounds.iter().map(|r| round_review(r, seat, &names, players)).collect();

    let w = catalog_width();
    let mut n = 0usize;
    for (i, (round, d)) in c.done.iter().enumerate() {
        let row = &rows.decisions[i];
        if row.seat != d.seat || row.kind != d.kind || row.chosen != d.options[d.chosen].label() {
            return Err(ReportError::Disagree { index: i });
        }
        if d.seat != seat {
            continue;
        }
        n += 1;
        let lo = rows.option_ptr[i] as usize;
        let hi = rows.option_ptr[i + 1] as usize;
        let base: Vec<&[f32]> = (lo..hi).map(|o| &rows.values[o * w..(o + 1) * w]).collect();
        let review = reviewer.decision(n, d, row, &base);
        let r = rounds.get_mut(*round).ok_or(ReportError::AfterLastRound)?;
        r.agreement.add(&review);
        r.decisions.push(review);
    }

    Ok(GameReview {
        schema_version: SCHEMA_VERSION,
        haifu_version: env!("CARGO_PKG_VERSION").to_string(),
        game: GameInfo {
            id: game.id.clone(),
            source: source.to_string(),
            date: game.date(),
            table: game.rules.table.name().to_string(),
            seats: players,
            players: players_of(game),
        },
        seat,
        player: names[seat as usize].clone(),
        weights: models.paths.clone(),
        judges: models.judges(),
        summary: summarize(&rounds),
        rounds,
    })
}

/// The seated players with their final score, result and placement (when the record has them).
fn players_of(game: &Game) -> Vec<PlayerInfo> {
    let placements = game.final_scores.map(|s| crate::util::placements_of(&s, game.rules.players));
    game.rules
        .seats()
        .map(usize::from)
        .map(|s| PlayerInfo {
            seat: s as u8,
            name: game.players[s].name.clone(),
            dan: game.players[s].dan,
            final_score: game.final_scores.map(|f| f[s]),
            final_result: game.final_results.map(|f| f[s]),
            placement: placements.map(|p| p[s]),
        })
        .collect()
}

/// A round's header as the review shows it (its decisions are added later): its names, who won
/// from whom, and the reviewed seat's score change.
fn round_review(r: &RoundRow, seat: u8, names: &[String], players: u8) -> RoundReview {
    let winners: Vec<u8> = r.winners.split(',').filter_map(|x| x.parse().ok()).collect();
    let mine = r.deltas[seat as usize];
    let by = |s: u8| names[s as usize].clone();
    let what = match r.result.as_str() {
        "ron" | "tsumo" => {
            let ws: Vec<String> = winners.iter().map(|&s| by(s)).collect();
            if r.result == "tsumo" {
                format!("tsumo by {}", ws.join(", "))
            } else {
                let loser = (0..usize::from(players)).min_by_key(|&s| r.deltas[s]).unwrap_or(0) as u8;
                format!("ron by {} from {}", ws.join(", "), by(loser))
            }
        }
        other => format!("draw ({other})"),
    };
    RoundReview {
        name: round_long(r.round, r.honba),
        short: crate::replay::round_name(r.round, r.honba),
        dealer: r.dealer,
        result: r.result.clone(),
        winners,
        deltas: r.deltas,
        result_text: format!("{what}; {} {mine:+}", names[seat as usize]),
        agreement: Agreement::default(),
        decisions: Vec::new(),
    }
}

/// Where the figures an option shows sit in a catalog row.
struct Columns {
    ev: usize,
    ev_defined: usize,
    ukeire: usize,
    shanten: usize,
    stake: StakeColumns,
}

impl Columns {
    fn new() -> Columns {
        Columns {
            ev: index(value::EV),
            ev_defined: index(value::EV_DEFINED),
            ukeire: index(shape::UKEIRE_COUNT),
            shanten: index(shape::SHANTEN_MIN),
            stake: StakeColumns::default(),
        }
    }
}

/// What every decision of one review shares: the reviewed seat, the players' names, the rules'
/// red fives, the models and the catalog columns.
struct Reviewer<'a> {
    seat: u8,
    /// Seats at the table (the opponents' seats follow [`opponent_seats`]).
    players: u8,
    names: &'a [String],
    red: bool,
    models: &'a Models,
    cols: Columns,
}

impl Reviewer<'_> {
    /// The review of decision `d` (the `n`th of the seat), whose option rows are `base`: the
    /// options in the model's order, the table as the player saw it, and why the model differs.
    fn decision(&self, n: usize, d: &Decision, row: &DecisionRow, base: &[&[f32]]) -> DecisionReview {
        let seat = self.seat;
        let model = self.models.for_kind(d.kind);
        let scores = model.score_rows(base, row.turn);
        let order = best_first(&scores);
        let rank_of = |o: usize| order.iter().position(|&x| x == o).unwrap_or(0) + 1;
        let probs = model.file.calibration.as_ref().map(|c| probabilities(&scores, c.temperature));
        let pick = order[0];
        let human = d.chosen;
        let judged = judge_with(&scores, human, probs.as_deref());

        let t = &d.table;
        let hand_tiles = t.hand_tiles(seat);
        let view = view_of(t, seat, hand_tiles.clone());
        // Opponents in riichi, at relative seats 1..=3.
        let riichi_rel: Vec<usize> = (0..3).filter(|&i| view.opponents[i].in_riichi()).collect();
        let riichi = self.riichi_players(&view, &riichi_rel);
        let per_opp = per_riichi_views(&view, opponent_seats(self.players, seat), &riichi_rel);

        let options: Vec<OptionReview> = order
            .iter()
            .map(|&o| {
                let r = base[o];
                let action = &d.options[o];
                let safety = match (action, d.kind) {
                    (Action::Discard(tile), DecisionKind::Discard) => {
                        safety_reviews(&view, *tile, &per_opp, &riichi_rel)
                    }
                    _ => Vec::new(),
                };
                OptionReview {
                    label: action.label(),
                    chosen: o == human,
                    linear_score: scores[o],
                    linear_rank: rank_of(o),
                    probability: probs.as_ref().map(|p| p[o]),
                    ev: (r[self.cols.ev_defined] > 0.0).then_some(r[self.cols.ev] as f64),
                    ukeire: r[self.cols.ukeire] as u32,
                    shanten: r[self.cols.shanten] as i8,
                    safety,
                    stake: self.cols.stake.of(d.kind, r),
                }
            })
            .collect();

        let explanation = (pick != human).then(|| explain(model, base, row.turn, d, human, pick, &options));
        let trees = self.models.trees.get(d.kind).map(|t| trees_review(t, d, row, base));
        // Calibrated trees judge the decisions of their kind; linear judges the rest.
        let (judged_by, judged, judge_rank) = match &trees {
            Some((t, j)) if j.probability.is_some() => ("trees", *j, t.human_rank),
            _ => ("linear", judged, rank_of(human)),
        };
        let trees = trees.map(|(t, _)| t);
        let danger =
            self.cols.stake.stakes(d.kind, base[human], base[judged.pick]).and_then(|(h, p)| {
                danger_note(&d.options[human].label(), &d.options[judged.pick].label(), h, p)
            });
        let ev_of = |o: usize| (base[o][self.cols.ev_defined] > 0.0).then(|| base[o][self.cols.ev] as f64);
        let best_ev = (0..base.len()).filter_map(ev_of).reduce(f64::max);
        let points_lost = best_ev.zip(ev_of(human)).map(|(b, h)| b - h);
        let (concealed, drawn) = concealed_and_drawn(d, hand_tiles, seat, self.red);
        let offered_by = match d.kind {
            DecisionKind::Call => t.last_discard.map(|(s, _)| s),
            _ => None,
        };
        DecisionReview {
            id: format!("d{n}"),
            kind: d.kind,
            turn: row.turn,
            wall_left: row.wall_left,
            hand: row.hand.clone(),
            concealed: concealed.iter().map(Tile::to_string).collect(),
            drawn: drawn.map(|x| x.to_string()),
            melds: view.melds.iter().map(|m| crate::tile::format_mpsz(m.tiles())).collect(),
            offered: d.offered.map(|x| x.to_string()),
            offered_by,
            dora_indicators: view.dora_indicators.iter().map(Tile::to_string).collect(),
            riichi,
            scores: t.scores,
            human: d.options[human].label(),
            linear: d.options[pick].label(),
            human_rank: rank_of(human),
            margin: scores[pick] - scores[human],
            judged_by,
            matched: judged.matched,
            judge_rank,
            probability: judged.probability,
            best_probability: judged.best_probability,
            bad_move: judged.bad_move(self.models.bad_below),
            points_lost,
            options,
            explanation,
            trees,
            danger,
        }
    }

    /// The opponents in riichi (relative seats `riichi_rel`) with their rivers, the riichi
    /// discard starred.
    fn riichi_players(&self, view: &View, riichi_rel: &[usize]) -> Vec<RiichiPlayer> {
        riichi_rel
            .iter()
            .map(|&i| {
                let s = opponent_seats(self.players, self.seat)[i].unwrap_or(self.seat);
                let o = &view.opponents[i];
                let river = o
                    .river
                    .iter()
                    .enumerate()
                    .map(|(k, r)| format!("{}{}", r.tile, if Some(k) == o.riichi_at { "*" } else { "" }))
                    .collect::<String>();
                RiichiPlayer {
                    seat: s,
                    relative: RELATIVE[i + 1].to_string(),
                    name: self.names[s as usize].clone(),
                    river,
                }
            })
            .collect()
    }
}

/// The danger note of a decision where the player's `human` option (stake `h`) and the judge's
/// `pick` (stake `p`) differ by [`crate::model::stake::DANGER_GAP`] or more in deal-in
/// probability.
fn danger_note(human: &str, pick: &str, h: Stake, p: Stake) -> Option<DangerNote> {
    let reason = crate::model::stake::reason(&h, &p)?;
    let verb = match reason {
        DangerReason::Pushed => "pushed",
        DangerReason::Folded => "played safe with",
    };
    let mut text = format!(
        "{verb} {}: deals in {:.1}% (expected loss {:.0}) where the judge's {} deals in {:.1}% ({:.0})",
        readable(human),
        100.0 * h.dealin,
        h.loss,
        readable(pick),
        100.0 * p.dealin,
        p.loss
    );
    if let (Some(hs), Some(ps)) = (h.at_stake, p.at_stake) {
        text.push_str(&format!("; value at stake (ev less the loss) {hs:.0} against {ps:.0}"));
    }
    Some(DangerNote { reason, pick: pick.to_string(), human: h, judge: p, text })
}

/// One position per riichi opponent, each seeing only that riichi, for push/fold's classes.
/// `seats` are the opponents' absolute seats by relative slot ([`opponent_seats`]).
fn per_riichi_views(view: &View, seats: [Option<u8>; 3], riichi_rel: &[usize]) -> Vec<(u8, View)> {
    riichi_rel
        .iter()
        .map(|&i| {
            let mut v = view.clone();
            for (j, o) in v.opponents.iter_mut().enumerate() {
                if j != i {
                    o.riichi_at = None;
                }
            }
            (seats[i].unwrap_or_default(), v)
        })
        .collect()
}

/// How safe discarding `tile` is against each riichi opponent: push/fold's class, the
/// estimated danger, and the wall (kabe) reading when the tile is not genbutsu.
fn safety_reviews(
    view: &View,
    tile: Tile,
    per_opp: &[(u8, View)],
    riichi_rel: &[usize],
) -> Vec<SafetyReview> {
    let feat = safety_against(view, tile.kind());
    per_opp
        .iter()
        .zip(riichi_rel)
        .map(|((s, pos), &rel)| {
            let class = push_fold::safety(pos, tile).unwrap_or(Safety::Unsafe);
            let f = feat[rel].unwrap_or_default();
            let kabe = if class == Safety::Genbutsu {
                None
            } else if f.no_chance {
                Some("no-chance".to_string())
            } else if f.one_chance {
                Some("one-chance".to_string())
            } else {
                None
            };
            SafetyReview { seat: *s, class: safety_name(class).to_string(), danger: f.danger_est, kabe }
        })
        .collect()
}

/// Why the model prefers option `pick` to the player's `human`: each expanded feature's share
/// of the score difference, largest first (the first [`CONTRIBUTIONS`] kept), and a plain line.
fn explain(
    model: &Linear,
    base: &[&[f32]],
    turn: u8,
    d: &Decision,
    human: usize,
    pick: usize,
    options: &[OptionReview],
) -> Explanation {
    let (xh, xp) = model.derived.with_augmented(base, |base| {
        let s = model.expansion.situation(base, turn);
        (model.expansion.expand_row(base[human], &s), model.expansion.expand_row(base[pick], &s))
    });
    let mut contribs: Vec<ContributionReview> = model
        .expansion
        .names()
        .iter()
        .enumerate()
        .filter_map(|(j, name)| {
            let c = model.w[j] * (xh[j] - xp[j]) as f64;
            (c.abs() > 1e-9).then(|| {
                let (family, meaning) = describe(name);
                ContributionReview {
                    feature: name.clone(),
                    family,
                    meaning,
                    human_value: xh[j],
                    linear_value: xp[j],
                    weight: model.w[j],
                    contribution: c,
                }
            })
        })
        .collect();
    contribs.sort_by(|a, b| b.contribution.abs().total_cmp(&a.contribution.abs()));
    let text = plain_line(d, human, pick, options, &contribs);
    let features_differing = contribs.len();
    contribs.truncate(CONTRIBUTIONS);
    Explanation { contributions: contribs, features_differing, text }
}

/// The concealed hand sorted for display (reds after the plain fives of their kind), without
/// the tile just drawn, and that drawn tile, shown apart (discard and riichi decisions only).
fn concealed_and_drawn(
    d: &Decision,
    hand_tiles: Vec<Tile>,
    seat: u8,
    red: bool,
) -> (Vec<Tile>, Option<Tile>) {
    let drawn = match d.kind {
        DecisionKind::Discard | DecisionKind::Riichi => {
            d.table.last_draw[seat as usize].map(|id| id.tile(red))
        }
        _ => None,
    };
    let mut concealed = hand_tiles;
    if let Some(dt) = drawn {
        if let Some(p) = concealed.iter().position(|x| *x == dt) {
            concealed.remove(p);
        }
    }
    concealed.sort_by_key(|x| (x.kind(), !x.is_red()));
    (concealed, drawn)
}

/// The game's agreement, overall and per decision kind, and its largest-margin disagreements.
fn summarize(rounds: &[RoundReview]) -> Summary {
    let mut summary = Summary {
        game: Agreement::default(),
        discard: Agreement::default(),
        riichi: Agreement::default(),
        call: Agreement::default(),
        kita: Agreement::default(),
        largest_disagreements: Vec::new(),
    };
    let mut dis: Vec<DisagreementRef> = Vec::new();
    for r in rounds {
        for d in &r.decisions {
            summary.game.add(d);
            match d.kind {
                DecisionKind::Riichi => summary.riichi.add(d),
                DecisionKind::Call => summary.call.add(d),
                DecisionKind::Kita => summary.kita.add(d),
                _ => summary.discard.add(d),
            }
            if d.human_rank != 1 {
                dis.push(DisagreementRef {
                    id: d.id.clone(),
                    round: r.short.clone(),
                    turn: d.turn,
                    kind: d.kind,
                    human: d.human.clone(),
                    linear: d.linear.clone(),
                    margin: d.margin,
                });
            }
        }
    }
    dis.sort_by(|a, b| b.margin.total_cmp(&a.margin));
    dis.truncate(TOP_DISAGREEMENTS);
    summary.largest_disagreements = dis;
    summary
}

/// The plain-language line of a disagreement: what the player's choice did differently, and
/// what the model weighs most in favour of its own pick.
fn plain_line(
    d: &Decision,
    human: usize,
    pick: usize,
    options: &[OptionReview],
    contribs: &[ContributionReview],
) -> String {
    let h_label = d.options[human].label();
    let p_label = d.options[pick].label();
    let find = |l: &str| options.iter().find(|o| o.label == l);
    let (h_label, p_label) = (&h_label, &p_label);
    let (Some(h), Some(p)) = (find(h_label), find(p_label)) else { return String::new() };
    let (h_label, p_label) = (readable(h_label), readable(p_label));
    let mut parts: Vec<String> = Vec::new();
    match d.kind {
        DecisionKind::Riichi => parts.push(if d.options[human] == Action::Riichi {
            "declared riichi where the model stays dama".into()
        } else {
            "stayed dama where the model declares riichi".into()
        }),
        DecisionKind::Call => parts.push(match (&d.options[human], &d.options[pick]) {
            (Action::Pass, _) => format!("passed where the model calls {p_label}"),
            (_, Action::Pass) => format!("called {h_label} where the model passes"),
            _ => format!("called {h_label} where the model prefers {p_label}"),
        }),
        _ => {
            let worst = |o: &OptionReview| {
                o.safety.iter().map(|s| (s.danger, s.class.clone())).max_by(|a, b| a.0.total_cmp(&b.0))
            };
            if let (Some(hs), Some(ps)) = (worst(h), worst(p)) {
                if hs.0 < ps.0 {
                    parts.push(format!(
                        "kept the safer tile against the riichi ({h_label} {} vs {p_label} {})",
                        hs.1, ps.1
                    ));
                } else if hs.0 > ps.0 {
                    parts.push(format!(
                        "pushed {h_label} ({}) where the model plays {p_label} ({})",
                        hs.1, ps.1
                    ));
                }
            }
            if h.shanten > p.shanten {
                parts.push(format!("went back to {}-shanten", h.shanten));
            } else if h.ukeire < p.ukeire {
                parts.push(format!(
                    "gave up {} tiles of ukeire ({} vs {})",
                    p.ukeire - h.ukeire,
                    h.ukeire,
                    p.ukeire
                ));
            } else if h.ukeire > p.ukeire {
                parts.push(format!("kept more ukeire ({} vs {})", h.ukeire, p.ukeire));
            }
            if let (Some(he), Some(pe)) = (h.ev, p.ev) {
                if he > pe * 1.05 + 1.0 {
                    parts.push(format!("kept more hand value (ev {he:.0} vs {pe:.0})"));
                }
            }
            if parts.is_empty() {
                parts.push(format!("discarded {h_label} where the model discards {p_label}"));
            }
        }
    }
    // Contributions summed by theme: the theme that pulls most towards the model's pick, and
    // the one that pulls most towards the player's choice.
    let mut by_theme: Vec<(&'static str, f64)> = Vec::new();
    for c in contribs {
        let t = theme(&c.feature);
        match by_theme.iter_mut().find(|(n, _)| *n == t) {
            Some(e) => e.1 += c.contribution,
            None => by_theme.push((t, c.contribution)),
        }
    }
    let against = by_theme.iter().filter(|e| e.1 < 0.0).min_by(|a, b| a.1.total_cmp(&b.1)).map(|e| e.0);
    let favour = by_theme.iter().filter(|e| e.1 > 0.0).max_by(|a, b| a.1.total_cmp(&b.1)).map(|e| e.0);
    let mut line = parts.join("; ");
    if let Some(t) = against {
        line.push_str(&format!("; the model values {t} more here"));
    }
    if let Some(t) = favour {
        line.push_str(&format!(", the player's choice scores better on {t}"));
    }
    line
}

/// An option label for the plain-language line: honors also by the face the page draws
/// (`1z (E)`, `5z (Wh)`).
fn readable(label: &str) -> String {
    const FACES: [&str; 7] = ["E", "S", "W", "N", "Wh", "G", "R"];
    match label.as_bytes() {
        [n @ b'1'..=b'7', b'z'] => format!("{label} ({})", FACES[(n - b'1') as usize]),
        _ => label.to_string(),
    }
}

/// What the record says the player did, in order, independently of the decision recorder: every
/// discard made outside riichi (its tile), every declared riichi (`riichi`), every chi / pon /
/// open kan (its label). Tests compare the review's choices with it.
pub fn recorded_actions(game: &Game, seat: u8) -> Vec<String> {
    let red = game.rules.red_fives();
    let mut out = Vec::new();
    for round in &game.rounds {
        let mut in_riichi = false;
        let mut declared = false;
        for e in &round.events {
            match e {
                Event::Riichi { who, step: 1, .. } if *who == seat => {
                    out.push("riichi".into());
                    declared = true;
                }
                Event::Discard { who, tile } if *who == seat => {
                    if !in_riichi {
                        out.push(tile.tile(red).to_string());
                    }
                    if declared {
                        in_riichi = true;
                    }
                }
                Event::Call { who, call } if *who == seat => {
                    if let Some(called) = call.called {
                        let mine: Vec<Tile> =
                            call.tiles.iter().filter(|&&id| id != called).map(|id| id.tile(red)).collect();
                        let label = match call.kind {
                            crate::hand::meld::MeldKind::Chi => {
                                let mut m = [mine[0], mine[1]];
                                m.sort_by_key(|t| (t.kind(), !t.is_red()));
                                Action::Chi(m).label()
                            }
                            crate::hand::meld::MeldKind::Pon => {
                                let mut m = [mine[0], mine[1]];
                                m.sort_by_key(|t| !t.is_red());
                                Action::Pon(m).label()
                            }
                            crate::hand::meld::MeldKind::Daiminkan => Action::Daiminkan.label(),
                            _ => continue,
                        };
                        out.push(label);
                    }
                }
                _ => {}
            }
        }
    }
    out
}

impl GameReview {
    /// The player's choices that did something (no `pass`, no `dama`), in order: what
    /// [`recorded_actions`] reads from the record.
    pub fn acted(&self) -> Vec<String> {
        self.rounds
            .iter()
            .flat_map(|r| &r.decisions)
            .filter(|d| d.human != "pass" && d.human != "dama")
            .map(|d| d.human.clone())
            .collect()
    }

    pub fn decisions(&self) -> impl Iterator<Item = &DecisionReview> {
        self.rounds.iter().flat_map(|r| &r.decisions)
    }

    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("review serialises");
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_meanings_come_from_the_catalog() {
        let (family, meaning) = describe("ukeire_count");
        assert_eq!(family, "shape");
        assert!(!meaning.is_empty());
        assert!(describe("sh1*ev").1.contains("sh1"));
        assert_eq!(describe("act_pass").0, "action");
        assert_eq!(describe("ev").0, "value");
        assert_eq!(describe("riichi_x_turn").0, "riichi_trade");
        assert_eq!(describe("no_such_column").0, "?");
    }

    /// On real games the judge names danger where the danger models separate the player's
    /// discard from the judge's first choice, and only there: every discard option carries its
    /// stake, a note's reason follows the sign of the deal-in gap, and some bad moves are pushes.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn the_judge_names_danger_where_it_separates_the_discards() {
        use crate::model::stake::DANGER_GAP;
        let mut files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        files.truncate(3);
        let models = Models::for_tests(0.05, false);
        let (mut notes, mut bad_pushes, mut staked) = (0, 0, 0);
        for path in &files {
            let game = crate::log::source::parse_game("g", &std::fs::read(path).unwrap()).unwrap();
            for seat in 0..game.rules.players {
                let r = review_game(&game, "", seat, &models).unwrap();
                for d in r.decisions() {
                    let discard = d.kind == DecisionKind::Discard;
                    for o in &d.options {
                        assert_eq!(o.stake.is_some(), discard, "{path:?} {} {}", d.id, o.label);
                        if let Some(s) = o.stake {
                            assert!((0.0..=1.0).contains(&s.dealin) && s.loss >= 0.0, "{s:?}");
                            staked += 1;
                        }
                    }
                    let stake = |l: &str| d.options.iter().find(|o| o.label == l).and_then(|o| o.stake);
                    match &d.danger {
                        Some(n) => {
                            let gap = n.human.dealin - n.judge.dealin;
                            assert!(gap.abs() >= DANGER_GAP && n.pick != d.human, "{} {gap}", d.id);
                            assert_eq!(n.reason == DangerReason::Pushed, gap > 0.0);
                            assert_eq!((Some(n.human), Some(n.judge)), (stake(&d.human), stake(&n.pick)));
                            notes += 1;
                            if d.bad_move == Some(true) && n.reason == DangerReason::Pushed {
                                bad_pushes += 1;
                            }
                        }
                        None if discard => {
                            let (h, p) = (stake(&d.human).unwrap(), stake(&d.linear).unwrap());
                            assert!((h.dealin - p.dealin).abs() < DANGER_GAP, "{path:?} {}", d.id);
                        }
                        None => {}
                    }
                }
            }
        }
        assert!(staked > 1000 && notes > 0 && bad_pushes > 0, "{staked} {notes} {bad_pushes}");
    }
}
