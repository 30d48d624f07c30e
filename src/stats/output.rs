//! Writing a stats run: parquet + CSV tables, PNG plots and a markdown README (the parquet half
//! is why this module needs the `parquet` feature; the statistics themselves do not).

use std::path::Path;

use super::error::StatsError;

use super::agreement::{dan_group_label, AgreementStats, AgreementTables};
use super::counts::Count;
use super::studies::{
    columns, early_five_rows, early_outside_rows, kabe_rows, markdown, push_fold_rows, Studies, StudyRow,
};
use super::tables::{self, Row};
use super::{anchors, metrics, PlayerStats, StatsRun};
use crate::batch::FileError;
use crate::dataset::columns::{Columns, Values};
use crate::dataset::parquet::ParquetSink;
use crate::util::plots::{bars, Bar};
use crate::util::write_atomic;
use crate::util::Rate;

type Result<T, E = StatsError> = std::result::Result<T, E>;

fn write_columns(dir: &Path, name: &str, cols: &Columns) -> Result<()> {
    let mut sink = ParquetSink::create(&dir.join(format!("{name}.parquet")))?;
    sink.write(cols)?;
    sink.finish(cols)?;
    write_atomic(&dir.join(format!("{name}.csv")), tables::csv(cols))?;
    Ok(())
}

/// The choices every statistics source makes differently, stated once.
const DEFINITIONS: &str = "\
- **Denominators.** Rates per player-round unless the figure says otherwise: a game of 9 rounds gives \
each seat 9 player-rounds. Each figure's denominator is its `n`.
- **Double ron** counts as two wins (one per winner) and one deal-in; the deal-in's points are the \
sum of both hands, and `deal_in_to_*` counts both wins.
- **A deal-in on the riichi declaration tile** counts as a riichi (`riichi_rate`) and as a deal-in \
after riichi (`riichi_deal_in_rate`), as kobalab counts it.
- **A closed kan is not a call**; an added kan upgrades its pon and adds no call.
- **Points** of wins and deal-ins are the hand's value as Tenhou scored it, without honba and \
riichi sticks; `avg_score_change` and `riichi_balance` are whole score changes, sticks included.
- **Rounds cut off by the server** (a bare RYUUKYOKU) are not draws.
- **Intervals** are 95% Wilson score intervals of rates; averages are shown with their n.
";

/// What a three-player report says once, at its head: the figures are those of the variant.
const THREE_PLAYERS: &str = "\
Three-player (sanma) games only: three seats, so a game gives three player-games and each round three \
player-rounds; placements are 1st-3rd; `avg_game_points` is Tenhou's result with the three-player uma \
(+20 / 0 / -20) and oka (35,000 start, 40,000 return), as the records state it; there is no chi, so \
calls are pon and kans; the yaku table's ドラ counts the set-aside norths too (Tenhou folds the nukidora \
into it), and the Nukidora section counts the set-asides. The studies below are over these games \
as well (no 2m-8m in the wall).\n\n";

/// The README's first lines: what was read and counted, the other variant's games left out,
/// and what a three-player report's figures are.
fn head(run: &StatsRun) -> String {
    let mut md = String::new();
    let players = run.players;
    md.push_str("# haifu stats\n\n");
    // Four-player reports read as before; a three-player one says so in its first line.
    let games = if players == 3 { "three-player games" } else { "games" };
    md.push_str(&format!(
        "{} files read, {} {games}, {} player-rounds, {} errors.\n\n",
        run.files,
        run.games_of(&run.overall),
        run.overall.rounds,
        run.errors.len()
    ));
    if let Some(note) = run.other_variant_note() {
        md.push_str(&format!("{note}.\n\n"));
    }
    if players == 3 {
        md.push_str(THREE_PLAYERS);
    }
    if run.overall.partial_games > 0 {
        md.push_str(&format!(
            "{} partial records (a late start, no end under the rules or no stated result) are left out of the \
             placement and final-score figures; their rounds count in the round figures.\n\n",
            run.partial_games_of(&run.overall)
        ));
    }
    md
}

/// Writes the tables, counts, plots and README of a stats run into `dir`.
pub fn write(run: &StatsRun, dir: &Path, min_games: u64) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|source| StatsError::Create { path: dir.to_path_buf(), source })?;
    let mut table_rows = vec![Row { group: "all".into(), stats: &run.overall }];
    table_rows.extend(run.by_table.iter().map(|(k, s)| Row { group: k.clone(), stats: s }));
    let players = run.players;
    write_columns(dir, "tables", &tables::columns("table", &table_rows, players))?;
    let mut player_rows: Vec<Row> = run
        .by_player
        .iter()
        .filter(|(_, s)| s.games >= min_games)
        .map(|(k, s)| Row { group: k.clone(), stats: s })
        .collect();
    player_rows.sort_by(|a, b| b.stats.games.cmp(&a.stats.games).then(a.group.cmp(&b.group)));
    write_columns(dir, "players", &tables::columns("player", &player_rows, players))?;
    let mut yaku_groups: Vec<(&str, &Row)> = table_rows.iter().map(|r| ("table", r)).collect();
    yaku_groups.extend(player_rows.iter().map(|r| ("player", r)));
    write_columns(dir, "yaku", &tables::yaku_columns(&yaku_groups))?;
    write_counts(run, dir)?;

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
    .map_err(|e| StatsError::Plot { what: "plot".into(), error: e.to_string() })?;
    bars(
        &dir.join("deal_in_rate_by_table.png"),
        "Deal-in rate per player-round by table",
        "deal-in rate",
        &rate_bars(&|s| &s.deal_in),
    )
    .map_err(|e| StatsError::Plot { what: "plot".into(), error: e.to_string() })?;

    let mut md = String::new();
    md.push_str(&head(run));
    md.push_str("## Definitions\n\n");
    md.push_str(DEFINITIONS);
    md.push_str("\nEvery figure's definition is in the glossary at the end.\n\n");
    md.push_str("## By table\n\n");
    md.push_str(&tables::markdown("table", &table_rows, players));
    md.push_str("\n![win rate](win_rate_by_table.png)\n![deal-in rate](deal_in_rate_by_table.png)\n\n");
    md.push_str("## Every figure\n\n");
    md.push_str(
        "Rates with their 95% interval; `n` is each figure's denominator. The same names are the \
                 columns of `tables.parquet` / `players.parquet` (with `_n`, `_lo`, `_hi`) and the keys of \
                 `haifu stats --json`.\n\n",
    );
    let groups: Vec<(&str, &PlayerStats)> = table_rows.iter().map(|r| (r.group.as_str(), r.stats)).collect();
    md.push_str(&metrics::markdown(&groups, players));
    // kobalab counted four-player houou games: no anchor for three.
    if let Some(houou) = run.by_table.get("houou").filter(|_| players == 4) {
        md.push_str("\n## Cross-check: kobalab's 2016 houou figures\n\n");
        md.push_str(
            "kobalab counted the 159,798 houou hanchan games of 2016 with the rules above (double ron = two \
             wins and one deal-in; a riichi ronned on its declaration counts). Where his figure can be read \
             two ways both readings are shown. Differences larger than the interval are discussed in the \
             project's reports/README.md.\n\n",
        );
        md.push_str(&anchors::markdown(houou));
        md.push_str("\nShare of wins with each yaku, against the same games:\n\n");
        md.push_str(&anchors::yaku_markdown(houou));
    }
    md.push_str("\n## Yaku and yakuman\n\n");
    md.push_str(
        "Wins with each yaku (dora only when it scored), over every game; per table and per player in \
                 `yaku.parquet|csv`.\n\n",
    );
    md.push_str(&tables::yaku_markdown(&run.overall));
    md.push_str(&format!("\n## Players with at least {min_games} games\n\n"));
    md.push_str(&tables::markdown("player", &player_rows[..player_rows.len().min(50)], players));
    if player_rows.len() > 50 {
        md.push_str(&format!("\n({} more in players.csv / players.parquet)\n", player_rows.len() - 50));
    }
    md.push('\n');
    if !run.agreement.is_empty() {
        md.push_str(&write_agreement(&run.agreement, dir)?);
    }
    md.push_str(&write_studies(&run.studies, dir)?);
    md.push_str("\n## Glossary\n\n");
    md.push_str(&metrics::glossary(players));
    md.push_str(
        "\nFiles: `tables.parquet|csv` (overall and per table level), `players.parquet|csv`, \
         `yaku.parquet|csv`, the study tables, and `counts.parquet` + `run.json`: the raw counts every \
         figure is computed from, which `haifu stats --merge DIR...` adds up across runs.\n",
    );
    if !run.errors.is_empty() {
        md.push_str("\n## Files that could not be used\n\n");
        for e in &run.errors {
            md.push_str(&format!("- `{}`: {}\n", e.file, e.error));
        }
    }
    write_atomic(&dir.join("README.md"), md)?;
    Ok(())
}

/// `counts.parquet` (scope, group, counter, value) and `run.json` (files read and errors).
fn write_counts(run: &StatsRun, dir: &Path) -> Result<()> {
    let rows = run.counts();
    let mut c = Columns::new();
    c.push("scope", Values::Str(rows.iter().map(|r| r.scope.clone()).collect()));
    c.push("group", Values::Str(rows.iter().map(|r| r.group.clone()).collect()));
    c.push("counter", Values::Str(rows.iter().map(|r| r.counter.clone()).collect()));
    c.push("value", Values::F64(rows.iter().map(|r| r.value).collect()));
    let mut sink = ParquetSink::create(&dir.join("counts.parquet"))?;
    sink.write(&c)?;
    sink.finish(&c)?;
    let mut meta = serde_json::json!({ "files": run.files, "errors": run.errors });
    if !run.agreement.judges.is_empty() {
        meta["agreement_judges"] = run.agreement.judges.clone().into();
    }
    write_atomic(&dir.join("run.json"), serde_json::to_string_pretty(&meta)?)?;
    Ok(())
}

/// Reads back the run a `haifu stats --out DIR` wrote, from its `counts.parquet` and `run.json`.
pub fn read(dir: &Path) -> Result<StatsRun> {
    let path = dir.join("counts.parquet");
    let df = crate::dataset::parquet::read(&path)
        .map_err(|e| StatsError::NotAStatsRun { path: path.clone(), error: e.to_string() })?;
    let text = |name: &str| -> Result<Vec<String>> {
        Ok(df.column(name)?.str()?.iter().map(|x| x.unwrap_or("").to_string()).collect())
    };
    let (scope, group, counter) = (text("scope")?, text("group")?, text("counter")?);
    let value: Vec<f64> = df.column("value")?.f64()?.iter().map(|x| x.unwrap_or(f64::NAN)).collect();
    let rows: Vec<Count> = (0..df.height())
        .map(|i| Count {
            scope: scope[i].clone(),
            group: group[i].clone(),
            counter: counter[i].clone(),
            value: value[i],
        })
        .collect();
    let meta_path = dir.join("run.json");
    let meta: serde_json::Value = serde_json::from_slice(
        &std::fs::read(&meta_path).map_err(|source| StatsError::Read { path: meta_path.clone(), source })?,
    )
    .map_err(|source| StatsError::NotJson { path: meta_path.clone(), source })?;
    let errors: Vec<FileError> = serde_json::from_value(meta["errors"].clone())
        .map_err(|source| StatsError::BadErrors { path: meta_path.clone(), source })?;
    let mut run = StatsRun::from_counts(&rows, errors)
        .map_err(|e| StatsError::Counts { path: path.clone(), error: Box::new(e) })?;
    if let Some(files) = meta["files"].as_u64() {
        run.files = files as usize;
    }
    if let Some(j) = meta["agreement_judges"].as_str() {
        run.agreement.judges = j.to_string();
    }
    Ok(run)
}

/// The runs written into `dirs`, added up: the same report one run over all their inputs gives.
pub fn merge(dirs: &[std::path::PathBuf]) -> Result<StatsRun> {
    let mut total: Option<(StatsRun, &std::path::PathBuf)> = None;
    for d in dirs {
        let run = read(d)?;
        total = Some(match total {
            None => (run, d),
            Some((t, first)) if t.players != run.players => {
                let (first, dir) = (first.clone(), d.clone());
                return Err(StatsError::MixedVariants {
                    first,
                    first_players: t.players,
                    dir,
                    players: run.players,
                });
            }
            Some((t, first)) => (t.merged(&run), first),
        });
    }
    let total = total.map(|(t, _)| t);
    total.ok_or(StatsError::NothingToMerge)
}

/// One rate of an agreement group.
type RateOf = fn(&AgreementStats) -> &Rate;

/// One row of the agreement table: a group (a dan or a year) and its counts.
fn agreement_rows(a: &AgreementTables) -> Vec<(&'static str, String, AgreementStats)> {
    let mut rows: Vec<(&'static str, String, AgreementStats)> = Vec::new();
    rows.extend(a.by_dan.iter().map(|(k, s)| ("dan", dan_group_label(k), s.clone())));
    rows.push(("dan", "all".into(), a.total()));
    rows.extend(a.by_year.iter().map(|(k, s)| ("year", k.clone(), s.clone())));
    rows
}

/// `agreement.parquet|csv` (by dan, then by year: decisions, match and bad-move rates with their
/// Wilson intervals, all decisions and discards), the two plots by dan and the README section.
fn write_agreement(a: &AgreementTables, dir: &Path) -> Result<String> {
    let rows = agreement_rows(a);
    let mut c = Columns::new();
    c.push("by", Values::Str(rows.iter().map(|r| r.0.to_string()).collect()));
    c.push("group", Values::Str(rows.iter().map(|r| r.1.clone()).collect()));
    let rates: [(&str, RateOf); 6] = [
        ("match_rate", |s| &s.matched),
        ("bad_move_rate", |s| &s.bad_move),
        ("discard_match_rate", |s| &s.discard_matched),
        ("discard_bad_move_rate", |s| &s.discard_bad_move),
        ("bad_pushed_share", |s| &s.bad_pushed),
        ("bad_folded_share", |s| &s.bad_folded),
    ];
    for (name, f) in rates {
        c.push(name, Values::F64(rows.iter().map(|r| f(&r.2).value()).collect()));
        c.push(&format!("{name}_n"), Values::U64(rows.iter().map(|r| f(&r.2).n).collect()));
        c.push(&format!("{name}_lo"), Values::F64(rows.iter().map(|r| f(&r.2).ci95().0).collect()));
        c.push(&format!("{name}_hi"), Values::F64(rows.iter().map(|r| f(&r.2).ci95().1).collect()));
    }
    write_columns(dir, "agreement", &c)?;
    let dan_bars = |f: RateOf| -> Vec<Bar> {
        rows.iter()
            .filter(|r| r.0 == "dan")
            .map(|r| {
                let (lo, hi) = f(&r.2).ci95();
                // Short labels: 22 bars share the axis.
                let label = r.1.replace(" kyu", "k").replace(" dan", "d").replace("novice", "new");
                Bar { label: label.replace("unknown", "?"), value: f(&r.2).value(), lo, hi }
            })
            .collect()
    };
    let plot = |file: &str, title: &str, y: &str, b: Vec<Bar>| -> Result<()> {
        bars(&dir.join(file), title, y, &b)
            .map_err(|e| StatsError::Plot { what: format!("plot {file}"), error: e.to_string() })
    };
    plot(
        "match_rate_by_dan.png",
        "Match rate with linear by dan (every human decision)",
        "match rate",
        dan_bars(|s| &s.matched),
    )?;
    let calibrated = a.total().bad_move.n > 0;
    if calibrated {
        plot(
            "bad_move_rate_by_dan.png",
            "Bad-move rate under linear by dan (every human decision)",
            "bad-move rate",
            dan_bars(|s| &s.bad_move),
        )?;
    }
    let cell = |r: &Rate| {
        let (lo, hi) = r.ci95();
        crate::util::markdown::pct_ci(r.value(), lo, hi)
    };
    let table = |by: &str| -> String {
        let body: Vec<Vec<String>> = rows
            .iter()
            .filter(|r| r.0 == by)
            .map(|r| {
                vec![
                    r.1.clone(),
                    r.2.matched.n.to_string(),
                    cell(&r.2.matched),
                    if r.2.bad_move.n > 0 { cell(&r.2.bad_move) } else { "-".into() },
                    cell(&r.2.discard_matched),
                    if r.2.discard_bad_move.n > 0 { cell(&r.2.discard_bad_move) } else { "-".into() },
                    if r.2.bad_pushed.n > 0 { cell(&r.2.bad_pushed) } else { "-".into() },
                    if r.2.bad_folded.n > 0 { cell(&r.2.bad_folded) } else { "-".into() },
                ]
            })
            .collect();
        crate::util::markdown::table(
            &[
                by,
                "decisions",
                "match rate",
                "bad-move rate",
                "discard match rate",
                "discard bad-move rate",
                "bad discards: pushed",
                "bad discards: folded",
            ],
            &body,
        )
    };
    let mut md = format!("## Agreement with `{}` by dan and by year\n\n", a.judges_text());
    md.push_str(
        "Every decision of every human seat (discards, riichi or dama, calls offered; AI seats left out), \
         judged as `haifu review` judges it: **match rate** is the share where the choice is the model's first \
         (a tie at the top counts), **bad-move rate** the share of decisions with a calibrated probability \
         where the model gives the choice less than the threshold (`--bad-below`). A player counts under the \
         dan the record gives them in that game; years come from the game id. **Bad discards: pushed / folded** \
         are the shares of bad-move discards where danger separated the choice from the judge's first choice: \
         by the danger models, the player's tile deals in 2 or more percentage points more often (pushed) or \
         less often (folded); the rest differ on shape and value (`-` where the rows hold no danger family: \
         an ingest `--skip danger`). 95% Wilson intervals treat \
         decisions as independent, so they are narrower than a by-game interval would be.\n\n",
    );
    md.push_str(&table("dan"));
    md.push_str("\n![match rate by dan](match_rate_by_dan.png)\n");
    md.push_str(if calibrated {
        "![bad-move rate by dan](bad_move_rate_by_dan.png)\n\n"
    } else {
        "\nNo bad-move rate: the weights carry no calibration (`haifu calibrate`).\n\n"
    });
    md.push_str(&table("year"));
    md.push_str("\nThe same figures with their counts: `agreement.parquet|csv`.\n\n");
    Ok(md)
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
    write_columns(dir, name, &columns(rows))
}

/// Writes the three study tables (parquet + CSV) and plots into `dir`; returns the README section.
fn write_studies(s: &Studies, dir: &Path) -> Result<String> {
    let kabe = kabe_rows(s);
    let early = early_outside_rows(s);
    let push = push_fold_rows(s);
    write_rows(dir, "study_kabe", &kabe)?;
    write_rows(dir, "study_early_outside", &early)?;
    write_rows(dir, "study_push_fold", &push)?;
    let five = early_five_rows(s);
    write_rows(dir, "study_early_five", &five)?;
    let plot = |file: &str, title: &str, y: &str, rows: Vec<&StudyRow>| -> Result<()> {
        let rows: Vec<StudyRow> = rows.into_iter().cloned().collect();
        bars(&dir.join(file), title, y, &plot_bars(&rows))
            .map_err(|e| StatsError::Plot { what: format!("plot {file}"), error: e.to_string() })
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

    // Study 4 bars: "4/6 no" = near the 5, no early 5.
    let five_bars = |prefix: &str| -> Vec<Bar> {
        five.iter()
            .filter(|r| r.dimension.starts_with(prefix))
            .map(|r| {
                let (lo, hi) = r.rate.ci95();
                let distance = r.dimension.rsplit('_').next().unwrap_or("");
                let early = match r.bucket.as_str() {
                    b if b.starts_with("5 in") => "early",
                    b if b.starts_with("5 thrown") => "late",
                    _ => "no 5",
                };
                Bar { label: format!("{distance} {early}"), value: r.rate.value(), lo, hi }
            })
            .collect()
    };
    bars(
        &dir.join("study_early_five_deal_in.png"),
        "Deal-in rate into riichi near a 5, by the riichi player's early 5",
        "deal-in rate",
        &five_bars("discard_"),
    )
    .map_err(|e| StatsError::Plot {
        what: "plot study_early_five_deal_in.png".into(),
        error: e.to_string(),
    })?;
    bars(
        &dir.join("study_early_five_win.png"),
        "Riichi win rate waiting near a 5, by the riichi player's early 5",
        "win rate",
        &five_bars("riichi_wait_"),
    )
    .map_err(|e| StatsError::Plot { what: "plot study_early_five_win.png".into(), error: e.to_string() })?;
    Ok(studies_markdown(dir, &kabe, &early, &push, &five))
}

/// Where the studies with seed 003's own definitions are ([`super::seed_studies`]): a link when
/// the README is written beside them (`make stats-report` writes `reports/stats/`, next to
/// `reports/seed_studies.md`), the repository's path otherwise, so that no link in a README
/// written elsewhere (`out/demo/stats/`) points at nothing.
fn seed_link(dir: &Path) -> String {
    let target = if dir.join("../seed_studies.md").is_file() {
        "[../seed_studies.md](../seed_studies.md)".to_string()
    } else {
        "`reports/seed_studies.md` in the haifu repository".to_string()
    };
    format!(
        "The kabe, early-outside and early-5 studies rebuilt with seed 003's own definitions (live \
         8 waits, inner tiles discarded, by turn), each beside the seed's figure and today's, with the seed bot's \
         self-play and paired walls: {target} (`make seed-studies`).\n\n"
    )
}

/// The README section of the four studies: what each counts, its table and its plots.
fn studies_markdown(
    dir: &Path,
    kabe: &[StudyRow],
    early: &[StudyRow],
    push: &[StudyRow],
    five: &[StudyRow],
) -> String {
    let mut md = String::new();
    md.push_str(&seed_link(dir));
    md.push_str("## Study 1: walls (kabe) and 1-4 / 6-9 riichi\n\n");
    md.push_str(
        "Riichi whose wait is exactly 1-4 or 6-9 of a suit. `inner_visible`: the larger public count \
         (rivers, melds, dora indicators) of the inner kinds (2/3 or 7/8) when the riichi is accepted; \
         4 (no-chance) cannot occur for a real two-sided wait since the riichi player holds one of each. \
         Rate: the riichi player won the round.\n\n",
    );
    md.push_str(&markdown(kabe));
    md.push_str("\n![kabe](study_kabe.png)\n\n");
    md.push_str("## Study 2: early outside tiles and the class of discards against riichi\n\n");
    md.push_str(
        "`partner_in_first_6`: the 7 of a 1-4 wait (3 of a 6-9 wait) is among the riichi player's first \
         6 discards. `discard_class`: every discard while an opponent's riichi is accepted, classified \
         against the most dangerous riichi opponent (genbutsu, suji, one-chance, no-chance, none; \
         `features::safety` definitions); share = how often each class is discarded, rate = ronned by \
         a riichi player.\n\n",
    );
    md.push_str(&markdown(early));
    md.push_str("\n![discard class](study_discard_class.png)\n\n");
    md.push_str("## Study 3: push / fold facing riichi\n\n");
    md.push_str(
        "Discards by players not in riichi while an opponent's riichi is accepted: push = neither \
         genbutsu nor suji against the most dangerous riichi, by the player's minimum shanten before \
         the discard (14-tile hand; -1 = complete) and by their draws so far.\n\n",
    );
    md.push_str(&markdown(push));
    md.push_str("\n![push fold](study_push_fold.png)\n\n");
    md.push_str("## Study 4: the early 5 (序盤の5切り)\n\n");
    md.push_str(
        "Early 5: the riichi player's first 6 discards, up to the declaring one, hold the 5 of a suit (red \
         or not); a middle bucket has the 5 thrown only later (before the riichi), which separates earliness \
         from a 5 in the river at all (that makes 2 and 8 suji). `riichi_wait_4/6` (3/7, 2/8): accepted tenpai riichi whose waits include the 4 or 6 (3 or \
         7, 2 or 8) of a suit, one entry per suit and distance, split by when the 5 of that suit was thrown; rate = \
         the riichi player won. `discard_4/6` (...): discards of that tile made while the riichi stands, \
         per riichi opponent it is not genbutsu against, split by when that opponent threw the suit's 5; \
         rate = that riichi player ronned it. Counts, not causes: the early 5 also goes with faster hands \
         and other waits.\n\n",
    );
    md.push_str(&markdown(five));
    md.push_str(
        "\n![early 5 deal-in](study_early_five_deal_in.png)\n![early 5 win](study_early_five_win.png)\n\n",
    );
    md.push_str(
        "Files: `study_kabe.parquet|csv`, `study_early_outside.parquet|csv`, `study_push_fold.parquet|csv`, \
         `study_early_five.parquet|csv`.\n",
    );
    md
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
