//! `haifu ingest` throughput on real games: games/s and decisions/s, medians over repeated runs.
//!
//! The games: every k-th of the sorted top-level `*.mjlog` files of `../shared/data/tenhou` (or
//! `$HAIFU_SHARED/data/tenhou`), spread over the whole corpus, `HAIFU_BENCH_GAMES` of them
//! (default 40). Each run ingests them all into a fresh temporary folder with
//! `HAIFU_BENCH_JOBS` threads (default 2), the way `haifu ingest` does (parquet included);
//! `HAIFU_BENCH_RUNS` runs (default 5) after one warm-up run; the default column groups (as a
//! default `haifu ingest`), or those `HAIFU_BENCH_SKIP=ev` and `HAIFU_BENCH_WITH=ukeire2` choose
//! (as `--skip` and `--with`). The line ends with the last run's writer
//! figures (CPU per game of the writer thread and of the writer pool, and the games/s at which
//! writing alone would saturate, [`haifu::dataset::ingest::IngestSummary::writer_ceiling`]), so a
//! change that loads the writer shows beside the rate. Run with `make bench-ingest` or
//! `cargo bench --bench ingest`.

use std::path::PathBuf;
use std::time::Instant;

mod support;
use support::{env_usize, median};

fn main() {
    // `cargo test --benches` runs bench binaries with no `--bench` flag: do nothing then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let Some(all) = haifu::testdata::bench_tenhou_files("ingest bench", &[".mjlog"]) else {
        return;
    };
    let n = env_usize("HAIFU_BENCH_GAMES", 40).min(all.len()).max(1);
    let runs = env_usize("HAIFU_BENCH_RUNS", 5).max(1);
    let jobs = env_usize("HAIFU_BENCH_JOBS", 2).max(1);
    let groups = |var: &str| {
        haifu::dataset::skip::Skip::parse(&std::env::var(var).unwrap_or_default())
            .unwrap_or_else(|e| panic!("{var}: {e}"))
    };
    let skip = haifu::dataset::skip::Skip::choose(groups("HAIFU_BENCH_SKIP"), groups("HAIFU_BENCH_WITH"))
        .unwrap_or_else(|e| panic!("HAIFU_BENCH_SKIP / HAIFU_BENCH_WITH: {e}"));
    let step = all.len() / n;
    let files: Vec<PathBuf> = all.into_iter().step_by(step.max(1)).take(n).collect();
    let mut secs = Vec::new();
    let mut summary = None;
    for run in 0..=runs {
        let out = tempfile::tempdir().unwrap();
        let t = Instant::now();
        let opts = haifu::dataset::ingest::IngestOptions { jobs: Some(jobs), skip, ..Default::default() };
        let s = haifu::dataset::ingest::run(&files, out.path(), &opts).expect("ingest");
        let el = t.elapsed().as_secs_f64();
        assert!(s.tally.errors.is_empty(), "{:?}", s.tally.errors);
        if run > 0 {
            eprintln!("run {run}: {el:.2} s");
            secs.push(el);
        }
        summary = Some(s);
    }
    let s = summary.unwrap();
    let games_per_s: Vec<f64> = secs.iter().map(|t| s.tally.games as f64 / t).collect();
    let decisions_per_s: Vec<f64> = secs.iter().map(|t| s.tally.decisions as f64 / t).collect();
    let ms = |secs: f64| 1e3 * secs / s.tally.games.max(1) as f64;
    let ceiling = s.writer_ceiling(s.tally.games).map_or("-".to_string(), |c| format!("{c:.0}"));
    println!(
        "ingest: {} games, {} decisions, {} options, --jobs {jobs}{}, {runs} runs: median {:.2} s, \
         {:.2} games/s, {:.0} decisions/s (min {:.2} s, max {:.2} s); writer thread {:.2} ms/game, \
         pool {:.2} ms/game, writing saturates at {ceiling} games/s",
        s.tally.games,
        s.tally.decisions,
        s.tally.options,
        if skip.is_empty() { String::new() } else { format!(" --skip {skip}") },
        median(secs.clone()),
        median(games_per_s),
        median(decisions_per_s),
        secs.iter().cloned().fold(f64::INFINITY, f64::min),
        secs.iter().cloned().fold(0.0, f64::max),
        ms(s.writer_cpu_seconds),
        ms(s.writer_pool_cpu_seconds),
    );
}
