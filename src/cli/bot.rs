//! `haifu bot`: one of haifu's players at an mjai table, on stdin and stdout.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use haifu::bot::MjaiBot;
use haifu::sim::bots::parse_bot_with;

use super::usage;

/// Play one seat of an mjai table: events in on stdin, answers out on stdout.
///
/// Each input line is one mjai event or a JSON array of events (as Mortal's `Bot.react` takes
/// them). For each line the bot writes exactly one line: its answer to the line's last event
/// that can offer a choice (a `reach_accepted` or `dora` after it does not count) when it offers
/// the seat one (`dahai` with `tsumogiri`, `reach`, `chi`, `pon`, `daiminkan`, `kakan`, `ankan`,
/// `hora`, `ryukyoku` for nine terminals), else `{"type":"none"}`. Red fives are `5mr` / `5pr` /
/// `5sr`; `start_game`'s `id` names the seat (else --seat); other seats' tiles are `?`. The bot
/// decides exactly as in `haifu simulate`.
///
/// A `start_kyoku` that deals three hands is a 3-player table (Tenhou's sanma rules): the bot
/// follows every seat's `kita` / `nukidora` and answers `{"type":"kita","actor":N,"pai":"N"}`
/// when its player sets a north aside; majiang-*, ev, trees and fitted are four-player only and sit
/// such rounds out (docs/bot.md).
///
/// A line it cannot follow gets an error on stderr, naming the line, and a legal answer anyway
/// (a tsumogiri on its own turn, else none); the round is then sat out with tsumogiri.
///
/// Example: `haifu simulate --games 1 --bots ev --format mjai --out sim` writes a game, and
/// `zcat sim/sim-0-0.json.gz | haifu bot --seat 0 --player majiang-0402` answers it (it sees all
/// hands there; a server sends `?` for the others). docs/bot.md has RiichiEnv and Mortal-style
/// pipes.
#[derive(clap::Args)]
pub struct BotArgs {
    /// The seat, 0-3 (0-2 at a 3-player table; start_game's `id` overrides it).
    #[arg(long, default_value_t = 0)]
    seat: u8,
    /// The player: any `haifu simulate` bot (majiang-0400, majiang-0401, majiang-0402, ev,
    /// linear, trees, ukeire, yaku, boten, fitted: every decision by the shipped models, or
    /// random: a uniformly random legal action).
    #[arg(long, default_value = "majiang-0402")]
    player: String,
    /// The fitted player's model file (default: the shipped ones): `linear` and `trees` read their
    /// discard model here; `fitted` reads a trees discard model (its riichi and call models beside
    /// it, NAME-riichi.txt.gz and NAME-call.txt.gz) or, for a `.json`, linear weights for every
    /// kind (riichi.json and call.json beside them). docs/bot.md.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Tell the bot the game is east-only: mjai never states the length, and the bot assumes
    /// hanchan (the `fitted` player's riichi model reads whether a round is all-last).
    #[arg(long)]
    tonpuu: bool,
}

/// Answers every line of stdin until it closes; status 0 even when lines were refused (each
/// was answered and named on stderr).
pub fn run(args: BotArgs) -> Result<ExitCode> {
    if args.seat > 3 {
        return Err(usage(format!("--seat {} (seats are 0-3)", args.seat)));
    }
    // The error names the known players itself: one list, the one `simulate --bots` gives.
    let player = parse_bot_with(&args.player, args.weights.as_deref()).map_err(|e| usage(e.to_string()))?;
    let mut bot = MjaiBot::new(args.seat, player);
    if args.tonpuu {
        bot = bot.with_length(false);
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for (i, line) in stdin.lock().lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match bot.react(&line) {
            Ok(a) => a,
            Err((e, fallback)) => {
                eprintln!("haifu bot: stdin line {}: {e}", i + 1);
                fallback
            }
        };
        writeln!(out, "{}", bot.json(&answer))?;
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}
