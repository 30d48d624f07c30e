//! How a long call runs: off the interpreter's lock (other Python threads go on), on a thread of
//! its own while this one watches for Ctrl-C. On Ctrl-C the library's batches are asked to stop
//! ([`haifu::batch::request_stop`]: no further record; ingest keeps its complete parts) and the
//! call raises `KeyboardInterrupt` once they have. A panic becomes `haifu.InternalError`, never an
//! abort of the interpreter.

use std::time::Duration;

use haifu::batch::{self, ProgressMode};
use pyo3::prelude::*;

use crate::errors::internal;

/// Runs `f` without the interpreter's lock, with a progress bar on a terminal when `progress`,
/// stopping on Ctrl-C (see the module doc).
pub fn long<T: Send>(py: Python<'_>, progress: bool, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    batch::set_progress(if progress { ProgressMode::Auto } else { ProgressMode::Never });
    batch::clear_stop();
    let (out, interrupted) = py.detach(|| {
        std::thread::scope(|s| {
            let worker = s.spawn(f);
            let mut interrupted = None;
            while !worker.is_finished() {
                std::thread::sleep(Duration::from_millis(50));
                if interrupted.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        batch::request_stop();
                        interrupted = Some(e);
                    }
                }
            }
            (worker.join(), interrupted)
        })
    });
    batch::clear_stop();
    if let Some(e) = interrupted {
        return Err(e);
    }
    out.map_err(|p| internal(format!("haifu panicked: {}", batch::panic_message(&*p))))
}

/// A short call: without the interpreter's lock, a panic caught.
pub fn quiet<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)))
        .map_err(|p| internal(format!("haifu panicked: {}", batch::panic_message(&*p))))
}

/// Panics inside the library's call path: for the test that a panic is an exception.
#[pyfunction]
pub fn _panic(py: Python<'_>, message: String) -> PyResult<()> {
    long(py, false, move || -> () { panic!("{message}") })
}
