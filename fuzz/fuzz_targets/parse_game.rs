//! Any bytes into `parse_game`: it may return an error, never panic, hang or allocate without
//! bound (decompression is capped at MAX_DECOMPRESSED).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = haifu::log::source::parse_game("fuzz", data);
});
