//! `haifu._haifu`: the native module of the Python package (python/haifu/__init__.py wraps it).
//!
//! A thin layer, like the binary's `src/cli/`: each function converts its arguments, calls the
//! library and returns what the command's `--json` prints (as JSON text, which the Python side
//! parses) or frames as Arrow streams ([`arrow`]). Long calls run off the interpreter's lock,
//! stop on Ctrl-C and never let a panic through ([`run`]). Errors become the exceptions of
//! `haifu._errors` ([`errors`]).

use std::path::PathBuf;

use pyo3::prelude::*;

mod arrow;
mod bot;
mod errors;
mod models;
mod records;
mod run;
mod tables;

use errors::{input, model};

/// `haifu shanten HAND --json`.
#[pyfunction]
fn shanten(hand: &str) -> PyResult<String> {
    let h = haifu::eval::nanikiru::parse_hand(hand).map_err(input)?;
    Ok(errors::json(&h.shanten()))
}

/// `haifu nanikiru HAND --json` with its options.
#[pyfunction]
#[pyo3(signature = (hand, evaluator, dora, round_wind, seat_wind, riichi, weights, push_fold, explain))]
#[allow(clippy::too_many_arguments)]
fn nanikiru(
    py: Python<'_>,
    hand: String,
    evaluator: &str,
    dora: Vec<String>,
    round_wind: &str,
    seat_wind: &str,
    riichi: Vec<String>,
    weights: Option<PathBuf>,
    push_fold: bool,
    explain: bool,
) -> PyResult<String> {
    use haifu::eval::nanikiru::{parse_wind, position, rank, NanikiruError, Query};
    let wind = |w: &str, what: &str| parse_wind(w).map_err(|e| input(format!("{what}: {e}")));
    let query = Query {
        hand,
        dora,
        round_wind: wind(round_wind, "round_wind")?,
        seat_wind: wind(seat_wind, "seat_wind")?,
        riichi,
        kyoku: 1,
        scores: None,
    };
    let ranker = ranker(evaluator, weights.as_deref())?;
    let pos = position(&query).map_err(input)?;
    let ranking = run::quiet(py, || rank(&ranker, &pos, push_fold, explain))?.map_err(|e| match e {
        NanikiruError::Input(bad) => input(bad),
        NanikiruError::Eval(e) => model(e),
    })?;
    Ok(ranking.json().to_string())
}

/// `haifu nanikiru --positions FILE --json`, one JSON text per position line.
#[pyfunction]
fn rank_positions(
    py: Python<'_>,
    lines: Vec<String>,
    evaluator: &str,
    weights: Option<PathBuf>,
) -> PyResult<Vec<(bool, String)>> {
    use haifu::eval::nanikiru::{position_json, rank_position};
    let ranker = ranker(evaluator, weights.as_deref())?;
    // Each position on its own: a bad one is (false, why), as the command line reports a bad
    // line and goes on; the Python side raises or keeps it.
    run::quiet(py, || {
        lines
            .iter()
            .enumerate()
            .map(|(i, line)| {
                let ranked = haifu::rank::majiang_position::parse_line(line)
                    .map_err(|e| format!("position {i}: {e}"))
                    .and_then(|p| {
                        let options = rank_position(&ranker, &p).map_err(|e| format!("position {i}: {e}"))?;
                        Ok(position_json(&p, &options).to_string())
                    });
                match ranked {
                    Ok(json) => (true, json),
                    Err(why) => (false, why),
                }
            })
            .collect()
    })
}

/// The ranker of an evaluator named as `--evaluator` names it.
fn ranker(evaluator: &str, weights: Option<&std::path::Path>) -> PyResult<haifu::eval::Ranker> {
    use haifu::rank::Evaluator;
    let e = Evaluator::ALL.into_iter().find(|e| e.name() == evaluator).ok_or_else(|| {
        let names: Vec<&str> = Evaluator::ALL.iter().map(|e| e.name()).collect();
        input(format!("unknown evaluator {evaluator:?}: one of {}", names.join(", ")))
    })?;
    haifu::eval::Ranker::new(e, weights).map_err(model)
}

#[pymodule]
fn _haifu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<bot::Bot>()?;
    m.add_function(wrap_pyfunction!(shanten, m)?)?;
    m.add_function(wrap_pyfunction!(nanikiru, m)?)?;
    m.add_function(wrap_pyfunction!(rank_positions, m)?)?;
    records::register(m)?;
    tables::register(m)?;
    models::register(m)?;
    m.add_class::<arrow::ArrowStream>()?;
    m.add_function(wrap_pyfunction!(run::_panic, m)?)?;
    Ok(())
}
