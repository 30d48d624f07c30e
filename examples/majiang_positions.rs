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

use haifu::dataset::rows::discard_positions;
use haifu::hand::meld::{Meld, MeldKind};
use haifu::hand::shanten::min_shanten;
use haifu::replay::view::View;
use haifu::tile::{Tile, KINDS};

fn digit(t: &Tile) -> char {
    char::from(b'0' + if t.is_red() { 0 } else { t.number() })
}

/// A meld in majiang notation: the called tile followed by its direction mark (`+` from the
/// right, `=` across, `-` from the left), an added kan with its fourth tile after the mark.
fn meld(m: &Meld) -> String {
    let suit = ['m', 'p', 's', 'z'][m.tiles()[0].suit()];
    let mark = match m.from {
        1 => "+",
        2 => "=",
        _ => "-",
    };
    let mut tiles: Vec<Tile> = m.tiles().to_vec();
    let mut out = String::from(suit);
    if m.kind == MeldKind::Ankan {
        tiles.iter().for_each(|t| out.push(digit(t)));
        return out;
    }
    let called = m.called.unwrap_or(tiles[0]);
    let at = tiles.iter().position(|t| *t == called).unwrap_or(0);
    let called = tiles.remove(at);
    let added = if m.kind == MeldKind::Kakan { tiles.pop() } else { None };
    if m.kind == MeldKind::Chi {
        // Keep run order: the called tile's digit where it falls, then the mark.
        let mut all = tiles.clone();
        all.insert(at.min(all.len()), called);
        for t in &all {
            out.push(digit(t));
            if *t == called {
                out.push_str(mark);
            }
        }
    } else {
        tiles.iter().for_each(|t| out.push(digit(t)));
        out.push(digit(&called));
        out.push_str(mark);
        if let Some(a) = added {
            out.push(digit(&a));
        }
    }
    out
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
        hand.push_str(&meld(m));
    }
    let concealed = p.hand_counts();
    let unseen = |k: usize| 4u8.saturating_sub(p.visible[k] + concealed[k]);
    let held_red = |s: usize| p.hand.iter().any(|t| t.is_red() && t.suit() == s);
    let mut paishu = serde_json::Map::new();
    for (s, letter) in ["m", "p", "s"].iter().enumerate() {
        let red = u8::from(p.red_fives && !p.visible_reds[s] && !held_red(s));
        let mut v = vec![red];
        v.extend((0..9).map(|n| unseen(s * 9 + n)));
        paishu.insert(letter.to_string(), serde_json::json!(v));
    }
    let mut z = vec![0u8];
    z.extend((27..KINDS).map(unseen));
    paishu.insert("z".into(), serde_json::json!(z));
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

fn main() {
    let per: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(500);
    let Some(files) = haifu::testdata::tenhou_files(&[".mjlog"]) else {
        eprintln!("majiang_positions: no ../shared/data/tenhou (set HAIFU_SHARED)");
        std::process::exit(2);
    };
    let mut buckets: Vec<Vec<serde_json::Value>> = vec![Vec::new(); 5];
    let picked: Vec<std::path::PathBuf> = files.into_iter().step_by(10).collect();
    for game in haifu::batch::load_all(&picked).games {
        let Ok(ps) = discard_positions(&game) else { continue };
        for (i, e) in ps.iter().enumerate() {
            if e.riichi || e.riichi_opponents().next().is_some() || e.drawn.is_none() {
                continue;
            }
            let s = min_shanten(&e.hand_counts());
            if s < 0 {
                continue;
            }
            if let Some(j) = position_json(&format!("{}#{i}", game.id), e) {
                buckets[(s as usize).min(4)].push(j);
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
    eprintln!(
        "positions per shanten 0..4+: {:?}",
        buckets.iter().map(|b| b.len().min(per)).collect::<Vec<_>>()
    );
}
