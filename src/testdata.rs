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

/// Top-level files of `shared/data/tenhou` (complete 4-player games) whose name ends with one of
/// `suffixes` (e.g. `[".mjlog"]`), sorted by path; `None` without the shared folder.
pub fn tenhou_files(suffixes: &[&str]) -> Option<Vec<PathBuf>> {
    let dir = shared_file("tenhou")?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| suffixes.iter().any(|s| n.ends_with(s)))
        })
        .collect();
    files.sort();
    Some(files)
}

/// The 40,000 kobalab golden hands (14 tiles each, majiang notation in the files) with their
/// shanten by form `[standard, kokushi, chiitoitsu]`; `None` without the shared folder.
pub fn kobalab_hands() -> Option<Vec<(Vec<crate::tile::Tile>, [i8; 3])>> {
    let dir = shared_file("kobalab")?;
    let mut out = Vec::with_capacity(40_000);
    for i in 1..=4 {
        let text = std::fs::read_to_string(dir.join(format!("xiangting_{i}.json"))).ok()?;
        let cases: Vec<serde_json::Value> = serde_json::from_str(&text).ok()?;
        for c in cases {
            let tiles = c["q"]
                .as_array()?
                .iter()
                .map(|t| crate::tile::parse_majiang(t.as_str()?).ok()?.first().copied())
                .collect::<Option<Vec<_>>>()?;
            let x = c["x"].as_array()?;
            let x = [x.first()?.as_i64()? as i8, x.get(1)?.as_i64()? as i8, x.get(2)?.as_i64()? as i8];
            out.push((tiles, x));
        }
    }
    Some(out)
}
