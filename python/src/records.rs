//! Records: `check`, `mjai_events`, `convert` (what `haifu check --json` and `haifu convert
//! --json` print; the validated mjai lines `convert --to mjai` writes).

use std::path::PathBuf;

use pyo3::prelude::*;

use crate::errors::{input, json, record};
use crate::run::long;

/// `haifu check PATHS --json`.
#[pyfunction]
#[pyo3(signature = (paths, jobs=None, progress=false))]
fn check(py: Python<'_>, paths: Vec<PathBuf>, jobs: Option<usize>, progress: bool) -> PyResult<String> {
    let summary = long(py, progress, || haifu::replay::check::check_paths(&paths, jobs))?;
    Ok(json(&summary))
}

/// The validated mjai JSON lines of every game under `path`, one text per game (in input order).
#[pyfunction]
fn mjai_events(py: Python<'_>, path: PathBuf) -> PyResult<Vec<String>> {
    let games = long(py, false, || -> Result<Vec<String>, String> {
        let inputs = haifu::log::source::expand(std::slice::from_ref(&path));
        if let Some(e) = inputs.errors.first() {
            return Err(e.to_string());
        }
        inputs
            .sources
            .iter()
            .map(|s| {
                let game = s.load().map_err(|e| e.to_string())?;
                haifu::convert::mjai_text(&game)
                    .map_err(|e| format!("{}: {}", s.name, haifu::batch::error_text(&e)))
            })
            .collect()
    })?;
    games.map_err(|e| record(Message(e)))
}

/// `haifu convert PATHS --to TO --out OUT --json`.
#[pyfunction]
#[pyo3(signature = (paths, to, out, jobs=None, resume=false, progress=false))]
fn convert(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    to: &str,
    out: PathBuf,
    jobs: Option<usize>,
    resume: bool,
    progress: bool,
) -> PyResult<String> {
    use haifu::convert::{Options, Target};
    let to = match to {
        "mjai" => Target::Mjai,
        "tenhou6" => Target::Tenhou6,
        other => return Err(input(format!("to must be \"mjai\" or \"tenhou6\", not {other:?}"))),
    };
    let opts = Options { to, out, jobs, resume };
    let summary = long(py, progress, || haifu::convert::run(&paths, &opts))?;
    Ok(json(&summary))
}

/// An error that is only a message (already holding its causes).
#[derive(Debug)]
pub struct Message(pub String);

impl std::fmt::Display for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Message {}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(mjai_events, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    Ok(())
}
