//! Real call offers for the golden calls of 電脳麻将 (`scripts/majiang_golden.sh --calls`): one
//! JSON line per offer, in the form `scripts/majiang_calls.js` feeds to majiang-ai's
//! `select_fulou`, plus what `rank::calls`'s test needs.
//!
//! Offers: call decisions (a chi, pon or open kan was possible on another seat's discard, by
//! the replay's rules) of seats not in riichi, from every 10th sorted top-level `*.mjlog` of the
//! shared corpus (from the 4th); `PER` of them evenly spread with nobody in riichi, and `PER / 4`
//! with a riichi declared on the table (defaults 240 and 60). A line holds:
//! - `shoupai` (13 tiles, melds after commas, majiang notation), `zhuangfeng`, `menfeng`,
//!   `baopai`, `paishu` (the seat's unseen copies per suit, index 0 = the red five), `red`;
//! - `dapai`: the offered tile (`p`, majiang notation) and the discarder's seat wind (`l`);
//! - `lizhi`: the seat winds that have declared riichi;
//! - `visible`, `visible_reds`: the seat's visible counts per kind (34) and visible red fives;
//! - `calls`: the offered calls, open kan first, then pons, then chis, each as its `kind` and
//!   the concealed tiles it takes (`hand`, mpsz).
//!
//!     cargo run --release --example majiang_call_positions -- [PER] > calls.jsonl

use haifu::hand::majiang::format_meld;
use haifu::log::event::Game;
use haifu::replay::decision::{Action, DecisionKind, DecisionRecorder};
use haifu::replay::view::{view_of, View};
use haifu::tile::{format_mpsz, Tile};

fn digit(t: &Tile) -> char {
    char::from(b'0' + if t.is_red() { 0 } else { t.number() })
}

fn name(t: &Tile) -> String {
    format!("{}{}", ['m', 'p', 's', 'z'][t.suit()], digit(t))
}

fn line(id: &str, p: &View, offered: Tile, from_rel: u8, actions: &[Action]) -> serde_json::Value {
    let mut shoupai = haifu::tile::format_majiang(&p.hand);
    for m in &p.melds {
        shoupai.push(',');
        shoupai.push_str(&format_meld(m));
    }
    let paishu = haifu::rank::majiang_position::paishu(p);
    let me = p.seat_wind - 27;
    let lizhi: Vec<usize> = p
        .opponents
        .iter()
        .enumerate()
        .filter(|(_, o)| o.in_riichi())
        .map(|(i, _)| (me + i + 1) % 4)
        .collect();
    let mut calls = Vec::new();
    for kind in ["daiminkan", "pon", "chi"] {
        for a in actions {
            let hand = match (kind, a) {
                ("daiminkan", Action::Daiminkan) => {
                    p.hand.iter().copied().filter(|t| t.kind() == offered.kind()).collect::<Vec<_>>()
                }
                ("pon", Action::Pon(t)) | ("chi", Action::Chi(t)) => t.to_vec(),
                _ => continue,
            };
            calls.push(serde_json::json!({ "kind": kind, "hand": format_mpsz(&hand) }));
        }
    }
    serde_json::json!({
        "id": id,
        "shoupai": shoupai,
        "zhuangfeng": p.round_wind - 27,
        "menfeng": me,
        "baopai": p.dora_indicators.iter().map(name).collect::<Vec<_>>(),
        "red": p.red_fives,
        "paishu": paishu,
        "dapai": { "l": (me + from_rel as usize) % 4, "p": name(&offered) },
        "lizhi": lizhi,
        "visible": p.visible.to_vec(),
        "visible_reds": p.visible_reds.to_vec(),
        "calls": calls,
    })
}

/// The call offers of one game as lines, split by whether a riichi is on the table.
fn offers(game: &Game, calm: &mut Vec<serde_json::Value>, riichi: &mut Vec<serde_json::Value>) {
    let mut rec = DecisionRecorder::new();
    if haifu::replay::replay_game(game, &mut rec, &mut haifu::replay::NoWinCheck).is_err() {
        return;
    }
    for (i, d) in rec.decisions.iter().enumerate() {
        let callable =
            d.options.iter().any(|a| matches!(a, Action::Chi(_) | Action::Pon(_) | Action::Daiminkan));
        let (DecisionKind::Call, true, Some(offered)) = (d.kind, callable, d.offered) else { continue };
        let mut view = view_of(&d.table, d.seat, d.table.hand_tiles(d.seat));
        view.drawn = None;
        if view.riichi || view.hand.len() % 3 != 1 {
            continue;
        }
        let Some(&(from, _)) = d.table.discards.last() else { continue };
        let from_rel = (from + 4 - d.seat) % 4;
        let j = line(&format!("{}#{i}", game.id), &view, offered, from_rel, &d.options);
        if view.riichi_opponents().next().is_some() {
            riichi.push(j);
        } else {
            calm.push(j);
        }
    }
}

fn spread(v: &[serde_json::Value], per: usize) -> Vec<&serde_json::Value> {
    let step = (v.len() as f64 / per as f64).max(1.0);
    let mut out = Vec::new();
    let mut x = 0.0;
    while (x as usize) < v.len() {
        out.push(&v[x as usize]);
        x += step;
    }
    out
}

fn main() {
    let per: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(240);
    let Some(files) = haifu::testdata::tenhou_files(&[".mjlog"]) else {
        eprintln!("majiang_call_positions: no ../shared/data/tenhou (set HAIFU_SHARED)");
        std::process::exit(2);
    };
    let picked: Vec<std::path::PathBuf> = files.iter().skip(3).step_by(10).cloned().collect();
    let (mut calm, mut riichi) = (Vec::new(), Vec::new());
    for game in haifu::batch::load_all(&picked).games {
        offers(&game, &mut calm, &mut riichi);
    }
    let (a, b) = (spread(&calm, per), spread(&riichi, per / 4));
    eprintln!(
        "call offers: {} calm, {} facing riichi; written {} + {}",
        calm.len(),
        riichi.len(),
        a.len(),
        b.len()
    );
    a.into_iter().chain(b).for_each(|j| println!("{j}"));
}
