//! Where ingest's expected-value time goes: per 14-tile shanten, the time of the option values
//! (one search per decision, every distinct discard, as ingest computes them) over every k-th
//! shared mjlog, and the memo size per decision. With `KEPT=1` only the discards that keep the
//! hand's shanten are valued (what 電脳麻将 itself searches), to show what the others cost.
//!
//!     cargo run --release --example ev_split -- [GAMES]
use haifu::dataset::rows::discard_positions;
use haifu::hand::shanten::min_shanten;
use haifu::rank::expected_value::EvSearch;
use std::time::Instant;
fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let all = haifu::testdata::tenhou_files(&[".mjlog"]).expect("shared");
    let step = all.len() / n;
    let mut t = [0f64; 8];
    let mut c = [0usize; 8];
    let mut memo = [0usize; 8];
    for f in all.iter().step_by(step).take(n) {
        let game = haifu::log::source::Source::file(f).load().unwrap();
        for p in discard_positions(&game).unwrap() {
            let s = (min_shanten(&p.hand_counts()) + 1).clamp(0, 7) as usize;
            let st = Instant::now();
            let mut ev = EvSearch::new(&p).with_view_reds();
            let kept = std::env::var("KEPT").is_ok();
            let root = min_shanten(&p.hand_counts());
            let hand = p.full_hand();
            for tile in hand.distinct_tiles() {
                if kept {
                    let h = hand.without(tile).unwrap();
                    if min_shanten(&h.counts()) != root {
                        continue;
                    }
                }
                std::hint::black_box(ev.discard_value(tile));
            }
            memo[s] += ev.memo_len();
            t[s] += st.elapsed().as_secs_f64();
            c[s] += 1;
        }
    }
    let tot: f64 = t.iter().sum();
    for s in 0..8 {
        if c[s] > 0 {
            println!(
                "shanten {:>2}: {:>6} decisions {:>8.3} s ({:>5.1}%) {:>8.1} us/dec memo {:.0}",
                s as i32 - 1,
                c[s],
                t[s],
                100.0 * t[s] / tot,
                1e6 * t[s] / c[s] as f64,
                memo[s] as f64 / c[s] as f64
            );
        }
    }
    println!("total {tot:.3} s");
}
