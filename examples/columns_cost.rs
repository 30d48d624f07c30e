//! What turning option rows into typed columns costs ([`haifu::dataset::storage::columns`]):
//! 43,200 synthetic rows of the option schema (8 games' worth; flags 0/1, small whole numbers,
//! fractions in the float columns), converted 40 times, best time per 5,400 rows (one game).
//!
//!   cargo run --release --example columns_cost
//!
//! Why: the conversion was 4.5% of ingest's CPU in perf (issue 36); this times it alone, so a
//! change to its blocking can be judged without the noise of a whole ingest.

use haifu::dataset::storage::{columns, types, Storage};

fn main() {
    let t = types();
    let w = t.len();
    let rows = 5400 * 8;
    let mut x = 12345u64;
    let mut v = Vec::with_capacity(rows * w);
    for _ in 0..rows {
        for ty in t {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v.push(match ty {
                Storage::Bool => (x % 2) as f32,
                Storage::F32 => (x % 1000) as f32 / 7.0,
                _ => (x % 5) as f32,
            });
        }
    }
    let mut best = f64::MAX;
    for _ in 0..40 {
        let s = std::time::Instant::now();
        let c = columns(&v).expect("every synthetic value fits its column");
        std::hint::black_box(&c);
        best = best.min(s.elapsed().as_secs_f64());
    }
    println!("{w} columns: best {:.3} ms per 5,400 rows", best * 1000.0 / 8.0);
}
