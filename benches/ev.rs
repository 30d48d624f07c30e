//! Expected-value evaluator speed: `rank` (every discard, fresh memo) on real positions, the
//! discard decisions of real Tenhou games (../shared/data/tenhou, or HAIFU_SHARED) as ingest
//! evaluates them: hand with melds, winds, dora, every tile the player could see, red fives.
//! The first 500 decisions at 14-tile shanten 1 and 500 at shanten 2, from the games in file-name
//! order, every 7th decision so one game does not dominate.
//!
//! Besides criterion's per-batch figures, it prints the per-position distribution (mean,
//! median, p99, max over positions; each position timed on its own with a fresh memo).

use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use haifu::dataset::rows::discard_positions;
use haifu::hand::shanten::min_shanten;
use haifu::rank::expected_value::EvSearch;
use haifu::replay::view::View;

const PER_SHANTEN: usize = 500;

/// Real positions at 14-tile shanten 1 and 2 (empty without the shared data).
fn positions() -> [Vec<View>; 2] {
    let mut out: [Vec<View>; 2] = Default::default();
    let Some(files) = haifu::testdata::bench_tenhou_files("ev bench", &[".mjlog"]) else {
        return out;
    };
    let mut k = 0usize;
    for f in files {
        let Ok(game) = haifu::log::source::Source::file(&f).load() else { continue };
        let Ok(ps) = discard_positions(&game) else { continue };
        for p in ps {
            let s = min_shanten(&p.hand_counts());
            if !(1..=2).contains(&s) {
                continue;
            }
            k += 1;
            let slot = &mut out[s as usize - 1];
            if k % 7 == 0 && slot.len() < PER_SHANTEN {
                slot.push(p);
            }
        }
        if out.iter().all(|v| v.len() == PER_SHANTEN) {
            break;
        }
    }
    out
}

fn distribution(label: &str, positions: &[View]) {
    // One warm-up pass (tables, allocator), then each position's time is the best of three runs,
    // each with a fresh memo: the figure is the search's cost, not the shared machine's noise.
    for p in positions {
        std::hint::black_box(EvSearch::new(p).with_view_reds().rank());
    }
    let mut ms: Vec<f64> = positions
        .iter()
        .map(|p| {
            (0..3)
                .map(|_| {
                    let t = Instant::now();
                    std::hint::black_box(EvSearch::new(p).with_view_reds().rank());
                    t.elapsed().as_secs_f64() * 1e3
                })
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    let n = ms.len();
    let mean = ms.iter().sum::<f64>() / n as f64;
    println!(
        "{label}: {n} positions, per position (best of 3) mean {mean:.3} ms, median {:.3} ms, \
         p99 {:.3} ms, max {:.3} ms",
        ms[n / 2],
        ms[(n * 99 / 100).min(n - 1)],
        ms[n - 1]
    );
}

fn bench(c: &mut Criterion) {
    for (i, ps) in positions().into_iter().enumerate() {
        let s = i + 1;
        if ps.is_empty() {
            return;
        }
        let label = format!("ev_rank_{s}_shanten");
        distribution(&label, &ps);
        let mut g = c.benchmark_group(&label);
        g.sample_size(10);
        g.throughput(Throughput::Elements(ps.len() as u64));
        g.bench_function("all_positions", |b| {
            b.iter(|| ps.iter().map(|p| EvSearch::new(p).with_view_reds().rank()[0].score).sum::<f64>())
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
