//! `haifu nanikiru`: what to discard from one hand, every distinct discard ranked by an evaluator.
//!
//! The position is built here from the notation alone: the hand (its drawn tile when written in
//! majiang notation), the dora indicators and the winds; riichi opponents are known only by their
//! discards, which also count as seen tiles. Nothing else is known (no rivers, no scores).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use haifu::eval::rank_discards;
use haifu::hand::majiang::is_majiang;
use haifu::hand::Hand;
use haifu::model::linear::{Contribution, Linear};
use haifu::rank::push_fold::{push_fold, Thresholds};
use haifu::rank::Evaluator;
use haifu::rank::RankedDiscard;
use haifu::replay::view::{Opponent, SeenDiscard, View};
use haifu::tile::{parse_majiang, parse_mpsz, Kind, Tile, EAST};

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
    hand: String,
    /// A dora indicator (the tile shown, not the dora; `4p` or `p4`); repeat for kan dora.
    #[arg(long = "dora", value_name = "IND")]
    dora: Vec<String>,
    /// Round wind.
    #[arg(long, default_value = "E", value_parser = parse_wind)]
    round_wind: Kind,
    /// Seat wind.
    #[arg(long, default_value = "S", value_parser = parse_wind)]
    seat_wind: Kind,
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

/// Each option's largest feature contributions (`--explain`), by discard.
type Explained = Vec<(Tile, Vec<Contribution>)>;

/// Ranks the hand's discards with the evaluator (then the push/fold layer when asked) and prints
/// them best first, as text or JSON, with `--explain`'s contributions. A hand that is not
/// whose-turn-it-is, a bad tile or `--explain` without `linear` is a usage error.
pub fn run(args: NanikiruArgs) -> Result<ExitCode> {
    let pos = position(&args)?;
    let mut options = rank_discards(args.evaluator, &pos, args.weights.as_deref())?;
    if args.push_fold {
        options = push_fold(&pos, options, &Thresholds::default());
    }
    let explained = if args.explain {
        if args.evaluator != Evaluator::Linear {
            return Err(usage("--explain needs --evaluator linear"));
        }
        Some(Linear::load(args.weights.as_deref())?.explain(&pos, 5)?)
    } else {
        None
    };
    if args.json {
        let mut out = serde_json::json!({
            "discard": options[0].tile.to_string(),
            "options": options,
        });
        if let Some(ex) = &explained {
            out["explain"] = ex.iter().map(|(t, c)| (t.to_string(), serde_json::json!(c))).collect();
        }
        println!("{out}");
    } else {
        print_text(&pos, args.evaluator, &options, explained.as_ref());
    }
    Ok(ExitCode::SUCCESS)
}

/// The position the arguments describe.
fn position(args: &NanikiruArgs) -> Result<View> {
    // Majiang notation names the drawn tile (its last concealed tile): 電脳麻将's ties go to it.
    let drawn = if is_majiang(&args.hand) {
        haifu::hand::majiang::parse(&args.hand).ok().and_then(|(_, d)| d)
    } else {
        None
    };
    let hand = Hand::parse(&args.hand).map_err(|e| usage(format!("bad hand {:?}: {e}", args.hand)))?;
    if !hand.is_full() {
        return Err(usage(format!(
            "nanikiru needs a hand whose turn it is: 14 tiles counting each meld as 3, got {}",
            hand.tiles.len() + 3 * hand.melds.len()
        )));
    }
    let indicators = args.dora.iter().map(|d| dora_indicator(d)).collect::<Result<Vec<_>>>()?;
    let mut pos = View::bare(hand, indicators, args.round_wind, args.seat_wind);
    pos.drawn = drawn;
    if args.riichi.len() > 3 {
        return Err(usage("--riichi can be given at most three times (three opponents)"));
    }
    // Each --riichi river goes to the next opponent seat, its last tile the declaration.
    for (r, opp) in args.riichi.iter().zip(pos.opponents.iter_mut()) {
        let discards = parse_mpsz(r).map_err(|e| usage(format!("bad --riichi discards {r:?}: {e}")))?;
        for t in &discards {
            pos.visible[t.kind()] = pos.visible[t.kind()].saturating_add(1);
        }
        let river: Vec<SeenDiscard> =
            discards.into_iter().map(|tile| SeenDiscard { tile, tsumogiri: false, called: false }).collect();
        *opp = Opponent { riichi_at: Some(river.len().saturating_sub(1)), river, ..Opponent::default() };
    }
    Ok(pos)
}

/// One `--dora` tile, in mpsz (`4p`) or majiang (`p4`) notation.
fn dora_indicator(d: &str) -> Result<Tile> {
    let t = if is_majiang(d) { parse_majiang(d) } else { parse_mpsz(d) }
        .map_err(|e| usage(format!("bad dora indicator {d:?}: {e}")))?;
    if t.len() != 1 {
        return Err(usage(format!("--dora takes one tile, got {d:?}")));
    }
    Ok(t[0])
}

/// A wind flag: E, S, W or N (any case).
fn parse_wind(s: &str) -> Result<Kind, String> {
    match s.to_ascii_uppercase().as_str() {
        "E" => Ok(EAST),
        "S" => Ok(EAST + 1),
        "W" => Ok(EAST + 2),
        "N" => Ok(EAST + 3),
        _ => Err(format!("wind must be E, S, W or N, not {s:?}")),
    }
}

/// The text form: a table of the options, the discard, and with `--explain` each option's terms
/// (the best option's largest, the others' relative to it).
fn print_text(pos: &View, evaluator: Evaluator, options: &[RankedDiscard], explained: Option<&Explained>) {
    println!("hand {}  (evaluator: {:?})", pos.full_hand(), evaluator);
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
