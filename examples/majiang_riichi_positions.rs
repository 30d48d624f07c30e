//! Discard positions facing a riichi for the golden push/fold picks of 電脳麻将's players 0400 /
//! 0401 / 0402 (`scripts/majiang_golden.sh --riichi`): one JSON line per position, the form of
//! `rank::majiang_position` (`shoupai` with the drawn tile last, winds, `baopai`, `red`,
//! `paishu`), plus per riichi player its seat wind `l` and `genbutsu` kinds (as
//! `examples/majiang_danger_positions.rs`).
//!
//! Positions: discards right after a draw by a seat not in riichi while an opponent is, from every
//! 10th sorted top-level `*.mjlog` of the shared corpus (from the 8th), `PER` evenly spread per
//! shanten 0, 1, 2, 3+ of the 14-tile hand (default 50).
//!
//!     cargo run --release --example majiang_riichi_positions -- [PER] > riichi.jsonl

use haifu::dataset::rows::discard_positions;
use haifu::hand::shanten::min_shanten;
use haifu::rank::danger::genbutsu;
use haifu::replay::view::View;
use haifu::tile::{format_majiang, Tile};

fn digit(t: &Tile) -> char {
    char::from(b'0' + if t.is_red() { 0 } else { t.number() })
}

fn position_json(id: &str, p: &View) -> Option<serde_json::Value> {
    let drawn = p.drawn?;
    if !p.melds.is_empty() {
        return None; // closed hands only: the shoupai needs no meld notation here
    }
    let mut rest = p.hand.clone();
    let at = rest.iter().position(|t| *t == drawn)?;
    rest.remove(at);
    let mut hand = format_majiang(&rest);
    hand.push(['m', 'p', 's', 'z'][drawn.suit()]);
    hand.push(digit(&drawn));
    let concealed = p.hand_counts();
    let paishu = haifu::rank::majiang_position::paishu(p);
    let me = p.seat_wind - 27;
    let riichi: Vec<serde_json::Value> = p
        .opponents
        .iter()
        .enumerate()
        .filter(|(_, o)| o.in_riichi())
        .map(|(i, o)| {
            let gen: Vec<usize> = (0..haifu::tile::KINDS).filter(|&k| genbutsu(o).contains(k)).collect();
            serde_json::json!({ "l": (me + i + 1) % 4, "genbutsu": gen })
        })
        .collect();
    let baopai: Vec<String> =
        p.dora_indicators.iter().map(|t| format!("{}{}", ['m', 'p', 's', 'z'][t.suit()], digit(t))).collect();
    Some(serde_json::json!({
        "id": id, "shoupai": hand, "zhuangfeng": p.round_wind - 27, "menfeng": me, "baopai": baopai,
        "red": p.red_fives, "paishu": paishu, "riichi": riichi, "shanten": min_shanten(&concealed),
    }))
}

fn main() {
    let per: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(50);
    let Some(files) = haifu::testdata::tenhou_files(&[".mjlog"]) else {
        eprintln!("majiang_riichi_positions: no ../shared/data/tenhou (set HAIFU_SHARED)");
        std::process::exit(2);
    };
    let picked: Vec<std::path::PathBuf> = files.iter().skip(7).step_by(10).cloned().collect();
    let mut buckets: Vec<Vec<serde_json::Value>> = vec![Vec::new(); 4];
    for game in haifu::batch::load_all(&picked).games {
        let Ok(ps) = discard_positions(&game) else { continue };
        for (i, e) in ps.into_iter().enumerate() {
            if e.riichi || e.riichi_opponents().next().is_none() {
                continue;
            }
            let s = min_shanten(&e.hand_counts());
            if let (true, Some(j)) = (s >= 0, position_json(&format!("{}#{i}", game.id), &e)) {
                buckets[(s as usize).min(3)].push(j);
            }
        }
    }
    for b in &buckets {
        let step = (b.len() as f64 / per as f64).max(1.0);
        let mut x = 0.0;
        while (x as usize) < b.len() {
            println!("{}", b[x as usize]);
            x += step;
        }
    }
    eprintln!("riichi positions per shanten 0..3+: {:?}", buckets.iter().map(Vec::len).collect::<Vec<_>>());
}
