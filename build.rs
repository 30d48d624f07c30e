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
    // Re-run when the folder appears or goes away (a missing path is watched by its parent).
    println!("cargo::rerun-if-changed={}", dir.parent().unwrap_or(&dir).display());
    if data.is_dir() {
        println!("cargo::rerun-if-changed={}", data.display());
    } else {
        println!("cargo::rustc-cfg=haifu_no_shared");
    }
}
