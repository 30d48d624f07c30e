//! The mjai reader and writer on the small built-in game (the shared-corpus round trips, which
//! need the replay, are in `tests/mjai.rs`).

use super::read::parse_mjai;
use super::tiles::tile_name;
use super::write::write_mjai;
use crate::log::event::*;
use crate::log::source::parse_game;

/// A real houou game of the shared corpus: 15 rounds with calls, riichi, wins and draws.
fn real() -> Game {
    let p = crate::testdata::need_file("tenhou/2010081709gm-00a9-0000-fe3371ad.mjlog");
    crate::log::mjlog::parse_mjlog("real", &std::fs::read(p).unwrap()).unwrap()
}

/// An event with its tiles as kinds and redness (ids differ between formats), and the win's
/// score details left out (mjai has none).
fn shape(e: &Event, red: bool) -> String {
    let t = |id: &crate::tile::TileId| tile_name(*id, red);
    match e {
        Event::Draw { who, tile } => format!("draw {who} {}", t(tile)),
        Event::Discard { who, tile } => format!("discard {who} {}", t(tile)),
        Event::Call { who, call } => {
            let mut tiles: Vec<&str> = call.tiles.iter().map(t).collect();
            tiles.sort_unstable();
            format!("call {who} {:?} {tiles:?} {:?} {}", call.kind, call.called.as_ref().map(t), call.from)
        }
        Event::Agari(a) => format!(
            "agari {} {} {:?} {:?} {} {} {:?}",
            a.who,
            a.from_who,
            a.pao_who,
            a.deltas,
            t(&a.win_tile),
            a.sticks,
            a.scores_before
        ),
        Event::Ryuukyoku(d) => format!(
            "draw {:?} {:?} {} {:?}",
            d.kind,
            d.deltas,
            d.sticks,
            d.shown.each_ref().map(Option::is_some)
        ),
        other => format!("{other:?}"),
    }
}

#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn a_game_survives_mjai_and_writes_the_same_bytes_again() {
    let game = real();
    let text = write_mjai(&game).unwrap();
    assert!(text.starts_with("{\"type\":\"start_game\""), "{text}");
    assert!(text.ends_with("{\"type\":\"end_game\"}\n"));
    let back = parse_mjai("small", text.as_bytes()).unwrap();
    assert_eq!(back.rounds.len(), game.rounds.len());
    let red = game.rules.red_fives();
    for (a, b) in game.rounds.iter().zip(&back.rounds) {
        assert_eq!(
            (a.start.round, a.start.honba, a.start.sticks, a.start.dealer),
            (b.start.round, b.start.honba, b.start.sticks, b.start.dealer)
        );
        assert_eq!(a.start.scores, b.start.scores);
        let ours: Vec<String> = a.events.iter().map(|e| shape(e, red)).collect();
        let theirs: Vec<String> = b.events.iter().map(|e| shape(e, red)).collect();
        assert_eq!(ours, theirs);
    }
    let players: Vec<&str> = back.players.iter().map(|p| p.name.as_str()).collect();
    let want: Vec<&str> = game.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(players, want);
    assert_eq!(write_mjai(&back).unwrap(), text, "mjai -> mjai is byte-stable");
}

#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn mjai_is_sniffed_by_content_also_gzipped_and_with_meta() {
    let game = real();
    let text = write_mjai(&game).unwrap();
    // Mortal's `meta` and unknown fields are tolerated; a blank line too.
    let with_meta =
        text.replacen("\"tsumogiri\":false}", "\"tsumogiri\":false,\"meta\":{\"q_values\":[1.0]}}", 1);
    let with_meta = with_meta.replacen('\n', "\n\n", 1);
    let a = parse_game("x.t6.json", text.as_bytes()).unwrap();
    let b = parse_game("x.mjlog", &gzip(with_meta.as_bytes())).unwrap();
    assert_eq!(a.rounds, b.rounds);
    assert_eq!(a.id, "x");
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn err(text: &str) -> String {
    parse_game("g.json", text.as_bytes()).unwrap_err().to_string()
}

#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn errors_name_the_file_the_line_and_the_event() {
    let game = real();
    let text = write_mjai(&game).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let dahai = lines.iter().position(|l| l.contains("\"dahai\"")).unwrap();
    let mut bad = lines.clone();
    let swapped = bad[dahai].replace("\"actor\":", "\"actor\":1");
    bad[dahai] = &swapped;
    let e = err(&bad.join("\n"));
    assert!(
        e.starts_with("g.json: ") && e.contains(&format!("line {}", dahai + 1)) && e.contains("dahai"),
        "{e}"
    );
    for (broken, says) in [
        (text.replacen("\"5m\"", "\"0m\"", 1), "not an mjai tile"),
        (text.replacen("\"tsumo\"", "\"tsumox\"", 1), "unknown variant"),
        (text.replacen("\"kyoku\":1", "\"kyoku\":5", 1), "kyoku 5"),
        (text.replace("{\"type\":\"end_kyoku\"}\n", ""), "start_kyoku before"),
        (text.replacen("\"pai\":\"", "\"pai\":\"?\",\"x\":\"", 1), "hidden tile"),
        (text.lines().take(30).collect::<Vec<_>>().join("\n"), "without end_kyoku"),
    ] {
        let e = err(&broken);
        assert!(e.contains(says) && e.contains("line "), "{e} should say {says}");
    }
}

#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn flipped_bytes_give_errors_never_panics() {
    let game = real();
    let text = write_mjai(&game).unwrap().into_bytes();
    let mut next = crate::testdata::xorshift(0x9e37_79b9_7f4a_7c15);
    let mut errors = 0;
    for _ in 0..400 {
        let mut b = text.clone();
        for _ in 0..1 + next() % 3 {
            let i = (next() % b.len() as u64) as usize;
            b[i] ^= 1 << (next() % 8);
        }
        if let Err(e) = parse_mjai("flip", &b) {
            assert!(e.to_string().contains("line"), "{e}");
            errors += 1;
        }
    }
    assert!(errors > 100, "{errors} of 400 flips broke the file");
}

/// A fuzzing find: a round ending in a draw without payments while a seat holds a tile too few
/// asked the shanten of a 12-tile hand, which panics. Such hands are made here from haifu's own
/// self-play (fuzz/seeds) by giving one of the round's draws to the next seat; the reader must
/// return a game or an error for each, never panic (the replay then refuses the hands).
#[test]
fn a_hand_a_tile_short_at_a_draw_is_no_panic() {
    let text = include_str!("../../../fuzz/seeds/mjai/sim-5-0.mjai.json");
    let lines: Vec<&str> = text.lines().collect();
    let draw = lines.iter().position(|l| l.contains("\"ryukyoku\"") && l.contains("[0,0,0,0]")).unwrap();
    let start = (0..draw).rev().find(|&i| lines[i].contains("\"start_kyoku\"")).unwrap();
    let mut tried = 0;
    for i in (start..draw).filter(|&i| lines[i].contains("\"tsumo\"")) {
        let moved = ["0", "1", "2", "3"].iter().find_map(|a| {
            let from = format!("\"actor\":{a}");
            let to = format!("\"actor\":{}", (a.parse::<u8>().unwrap() + 1) % 4);
            lines[i].contains(&from).then(|| lines[i].replace(&from, &to))
        });
        let Some(moved) = moved else { continue };
        let mut cut: Vec<&str> = lines.clone();
        cut[i] = &moved;
        let r = std::panic::catch_unwind(|| parse_mjai("cut", cut.join("\n").as_bytes()).map(|_| ()));
        assert!(r.is_ok(), "line {i}: the reader panicked");
        tried += 1;
    }
    assert!(tried > 50, "{tried}");
}

/// The hand of a fuzzing find (12 tiles, no meld, at a draw without payments) is not tenpai, and
/// asking is no panic (its shanten panicked); 13-tile hands are answered as before.
#[test]
fn a_hand_a_tile_short_is_not_tenpai() {
    let tiles = |s: &str| crate::tile::parse_mpsz(s).unwrap();
    assert!(!super::read::tenpai(&tiles("3455567m24567s"), 0));
    assert!(super::read::tenpai(&tiles("123m456p789s1122z"), 0));
    assert!(!super::read::tenpai(&tiles("123m456p789s11223z"), 0), "14 tiles");
    assert!(super::read::tenpai(&tiles("456p789s1122z"), 1));
}
