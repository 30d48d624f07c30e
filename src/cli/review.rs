//! `haifu review`: one review page for one record, or a batch of pages with an index.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use haifu::log::source::Source;
use haifu::report::review::{review_game, Models, Who};
use haifu::report::review_batch::review_batch;

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
    /// The HTML page to write (a folder for a batch).
    #[arg(long)]
    out: PathBuf,
    /// Also write the review as JSON (schema_version 1; a folder for a batch).
    #[arg(long)]
    json: Option<PathBuf>,
    /// A choice linear gives a calibrated probability below this is a bad move (NAGA's
    /// threshold is 0.05). Needs calibrated weights (`haifu calibrate`).
    #[arg(long, default_value_t = haifu::report::review::BAD_BELOW)]
    bad_below: f64,
    /// Worker threads for a batch (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
}

/// Loads the three linear models, then writes one page (a single record and an `.html` --out)
/// or a batch of pages with an index; exit status 1 when a file of a batch failed.
pub fn run(args: ReviewArgs) -> Result<ExitCode> {
    let who = who(args.player, args.seat)?;
    if !(0.0..=1.0).contains(&args.bad_below) {
        return Err(usage(format!("--bad-below {} is not a probability (0-1)", args.bad_below)));
    }
    let mut models = Models::load(args.weights.as_deref())?;
    models.bad_below = args.bad_below;
    let inputs = haifu::log::source::expand(&args.paths);
    let single = inputs.sources.len() == 1
        && inputs.errors.is_empty()
        && args.out.extension().is_some_and(|e| e.eq_ignore_ascii_case("html"));
    if single {
        review_one(&inputs.sources[0], &who, &models, &args.out, args.json.as_deref())
    } else {
        review_many(&args.paths, &who, &models, &args.out, args.json.as_deref(), args.jobs)
    }
}

/// Whose decisions: `--player`, else `--seat`, else seat 0.
fn who(player: Option<String>, seat: Option<u8>) -> Result<Who> {
    Ok(match (player, seat) {
        (Some(p), _) => Who::Player(p),
        (None, Some(s)) if s < 4 => Who::Seat(s),
        (None, Some(s)) => return Err(usage(format!("--seat {s}: seats are 0..=3"))),
        (None, None) => Who::Seat(0),
    })
}

/// One record: its page (and JSON) at the paths given; a player not at the table is a usage error.
fn review_one(src: &Source, who: &Who, models: &Models, out: &Path, json: Option<&Path>) -> Result<ExitCode> {
    let game = src.load().with_context(|| format!("cannot read {}", src.name))?;
    let Some(s) = who.seat(&game) else {
        let names: Vec<&str> = game.players.iter().map(|p| p.name.as_str()).collect();
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
        "{} ({}, seat {}): {} decisions, linear top-1 {:.0}%, top-3 {:.0}% -> {}",
        review.game.id,
        review.player,
        review.seat,
        a.decisions,
        100.0 * a.top1_rate(),
        100.0 * a.top3_rate(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// A batch: one page per game with the player into the `out` folder, plus index.html.
fn review_many(
    paths: &[PathBuf],
    who: &Who,
    models: &Models,
    out: &Path,
    json: Option<&Path>,
    jobs: Option<usize>,
) -> Result<ExitCode> {
    let report = review_batch(paths, who, models, out, json, jobs)?;
    let (n, t1) = report.entries.iter().fold((0, 0), |a, e| (a.0 + e.decisions, a.1 + e.top1));
    println!(
        "{} files, {} pages ({} decisions, linear top-1 {:.0}%), {} games without the player, {} failed -> {}",
        report.files,
        report.entries.len(),
        n,
        100.0 * t1 as f64 / n.max(1) as f64,
        report.without_player,
        report.errors.len(),
        out.join("index.html").display()
    );
    for e in report.errors.iter().take(20) {
        println!("  error {}: {}", e.file, e.error);
    }
    Ok(super::batch_status(report.errors.is_empty()))
}
