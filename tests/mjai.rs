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
