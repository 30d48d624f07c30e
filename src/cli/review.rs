//! `haifu review`: one review page for one record, or a batch of pages with an index.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use haifu::log::source::Source;
use haifu::model::judges::Models;
use haifu::report::review::{review_game, Who};
use haifu::report::review_batch::review_batch;
use haifu::report::review_summary::{summarize, write};

use super::usage;

/// A review page of one game: the player's decisions against the `linear` evaluator.
///
/// For every discard, riichi-or-dama and call offered to the player: the hand, dora
/// indicators, riichi on the table, the player's choice and every option ranked by `linear`
/// (discard weights from --weights, riichi.json and call.json beside them) with its expected
/// value, ukeire and safety against each riichi; where the two differ, the features that
/// decided it. RECORD may be any record haifu reads; a folder, archive or several records
/// write one page per game plus index.html into --out (a folder then). The JSON schema
/// (--json) is in docs/review.md.
///
/// With --player NAME --summary DIR, the player over every game of theirs under the paths:
/// index.html (totals with 95% intervals, a plot of the match rate and bad-move rate over the
/// games, one linked row per game), summary.json, games.csv, games.parquet and trend.png; the
/// pages go to --out, or DIR/games without it.
#[derive(clap::Args)]
pub struct ReviewArgs {
    /// A game record (or folders, archives, databases: a batch).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Review this player (by name); in a batch, games without them are skipped.
    #[arg(long, conflicts_with = "seat")]
    player: Option<String>,
    /// Review this seat (0 = the first dealer); default 0.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..4))]
    seat: Option<u8>,
    /// Discard weights of the linear evaluator (default data/weights/default.json).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Also rank each decision with the trees models and show why they differ from the player
    /// (exact TreeSHAP contributions): FILE is the discard model (with `--trees` alone the
    /// default data/weights/trees.txt.gz), the riichi and call models are trees-riichi and
    /// trees-call beside it (or the shipped ones; `make trees`). A calibrated model (`haifu
    /// calibrate --trees`) also judges its decisions: match, probability, bad moves.
    #[arg(long, value_name = "FILE", num_args = 0..=1)]
    trees: Option<Option<PathBuf>>,
    /// The HTML page to write (a folder for a batch; with --summary, default SUMMARY/games).
    #[arg(long, required_unless_present = "summary")]
    out: Option<PathBuf>,
    /// Also summarise the player (--player) over every game: totals with intervals, a plot, an
    /// index linking each page, JSON, CSV and parquet, into this folder.
    #[arg(long, value_name = "DIR", requires = "player")]
    summary: Option<PathBuf>,
    /// Also write the review as JSON (schema_version 1; a folder for a batch).
    #[arg(long)]
    json: Option<PathBuf>,
    /// A choice linear gives a calibrated probability below this is a bad move (NAGA's
    /// threshold is 0.05). Needs calibrated weights (`haifu calibrate`).
    #[arg(long, default_value_t = haifu::model::judges::BAD_BELOW)]
    bad_below: f64,
    /// Worker threads for a batch (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
}

/// Loads the three linear models, then writes one page (a single record and an `.html` --out)
/// or a batch of pages with an index; exit status 1 when a file of a batch failed.
pub fn run(args: ReviewArgs) -> Result<ExitCode> {
    // clap lets a conflicting --seat stand in for `requires`: say it here.
    if args.summary.is_some() && args.player.is_none() {
        return Err(usage("--summary needs --player NAME (a player's games, not a seat's)"));
    }
    let who = who(args.player, args.seat)?;
    if !(0.0..=1.0).contains(&args.bad_below) {
        return Err(usage(format!("--bad-below {} is not a probability (0-1)", args.bad_below)));
    }
    let mut models = Models::load(args.weights.as_deref())?;
    models.bad_below = args.bad_below;
    if let Some(path) = &args.trees {
        models.trees = haifu::model::trees::TreesByKind::load(path.as_deref())?;
    }
    let out = match (&args.out, &args.summary) {
        (Some(o), _) => o.clone(),
        (None, Some(dir)) => dir.join("games"),
        (None, None) => return Err(usage("--out is needed (or --summary)")),
    };
    let inputs = haifu::log::source::expand(&args.paths);
    let single = args.summary.is_none()
        && inputs.sources.len() == 1
        && inputs.errors.is_empty()
        && out.extension().is_some_and(|e| e.eq_ignore_ascii_case("html"));
    if single {
        return review_one(&inputs.sources[0], &who, &models, &out, args.json.as_deref());
    }
    let batch = Batch { who: &who, models: &models, out: &out, json: args.json.as_deref(), jobs: args.jobs };
    review_many(&args.paths, &batch, args.summary.as_deref())
}

/// What a batch of reviews is written with.
struct Batch<'a> {
    who: &'a Who,
    models: &'a Models,
    out: &'a Path,
    json: Option<&'a Path>,
    jobs: Option<usize>,
}

/// Whose decisions: `--player`, else `--seat`, else seat 0.
fn who(player: Option<String>, seat: Option<u8>) -> Result<Who> {
    Ok(match (player, seat) {
        (Some(p), _) => Who::Player(p),
        // A seat past a three-player table's is caught per game.
        (None, Some(s)) if s < 4 => Who::Seat(s),
        (None, Some(s)) => {
            return Err(usage(format!("--seat {s}: seats are 0..=3 (0..=2 at three players)")))
        }
        (None, None) => Who::Seat(0),
    })
}

/// One record: its page (and JSON) at the paths given; a player not at the table is a usage error.
fn review_one(src: &Source, who: &Who, models: &Models, out: &Path, json: Option<&Path>) -> Result<ExitCode> {
    let game = src.load().with_context(|| format!("cannot read {}", src.name))?;
    let Some(s) = who.seat(&game) else {
        let names: Vec<&str> =
            game.rules.seats().map(|s| game.players[usize::from(s)].name.as_str()).collect();
        let who = match who {
            Who::Player(p) => format!("player {p:?}"),
            Who::Seat(s) => format!("seat {s}"),
        };
        return Err(usage(format!("{who} does not play in {} (players: {})", src.name, names.join(", "))));
    };
    let review = review_game(&game, &src.name, s, models).with_context(|| src.name.clone())?;
    for f in std::iter::once(out).chain(json) {
        if let Some(dir) = f.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
    }
    haifu::util::write_atomic(out, haifu::report::review_html::page(&review))?;
    if let Some(j) = json {
        haifu::util::write_atomic(j, review.to_json())?;
    }
    let a = &review.summary.game;
    println!(
        "{} ({}, seat {}): {} decisions, match rate {:.0}%, top-3 {:.0}% by {} -> {}",
        review.game.id,
        review.player,
        review.seat,
        a.decisions,
        100.0 * a.top1_rate(),
        100.0 * a.top3_rate(),
        haifu::model::judges::judges_text(&review.judges),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// A batch: one page per game with the player into the `out` folder, plus index.html; with
/// `summary`, the player's summary there.
fn review_many(paths: &[PathBuf], b: &Batch, summary: Option<&Path>) -> Result<ExitCode> {
    let (who, out) = (b.who, b.out);
    let report = review_batch(paths, who, b.models, out, b.json, b.jobs)?;
    // Per variant (four-player games first): no match rate over both.
    let per_variant: Vec<String> = [(4u8, ""), (3, " three-player")]
        .into_iter()
        .filter_map(|(seats, what)| {
            let of = report.entries.iter().filter(|e| (e.seats == 3) == (seats == 3));
            let (g, n, t1) = of.fold((0, 0, 0), |a, e| (a.0 + 1, a.1 + e.decisions, a.2 + e.top1));
            let judges = b.models.for_players(seats).map_or_else(|| "-".into(), |m| m.judges_text());
            let rate = 100.0 * t1 as f64 / n.max(1) as f64;
            (g > 0).then(|| format!("{g}{what} pages, {n} decisions, match rate {rate:.0}% by {judges}"))
        })
        .collect();
    println!(
        "{} files, {}; {} games without the player, {} failed -> {}",
        report.files,
        if per_variant.is_empty() { "0 pages".to_string() } else { per_variant.join("; ") },
        report.without_player,
        report.errors.len(),
        out.join("index.html").display()
    );
    for e in report.errors.iter().take(20) {
        println!("  error {}: {}", e.file, e.error);
    }
    if let (Some(dir), Who::Player(name)) = (summary, who) {
        let errors: Vec<(String, String)> =
            report.errors.iter().map(|e| (e.file.clone(), e.error.clone())).collect();
        let s = summarize(name, &report.entries, &errors, out, dir);
        write(&s, dir).with_context(|| format!("cannot write the summary into {}", dir.display()))?;
        let ci = |i: &haifu::report::review_summary::Interval| {
            format!("{:.1}% ({:.1}-{:.1})", 100.0 * i.value, 100.0 * i.lo, 100.0 * i.hi)
        };
        // One line per variant with games: no figure averages four- and three-player games.
        let variants = [Some(&s.totals).filter(|t| t.games > 0), s.totals_three_player.as_ref()];
        for t in variants.into_iter().flatten() {
            println!(
                "{name}: {} {} games, {} decisions, match rate {}, bad-move rate {} -> {}",
                t.games,
                if t.seats == 3 { "three-player" } else { "four-player" },
                t.agreement.decisions,
                ci(&t.match_rate),
                t.bad_move_rate.as_ref().map_or_else(|| "- (weights not calibrated)".into(), ci),
                dir.join("index.html").display()
            );
        }
    }
    Ok(super::batch_status(report.errors.is_empty()))
}
