//! The chunks' way from the workers to a part's files: the workers' share ([`ingest_game`]), the
//! writer pool's jobs that build and encode a chunk's tables ([`encode_chunk`]), and the writer
//! thread that appends the finished pages in input order ([`Pipeline`], [`Sinks`]) and closes a
//! part ([`finish_part`]).

use std::path::Path;
use std::sync::Arc;

use polars::prelude::{polars_err, Column, DataFrame, PolarsResult};

use crate::batch;
use crate::dataset::error::{DatasetError, RecordError};
use crate::dataset::parquet::{thread_cpu, Encoded, Layout, ParquetSink};
use crate::dataset::parts::{self, Manifest, Tally, DECISION_ID_STRIDE, TABLES};
use crate::dataset::rows::game_rows_with;
use crate::dataset::skip::Skip;
use crate::dataset::storage;
use crate::features::catalog::names;
use crate::log::event::Game;
use crate::log::source::Source;

use super::tables::{
    decisions_columns, games_columns, options_head, rounds_columns, waits_columns, GameMeta,
};
use super::IngestedGame;

/// Games per chunk: the unit in which the workers' games reach the writer, and one parquet row
/// group of each table.
pub(super) const CHUNK_GAMES: usize = 32;

/// Chunks a part's writer thread has handed to the writer pool ([`encode_chunk`]), at most this
/// many at once: while one chunk's longest column is still being compressed, the next chunks are
/// already encoding, so a chunk's latency (its longest build and encode tasks, which no number of
/// threads shortens) bounds the rate only at this many chunks per latency. Each is one more chunk
/// in memory.
pub(super) const CHUNKS_IN_FLIGHT: usize = 2;

/// Threads of the writer pool: half the workers' (at least one). The writer is busy a fraction
/// of the time, and on a full machine every extra busy thread only competes with the workers for
/// the cores (docs/performance.md, "Writing", has the measured cost of a larger pool).
pub(super) fn writer_threads(jobs: Option<usize>) -> usize {
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    (jobs / 2).max(1)
}

/// Ingests one part's records in small parallel chunks into its five files, and returns when
/// every record is read, its last chunks still encoding: [`finish_part`] closes the part while the
/// workers start on the next one.
pub(super) fn fill_part(
    out: &Path,
    manifest: &mut Manifest,
    sources: &[(u64, &Source)],
    skip: Skip,
    layouts: &Layouts,
    pools: [&rayon::ThreadPool; 2],
    bar: &indicatif::ProgressBar,
) -> Result<Pipeline, DatasetError> {
    let [pool, writer_pool] = pools;
    let sinks = Sinks::create(out, manifest.part, skip, layouts)?;
    let mut pipe = Pipeline { sinks, queue: Default::default(), cpu: WriterCpu::default(), error: None };
    let list: Vec<Source> = sources.iter().map(|(_, s)| (*s).clone()).collect();
    let errors = batch::run_sources(
        &list,
        pool,
        bar,
        CHUNK_GAMES,
        |game| ingest_game(game, skip),
        |chunk| {
            let start = thread_cpu();
            let games: Vec<IngestedGame> = chunk
                .into_iter()
                .map(|(i, _, mut g)| {
                    g.first_decision = sources[i].0 * DECISION_ID_STRIDE;
                    g
                })
                .collect();
            count(&mut manifest.tally, &games);
            if pipe.error.is_none() {
                pipe.push(games, skip, layouts, writer_pool);
            }
            pipe.cpu.thread += thread_cpu().saturating_sub(start);
        },
    );
    manifest.tally.errors = errors;
    Ok(pipe)
}

/// Completes a part [`fill_part`] filled: appends its last chunks, closes and renames its four
/// files, then writes its manifest (last, so a part without one is redone by `--resume`).
/// Returns the writer's CPU of the whole part (this thread's included).
pub(super) fn finish_part(
    out: &Path,
    mut pipe: Pipeline,
    manifest: &Manifest,
) -> Result<WriterCpu, DatasetError> {
    let start = thread_cpu();
    pipe.drain();
    let Pipeline { sinks, mut cpu, error, .. } = pipe;
    if let Some(e) = error {
        return Err(DatasetError::WriteParquet { source: Box::new(e) });
    }
    sinks.finish().map_err(|e| DatasetError::WriteParquet { source: Box::new(e) })?;
    let path = parts::manifest_path(out, manifest.part);
    crate::util::write_atomic(&path, serde_json::to_vec_pretty(manifest)?)
        .map_err(|source| DatasetError::Write { path: path.clone(), source })?;
    cpu.thread += thread_cpu().saturating_sub(start);
    Ok(cpu)
}

/// A worker's share of ingest: one game's rows, its option columns in their storage types.
pub(super) fn ingest_game(game: &Game, skip: Skip) -> Result<IngestedGame, RecordError> {
    let mut rows = game_rows_with(game, skip)?;
    if rows.decisions.len() as u64 >= DECISION_ID_STRIDE {
        return Err(RecordError::TooManyDecisions(rows.decisions.len()));
    }
    let options = storage::columns(&rows.values)?;
    rows.values = Vec::new();
    Ok(IngestedGame { game: GameMeta::of(game, &rows), rows, options, first_decision: 0 })
}

/// Adds a chunk's games to the part's tally.
pub(super) fn count(t: &mut Tally, games: &[IngestedGame]) {
    for g in games {
        t.games += 1;
        t.rounds += g.rows.rounds.len() as u64;
        t.decisions += g.rows.decisions.len() as u64;
        t.options += g.rows.options.len() as u64;
        for d in &g.rows.decisions {
            *t.decisions_by_kind.entry(d.kind.name().to_string()).or_default() += 1;
        }
    }
}

/// What encoding a chunk cost the writer pool: its CPU, and the longest single column's.
#[derive(Default)]
pub(super) struct ChunkCost {
    cpu: std::time::Duration,
    longest: std::time::Duration,
}

/// The writer's CPU accounting of one part (see [`super::IngestSummary`]).
#[derive(Default)]
pub(super) struct WriterCpu {
    pub(super) thread: std::time::Duration,
    pub(super) pool: std::time::Duration,
    pub(super) critical: std::time::Duration,
}

/// Output writers of one part's five tables.
struct Sinks {
    games: ParquetSink,
    rounds: ParquetSink,
    decisions: ParquetSink,
    options: ParquetSink,
    waits: ParquetSink,
    /// The option column groups left out.
    skip: Skip,
}

/// A part's chunks on their way to the files: each chunk's encoding job, oldest first, and the
/// files they are appended to, in input order.
pub(super) struct Pipeline {
    sinks: Sinks,
    queue: std::collections::VecDeque<std::sync::mpsc::Receiver<EncodedChunk>>,
    cpu: WriterCpu,
    /// The first failure; later chunks are still waited for but not appended.
    error: Option<DatasetError>,
}

impl Pipeline {
    /// Hands `games` to `pool` (a job that owns them), then appends the oldest chunks until at
    /// most [`CHUNKS_IN_FLIGHT`] are pending.
    fn push(&mut self, games: Vec<IngestedGame>, skip: Skip, layouts: &Layouts, pool: &rayon::ThreadPool) {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let layouts = layouts.clone();
        pool.spawn(move || {
            // A panic would abort the process from a spawned job: it becomes the chunk's error.
            let encoded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                encode_chunk(games, skip, &layouts)
            }))
            .unwrap_or_else(|p| {
                Err(DatasetError::Panicked { what: "encoding a chunk", message: batch::panic_message(&*p) })
            });
            // The receiver is gone only when the part failed and was abandoned.
            let _ = tx.send(encoded);
        });
        self.queue.push_back(rx);
        while self.queue.len() > CHUNKS_IN_FLIGHT {
            self.append_oldest();
        }
    }

    /// Waits for the oldest chunk's job and appends its pages (unless an earlier chunk failed).
    fn append_oldest(&mut self) {
        let Some(rx) = self.queue.pop_front() else { return };
        let done = rx.recv().unwrap_or_else(|_| {
            Err(DatasetError::Io(std::io::Error::other("a chunk's encoding job vanished")))
        });
        let appended = done.and_then(|(tables, cost)| {
            self.cpu.pool += cost.cpu;
            self.cpu.critical += cost.longest;
            match self.error {
                None => self.sinks.append(tables),
                Some(_) => Ok(()),
            }
        });
        if let Err(e) = appended {
            self.error.get_or_insert(e);
        }
    }

    /// Appends every pending chunk.
    fn drain(&mut self) {
        while !self.queue.is_empty() {
            self.append_oldest();
        }
    }
}

impl Sinks {
    fn create(dir: &Path, part: u64, skip: Skip, layouts: &Layouts) -> std::io::Result<Sinks> {
        let s =
            |t: usize| ParquetSink::with_layout(&parts::part_path(dir, TABLES[t], part), layouts[t].clone());
        Ok(Sinks { games: s(0)?, rounds: s(1)?, decisions: s(2)?, options: s(3)?, waits: s(4)?, skip })
    }

    /// Appends a chunk's five encoded tables ([`encode_chunk`]) to the files.
    fn append(&mut self, tables: Vec<Encoded>) -> Result<(), DatasetError> {
        let sinks =
            [&mut self.games, &mut self.rounds, &mut self.decisions, &mut self.options, &mut self.waits];
        for (sink, e) in sinks.into_iter().zip(tables) {
            sink.append(e)?;
        }
        Ok(())
    }

    /// Closes the five files and renames them into place.
    fn finish(self) -> Result<(), DatasetError> {
        let [games, rounds, decisions, options, waits] = super::tables::empty_columns(self.skip);
        self.games.finish(&games)?;
        self.rounds.finish(&rounds)?;
        self.decisions.finish(&decisions)?;
        self.options.finish(&options)?;
        self.waits.finish(&waits)?;
        Ok(())
    }
}

/// A piece of a chunk's tables: a whole small table, or one feature column of the options.
enum Piece {
    Frame(DataFrame),
    Column(Column),
}

/// The five tables' frames of a chunk, as [`games_columns`] … [`waits_columns`] make them, but
/// built on the current rayon pool: each small table, the options' first columns and each feature
/// column is a task. Returns the frames and the tasks' CPU (summed, and the longest).
pub(super) fn build_frames(
    games: &[IngestedGame],
    skip: Skip,
) -> Result<([DataFrame; 5], ChunkCost), DatasetError> {
    use rayon::prelude::*;
    let refs: Vec<&IngestedGame> = games.iter().collect();
    let metas: Vec<&GameMeta> = games.iter().map(|g| &g.game).collect();
    let names = names();
    let features: Vec<usize> = (0..names.len()).filter(|&j| !skip.leaves_out(names[j])).collect();
    let empties = storage::empty_columns(0);
    let build = |t: usize| -> PolarsResult<Piece> {
        Ok(match t {
            0 => Piece::Frame(games_columns(&metas).frame()?),
            1 => Piece::Frame(rounds_columns(&refs).frame()?),
            2 => Piece::Frame(decisions_columns(&refs).frame()?),
            3 => Piece::Frame(options_head(&refs).frame()?),
            4 => Piece::Frame(waits_columns(&refs).frame()?),
            _ => {
                let j = features[t - 5];
                let mut v = empties[j].clone();
                for g in &refs {
                    v.append(&g.options[j]);
                }
                Piece::Column(v.column(names[j]))
            }
        })
    };
    let built: Vec<(PolarsResult<Piece>, std::time::Duration)> = (0..5 + features.len())
        .into_par_iter()
        .map(|t| {
            let start = thread_cpu();
            let piece = build(t);
            (piece, thread_cpu().saturating_sub(start))
        })
        .collect();
    let mut cost = ChunkCost::default();
    let mut frames = Vec::with_capacity(5);
    let mut columns = Vec::with_capacity(features.len());
    for (piece, cpu) in built {
        cost.cpu += cpu;
        cost.longest = cost.longest.max(cpu);
        match piece? {
            Piece::Frame(f) => frames.push(f),
            Piece::Column(c) => columns.push(c),
        }
    }
    let waits = frames.pop().ok_or_else(|| polars_err!(ComputeError: "no waits frame"))?;
    let head = frames.pop().ok_or_else(|| polars_err!(ComputeError: "no options frame"))?;
    let height = head.height();
    let mut options = head.into_columns();
    options.extend(columns);
    let options = DataFrame::new(height, options)?;
    let [g, r, d] =
        <[DataFrame; 3]>::try_from(frames).map_err(|_| polars_err!(ComputeError: "three frames"))?;
    Ok(([g, r, d, options, waits], cost))
}

/// The five tables' layouts (their schemas those of the tables' empty frames, as
/// [`super::resume::schemas`] reads them), shared by every part of a run.
pub(super) type Layouts = [Arc<Layout>; 5];

/// The layouts of the five tables without the option columns `skip` leaves out.
pub(super) fn layouts(skip: Skip) -> Result<Layouts, DatasetError> {
    let frames = super::tables::empty_columns(skip);
    let mut out = Vec::with_capacity(5);
    for c in frames {
        out.push(Arc::new(Layout::of(c.frame()?.schema())?));
    }
    Ok(<Layouts>::try_from(out).map_err(|_| polars_err!(ComputeError: "five layouts"))?)
}

/// A chunk's five tables encoded ([`Layout::encode`]), or why not, and what it cost the pool.
type EncodedChunk = Result<(Vec<Encoded>, ChunkCost), DatasetError>;

/// Builds and encodes a chunk's five tables: a job of the writer pool, its columns tasks of the
/// same pool. The games and frames are dropped here too (their freeing counted in the pool's CPU),
/// so the writer thread only appends pages.
fn encode_chunk(games: Vec<IngestedGame>, skip: Skip, layouts: &Layouts) -> EncodedChunk {
    use rayon::prelude::*;
    let (frames, built) = build_frames(&games, skip)?;
    let start = thread_cpu();
    drop(games);
    let mut cost = ChunkCost { cpu: built.cpu + thread_cpu().saturating_sub(start), longest: built.longest };
    let encoded: Vec<Encoded> =
        layouts.par_iter().zip(&frames).map(|(layout, df)| layout.encode(df)).collect::<PolarsResult<_>>()?;
    let start = thread_cpu();
    drop(frames);
    cost.cpu += thread_cpu().saturating_sub(start);
    let mut longest = std::time::Duration::ZERO;
    for e in &encoded {
        cost.cpu += e.cpu;
        longest = longest.max(e.longest);
    }
    cost.longest += longest;
    Ok((encoded, cost))
}

#[cfg(test)]
mod tests {
    use super::{writer_threads, CHUNKS_IN_FLIGHT, CHUNK_GAMES};
    use crate::dataset::ingest::tests::{part_files, sample_files};
    use crate::dataset::ingest::{run, IngestOptions};

    /// The output does not depend on the number of threads.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn output_is_identical_for_any_jobs() {
        let files = sample_files(400);
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        run(&files, a.path(), &IngestOptions { jobs: Some(1), part_games: 5, ..IngestOptions::default() })
            .unwrap();
        run(&files, b.path(), &IngestOptions { jobs: Some(2), part_games: 5, ..IngestOptions::default() })
            .unwrap();
        assert!(part_files(a.path()) == part_files(b.path()), "parts differ between --jobs 1 and 2");
    }

    /// The writer pool has half the workers' threads, at least one.
    #[test]
    fn writer_pool_is_half_the_workers() {
        assert_eq!([1, 2, 3, 4, 8].map(|j| writer_threads(Some(j))), [1, 1, 1, 2, 4]);
        assert!(writer_threads(None) >= 1);
    }

    /// The figures docs/performance.md ("Writing") states: chunks (row groups) of 32 games, two
    /// encoding at once.
    #[test]
    fn chunks_of_32_games_two_in_flight() {
        assert_eq!((CHUNK_GAMES, CHUNKS_IN_FLIGHT), (32, 2));
    }
}
