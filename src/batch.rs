//! Running a per-game function over many records in parallel, with a progress bar, per-file
//! errors that never stop the batch, and results in input order whatever the thread count.
//!
//! A panic while reading or processing one record (a bug that input reached) is caught and
//! becomes that record's error, `panic: <message>`; the batch goes on.

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

/// The text of a caught panic (a `&str` or `String` payload; anything else is unnamed).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_string())
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
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {per_sec}, {elapsed} elapsed, eta {eta}")
            .expect("progress template")
            .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

/// `--shard I/N`: the records whose game id hashes to I mod N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Default for Shard {
    fn default() -> Self {
        Shard { index: 0, count: 1 }
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard {s:?}: expected I/N with 0 <= I < N, e.g. 3/8");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u64, u64) =
            (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// FNV-1a 64 of `bytes`: a hash that is the same on every machine and every run (Rust's
/// `HashMap` hasher is randomised).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

impl Shard {
    /// Whether the record with game id `id` ([`Source::id`]: relative to the argument, so the
    /// same records fall in the same shard wherever the archive is mounted) belongs to this shard.
    pub fn takes(&self, id: &str) -> bool {
        fnv1a(id.as_bytes()) % self.count == self.index
    }
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
    sink: impl FnMut(Vec<(String, R)>),
) -> Outcome<()> {
    run_shard(paths, jobs, what, Shard::default(), chunk, f, sink)
}

/// [`run_chunked`] over the records of one shard only (by game id, as `haifu ingest --shard`).
/// Unreadable inputs are reported by shard 0 alone, so the shards' errors add up to one run's.
pub fn run_shard<R: Send>(
    paths: &[PathBuf],
    jobs: Option<usize>,
    what: &str,
    shard: Shard,
    chunk: usize,
    f: impl Fn(&Game) -> Result<R, String> + Sync,
    mut sink: impl FnMut(Vec<(String, R)>),
) -> Outcome<()> {
    let mut expansion = expand(paths);
    if shard.index != 0 {
        expansion.errors.clear();
        expansion.skipped.clear();
    }
    let mut errors: Vec<FileError> = expansion.errors.iter().map(|e| file_error("", e)).collect();
    let sources: Vec<Source> = expansion.sources.into_iter().filter(|s| shard.takes(&s.id)).collect();
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
///
/// The workers run ahead by one chunk while this thread hands the previous chunk to `sink`
/// (ingest encodes parquet there): the pool never waits for the sink.
pub fn run_sources<R: Send>(
    sources: &[Source],
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
    chunk: usize,
    f: impl Fn(&Game) -> Result<R, String> + Sync,
    mut sink: impl FnMut(Vec<(usize, String, R)>),
) -> Vec<FileError> {
    let chunk = chunk.max(1);
    let mut errors = Vec::new();
    type Done<R> = (usize, Vec<(String, Result<R, String>)>);
    let (tx, rx) = std::sync::mpsc::sync_channel::<Done<R>>(1);
    std::thread::scope(|scope| {
        let f = &f;
        scope.spawn(move || {
            for (c, part) in sources.chunks(chunk).enumerate() {
                let done: Vec<(String, Result<R, String>)> = pool.install(|| {
                    part.par_iter()
                        .map(|src: &Source| {
                            let r =
                                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match src.load() {
                                    Ok(game) => f(&game),
                                    Err(e) => Err(file_error(&src.name, &e).error),
                                }))
                                .unwrap_or_else(|p| Err(format!("panic: {}", panic_message(&*p))));
                            bar.inc(1);
                            (src.name.clone(), r)
                        })
                        .collect()
                });
                if tx.send((c, done)).is_err() {
                    break;
                }
            }
        });
        for (c, done) in rx {
            let mut ok = Vec::with_capacity(done.len());
            for (i, (name, r)) in done.into_iter().enumerate() {
                match r {
                    Ok(v) => ok.push((c * chunk + i, name, v)),
                    Err(error) => errors.push(FileError { file: name, error }),
                }
            }
            sink(ok);
        }
    });
    errors
}

/// Like [`run_shard`] but keeps every result.
pub fn run_sharded<R: Send>(
    paths: &[PathBuf],
    jobs: Option<usize>,
    what: &str,
    shard: Shard,
    f: impl Fn(&Game) -> Result<R, String> + Sync,
) -> Outcome<R> {
    let mut results = Vec::new();
    let o = run_shard(paths, jobs, what, shard, 256, f, |mut part| results.append(&mut part));
    Outcome { files: o.files, results, errors: o.errors, skipped: o.skipped }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic in the per-game function is that file's error; the other files still finish.
    #[test]
    fn a_panic_is_one_files_error_and_the_batch_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a", "b", "c"] {
            std::fs::write(dir.path().join(format!("{name}.mjlog")), crate::log::mjlog::SMALL_MJLOG).unwrap();
        }
        let out = run(&[dir.path().to_path_buf()], Some(2), "test", |game| {
            if game.id == "b" {
                panic!("a bug reached by game {}", game.id);
            }
            Ok(game.id.clone())
        });
        let ok: Vec<&str> = out.results.iter().map(|(_, id)| id.as_str()).collect();
        assert_eq!(ok, ["a", "c"]);
        assert_eq!(out.errors.len(), 1);
        assert!(out.errors[0].file.ends_with("b.mjlog"), "{:?}", out.errors[0]);
        assert_eq!(out.errors[0].error, "panic: a bug reached by game b");
    }
}
