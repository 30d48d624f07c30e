//! Any bytes into the tenhou.net/6 JSON reader: an error naming the round, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = haifu::log::tenhou6::parse_tenhou6("fuzz", data);
});
