//! Response time of `haifu bot` per decision (`make bench-bot`), for each player, on real
//! streams: shared Tenhou games written as mjai and cut into each seat's stream (the other
//! hands hidden), fed line by line to an [`MjaiBot`] as a server would. A decision is a line on
//! which the player was asked something (a turn, or a call or ron on another seat's tile); its
//! time is the whole `react` of that line (parsing, the table, the player). p50 / p99 / max per
//! player, one core, over all decisions and over the seat's own turns alone (its draws, riichi
//! declarations and calls: the discard choice, the expensive kind; the rest are calls and rons
//! offered on other seats' tiles).
//!
//! `HAIFU_BENCH_GAMES` games (default 10; every k-th sorted `*.mjlog` of ../shared/data/tenhou),
//! all four seats; `HAIFU_BENCH_PLAYERS` (default: every player). Without `--bench` (as `make
//! test` runs it) one game and two players, to check that the path runs.

use std::time::Instant;

use haifu::bot::{seat_stream, MjaiBot};
use haifu::sim::bots::parse_bot;

mod support;
use support::{env_usize, median};

const PLAYERS: &str = "majiang-0400,majiang-0401,majiang-0402,ev,linear,ukeire,yaku,boten,trees,fitted";

fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// A line of the seat's own turn: its draw, riichi declaration, chi or pon.
fn own_turn(line: &str, seat: u8) -> bool {
    let v: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
    matches!(v["type"].as_str(), Some("tsumo" | "reach" | "chi" | "pon"))
        && v["actor"].as_u64() == Some(u64::from(seat))
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let Some(all) = haifu::testdata::bench_tenhou_files("bot bench", &[".mjlog"]) else {
        return;
    };
    let n = if bench { env_usize("HAIFU_BENCH_GAMES", 10) } else { 1 };
    let step = (all.len() / n.max(1)).max(1);
    let logs: Vec<String> = all
        .iter()
        .step_by(step)
        .take(n)
        .filter_map(|p| {
            let bytes = std::fs::read(p).ok()?;
            let name = p.file_name()?.to_string_lossy().into_owned();
            let game = haifu::log::source::parse_game(&name, &bytes).ok()?;
            haifu::log::mjai::write::write_mjai(&game).ok()
        })
        .collect();
    let players = std::env::var("HAIFU_BENCH_PLAYERS").unwrap_or_else(|_| PLAYERS.into());
    let players: Vec<&str> =
        if bench { players.split(',').collect() } else { vec!["majiang-0402", "ukeire"] };
    println!("bot bench: {} games, 4 seats each, one core", logs.len());
    println!(
        "| player | decisions | p50 ms | p99 ms | max ms | own turns | p50 ms | p99 ms | refused lines |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for name in players {
        let mut times = Vec::new();
        let mut turns = Vec::new();
        let mut refused = 0;
        for log in &logs {
            for seat in 0..4u8 {
                let mut bot = MjaiBot::new(seat, parse_bot(name).expect("a player"));
                for line in seat_stream(log, seat) {
                    let asked = bot.questions;
                    let t = Instant::now();
                    let r = bot.react(&line);
                    let dt = t.elapsed().as_secs_f64() * 1e3;
                    refused += usize::from(r.is_err());
                    if bot.questions > asked {
                        times.push(dt);
                        if own_turn(&line, seat) {
                            turns.push(dt);
                        }
                    }
                }
            }
        }
        times.sort_by(f64::total_cmp);
        turns.sort_by(f64::total_cmp);
        if times.is_empty() || turns.is_empty() {
            println!("| {name} | 0 | - | - | - | - | - | - | {refused} |");
            continue;
        }
        println!(
            "| {name} | {} | {:.3} | {:.3} | {:.3} | {} | {:.3} | {:.3} | {refused} |",
            times.len(),
            median(times.clone()),
            quantile(&times, 0.99),
            times[times.len() - 1],
            turns.len(),
            median(turns.clone()),
            quantile(&turns, 0.99),
        );
    }
}
