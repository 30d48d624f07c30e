//! Batch statistics over log archives: player and table statistics ([`players`]), written as
//! parquet, CSV and a markdown README with plots ([`tables`]).

pub mod players;
pub mod studies;
pub mod tables;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::batch::{self, FileError};
use crate::dataset::parquet::ParquetSink;
use crate::report::plots::{bars, Bar};
use crate::report::write_atomic;
use players::{game_outcome_with, GameOutcome, PlayerStats};
use studies::{Studies, StudyCollector};
use tables::Row;

/// Everything `haifu stats` computed.
pub struct StatsRun {
    pub files: usize,
    pub overall: PlayerStats,
    pub by_table: BTreeMap<&'static str, PlayerStats>,
    pub by_player: BTreeMap<String, PlayerStats>,
    /// The kabe / early-outside / push-fold counts over every game that replayed.
    pub studies: Studies,
    pub errors: Vec<FileError>,
}

/// Aggregates game outcomes.
pub fn aggregate(
    games: &[GameOutcome],
) -> (PlayerStats, BTreeMap<&'static str, PlayerStats>, BTreeMap<String, PlayerStats>) {
    let mut overall = PlayerStats::default();
    let mut by_table: BTreeMap<&'static str, PlayerStats> = BTreeMap::new();
    let mut by_player: BTreeMap<String, PlayerStats> = BTreeMap::new();
    for g in games {
        for seat in 0..4 {
            overall.add_seat(g, seat);
            by_table.entry(g.table.name()).or_default().add_seat(g, seat);
            by_player.entry(g.players[seat].clone()).or_default().add_seat(g, seat);
        }
    }
    (overall, by_table, by_player)
}

/// Replays everything under `paths` and aggregates.
pub fn compute(paths: &[PathBuf], jobs: Option<usize>) -> StatsRun {
    let out = batch::run(paths, jobs, "stats", analyse);
    let mut studies = Studies::default();
    let mut games: Vec<GameOutcome> = Vec::with_capacity(out.results.len());
    for (_, (g, s)) in out.results {
        studies.merge(&s);
        games.push(g);
    }
    let (overall, by_table, by_player) = aggregate(&games);
    StatsRun { files: out.files, overall, by_table, by_player, studies, errors: out.errors }
}

/// One game's outcomes and study counts, from a single replay.
pub fn analyse(game: &crate::log::Game) -> Result<(GameOutcome, Studies), String> {
    let mut c = StudyCollector::default();
    let g = game_outcome_with(game, &mut c).map_err(|e| format!("replay: {e}"))?;
    Ok((g, c.studies))
}

fn write_table(dir: &Path, name: &str, key: &str, rows: &[Row]) -> Result<()> {
    let cols = tables::columns(key, rows);
    let mut sink = ParquetSink::create(&dir.join(format!("{name}.parquet")))?;
    sink.write(&cols)?;
    sink.finish(&cols)?;
    write_atomic(&dir.join(format!("{name}.csv")), tables::csv(&cols))?;
    Ok(())
}

/// Writes the tables, plots and README of a stats run into `dir`.
pub fn write(run: &StatsRun, dir: &Path, min_games: u64) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut table_rows = vec![Row { group: "all".into(), stats: &run.overall }];
    table_rows.extend(run.by_table.iter().map(|(k, s)| Row { group: (*k).into(), stats: s }));
    write_table(dir, "tables", "table", &table_rows)?;
    let mut player_rows: Vec<Row> = run
        .by_player
        .iter()
        .filter(|(_, s)| s.games >= min_games)
        .map(|(k, s)| Row { group: k.clone(), stats: s })
        .collect();
    player_rows.sort_by(|a, b| b.stats.games.cmp(&a.stats.games).then(a.group.cmp(&b.group)));
    write_table(dir, "players", "player", &player_rows)?;

    let rate_bars = |f: &dyn Fn(&PlayerStats) -> &players::Rate| -> Vec<Bar> {
        table_rows
            .iter()
            .map(|r| {
                let x = f(r.stats);
                let (lo, hi) = x.ci95();
                Bar { label: r.group.clone(), value: x.value(), lo, hi }
            })
            .collect()
    };
    bars(
        &dir.join("win_rate_by_table.png"),
        "Win rate per player-round by table",
        "win rate",
        &rate_bars(&|s| &s.win),
    )
    .map_err(|e| anyhow::anyhow!("plot: {e}"))?;
    bars(
        &dir.join("deal_in_rate_by_table.png"),
        "Deal-in rate per player-round by table",
        "deal-in rate",
        &rate_bars(&|s| &s.deal_in),
    )
    .map_err(|e| anyhow::anyhow!("plot: {e}"))?;

    let mut md = String::new();
    md.push_str("# haifu stats\n\n");
    md.push_str(&format!(
        "{} files read, {} games, {} player-rounds, {} errors. Rates are per player-round with 95% Wilson \
         intervals; tenpai@draw is per exhaustive draw, average points per win / deal-in.\n\n",
        run.files,
        run.overall.games / 4,
        run.overall.rounds,
        run.errors.len()
    ));
    md.push_str("## By table\n\n");
    md.push_str(&tables::markdown("table", &table_rows));
    md.push_str("\n![win rate](win_rate_by_table.png)\n![deal-in rate](deal_in_rate_by_table.png)\n\n");
    md.push_str(&format!("## Players with at least {min_games} games\n\n"));
    md.push_str(&tables::markdown("player", &player_rows[..player_rows.len().min(50)]));
    if player_rows.len() > 50 {
        md.push_str(&format!("\n({} more in players.csv / players.parquet)\n", player_rows.len() - 50));
    }
    md.push_str("\nFiles: `tables.parquet|csv`, `players.parquet|csv`.\n");
    md.push('\n');
    md.push_str(&studies::write(&run.studies, dir)?);
    if !run.errors.is_empty() {
        md.push_str("\n## Files that could not be used\n\n");
        for e in &run.errors {
            md.push_str(&format!("- `{}`: {}\n", e.file, e.error));
        }
    }
    write_atomic(&dir.join("README.md"), md)?;
    Ok(())
}

/// The overall figures as `haifu stats --json` prints them.
pub fn overall_json(run: &StatsRun) -> serde_json::Value {
    let s = &run.overall;
    serde_json::json!({
        "overall": {
            "games": s.games / 4,
            "rounds": s.rounds / 4,
            "player_rounds": s.rounds,
            "placement_rates": s.placement_rates(),
            "avg_placement": s.avg_placement.value(),
            "win_rate": s.win.value(),
            "deal_in_rate": s.deal_in.value(),
            "riichi_rate": s.riichi.value(),
            "call_rate": s.call.value(),
            "draw_rate": s.exhaustive_draw.value(),
            "avg_win_points": s.win_points.value(),
        },
        "studies": studies::kabe_json(&run.studies),
        "errors": run.errors,
    })
}
