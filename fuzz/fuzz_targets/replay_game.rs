//! One record, end to end as `haifu check` and `haifu ingest` see it: parse, replay with every
//! win re-scored against the record, then build the ingest rows (every decision, every option,
//! every feature). Any outcome is fine except a panic, a hang or unbounded memory: a record that
//! parses but cannot be replayed must come back as an error naming the place.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(game) = haifu::log::source::parse_game("fuzz", data) else { return };
    let replayed = haifu::replay::replay_game(&game, &mut (), &mut haifu::replay::check::Rescore::default());
    if replayed.is_ok() {
        let _ = haifu::dataset::rows::game_rows(&game);
    }
});
