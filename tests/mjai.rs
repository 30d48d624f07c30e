//! Round trips through mjai on real games of `../shared/data/tenhou`: every complete game written
//! as mjai and read back replays and re-scores (score changes) without an error, gives the same
//! rows in every column, and writes the same bytes again.
//!
//! Without the shared data the tests are compiled as ignored (build.rs); a folder missing at run
//! time prints "SKIPPED" (and fails under `CI` / `HAIFU_REQUIRE_SHARED=1`).

mod common;

use haifu::log::event::Game;
use haifu::log::mjai::read::parse_mjai;
use haifu::log::mjai::write::write_mjai;
use haifu::replay::check::Rescore;
use haifu::replay::replay_game;

const NEEDS: &str = "needs ../shared/data (touch build.rs after adding it)";

/// Records the replay refuses or mis-scores in their Tenhou form too (see `replay::check`).
const KNOWN_BAD: [&str; 3] = [
    "project_system_testing_fixtures_23.txt.mjlog",
    "project_system_testing_fixtures_24.txt.mjlog",
    "project_system_testing_fixtures_25.txt.mjlog",
];

fn through_mjai(g: &Game) -> Result<(String, Game), String> {
    let text = write_mjai(g).map_err(|e| e.to_string())?;
    let back = parse_mjai(&g.id, text.as_bytes()).map_err(|e| e.to_string())?;
    Ok((text, back))
}

/// Every complete game: mjlog -> mjai -> replay with re-scoring, no error, no mismatch; the same
/// rounds, wins and discards; mjai -> mjai byte-stable.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn every_shared_game_round_trips_through_mjai() {
    let _ = NEEDS;
    let files = haifu::testdata::need_tenhou_files(&[".mjlog", ".mjlog.gz", ".t6.json"]);
    let out = haifu::batch::run(&files, None, "mjai", |g| {
        let mut tenhou = Rescore::default();
        let want = replay_game(g, &mut (), &mut tenhou).map_err(|e| format!("tenhou form: {e}"))?;
        if !want.mismatches.is_empty() {
            return Err(format!("tenhou form: {}", want.mismatches[0]));
        }
        if g.rules.go_type & !0xff != 0 {
            // A special lobby's scoring (honba worth 1500, kiriage): mjai cannot carry it.
            return Ok(None);
        }
        let (text, back) = through_mjai(g)?;
        let mut checker = Rescore::default();
        let got = replay_game(&back, &mut (), &mut checker).map_err(|e| format!("mjai form: {e}"))?;
        if let Some(m) = got.mismatches.first() {
            return Err(format!("mjai form: {m}"));
        }
        if (got.rounds, got.discards, got.agari) != (want.rounds, want.discards, want.agari) {
            return Err(format!("mjai form replays {got:?}, tenhou form {want:?}"));
        }
        if write_mjai(&back).map_err(|e| e.to_string())? != text {
            return Err("mjai -> mjai changed bytes".into());
        }
        Ok(Some(got.agari))
    });
    let known = |f: &str| KNOWN_BAD.iter().any(|k| f.ends_with(k));
    let errors: Vec<_> = out.errors.iter().filter(|e| !known(&e.file)).collect();
    assert!(errors.is_empty(), "{} games failed, first: {:?}", errors.len(), &errors[..errors.len().min(5)]);
    let special = out.results.iter().filter(|(_, w)| w.is_none()).count();
    assert!(special <= 6, "{special} special-lobby games (6 in the corpus)");
    assert!(out.results.len() > 4900, "{} games", out.results.len());
    let wins: usize = out.results.iter().filter_map(|(_, w)| *w).sum();
    assert!(wins > 44_000, "{wins} wins");
}

/// mjlog -> mjai and mjlog: the same rows from `game_rows` in every column, on games with calls,
/// kans, riichi, double rons and draws among the first sorted ones.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn mjai_gives_the_same_rows_as_mjlog() {
    common::rows_survive(|g| through_mjai(g).unwrap().1);
}

/// Flipped bytes in an mjai file: an error naming the line, or a game the replay judges (an
/// error or a summary), never a panic.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn flipped_mjai_is_refused_or_judged_never_a_panic() {
    let files = haifu::testdata::need_tenhou_files(&[".mjlog"]);
    let g = haifu::log::source::Source::file(&files[1]).load().unwrap();
    let text = write_mjai(&g).unwrap().into_bytes();
    let mut next = haifu::testdata::xorshift(0x51_7cc1_b727_220a);
    let (mut refused, mut replay_errors) = (0, 0);
    for _ in 0..300 {
        let mut b = text.clone();
        let i = (next() % b.len() as u64) as usize;
        b[i] ^= 1 << (next() % 8);
        match haifu::log::source::parse_game("flip.json", &b) {
            Err(e) => {
                assert!(e.to_string().contains("line "), "{e}");
                refused += 1;
            }
            Ok(game) => {
                replay_errors += usize::from(replay_game(&game, &mut (), &mut Rescore::default()).is_err())
            }
        }
    }
    assert!(refused > 100, "{refused} of 300 flips refused, {replay_errors} replay errors");
}

/// The 3-player games of `tenhou/sanma` (279 Houou sanma mjlogs): as mjai they are written in
/// RiichiEnv 0.4.11's 3-player layout, read back, replay and re-score with no mismatch and every
/// win of the records (counted independently as the files' `<AGARI ` tags), and write the same
/// bytes again.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn every_sanma_game_round_trips_through_mjai() {
    let files = haifu::testdata::need_sanma_files();
    let raw_wins = haifu::testdata::count_in_files(&files, "<AGARI ");
    let out = haifu::batch::run(&files, None, "mjai", |g| {
        let want =
            replay_game(g, &mut (), &mut Rescore::default()).map_err(|e| format!("tenhou form: {e}"))?;
        let (text, back) = through_mjai(g)?;
        if back.rules.players != 3 || back.rules.start_score != 35_000 {
            return Err(format!("read back on {:?}", back.rules));
        }
        let got =
            replay_game(&back, &mut (), &mut Rescore::default()).map_err(|e| format!("mjai form: {e}"))?;
        if let Some(m) = got.mismatches.first().or(want.mismatches.first()) {
            return Err(format!("mismatch: {m}"));
        }
        if (got.rounds, got.discards, got.agari) != (want.rounds, want.discards, want.agari) {
            return Err(format!("mjai form replays {got:?}, tenhou form {want:?}"));
        }
        if write_mjai(&back).map_err(|e| e.to_string())? != text {
            return Err("mjai -> mjai changed bytes".into());
        }
        Ok(got.agari)
    });
    for e in &out.errors {
        eprintln!("{}: {}", e.file, &e.error[..e.error.len().min(400)]);
    }
    assert!(out.errors.is_empty(), "{} games failed", out.errors.len());
    assert_eq!(out.results.len(), 279);
    let wins: usize = out.results.iter().map(|(_, w)| *w).sum();
    assert_eq!(wins, raw_wins, "wins replayed from the read-back games, <AGARI> tags in the files");
    assert_eq!(wins, 2_183, "docs/sanma.md's count");
}

/// The other 3-player layout (Akagi-NG's Tenhou bridge, docs/sanma.md): four names, hands,
/// scores and deltas with the fourth seat empty or 0, and `nukidora` for `kita`. It reads as the
/// same game as RiichiEnv's layout; a `kita` in a 4-player game is refused by name.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn sanma_reads_in_both_layouts() {
    let g = haifu::log::source::Source::file(&haifu::testdata::need_sanma_files()[0]).load().unwrap();
    let text = write_mjai(&g).unwrap();
    let mut nukis = 0;
    let four: Vec<String> = text
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            let pad = |v: &mut serde_json::Value, key: &str, with: serde_json::Value| {
                if let Some(a) = v.get_mut(key).and_then(|a| a.as_array_mut()) {
                    assert_eq!(a.len(), 3, "{key} in {l}");
                    a.push(with);
                }
            };
            pad(&mut v, "names", "".into());
            pad(&mut v, "tehais", serde_json::json!([]));
            pad(&mut v, "scores", 0.into());
            pad(&mut v, "deltas", 0.into());
            if v["type"] == "kita" {
                v["type"] = "nukidora".into();
                nukis += 1;
            }
            v.to_string()
        })
        .collect();
    assert!(nukis > 0);
    let riichienv = parse_mjai("g", text.as_bytes()).unwrap();
    let akagi = parse_mjai("g", four.join("\n").as_bytes()).unwrap();
    assert_eq!(akagi, riichienv);
    assert_eq!(riichienv.rules.players, 3);
    let four_player =
        haifu::log::source::Source::file(&haifu::testdata::need_tenhou_files(&[".mjlog"])[0]).load().unwrap();
    let mut lines: Vec<String> = write_mjai(&four_player).unwrap().lines().map(String::from).collect();
    let draw = lines.iter().position(|l| l.contains("\"tsumo\"")).unwrap();
    let actor: serde_json::Value = serde_json::from_str(&lines[draw]).unwrap();
    lines.insert(draw + 1, format!("{{\"type\":\"kita\",\"actor\":{}}}", actor["actor"]));
    let e = parse_mjai("g", lines.join("\n").as_bytes()).unwrap_err().to_string();
    assert!(e.contains(&format!("line {}", draw + 2)) && e.contains("only at three players"), "{e}");
}
