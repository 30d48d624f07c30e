//! Scoring an ingested dataset with every evaluator: agreement with the recorded picks, overall
//! and sliced (shanten before the decision, turn, riichi situation, table level, human vs AI
//! seat), each evaluator plain and under the push/fold policy layer. `haifu eval` prints it,
//! `haifu report` renders it.
//!
//! One streaming pass over the options table (part by part, slices of rows, only the needed
//! columns, feature columns cast to f32) groups the
//! rows by decision and scores them: `ukeire` is a fixed linear function of the option columns,
//! `ev` orders a discard decision's options as 電脳麻将 does from its value columns
//! ([`crate::eval::ev_order`]), `linear` is the fitted [`Linear`] evaluator (with its interaction columns, exactly as
//! for a live position), `yaku` is scored from the decision's hand. Memory holds one slice.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::error::EvalError;

use crate::dataset::parts;
use crate::eval::agreement::{ev_weights, turn_bucket, ukeire_weights, Sliced, SlicedAgreement};
use crate::eval::ev_order::EvColumns;
use crate::fit::load::feature_columns;
use crate::fit::split::{split_of, Split};
use crate::model::calibration::Gaps;
use crate::model::filter::Filter;
use crate::model::linear::Linear;
use crate::model::metrics::{AgreementSum, TIE_EPS};
use crate::model::trees::inputs::Situation;
use crate::model::trees::TreesRanker;
use crate::rank::expected_value::ranking::{pick_order, OrderKey};
use crate::rank::max_ukeire::option_score;
use crate::rank::push_fold::{classify, policy_score, HandClass, Thresholds};
use crate::rank::Evaluator as E;
use crate::tile::Tile;
use crate::util::Rate;

/// What to score.
#[derive(Clone, Debug)]
pub struct DatasetConfig {
    pub data: PathBuf,
    /// Weights of the `linear` evaluator (needed only when it is scored).
    pub weights: Option<PathBuf>,
    /// The `trees` evaluator's model (default: the shipped model of the decision kind,
    /// [`DatasetConfig::trees_model`]).
    pub trees: Option<PathBuf>,
    pub filter: Filter,
    pub seed: u64,
    pub validation: f64,
    pub test: f64,
    /// Only decisions of games in this split; every selected decision when `None`.
    pub split: Option<Split>,
    pub thresholds: Thresholds,
    /// The push/fold tallies are wanted (`with_pf`, `folded`): they class hands by `ev`, so the
    /// dataset must hold it ([`require_columns`]).
    pub push_fold: bool,
    /// Which of [`Evaluator::ALL`] to score (the others keep score 0 and are not reported).
    pub enabled: [bool; E::COUNT],
    /// Keep every scored decision's score gaps under this evaluator ([`Scored::gaps`]): what
    /// calibrating it needs (`haifu calibrate --trees`, one pass per split).
    pub gaps_of: Option<E>,
}

impl DatasetConfig {
    /// The trees model scored: `trees`, else the shipped model of the filter's decision kind
    /// ([`crate::model::trees::default_path_for`]).
    pub fn trees_model(&self) -> PathBuf {
        use crate::replay::decision::DecisionKind;
        let kind = DecisionKind::from_name(&self.filter.kind).unwrap_or(DecisionKind::Discard);
        self.trees.clone().unwrap_or_else(|| match self.filter.players {
            // no three-player model of this kind: a path that does not exist, which the
            // four-player refusal names before anything loads it
            3 => crate::model::trees::sanma_path_for(kind).unwrap_or_default(),
            _ => crate::model::trees::default_path_for(kind),
        })
    }

    /// A trees model for these decisions: the one named, or the default of their variant and
    /// kind (at three players only where a three-player model exists).
    pub fn has_trees_model(&self) -> bool {
        self.trees.is_some() || self.trees_model().exists()
    }
}

/// One option as the scoring needs it.
#[derive(Clone, Debug)]
struct Opt {
    label: String,
    chosen: bool,
    scores: [f64; E::COUNT],
    ev: f64,
    ev_defined: bool,
    /// The option as the `ev` evaluator ranks it (a discard of a dataset with the ev columns).
    ev_key: Option<OrderKey>,
    safe: bool,
    danger: f64,
    /// The option's row in the linear evaluator's base layout.
    row: Vec<f32>,
    /// The option's row in catalog order, for the trees evaluator (empty when it is not scored).
    catalog_row: Vec<f32>,
}

/// One decision's context.
#[derive(Clone, Debug)]
struct Ctx<'a> {
    shanten: i8,
    turn: u8,
    riichi: bool,
    table: &'a str,
    ai: bool,
}

/// Agreement accumulated overall and by slice.
pub type Tally = Sliced<AgreementSum>;

impl Tally {
    fn add(&mut self, c: &Ctx, better: usize, ties: usize) {
        self.overall.add(better, ties);
        let s = if c.shanten >= 3 { "3+".to_string() } else { c.shanten.to_string() };
        self.by_shanten.entry(s).or_default().add(better, ties);
        self.by_turn.entry(turn_bucket(c.turn).to_string()).or_default().add(better, ties);
        let r = if c.riichi { "riichi" } else { "no_riichi" };
        self.by_riichi.entry(r.to_string()).or_default().add(better, ties);
        self.by_table.entry(c.table.to_string()).or_default().add(better, ties);
        let seat = if c.ai { "ai" } else { "human" };
        self.by_seat.entry(seat.to_string()).or_default().add(better, ties);
    }

    /// The finished agreement figures.
    pub fn sliced(&self) -> SlicedAgreement {
        self.map(AgreementSum::finish)
    }
}

/// A position where `linear` and `ev` both pick another option than the human.
#[derive(Clone, Debug)]
pub struct Disagreement {
    /// How far linear's pick scores above the human's.
    pub margin: f64,
    pub hand: String,
    pub dora_indicators: String,
    /// Human, linear and ev picks.
    pub picks: [String; 3],
}

/// The result of a scoring pass.
#[derive(Clone, Debug, Default)]
pub struct Scored {
    pub decisions: usize,
    pub plain: [Tally; E::COUNT],
    /// With the push/fold layer (it changes only decisions with an opponent in riichi).
    pub with_pf: [Tally; E::COUNT],
    /// Per hand class: how often the human played a safe tile (riichi on the table, shanten ≤ 2,
    /// safe and unsafe options both available).
    pub folded: BTreeMap<&'static str, Rate>,
    /// The largest disagreements of linear and ev with the human, largest first (at most 8).
    pub worst: Vec<Disagreement>,
    /// With [`DatasetConfig::gaps_of`]: each decision's options' score gaps to the chosen one
    /// under that evaluator, in the order they were scored.
    pub gaps: Vec<Gaps>,
}

/// The tile of a discard option's label (`5m`, `0p`); `None` for other actions.
fn discard_tile(label: &str) -> Option<Tile> {
    match crate::tile::parse_mpsz(label) {
        Ok(t) if t.len() == 1 => Some(t[0]),
        _ => None,
    }
}

/// Options above / tied with the chosen one under the scores `s`.
fn rank_of(opts: &[Opt], s: &[f64]) -> (usize, usize) {
    let c = opts.iter().zip(s).find(|(o, _)| o.chosen).map_or(f64::NAN, |(_, &v)| v);
    let others = || opts.iter().zip(s).filter(|(o, _)| !o.chosen).map(|(_, &v)| v);
    (others().filter(|&v| v > c + TIE_EPS).count(), others().filter(|&v| (v - c).abs() <= TIE_EPS).count())
}

/// Hand-value class by the best expected value among the options (no option with a defined
/// value, i.e. 3+ shanten: weak).
fn hand_class(opts: &[Opt], shanten: i8, t: &Thresholds) -> HandClass {
    let best = opts.iter().filter(|o| o.ev_defined).map(|o| o.ev).fold(f64::NEG_INFINITY, f64::max);
    if best.is_finite() {
        classify(best, shanten, t)
    } else {
        HandClass::Weak
    }
}

/// The push/fold layer over an evaluator's scores ([`policy_score`], danger and pushability
/// from the safety columns). Returns re-ranked scores.
fn push_fold_scores(opts: &[Opt], e: usize, class: HandClass) -> Vec<f64> {
    opts.iter().map(|o| policy_score(class, o.scores[e], o.danger, o.safe)).collect()
}

/// Fills a yaku evaluator's score (`yaku` or `yaku-seed`) of each option from the decision's
/// hand (the yaku functions need the shape, not the feature columns). Options it cannot place
/// keep 0.
/// `players` is the decision's seat count ([`Scoreboard::players`]): the seat wind counts seats
/// from the dealer around the table's seats.
///
/// [`Scoreboard::players`]: crate::replay::view::Scoreboard::players
fn yaku_scores(opts: &mut [Opt], e: E, hand: &str, dora: &str, round_wind: u8, seat: (u8, u8, u8)) {
    let Ok(h) = crate::hand::Hand::parse(hand) else { return };
    let indicators = crate::tile::parse_mpsz(dora).unwrap_or_default();
    let (seat, dealer, players) = seat;
    let seat_wind = crate::log::rules::seat_wind(players, seat, dealer);
    let pos =
        crate::replay::view::View::bare(h, indicators, crate::tile::EAST + round_wind as usize, seat_wind);
    let ranked = crate::eval::Ranker::Plain(e).rank(&pos).unwrap_or_default();
    for o in opts.iter_mut() {
        if let Some(r) = ranked.iter().find(|r| r.tile.to_string() == o.label) {
            o.scores[e.index()] = r.score;
        }
    }
}

/// The per-decision columns of the decisions table the pass reads.
struct Decisions {
    /// Row of each decision id.
    row_of: std::collections::HashMap<u64, usize>,
    game: Vec<String>,
    kind: Vec<String>,
    table: Vec<String>,
    hand: Vec<String>,
    dora: Vec<String>,
    is_ai: Vec<bool>,
    shanten: Vec<i8>,
    turn: Vec<u8>,
    riichi: Vec<bool>,
    round_wind: Vec<u8>,
    seat: Vec<u8>,
    dealer: Vec<u8>,
    /// What the trees read of each decision besides its option rows.
    situation: Vec<Situation>,
}

fn read_decisions(cfg: &DatasetConfig) -> Result<Decisions, EvalError> {
    let mut cols = vec![
        "decision_id",
        "game_id",
        "kind",
        "is_ai",
        "table",
        "shanten",
        "any_riichi",
        "hand",
        "dora_indicators",
    ];
    cols.extend(crate::dataset::parts::situation_columns());
    let df = parts::read_table(&cfg.data, "decisions", Some(&cols))?;
    let ids: Vec<u64> = df.column("decision_id")?.u64()?.iter().map(|x| x.unwrap_or(0)).collect();
    let strs = |n: &str| -> Result<Vec<String>, EvalError> {
        Ok(df.column(n)?.str()?.iter().map(|x| x.unwrap_or("").to_string()).collect())
    };
    let u8s = |n: &str| -> Result<Vec<u8>, EvalError> {
        Ok(df.column(n)?.u8()?.iter().map(|x| x.unwrap_or(0)).collect())
    };
    let bools = |n: &str| -> Result<Vec<bool>, EvalError> {
        Ok(df.column(n)?.bool()?.iter().map(|x| x.unwrap_or(false)).collect())
    };
    Ok(Decisions {
        row_of: parts::id_index(&ids)?,
        game: strs("game_id")?,
        kind: strs("kind")?,
        table: strs("table")?,
        hand: strs("hand")?,
        dora: strs("dora_indicators")?,
        is_ai: bools("is_ai")?,
        shanten: df.column("shanten")?.i8()?.iter().map(|x| x.unwrap_or(0)).collect(),
        turn: u8s("turn")?,
        riichi: bools("any_riichi")?,
        round_wind: u8s("round_wind")?,
        seat: u8s("seat")?,
        dealer: u8s("dealer")?,
        situation: crate::dataset::parts::situations(&df)?,
    })
}

/// The base of the `ev` evaluator's score of an option with a value (`ev_defined`): above every
/// option scored by [`ev_weights`].
const EV_DEFINED: f64 = 1e5;

/// Refuses to score with columns the dataset does not have (an ingest with `--skip` leaves some
/// out): the `ev` evaluator and the push/fold tallies need `ev` and `ev_defined`, the linear
/// evaluator the columns its weights use ([`Linear::needed_columns`]). Scoring a missing column
/// as 0 would give figures that look real and are not.
fn require_columns(cfg: &DatasetConfig, names: &[String], linear: Option<&Linear>) -> Result<(), EvalError> {
    let missing = |want: &[&str]| -> Vec<String> {
        want.iter().filter(|w| !names.iter().any(|n| n == *w)).map(|w| w.to_string()).collect()
    };
    let ev_users: Vec<&str> = [
        cfg.enabled[E::Ev.index()].then_some("the ev evaluator"),
        cfg.push_fold.then_some("push/fold (--push-fold)"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !ev_users.is_empty() {
        // The ev evaluator rebuilds 電脳麻将's order from all its columns (older datasets lack the
        // 3+ shanten ones: re-ingest them).
        let m = missing(if cfg.enabled[E::Ev.index()] {
            &crate::eval::ev_order::COLUMNS
        } else {
            &["ev", "ev_defined"]
        });
        if !m.is_empty() {
            return Err(EvalError::NeedsEv {
                users: ev_users.join(" and "),
                missing: m.join(", "),
                data: cfg.data.clone(),
            });
        }
    }
    if let Some(l) = linear {
        let need = l.needed_columns();
        let m = missing(&need.iter().map(String::as_str).collect::<Vec<_>>());
        if !m.is_empty() {
            return Err(EvalError::WeightsNeed {
                missing: crate::util::first_of(&m, 8),
                data: cfg.data.clone(),
            });
        }
    }
    Ok(())
}

/// Adds one complete decision (`opts`, row `i` of the decisions table) to `out`: every enabled
/// evaluator's rank of the human's pick, plain and under push/fold, the fold tally and the
/// largest disagreements of linear and ev with the human.
fn tally(
    out: &mut Scored,
    cfg: &DatasetConfig,
    d: &Decisions,
    linear: Option<&Linear>,
    trees: Option<&TreesRanker>,
    i: usize,
    opts: &mut [Opt],
) {
    out.decisions += 1;
    for e in [E::Yaku, E::YakuSeed].into_iter().filter(|e| cfg.enabled[e.index()]) {
        let seat = (d.seat[i], d.dealer[i], d.situation[i].scoreboard.players);
        yaku_scores(opts, e, &d.hand[i], &d.dora[i], d.round_wind[i], seat);
    }
    if let Some(l) = linear {
        let rows: Vec<&[f32]> = opts.iter().map(|o| o.row.as_slice()).collect();
        let s = l.score_rows(&rows, d.turn[i]);
        for (o, s) in opts.iter_mut().zip(s) {
            o.scores[E::Linear.index()] = s;
        }
    }
    if let Some(t) = trees {
        let rows: Vec<&[f32]> = opts.iter().map(|o| o.catalog_row.as_slice()).collect();
        let scores = t.score_rows(&rows, d.situation[i]);
        for (o, s) in opts.iter_mut().zip(scores) {
            o.scores[E::Trees.index()] = s;
        }
    }
    if cfg.enabled[E::Ev.index()] {
        ev_order_scores(opts, d.shanten[i]);
    }
    if let Some(e) = cfg.gaps_of.filter(|e| cfg.enabled[e.index()]) {
        let chosen = opts.iter().find(|o| o.chosen).map_or(0.0, |o| o.scores[e.index()]);
        let gaps = opts.iter().filter(|o| !o.chosen).map(|o| o.scores[e.index()] - chosen).collect();
        out.gaps.push(gaps);
    }
    let ctx = Ctx {
        shanten: d.shanten[i],
        turn: d.turn[i],
        riichi: d.riichi[i],
        table: &d.table[i],
        ai: d.is_ai[i],
    };
    let class = hand_class(opts, d.shanten[i], &cfg.thresholds);
    for e in (0..E::ALL.len()).filter(|&e| cfg.enabled[e]) {
        let plain: Vec<f64> = opts.iter().map(|o| o.scores[e]).collect();
        let (b, t) = rank_of(opts, &plain);
        out.plain[e].add(&ctx, b, t);
        let (b, t) = if ctx.riichi { rank_of(opts, &push_fold_scores(opts, e, class)) } else { (b, t) };
        out.with_pf[e].add(&ctx, b, t);
    }
    if ctx.riichi && ctx.shanten <= 2 {
        let chosen_safe = opts.iter().any(|o| o.chosen && o.safe);
        let any_unsafe = opts.iter().any(|o| !o.safe);
        let any_safe = opts.iter().any(|o| o.safe);
        if any_safe && any_unsafe {
            out.folded.entry(class.name()).or_default().add(chosen_safe);
        }
    }
    if cfg.enabled[E::Linear.index()] && cfg.enabled[E::Ev.index()] {
        // Where linear and ev both disagree with the human: margin of linear's pick.
        let pick =
            |e: usize| opts.iter().max_by(|a, b| a.scores[e].total_cmp(&b.scores[e])).expect("options");
        let (lp, ep) = (pick(E::Linear.index()), pick(E::Ev.index()));
        if !lp.chosen && !ep.chosen {
            let c = opts.iter().find(|o| o.chosen).expect("chosen");
            out.worst.push(Disagreement {
                margin: lp.scores[E::Linear.index()] - c.scores[E::Linear.index()],
                hand: d.hand[i].clone(),
                dora_indicators: d.dora[i].clone(),
                picks: [c.label.clone(), lp.label.clone(), ep.label.clone()],
            });
            out.worst.sort_by(|a, b| b.margin.total_cmp(&a.margin));
            out.worst.truncate(8);
        }
    }
}

/// Where each catalog column sits among the dataset's `names`; refuses a dataset without a
/// column the trees model uses (scoring it as 0 would give figures that look real and are not).
fn trees_columns(
    t: &TreesRanker,
    names: &[String],
    cfg: &DatasetConfig,
) -> Result<Vec<Option<usize>>, EvalError> {
    let catalog = crate::features::catalog::names();
    let cols: Vec<Option<usize>> = catalog.iter().map(|c| names.iter().position(|n| n == c)).collect();
    let m: Vec<&str> = t
        .trees()
        .feature_names()
        .iter()
        .filter_map(|f| {
            catalog.iter().position(|c| c == f).filter(|&i| cols[i].is_none()).map(|i| catalog[i])
        })
        .collect();
    if !m.is_empty() {
        return Err(EvalError::TreesNeed { missing: crate::util::first_of(&m, 8), data: cfg.data.clone() });
    }
    Ok(cols)
}

/// The `ev` evaluator's scores of a discard decision: 電脳麻将's order rebuilt from the columns
/// ([`crate::eval::ev_order`]), the first option scoring highest. Other decisions keep the value-column score.
fn ev_order_scores(opts: &mut [Opt], hand_shanten: i8) {
    let Some(keys) = opts.iter().map(|o| o.ev_key).collect::<Option<Vec<OrderKey>>>() else { return };
    for (place, i) in pick_order(hand_shanten, &keys).into_iter().enumerate() {
        opts[i].scores[E::Ev.index()] = -(place as f64);
    }
}

/// Scores every selected decision of the dataset.
/// Refuses the four-player evaluators on three-player decisions (docs/evaluators.md): the ev
/// evaluator and push/fold read 電脳麻将's four-player value, which ingest leaves unset there, and
/// the default trees models were fitted on four-player games.
fn refuse_four_player_only(cfg: &DatasetConfig) -> Result<(), EvalError> {
    if cfg.filter.players == 4 {
        return Ok(());
    }
    let users: Vec<&str> = [
        cfg.enabled[E::Ev.index()].then_some("the ev evaluator"),
        cfg.push_fold.then_some("push/fold"),
        (cfg.enabled[E::Trees.index()] && !cfg.has_trees_model())
            .then_some("trees (no three-player model of this kind)"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if users.is_empty() {
        Ok(())
    } else {
        Err(EvalError::FourPlayerOnly { users: users.join(", ") })
    }
}

pub fn score(cfg: &DatasetConfig) -> Result<Scored, EvalError> {
    refuse_four_player_only(cfg)?;
    let d = read_decisions(cfg)?;
    let keep: Vec<bool> = (0..d.game.len())
        .map(|i| {
            cfg.filter.keeps(&d.kind[i], &d.table[i], d.is_ai[i], d.situation[i].scoreboard.players)
                && cfg.split.is_none_or(|s| split_of(&d.game[i], cfg.seed, cfg.validation, cfg.test) == s)
        })
        .collect();
    let linear = if cfg.enabled[E::Linear.index()] {
        let path = cfg.weights.as_deref().ok_or(EvalError::NoWeights)?;
        Some(Linear::load(Some(path)).map_err(|e| EvalError::Linear(e.into()))?)
    } else {
        None
    };
    let trees =
        cfg.enabled[E::Trees.index()].then(|| TreesRanker::load_uncalibrated(Some(&cfg.trees_model())));
    let trees = trees.transpose()?;
    let names = feature_columns(&cfg.data)?;
    require_columns(cfg, &names, linear.as_ref())?;
    // Where each catalog column sits in the dataset, for the trees evaluator's rows.
    let catalog_cols: Vec<Option<usize>> = match &trees {
        Some(t) => trees_columns(t, &names, cfg)?,
        None => Vec::new(),
    };
    // Where each of the linear evaluator's base columns sits in the dataset.
    let linear_cols: Vec<Option<usize>> = linear
        .as_ref()
        .map(|l| l.inputs().iter().map(|b| names.iter().position(|n| n == b)).collect())
        .unwrap_or_default();
    // The few non-zero (column, weight) terms of the two fixed evaluators, in column order.
    let terms =
        |w: Vec<f64>| -> Vec<(usize, f64)> { w.into_iter().enumerate().filter(|(_, x)| *x != 0.0).collect() };
    let fixed: [(usize, Vec<(usize, f64)>); 2] =
        [(E::Ukeire.index(), terms(ukeire_weights(&names))), (E::Ev.index(), terms(ev_weights(&names)))];
    let mut columns = vec!["decision_id".to_string(), "option".to_string(), "chosen".to_string()];
    columns.extend(names.iter().cloned());

    let mut out = Scored::default();
    let mut current: Option<u64> = None;
    let mut opts: Vec<Opt> = Vec::new();
    let mut finish = |id: u64, opts: &mut Vec<Opt>| {
        let i = d.row_of.get(&id).copied().unwrap_or(0);
        if opts.len() >= 2 && opts.iter().filter(|o| o.chosen).count() == 1 {
            tally(&mut out, cfg, &d, linear.as_ref(), trees.as_ref(), i, opts);
        }
        opts.clear();
    };
    let ci = |n: &str| names.iter().position(|x| x == n);
    let (c_shanten, c_ukeire, c_class) = (ci("shanten_min"), ci("ukeire_count"), ci("discard_class"));
    let (c_paijia, c_tsumogiri) = (ci("vis_paijia"), ci("vis_tsumogiri"));
    let ev_cols = EvColumns::find(&names);
    let (c_ev, c_evd, c_gen, c_suji, c_honor, c_danger) = (
        ci("ev"),
        ci("ev_defined"),
        ci("safety_worst_genbutsu"),
        ci("safety_worst_suji"),
        ci("safety_worst_honor"),
        ci("safety_worst_danger_est"),
    );
    parts::for_each_slice(&cfg.data, "options", &columns, 200_000, |df| {
        let did: Vec<u64> = df.column("decision_id")?.u64()?.iter().map(|x| x.unwrap_or(0)).collect();
        let chosen: Vec<bool> = df.column("chosen")?.bool()?.iter().map(|x| x.unwrap_or(false)).collect();
        let label: Vec<String> =
            df.column("option")?.str()?.iter().map(|x| x.unwrap_or("").to_string()).collect();
        let feats: Vec<Vec<f32>> = names.iter().map(|n| parts::f32s(df, n)).collect::<Result<_, _>>()?;
        for r in 0..df.height() {
            let id = did[r];
            if current != Some(id) {
                if let Some(p) = current {
                    finish(p, &mut opts);
                }
                current = Some(id);
            }
            if !d.row_of.get(&id).is_some_and(|&i| keep[i]) {
                continue;
            }
            let x = |c: Option<usize>| c.map_or(0.0, |c| feats[c][r] as f64);
            let mut scores = [0.0; E::COUNT];
            for (e, terms) in &fixed {
                scores[*e] = terms.iter().map(|&(c, wj)| feats[c][r] as f64 * wj).sum();
            }
            if x(c_evd) > 0.5 {
                // Among options with a value, 電脳麻将 breaks exact ties by the lower paijia, then
                // the drawn tile (datasets written before these columns fall back to 0 for both).
                scores[E::Ev.index()] = EV_DEFINED + x(c_ev) - 1e-7 * x(c_paijia) + 1e-8 * x(c_tsumogiri);
            }
            // A discard option: the max-ukeire bot's own score, so the evaluator picks as it does
            // (the label is parsed only when the ukeire evaluator is scored).
            let tile = (cfg.enabled[E::Ukeire.index()] || cfg.enabled[E::Ev.index()])
                .then(|| discard_tile(&label[r]))
                .flatten();
            if let Some(tile) = tile.filter(|_| cfg.enabled[E::Ukeire.index()]) {
                scores[E::Ukeire.index()] =
                    option_score(x(c_shanten) as i8, x(c_ukeire) as u32, x(c_class) as u8, tile);
            }
            let ev_key = ev_cols.zip(tile).map(|(c, t)| c.key(|j| feats[j][r] as f64, t));
            opts.push(Opt {
                label: label[r].clone(),
                chosen: chosen[r],
                scores,
                ev: x(c_ev),
                ev_defined: x(c_evd) > 0.5,
                ev_key,
                safe: x(c_gen) + x(c_suji) + x(c_honor) > 0.5,
                danger: x(c_danger),
                row: linear_cols.iter().map(|c| c.map_or(0.0, |c| feats[c][r])).collect(),
                catalog_row: catalog_cols.iter().map(|c| c.map_or(0.0, |c| feats[c][r])).collect(),
            });
        }
        Ok::<_, EvalError>(())
    })
    .map_err(|e| EvalError::Options { path: cfg.data.join("options"), source: Box::new(e) })?;
    if let Some(p) = current {
        finish(p, &mut opts);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::event::Event;
    use crate::tile::EAST;

    /// Tenhou's own seat-wind yaku (ids 10..=13, 自風 East..North) name the winner's seat wind:
    /// at three players they match `(who - dealer) mod 3` (docs/sanma.md, 245 wins), so seat 0
    /// under dealer 2 is South, not West as the four-seat `mod 4` made it.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn seat_wind_is_tenhous_at_three_players() {
        let mut checked = 0;
        for p in crate::testdata::need_sanma_files() {
            let name = p.display().to_string();
            let game = crate::log::source::parse_game(&name, &std::fs::read(&p).unwrap()).unwrap();
            for round in &game.rounds {
                for e in &round.events {
                    let Event::Agari(a) = e else { continue };
                    for &(id, _) in a.yaku.iter().filter(|y| (10..=13).contains(&y.0) && y.1 > 0) {
                        let want = EAST + usize::from(id - 10);
                        let got = crate::log::rules::seat_wind(game.rules.players, a.who, round.start.dealer);
                        assert_eq!(
                            got, want,
                            "{name} {}: seat {} dealer {}",
                            round.start.round, a.who, round.start.dealer
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 245, "docs/sanma.md's count of seat-wind wins");
    }

    /// The yaku evaluators score a three-player decision with the seat's own wind: seat 0 under
    /// dealer 2 holds South, and its South pair is valued as a seat-wind pair, not its West pair.
    #[test]
    fn yaku_scores_read_the_three_player_seat_wind() {
        let hand = "123p456p789s22z33z4z";
        let label = |l: &str| Opt {
            label: l.into(),
            chosen: false,
            scores: [0.0; E::COUNT],
            ev: 0.0,
            ev_defined: false,
            ev_key: None,
            safe: false,
            danger: 0.0,
            row: Vec::new(),
            catalog_row: Vec::new(),
        };
        let by_wind = |wind| {
            let view = crate::replay::view::View::bare(
                crate::hand::Hand::parse(hand).unwrap(),
                Vec::new(),
                EAST,
                wind,
            );
            let ranked = crate::eval::Ranker::Plain(E::Yaku).rank(&view).unwrap();
            ["2z", "3z"].map(|l| ranked.iter().find(|r| r.tile.to_string() == l).unwrap().score)
        };
        let (south, west) = (by_wind(EAST + 1), by_wind(EAST + 2));
        assert_ne!(south, west, "the hand must tell the two winds apart");
        let mut opts = [label("2z"), label("3z")];
        yaku_scores(&mut opts, E::Yaku, hand, "", 0, (0, 2, 3));
        assert_eq!(opts.map(|o| o.scores[E::Yaku.index()]), south);
    }
}
