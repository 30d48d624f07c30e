//! The danger models' rows (`make danger`, `scripts/danger.py`): one row per discard decision,
//! opponent and kind the deciding seat could discard, with the public-view inputs of
//! `features::danger_inputs`, the labels of `replay::waits` (the same function that fills the
//! `waits` table), the rule-based baselines on the same positions, and, when models are given,
//! what `features::danger` serves for the row.
//!
//!     cargo run --release --example danger_rows -- OUT [--train-fraction F] [--models DIR] PATHS...
//!
//! Writes `OUT/rows.parquet` and `OUT/weixian.jsonl` (the test split's positions facing a riichi,
//! one line per decision and riichi opponent, as `scripts/majiang_danger.js` reads them).
//! Columns:
//! - `decision_id` (ingest's: the record's index in the expanded PATHS × 100,000 + the decision's
//!   index in its game, so the rows join the `waits` table of an ingest of the same PATHS),
//!   `game_id`, `split` (0 train, 1 validation, 2 test: `fit --seed 1`'s split), `houou`,
//!   `opponent` (1 next, 2 across, 3 previous), `kind` (0-33), `chosen` (the kind discarded);
//! - the inputs ([`OPPONENT_COLUMNS`], then [`KIND_COLUMNS`]);
//! - the labels: `y_tenpai`, `y_wait` (a winning kind), `y_deal_in` (a ron on it is possible),
//!   `y_points` (what it pays; 0 when no ron);
//! - the baselines, against an opponent in riichi only (else 0 and `b_riichi` false):
//!   `b_danger_est` (`safety_opp*_danger_est`), the classes `b_genbutsu`, `b_suji`,
//!   `b_half_suji`, `b_no_chance`, `b_one_chance`, `b_early_outside`, and 電脳麻将's danger as
//!   haifu's port computes it for this opponent alone: `b_weixian_level` (the seed-era level) and
//!   `b_weixian` (1.0.13's relative score);
//! - with `--models`: `p_tenpai`, `p_deal_in`, `e_points`.
//!
//! `--train-fraction F` keeps a game of the train and validation splits when another hash of
//! its id falls under F (test games are always kept): the corpus's rows do not fit in memory.

use std::path::PathBuf;

use haifu::dataset::columns::{Columns, Values};
use haifu::dataset::parquet::ParquetSink;
use haifu::features::danger::DangerModels;
use haifu::features::danger_inputs::{kind_inputs, opponent_inputs, seen, KIND_COLUMNS, OPPONENT_COLUMNS};
use haifu::features::safety::safety_against;
use haifu::fit::split::{game_hash, split_of, Split};
use haifu::log::event::Game;
use haifu::log::source::expand;
use haifu::rank::danger::{absolute_against, genbutsu, level_against, unseen_counts};
use haifu::replay::decision::{Action, Decision, DecisionKind, Recording, RoundSink};
use haifu::replay::table::Table;
use haifu::replay::view::{view_of, View};
use haifu::replay::waits::opponent_waits;
use haifu::replay::{replay_game, NoWinCheck, RoundResult};
use haifu::tile::KINDS;
use rayon::prelude::*;

const STRIDE: u64 = 100_000;

/// Every decision of a game, in order (their index is ingest's `k`).
#[derive(Default)]
struct All(Vec<Decision>);

impl RoundSink for All {
    fn round(&mut self, _: &Table, _: &RoundResult, d: Vec<Decision>) {
        self.0.extend(d);
    }
}

/// One row's values.
struct Row {
    decision_id: u64,
    opponent: u8,
    kind: u8,
    chosen: bool,
    inputs: Vec<f32>,
    y: (bool, bool, bool, u32),
    riichi: bool,
    base: [f32; 9],
    served: [f64; 3],
}

struct GameRows {
    id: String,
    split: Split,
    houou: bool,
    rows: Vec<Row>,
    weixian: Vec<String>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first().map(PathBuf::from) else {
        eprintln!("usage: danger_rows OUT [--train-fraction F] [--models DIR] PATHS...");
        std::process::exit(2);
    };
    let mut fraction = 1.0;
    let mut models = None;
    let mut paths = Vec::new();
    let mut it = args[1..].iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--train-fraction" => fraction = it.next().and_then(|x| x.parse().ok()).expect("a fraction"),
            "--models" => models = Some(PathBuf::from(it.next().expect("a folder"))),
            _ => paths.push(PathBuf::from(a)),
        }
    }
    let models = models.map(|m| DangerModels::load(&m).unwrap_or_else(|e| panic!("{e}")));
    std::fs::create_dir_all(&out).unwrap();
    let sources = expand(&paths).sources;
    let mut sink = ParquetSink::create(&out.join("rows.parquet")).unwrap();
    let mut weixian = String::new();
    let (mut games, mut rows) = (0usize, 0usize);
    let indexed: Vec<(usize, &haifu::log::source::Source)> = sources.iter().enumerate().collect();
    for chunk in indexed.chunks(64) {
        let done: Vec<GameRows> = chunk
            .par_iter()
            .filter_map(|(i, s)| {
                let game = s.load().ok()?;
                game_rows(&game, *i as u64, fraction, models.as_ref())
            })
            .collect();
        for g in &done {
            games += 1;
            rows += g.rows.len();
            for w in &g.weixian {
                weixian.push_str(w);
                weixian.push('\n');
            }
        }
        sink.write(&columns(&done)).unwrap();
    }
    sink.finish(&columns(&[])).unwrap();
    haifu::util::write_atomic(&out.join("weixian.jsonl"), weixian.as_bytes()).unwrap();
    eprintln!("danger_rows: {games} games, {rows} rows in {}", out.display());
}

fn keep(id: &str, fraction: f64) -> (Split, bool) {
    let split = split_of(id, 1, 0.1, 0.1);
    let u = (game_hash(id, 7) >> 11) as f64 / (1u64 << 53) as f64;
    (split, split == Split::Test || u < fraction)
}

fn game_rows(game: &Game, index: u64, fraction: f64, models: Option<&DangerModels>) -> Option<GameRows> {
    if game.rules.players != 4 {
        return None;
    }
    let (split, kept) = keep(&game.id, fraction);
    if !kept {
        return None;
    }
    let mut all = Recording::new(All::default());
    replay_game(game, &mut all, &mut NoWinCheck).ok()?;
    let mut g = GameRows {
        id: game.id.clone(),
        split,
        houou: game.rules.table.name() == "houou",
        rows: Vec::new(),
        weixian: Vec::new(),
    };
    for (k, d) in all.sink.0.iter().enumerate().filter(|(_, d)| d.kind == DecisionKind::Discard) {
        decision_rows(d, index * STRIDE + k as u64, split, models, &mut g);
    }
    Some(g)
}

fn decision_rows(d: &Decision, id: u64, split: Split, models: Option<&DangerModels>, g: &mut GameRows) {
    let view = view_of(&d.table, d.seat, d.table.hand_tiles(d.seat));
    let mut kinds: Vec<usize> = d
        .options
        .iter()
        .filter_map(|o| if let Action::Discard(t) = o { Some(t.kind()) } else { None })
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    let chosen = match d.options[d.chosen] {
        Action::Discard(t) => Some(t.kind()),
        _ => None,
    };
    let waits = opponent_waits(&d.table, d.seat);
    let seen = seen(&view);
    let unseen = unseen_counts(&view);
    let held = view.hand_counts();
    let served = models.map(|m| m.assess(&view, &kinds));
    for (r, w) in waits.iter().enumerate() {
        let Some(w) = w else { continue };
        let o = &view.opponents[r];
        let opp = opponent_inputs(&view, r);
        let gen = genbutsu(o);
        let abs: [u32; KINDS] = std::array::from_fn(|k| absolute_against(gen, &unseen, &held, k));
        let sum = abs.iter().sum::<u32>().max(1) as f32;
        if o.in_riichi() && split == Split::Test {
            g.weixian.push(weixian_line(id, r, &view));
        }
        for &k in &kinds {
            let mut inputs = opp.to_vec();
            inputs.extend_from_slice(&kind_inputs(&view, &seen, r, k));
            let points = w.ron_points[k];
            let mut base = [0.0f32; 9];
            if let Some(s) = safety_against(&view, k)[r] {
                let f = |b: bool| f32::from(u8::from(b));
                base = [
                    s.danger_est,
                    f(s.genbutsu),
                    f(s.suji),
                    f(s.half_suji),
                    f(s.no_chance),
                    f(s.one_chance),
                    f(s.early_outside),
                    f32::from(level_against(gen, &unseen, k)),
                    abs[k] as f32 / sum * 100.0 * if o.is_dealer { 1.4 } else { 1.0 },
                ];
            }
            let s = served.as_ref().and_then(|s| s[r].as_ref());
            g.rows.push(Row {
                decision_id: id,
                opponent: r as u8 + 1,
                kind: k as u8,
                chosen: chosen == Some(k),
                inputs,
                y: (w.tenpai(), w.waits >> k & 1 == 1, points > 0, points),
                riichi: o.in_riichi(),
                base,
                served: s.map_or([0.0; 3], |s| [s.tenpai, s.deal_in[k], s.points[k]]),
            });
        }
    }
}

/// The position as `scripts/majiang_danger.js` reads it, with opponent `r` its only riichi
/// player (so its `relative` is the danger against that opponent alone), keyed by decision and
/// opponent.
fn weixian_line(id: u64, r: usize, view: &View) -> String {
    let me = view.seat_wind - 27;
    let o = &view.opponents[r];
    let gen: Vec<usize> = (0..KINDS).filter(|&k| genbutsu(o).contains(k)).collect();
    serde_json::json!({
        "id": format!("{id}/{}", r + 1),
        "unseen": unseen_counts(view).to_vec(),
        "held": view.hand_counts().to_vec(),
        "riichi": [{ "l": (me + r + 1) % 4, "genbutsu": gen }],
    })
    .to_string()
}

fn columns(games: &[GameRows]) -> Columns {
    let rows: Vec<(&GameRows, &Row)> =
        games.iter().flat_map(|g| g.rows.iter().map(move |r| (g, r))).collect();
    let mut c = Columns::new();
    let f32s = |f: &dyn Fn(&Row) -> f32| Values::F32(rows.iter().map(|(_, r)| f(r)).collect());
    c.push("decision_id", Values::U64(rows.iter().map(|(_, r)| r.decision_id).collect()));
    c.push("game_id", Values::Str(rows.iter().map(|(g, _)| g.id.clone()).collect()));
    c.push(
        "split",
        Values::U8(
            rows.iter()
                .map(|(g, _)| match g.split {
                    Split::Train => 0,
                    Split::Validation => 1,
                    Split::Test => 2,
                })
                .collect(),
        ),
    );
    c.push("houou", Values::Bool(rows.iter().map(|(g, _)| g.houou).collect()));
    c.push("opponent", Values::U8(rows.iter().map(|(_, r)| r.opponent).collect()));
    c.push("kind", Values::U8(rows.iter().map(|(_, r)| r.kind).collect()));
    c.push("chosen", Values::Bool(rows.iter().map(|(_, r)| r.chosen).collect()));
    for (j, (name, _)) in OPPONENT_COLUMNS.iter().chain(KIND_COLUMNS.iter()).enumerate() {
        c.push(name, f32s(&|r| r.inputs[j]));
    }
    c.push("y_tenpai", Values::Bool(rows.iter().map(|(_, r)| r.y.0).collect()));
    c.push("y_wait", Values::Bool(rows.iter().map(|(_, r)| r.y.1).collect()));
    c.push("y_deal_in", Values::Bool(rows.iter().map(|(_, r)| r.y.2).collect()));
    c.push("y_points", Values::U32(rows.iter().map(|(_, r)| r.y.3).collect()));
    c.push("b_riichi", Values::Bool(rows.iter().map(|(_, r)| r.riichi).collect()));
    let names = [
        "b_danger_est",
        "b_genbutsu",
        "b_suji",
        "b_half_suji",
        "b_no_chance",
        "b_one_chance",
        "b_early_outside",
        "b_weixian_level",
        "b_weixian",
    ];
    for (j, name) in names.iter().enumerate() {
        c.push(name, f32s(&|r| r.base[j]));
    }
    for (j, name) in ["p_tenpai", "p_deal_in", "e_points"].iter().enumerate() {
        c.push(name, Values::F64(rows.iter().map(|(_, r)| r.served[j]).collect()));
    }
    c
}
