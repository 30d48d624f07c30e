//! Where the tests find the real data in `../shared` (never copied into the repo).
//!
//! `HAIFU_SHARED` overrides the location. When the folder is missing, tests that need it print a
//! notice and return; CI always has it beside the clone.

use std::path::PathBuf;

/// The shared data folder, if present.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("HAIFU_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    if dir.join("data").is_dir() {
        Some(dir)
    } else {
        eprintln!("note: {} not found; skipping a test that needs the shared data", dir.display());
        None
    }
}

/// A file under `shared/data`, if the shared folder exists.
pub fn shared_file(rel: &str) -> Option<PathBuf> {
    shared_dir().map(|d| d.join("data").join(rel))
}
