//! Shanten speed on the 40,000 kobalab hands: our DP (standard form, and all forms) against the
//! `xiangting` tables, in one run so the ratio is fair. Needs ../shared (or HAIFU_SHARED).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use haifu::hand::shanten::{min_shanten, necessary_kinds, shanten_all, standard};
use haifu::tile::{counts_of, Counts};

fn hands() -> Vec<Counts> {
    let Some(hands) = haifu::testdata::kobalab_hands() else { return Vec::new() };
    hands
        .into_iter()
        .map(|(tiles, _)| {
            let mut counts = counts_of(&tiles);
            // 13-tile hands, as the evaluators see them after a discard: drop the 14th tile.
            counts[tiles[13].kind()] -= 1;
            counts
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let hands = hands();
    if hands.is_empty() {
        return;
    }
    let mut g = c.benchmark_group("shanten_40k");
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.bench_function("xiangting_min", |b| {
        b.iter(|| hands.iter().map(|h| min_shanten(h) as i32).sum::<i32>())
    });
    g.bench_function("xiangting_necessary_tiles", |b| {
        b.iter(|| hands.iter().map(|h| necessary_kinds(h).1.count_ones()).sum::<u32>())
    });
    g.bench_function("haifu_standard", |b| {
        b.iter(|| hands.iter().map(|h| standard(h, 0) as i32).sum::<i32>())
    });
    g.bench_function("haifu_all_forms", |b| {
        b.iter(|| hands.iter().map(|h| shanten_all(h, 0).shanten as i32).sum::<i32>())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
