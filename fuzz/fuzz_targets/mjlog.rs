//! Any bytes into the mjlog XML reader: an error naming the tag, never a panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = haifu::log::mjlog::parse_mjlog("fuzz", data);
});
