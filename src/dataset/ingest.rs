//! `haifu ingest`: every decision of every game, with all its options and their feature vectors,
//! into four parquet tables (`games`, `rounds`, `decisions`, `options`); schema in docs/schema.md.
//!
//! The input records (sorted, see [`crate::log::source::expand`]) are cut into parts of
//! `part_games` records; each part becomes one file per table (`options/part-000012.parquet`),
//! written under a hidden temporary name and renamed, then its manifest (`_parts/…json`, written
//! last) marks it complete ([`crate::dataset::parts`]). A killed run loses only the parts in
//! flight (at most two: one being filled, the one before it being closed); `--resume` redoes
//! exactly the parts without a manifest. `--shard I/N` keeps the records whose
//! game id hashes (FNV-1a) to I mod N; its parts are numbered I, I+N, I+2N, … so the shards' folders
//! merge without clashes. Decision ids are `source index × 100,000 + k` (the record's place in the
//! whole sorted input list, the decision's place in its game): the same for any part size, shard,
//! thread count or interruption. Within a part, each worker thread takes the next game as soon as
//! it is free ([`crate::batch::run_sources`]); the games are written in input order in chunks of
//! 32 (one parquet row group each), and workers stay at most two chunks ahead of the writer, so
//! memory stays bounded by a few chunks.
//!
//! Writing is never what sets the pace (issue 36 item 5: not below 400 games/s, whatever the
//! cores). Each chunk is a job of a writer pool (half as many threads as `--jobs`): there the four
//! tables' columns are built ([`build_frames`], each feature column a task), encoded and
//! zstd-compressed ([`Layout::encode`], each column a task), and the games and frames freed
//! ([`encode_chunk`]). The writer thread only hands chunks over and appends the finished pages in
//! order, through a buffered file ([`ParquetSink`]). Two chunks encode at once
//! ([`CHUNKS_IN_FLIGHT`]), so a chunk's longest column does not hold up the next. A part's last
//! chunks are appended, its files closed and its manifest written on a thread of its own
//! ([`finish_part`]) while the workers fill the next part, so they do not wait at part ends.
//!
//! Measured (100 corpus games, `--jobs 2`, perf): the writer thread spent 2.9 ms of CPU per game,
//! nearly all of it in ~4,000 `write` system calls per game (polars' file writer writes each page
//! header field by field, and the file was unbuffered); now ~0.2 ms. Each chunk's longest build
//! and encode tasks make ~1 ms per game of latency, overlapped two ways: `haifu ingest` prints the
//! ceiling ([`IngestSummary::writer_ceiling`]), ~1,500 games/s, where it was ~260 (and ~62 when
//! compression ran on the writer thread). The files are byte-identical throughout. Beyond that,
//! many cores are bounded by the workers, not the writer: they stay at most two chunks (64
//! games) ahead of it ([`crate::batch::run_sources`]). The pool is apart from the workers' pool
//! because the workers block waiting for the writer: work queued on their pool would wait for
//! them, and they for it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use polars::prelude::{polars_err, Column, DataFrame, PolarsResult};

use super::error::{DatasetError, RecordError};

use crate::batch;
use crate::dataset::columns::{Columns, Values};
use crate::dataset::parquet::{thread_cpu, Encoded, Layout, ParquetSink};
use crate::dataset::parts::{self, Manifest, Tally, DECISION_ID_STRIDE, TABLES};
use crate::dataset::rows::{game_rows_with, GameRows};
use crate::dataset::skip::Skip;
use crate::dataset::storage;
use crate::features::catalog::names;
use crate::log::event::Game;
use crate::log::source::{expand, Source};

/// A game's metadata and rows, as produced by a worker.
pub struct IngestedGame {
    pub game: GameMeta,
    /// The game's rows, its option values already moved to `options`.
    pub rows: GameRows,
    /// The option feature columns in their storage types ([`storage::columns`]): made on the
    /// worker, so the chunks waiting for the writer hold about a quarter of the f32 rows' bytes
    /// and the single writer thread only concatenates.
    pub options: Vec<Values>,
    /// Id of the game's first decision (`source index × DECISION_ID_STRIDE`).
    pub first_decision: u64,
}

use crate::batch::Shard;
use crate::util::fnv1a;

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

/// The parts of a [`Game`] the `games` table keeps.
#[derive(Clone, Debug)]
pub struct GameMeta {
    pub id: String,
    pub table: &'static str,
    pub go_type: u32,
    pub hanchan: bool,
    pub red_fives: bool,
    pub players: [String; 4],
    pub dan: [i16; 4],
    pub rate: [f32; 4],
    pub is_ai: [bool; 4],
    pub final_scores: [i32; 4],
    pub placement: [u8; 4],
    pub rounds: u16,
    /// The record holds a whole game: a partial record's final scores and placements are those
    /// of where it stops ([`crate::replay::ending`]).
    pub complete: bool,
}

impl GameMeta {
    fn of(game: &Game, rows: &GameRows) -> GameMeta {
        let final_scores = game.final_scores.unwrap_or_else(|| {
            let mut s = game.rounds.last().map_or([25_000; 4], |r| r.start.scores);
            if let Some(r) = rows.rounds.last() {
                for p in 0..4 {
                    s[p] += r.deltas[p];
                }
            }
            s
        });
        GameMeta {
            id: game.id.clone(),
            table: game.rules.table.name(),
            go_type: game.rules.go_type,
            hanchan: game.rules.hanchan,
            red_fives: game.rules.red_fives,
            players: game.players.clone().map(|p| p.name),
            dan: game.players.clone().map(|p| p.dan.map_or(-1, |d| d as i16)),
            rate: game.players.clone().map(|p| p.rate.unwrap_or(f32::NAN)),
            is_ai: game.players.clone().map(|p| p.is_ai()),
            final_scores,
            placement: crate::util::placements(&final_scores),
            rounds: rows.rounds.len() as u16,
            complete: rows.complete,
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

/// What encoding a chunk cost the writer pool: its CPU, and the longest single column's.
#[derive(Default)]
struct ChunkCost {
    cpu: std::time::Duration,
    longest: std::time::Duration,
}

/// The writer's CPU accounting of one part (see [`IngestSummary`]).
#[derive(Default)]
struct WriterCpu {
    thread: std::time::Duration,
    pool: std::time::Duration,
    critical: std::time::Duration,
}

/// Output writers of one part's four tables.
struct Sinks {
    games: ParquetSink,
    rounds: ParquetSink,
    decisions: ParquetSink,
    options: ParquetSink,
    /// The option column groups left out.
    skip: Skip,
}

fn per_seat<T: Clone>(c: &mut Columns, prefix: &str, v: Vec<[T; 4]>, wrap: fn(Vec<T>) -> Values) {
    for s in 0..4 {
        c.push(&format!("{prefix}_{s}"), wrap(v.iter().map(|x| x[s].clone()).collect()));
    }
}

fn games_columns(games: &[&GameMeta]) -> Columns {
    let mut c = Columns::new();
    c.push("game_id", Values::Str(games.iter().map(|g| g.id.clone()).collect()));
    c.push("table", Values::Str(games.iter().map(|g| g.table.to_string()).collect()));
    c.push("go_type", Values::U32(games.iter().map(|g| g.go_type).collect()));
    c.push("hanchan", Values::Bool(games.iter().map(|g| g.hanchan).collect()));
    c.push("red_fives", Values::Bool(games.iter().map(|g| g.red_fives).collect()));
    c.push("rounds", Values::U16(games.iter().map(|g| g.rounds).collect()));
    c.push("complete", Values::Bool(games.iter().map(|g| g.complete).collect()));
    per_seat(&mut c, "player", games.iter().map(|g| g.players.clone()).collect(), Values::Str);
    per_seat(&mut c, "dan", games.iter().map(|g| g.dan).collect(), Values::I16);
    per_seat(&mut c, "rate", games.iter().map(|g| g.rate).collect(), Values::F32);
    per_seat(&mut c, "is_ai", games.iter().map(|g| g.is_ai).collect(), Values::Bool);
    per_seat(&mut c, "final_score", games.iter().map(|g| g.final_scores).collect(), Values::I32);
    per_seat(&mut c, "placement", games.iter().map(|g| g.placement).collect(), Values::U8);
    c
}

fn rounds_columns(games: &[&IngestedGame]) -> Columns {
    let rows: Vec<(&str, usize, &crate::dataset::rows::RoundRow)> = games
        .iter()
        .flat_map(|g| g.rows.rounds.iter().enumerate().map(move |(i, r)| (g.game.id.as_str(), i, r)))
        .collect();
    let mut c = Columns::new();
    c.push("game_id", Values::Str(rows.iter().map(|r| r.0.to_string()).collect()));
    c.push("round_index", Values::U16(rows.iter().map(|r| r.1 as u16).collect()));
    c.push("round", Values::U8(rows.iter().map(|r| r.2.round).collect()));
    c.push("honba", Values::U8(rows.iter().map(|r| r.2.honba).collect()));
    c.push("sticks", Values::U8(rows.iter().map(|r| r.2.sticks).collect()));
    c.push("dealer", Values::U8(rows.iter().map(|r| r.2.dealer).collect()));
    c.push("result", Values::Str(rows.iter().map(|r| r.2.result.clone()).collect()));
    c.push("winners", Values::Str(rows.iter().map(|r| r.2.winners.clone()).collect()));
    per_seat(&mut c, "delta", rows.iter().map(|r| r.2.deltas).collect(), Values::I32);
    c
}

fn decisions_columns(games: &[&IngestedGame]) -> Columns {
    let ids: Vec<u64> =
        games.iter().flat_map(|g| (0..g.rows.decisions.len() as u64).map(|k| g.first_decision + k)).collect();
    let rows: Vec<(&GameMeta, &crate::dataset::rows::DecisionRow)> =
        games.iter().flat_map(|g| g.rows.decisions.iter().map(move |d| (&g.game, d))).collect();
    let mut c = Columns::new();
    c.push("decision_id", Values::U64(ids));
    c.push("game_id", Values::Str(rows.iter().map(|(g, _)| g.id.clone()).collect()));
    c.push("round", Values::U8(rows.iter().map(|(_, d)| d.round).collect()));
    c.push("round_wind", Values::U8(rows.iter().map(|(_, d)| d.round_wind).collect()));
    c.push("round_number", Values::U8(rows.iter().map(|(_, d)| d.round_number).collect()));
    c.push("honba", Values::U8(rows.iter().map(|(_, d)| d.honba).collect()));
    c.push("sticks", Values::U8(rows.iter().map(|(_, d)| d.sticks).collect()));
    c.push("seat", Values::U8(rows.iter().map(|(_, d)| d.seat).collect()));
    c.push("dealer", Values::U8(rows.iter().map(|(_, d)| d.dealer).collect()));
    c.push("turn", Values::U8(rows.iter().map(|(_, d)| d.turn).collect()));
    c.push("wall_left", Values::U8(rows.iter().map(|(_, d)| d.wall_left).collect()));
    c.push("kind", Values::Str(rows.iter().map(|(_, d)| d.kind.name().to_string()).collect()));
    c.push("chosen", Values::Str(rows.iter().map(|(_, d)| d.chosen.clone()).collect()));
    c.push("n_options", Values::U16(rows.iter().map(|(_, d)| d.n_options).collect()));
    per_seat(&mut c, "score", rows.iter().map(|(_, d)| d.scores).collect(), Values::I32);
    c.push("placement", Values::U8(rows.iter().map(|(_, d)| d.placement).collect()));
    for r in 0..3 {
        c.push(
            &format!("opp{}_riichi", r + 1),
            Values::Bool(rows.iter().map(|(_, d)| d.opp_riichi[r]).collect()),
        );
    }
    c.push("any_riichi", Values::Bool(rows.iter().map(|(_, d)| d.opp_riichi.iter().any(|&x| x)).collect()));
    c.push("dora_indicators", Values::Str(rows.iter().map(|(_, d)| d.dora_indicators.clone()).collect()));
    c.push("shanten", Values::I8(rows.iter().map(|(_, d)| d.shanten).collect()));
    c.push("offered", Values::Str(rows.iter().map(|(_, d)| d.offered.clone()).collect()));
    c.push("hand", Values::Str(rows.iter().map(|(_, d)| d.hand.clone()).collect()));
    c.push("player", Values::Str(rows.iter().map(|(g, d)| g.players[d.seat as usize].clone()).collect()));
    c.push("dan", Values::I16(rows.iter().map(|(g, d)| g.dan[d.seat as usize]).collect()));
    c.push("rate", Values::F32(rows.iter().map(|(g, d)| g.rate[d.seat as usize]).collect()));
    c.push("is_ai", Values::Bool(rows.iter().map(|(g, d)| g.is_ai[d.seat as usize]).collect()));
    c.push("table", Values::Str(rows.iter().map(|(g, _)| g.table.to_string()).collect()));
    c
}

/// The options table of `games`, without the columns `skip` leaves out.
fn options_columns(games: &[&IngestedGame], skip: Skip) -> Columns {
    let mut c = options_head(games);
    let mut features = storage::empty_columns(0);
    for g in games {
        for (col, part) in features.iter_mut().zip(&g.options) {
            col.append(part);
        }
    }
    for (name, col) in names().iter().zip(features) {
        if !skip.leaves_out(name) {
            c.push(name, col);
        }
    }
    c
}

/// The options table's first columns, those before the features.
fn options_head(games: &[&IngestedGame]) -> Columns {
    let mut ids = Vec::new();
    let mut labels = Vec::new();
    let mut chosen = Vec::new();
    for g in games {
        let r = &g.rows;
        for d in 0..r.decisions.len() {
            for o in &r.options[r.option_ptr[d] as usize..r.option_ptr[d + 1] as usize] {
                ids.push(g.first_decision + d as u64);
                labels.push(o.label.clone());
                chosen.push(o.chosen);
            }
        }
    }
    let mut c = Columns::new();
    c.push("decision_id", Values::U64(ids));
    c.push("option", Values::Str(labels));
    c.push("chosen", Values::Bool(chosen));
    c
}

/// A piece of a chunk's tables: a whole small table, or one feature column of the options.
enum Piece {
    Frame(DataFrame),
    Column(Column),
}

/// The four tables' frames of a chunk, as [`games_columns`] … [`options_columns`] make them, but
/// built on the current rayon pool: each small table, the options' first columns and each feature
/// column is a task. Returns the frames and the tasks' CPU (summed, and the longest).
fn build_frames(games: &[IngestedGame], skip: Skip) -> Result<([DataFrame; 4], ChunkCost), DatasetError> {
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
            _ => {
                let j = features[t - 4];
                let mut v = empties[j].clone();
                for g in &refs {
                    v.append(&g.options[j]);
                }
                Piece::Column(v.column(names[j]))
            }
        })
    };
    let built: Vec<(PolarsResult<Piece>, std::time::Duration)> = (0..4 + features.len())
        .into_par_iter()
        .map(|t| {
            let start = thread_cpu();
            let piece = build(t);
            (piece, thread_cpu().saturating_sub(start))
        })
        .collect();
    let mut cost = ChunkCost::default();
    let mut frames = Vec::with_capacity(4);
    let mut columns = Vec::with_capacity(features.len());
    for (piece, cpu) in built {
        cost.cpu += cpu;
        cost.longest = cost.longest.max(cpu);
        match piece? {
            Piece::Frame(f) => frames.push(f),
            Piece::Column(c) => columns.push(c),
        }
    }
    let head = frames.pop().ok_or_else(|| polars_err!(ComputeError: "no options frame"))?;
    let height = head.height();
    let mut options = head.into_columns();
    options.extend(columns);
    let options = DataFrame::new(height, options)?;
    let [g, r, d] =
        <[DataFrame; 3]>::try_from(frames).map_err(|_| polars_err!(ComputeError: "three frames"))?;
    Ok(([g, r, d, options], cost))
}

/// The four tables' layouts (their schemas fixed by [`schemas`]' empty frames), shared by every
/// part of a run.
type Layouts = [Arc<Layout>; 4];

/// The layouts of the four tables without the option columns `skip` leaves out.
fn layouts(skip: Skip) -> Result<Layouts, DatasetError> {
    let frames =
        [games_columns(&[]), rounds_columns(&[]), decisions_columns(&[]), options_columns(&[], skip)];
    let mut out = Vec::with_capacity(4);
    for c in frames {
        out.push(Arc::new(Layout::of(c.frame()?.schema())?));
    }
    Ok(<Layouts>::try_from(out).map_err(|_| polars_err!(ComputeError: "four layouts"))?)
}

/// A chunk's four tables encoded ([`Layout::encode`]), or why not, and what it cost the pool.
type EncodedChunk = Result<(Vec<Encoded>, ChunkCost), DatasetError>;

/// Builds and encodes a chunk's four tables: a job of the writer pool, its columns tasks of the
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

/// Chunks a part's writer thread has handed to the writer pool ([`encode_chunk`]), at most this
/// many at once: while one chunk's longest column is still being compressed, the next chunks are
/// already encoding, so a chunk's latency (its longest build and encode tasks, ~35 ms for 32
/// games) bounds the rate only at 32 × this many games per latency. Each is one more chunk in
/// memory.
const CHUNKS_IN_FLIGHT: usize = 2;

/// A part's chunks on their way to the files: each chunk's encoding job, oldest first, and the
/// files they are appended to, in input order.
struct Pipeline {
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
                let what = format!("encoding a chunk panicked: {}", batch::panic_message(&*p));
                Err(DatasetError::Io(std::io::Error::other(what)))
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
        Ok(Sinks { games: s(0)?, rounds: s(1)?, decisions: s(2)?, options: s(3)?, skip })
    }

    /// Appends a chunk's four encoded tables ([`encode_chunk`]) to the files.
    fn append(&mut self, tables: Vec<Encoded>) -> Result<(), DatasetError> {
        let sinks = [&mut self.games, &mut self.rounds, &mut self.decisions, &mut self.options];
        for (sink, e) in sinks.into_iter().zip(tables) {
            sink.append(e)?;
        }
        Ok(())
    }

    /// Closes the four files and renames them into place.
    fn finish(self) -> Result<(), DatasetError> {
        self.games.finish(&games_columns(&[]))?;
        self.rounds.finish(&rounds_columns(&[]))?;
        self.decisions.finish(&decisions_columns(&[]))?;
        self.options.finish(&options_columns(&[], self.skip))?;
        Ok(())
    }
}

/// Whether `dir` holds anything.
fn non_empty(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some())
}

/// Readies `out`: an error when it holds data and neither `--resume` nor `--force` was given;
/// with `--force`, what an earlier ingest wrote there is removed (nothing else is touched).
fn prepare_out(out: &Path, opts: &IngestOptions) -> Result<(), DatasetError> {
    if non_empty(out) && !opts.resume {
        if !opts.force {
            return Err(DatasetError::NotEmpty { out: out.to_path_buf() });
        }
        for t in TABLES {
            for p in [out.join(t), out.join(parts::MANIFESTS)] {
                if p.is_dir() {
                    std::fs::remove_dir_all(&p)
                        .map_err(|source| DatasetError::Remove { path: p.clone(), source })?;
                }
            }
            let single = out.join(format!("{t}.parquet"));
            if single.is_file() {
                std::fs::remove_file(&single)?;
            }
        }
    }
    for t in TABLES.iter().chain(&[parts::MANIFESTS]) {
        let d = out.join(t);
        std::fs::create_dir_all(&d).map_err(|source| DatasetError::Create { path: d.clone(), source })?;
    }
    Ok(())
}

/// Removes the files of every part without a manifest (a killed run's leftovers, temporary files
/// included) and returns the complete parts' manifests.
fn complete_parts(out: &Path) -> Result<std::collections::BTreeMap<u64, Manifest>, DatasetError> {
    let done: std::collections::BTreeMap<u64, Manifest> =
        parts::manifests(out)?.into_iter().map(|m| (m.part, m)).collect();
    for t in TABLES.iter().chain(&[parts::MANIFESTS]) {
        for e in std::fs::read_dir(out.join(t))? {
            let p = e?.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
            let stale =
                name.ends_with(".tmp") || parts::part_number(&name).is_some_and(|n| !done.contains_key(&n));
            if stale {
                std::fs::remove_file(&p)
                    .map_err(|source| DatasetError::Remove { path: p.clone(), source })?;
            }
        }
    }
    for m in done.values() {
        for t in TABLES {
            let p = parts::part_path(out, t, m.part);
            if !p.is_file() {
                let what = format!("part {} has a manifest but no {}", m.part, p.display());
                return Err(DatasetError::Refused { out: out.to_path_buf(), what });
            }
        }
    }
    Ok(done)
}

/// Each table's columns as this haifu writes them: (table, [(column, type)]).
type Schemas = Vec<(&'static str, Vec<(String, String)>)>;

/// The columns and types of the four tables, read off the frames an empty part would write
/// (without the option columns `skip` leaves out).
fn schemas(skip: Skip) -> Result<Schemas, DatasetError> {
    let frames =
        [games_columns(&[]), rounds_columns(&[]), decisions_columns(&[]), options_columns(&[], skip)];
    TABLES.iter().zip(frames).map(|(t, c)| Ok((*t, parts::columns_of(&c.frame()?)))).collect()
}

/// A short fingerprint of [`schemas`] for the manifests (FNV-1a of every table, column and type).
fn fingerprint(schemas: &Schemas) -> String {
    let mut text = String::new();
    for (t, cols) in schemas {
        for (n, ty) in cols {
            text.push_str(&format!("{t}.{n}:{ty}\n"));
        }
    }
    format!("{:016x}", fnv1a(text.as_bytes()))
}

/// Refuses to resume onto a part that holds other column groups than this run: the message names
/// the groups on both sides and the flags that write the part's. A manifest without `groups`
/// (written before `--with` existed, when every group was held unless `--skip` said otherwise) is
/// read from its `skip`.
fn check_groups(out: &Path, m: &Manifest, skip: Skip) -> Result<(), DatasetError> {
    let theirs = match Skip::parse(&m.skip) {
        Ok(s) => s,
        // an unknown group name in a manifest: the schema check below says what differs
        Err(_) => return Ok(()),
    };
    if theirs == skip {
        return Ok(());
    }
    let held = |s: Skip| match s.holds() {
        h if h.is_empty() => "none".to_string(),
        h => h,
    };
    let flags = |s: Skip| match s.flags() {
        f if f.is_empty() => "without --with or --skip".to_string(),
        f => format!("with {f}"),
    };
    let what = format!(
        "part {} holds the option column groups {} (written {}), this run holds {} ({}). Parts with \
         other columns cannot be read as one table: resume {}, use --force to rebuild the dataset, or \
         ingest into a new --out",
        m.part,
        held(theirs),
        flags(theirs),
        held(skip),
        flags(skip),
        flags(theirs),
    );
    Err(DatasetError::Refused { out: out.to_path_buf(), what })
}

/// Refuses to resume onto a part written with other columns (an older haifu): a dataset whose
/// parts differ in schema cannot be read as one table. A manifest with this run's fingerprint is
/// trusted; otherwise (another fingerprint, or none from before fingerprints) the part files'
/// own schemas are read and compared, and the error names what differs.
fn check_schema(out: &Path, m: &Manifest, schemas: &Schemas, print: &str) -> Result<(), DatasetError> {
    if m.schema == print {
        return Ok(());
    }
    for (t, want) in schemas {
        let have = parts::file_columns(&parts::part_path(out, t, m.part))?;
        if &have != want {
            let names = |v: &[(String, String)]| v.iter().map(|c| c.0.clone()).collect::<Vec<_>>();
            let (hn, wn) = (names(&have), names(want));
            let missing: Vec<String> = wn.iter().filter(|n| !hn.contains(n)).cloned().collect();
            let extra: Vec<String> = hn.iter().filter(|n| !wn.contains(n)).cloned().collect();
            let retyped: Vec<String> = want
                .iter()
                .filter_map(|(n, ty)| {
                    have.iter().find(|c| &c.0 == n && &c.1 != ty).map(|c| format!("{n} ({} -> {ty})", c.1))
                })
                .collect();
            let show = |v: Vec<String>| {
                let more = if v.len() > 8 { format!(" and {} more", v.len() - 8) } else { String::new() };
                format!("{}{more}", v.into_iter().take(8).collect::<Vec<_>>().join(", "))
            };
            let mut what = Vec::new();
            if !missing.is_empty() {
                what.push(format!("no {}", show(missing)));
            }
            if !extra.is_empty() {
                what.push(format!("columns this haifu does not write: {}", show(extra)));
            }
            if !retyped.is_empty() {
                what.push(format!("other types: {}", show(retyped)));
            }
            if what.is_empty() {
                what.push("its columns in another order".to_string());
            }
            let what = format!(
                "part {} was written by another haifu or with another --skip (it says {:?}): its {t} \
                 table has {}. Parts with other columns cannot be read as one table: resume with the \
                 same --skip, use --force to rebuild the dataset, or ingest into a new --out",
                m.part,
                m.skip,
                what.join("; "),
            );
            return Err(DatasetError::Refused { out: out.to_path_buf(), what });
        }
    }
    Ok(())
}

/// Ingests one part's records in small parallel chunks into its four files, and returns when
/// every record is read, its last chunks still encoding: [`finish_part`] closes the part while the
/// workers start on the next one.
fn fill_part(
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
        32,
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
fn finish_part(out: &Path, mut pipe: Pipeline, manifest: &Manifest) -> Result<WriterCpu, DatasetError> {
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

/// A worker's share of ingest: one game's rows, its option columns in their storage types.
fn ingest_game(game: &Game, skip: Skip) -> Result<IngestedGame, RecordError> {
    let mut rows = game_rows_with(game, skip).map_err(|e| e.to_string())?;
    if rows.decisions.len() as u64 >= DECISION_ID_STRIDE {
        return Err(RecordError::TooManyDecisions(rows.decisions.len()));
    }
    let options = storage::columns(&rows.values)?;
    rows.values = Vec::new();
    Ok(IngestedGame { game: GameMeta::of(game, &rows), rows, options, first_decision: 0 })
}

/// Adds a chunk's games to the part's tally.
fn count(t: &mut Tally, games: &[IngestedGame]) {
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

/// Threads of the writer pool: half the workers' (at least one). The writer is busy a fraction
/// of the time, and on a full machine every extra busy thread only competes with the workers (99
/// games at --jobs 2, two paired runs on a shared machine: a pool of 2 cost ~6% more CPU in all
/// than the old single writer, a pool of 1 ~1%).
fn writer_threads(jobs: Option<usize>) -> usize {
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    (jobs / 2).max(1)
}

/// Ingests everything under `paths` (this shard's records) into `out`, part by part.
pub fn run(paths: &[PathBuf], out: &Path, opts: &IngestOptions) -> Result<IngestSummary, DatasetError> {
    prepare_out(out, opts)?;
    let done = complete_parts(out)?;
    let inputs = expand(paths);
    let mut summary = IngestSummary { writer_chunks_in_flight: CHUNKS_IN_FLIGHT, ..IngestSummary::default() };
    summary.tally.errors.extend(inputs.errors.iter().map(|e| batch::file_error("", e)));
    let mine: Vec<(u64, &Source)> = inputs
        .sources
        .iter()
        .enumerate()
        .filter(|(_, s)| opts.shard.takes(&s.id))
        .map(|(i, s)| (i as u64, s))
        .collect();
    summary.files = mine.len() + inputs.errors.len();
    let per = opts.part_games.max(1);
    let shard = opts.shard.to_string();
    let schemas = schemas(opts.skip)?;
    let print = fingerprint(&schemas);
    let layouts = layouts(opts.skip)?;
    for m in done.values() {
        check_groups(out, m, opts.skip)?;
        check_schema(out, m, &schemas, &print)?;
        if m.shard.split('/').nth(1) != shard.split('/').nth(1) || m.part_games != per {
            let what = format!(
                "part {} was written with --shard {} --part-games {}, not --shard {shard} --part-games {per} \
                 (use the same options to resume, or --force)",
                m.part, m.shard, m.part_games
            );
            return Err(DatasetError::Refused { out: out.to_path_buf(), what });
        }
        if m.part % opts.shard.count == opts.shard.index
            && m.part / opts.shard.count >= mine.len().div_ceil(per) as u64
        {
            let what = format!("part {} does not belong to these inputs (use --force to replace)", m.part);
            return Err(DatasetError::Refused { out: out.to_path_buf(), what });
        }
    }
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
            finishing =
                Some(scope.spawn(move || finish_part(out, pipe, &manifest).map(|cpu| (cpu, manifest))));
        }
        settle(finishing.take(), &mut summary)
    })?;
    bar.finish_and_clear();
    Ok(summary)
}

/// Counts a complete part found in `out` (`--resume`), after checking that it holds this run's
/// records (`manifest`) in the same places.
fn keep(
    out: &Path,
    m: &Manifest,
    manifest: &Manifest,
    summary: &mut IngestSummary,
) -> Result<(), DatasetError> {
    let same_inputs = if m.ids.is_empty() { m.sources == manifest.sources } else { m.ids == manifest.ids };
    if !same_inputs || m.source_index != manifest.source_index {
        let what = format!(
            "part {} holds other inputs than this run's ({} ...); use --force to replace",
            m.part,
            m.sources.first().map_or("nothing", |s| s.as_str())
        );
        return Err(DatasetError::Refused { out: out.to_path_buf(), what });
    }
    summary.tally.add(&m.tally);
    summary.games_kept += m.tally.games;
    summary.parts_kept += 1;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::parts::read_table;
    use crate::features::catalog::catalog_width;
    use polars::prelude::*;

    fn sample_files(step: usize) -> Option<Vec<PathBuf>> {
        let files = crate::testdata::tenhou_files(&[".mjlog"])?;
        Some(files.into_iter().step_by(step).collect())
    }

    /// Every column group (`--with ukeire2`), so the tests see every option column.
    fn opts(part_games: usize) -> IngestOptions {
        IngestOptions {
            jobs: Some(2),
            part_games,
            skip: crate::dataset::skip::Skip::NONE,
            ..IngestOptions::default()
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

    /// Ingests real games, reads the parts back and checks the schema other tools rely on,
    /// one chosen option per decision, and that no feature column is constant.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn parquet_schema_and_features_on_real_games() {
        let Some(files) = sample_files(25) else { return };
        let dir = tempfile::tempdir().unwrap();
        let s = run(&files, dir.path(), &opts(200)).unwrap();
        assert!(s.tally.errors.is_empty(), "{:?}", s.tally.errors);
        assert_eq!(s.tally.games as usize, files.len());
        assert_eq!(s.parts_written, files.len().div_ceil(200));
        let decisions = read_table(dir.path(), "decisions", None).unwrap();
        let options = read_table(dir.path(), "options", None).unwrap();
        for c in ["decision_id", "game_id", "round", "seat", "turn", "kind", "is_ai", "table", "chosen"] {
            assert!(decisions.column(c).is_ok(), "decisions.{c} missing");
        }
        for c in ["decision_id", "option", "chosen"] {
            assert!(options.column(c).is_ok(), "options.{c} missing");
        }
        assert_eq!(decisions.height() as u64, s.tally.decisions);
        assert_eq!(options.height() as u64, s.tally.options);
        let kinds: Vec<&str> =
            decisions.column("kind").unwrap().str().unwrap().iter().map(|x| x.unwrap()).collect();
        assert!(kinds.iter().all(|k| ["discard", "riichi", "call", "agari", "kan"].contains(k)));
        // exactly one chosen option per decision
        let dids: Vec<u64> =
            decisions.column("decision_id").unwrap().u64().unwrap().into_no_null_iter().collect();
        let row_of = crate::dataset::parts::id_index(&dids).unwrap();
        let ids: Vec<u64> =
            options.column("decision_id").unwrap().u64().unwrap().into_no_null_iter().collect();
        let chosen: Vec<bool> =
            options.column("chosen").unwrap().bool().unwrap().iter().map(|x| x.unwrap()).collect();
        let mut per = vec![0u32; decisions.height()];
        for (id, c) in ids.iter().zip(&chosen) {
            per[row_of[id]] += u32::from(*c);
        }
        assert!(per.iter().all(|&n| n == 1), "a decision without exactly one chosen option");
        // the decisions' chosen label is the chosen option's label
        let labels: Vec<&str> =
            options.column("option").unwrap().str().unwrap().iter().map(|x| x.unwrap()).collect();
        let dchosen: Vec<&str> =
            decisions.column("chosen").unwrap().str().unwrap().iter().map(|x| x.unwrap()).collect();
        for ((id, c), l) in ids.iter().zip(&chosen).zip(&labels) {
            if *c {
                assert_eq!(dchosen[row_of[id]], *l);
            }
        }
        // Columns real but too rare for 25 games: kokushi tenpai (17 options in 199 games).
        const RARE: [&str; 1] = ["lv_kokushi_0"];
        let mut constant = Vec::new();
        for name in names().into_iter().filter(|n| !RARE.contains(n)) {
            let col = crate::dataset::parts::f32s(&options, name).unwrap();
            if col.iter().all(|&x| x == col[0]) {
                constant.push(name);
            }
        }
        assert!(constant.is_empty(), "constant feature columns: {constant:?}");
    }

    /// Every option value written to parquet, read back and cast to f32, equals the value the
    /// features computed (the declared storage types are lossless on real games).
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn option_values_round_trip_exactly() {
        let Some(files) = sample_files(250) else { return };
        let dir = tempfile::tempdir().unwrap();
        let s = run(&files, dir.path(), &opts(200)).unwrap();
        assert!(s.tally.errors.is_empty(), "{:?}", s.tally.errors);
        let options = read_table(dir.path(), "options", None).unwrap();
        let mut expected: Vec<f32> = Vec::new();
        for f in &files {
            let game = crate::log::source::Source::file(f.clone()).load().unwrap();
            expected.extend(crate::dataset::rows::game_rows(&game).unwrap().values);
        }
        let w = catalog_width();
        assert_eq!(expected.len(), options.height() * w);
        for (j, name) in names().iter().enumerate() {
            let dtype = options.column(name).unwrap().dtype().clone();
            assert_eq!(dtype.to_string(), polars_type(storage::types()[j]), "{name}");
            let got = crate::dataset::parts::f32s(&options, name).unwrap();
            for (r, g) in got.iter().enumerate() {
                let e = expected[r * w + j];
                assert!(
                    g.to_bits() == e.to_bits() || (g.is_nan() && e.is_nan()),
                    "{name} row {r}: {g} != {e}"
                );
            }
        }
    }

    fn polars_type(s: storage::Storage) -> String {
        match s {
            storage::Storage::Bool => DataType::Boolean,
            storage::Storage::U8 => DataType::UInt8,
            storage::Storage::I8 => DataType::Int8,
            storage::Storage::U16 => DataType::UInt16,
            storage::Storage::F32 => DataType::Float32,
        }
        .to_string()
    }

    /// Every part file of the four tables, by relative path, with its bytes.
    fn part_files(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
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
    fn tables(dir: &Path) -> Vec<DataFrame> {
        TABLES.iter().map(|t| read_table(dir, t, None).unwrap()).collect()
    }

    fn assert_same_rows(a: &[DataFrame], b: &[DataFrame]) {
        for ((x, y), t) in a.iter().zip(b).zip(TABLES) {
            assert_eq!(x.shape(), y.shape(), "{t}: shape");
            assert!(x.equals_missing(y), "{t}: rows differ");
        }
    }

    /// The output does not depend on the number of threads.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn output_is_identical_for_any_jobs() {
        let Some(files) = sample_files(400) else { return };
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        run(&files, a.path(), &IngestOptions { jobs: Some(1), part_games: 5, ..IngestOptions::default() })
            .unwrap();
        run(&files, b.path(), &IngestOptions { jobs: Some(2), part_games: 5, ..IngestOptions::default() })
            .unwrap();
        assert!(part_files(a.path()) == part_files(b.path()), "parts differ between --jobs 1 and 2");
    }

    /// A run killed after two parts, with a third part's files renamed into place but no
    /// manifest and a temporary file in flight, then resumed: the same part files (byte for byte)
    /// and the same rows as one uninterrupted run.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn interrupted_then_resumed_equals_uninterrupted() {
        let Some(files) = sample_files(500) else { return };
        assert!(files.len() >= 8, "{} files", files.len());
        let files = &files[..9];
        let whole = tempfile::tempdir().unwrap();
        let s = run(files, whole.path(), &opts(2)).unwrap();
        assert_eq!(s.parts_written, 5);
        assert!(s.tally.errors.is_empty(), "{:?}", s.tally.errors);

        let cut = tempfile::tempdir().unwrap();
        let first = run(files, cut.path(), &IngestOptions { stop_after_parts: Some(3), ..opts(2) }).unwrap();
        assert_eq!((first.parts_written, first.tally.games), (3, 6));
        // the kill: part 2 lost its manifest (killed between the renames and the manifest), and
        // part 3's options file was being written
        std::fs::remove_file(parts::manifest_path(cut.path(), 2)).unwrap();
        std::fs::write(cut.path().join("options/.part-000003.parquet.tmp"), b"half a file").unwrap();
        // without --resume an existing dataset is refused
        let e = run(files, cut.path(), &opts(2)).unwrap_err().to_string();
        assert!(e.contains("--resume") && e.contains("--force"), "{e}");
        let resumed = run(files, cut.path(), &IngestOptions { resume: true, ..opts(2) }).unwrap();
        assert_eq!((resumed.parts_kept, resumed.parts_written), (2, 3));
        assert_eq!(
            (resumed.tally.games, resumed.tally.decisions, resumed.tally.options),
            (s.tally.games, s.tally.decisions, s.tally.options)
        );
        assert!(!cut.path().join("options/.part-000003.parquet.tmp").exists());
        assert!(part_files(whole.path()) == part_files(cut.path()), "part files differ after resume");
        assert_same_rows(&tables(whole.path()), &tables(cut.path()));
        // resuming a complete dataset writes nothing; other options are refused; --force redoes it
        let again = run(files, cut.path(), &IngestOptions { resume: true, ..opts(2) }).unwrap();
        assert_eq!((again.parts_kept, again.parts_written, again.tally.games), (5, 0, s.tally.games));
        // the same records under another path (another mount, `../shared` vs an absolute path)
        // resume by game id; other records in a part are refused
        let moved = tempfile::tempdir().unwrap();
        let copies: Vec<PathBuf> = files
            .iter()
            .map(|f| {
                let to = moved.path().join(f.file_name().unwrap());
                std::fs::copy(f, &to).unwrap();
                to
            })
            .collect();
        let elsewhere = run(&copies, cut.path(), &IngestOptions { resume: true, ..opts(2) }).unwrap();
        assert_eq!((elsewhere.parts_kept, elsewhere.parts_written), (5, 0));
        let mut swapped = files.to_vec();
        swapped.swap(0, 1);
        let e =
            run(&swapped, cut.path(), &IngestOptions { resume: true, ..opts(2) }).unwrap_err().to_string();
        assert!(e.contains("other inputs"), "{e}");
        assert!(run(files, cut.path(), &IngestOptions { resume: true, ..opts(3) }).is_err());
        let forced = run(files, cut.path(), &IngestOptions { force: true, ..opts(3) }).unwrap();
        assert_eq!((forced.parts_written, forced.tally.games), (3, s.tally.games));
        assert_same_rows(&tables(whole.path()), &tables(cut.path()));
    }

    /// `--resume` keeps parts whose columns are this haifu's (a manifest from before fingerprints
    /// included) and refuses, by part, table and column, a part written with other columns.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn resume_refuses_parts_with_other_columns() {
        let Some(files) = sample_files(500) else { return };
        let files = &files[..4];
        let dir = tempfile::tempdir().unwrap();
        let s = run(files, dir.path(), &opts(2)).unwrap();
        assert_eq!(s.parts_written, 2);
        let set_schema = |part: u64, schema: &str| {
            let path = parts::manifest_path(dir.path(), part);
            let mut m: Manifest = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            assert_eq!(m.schema.len(), 16, "a fingerprint is recorded");
            m.schema = schema.to_string();
            std::fs::write(&path, serde_json::to_vec(&m).unwrap()).unwrap();
        };
        // a manifest without a fingerprint (older haifu) over files with today's columns is kept
        set_schema(0, "");
        let r = run(files, dir.path(), &IngestOptions { resume: true, ..opts(2) }).unwrap();
        assert_eq!((r.parts_kept, r.parts_written), (2, 0));
        // part 1's options written without `ev` and with another fingerprint
        let path = parts::part_path(dir.path(), "options", 1);
        let mut df = ParquetReader::new(std::fs::File::open(&path).unwrap()).finish().unwrap();
        df = df.drop("ev").unwrap();
        ParquetWriter::new(std::fs::File::create(&path).unwrap()).finish(&mut df).unwrap();
        set_schema(1, "0123456789abcdef");
        let e = run(files, dir.path(), &IngestOptions { resume: true, ..opts(2) }).unwrap_err().to_string();
        assert!(
            e.contains("part 1") && e.contains("options table has no ev") && e.contains("--force"),
            "{e}"
        );
        // nothing was removed by the refusal; --force rebuilds
        assert!(path.is_file());
        let f = run(files, dir.path(), &IngestOptions { force: true, ..opts(2) }).unwrap();
        assert_eq!((f.parts_written, f.tally.games), (2, s.tally.games));
        assert!(read_table(dir.path(), "options", None).unwrap().column("ev").is_ok());
    }

    /// `--skip` leaves its groups' columns out of the options table and changes no other value:
    /// every table equals the full run's with those columns dropped. Resuming with another
    /// `--skip` is refused.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn skip_leaves_out_its_columns_and_nothing_else() {
        use crate::dataset::skip::{Group, Skip};
        let Some(files) = sample_files(500) else { return };
        let files = &files[..4];
        let full = tempfile::tempdir().unwrap();
        run(files, full.path(), &opts(2)).unwrap();
        let full_tables = tables(full.path());
        for groups in [&[Group::Ev, Group::Ukeire2][..], &[Group::Ukeire2][..]] {
            let skip = Skip::of(groups);
            let dir = tempfile::tempdir().unwrap();
            run(files, dir.path(), &IngestOptions { skip, ..opts(2) }).unwrap();
            let got = tables(dir.path());
            let left_out: Vec<&str> = groups.iter().flat_map(|g| g.columns().iter().copied()).collect();
            let options = &full_tables[3];
            for c in &left_out {
                assert!(got[3].column(c).is_err(), "{skip}: {c} written");
                // the full run has real values there, so equality below is not about zeros
                let col = options.column(c).unwrap().cast(&DataType::Float64).unwrap();
                assert!(col.f64().unwrap().iter().any(|v| v.unwrap_or(0.0) > 0.0), "{c} all 0");
            }
            let mut want = full_tables.clone();
            want[3] = options.drop_many(left_out.iter().copied());
            assert_same_rows(&want, &got);
            let m = parts::manifests(dir.path()).unwrap();
            assert!(m.iter().all(|m| m.skip == skip.to_string()), "manifest says the skip");
            assert!(m.iter().all(|m| m.groups.as_deref() == Some(skip.holds().as_str())), "and the groups");
            // resuming with every group is refused, naming both sides' groups and the flags
            let e =
                run(files, dir.path(), &IngestOptions { resume: true, ..opts(2) }).unwrap_err().to_string();
            assert!(
                e.contains("this run holds ev,ukeire2 (with --with ukeire2)") && e.contains("--force"),
                "{e}"
            );
        }
    }

    /// The default run holds ev and not second-order ukeire, and says so in every manifest. A
    /// folder written before `--with` existed (manifests without `groups`, every column) is refused
    /// by a default `--resume`, which names `--with ukeire2`; resumed with it, the parts are kept.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn default_run_holds_ev_without_ukeire2() {
        let Some(files) = sample_files(500) else { return };
        let files = &files[..2];
        let dir = tempfile::tempdir().unwrap();
        let default = IngestOptions { jobs: Some(2), part_games: 1, ..IngestOptions::default() };
        run(files, dir.path(), &default).unwrap();
        let options = read_table(dir.path(), "options", None).unwrap();
        assert!(options.column("ukeire2_avg").is_err() && options.column("ukeire2_sum").is_err());
        assert!(options.column("ev").is_ok() && options.column("ukeire_count").is_ok());
        for m in parts::manifests(dir.path()).unwrap() {
            assert_eq!((m.skip.as_str(), m.groups.as_deref()), ("ukeire2", Some("ev")));
        }
        // an older folder: every column, manifests without groups
        let old = tempfile::tempdir().unwrap();
        run(files, old.path(), &IngestOptions { part_games: 1, ..opts(1) }).unwrap();
        for part in 0..2 {
            let path = parts::manifest_path(old.path(), part);
            let mut m: Manifest = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            m.groups = None;
            std::fs::write(&path, serde_json::to_vec(&m).unwrap()).unwrap();
        }
        let e = run(files, old.path(), &IngestOptions { resume: true, ..default.clone() })
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("part 0 holds the option column groups ev,ukeire2 (written with --with ukeire2)")
                && e.contains("resume with --with ukeire2"),
            "{e}"
        );
        let r = run(files, old.path(), &IngestOptions { resume: true, ..opts(1) }).unwrap();
        assert_eq!((r.parts_kept, r.parts_written), (2, 0));
    }

    /// The union of the N shards' outputs, put in one folder, holds exactly the rows of one run
    /// over everything (decision ids included), and no record is in two shards.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn shards_union_equals_whole_run() {
        let Some(files) = sample_files(500) else { return };
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
            let keys: [&[&str]; 4] =
                [&["game_id"], &["game_id", "round_index"], &["decision_id"], &["decision_id", "option"]];
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
