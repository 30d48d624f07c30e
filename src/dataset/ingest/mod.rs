//! `haifu ingest`: every decision of every game, with all its options and their feature vectors,
//! into five parquet tables (`games`, `rounds`, `decisions`, `options`, and `waits`, the danger
//! labels); schema in docs/schema.md.
//!
//! The input records (sorted, see [`crate::log::source::expand`]) are cut into parts of
//! `part_games` records; each part becomes one file per table (`options/part-000012.parquet`),
//! written under a hidden temporary name and renamed, then its manifest (`_parts/…json`, written
//! last) marks it complete ([`crate::dataset::parts`]). A killed run loses only the parts in
//! flight (at most two: one being filled, the one before it being closed); `--resume` redoes
//! exactly the parts without a manifest, after checking that each part it keeps is one this run
//! would write ([`resume`]). `--shard I/N` keeps the records whose game id hashes (FNV-1a) to I
//! mod N; its parts are numbered I, I+N, I+2N, … so the shards' folders merge without clashes.
//! Decision ids are `source index × 100,000 + k` (the record's place in the whole sorted input
//! list, the decision's place in its game): the same for any part size, shard, thread count or
//! interruption. Within a part, each worker thread takes the next game as soon as it is free
//! ([`crate::batch::run_sources`]); the games are written in input order in chunks of
//! [`CHUNK_GAMES`](pipeline::CHUNK_GAMES) (one parquet row group each), and workers run at most
//! [`crate::batch::window`] records ahead of the writer (two chunks, or two records per worker on
//! many cores), so memory stays bounded by a few chunks whatever the part size.
//!
//! The files are the same bytes whatever the thread counts. The stages, by file:
//!
//! - [`tables`]: the five tables' columns from a chunk's games ([`GameMeta`] for `games`).
//! - [`pipeline`]: the chunks' way to the files. Writing is not what sets the pace: the one writer
//!   thread only hands chunks over and appends finished pages in order through a buffered file
//!   ([`crate::dataset::parquet::ParquetSink`]). Building the columns (`build_frames`, each
//!   feature column a task), encoding and compressing them
//!   ([`crate::dataset::parquet::Layout::encode`], each column a task) and freeing the games
//!   (`encode_chunk`) are jobs of a writer pool of their own, and [`CHUNKS_IN_FLIGHT`] chunks
//!   encode at once, so one chunk's longest column does not hold up the next. A part's last chunks are appended, its files closed and its manifest written on a
//!   thread of its own ([`finish_part`]) while the workers fill the next part, so they do not wait
//!   at part ends. The writer pool is apart from the workers' pool because the workers block
//!   waiting for the writer: work queued on their pool would wait for them, and they for it.
//!   `haifu ingest` prints the rate at which writing alone would saturate
//!   ([`IngestSummary::writer_ceiling`]); docs/performance.md ("Writing") has the figures.
//! - [`resume`]: what `out` may hold at the start, and the checks on the parts `--resume` keeps.
//! - this module: the options, the run loop ([`run`]) and its summary.

use std::path::{Path, PathBuf};

use crate::batch::{self, Shard};
use crate::dataset::columns::Values;
use crate::dataset::error::DatasetError;
use crate::dataset::parts::{Manifest, Tally};
use crate::dataset::rows::GameRows;
use crate::dataset::skip::Skip;
use crate::log::source::{expand, Source};

mod memory;
mod pipeline;
mod resume;
mod tables;

pub use memory::{frames, Frames, FramesOptions};
pub use tables::GameMeta;

use pipeline::{fill_part, finish_part, writer_threads, WriterCpu, CHUNKS_IN_FLIGHT};
use resume::{check_parts, complete_parts, fingerprint, keep, prepare_out, schemas};

/// A game's metadata and rows, as produced by a worker.
pub struct IngestedGame {
    pub game: GameMeta,
    /// The game's rows, its option values already moved to `options`.
    pub rows: GameRows,
    /// The option feature columns in their storage types ([`crate::dataset::storage::columns`]):
    /// made on the worker, so the chunks waiting for the writer hold about a quarter of the f32
    /// rows' bytes and the writer pool only concatenates.
    pub options: Vec<Values>,
    /// Id of the game's first decision (`source index × DECISION_ID_STRIDE`).
    pub first_decision: u64,
}

/// How `haifu ingest` cuts and resumes its work.
#[derive(Clone, Debug)]
pub struct IngestOptions {
    /// Worker threads (default: all cores).
    pub jobs: Option<usize>,
    /// Input records per part.
    pub part_games: usize,
    pub shard: Shard,
    /// Keep the complete parts already in `out` and finish the rest.
    pub resume: bool,
    /// Replace what an earlier ingest wrote in `out`.
    pub force: bool,
    /// Stop after writing this many parts (tests: a run killed between parts).
    pub stop_after_parts: Option<usize>,
    /// Option column groups to leave out (not computed, not written): by default second-order
    /// ukeire ([`Skip::default`]; `--with ukeire2` holds it, `--skip ev` leaves out ev).
    pub skip: Skip,
}

impl Default for IngestOptions {
    fn default() -> Self {
        IngestOptions {
            jobs: None,
            part_games: 200,
            shard: Shard::default(),
            resume: false,
            force: false,
            stop_after_parts: None,
            skip: Skip::default(),
        }
    }
}

/// Summary of an ingest run (parts kept by `--resume` included).
#[derive(Debug, Default, serde::Serialize)]
pub struct IngestSummary {
    pub files: usize,
    /// Parts written by this run, and complete parts found and kept (`--resume`).
    pub parts_written: usize,
    pub parts_kept: usize,
    /// CPU seconds of the writer thread in this run (handing the chunks to the writer pool,
    /// appending their compressed pages, closing the files): with the games it wrote, part of the
    /// rate at which writing alone would saturate ([`IngestSummary::writer_ceiling`]).
    pub writer_cpu_seconds: f64,
    /// CPU seconds the writer pool spent building, encoding and compressing columns (spread over
    /// its threads).
    pub writer_pool_cpu_seconds: f64,
    /// The sum over chunks of the longest single column's build and encoding: a chunk's latency
    /// that no number of threads can shorten.
    pub writer_critical_seconds: f64,
    /// Chunks encoded at once ([`CHUNKS_IN_FLIGHT`]): the chunks' latencies overlap this many
    /// ways.
    pub writer_chunks_in_flight: usize,
    /// Games of the parts found complete and kept (`--resume`), which this run did not write.
    pub games_kept: u64,
    /// The sum of the parts' tallies, and the inputs that could not be read (flattened: the
    /// `--json` line keeps the fields at the top level).
    #[serde(flatten)]
    pub tally: Tally,
}

impl IngestSummary {
    /// Games per second at which the writer would be busy all the time with unlimited cores
    /// (`None` when nothing was written). Its serial parts: the writer thread's CPU, and the
    /// chunks' latency (the writer thread's share plus each chunk's longest columns), of which
    /// [`CHUNKS_IN_FLIGHT`] overlap.
    pub fn writer_ceiling(&self, games_written: u64) -> Option<f64> {
        let ways = self.writer_chunks_in_flight.max(1) as f64;
        let latency = (self.writer_cpu_seconds + self.writer_critical_seconds) / ways;
        let serial = self.writer_cpu_seconds.max(latency);
        (serial > 0.0 && games_written > 0).then(|| games_written as f64 / serial)
    }
}

/// A part being finished on a thread of its own ([`finish_part`]); it gives back the manifest.
type Finishing<'s> = std::thread::ScopedJoinHandle<'s, Result<(WriterCpu, Manifest), DatasetError>>;

/// Waits for the part being finished (if any) and adds it to the summary.
fn settle(finishing: Option<Finishing<'_>>, summary: &mut IngestSummary) -> Result<(), DatasetError> {
    let Some(handle) = finishing else { return Ok(()) };
    let (cpu, manifest) = handle.join().unwrap_or_else(|p| std::panic::resume_unwind(p))?;
    summary.writer_cpu_seconds += cpu.thread.as_secs_f64();
    summary.writer_pool_cpu_seconds += cpu.pool.as_secs_f64();
    summary.writer_critical_seconds += cpu.critical.as_secs_f64();
    summary.tally.add(&manifest.tally);
    summary.parts_written += 1;
    Ok(())
}

/// Ingests everything under `paths` (this shard's records) into `out`, part by part.
pub fn run(paths: &[PathBuf], out: &Path, opts: &IngestOptions) -> Result<IngestSummary, DatasetError> {
    prepare_out(out, opts)?;
    let done = complete_parts(out)?;
    let inputs = expand(paths);
    let mut summary = IngestSummary { writer_chunks_in_flight: CHUNKS_IN_FLIGHT, ..IngestSummary::default() };
    summary.tally.errors.extend(inputs.errors.iter().map(|e| batch::file_error("", e)));
    let mine: Vec<(u64, &Source)> = opts.shard.select(&inputs.sources);
    summary.files = mine.len() + inputs.errors.len();
    let per = opts.part_games.max(1);
    let shard = opts.shard.to_string();
    let schemas = schemas(opts.skip)?;
    let print = fingerprint(&schemas);
    let layouts = pipeline::layouts(opts.skip)?;
    check_parts(out, &done, opts, &schemas, &print, mine.len())?;
    let bar = batch::progress(mine.len(), "ingest");
    let pool = batch::pool(opts.jobs);
    let writer_pool = batch::pool(Some(writer_threads(opts.jobs)));
    let pools = [&pool, &writer_pool];
    // One part is finished on its own thread while the workers fill the next (see the module doc).
    std::thread::scope(|scope| {
        let mut finishing: Option<Finishing> = None;
        let mut started = 0;
        for (k, chunk) in mine.chunks(per).enumerate() {
            let part = k as u64 * opts.shard.count + opts.shard.index;
            let mut manifest = Manifest {
                part,
                shard: shard.clone(),
                part_games: per,
                sources: chunk.iter().map(|(_, s)| s.name.clone()).collect(),
                source_index: chunk.iter().map(|(i, _)| *i).collect(),
                ids: chunk.iter().map(|(_, s)| s.id.clone()).collect(),
                schema: print.clone(),
                skip: opts.skip.to_string(),
                groups: Some(opts.skip.holds()),
                ..Manifest::default()
            };
            if let Some(m) = done.get(&part) {
                // the parts' tallies (their errors' order) add up in part order
                settle(finishing.take(), &mut summary)?;
                keep(out, m, &manifest, &mut summary)?;
                bar.inc(chunk.len() as u64);
                continue;
            }
            if opts.stop_after_parts.is_some_and(|n| started >= n) {
                break;
            }
            started += 1;
            let pipe = fill_part(out, &mut manifest, chunk, opts.skip, &layouts, pools, &bar)?;
            settle(finishing.take(), &mut summary)?;
            if batch::stop_requested() {
                // the part may lack records: it gets no manifest (its hidden files are redone)
                let parts = summary.parts_written + summary.parts_kept;
                return Err(DatasetError::Interrupted { out: out.to_path_buf(), parts });
            }
            finishing =
                Some(scope.spawn(move || finish_part(out, pipe, &manifest).map(|cpu| (cpu, manifest))));
        }
        settle(finishing.take(), &mut summary)
    })?;
    bar.finish_and_clear();
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::parts::{self, read_table, TABLES};
    use crate::util::fnv1a;
    use polars::prelude::*;

    pub(super) fn sample_files(step: usize) -> Vec<PathBuf> {
        crate::testdata::need_tenhou_files(&[".mjlog"]).into_iter().step_by(step).collect()
    }

    /// Every column group (`--with ukeire2`), so the tests see every option column.
    pub(super) fn opts(part_games: usize) -> IngestOptions {
        IngestOptions {
            jobs: Some(2),
            part_games,
            skip: crate::dataset::skip::Skip::NONE,
            ..IngestOptions::default()
        }
    }

    /// Every part file of the five tables, by relative path, with its bytes.
    pub(super) fn part_files(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
        let mut out = std::collections::BTreeMap::new();
        for t in TABLES {
            for p in crate::dataset::parts::table_files(dir, t).unwrap() {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
        out
    }

    /// Every table as one frame (all parts, in name order).
    pub(super) fn tables(dir: &Path) -> Vec<DataFrame> {
        TABLES.iter().map(|t| read_table(dir, t, None).unwrap()).collect()
    }

    pub(super) fn assert_same_rows(a: &[DataFrame], b: &[DataFrame]) {
        for ((x, y), t) in a.iter().zip(b).zip(TABLES) {
            assert_eq!(x.shape(), y.shape(), "{t}: shape");
            assert!(x.equals_missing(y), "{t}: rows differ");
        }
    }

    /// The writer's ceiling by hand: the chunks' latency (thread + longest columns) overlapped
    /// `in flight` ways, unless the writer thread alone is slower.
    #[test]
    fn writer_ceiling_is_the_slower_serial_part() {
        let s = |thread: f64, critical: f64, ways: usize| IngestSummary {
            writer_cpu_seconds: thread,
            writer_critical_seconds: critical,
            writer_chunks_in_flight: ways,
            ..IngestSummary::default()
        };
        // (1 + 3) / 2 = 2 s for 1,000 games
        assert_eq!(s(1.0, 3.0, 2).writer_ceiling(1000), Some(500.0));
        // one chunk at a time: the old sum
        assert_eq!(s(1.0, 3.0, 1).writer_ceiling(1000), Some(250.0));
        // the thread's 4 s outweigh (4 + 2) / 2 = 3 s
        assert_eq!(s(4.0, 2.0, 2).writer_ceiling(1000), Some(250.0));
        assert_eq!(s(0.0, 0.0, 2).writer_ceiling(1000), None);
        assert_eq!(s(1.0, 1.0, 2).writer_ceiling(0), None);
    }

    /// The union of the N shards' outputs, put in one folder, holds exactly the rows of one run
    /// over everything (decision ids included), and no record is in two shards.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn shards_union_equals_whole_run() {
        let files = sample_files(500);
        let whole = tempfile::tempdir().unwrap();
        let s = run(&files, whole.path(), &opts(3)).unwrap();
        assert!(s.tally.errors.is_empty(), "{:?}", s.tally.errors);
        let union = tempfile::tempdir().unwrap();
        let n = 3;
        let mut games = 0;
        for i in 0..n {
            let shard = Shard { index: i, count: n };
            let dir = tempfile::tempdir().unwrap();
            let r = run(&files, dir.path(), &IngestOptions { shard, ..opts(3) }).unwrap();
            assert!(r.tally.games > 0, "shard {shard} is empty");
            games += r.tally.games;
            // copy the shard's folder into the union (part numbers never clash)
            for t in TABLES.iter().chain(&[parts::MANIFESTS]) {
                std::fs::create_dir_all(union.path().join(t)).unwrap();
                for e in std::fs::read_dir(dir.path().join(t)).unwrap() {
                    let p = e.unwrap().path();
                    let to = union.path().join(t).join(p.file_name().unwrap());
                    assert!(!to.exists(), "{} written by two shards", to.display());
                    std::fs::copy(&p, &to).unwrap();
                }
            }
        }
        assert_eq!(games, s.tally.games);
        // same rows: sort every table by its key (game, round, decision id, option row)
        let sorted = |dir: &Path| -> Vec<DataFrame> {
            let keys: [&[&str]; 5] = [
                &["game_id"],
                &["game_id", "round_index"],
                &["decision_id"],
                &["decision_id", "option"],
                &["decision_id", "opponent"],
            ];
            TABLES
                .iter()
                .zip(keys)
                .map(|(t, k)| {
                    read_table(dir, t, None)
                        .unwrap()
                        .sort(k.iter().copied(), SortMultipleOptions::default().with_maintain_order(true))
                        .unwrap()
                })
                .collect()
        };
        assert_same_rows(&sorted(whole.path()), &sorted(union.path()));
        // the hash is FNV-1a of the game id: fixed values, on every machine
        assert_eq!(fnv1a(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a(b"a"), 0xaf63dc4c8601ec8c);
        assert!("3/8".parse::<Shard>().is_ok() && "8/8".parse::<Shard>().is_err());
    }
}
