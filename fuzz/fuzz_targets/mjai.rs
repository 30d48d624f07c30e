//! Any bytes into the mjai reader: an error naming the line and event, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = haifu::log::mjai::read::parse_mjai("fuzz", data);
});
