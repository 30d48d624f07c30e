//! `haifu convert` throughput on real games: games/s, median over repeated runs; `--to mjai`, or
//! `--to tenhou6` with `HAIFU_BENCH_TO=tenhou6`.
//!
//! The games are the ingest bench's: every k-th of the sorted top-level `*.mjlog` files of
//! `../shared/data/tenhou` (or `$HAIFU_SHARED/data/tenhou`), `HAIFU_BENCH_GAMES` of them (default
//! 40). Each run converts them all into a fresh temporary folder with `HAIFU_BENCH_JOBS` threads
//! (default 2), reading, replaying, re-scoring, writing, reading back and gzipping as `haifu
//! convert` does; `HAIFU_BENCH_RUNS` runs (default 5) after one warm-up. Run with
//! `cargo bench --bench convert`.

use std::path::PathBuf;
use std::time::Instant;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    // `cargo test --benches` runs bench binaries with no `--bench` flag: do nothing then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let Some(all) = haifu::testdata::bench_tenhou_files("convert bench", &[".mjlog"]) else {
        return;
    };
    let n = env_usize("HAIFU_BENCH_GAMES", 40).min(all.len()).max(1);
    let runs = env_usize("HAIFU_BENCH_RUNS", 5).max(1);
    let jobs = env_usize("HAIFU_BENCH_JOBS", 2).max(1);
    let to = match std::env::var("HAIFU_BENCH_TO").as_deref() {
        Ok("tenhou6") => haifu::convert::Target::Tenhou6,
        _ => haifu::convert::Target::Mjai,
    };
    let step = all.len() / n;
    let files: Vec<PathBuf> = all.into_iter().step_by(step.max(1)).take(n).collect();
    let mut rates = Vec::new();
    for run in 0..=runs {
        let out = tempfile::tempdir().unwrap();
        let opts =
            haifu::convert::Options { to, out: out.path().to_path_buf(), jobs: Some(jobs), resume: false };
        let t = Instant::now();
        let s = haifu::convert::run(&files, &opts);
        let el = t.elapsed().as_secs_f64();
        assert!(s.failed.is_empty() && s.write_errors.is_empty(), "{:?}", s.failed);
        if run > 0 {
            eprintln!("run {run}: {el:.3} s, {:.0} games/s", s.written as f64 / el);
            rates.push(s.written as f64 / el);
        }
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "convert --to {to:?}: {} games, --jobs {jobs}, median {:.0} games/s over {runs} runs",
        files.len(),
        rates[rates.len() / 2]
    );
}
