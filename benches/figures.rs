//! What issue 55's figures cost (`make bench-figures`): a player's summary over `haifu review`, and
//! the agreement figures over `haifu stats`, on the same games, in one sitting.
//!
//! The games: every k-th of the sorted top-level `*.mjlog` files of `../shared/data/tenhou`,
//! `HAIFU_BENCH_GAMES` of them (default 20) for the review, `HAIFU_BENCH_STATS_GAMES` (default
//! 40) for stats, with `HAIFU_BENCH_JOBS` threads (default 2). Each pair of runs times the plain
//! command and the command with the figures back to back (which goes first alternates), into fresh
//! temporary folders, `HAIFU_BENCH_RUNS` pairs (default 5) after one warm-up pair; the line gives
//! the medians and their ratio:
//! - review: [`review_batch`] (pages and index of seat 0's games) against the same plus
//!   [`summarize`] and [`write`] (the summary over those games);
//! - stats: `compute_shard` + `output::write` against the same with the models (`--agreement`),
//!   judging in the replay, then reading the option rows off an ingest of the same games
//!   (`--agreement --data`; the ingest is made once, before the timed runs).
//!
//! The weights are `HAIFU_BENCH_WEIGHTS` (default: the shipped ones). Without `--bench` (as `make
//! test` runs it), one pair of each on 2 games checks that the paths run.

use std::path::PathBuf;
use std::time::Instant;

use haifu::model::judges::Models;
use haifu::report::review::Who;
use haifu::report::review_batch::review_batch;
use haifu::report::review_summary::{summarize, write};
use haifu::stats::Judging;

mod support;
use support::{env_usize, median};

fn spread(all: &[PathBuf], n: usize) -> Vec<PathBuf> {
    let n = n.clamp(1, all.len());
    all.iter().step_by((all.len() / n).max(1)).take(n).cloned().collect()
}

/// Times `a` and `b` in `runs` pairs after one warm-up pair, alternating which goes first.
fn pairs(runs: usize, mut a: impl FnMut(), mut b: impl FnMut()) -> (Vec<f64>, Vec<f64>) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64()
    };
    for run in 0..=runs {
        let (x, y) = if run % 2 == 0 {
            let x = time(&mut a);
            (x, time(&mut b))
        } else {
            let y = time(&mut b);
            (time(&mut a), y)
        };
        if run > 0 {
            ta.push(x);
            tb.push(y);
        }
    }
    (ta, tb)
}

fn report(what: &str, plain: &str, with: &str, games: usize, ta: Vec<f64>, tb: Vec<f64>) {
    let (ma, mb) = (median(ta.clone()), median(tb.clone()));
    println!(
        "{what}: {games} games, {} pairs: {plain} median {ma:.3} s, {with} median {mb:.3} s, ratio {:.3} \
         ({plain} {:.3}-{:.3} s, {with} {:.3}-{:.3} s)",
        ta.len(),
        mb / ma,
        ta.iter().copied().fold(f64::MAX, f64::min),
        ta.iter().copied().fold(0.0, f64::max),
        tb.iter().copied().fold(f64::MAX, f64::min),
        tb.iter().copied().fold(0.0, f64::max),
    );
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let Some(all) = haifu::testdata::bench_tenhou_files("figures bench", &[".mjlog"]) else {
        return;
    };
    let runs = if bench { env_usize("HAIFU_BENCH_RUNS", 5).max(1) } else { 1 };
    let jobs = Some(env_usize("HAIFU_BENCH_JOBS", 2).max(1));
    let weights = std::env::var("HAIFU_BENCH_WEIGHTS").ok().map(PathBuf::from);
    let models = Models::load(weights.as_deref()).expect("weights");

    let files = spread(&all, if bench { env_usize("HAIFU_BENCH_GAMES", 20) } else { 2 });
    let who = Who::Seat(0);
    let review = |with_summary: bool| {
        let dir = tempfile::tempdir().unwrap();
        let pages = dir.path().join("pages");
        let r = review_batch(&files, &who, &models, &pages, None, jobs).expect("review batch");
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        if with_summary {
            let sum = dir.path().join("summary");
            std::fs::create_dir_all(&sum).unwrap();
            let s = summarize("seat 0", &r.entries, &[], &pages, &sum);
            write(&s, &sum).expect("summary");
            assert_eq!(s.games, files.len());
        }
    };
    let (ta, tb) = pairs(runs, || review(false), || review(true));
    report("review", "review", "review + summary", files.len(), ta, tb);

    let files = spread(&all, if bench { env_usize("HAIFU_BENCH_STATS_GAMES", 40) } else { 2 });
    let stats = |judging: Option<Judging>| {
        let dir = tempfile::tempdir().unwrap();
        let run = haifu::stats::compute_shard(&files, jobs, haifu::batch::Shard::default(), false, judging)
            .expect("stats");
        assert!(run.errors.is_empty(), "{:?}", run.errors);
        assert_eq!(run.agreement.is_empty(), judging.is_none());
        haifu::stats::output::write(&run, dir.path(), 10).expect("stats output");
    };
    let (ta, tb) = pairs(runs, || stats(None), || stats(Some(Judging::Replay(&models))));
    report("stats", "stats", "stats --agreement", files.len(), ta, tb);
    // The same figures read off an ingest of the same games (made once, not timed).
    let ingested = tempfile::tempdir().unwrap();
    let opts = haifu::dataset::ingest::IngestOptions { jobs, ..Default::default() };
    haifu::dataset::ingest::run(&files, ingested.path(), &opts).expect("ingest");
    let data = Judging::Data(&models, ingested.path());
    let (ta, tb) = pairs(runs, || stats(None), || stats(Some(data)));
    report("stats", "stats", "stats --agreement --data", files.len(), ta, tb);
}
