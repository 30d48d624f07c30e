//! Running a per-game function over many records in parallel, with a progress bar, per-file
//! errors that never stop the batch, and results in input order whatever the thread count.
//!
//! A panic while reading or processing one record (a bug that input reached) is caught and
//! becomes that record's error, `panic: <message>`; the batch goes on.
//!
//! The per-game function may fail with any error type (a stage's own enum, or a plain `String`):
//! the batch wraps it with the record's file as a [`FileError`], the error's text with its causes
//! (`message: cause: cause`, as the binary prints errors).

use std::io::IsTerminal;
use std::path::PathBuf;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use indicatif::{ProgressBar, ProgressStyle};

use crate::log::error::LogError;
use crate::log::event::Game;
use crate::log::source::{expand, Skipped, Source};
use crate::util::fnv1a;

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

/// Any error a per-game function returns, boxed (a `String` becomes one too).
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// An error's message followed by its causes, `message: cause: cause` (what the binary prints
/// for an error; the text a [`FileError`] keeps).
pub fn error_text(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
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

/// Whether batches show a progress bar: on a terminal (the default), or never. Process-wide, so
/// a program embedding the library (the Python package's `progress=` argument) sets it around a
/// call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// A bar on stderr when it is a terminal.
    Auto,
    /// No bar.
    Never,
}

static PROGRESS_HIDDEN: AtomicBool = AtomicBool::new(false);
static STOP: AtomicBool = AtomicBool::new(false);

/// Sets how the batches that start from now show their progress.
pub fn set_progress(mode: ProgressMode) {
    PROGRESS_HIDDEN.store(mode == ProgressMode::Never, Ordering::Relaxed);
}

/// Asks the running batches to stop: workers take no further record, and `haifu ingest` writes
/// no further part (the parts already complete stay, so a resumed run finishes the rest).
/// Process-wide, for an embedding program's Ctrl-C; [`clear_stop`] before the next call.
pub fn request_stop() {
    STOP.store(true, Ordering::Relaxed);
}

/// Whether [`request_stop`] was called since the last [`clear_stop`].
pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Lets batches run again after a [`request_stop`].
pub fn clear_stop() {
    STOP.store(false, Ordering::Relaxed);
}

/// A progress bar on stderr when it is a terminal (and not turned off by [`set_progress`]),
/// hidden otherwise.
pub fn progress(len: usize, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() || PROGRESS_HIDDEN.load(Ordering::Relaxed) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {rate}, {elapsed} elapsed, eta {eta}")
            .expect("progress template")
            .with_key("rate", |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&rate(state.per_sec()));
            })
            .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

/// A rate for people: three significant figures at most ("1.99/s", "30.7/s", "1234/s"), not
/// indicatif's four decimals.
fn rate(per_sec: f64) -> String {
    match per_sec {
        r if !r.is_finite() => "-/s".into(),
        r if r >= 100.0 => format!("{r:.0}/s"),
        r if r >= 10.0 => format!("{r:.1}/s"),
        r => format!("{r:.2}/s"),
    }
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

/// A `--shard` argument that is not `I/N` with `0 <= I < N` (the argument as given).
#[derive(Debug, thiserror::Error)]
#[error("shard {0:?}: expected I/N with 0 <= I < N, e.g. 3/8")]
pub struct BadShard(pub String);

impl std::str::FromStr for Shard {
    type Err = BadShard;
    fn from_str(s: &str) -> Result<Shard, BadShard> {
        let bad = || BadShard(s.to_string());
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

impl Shard {
    /// The sources this shard takes, each with its index in `sources` (the index fixes the
    /// decision ids of a game whatever the shard, so shards merge).
    pub fn select<'a>(&self, sources: &'a [Source]) -> Vec<(u64, &'a Source)> {
        sources.iter().enumerate().filter(|(_, s)| self.takes(&s.id)).map(|(i, s)| (i as u64, s)).collect()
    }

    /// Whether the record with game id `id` ([`Source::id`]: relative to the argument, so the
    /// same records fall in the same shard wherever the archive is mounted) belongs to this shard.
    pub fn takes(&self, id: &str) -> bool {
        fnv1a(id.as_bytes()) % self.count == self.index
    }
}

/// Expands `paths`, loads every record and applies `f` to each game, in parallel.
/// Sources are processed in chunks so that results never pile up beyond what `sink` keeps:
/// `sink` receives each chunk's results in input order.
pub fn run_chunked<R: Send, E: Into<BoxError>>(
    paths: &[PathBuf],
    jobs: Option<usize>,
    what: &str,
    chunk: usize,
    f: impl Fn(&Game) -> Result<R, E> + Sync,
    sink: impl FnMut(Vec<(String, R)>),
) -> Outcome<()> {
    run_shard(paths, jobs, what, Shard::default(), chunk, f, sink)
}

/// [`run_chunked`] over the records of one shard only (by game id, as `haifu ingest --shard`).
/// Unreadable inputs are reported by shard 0 alone, so the shards' errors add up to one run's.
pub fn run_shard<R: Send, E: Into<BoxError>>(
    paths: &[PathBuf],
    jobs: Option<usize>,
    what: &str,
    shard: Shard,
    chunk: usize,
    f: impl Fn(&Game) -> Result<R, E> + Sync,
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

/// How far (in records) the workers may run ahead of the sink: two chunks, or two records per
/// worker when there are more workers than a chunk holds. With a window of two chunks alone, 64
/// workers on 32-game chunks would all wait whenever one slow game held back its chunk (one game
/// can take many times the median), though the writer is far from busy.
pub fn window(chunk: usize, workers: usize) -> usize {
    2 * chunk.max(workers).max(1)
}

/// Loads `sources` and applies `f` to each game on `pool`; `sink` receives the results `chunk`
/// records at a time, in input order, as (position in `sources`, name, result). Returns the
/// records that failed.
///
/// Each pool thread takes the next record as soon as it is free, so no thread waits for the
/// slowest game of a chunk (one game can take many times the median, and a barrier per chunk
/// would idle every other core while it runs). Results are put back in order on this
/// thread, which hands each complete chunk to `sink` (ingest encodes parquet there) while the
/// workers go on. The workers run at most [`window`] records ahead of the sink, so memory holds
/// about three chunks of results (two records per worker on many cores) whatever the batch size.
pub fn run_sources<R: Send, E: Into<BoxError>>(
    sources: &[Source],
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
    chunk: usize,
    f: impl Fn(&Game) -> Result<R, E> + Sync,
    mut sink: impl FnMut(Vec<(usize, String, R)>),
) -> Vec<FileError> {
    let chunk = chunk.max(1);
    let n = sources.len();
    let window = window(chunk, pool.current_num_threads());
    let next = AtomicUsize::new(0);
    // Records handed to the sink so far; workers wait while they are `window` ahead of it.
    let sunk = Sunk { done: Mutex::new(0), moved: Condvar::new() };
    let mut errors = Vec::new();
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<R, FileError>)>();
    std::thread::scope(|scope| {
        let (f, next, sunk) = (&f, &next, &sunk);
        scope.spawn(move || {
            pool.scope(|s| {
                for _ in 0..pool.current_num_threads().max(1) {
                    let tx = tx.clone();
                    s.spawn(move |_| loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n || stop_requested() || !sunk.wait_below(i, window) {
                            break;
                        }
                        let src = &sources[i];
                        let failed = |error: String| FileError { file: src.name.clone(), error };
                        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match src.load() {
                            Ok(game) => f(&game).map_err(|e| failed(error_text(&*e.into()))),
                            Err(e) => Err(failed(file_error(&src.name, &e).error)),
                        }))
                        .unwrap_or_else(|p| Err(failed(format!("panic: {}", panic_message(&*p)))));
                        bar.inc(1);
                        if tx.send((i, r)).is_err() {
                            break;
                        }
                    });
                }
            });
        });
        // Wakes any waiting worker if this thread unwinds (a panicking sink), so the scope ends.
        let _release = Release(sunk);
        let mut pending = std::collections::BTreeMap::new();
        let mut done = 0;
        for (i, r) in rx {
            pending.insert(i, r);
            while done < n {
                let end = (done + chunk).min(n);
                if !(done..end).all(|j| pending.contains_key(&j)) {
                    break;
                }
                let mut ok = Vec::with_capacity(end - done);
                for j in done..end {
                    match pending.remove(&j).expect("checked above") {
                        Ok(v) => ok.push((j, sources[j].name.clone(), v)),
                        Err(e) => errors.push(e),
                    }
                }
                done = end;
                sunk.advance(done);
                sink(ok);
            }
        }
    });
    errors
}

/// How far the sink has got, shared with the workers of [`run_sources`].
struct Sunk {
    done: Mutex<usize>,
    moved: Condvar,
}

impl Sunk {
    /// Blocks until record `i` is less than `window` ahead of the sink; false when the batch was
    /// abandoned.
    fn wait_below(&self, i: usize, window: usize) -> bool {
        let mut done = self.done.lock().unwrap_or_else(|p| p.into_inner());
        while *done != usize::MAX && i >= *done + window {
            done = self.moved.wait(done).unwrap_or_else(|p| p.into_inner());
        }
        *done != usize::MAX
    }

    fn advance(&self, to: usize) {
        *self.done.lock().unwrap_or_else(|p| p.into_inner()) = to;
        self.moved.notify_all();
    }
}

/// Marks the batch abandoned when dropped during a panic, so no worker waits forever.
struct Release<'a>(&'a Sunk);

impl Drop for Release<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.advance(usize::MAX);
        }
    }
}

/// Like [`run_shard`] but keeps every result.
pub fn run_sharded<R: Send, E: Into<BoxError>>(
    paths: &[PathBuf],
    jobs: Option<usize>,
    what: &str,
    shard: Shard,
    f: impl Fn(&Game) -> Result<R, E> + Sync,
) -> Outcome<R> {
    let mut results = Vec::new();
    let o = run_shard(paths, jobs, what, shard, 256, f, |mut part| results.append(&mut part));
    Outcome { files: o.files, results, errors: o.errors, skipped: o.skipped }
}

/// Like [`run_chunked`] but keeps every result.
pub fn run<R: Send, E: Into<BoxError>>(
    paths: &[PathBuf],
    jobs: Option<usize>,
    what: &str,
    f: impl Fn(&Game) -> Result<R, E> + Sync,
) -> Outcome<R> {
    let mut results = Vec::new();
    let o = run_chunked(paths, jobs, what, 256, f, |mut part| results.append(&mut part));
    Outcome { files: o.files, results, errors: o.errors, skipped: o.skipped }
}

/// Every game of a batch, with the records that failed and those skipped on purpose.
#[derive(Debug, Default)]
pub struct LoadedGames {
    /// Parsed games, in input order.
    pub games: Vec<Game>,
    /// Inputs that could not be listed, then records that could not be read or parsed.
    pub errors: Vec<FileError>,
    pub skipped: Vec<Skipped>,
}

/// Expands `paths` and reads every record in parallel on all cores, keeping the order: [`run`]
/// with a function that keeps the game (so one path reads records, here and in every stage).
/// One bad record is one entry in `errors`; nothing stops the batch. For tests and small
/// studies: the games are all held in memory.
pub fn load_all(paths: &[PathBuf]) -> LoadedGames {
    let out = run(paths, None, "load", |game| Ok::<_, String>(game.clone()));
    LoadedGames {
        games: out.results.into_iter().map(|(_, g)| g).collect(),
        errors: out.errors,
        skipped: out.skipped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The progress bar's rate keeps three significant figures at most.
    #[test]
    fn rates_are_rounded_for_people() {
        assert_eq!(rate(1.985_9), "1.99/s");
        assert_eq!(rate(30.71), "30.7/s");
        assert_eq!(rate(1234.4), "1234/s");
        assert_eq!(rate(f64::INFINITY), "-/s");
    }

    /// load_all keeps every readable game in input order and names the file that failed.
    #[test]
    fn load_all_keeps_the_order_and_names_the_broken_file() {
        let dir = tempfile::tempdir().unwrap();
        let xml = crate::log::mjlog::SMALL_MJLOG;
        for name in ["a", "b", "c"] {
            std::fs::write(dir.path().join(format!("{name}.mjlog")), xml).unwrap();
        }
        std::fs::write(dir.path().join("b2.mjlog"), &xml[..xml.len() / 2]).unwrap();
        let batch = load_all(&[dir.path().to_path_buf()]);
        let ids: Vec<&str> = batch.games.iter().map(|g| g.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "c"]);
        assert_eq!(batch.errors.len(), 1);
        assert!(batch.errors[0].file.ends_with("b2.mjlog"), "{:?}", batch.errors[0]);
    }

    /// A per-game error is kept with its causes, `message: cause`.
    #[test]
    fn a_typed_error_keeps_its_causes() {
        #[derive(Debug, thiserror::Error)]
        #[error("outer")]
        struct Outer(#[source] std::io::Error);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.mjlog"), crate::log::mjlog::SMALL_MJLOG).unwrap();
        let out = run(&[dir.path().to_path_buf()], Some(1), "test", |_| {
            Err::<(), _>(Outer(std::io::Error::other("inner")))
        });
        assert_eq!(out.errors[0].error, "outer: inner");
    }

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
            Ok::<_, String>(game.id.clone())
        });
        let ok: Vec<&str> = out.results.iter().map(|(_, id)| id.as_str()).collect();
        assert_eq!(ok, ["a", "c"]);
        assert_eq!(out.errors.len(), 1);
        assert!(out.errors[0].file.ends_with("b.mjlog"), "{:?}", out.errors[0]);
        assert_eq!(out.errors[0].error, "panic: a bug reached by game b");
    }

    #[test]
    fn the_window_is_two_chunks_or_two_records_per_worker() {
        assert_eq!(window(32, 2), 64);
        assert_eq!(window(32, 64), 128);
        assert_eq!(window(2, 3), 6);
        assert_eq!(window(0, 0), 2);
    }

    /// Games that finish out of order still reach the sink in input order, a whole chunk at a
    /// time, and while the sink holds chunk c no worker starts a game more than the window
    /// beyond it.
    #[test]
    fn chunks_reach_the_sink_in_order_and_workers_stay_within_the_window() {
        let dir = tempfile::tempdir().unwrap();
        let names: Vec<String> = (0..11).map(|i| format!("g{i:02}")).collect();
        for name in &names {
            std::fs::write(dir.path().join(format!("{name}.mjlog")), crate::log::mjlog::SMALL_MJLOG).unwrap();
        }
        let sunk = std::sync::atomic::AtomicUsize::new(0);
        let max_ahead = std::sync::atomic::AtomicUsize::new(0);
        let mut chunks: Vec<Vec<usize>> = Vec::new();
        let chunk = 2;
        let out = run_chunked(
            &[dir.path().to_path_buf()],
            Some(3),
            "test",
            chunk,
            |game| {
                let i: usize = game.id[1..].parse().unwrap();
                let ahead = i.saturating_sub(sunk.load(Ordering::SeqCst));
                max_ahead.fetch_max(ahead, Ordering::SeqCst);
                // early games are the slow ones: they finish after later ones
                std::thread::sleep(std::time::Duration::from_millis(if i % 3 == 0 { 40 } else { 1 }));
                if i == 7 {
                    return Err("seven fails".to_string());
                }
                Ok(i)
            },
            |part| {
                chunks.push(part.iter().map(|(_, i)| *i).collect());
                sunk.fetch_add(chunk, Ordering::SeqCst);
            },
        );
        // chunk [6, 7] lost 7 to its error; the sink still got 6 in its place
        assert_eq!(chunks, [vec![0, 1], vec![2, 3], vec![4, 5], vec![6], vec![8, 9], vec![10]]);
        assert_eq!(out.errors.len(), 1);
        assert!(out.errors[0].file.ends_with("g07.mjlog") && out.errors[0].error == "seven fails");
        // `sunk` counts the chunks the sink has finished: c of them while it holds chunk c
        assert!(max_ahead.load(Ordering::SeqCst) < window(chunk, 3) + chunk, "{max_ahead:?}");
    }

    /// A panicking sink ends the batch with its panic instead of leaving workers waiting for a
    /// sink that will never move on.
    #[test]
    fn a_panicking_sink_does_not_hang_the_workers() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..12 {
            std::fs::write(dir.path().join(format!("g{i:02}.mjlog")), crate::log::mjlog::SMALL_MJLOG)
                .unwrap();
        }
        let path = dir.path().to_path_buf();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let r = std::panic::catch_unwind(|| {
                run_chunked(
                    &[path],
                    Some(2),
                    "test",
                    1,
                    |g| Ok::<_, String>(g.id.clone()),
                    |_| panic!("sink failed"),
                )
            });
            let _ = tx.send(r.is_err());
        });
        let panicked = rx.recv_timeout(std::time::Duration::from_secs(20)).expect("the batch hung");
        assert!(panicked);
    }
}
