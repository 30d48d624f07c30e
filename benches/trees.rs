//! Trees model speed: option rows scored per second on one core, for a model of the size `make
//! trees` aims at (500 trees of 63 leaves over the catalog's option columns; HAIFU_BENCH_TREES and
//! HAIFU_BENCH_LEAVES change it), and TreeSHAP explanations per second. Before criterion's
//! wall-clock figures it prints rows per CPU-second of the batch scorer (this thread's CPU time,
//! so other jobs on the machine do not count against it).
//!
//! The model is synthetic, written in LightGBM's text format and read by `model::trees` like a
//! real one: each tree grows leaf by leaf on 4,096 synthetic training rows (the leaf to split drawn
//! by its row count, a random feature, a threshold between two of the leaf's values at a random
//! quantile), so the rows' paths are as deep as data makes them. The rows look like option rows:
//! most columns flags (0/1), some small counts, a few continuous values. Splits have missing type
//! None, as LightGBM writes them for columns without NaN (haifu's option columns have none).
//!
//! - `batch`: `Trees::predict_rows` over 4,096 rows (model feature order);
//! - `score_options`: decisions of 9 options as the dataset builds them (catalog order, gathered
//!   into the model's order by a `Layout`);
//! - `contributions`: TreeSHAP of single rows.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use haifu::features::catalog::{catalog_width, names};
use haifu::model::trees::{Layout, Trees};

/// Trees and leaves a tree of the synthetic model: 500 and 63 unless HAIFU_BENCH_TREES and
/// HAIFU_BENCH_LEAVES say otherwise.
fn size() -> (usize, usize) {
    let var = |k: &str, d| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
    (var("HAIFU_BENCH_TREES", 500), var("HAIFU_BENCH_LEAVES", 63))
}
const TRAINING_ROWS: usize = 4096;

struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `n` option-like rows of `width` columns: column j is a flag (j % 10 < 6) set with a per-column
/// probability, a count 0..12 (6..9) or a continuous value (9).
fn rows(seed: u64, n: usize, width: usize) -> Vec<f32> {
    let mut g = SplitMix64(seed);
    let p: Vec<f64> = (0..width).map(|j| 0.05 + 0.45 * ((j * 37 % 100) as f64 / 100.0)).collect();
    (0..n * width)
        .map(|i| {
            let j = i % width;
            match j % 10 {
                0..=5 => (g.unit() < p[j]) as u8 as f32,
                6..=8 => g.below(13) as f32,
                _ => (g.unit() * 100.0) as f32,
            }
        })
        .collect()
}

/// A split of a tree being grown: children as the format writes them (`!leaf` for a leaf).
struct Split {
    feature: usize,
    threshold: f64,
    left: i64,
    right: i64,
    count: usize,
}

/// A leaf of a tree being grown: its training rows and the slot that points to it.
struct Leaf {
    rows: Vec<u32>,
    /// The split whose left (false) or right (true) child it is.
    parent: Option<(usize, bool)>,
}

/// Splits a leaf of `leaves` drawn by row count (see the module doc); false when 20 random
/// features could not split it.
fn grow(
    g: &mut SplitMix64,
    data: &[f32],
    width: usize,
    splits: &mut Vec<Split>,
    leaves: &mut Vec<Leaf>,
) -> bool {
    let total: usize = leaves.iter().map(|l| l.rows.len()).sum();
    let (mut pick, mut l) = (g.below(total), 0);
    while pick >= leaves[l].rows.len() {
        pick -= leaves[l].rows.len();
        l += 1;
    }
    for _ in 0..20 {
        let feature = g.below(width);
        let mut v: Vec<f32> = leaves[l].rows.iter().map(|&r| data[r as usize * width + feature]).collect();
        v.sort_by(f32::total_cmp);
        let at = ((0.05 + 0.9 * g.unit()) * (v.len() - 1) as f64) as usize;
        let Some(k) = (at..v.len() - 1).find(|&k| v[k] < v[k + 1]) else { continue };
        let threshold = (v[k] as f64 + v[k + 1] as f64) / 2.0;
        let rows = std::mem::take(&mut leaves[l].rows);
        let (left, right): (Vec<u32>, Vec<u32>) =
            rows.iter().partition(|&&r| data[r as usize * width + feature] as f64 <= threshold);
        let s = splits.len();
        match leaves[l].parent {
            Some((p, true)) => splits[p].right = s as i64,
            Some((p, false)) => splits[p].left = s as i64,
            None => {}
        }
        let (left_leaf, right_leaf) = (!(l as i64), !(leaves.len() as i64));
        splits.push(Split { feature, threshold, left: left_leaf, right: right_leaf, count: rows.len() });
        leaves[l] = Leaf { rows: left, parent: Some((s, false)) };
        leaves.push(Leaf { rows: right, parent: Some((s, true)) });
        return true;
    }
    false
}

/// One synthetic tree in LightGBM's text format (see the module doc).
fn tree(g: &mut SplitMix64, index: usize, data: &[f32], width: usize, max_leaves: usize) -> String {
    let mut splits = Vec::new();
    let mut leaves = vec![Leaf { rows: (0..(data.len() / width) as u32).collect(), parent: None }];
    while leaves.len() < max_leaves && grow(g, data, width, &mut splits, &mut leaves) {}
    let join = |v: Vec<String>| v.join(" ");
    format!(
        "Tree={index}\nnum_leaves={}\nnum_cat=0\nsplit_feature={}\nthreshold={}\ndecision_type={}\n\
         left_child={}\nright_child={}\nleaf_value={}\nleaf_count={}\ninternal_count={}\nis_linear=0\n\
         shrinkage=0.05\n\n\n",
        leaves.len(),
        join(splits.iter().map(|s| s.feature.to_string()).collect()),
        join(splits.iter().map(|s| format!("{:?}", s.threshold)).collect()),
        join(vec!["2".to_string(); splits.len()]),
        join(splits.iter().map(|s| s.left.to_string()).collect()),
        join(splits.iter().map(|s| s.right.to_string()).collect()),
        join(leaves.iter().map(|_| format!("{:?}", (g.unit() - 0.5) * 0.1)).collect()),
        join(leaves.iter().map(|l| l.rows.len().to_string()).collect()),
        join(splits.iter().map(|s| s.count.to_string()).collect()),
    )
}

/// The synthetic model over the catalog's columns, in catalog order.
fn model(trees: usize, leaves: usize) -> Trees {
    let width = catalog_width();
    let data = rows(1, TRAINING_ROWS, width);
    let mut g = SplitMix64(2);
    let mut text = format!(
        "tree\nversion=v4\nnum_class=1\nnum_tree_per_iteration=1\nlabel_index=0\nmax_feature_idx={}\n\
         objective=lambdarank\nfeature_names={}\n\n",
        width - 1,
        names().join(" ")
    );
    for t in 0..trees {
        text.push_str(&tree(&mut g, t, &data, width, leaves));
    }
    text.push_str("end of trees\n");
    Trees::parse(&text).expect("the synthetic model reads")
}

/// Nanoseconds this thread has run on a CPU (Linux's schedstat), so the figure is per core even
/// when other jobs share the machine; None elsewhere.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Rows per CPU-second of `predict_rows` over `x`: the median of 7 runs of at least 0.5 s each.
fn per_core(trees: &Trees, x: &[f32], n: usize) -> Option<f64> {
    let mut rates = Vec::new();
    for _ in 0..7 {
        let (start, mut rows) = (cpu_ns()?, 0);
        while cpu_ns()? - start < 500_000_000 {
            std::hint::black_box(trees.predict_rows(x));
            rows += n;
        }
        rates.push(rows as f64 / ((cpu_ns()? - start) as f64 / 1e9));
    }
    rates.sort_by(f64::total_cmp);
    Some(rates[3])
}

/// The shipped model's speed on real decisions (when `data/weights/trees.txt.gz`, or the model
/// HAIFU_BENCH_TREES_MODEL names, and the shared games are there): every discard decision of
/// every 250th shared game, ingest's rows, scored as `eval` and `review` score them (`TreesRanker::score_rows`: the relative and context columns,
/// the gather into the model's order, the batch scorer). Rows per CPU-second, median of 7.
fn shipped(benchmarking: bool) {
    use haifu::model::trees::inputs::Situation;
    use haifu::model::trees::TreesRanker;
    // HAIFU_BENCH_TREES_MODEL: another discard model (a depth-limited one, say) in its place.
    let model = std::env::var_os("HAIFU_BENCH_TREES_MODEL").map(std::path::PathBuf::from);
    let Ok(ranker) = TreesRanker::load(model.as_deref()) else {
        println!("shipped trees model: skipped (no data/weights/trees.txt.gz: make trees)");
        return;
    };
    let Some(files) = haifu::testdata::bench_tenhou_files("shipped trees model", &[".mjlog"]) else {
        return;
    };
    let width = catalog_width();
    let mut decisions: Vec<(Vec<f32>, Situation)> = Vec::new();
    for f in files.iter().step_by(250).take(if benchmarking { 20 } else { 1 }) {
        let game = haifu::log::source::parse_game("g", &std::fs::read(f).unwrap()).unwrap();
        let rows = haifu::dataset::rows::game_rows(&game).unwrap();
        for (i, d) in rows.decisions.iter().enumerate() {
            if d.kind != haifu::replay::decision::DecisionKind::Discard {
                continue;
            }
            let (a, b) = (rows.option_ptr[i] as usize, rows.option_ptr[i + 1] as usize);
            let situation =
                Situation::of_decision(d.turn, d.wall_left, d.round_wind, d.dealer, d.scoreboard());
            decisions.push((rows.values[a * width..b * width].to_vec(), situation));
        }
    }
    let n: usize = decisions.iter().map(|(v, _)| v.len() / width).sum();
    let score_all = || {
        for (v, s) in &decisions {
            let refs: Vec<&[f32]> = v.chunks_exact(width).collect();
            std::hint::black_box(ranker.score_rows(&refs, *s));
        }
    };
    if !benchmarking {
        score_all();
        return;
    }
    let mut rates = Vec::new();
    for _ in 0..7 {
        let (Some(start), mut rows) = (cpu_ns(), 0) else { return };
        while cpu_ns().unwrap() - start < 500_000_000 {
            score_all();
            rows += n;
        }
        rates.push(rows as f64 / ((cpu_ns().unwrap() - start) as f64 / 1e9));
    }
    rates.sort_by(f64::total_cmp);
    let t = ranker.trees();
    println!(
        "shipped trees model ({} trees, {} features): {} decisions, {n} option rows: {:.0} rows per CPU-second \
         (median of 7)",
        t.len(),
        t.feature_names().len(),
        decisions.len(),
        rates[3]
    );
    // Explanations (TreeSHAP of every option, as `nanikiru --explain` asks): decisions in turn,
    // for 2 CPU-seconds a run.
    let mut rates = Vec::new();
    let mut next = decisions.iter().cycle();
    for _ in 0..5 {
        let (Some(start), mut rows) = (cpu_ns(), 0) else { return };
        while cpu_ns().unwrap() - start < 2_000_000_000 {
            let (v, s) = next.next().expect("decisions");
            let refs: Vec<&[f32]> = v.chunks_exact(width).collect();
            rows += std::hint::black_box(ranker.contribution_rows(&refs, *s)).len();
        }
        rates.push(rows as f64 / ((cpu_ns().unwrap() - start) as f64 / 1e9));
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "shipped trees model: {:.1} option rows explained (TreeSHAP) per CPU-second (median of 5)",
        rates[2]
    );
}

fn bench(c: &mut Criterion) {
    let benchmarking = std::env::args().any(|a| a == "--bench");
    shipped(benchmarking);
    let (n_trees, n_leaves) = size();
    let trees = model(n_trees, n_leaves);
    let width = catalog_width();
    let n = 4096;
    let x = rows(3, n, width);
    // Only when benchmarking: `cargo test --bench trees` runs each function once, as a test.
    if let Some(r) = benchmarking.then(|| per_core(&trees, &x, n)).flatten() {
        println!(
            "trees {n_trees}x{n_leaves}, {width} features: batch {r:.0} rows per CPU-second (median of 7)"
        );
    }
    let mut g = c.benchmark_group(format!("trees_{n_trees}x{n_leaves}_{width}_features"));
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("batch", |b| b.iter(|| std::hint::black_box(trees.predict_rows(&x))));
    let layout = Layout::catalog(&trees, &[]).unwrap();
    let options: Vec<&[f32]> = x.chunks_exact(width).collect();
    g.bench_function("score_options", |b| {
        b.iter(|| {
            for decision in options.chunks(9) {
                std::hint::black_box(trees.score_options(&layout, decision, &[]));
            }
        })
    });
    let wide: Vec<f64> = x[..16 * width].iter().map(|&v| v as f64).collect();
    g.throughput(Throughput::Elements(16));
    g.sample_size(10);
    g.bench_function("contributions", |b| {
        b.iter(|| {
            for r in wide.chunks_exact(width) {
                std::hint::black_box(trees.contributions(r));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
