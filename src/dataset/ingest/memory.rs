//! The five tables of an ingest in memory, without writing parts: what the Python package's
//! `haifu.decisions()` returns. The same workers' share ([`ingest_game`]) and the same frames
//! ([`build_frames`]) as a run to parquet, chunk by chunk in input order, and the same decision
//! ids, so every column equals what `haifu ingest` writes for the same records.

use std::path::PathBuf;

use polars::prelude::DataFrame;

use crate::batch::{self, Shard};
use crate::dataset::error::DatasetError;
use crate::dataset::parts::{Tally, DECISION_ID_STRIDE};
use crate::dataset::skip::Skip;
use crate::log::source::{expand, Source};

use super::pipeline::{build_frames, count, ingest_game, writer_threads, CHUNK_GAMES};
use super::tables::{decisions_columns, games_columns, options_columns, rounds_columns, waits_columns};
use super::IngestedGame;

/// Which records, and how: the subset of [`super::IngestOptions`] that has a meaning without an
/// output folder.
#[derive(Clone, Copy, Debug, Default)]
pub struct FramesOptions {
    /// Worker threads (default: all cores).
    pub jobs: Option<usize>,
    pub shard: Shard,
    /// Option column groups left out ([`Skip::default`]: second-order ukeire).
    pub skip: Skip,
}

/// The tables `games`, `rounds`, `decisions` and `options` (one chunk of [`CHUNK_GAMES`] games
/// per arrow chunk), with the run's counts and the records that failed.
pub struct Frames {
    pub games: DataFrame,
    pub rounds: DataFrame,
    pub decisions: DataFrame,
    pub options: DataFrame,
    /// Each opponent's waits at each discard decision (the danger labels).
    pub waits: DataFrame,
    /// Records of this shard (failed ones included).
    pub files: usize,
    pub tally: Tally,
}

/// Ingests the records under `paths` (this shard's) into the five tables, in memory. A run asked
/// to stop ([`batch::request_stop`]) returns the games read so far.
pub fn frames(paths: &[PathBuf], opts: &FramesOptions) -> Result<Frames, DatasetError> {
    let inputs = expand(paths);
    let mut tally = Tally::default();
    tally.errors.extend(inputs.errors.iter().map(|e| batch::file_error("", e)));
    let mine: Vec<(u64, Source)> =
        opts.shard.select(&inputs.sources).into_iter().map(|(i, s)| (i, s.clone())).collect();
    let files = mine.len() + inputs.errors.len();
    let list: Vec<Source> = mine.iter().map(|(_, s)| s.clone()).collect();
    let mut tables = [
        games_columns(&[]).frame()?,
        rounds_columns(&[]).frame()?,
        decisions_columns(&[]).frame()?,
        options_columns(&[], opts.skip).frame()?,
        waits_columns(&[]).frame()?,
    ];
    let bar = batch::progress(list.len(), "decisions");
    let pool = batch::pool(opts.jobs);
    // Apart from the workers' pool: they wait for this thread, so its jobs must not queue behind them.
    let frame_pool = batch::pool(Some(writer_threads(opts.jobs)));
    let mut failed: Option<DatasetError> = None;
    let errors = batch::run_sources(
        &list,
        &pool,
        &bar,
        CHUNK_GAMES,
        |game| ingest_game(game, opts.skip),
        |chunk| {
            let games: Vec<IngestedGame> = chunk
                .into_iter()
                .map(|(i, _, mut g)| {
                    g.first_decision = mine[i].0 * DECISION_ID_STRIDE;
                    g
                })
                .collect();
            count(&mut tally, &games);
            if failed.is_some() {
                return;
            }
            let appended = frame_pool.install(|| build_frames(&games, opts.skip)).and_then(|(built, _)| {
                for (all, part) in tables.iter_mut().zip(&built) {
                    all.vstack_mut(part)?;
                }
                Ok(())
            });
            if let Err(e) = appended {
                failed = Some(e);
            }
        },
    );
    bar.finish_and_clear();
    if let Some(e) = failed {
        return Err(e);
    }
    tally.errors.extend(errors);
    let [games, rounds, decisions, options, waits] = tables;
    Ok(Frames { games, rounds, decisions, options, waits, files, tally })
}
