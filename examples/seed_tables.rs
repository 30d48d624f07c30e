//! The seed's point tables beside fitted ones (`reports/seed_tables.md`): every level column of
//! the levels family (and the seed's other scored columns) with the seed's starting points and
//! each fit's weight, scaled as the seed scales: one step of `shanten_min` = 10,000 points, so a
//! fitted value reads in the seed's own units (weight / −w(shanten_min) × 10,000).
//!
//!     cargo run --release --example seed_tables -- OUT_DIR LABEL=WEIGHTS.json [LABEL=WEIGHTS.json...]
//!
//! Writes OUT_DIR/seed_tables.table.md (the tables, for the report to include) and
//! OUT_DIR/seed_tables.png (seed and fitted points per level, in thousands).

use std::path::Path;

use haifu::model::weights::WeightsFile;
use haifu::util::plots::{lines, Line};

/// (potential, column, level, the seed's points). Penalty rows: the seed zeroes dora and red
/// points of an open hand without yaku, i.e. minus their base points.
const SEED: &[(&str, &str, &str, f64)] = &[
    ("shanten", "shanten_min", "per step", -10000.0),
    ("ukeire", "ukeire_count", "per tile", 100.0),
    ("red", "red_fives", "per red five", 5000.0),
    ("dora", "dora_value", "per dora", 5000.0),
    ("menzen", "menzen", "closed", 5000.0),
    ("yakuhai", "yakuhai_sets", "per set", 5000.0),
    ("yakuhai", "yakuhai_pairs", "per pair", 1000.0),
    ("yakuhai", "lv_yakuhai_singles", "per isolated tile", 10.0),
    ("tanyao", "lv_tanyao_0", "gap 0", 5000.0),
    ("tanyao", "lv_tanyao_1", "gap 1", 2500.0),
    ("flush", "lv_flush_0", "gap 0", 10000.0),
    ("flush", "lv_flush_1", "gap 1", 5000.0),
    ("flush", "lv_flush_2", "gap 2", 1000.0),
    ("chiitoitsu", "lv_chiitoi_neg", "gap <= -1", 10000.0),
    ("chiitoitsu", "lv_chiitoi_0", "gap 0", 5000.0),
    ("toitoi", "lv_toitoi_sets", "per set (shanten <= 3)", 2500.0),
    ("toitoi", "lv_toitoi_pairs", "per pair (shanten <= 3)", 1000.0),
    ("kokushi", "lv_kokushi_0", "0 missing", 100000.0),
    ("kokushi", "lv_kokushi_1", "1 missing", 50000.0),
    ("kokushi", "lv_kokushi_2", "2 missing", 30000.0),
    ("kokushi", "lv_kokushi_3", "3 missing", 10000.0),
    ("kokushi", "lv_kokushi_4", "4 missing", 2000.0),
    ("sanshoku", "lv_sanshoku_9", "9 tiles", 10000.0),
    ("sanshoku", "lv_sanshoku_8", "8 tiles", 8000.0),
    ("sanshoku", "lv_sanshoku_7", "7 tiles", 4000.0),
    ("sanshoku", "lv_sanshoku_6", "6 tiles", 1000.0),
    ("ittsu", "lv_ittsu_9", "9 tiles", 10000.0),
    ("ittsu", "lv_ittsu_8", "8 tiles", 8000.0),
    ("ittsu", "lv_ittsu_7", "7 tiles", 4000.0),
    ("ittsu", "lv_ittsu_6", "6 tiles", 1000.0),
    ("chanta", "lv_chanta_0", "gap 0", 10000.0),
    ("chanta", "lv_chanta_1", "gap 1", 1000.0),
    ("iipeikou", "lv_iipeikou_6", "6 tiles", 5000.0),
    ("iipeikou", "lv_iipeikou_5", "5 tiles", 3000.0),
    ("iipeikou", "lv_iipeikou_4", "4 tiles", 500.0),
    ("役なし副露", "lv_ony_dora_value", "per dora", -5000.0),
    ("役なし副露", "lv_ony_red_fives", "per red five", -5000.0),
];

/// A fit's weight of `column` in the seed's points: one `shanten_min` step = 10,000.
fn points(w: &WeightsFile, column: &str) -> Option<f64> {
    let step = -w.weight("shanten_min");
    w.features.iter().any(|f| f.name == column).then(|| w.weight(column) / step * 10000.0)
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    anyhow::ensure!(args.len() >= 2, "usage: seed_tables OUT_DIR LABEL=WEIGHTS.json...");
    let out = Path::new(&args[0]);
    let mut fits = Vec::new();
    for a in &args[1..] {
        let (label, path) = a.split_once('=').ok_or_else(|| anyhow::anyhow!("{a}: want LABEL=PATH"))?;
        fits.push((label.to_string(), WeightsFile::read(Path::new(path))?));
    }
    let mut md = String::from("| potential | column | level | # | seed |");
    for (label, _) in &fits {
        md.push_str(&format!(" {label} |"));
    }
    md.push_str("\n|---|---|---|---:|---:|");
    md.push_str(&"---:|".repeat(fits.len()));
    md.push('\n');
    for (i, (pot, col, level, seed)) in SEED.iter().enumerate() {
        md.push_str(&format!("| {pot} | `{col}` | {level} | {i} | {seed:.0} |"));
        for (_, w) in &fits {
            md.push_str(&points(w, col).map_or(" – |".to_string(), |p| format!(" {p:.0} |")));
        }
        md.push('\n');
    }
    std::fs::create_dir_all(out)?;
    std::fs::write(out.join("seed_tables.table.md"), md)?;
    // Kokushi's 100,000 would flatten the plot: the rows up to 50,000 points are drawn.
    let shown = |p: f64| p.abs() <= 50000.0;
    let mut series = vec![Line {
        name: "seed".into(),
        points: SEED
            .iter()
            .enumerate()
            .filter(|(_, r)| shown(r.3))
            .map(|(i, r)| (i as f64, r.3 / 1000.0))
            .collect(),
    }];
    for (label, w) in &fits {
        let pts = SEED
            .iter()
            .enumerate()
            .filter_map(|(i, r)| points(w, r.1).filter(|p| shown(*p)).map(|p| (i as f64, p / 1000.0)))
            .collect();
        series.push(Line { name: label.clone(), points: pts });
    }
    lines(
        &out.join("seed_tables.png"),
        "Seed's points and fitted points per level (1 shanten step = 10,000)",
        "row # of the table",
        "thousand points",
        &series,
    )
    .map_err(|e| anyhow::anyhow!("plot: {e}"))?;
    Ok(())
}
