//! The library's errors as the exceptions of `haifu._errors` (defined in Python, so `InputError`
//! can be both a `HaifuError` and a `ValueError`): bad input (a hand, a tile, an argument: the
//! message the command line prints) is `InputError`; records that cannot be read or replayed
//! `RecordError`; dataset folders `DatasetError`; weights and evaluators `ModelError`; a panic
//! (a bug) `InternalError`.

use pyo3::prelude::*;
use pyo3::types::PyType;

/// A new exception of class `name` of `haifu._errors` with `msg` (its causes appended, as the
/// command line prints an error).
fn raise(name: &str, msg: String) -> PyErr {
    Python::attach(|py| {
        let class = py
            .import("haifu._errors")
            .and_then(|m| m.getattr(name))
            .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
        match class {
            Ok(c) => PyErr::from_type(c, msg),
            Err(e) => e,
        }
    })
}

/// An error's message with its causes (`message: cause: cause`).
fn text(e: &(dyn std::error::Error + 'static)) -> String {
    haifu::batch::error_text(e)
}

pub fn input(e: impl std::fmt::Display) -> PyErr {
    raise("InputError", e.to_string())
}

pub fn record(e: impl std::error::Error + 'static) -> PyErr {
    raise("RecordError", text(&e))
}

/// A reader's error: its message already names its cause.
pub fn log(e: haifu::log::error::LogError) -> PyErr {
    raise("RecordError", e.to_string())
}

pub fn dataset(e: haifu::dataset::error::DatasetError) -> PyErr {
    raise("DatasetError", text(&e))
}

pub fn model(e: impl std::error::Error + 'static) -> PyErr {
    raise("ModelError", text(&e))
}

pub fn internal(msg: String) -> PyErr {
    raise("InternalError", msg)
}

/// A value as JSON text (what the command's `--json` prints).
pub fn json(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| format!("{{\"error\":{:?}}}", e.to_string()))
}
