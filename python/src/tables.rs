//! Tables: `decisions` (ingest's five tables in memory), `ingest` (to parts, as `haifu ingest
//! --json`), the part files `scan` opens, and `features` of a live position (one row per option,
//! the options table's columns, built by the same functions as ingest's rows).

use std::path::PathBuf;

use haifu::dataset::columns::{Columns, Values};
use haifu::dataset::skip::Skip;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::arrow::ArrowStream;
use crate::errors::{dataset, input, json, log, model, record};
use crate::run::{long, quiet};

/// The groups a run leaves out given `skip` and `with` (comma-separated names, as the flags).
fn groups(skip: &str, with: &str) -> PyResult<Skip> {
    let parse = |s: &str| if s.is_empty() { Ok(Skip::NONE) } else { Skip::parse(s).map_err(input) };
    Skip::choose(parse(skip)?, parse(with)?).map_err(input)
}

/// A shard `(index, count)`.
fn shard(s: (u64, u64)) -> PyResult<haifu::batch::Shard> {
    format!("{}/{}", s.0, s.1).parse().map_err(input)
}

/// The five tables of an ingest of `paths`, in memory: a dict of table name to [`ArrowStream`],
/// and the run's counts and failed records (`haifu ingest --json`'s totals) as JSON.
#[pyfunction]
#[pyo3(signature = (paths, skip="", with_="", jobs=None, shard_=(0, 1), progress=false))]
fn decisions<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    skip: &str,
    with_: &str,
    jobs: Option<usize>,
    shard_: (u64, u64),
    progress: bool,
) -> PyResult<(Bound<'py, PyDict>, String)> {
    use haifu::dataset::ingest::{frames, FramesOptions};
    let opts = FramesOptions { jobs, shard: shard(shard_)?, skip: groups(skip, with_)? };
    let f = long(py, progress, || frames(&paths, &opts))?.map_err(dataset)?;
    let out = PyDict::new(py);
    let summary = serde_json::json!({ "files": f.files, "tally": f.tally });
    for (name, frame) in [
        ("games", f.games),
        ("rounds", f.rounds),
        ("decisions", f.decisions),
        ("options", f.options),
        ("waits", f.waits),
    ] {
        out.set_item(name, ArrowStream::new(frame))?;
    }
    Ok((out, summary.to_string()))
}

/// `haifu ingest PATHS --out OUT --json` with its options.
#[pyfunction]
#[pyo3(signature = (paths, out, jobs=None, part_games=200, resume=false, force=false, shard_=(0, 1), skip="", with_="", progress=false))]
#[allow(clippy::too_many_arguments)]
fn ingest(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    out: PathBuf,
    jobs: Option<usize>,
    part_games: usize,
    resume: bool,
    force: bool,
    shard_: (u64, u64),
    skip: &str,
    with_: &str,
    progress: bool,
) -> PyResult<String> {
    use haifu::dataset::ingest::{run, IngestOptions};
    if resume && force {
        return Err(input("resume and force exclude each other"));
    }
    let opts = IngestOptions {
        jobs,
        part_games,
        shard: shard(shard_)?,
        resume,
        force,
        stop_after_parts: None,
        skip: groups(skip, with_)?,
    };
    let summary = long(py, progress, || run(&paths, &out, &opts))?.map_err(dataset)?;
    Ok(json(&summary))
}

/// The part files of one table of an ingest folder, in name order (complete parts: hidden
/// unfinished files are not listed).
#[pyfunction]
fn table_files(out: PathBuf, table: &str) -> PyResult<Vec<PathBuf>> {
    if !haifu::dataset::parts::TABLES.contains(&table) {
        return Err(input(format!(
            "no table {table:?}: one of {}",
            haifu::dataset::parts::TABLES.join(", ")
        )));
    }
    haifu::dataset::parts::table_files(&out, table).map_err(dataset)
}

/// The option rows of a position line (`nanikiru --positions`' format): every distinct discard,
/// as the fitted evaluator is served them.
#[pyfunction]
fn features_position(py: Python<'_>, line: String) -> PyResult<ArrowStream> {
    let p = haifu::rank::majiang_position::parse_line(&line).map_err(input)?;
    let rows = quiet(py, || haifu::features::option_rows::every_discard(&p.view))?.map_err(model)?;
    let (tiles, values): (Vec<String>, Vec<Vec<f32>>) =
        rows.into_iter().map(|(t, r)| (t.to_string(), r)).unzip();
    frame(tiles, &values.concat())
}

/// The option rows of the decision of `kind` (discard, riichi, call) `seat` faces at the end of an
/// mjai record (a game so far), as ingest would write them for that decision.
#[pyfunction]
#[pyo3(signature = (events, seat, kind))]
fn features_events(py: Python<'_>, events: String, seat: u8, kind: &str) -> PyResult<ArrowStream> {
    use haifu::replay::decision::DecisionKind;
    let kind = match kind {
        "discard" => DecisionKind::Discard,
        "riichi" => DecisionKind::Riichi,
        "call" => DecisionKind::Call,
        other => return Err(input(format!("kind {other:?} (one of discard, riichi, call)"))),
    };
    let game = haifu::log::mjai::read::parse_mjai_live("events", events.as_bytes()).map_err(log)?;
    let rows = quiet(py, || haifu::dataset::rows::pending_decision(&game, seat, kind, Skip::NONE))?
        .map_err(record)?;
    frame(rows.options, &rows.values)
}

/// `option` and every catalog column in its storage type (the options table's types).
fn frame(options: Vec<String>, values: &[f32]) -> PyResult<ArrowStream> {
    let mut c = Columns::new();
    c.push("option", Values::Str(options));
    let cols = haifu::dataset::storage::columns(values).map_err(model)?;
    for (name, col) in haifu::features::catalog::names().iter().zip(cols) {
        c.push(name, col);
    }
    let f = c.frame().map_err(model)?;
    Ok(ArrowStream::new(f))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decisions, m)?)?;
    m.add_function(wrap_pyfunction!(ingest, m)?)?;
    m.add_function(wrap_pyfunction!(table_files, m)?)?;
    m.add_function(wrap_pyfunction!(features_position, m)?)?;
    m.add_function(wrap_pyfunction!(features_events, m)?)?;
    Ok(())
}
