//! Expected-value evaluator speed: `rank` (every discard, fresh memo) on real 14-tile hands at
//! minimum shanten 1 and 2. Until real-record positions are wired, the hands are kobalab's
//! shanten vectors (/work/shared/data/kobalab/xiangting_*.json, field q) filtered by the
//! minimum of x, in East round, South seat, with nothing visible. Needs ../shared (or
//! HAIFU_SHARED).
//!
//! Besides criterion's per-batch figures, it prints the per-position distribution (mean,
//! median, p99, max over positions; each position timed on its own with a fresh memo).

use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use haifu::eval::expected_value::EvSearch;
use haifu::eval::Position;
use haifu::hand::shanten::min_shanten;
use haifu::hand::Hand;
use haifu::tile::{counts_of, EAST};

const PER_SHANTEN: usize = 500;

fn positions(shanten: i8) -> Vec<Position> {
    let Some(hands) = haifu::testdata::kobalab_hands() else { return Vec::new() };
    let mut out = Vec::new();
    for (tiles, _) in hands {
        if min_shanten(&counts_of(&tiles)) != shanten {
            continue;
        }
        out.push(Position::new(Hand::new(tiles, vec![]), vec![], EAST, EAST + 1));
        if out.len() == PER_SHANTEN {
            return out;
        }
    }
    out
}

fn distribution(label: &str, positions: &[Position]) {
    // One warm-up pass (tables, allocator), then each position's time is the best of three runs,
    // each with a fresh memo: the figure is the search's cost, not the shared machine's noise.
    for p in positions {
        std::hint::black_box(EvSearch::new(p).rank());
    }
    let mut ms: Vec<f64> = positions
        .iter()
        .map(|p| {
            (0..3)
                .map(|_| {
                    let t = Instant::now();
                    std::hint::black_box(EvSearch::new(p).rank());
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
    for s in [1, 2] {
        let ps = positions(s);
        if ps.is_empty() {
            return;
        }
        let label = format!("ev_rank_{s}_shanten");
        distribution(&label, &ps);
        let mut g = c.benchmark_group(&label);
        g.sample_size(10);
        g.throughput(Throughput::Elements(ps.len() as u64));
        g.bench_function("all_positions", |b| {
            b.iter(|| ps.iter().map(|p| EvSearch::new(p).rank()[0].score).sum::<f64>())
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
