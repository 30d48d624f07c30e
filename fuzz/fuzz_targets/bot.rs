//! Any bytes as an mjai table's stream into `haifu bot`: each line is answered (a legal fallback
//! and an error where it cannot be followed), never a panic or a hang. The first byte picks the
//! seat and the player.
#![no_main]

use libfuzzer_sys::fuzz_target;

const PLAYERS: [&str; 4] = ["ukeire", "majiang-0402", "ev", "boten"];

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else { return };
    let Ok(player) = haifu::sim::bots::parse_bot(PLAYERS[usize::from(first / 4) % PLAYERS.len()]) else { return };
    let mut bot = haifu::bot::MjaiBot::new(first % 4, player);
    for line in String::from_utf8_lossy(rest).lines() {
        let answer = match bot.react(line) {
            Ok(a) => a,
            Err((_, fallback)) => fallback,
        };
        let _ = bot.json(&answer);
    }
});
