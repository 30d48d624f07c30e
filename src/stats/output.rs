//! Writing a stats run: parquet + CSV tables, PNG plots and a markdown README (the parquet half
//! is why this module needs the `parquet` feature; the statistics themselves do not).

use std::path::Path;

use anyhow::{Context, Result};

use super::studies::{columns, early_outside_rows, kabe_rows, markdown, push_fold_rows, Studies, StudyRow};
use super::tables::{self, Row};
use super::{PlayerStats, StatsRun};
use crate::dataset::parquet::ParquetSink;
use crate::util::plots::{bars, Bar};
use crate::util::write_atomic;

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

    let rate_bars = |f: &dyn Fn(&PlayerStats) -> &crate::util::Rate| -> Vec<Bar> {
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
    md.push_str(&write_studies(&run.studies, dir)?);
    if !run.errors.is_empty() {
        md.push_str("\n## Files that could not be used\n\n");
        for e in &run.errors {
            md.push_str(&format!("- `{}`: {}\n", e.file, e.error));
        }
    }
    write_atomic(&dir.join("README.md"), md)?;
    Ok(())
}

fn plot_bars(rows: &[StudyRow]) -> Vec<Bar> {
    rows.iter()
        .map(|r| {
            let (lo, hi) = r.rate.ci95();
            // Short labels: the x axis has room for about 10 characters per bar.
            let prefix = match r.dimension {
                "inner_visible" => "wall ",
                "riichi_turn" | "turn" => "turn ",
                "shanten" => "shanten ",
                _ => "",
            };
            let bucket = r.bucket.split(' ').next().unwrap_or("");
            Bar { label: format!("{prefix}{bucket}"), value: r.rate.value(), lo, hi }
        })
        .collect()
}

fn write_rows(dir: &Path, name: &str, rows: &[StudyRow]) -> Result<()> {
    let cols = columns(rows);
    let mut sink = ParquetSink::create(&dir.join(format!("{name}.parquet")))?;
    sink.write(&cols)?;
    sink.finish(&cols)?;
    write_atomic(&dir.join(format!("{name}.csv")), tables::csv(&cols))?;
    Ok(())
}

/// Writes the three study tables (parquet + CSV) and plots into `dir`; returns the README section.
fn write_studies(s: &Studies, dir: &Path) -> Result<String> {
    let kabe = kabe_rows(s);
    let early = early_outside_rows(s);
    let push = push_fold_rows(s);
    write_rows(dir, "study_kabe", &kabe)?;
    write_rows(dir, "study_early_outside", &early)?;
    write_rows(dir, "study_push_fold", &push)?;
    let plot = |file: &str, title: &str, y: &str, rows: Vec<&StudyRow>| -> Result<()> {
        let rows: Vec<StudyRow> = rows.into_iter().cloned().collect();
        bars(&dir.join(file), title, y, &plot_bars(&rows)).map_err(|e| anyhow::anyhow!("plot {file}: {e}"))
    };
    let dims = |rows: &[StudyRow], d: &[&str]| -> Vec<StudyRow> {
        rows.iter().filter(|r| d.contains(&r.dimension)).cloned().collect()
    };
    let kabe_plot = dims(&kabe, &["inner_visible", "riichi_turn"]);
    plot(
        "study_kabe.png",
        "1-4 / 6-9 riichi win rate by visible inner copies and turn",
        "win rate",
        kabe_plot.iter().collect(),
    )?;
    let class_plot = dims(&early, &["discard_class"]);
    plot(
        "study_discard_class.png",
        "Deal-in rate of discards against riichi by class",
        "deal-in rate",
        class_plot.iter().collect(),
    )?;
    let push_plot = dims(&push, &["shanten"]);
    plot(
        "study_push_fold.png",
        "Push rate (not genbutsu / suji) facing riichi by shanten",
        "push rate",
        push_plot.iter().collect(),
    )?;

    let mut md = String::new();
    md.push_str("## Study 1: walls (kabe) and 1-4 / 6-9 riichi\n\n");
    md.push_str(
        "Riichi whose wait is exactly 1-4 or 6-9 of a suit. `inner_visible`: the larger public count \
         (rivers, melds, dora indicators) of the inner kinds (2/3 or 7/8) when the riichi is accepted; \
         4 (no-chance) cannot occur for a real two-sided wait since the riichi player holds one of each. \
         Rate: the riichi player won the round.\n\n",
    );
    md.push_str(&markdown(&kabe));
    md.push_str("\n![kabe](study_kabe.png)\n\n");
    md.push_str("## Study 2: early outside tiles and the class of discards against riichi\n\n");
    md.push_str(
        "`partner_in_first_6`: the 7 of a 1-4 wait (3 of a 6-9 wait) is among the riichi player's first \
         6 discards. `discard_class`: every discard while an opponent's riichi is accepted, classified \
         against the most dangerous riichi opponent (genbutsu, suji, one-chance, no-chance, none; \
         `features::safety` definitions); share = how often each class is discarded, rate = ronned by \
         a riichi player.\n\n",
    );
    md.push_str(&markdown(&early));
    md.push_str("\n![discard class](study_discard_class.png)\n\n");
    md.push_str("## Study 3: push / fold facing riichi\n\n");
    md.push_str(
        "Discards by players not in riichi while an opponent's riichi is accepted: push = neither \
         genbutsu nor suji against the most dangerous riichi, by the player's minimum shanten before \
         the discard (14-tile hand; -1 = complete) and by their draws so far.\n\n",
    );
    md.push_str(&markdown(&push));
    md.push_str("\n![push fold](study_push_fold.png)\n\n");
    md.push_str(
        "Files: `study_kabe.parquet|csv`, `study_early_outside.parquet|csv`, `study_push_fold.parquet|csv`.\n",
    );
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::studies::tests::studies;
    use crate::stats::test_games::{riichi_23m_wins, riichi_78s_loses};

    #[test]
    fn writes_tables_plots_and_section() {
        let mut all = studies(&riichi_23m_wins());
        all.merge(&studies(&riichi_78s_loses()));
        let dir = tempfile::tempdir().unwrap();
        let md = write_studies(&all, dir.path()).unwrap();
        assert!(md.contains("| inner_visible | 3 (one-chance) | riichi win rate | 1 | 1 |"), "{md}");
        for f in ["study_kabe", "study_early_outside", "study_push_fold"] {
            let df = crate::dataset::parquet::read(&dir.path().join(format!("{f}.parquet"))).unwrap();
            let csv = std::fs::read_to_string(dir.path().join(format!("{f}.csv"))).unwrap();
            assert_eq!(csv.lines().count(), df.height() + 1, "{f}");
            assert!(csv.starts_with("dimension,bucket,measure,n,hits,rate,ci_lo,ci_hi,share"));
        }
        for p in ["study_kabe.png", "study_discard_class.png", "study_push_fold.png"] {
            assert_eq!(&std::fs::read(dir.path().join(p)).unwrap()[..4], b"\x89PNG");
        }
    }
}
