//! Positions with a riichi on the table for the golden danger scores of 電脳麻将
//! (`scripts/majiang_golden.sh --danger`): one JSON line per position, what majiang-ai's
//! `SuanPai` needs to score every kind against the riichi players.
//!
//! Positions: discard decisions right after a draw by a seat not in riichi while at least one
//! opponent is, from every 10th sorted top-level `*.mjlog` of the shared corpus (from the 3rd),
//! `PER` of them evenly spread (default 300). A line holds:
//! - `unseen`, `held`: per kind (34, m p s z), the seat's unseen copies and concealed copies;
//! - `riichi`: per riichi player its seat wind (`l`, 0 = East, the dealer) and `genbutsu`, the
//!   kinds 電脳麻将 marks as discarded against it (its river, and every kind discarded after its
//!   declaration), as majiang-ai's `_dapai[l]`.
//!
//!     cargo run --release --example majiang_danger_positions -- [PER] > danger.jsonl

use haifu::dataset::rows::discard_positions;
use haifu::rank::danger::{genbutsu, unseen_counts};
use haifu::replay::view::View;

fn position_json(id: &str, p: &View) -> serde_json::Value {
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
    serde_json::json!({
        "id": id,
        "unseen": unseen_counts(p).to_vec(),
        "held": p.hand_counts().to_vec(),
        "riichi": riichi,
    })
}

fn main() {
    let per: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    let Some(files) = haifu::testdata::tenhou_files(&[".mjlog"]) else {
        eprintln!("majiang_danger_positions: no ../shared/data/tenhou (set HAIFU_SHARED)");
        std::process::exit(2);
    };
    let picked: Vec<std::path::PathBuf> = files.iter().skip(2).step_by(10).cloned().collect();
    let mut all = Vec::new();
    for game in haifu::batch::load_all(&picked).games {
        let Ok(ps) = discard_positions(&game) else { continue };
        for (i, e) in ps.into_iter().enumerate() {
            if e.riichi || e.drawn.is_none() || e.riichi_opponents().next().is_none() {
                continue;
            }
            all.push(position_json(&format!("{}#{i}", game.id), &e));
        }
    }
    let step = (all.len() as f64 / per as f64).max(1.0);
    let mut x = 0.0;
    let mut n = 0;
    while (x as usize) < all.len() {
        println!("{}", all[x as usize]);
        x += step;
        n += 1;
    }
    eprintln!("riichi positions: {} found, {n} written", all.len());
}
