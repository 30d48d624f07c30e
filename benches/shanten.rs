//! Shanten speed on the 40,000 kobalab hands, in one run so the ratios are fair:
//! - necessary and unnecessary kinds uncached, `hand::replacement` against the `xiangting` crate
//!   it replaced (the same results, its tests check);
//! - the cached queries ingest makes (`min_shanten`, `necessary_kinds`);
//! - our per-suit DP (standard form, and all forms).
//!
//! Needs ../shared (or HAIFU_SHARED).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use haifu::hand::replacement::{query, Kinds};
use haifu::hand::shanten::{min_shanten, necessary_kinds, shanten_all, standard};
use haifu::tile::{counts_of, Counts};
use xiangting::PlayerCount::Four;

/// The kobalab hands at 13 tiles, as the evaluators see them after a discard (the 14th tile
/// dropped), and at 14, as the discard step sees them; read once.
fn hands() -> (Vec<Counts>, Vec<Counts>) {
    let Some(hands) = haifu::testdata::bench_kobalab_hands("shanten bench") else {
        return (Vec::new(), Vec::new());
    };
    hands
        .into_iter()
        .map(|(tiles, _)| {
            let fourteen = counts_of(&tiles);
            let mut thirteen = fourteen;
            thirteen[tiles[13].kind()] -= 1;
            (thirteen, fourteen)
        })
        .unzip()
}

/// A kinds query: the kinds bit set of one hand.
type KindsQuery = fn(&Counts) -> u64;

fn bench(c: &mut Criterion) {
    let (hands, fourteen) = hands();
    if hands.is_empty() {
        return;
    }
    // Build the tables before timing.
    let _ = query(&hands[0], Kinds::None);
    let mut g = c.benchmark_group("shanten_40k");
    g.throughput(Throughput::Elements(hands.len() as u64));
    let uncached: [(&str, &[Counts], KindsQuery); 4] = [
        ("replacement_necessary_uncached", &hands, |h| query(h, Kinds::Necessary).unwrap().1),
        ("xiangting_crate_necessary_uncached", &hands, |h| {
            xiangting::calculate_necessary_tiles(h, Four).unwrap().1
        }),
        ("replacement_unnecessary_uncached", &fourteen, |h| query(h, Kinds::Unnecessary).unwrap().1),
        ("xiangting_crate_unnecessary_uncached", &fourteen, |h| {
            xiangting::calculate_unnecessary_tiles(h, Four).unwrap().1
        }),
    ];
    for (name, set, kinds) in uncached {
        g.bench_function(name, |b| b.iter(|| set.iter().map(|h| kinds(h).count_ones()).sum::<u32>()));
    }
    g.bench_function("cached_min_shanten", |b| {
        b.iter(|| hands.iter().map(|h| min_shanten(h) as i32).sum::<i32>())
    });
    g.bench_function("cached_necessary_kinds", |b| {
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
