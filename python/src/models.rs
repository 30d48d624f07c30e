//! Models: `fit` (what `haifu fit` writes: the weights file) and `evaluate` (what `haifu eval
//! --json` prints), over an ingest folder.

use std::path::PathBuf;

use clap::ValueEnum;
use pyo3::prelude::*;

use haifu::eval::dataset::DatasetConfig;
use haifu::fit::split::Split;
use haifu::model::defaults;
use haifu::model::filter::Filter;
use haifu::model::weights::{Loss, LossParams, Pairs};
use haifu::rank::push_fold::Thresholds;
use haifu::rank::Evaluator;

use crate::errors::{input, json, model};
use crate::run::long;

fn choice<T: ValueEnum>(what: &str, s: &str) -> PyResult<T> {
    T::from_str(s, true).map_err(|_| {
        let known: Vec<String> = T::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
            .collect();
        input(format!("{what} {s:?} (one of {})", known.join(", ")))
    })
}

/// The decisions `fit` and `evaluate` use (`--kind`, `--tables`, `--seats`, `--players`).
fn filter(kind: &str, tables: Vec<String>, seats: &str, players: u8) -> PyResult<Filter> {
    if !matches!(players, 3 | 4) {
        return Err(input(format!("players {players} (3 or 4)")));
    }
    if !matches!(kind, "discard" | "riichi" | "call") {
        return Err(input(format!("kind {kind:?} (one of discard, riichi, call)")));
    }
    let ai = match seats {
        "human" => Some(false),
        "ai" => Some(true),
        "all" => None,
        other => return Err(input(format!("seats {other:?} (one of {})", defaults::SEAT_NAMES.join(", ")))),
    };
    Ok(Filter { kind: kind.to_string(), tables, ai, players })
}

/// `haifu fit --data DATA --out OUT` with its options; the weights file written, as JSON text.
#[pyfunction]
#[pyo3(signature = (data, out, kind, tables, seats, loss, pairs, l2, max_iters, interact, seed, progress, players=4))]
#[allow(clippy::too_many_arguments)]
fn fit(
    py: Python<'_>,
    data: PathBuf,
    out: PathBuf,
    kind: &str,
    tables: Vec<String>,
    seats: &str,
    loss: &str,
    pairs: &str,
    l2: Vec<f64>,
    max_iters: u64,
    interact: Vec<String>,
    seed: u64,
    progress: bool,
    players: u8,
) -> PyResult<String> {
    use haifu::fit::load::Memory;
    use haifu::model::gates::Interaction;
    let interactions = interact
        .iter()
        .map(|s| Interaction::parse(s).map_err(|e| input(format!("interact {s:?}: {e:#}"))))
        .collect::<PyResult<Vec<_>>>()?;
    let pairs: Pairs = choice("pairs", pairs)?;
    let spill = out.parent().filter(|p| !p.as_os_str().is_empty()).map_or(PathBuf::from("."), PathBuf::from);
    let cfg = haifu::fit::run::FitConfig {
        data,
        filter: filter(kind, tables, seats, players)?,
        loss: LossParams {
            loss: choice::<Loss>("loss", loss)?,
            margin: defaults::MARGIN,
            smoothing: defaults::SMOOTHING,
            pairs,
            rounds: if pairs == Pairs::Ranked { defaults::RANKED_ROUNDS } else { 1 },
        },
        l2_grid: if l2.is_empty() { defaults::L2_GRID.to_vec() } else { l2 },
        seed,
        validation: defaults::VALIDATION,
        test: defaults::TEST,
        max_iters,
        max_decisions: None,
        memory: Memory { budget: haifu::fit::store::default_budget(), spill_dir: spill },
        drop: Vec::new(),
        keep: Vec::new(),
        interactions,
        derived: false,
        out,
    };
    let fitted = long(py, progress, || haifu::fit::run::fit(&cfg))?.map_err(model)?;
    Ok(json(&fitted.0))
}

/// `haifu eval --data DATA --json` with its options.
#[pyfunction]
#[pyo3(signature = (data, weights, evaluators, kind, tables, seats, split, push_fold, seed, progress, trees=None, players=4))]
#[allow(clippy::too_many_arguments)]
fn evaluate(
    py: Python<'_>,
    data: PathBuf,
    weights: Option<PathBuf>,
    evaluators: Vec<String>,
    kind: &str,
    tables: Vec<String>,
    seats: &str,
    split: &str,
    push_fold: bool,
    seed: u64,
    progress: bool,
    trees: Option<PathBuf>,
    players: u8,
) -> PyResult<String> {
    let evaluators: Vec<Evaluator> = if evaluators.is_empty() {
        defaults::evaluators()
    } else {
        evaluators.iter().map(|e| choice("evaluator", e)).collect::<PyResult<_>>()?
    };
    let split = match split {
        "all" => None,
        "train" => Some(Split::Train),
        "validation" => Some(Split::Validation),
        "test" => Some(Split::Test),
        other => return Err(input(format!("split {other:?} (one of {})", defaults::SPLIT_NAMES.join(", ")))),
    };
    let mut enabled = [false; Evaluator::COUNT];
    for e in &evaluators {
        enabled[e.index()] = true;
    }
    let thresholds = Thresholds::default();
    let config = DatasetConfig {
        data,
        weights: Some(weights.unwrap_or_else(haifu::model::weights::default_path)),
        trees,
        filter: filter(kind, tables, seats, players)?,
        seed,
        validation: defaults::VALIDATION,
        test: defaults::TEST,
        split,
        thresholds,
        push_fold,
        enabled,
        gaps_of: None,
    };
    let scored = long(py, progress, || haifu::eval::dataset::score(&config))?.map_err(model)?;
    let report = haifu::eval::report::EvalReport::new(&scored, &evaluators, push_fold.then_some(thresholds));
    Ok(json(&report))
}

/// The library's defaults of fit and eval ([`haifu::model::defaults::all`]), as JSON text:
/// `haifu.defaults()`, and what the test of the Python signatures compares them with.
#[pyfunction]
#[pyo3(name = "defaults")]
fn library_defaults() -> String {
    json(&defaults::all())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(library_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(fit, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    Ok(())
}
