//! `haifu ingest`: every decision of every game, with all its options and their feature vectors,
//! into four parquet tables (`games`, `rounds`, `decisions`, `options`); schema in docs/schema.md.
//!
//! Games are processed in parallel in small chunks and written in input order, so memory stays
//! bounded by a chunk and the output is the same whatever the thread count. Decision ids are
//! assigned in that order when rows are written.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::batch::{self, FileError};
use crate::dataset::parquet::{Columns, ParquetSink, Values};
use crate::dataset::rows::{feature_names, game_rows, row_width, GameRows};
use crate::log::Game;

/// A game's metadata and rows, as produced by a worker.
pub struct IngestedGame {
    pub game: GameMeta,
    pub rows: GameRows,
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
        }
    }
}

/// Summary of an ingest run.
#[derive(Debug, Default, serde::Serialize)]
pub struct IngestSummary {
    pub files: usize,
    pub games: u64,
    pub rounds: u64,
    pub decisions: u64,
    pub options: u64,
    pub decisions_by_kind: std::collections::BTreeMap<String, u64>,
    pub errors: Vec<FileError>,
}

/// Output writers for the four tables.
struct Sinks {
    games: ParquetSink,
    rounds: ParquetSink,
    decisions: ParquetSink,
    options: ParquetSink,
    next_decision: u64,
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

fn decisions_columns(games: &[&IngestedGame], first_id: u64) -> Columns {
    let rows: Vec<(&GameMeta, &crate::dataset::rows::DecisionRow)> =
        games.iter().flat_map(|g| g.rows.decisions.iter().map(move |d| (&g.game, d))).collect();
    let mut c = Columns::new();
    c.push("decision_id", Values::U64((0..rows.len() as u64).map(|i| first_id + i).collect()));
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

fn options_columns(games: &[&IngestedGame], first_id: u64) -> Columns {
    let w = row_width();
    let mut ids = Vec::new();
    let mut labels = Vec::new();
    let mut chosen = Vec::new();
    let mut id = first_id;
    for g in games {
        let r = &g.rows;
        for d in 0..r.decisions.len() {
            for o in &r.options[r.option_ptr[d] as usize..r.option_ptr[d + 1] as usize] {
                ids.push(id);
                labels.push(o.label.clone());
                chosen.push(o.chosen);
            }
            id += 1;
        }
    }
    let mut c = Columns::new();
    c.push("decision_id", Values::U64(ids));
    c.push("option", Values::Str(labels));
    c.push("chosen", Values::Bool(chosen));
    for (j, name) in feature_names().iter().enumerate() {
        let col: Vec<f32> =
            games.iter().flat_map(|g| g.rows.values.chunks_exact(w).map(move |row| row[j])).collect();
        c.push(name, Values::F32(col));
    }
    c
}

impl Sinks {
    fn create(dir: &Path) -> Result<Sinks> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let s = |n: &str| ParquetSink::create(&dir.join(format!("{n}.parquet")));
        Ok(Sinks {
            games: s("games")?,
            rounds: s("rounds")?,
            decisions: s("decisions")?,
            options: s("options")?,
            next_decision: 0,
        })
    }

    fn write(&mut self, games: &[IngestedGame]) -> Result<()> {
        let refs: Vec<&IngestedGame> = games.iter().collect();
        let metas: Vec<&GameMeta> = games.iter().map(|g| &g.game).collect();
        self.games.write(&games_columns(&metas))?;
        self.rounds.write(&rounds_columns(&refs))?;
        self.decisions.write(&decisions_columns(&refs, self.next_decision))?;
        self.options.write(&options_columns(&refs, self.next_decision))?;
        self.next_decision += games.iter().map(|g| g.rows.decisions.len() as u64).sum::<u64>();
        Ok(())
    }

    fn finish(self) -> Result<()> {
        self.games.finish(&games_columns(&[]))?;
        self.rounds.finish(&rounds_columns(&[]))?;
        self.decisions.finish(&decisions_columns(&[], 0))?;
        self.options.finish(&options_columns(&[], 0))?;
        Ok(())
    }
}

/// Ingests everything under `paths` into `out`.
pub fn run(paths: &[PathBuf], out: &Path, jobs: Option<usize>) -> Result<IngestSummary> {
    let mut sinks = Sinks::create(out)?;
    let mut summary = IngestSummary::default();
    let mut write_error: Option<anyhow::Error> = None;
    let outcome = batch::run_chunked(
        paths,
        jobs,
        "ingest",
        32,
        |game| {
            let rows = game_rows(game)?;
            Ok(IngestedGame { game: GameMeta::of(game, &rows), rows })
        },
        |chunk| {
            let games: Vec<IngestedGame> = chunk.into_iter().map(|(_, g)| g).collect();
            for g in &games {
                summary.games += 1;
                summary.rounds += g.rows.rounds.len() as u64;
                summary.decisions += g.rows.decisions.len() as u64;
                summary.options += g.rows.options.len() as u64;
                for d in &g.rows.decisions {
                    *summary.decisions_by_kind.entry(d.kind.name().to_string()).or_default() += 1;
                }
            }
            if write_error.is_none() {
                if let Err(e) = sinks.write(&games) {
                    write_error = Some(e);
                }
            }
        },
    );
    if let Some(e) = write_error {
        return Err(e.context("writing parquet"));
    }
    sinks.finish()?;
    summary.files = outcome.files;
    summary.errors = outcome.errors;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::parquet::read;
    use polars::prelude::*;

    fn sample_files(step: usize) -> Option<Vec<PathBuf>> {
        let files = crate::testdata::tenhou_files(&[".mjlog"])?;
        Some(files.into_iter().step_by(step).collect())
    }

    /// Ingests real games, reads the parquet back and checks the schema other tools rely on,
    /// one chosen option per decision, and that no feature column is constant.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn parquet_schema_and_features_on_real_games() {
        let Some(files) = sample_files(25) else { return };
        let dir = tempfile::tempdir().unwrap();
        let s = run(&files, dir.path(), Some(2)).unwrap();
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        assert_eq!(s.games as usize, files.len());
        let decisions = read(&dir.path().join("decisions.parquet")).unwrap();
        let options = read(&dir.path().join("options.parquet")).unwrap();
        for c in ["decision_id", "game_id", "round", "seat", "turn", "kind", "is_ai", "table", "chosen"] {
            assert!(decisions.column(c).is_ok(), "decisions.{c} missing");
        }
        for c in ["decision_id", "option", "chosen"] {
            assert!(options.column(c).is_ok(), "options.{c} missing");
        }
        assert_eq!(decisions.height() as u64, s.decisions);
        assert_eq!(options.height() as u64, s.options);
        let kinds: Vec<&str> =
            decisions.column("kind").unwrap().str().unwrap().iter().map(|x| x.unwrap()).collect();
        assert!(kinds.iter().all(|k| ["discard", "riichi", "call", "agari", "kan"].contains(k)));
        // exactly one chosen option per decision, ids in order
        let ids: Vec<u64> =
            options.column("decision_id").unwrap().u64().unwrap().into_no_null_iter().collect();
        let chosen: Vec<bool> =
            options.column("chosen").unwrap().bool().unwrap().iter().map(|x| x.unwrap()).collect();
        let mut per = vec![0u32; decisions.height()];
        for (id, c) in ids.iter().zip(&chosen) {
            per[*id as usize] += u32::from(*c);
        }
        assert!(per.iter().all(|&n| n == 1), "a decision without exactly one chosen option");
        // the decisions' chosen label is the chosen option's label
        let labels: Vec<&str> =
            options.column("option").unwrap().str().unwrap().iter().map(|x| x.unwrap()).collect();
        let dchosen: Vec<&str> =
            decisions.column("chosen").unwrap().str().unwrap().iter().map(|x| x.unwrap()).collect();
        for ((id, c), l) in ids.iter().zip(&chosen).zip(&labels) {
            if *c {
                assert_eq!(dchosen[*id as usize], *l);
            }
        }
        let mut constant = Vec::new();
        for name in crate::dataset::rows::feature_names() {
            let col = options.column(name).unwrap().f32().unwrap();
            if col.min() == col.max() {
                constant.push(name);
            }
        }
        assert!(constant.is_empty(), "constant feature columns: {constant:?}");
    }

    /// The output does not depend on the number of threads.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn output_is_identical_for_any_jobs() {
        let Some(files) = sample_files(400) else { return };
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        run(&files, a.path(), Some(1)).unwrap();
        run(&files, b.path(), Some(2)).unwrap();
        for t in ["games", "rounds", "decisions", "options"] {
            let x = std::fs::read(a.path().join(format!("{t}.parquet"))).unwrap();
            let y = std::fs::read(b.path().join(format!("{t}.parquet"))).unwrap();
            assert!(x == y, "{t}.parquet differs between --jobs 1 and 2");
        }
    }
}
