//! Running a per-game function over many records in parallel, with a progress bar, per-file
//! errors that never stop the batch, and results in input order whatever the thread count.

use std::io::IsTerminal;
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::log::source::{expand, Skipped, Source};
use crate::log::{Game, LogError};

/// A record that could not be read or processed, named by its file (or archive entry / row).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileError {
    pub file: String,
    pub error: String,
}

/// A reader error as (file, message without the file).
pub fn file_error(default: &str, e: &LogError) -> FileError {
    match e {
        LogError::InFile { file, source } => FileError { file: file.clone(), error: source.to_string() },
        other => FileError { file: default.to_string(), error: other.to_string() },
    }
}

/// Everything a batch produced.
pub struct Outcome<R> {
    /// Records found (files, archive entries, database rows), including the failed ones.
    pub files: usize,
    /// Per-record results, in input order.
    pub results: Vec<(String, R)>,
    pub errors: Vec<FileError>,
    pub skipped: Vec<Skipped>,
}

/// Builds the rayon pool: `jobs` threads, or all cores.
pub fn pool(jobs: Option<usize>) -> rayon::ThreadPool {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(j) = jobs {
        b = b.num_threads(j.max(1));
    }
    b.build().expect("thread pool")
}

/// A progress bar on stderr when it is a terminal, hidden otherwise.
pub fn progress(len: usize, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {per_sec} eta {eta}")
            .expect("progress template")
            .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

/// Expands `paths`, loads every record and applies `f` to each game, in parallel.
/// Sources are processed in chunks so that results never pile up beyond what `sink` keeps:
/// `sink` receives each chunk's results in input order.
pub fn run_chunked<R: Send>(
    paths: &[PathBuf],
    jobs: Option<usize>,
    what: &str,
    chunk: usize,
    f: impl Fn(&Game) -> Result<R, String> + Sync,
    mut sink: impl FnMut(Vec<(String, R)>),
) -> Outcome<()> {
    let expansion = expand(paths);
    let mut errors: Vec<FileError> = expansion.errors.iter().map(|e| file_error("", e)).collect();
    let sources = expansion.sources;
    let bar = progress(sources.len(), what);
    let pool = pool(jobs);
    errors.extend(run_sources(&sources, &pool, &bar, chunk, f, |part| {
        sink(part.into_iter().map(|(_, name, r)| (name, r)).collect())
    }));
    bar.finish_and_clear();
    let files = sources.len() + expansion.errors.len();
    Outcome { files, results: Vec::new(), errors, skipped: expansion.skipped }
}

/// Loads `sources` and applies `f` to each game on `pool`, `chunk` records at a time; `sink`
/// receives each chunk's results in input order as (position in `sources`, name, result).
/// Returns the records that failed.
pub fn run_sources<R: Send>(
    sources: &[Source],
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
    chunk: usize,
    f: impl Fn(&Game) -> Result<R, String> + Sync,
    mut sink: impl FnMut(Vec<(usize, String, R)>),
) -> Vec<FileError> {
    let mut errors = Vec::new();
    for (c, part) in sources.chunks(chunk.max(1)).enumerate() {
        let done: Vec<(String, Result<R, String>)> = pool.install(|| {
            part.par_iter()
                .map(|src: &Source| {
                    let r = match src.load() {
                        Ok(game) => f(&game),
                        Err(e) => Err(file_error(&src.name, &e).error),
                    };
                    bar.inc(1);
                    (src.name.clone(), r)
                })
                .collect()
        });
        let mut ok = Vec::with_capacity(done.len());
        for (i, (name, r)) in done.into_iter().enumerate() {
            match r {
                Ok(v) => ok.push((c * chunk.max(1) + i, name, v)),
                Err(error) => errors.push(FileError { file: name, error }),
            }
        }
        sink(ok);
    }
    errors
}

/// Like [`run_chunked`] but keeps every result.
pub fn run<R: Send>(
    paths: &[PathBuf],
    jobs: Option<usize>,
    what: &str,
    f: impl Fn(&Game) -> Result<R, String> + Sync,
) -> Outcome<R> {
    let mut results = Vec::new();
    let o = run_chunked(paths, jobs, what, 256, f, |mut part| results.append(&mut part));
    Outcome { files: o.files, results, errors: o.errors, skipped: o.skipped }
}
