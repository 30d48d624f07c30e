//! Value digest of `haifu ingest`: a guard for speed work that must not change any value written.
//!
//! Runs the haifu binary's `ingest` on a fixed set of shared games (the first [`GAMES`] sorted
//! top-level `*.mjlog` files of `../shared/data/tenhou`, or `$HAIFU_SHARED/data/tenhou`), reads
//! back every parquet table it writes and digests each (table, column): a hash of the column's
//! values in row order. Numbers (and booleans) are cast to f64 and hashed by their bits, so a
//! change of a column's storage type (f32 -> u8, say) keeps the digest while any change of a value
//! does not; strings are hashed as text; nulls and NaN have their own marks. A table is every
//! `*.parquet` file named after it: `TABLE.parquet`, or `TABLE/*.parquet` (parts), concatenated in
//! file-name order.
//!
//! The expected digests are in `tests/digest/ingest30.txt` (one line per table.column: digest and
//! row count; the header records the commit they were generated from). Regenerate them, only when
//! a value change is intended, with
//! `HAIFU_DIGEST_WRITE=1 cargo test --release --test digest`.
//!
//! Without the shared data the test is compiled as ignored (build.rs); if the folder is still
//! missing at run time it prints "skipped", and fails when `CI` or `HAIFU_REQUIRE_SHARED` is set.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use polars::prelude::*;

/// Number of games digested.
const GAMES: usize = 30;
const EXPECTED: &str = "tests/digest/ingest30.txt";

fn shared_tenhou() -> PathBuf {
    let shared = std::env::var_os("HAIFU_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    shared.join("data/tenhou")
}

/// The first [`GAMES`] top-level `*.mjlog` files, sorted by name.
fn games(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read shared tenhou folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file() && p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".mjlog"))
        })
        .collect();
    files.sort();
    files.truncate(GAMES);
    files
}

/// FNV-1a over 64-bit words (deterministic across runs and platforms).
struct Digest(u64);

impl Digest {
    fn new() -> Self {
        Digest(0xcbf2_9ce4_8422_2325)
    }
    fn word(&mut self, x: u64) {
        for b in x.to_le_bytes() {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn bytes(&mut self, s: &[u8]) {
        self.word(s.len() as u64);
        for &b in s {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Marks for values that are not plain numbers or strings.
const NULL: u64 = 0x6e75_6c6c_6e75_6c6c;
const NAN: u64 = 0x6e61_6e6e_616e_6e61;

/// Per table, the parquet files holding it, in file-name order.
fn tables(out: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let mut t: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for e in std::fs::read_dir(out).unwrap().filter_map(|e| e.ok()) {
        let p = e.path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_file() && name.ends_with(".parquet") {
            t.entry(name.trim_end_matches(".parquet").to_string()).or_default().push(p);
        } else if p.is_dir() {
            let mut parts: Vec<PathBuf> = std::fs::read_dir(&p)
                .unwrap()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|q| q.is_file() && q.extension().is_some_and(|x| x == "parquet"))
                .collect();
            if !parts.is_empty() {
                parts.sort();
                t.entry(name).or_default().extend(parts);
            }
        }
    }
    t
}

/// `table.column` -> (digest, rows) for every table under `out`.
fn digests(out: &Path) -> BTreeMap<String, (u64, usize)> {
    let mut all = BTreeMap::new();
    for (table, files) in tables(out) {
        let mut cols: Vec<(String, Digest, usize)> = Vec::new();
        for f in &files {
            let df = ParquetReader::new(std::fs::File::open(f).unwrap()).finish().unwrap();
            if cols.is_empty() {
                cols = df.get_column_names().iter().map(|n| (n.to_string(), Digest::new(), 0)).collect();
            }
            let names: Vec<String> = df.get_column_names().iter().map(|n| n.to_string()).collect();
            assert_eq!(
                names,
                cols.iter().map(|c| c.0.clone()).collect::<Vec<_>>(),
                "{}: columns differ",
                f.display()
            );
            for (name, d, rows) in cols.iter_mut() {
                let s = df.column(name).unwrap().as_materialized_series().clone();
                *rows += s.len();
                if let DataType::String = s.dtype() {
                    for v in s.str().unwrap().iter() {
                        match v {
                            Some(v) => d.bytes(v.as_bytes()),
                            None => d.word(NULL),
                        }
                    }
                } else {
                    let s = s.cast(&DataType::Float64).unwrap_or_else(|e| panic!("{table}.{name}: {e}"));
                    for v in s.f64().unwrap().iter() {
                        match v {
                            Some(x) if x.is_nan() => d.word(NAN),
                            Some(x) => d.word(x.to_bits()),
                            None => d.word(NULL),
                        }
                    }
                }
            }
        }
        for (name, d, rows) in cols {
            all.insert(format!("{table}.{name}"), (d.0, rows));
        }
    }
    all
}

fn git_head() -> String {
    Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn ingest_values_match_the_recorded_digest() {
    let dir = shared_tenhou();
    if !dir.is_dir() {
        let msg = format!("digest test skipped: {} not found (set HAIFU_SHARED)", dir.display());
        eprintln!("{msg}");
        if std::env::var_os("CI").is_some() || std::env::var_os("HAIFU_REQUIRE_SHARED").is_some() {
            panic!("{msg}, and CI / HAIFU_REQUIRE_SHARED requires it");
        }
        return;
    }
    let files = games(&dir);
    assert_eq!(files.len(), GAMES, "fewer than {GAMES} top-level .mjlog files in {}", dir.display());
    let out = tempfile::tempdir().unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_haifu"))
        .arg("ingest")
        // Every column group: ev, danger and seats are held by default, and `--with ukeire2` adds
        // the one opt-in group, which must give the values it gave before it became opt-in.
        .args(["--with", "ukeire2"])
        .args(&files)
        .arg("--out")
        .arg(out.path())
        .args(["--jobs", "2"])
        .output()
        .expect("run haifu ingest");
    assert!(
        run.status.success(),
        "haifu ingest failed: {}\n{}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    let got = digests(out.path());
    assert!(got.keys().any(|k| k.starts_with("options.")), "no options table written");
    let body: String = got.iter().map(|(k, (d, n))| format!("{k} {d:016x} {n}\n")).collect();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(EXPECTED);
    if std::env::var_os("HAIFU_DIGEST_WRITE").is_some() {
        let header = format!(
            "# haifu ingest value digest: first {GAMES} sorted top-level *.mjlog of shared/data/tenhou; \
             generated from commit {}\n",
            git_head()
        );
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, header + &body).unwrap();
        eprintln!("wrote {}", path.display());
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (write it with HAIFU_DIGEST_WRITE=1)", path.display()));
    let want: BTreeMap<&str, &str> = want
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_once(' '))
        .collect();
    let got_lines: BTreeMap<&str, String> =
        got.iter().map(|(k, (d, n))| (k.as_str(), format!("{d:016x} {n}"))).collect();
    let mut diff = Vec::new();
    for (k, w) in &want {
        match got_lines.get(k) {
            Some(g) if g == w => {}
            Some(g) => diff.push(format!("{k}: want {w}, got {g}")),
            None => diff.push(format!("{k}: missing")),
        }
    }
    for k in got_lines.keys().filter(|k| !want.contains_key(*k)) {
        diff.push(format!("{k}: new column (not in {EXPECTED})"));
    }
    assert!(diff.is_empty(), "{} of {} columns differ:\n{}", diff.len(), want.len(), diff.join("\n"));
}
