//! Tells the tests whether `../shared/data` (or `$HAIFU_SHARED/data`) is there: without it, the
//! tests that need the real records are compiled as `#[ignore]` with the reason "needs
//! ../shared/data", so `cargo test` lists them as ignored instead of counting them as passed.
//! `src/testdata.rs` has a test that fails when `CI` or `HAIFU_REQUIRE_SHARED=1` is set and the
//! folder is missing.

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(haifu_no_shared)");
    println!("cargo::rerun-if-env-changed=HAIFU_SHARED");
    let dir = std::env::var_os("HAIFU_SHARED").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("../shared")
    });
    let data = dir.join("data");
    // Watch only small things: a folder named here is scanned recursively on every build, and a
    // missing path would re-run this script (and rebuild the crate) every time. So after adding
    // ../shared to a checkout that had none, `touch build.rs` (or set HAIFU_SHARED).
    println!("cargo::rerun-if-changed=build.rs");
    if !data.is_dir() {
        println!("cargo::rustc-cfg=haifu_no_shared");
    }
}
