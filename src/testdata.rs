//! Where the tests find the real data in `../shared` (never copied into the repo).
//!
//! `HAIFU_SHARED` overrides the location. When the folder is missing, the tests that need it are
//! compiled as ignored with the reason (`build.rs` sets `haifu_no_shared`; `cargo test` lists
//! them), unless `CI` or `HAIFU_REQUIRE_SHARED=1` is set: then a missing folder is a failure, so a
//! CI run can never pass by skipping. Such a test asks for its data with the `need_*` functions:
//! a part of the folder that is missing (a subfolder, a file) fails the test by name, never lets
//! it return early as passed. A file that is there but cannot be read or parsed is always a
//! failure.

use std::path::PathBuf;

/// Whether a missing shared folder is a failure: `CI` set (and not `0` / `false`), or
/// `HAIFU_REQUIRE_SHARED=1`.
pub fn shared_required() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "0" && v != "false")
        || std::env::var_os("HAIFU_REQUIRE_SHARED").is_some_and(|v| v == "1")
}

/// The shared data folder, if present.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("HAIFU_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    if dir.join("data").is_dir() {
        Some(dir)
    } else {
        assert!(
            !shared_required(),
            "{} not found, and CI / HAIFU_REQUIRE_SHARED=1 requires it",
            dir.display()
        );
        eprintln!("SKIPPED: {} not found; a test that needs the shared data did not run", dir.display());
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

/// What a test that needs the shared data says when a part of it is missing.
fn missing(what: &str) -> ! {
    panic!(
        "needs {what} under the shared data ({}), which is not there: the test is ignored only \
         when the whole folder is missing (touch build.rs after adding it)",
        shared_dir().map_or_else(|| "../shared/data".into(), |d| d.join("data").display().to_string())
    )
}

/// A file or folder under `shared/data` a test needs: its path, or a failure naming it.
pub fn need_file(rel: &str) -> PathBuf {
    match shared_file(rel) {
        Some(p) if p.exists() => p,
        _ => missing(rel),
    }
}

/// The 279 three-player Houou games of `tenhou/sanma` (their mjlogs, sorted by name), for a test
/// that needs them: a failure when the folder is missing or does not hold them all
/// (docs/sanma.md's count).
pub fn need_sanma_files() -> Vec<PathBuf> {
    let dir = need_file("tenhou/sanma");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mjlog"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 279, "{}: the 279 sanma games of docs/sanma.md", dir.display());
    files
}

/// How often `pattern` occurs in the text of `files` together: a count taken from the raw
/// records (`<AGARI `, `<INIT `), independent of any reader, for a test to hold a reader's to.
pub fn count_in_files(files: &[PathBuf], pattern: &str) -> usize {
    files
        .iter()
        .map(|p| {
            let bytes = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            String::from_utf8_lossy(&bytes).matches(pattern).count()
        })
        .sum()
}

/// [`tenhou_files`] for a test that needs them: the files, or a failure when the folder is
/// missing or holds none of them.
pub fn need_tenhou_files(suffixes: &[&str]) -> Vec<PathBuf> {
    match tenhou_files(suffixes) {
        Some(f) if !f.is_empty() => f,
        _ => missing(&format!("tenhou/*{}", suffixes.join(" | *"))),
    }
}

/// The shared Tenhou files the bench `what` runs on: `None` when the whole shared folder is
/// missing, after printing that `what` skipped and why (a failure under `CI`, as in
/// [`shared_dir`]), else [`need_tenhou_files`]: a folder that is there but lacks them fails by
/// name, never skips silently.
pub fn bench_tenhou_files(what: &str, suffixes: &[&str]) -> Option<Vec<PathBuf>> {
    bench_shared(what)?;
    Some(need_tenhou_files(suffixes))
}

/// [`kobalab_hands`] for the bench `what`, as [`bench_tenhou_files`].
pub fn bench_kobalab_hands(what: &str) -> Option<Vec<(Vec<crate::tile::Tile>, [i8; 3])>> {
    bench_shared(what)?;
    Some(need_kobalab_hands())
}

/// The shared folder for a bench, or the line that says it skipped.
fn bench_shared(what: &str) -> Option<PathBuf> {
    let dir = shared_dir();
    if dir.is_none() {
        println!("{what}: skipped (the shared data folder is not there: ../shared or HAIFU_SHARED)");
    }
    dir
}

/// [`kobalab_hands`] for a test that needs them.
pub fn need_kobalab_hands() -> Vec<(Vec<crate::tile::Tile>, [i8; 3])> {
    kobalab_hands().filter(|h| !h.is_empty()).unwrap_or_else(|| missing("kobalab (the golden hands)"))
}

/// The 40,000 kobalab golden hands (14 tiles each, majiang notation in the files) with their
/// shanten by form `[standard, kokushi, chiitoitsu]`; `None` without the shared folder.
pub fn kobalab_hands() -> Option<Vec<(Vec<crate::tile::Tile>, [i8; 3])>> {
    let dir = shared_file("kobalab")?;
    let mut out = Vec::with_capacity(40_000);
    for i in 1..=4 {
        let path = dir.join(format!("xiangting_{i}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let cases: Vec<serde_json::Value> =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
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

/// One xorshift64 step: advances `state` and returns it. The randomised tests' generator
/// (reproducible, no dependency), for tests that thread the state through helpers.
pub fn xorshift_step(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// A seeded xorshift64 generator: [`xorshift_step`] as a closure.
pub fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed;
    move || xorshift_step(&mut s)
}

/// `tiles` tiles drawn uniformly by kind from `next`, at most 4 of a kind: the randomised tests'
/// plain hands (34 kind counts), one helper so that every test draws them the same way.
pub fn uniform_counts(next: &mut impl FnMut() -> u64, tiles: usize) -> [u8; 34] {
    let mut c = [0u8; 34];
    let mut held = 0;
    while held < tiles {
        let k = (next() % 34) as usize;
        if c[k] < 4 {
            c[k] += 1;
            held += 1;
        }
    }
    c
}

#[cfg(test)]
mod tests {
    /// Under CI (or `HAIFU_REQUIRE_SHARED=1`) the shared data must be there: otherwise the tests
    /// that need it were compiled as ignored, and this one fails so the run cannot look green.
    #[test]
    fn shared_data_is_present_when_required() {
        if super::shared_required() {
            assert!(
                !cfg!(haifu_no_shared) && super::shared_dir().is_some(),
                "CI / HAIFU_REQUIRE_SHARED=1: ../shared/data is missing (set HAIFU_SHARED to its parent)"
            );
        }
    }
}
