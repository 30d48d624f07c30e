//! `haifu nanikiru`: what to discard from one hand, every distinct discard ranked by an evaluator.
//!
//! The position is built here from the notation alone: the hand (its drawn tile when written in
//! majiang notation), the dora indicators and the winds; riichi opponents are known only by their
//! discards, which also count as seen tiles. Nothing else is known (no rivers, no scores).
//!
//! `--positions FILE` ranks many positions instead, each a JSON line in the form 電脳麻将
//! (`@kobalab/majiang-ai`) is driven with ([`haifu::rank::majiang_position`]): the same lines as
//! the golden files, so anyone can repeat the golden check from the command line.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use haifu::eval::nanikiru::{self, position_json, rank_position, NanikiruError, Query};
use haifu::eval::Ranker;
use haifu::model::linear::Contribution;
use haifu::rank::majiang_position::{parse_line, tile_name, MajiangPosition};
use haifu::rank::Evaluator;
use haifu::rank::RankedDiscard;
use haifu::replay::view::View;
use haifu::tile::{Kind, Tile};

use super::usage;

/// What to discard: ranks every distinct discard of a 14-tile hand, best first.
///
/// A red five and a plain five held together are ranked as two options. Remaining tile
/// counts treat the hand and the dora indicators as seen. Hands pasted in majiang notation
/// (`m34567p2388s5779p1`) name their drawn tile (the last one): `ev` then breaks exact ties
/// as 電脳麻将 does, drawn tile first among equal isolated-tile values.
#[derive(clap::Args)]
pub struct NanikiruArgs {
    /// The hand with 14 tiles counting melds as 3: mpsz with melds as in `haifu shanten`, or
    /// majiang notation (`p456788s3477p0,p222=`).
    #[arg(required_unless_present = "positions")]
    hand: Option<String>,
    /// Rank every position of a JSON-lines file instead (`-` = stdin), one output line each.
    ///
    /// A line is a position as 電脳麻将 (`@kobalab/majiang-ai`) is given it, e.g.
    ///
    ///   {"id":"g#173","shoupai":"m444p6799p7,z777-,m6-78","zhuangfeng":0,"menfeng":0,
    ///    "baopai":["s1"],"red":true,"paishu":{"m":[0,1,3,0,0,3,2,3,1,2],
    ///    "p":[1,3,3,2,4,4,3,0,4,1],"s":[1,3,4,2,4,4,2,2,3,0],"z":[0,0,1,1,0,0,1,0]}}
    ///
    /// (on one line): `shoupai` in majiang notation, 14 tiles counting melds as 3, the drawn
    /// tile last, melds after commas; `zhuangfeng`/`menfeng` the round and seat wind (0 = East);
    /// `baopai` the dora indicators; `red` whether red fives are in play (default true);
    /// `paishu` the player's unseen copies, m/p/s indexed 0..9 with 0 = the red five, z 0..7
    /// (optional: without it only the hand, melds and indicators are seen); `id` echoed.
    /// The lines of src/rank/testdata/majiang_ai_*.jsonl are such positions (their `pick` is
    /// majiang-ai's). With --evaluator ev the position's red fives count and wins are scored
    /// under majiang-core's rules, as the golden test does. With --json each output line is
    /// {"id","pick":"p7","discard":"7p","options":[{"tile","majiang","score","shanten","ukeire"},...]};
    /// a bad line is reported on stderr with its line number, the others still run, and the
    /// exit status is 1.
    #[arg(
        long,
        value_name = "FILE",
        verbatim_doc_comment,
        conflicts_with_all = ["hand", "dora", "round_wind", "seat_wind", "riichi", "push_fold", "explain", "kyoku", "scores"]
    )]
    positions: Option<PathBuf>,
    /// A dora indicator (the tile shown, not the dora; `4p` or `p4`); repeat for kan dora.
    #[arg(long = "dora", value_name = "IND")]
    dora: Vec<String>,
    /// Round wind.
    #[arg(long, default_value = "E", value_parser = nanikiru::parse_wind)]
    round_wind: Kind,
    /// Seat wind.
    #[arg(long, default_value = "S", value_parser = nanikiru::parse_wind)]
    seat_wind: Kind,
    /// The round of the round wind, 1-4 (`--round-wind S --kyoku 4`: South 4, all-last).
    #[arg(long, default_value_t = 1)]
    kyoku: u8,
    /// Scores in points: yours, then the next player's, the one across and the previous
    /// player's (`--scores 18000,32000,25000,25000`); default 25,000 each. The trees model
    /// weighs placement and the gaps to the scores above and below.
    #[arg(long, value_name = "OWN,NEXT,ACROSS,PREV", value_parser = parse_scores)]
    scores: Option<[i32; 4]>,
    /// Which evaluator ranks the options (linear: the fitted weights, which agree with human
    /// houou discards far more often than ukeire; see reports/README.md).
    #[arg(long, value_enum, default_value = "linear")]
    evaluator: Evaluator,
    /// Print JSON: {"discard":"7s","options":[{"tile","score","shanten","ukeire"},...]}.
    #[arg(long)]
    json: bool,
    /// Weights file of the linear evaluator.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// With the linear evaluator: each option's largest feature contributions (relative to
    /// the best option), so you see why one discard beat another.
    #[arg(long)]
    explain: bool,
    /// An opponent in riichi, given by their discards in mpsz (repeat for several); used by
    /// --push-fold.
    #[arg(long = "riichi", value_name = "DISCARDS")]
    riichi: Vec<String>,
    /// Apply the push/fold layer over the evaluator: against a riichi, weak hands (expected
    /// value < 400 or 3+ shanten) fold to the safest tile, good hands (< 1200) play only
    /// genbutsu / suji / honors, excellent hands push.
    #[arg(long)]
    push_fold: bool,
}

/// `--scores`: four comma-separated integers.
fn parse_scores(text: &str) -> Result<[i32; 4], String> {
    let v: Vec<i32> = text
        .split(',')
        .map(|s| s.trim().parse::<i32>().map_err(|e| format!("{s:?} is not a score in points: {e}")))
        .collect::<Result<_, _>>()?;
    v.try_into()
        .map_err(|v: Vec<i32>| format!("four scores (yours, next, across, previous), got {}", v.len()))
}

/// Each option's largest feature contributions (`--explain`), by discard.
type Explained = Vec<(Tile, Vec<Contribution>)>;

/// Ranks the hand's discards with the evaluator (then the push/fold layer when asked) and prints
/// them best first, as text or JSON, with `--explain`'s contributions. A hand that is not
/// whose-turn-it-is, a bad tile or `--explain` without `linear` is a usage error.
pub fn run(args: NanikiruArgs) -> Result<ExitCode> {
    if let Some(file) = &args.positions {
        return run_positions(&args, file);
    }
    let query = Query {
        hand: args.hand.clone().unwrap_or_default(),
        dora: args.dora.clone(),
        round_wind: args.round_wind,
        seat_wind: args.seat_wind,
        riichi: args.riichi.clone(),
        kyoku: args.kyoku,
        scores: args.scores,
    };
    let pos = nanikiru::position(&query).map_err(|e| usage(e.to_string()))?;
    let ranker = Ranker::new(args.evaluator, args.weights.as_deref())?;
    let ranking = nanikiru::rank(&ranker, &pos, args.push_fold, args.explain).map_err(|e| match e {
        NanikiruError::Input(bad) => usage(bad.to_string()),
        other => anyhow::Error::from(other),
    })?;
    if args.json {
        println!("{}", ranking.json());
    } else {
        print_text(&pos, args.evaluator, &ranking.options, ranking.explained.as_ref());
    }
    Ok(ExitCode::SUCCESS)
}

/// `--positions`: ranks each position line of `file` (`-` = stdin) and prints one line per
/// position; a bad line is reported with its number and skipped, and makes the status 1.
fn run_positions(args: &NanikiruArgs, file: &Path) -> Result<ExitCode> {
    let reader: Box<dyn BufRead> = if file == Path::new("-") {
        Box::new(std::io::stdin().lock())
    } else {
        let f =
            std::fs::File::open(file).map_err(|e| usage(format!("cannot read {}: {e}", file.display())))?;
        Box::new(std::io::BufReader::new(f))
    };
    // Built once, not per line (a bad weights file fails before any line).
    let ranker = Ranker::new(args.evaluator, args.weights.as_deref())?;
    let name = if file == Path::new("-") { "stdin".to_string() } else { file.display().to_string() };
    let mut failed = 0usize;
    for (i, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| anyhow::anyhow!("reading {name}: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let ranked = parse_line(&line).map_err(anyhow::Error::from).and_then(|p| {
            let options = rank_position(&ranker, &p)?;
            Ok((p, options))
        });
        match ranked {
            Ok((p, options)) if args.json => println!("{}", position_json(&p, &options)),
            Ok((p, options)) => print_position(&p, &options),
            Err(e) => {
                failed += 1;
                eprintln!("nanikiru --positions: {name} line {}: {e:#}", i + 1);
            }
        }
    }
    if failed > 0 {
        eprintln!("nanikiru --positions: {failed} line(s) failed");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// One position's ranking as a text line: id, pick (majiang notation), then the options.
fn print_position(p: &MajiangPosition, options: &[RankedDiscard]) {
    let id = p.id.as_str().map_or_else(|| p.id.to_string(), str::to_string);
    let opts: Vec<String> = options.iter().map(|o| format!("{}:{:.2}", tile_name(o.tile), o.score)).collect();
    println!("{id}\t{}\t{}", tile_name(options[0].tile), opts.join(" "));
}

/// The text form: a table of the options, the discard, and with `--explain` each option's terms
/// (the best option's largest, the others' relative to it).
fn print_text(pos: &View, evaluator: Evaluator, options: &[RankedDiscard], explained: Option<&Explained>) {
    println!("hand {}  (evaluator: {})", pos.full_hand(), evaluator);
    println!("{:>6} {:>8} {:>8} {:>10}", "tile", "shanten", "ukeire", "score");
    for o in options {
        println!("{:>6} {:>8} {:>8} {:>10.2}", o.tile.to_string(), o.shanten, o.ukeire, o.score);
    }
    println!("discard {}", options[0].tile);
    let Some(ex) = explained else { return };
    for o in options {
        let c = &ex.iter().find(|(t, _)| *t == o.tile).expect("explained option").1;
        let parts: Vec<String> = c.iter().map(|c| format!("{} {:+.2}", c.feature, c.contribution)).collect();
        let what = if o.tile == options[0].tile { "largest terms" } else { "vs best" };
        println!("  {:>3} {what}: {}", o.tile.to_string(), parts.join(", "));
    }
}
