//! A phoenix-logs database row's `log_content` as `haifu` reads it: the content check, then
//! decompression (bz2, gzip, zlib, capped) and the record readers. Never a panic, a hang or
//! unbounded memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if haifu::log::source::check_row_content(1, data).is_ok() {
        let _ = haifu::log::source::parse_game("logs.db#1", data);
    }
});
