//! Discard positions from real games for the golden picks of 電脳麻将 (`scripts/majiang_golden.sh`):
//! one JSON line per position, in the form `scripts/majiang_golden.js` feeds to
//! `@kobalab/majiang-ai`'s `select_dapai`.
//!
//! Positions: discard decisions right after a draw, with nobody in riichi (電脳麻将's danger logic
//! is not ours to reproduce), from every 10th sorted top-level `*.mjlog` of the shared corpus;
//! then, per shanten of the 14-tile hand (0, 1, 2, 3, 4+), `PER` positions evenly spread over
//! all of them (default 500). The hand is written in majiang notation with the drawn tile last
//! (majiang-core's `Shoupai.fromString` makes the last tile the draw), melds after commas; the
//! unseen counts are the player's own (every tile they hold or have seen is gone), per suit
//! with index 0 = the red five.
//!
//!     cargo run --release --example majiang_positions -- [PER] > positions.jsonl
//!
//! With `--open`, open hands only (a called meld; closed kans alone do not open a hand), held out from the sample above (every 10th file from the 6th,
//! so other games): a stratum of open hands at tenpai without a yaku (every discard that keeps
//! tenpai is worth 0 to `ev`; up to 2 × `PER` of them), then `PER` open hands per shanten 0, 1, 2,
//! 3, 4+ (default 60), each position once. Each line also says its `stratum`
//! (`open-tenpai-no-yaku` or `open`).
//!
//!     cargo run --release --example majiang_positions -- --open [PER] > open.jsonl

use haifu::dataset::rows::discard_positions;
use haifu::hand::majiang::format_meld;
use haifu::hand::meld::MeldKind;
use haifu::hand::shanten::min_shanten;
use haifu::rank::expected_value::EvSearch;
use haifu::replay::view::View;
use haifu::score::ScoreRules;
use haifu::tile::Tile;

fn digit(t: &Tile) -> char {
    char::from(b'0' + if t.is_red() { 0 } else { t.number() })
}

fn position_json(id: &str, p: &View) -> Option<serde_json::Value> {
    let drawn = p.drawn?;
    let mut rest = p.hand.clone();
    let at = rest.iter().position(|t| *t == drawn)?;
    rest.remove(at);
    let mut hand = haifu::tile::format_majiang(&rest);
    hand.push(['m', 'p', 's', 'z'][drawn.suit()]);
    hand.push(digit(&drawn));
    for m in &p.melds {
        hand.push(',');
        hand.push_str(&format_meld(m));
    }
    let concealed = p.hand_counts();
    let paishu = haifu::rank::majiang_position::paishu(p);
    let baopai: Vec<String> =
        p.dora_indicators.iter().map(|t| format!("{}{}", ['m', 'p', 's', 'z'][t.suit()], digit(t))).collect();
    Some(serde_json::json!({
        "id": id,
        "shoupai": hand,
        "zhuangfeng": p.round_wind - 27,
        "menfeng": p.seat_wind - 27,
        "baopai": baopai,
        "red": p.red_fives,
        "paishu": paishu,
        "shanten": min_shanten(&concealed),
    }))
}

/// An open hand at tenpai whose every tenpai-keeping discard is worth 0 to `ev` (no yaku in reach
/// of any wait, or every wait dead): where 電脳麻将's pick comes down to its tie order and the
/// shanten-back rule.
fn open_tenpai_without_yaku(p: &View) -> bool {
    let r = EvSearch::new(p).with_view_reds().with_rules(ScoreRules::MAJIANG).rank();
    r.iter().filter(|o| o.shanten == 0).all(|o| o.score <= 0.0)
}

/// Up to `per` of `bucket`, evenly spread over it.
fn spread(bucket: &[serde_json::Value], per: usize) -> Vec<&serde_json::Value> {
    let step = (bucket.len() as f64 / per as f64).max(1.0);
    let mut out = Vec::new();
    let mut x = 0.0;
    while (x as usize) < bucket.len() {
        out.push(&bucket[x as usize]);
        x += step;
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let open = args.iter().any(|a| a == "--open");
    let per: Option<usize> = args.iter().find_map(|a| a.parse().ok());
    let Some(files) = haifu::testdata::tenhou_files(&[".mjlog"]) else {
        eprintln!("majiang_positions: no ../shared/data/tenhou (set HAIFU_SHARED)");
        std::process::exit(2);
    };
    if open {
        open_sample(&files, per.unwrap_or(60));
    } else {
        sample(&files, per.unwrap_or(500));
    }
}

/// The positions after a draw with nobody in riichi of every 10th file from `first`, with the
/// 14-tile hand's shanten: `(shanten, position, id)`.
fn positions(files: &[std::path::PathBuf], first: usize) -> Vec<(i8, View, String)> {
    let picked: Vec<std::path::PathBuf> = files.iter().skip(first).step_by(10).cloned().collect();
    let mut out = Vec::new();
    for game in haifu::batch::load_all(&picked).games {
        let Ok(ps) = discard_positions(&game) else { continue };
        for (i, e) in ps.into_iter().enumerate() {
            if e.riichi || e.riichi_opponents().next().is_some() || e.drawn.is_none() {
                continue;
            }
            let s = min_shanten(&e.hand_counts());
            if s >= 0 {
                out.push((s, e, format!("{}#{i}", game.id)));
            }
        }
    }
    out
}

/// The closed-and-open sample: `per` positions per shanten 0..4+.
fn sample(files: &[std::path::PathBuf], per: usize) {
    let mut buckets: Vec<Vec<serde_json::Value>> = vec![Vec::new(); 5];
    for (s, e, id) in positions(files, 0) {
        if let Some(j) = position_json(&id, &e) {
            buckets[(s as usize).min(4)].push(j);
        }
    }
    for b in &buckets {
        spread(b, per).into_iter().for_each(|j| println!("{j}"));
    }
    eprintln!(
        "positions per shanten 0..4+: {:?}",
        buckets.iter().map(|b| b.len().min(per)).collect::<Vec<_>>()
    );
}

/// The open-hand sample (`--open`): open tenpai without a yaku, then open hands per shanten.
fn open_sample(files: &[std::path::PathBuf], per: usize) {
    // Bucket 0: open tenpai without a yaku; 1 + s: open hands at shanten s (4+ together).
    let mut buckets: Vec<Vec<serde_json::Value>> = vec![Vec::new(); 6];
    for (s, e, id) in positions(files, 5) {
        // Open: at least one called meld (a closed kan keeps the hand closed).
        if e.melds.iter().all(|m| m.kind == MeldKind::Ankan) {
            continue;
        }
        let Some(mut j) = position_json(&id, &e) else { continue };
        j["stratum"] = "open".into();
        buckets[1 + (s as usize).min(4)].push(j.clone());
        if s == 0 && open_tenpai_without_yaku(&e) {
            j["stratum"] = "open-tenpai-no-yaku".into();
            buckets[0].push(j);
        }
    }
    let mut seen = std::collections::HashSet::new();
    let mut written = Vec::new();
    for (b, n) in buckets.iter().zip([2 * per, per, per, per, per, per]) {
        let mut k = 0;
        for j in spread(b, n) {
            if seen.insert(j["id"].to_string()) {
                println!("{j}");
                k += 1;
            }
        }
        written.push((b.len(), k));
    }
    eprintln!("open positions (found, written): no-yaku tenpai, then shanten 0..4+: {written:?}");
}
