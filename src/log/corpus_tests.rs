//! Whole-corpus tests over the real records in `../shared/data/tenhou` (see its README): every
//! 4-player game parses, and round and discard counts match the manifest, which was counted
//! from the files by a separate tool (tags for mjlog, `log` entries for JSON).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::error::LogError;
use super::event::*;
use super::source::parse_game;
use crate::hand::meld::MeldKind;

struct ManifestRow {
    rounds: usize,
    discards: usize,
}

fn manifest(dir: &Path) -> HashMap<String, ManifestRow> {
    let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (file, rounds, discards) = (col("file"), col("rounds"), col("discards"));
    lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .map(|f| {
            let row =
                ManifestRow { rounds: f[rounds].parse().unwrap(), discards: f[discards].parse().unwrap() };
            (f[file].to_string(), row)
        })
        .collect()
}

fn discards(g: &Game) -> usize {
    g.rounds.iter().flat_map(|r| &r.events).filter(|e| matches!(e, Event::Discard { .. })).count()
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.ends_with(".mjlog") || n.ends_with(".mjlog.gz") || n.ends_with(".json")
        })
        .collect();
    v.sort();
    v
}

#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn every_top_level_game_parses_and_matches_the_manifest() {
    let dir = crate::testdata::need_file("tenhou");
    let man = manifest(&dir);
    let files = files_in(&dir);
    assert_eq!(files.len(), 4971, "top-level 4-player games");
    let t0 = std::time::Instant::now();
    let results: Vec<(String, usize, Result<Game, LogError>)> = files
        .par_iter()
        .map(|p| {
            let bytes = std::fs::read(p).unwrap();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            let g = parse_game(&name, &bytes);
            (name, bytes.len(), g)
        })
        .collect();
    let secs = t0.elapsed().as_secs_f64();
    let bytes: usize = results.iter().map(|r| r.1).sum();
    eprintln!(
        "parsed {} files, {:.1} MB in {:.2} s: {:.0} files/s, {:.1} MB/s (read + parse, rayon)",
        results.len(),
        bytes as f64 / 1e6,
        secs,
        results.len() as f64 / secs,
        bytes as f64 / 1e6 / secs
    );
    let mut errors = Vec::new();
    let mut mismatches = Vec::new();
    let (mut total_rounds, mut total_discards) = (0, 0);
    for (name, _, g) in &results {
        match g {
            Err(e) => errors.push(e.to_string()),
            Ok(g) => {
                let row = &man[name];
                total_rounds += g.rounds.len();
                total_discards += discards(g);
                if g.rounds.len() != row.rounds || discards(g) != row.discards {
                    mismatches.push(format!(
                        "{name}: rounds {} vs {}, discards {} vs {}",
                        g.rounds.len(),
                        row.rounds,
                        discards(g),
                        row.discards
                    ));
                }
            }
        }
    }
    for e in errors.iter().take(20) {
        eprintln!("error: {e}");
    }
    for m in mismatches.iter().take(20) {
        eprintln!("mismatch: {m}");
    }
    assert!(errors.is_empty(), "{} files failed", errors.len());
    assert!(mismatches.is_empty(), "{} files disagree with the manifest", mismatches.len());
    assert_eq!(total_rounds, 51_998);
    assert_eq!(total_discards, 2_504_237 + 7_276);
}

/// An independent tile tracker for the tests: plays a round's events and checks that every tile
/// moves legally (drawn tiles are new, discards and call tiles come from the hand, a called tile
/// is the last discard of the seat `from` points at, wins show the tracked hand), and that the
/// scores carry over from one round to the next. Failing here means a reader mis-decoded
/// something (or, for mjlog, that the data is broken; the README says it is not).
/// Records whose own scores do not carry over (checked by hand, not a reader fault): this
/// tenhou-python-bot fixture's round-2 AGARI gives seats 2 and 3 deltas of -20 and -10 (hundreds)
/// but the next INIT starts them at -10 and -20.
const SCORE_QUIRKS: [&str; 1] =
    ["MahjongRepository__tenhou-python-bot__project_system_testing_fixtures_24.txt"];

fn track(g: &Game, check_scores: bool) -> Result<(), crate::batch::BoxError> {
    let mut expect_scores: Option<[i32; 4]> = None;
    for (ri, r) in g.rounds.iter().enumerate() {
        let fail =
            |m: crate::batch::BoxError| -> crate::batch::BoxError { format!("round {ri}: {m}").into() };
        if let Some(s) = expect_scores.filter(|_| check_scores) {
            if s != r.start.scores {
                return Err(fail(
                    format!("start scores {:?}, previous round ended at {s:?}", r.start.scores).into(),
                ));
            }
        }
        let mut seen = std::collections::HashSet::new();
        let mut see = |t: crate::tile::TileId| {
            if seen.insert(t) {
                Ok(())
            } else {
                Err(crate::batch::BoxError::from(format!("tile id {} appears twice", t.get())))
            }
        };
        see(r.start.dora_indicator).map_err(fail)?;
        let mut hands: Vec<Vec<crate::tile::TileId>> = r.start.hands.to_vec();
        for (seat, h) in hands.iter().enumerate() {
            if h.len() != if seat < usize::from(g.rules.players) { 13 } else { 0 } {
                return Err(fail(format!("dealt {} tiles", h.len()).into()));
            }
            for &t in h {
                see(t).map_err(fail)?;
            }
        }
        let mut melds: [Vec<Call>; 4] = Default::default();
        let mut last_discard: Option<(u8, crate::tile::TileId)> = None;
        let take = |hand: &mut Vec<crate::tile::TileId>,
                    t: crate::tile::TileId|
         -> Result<(), crate::batch::BoxError> {
            let pos = hand.iter().position(|&x| x == t).ok_or(format!("tile {} not in hand", t.get()))?;
            hand.swap_remove(pos);
            Ok(())
        };
        let mut end_scores = None;
        for (ei, ev) in r.events.iter().enumerate() {
            let fail = |m: crate::batch::BoxError| -> crate::batch::BoxError {
                format!("round {ri} event {ei} {ev:?}: {m}").into()
            };
            match ev {
                Event::Draw { who, tile } => {
                    see(*tile).map_err(fail)?;
                    hands[*who as usize].push(*tile);
                }
                Event::Discard { who, tile } => {
                    take(&mut hands[*who as usize], *tile).map_err(fail)?;
                    last_discard = Some((*who, *tile));
                }
                Event::NewDora { indicator } => see(*indicator).map_err(fail)?,
                Event::Kita { who, tile } => take(&mut hands[*who as usize], *tile).map_err(fail)?,
                Event::Call { who, call } => {
                    let w = *who as usize;
                    let kinds: Vec<usize> = call.tiles.iter().map(|t| t.kind()).collect();
                    match call.kind {
                        MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan => {
                            let (d, t) = last_discard.ok_or(fail("call without a discard".into()))?;
                            if call.called != Some(t) || (d as usize + 4 - w) % 4 != call.from as usize {
                                return Err(fail(
                                    format!(
                                        "called {:?} from {}, last discard {t:?} by {d}",
                                        call.called, call.from
                                    )
                                    .into(),
                                ));
                            }
                            for &x in call.tiles.iter().filter(|&&x| x != t) {
                                take(&mut hands[w], x).map_err(fail)?;
                            }
                            let ok = match call.kind {
                                MeldKind::Chi => {
                                    call.from == 3 && kinds[1] == kinds[0] + 1 && kinds[2] == kinds[0] + 2
                                }
                                MeldKind::Pon => kinds.len() == 3 && kinds.iter().all(|&k| k == kinds[0]),
                                _ => kinds.len() == 4 && kinds.iter().all(|&k| k == kinds[0]),
                            };
                            if !ok {
                                return Err(fail("meld shape".into()));
                            }
                            melds[w].push(call.clone());
                        }
                        MeldKind::Ankan => {
                            for &x in &call.tiles {
                                take(&mut hands[w], x).map_err(fail)?;
                            }
                            melds[w].push(call.clone());
                        }
                        MeldKind::Kakan => {
                            let added = call.added.ok_or(fail("kakan without added tile".into()))?;
                            take(&mut hands[w], added).map_err(fail)?;
                            let pos = melds[w]
                                .iter()
                                .position(|m| {
                                    m.kind == MeldKind::Pon
                                        && call.tiles.iter().filter(|t| m.tiles.contains(t)).count() == 3
                                })
                                .ok_or(fail("kakan without its pon".into()))?;
                            melds[w][pos] = call.clone();
                            last_discard = Some((*who, added));
                        }
                    }
                }
                Event::Agari(a) => {
                    let w = a.who as usize;
                    let mut want = hands[w].clone();
                    if a.who != a.from_who {
                        want.push(a.win_tile);
                    }
                    want.sort();
                    let mut got = a.hand.clone();
                    got.sort();
                    if want != got {
                        return Err(fail(format!("win hand {got:?}, tracked {want:?}").into()));
                    }
                    let set = |ms: &[Call]| {
                        let mut v: Vec<Vec<crate::tile::TileId>> = ms
                            .iter()
                            .map(|m| {
                                let mut t = m.tiles.clone();
                                t.sort();
                                t
                            })
                            .collect();
                        v.sort();
                        v
                    };
                    if set(&a.melds) != set(&melds[w]) {
                        return Err(fail("win melds differ from the tracked melds".into()));
                    }
                    let base = end_scores.unwrap_or(a.scores_before);
                    if base != a.scores_before {
                        return Err(fail(
                            format!("second win's scores {:?} vs {base:?}", a.scores_before).into(),
                        ));
                    }
                    end_scores = Some(std::array::from_fn(|i| a.scores_before[i] + a.deltas[i]));
                }
                Event::Ryuukyoku(d) => {
                    end_scores = Some(std::array::from_fn(|i| d.scores_before[i] + d.deltas[i]));
                }
                Event::Riichi { .. } | Event::Disconnect { .. } | Event::Reconnect { .. } => {}
            }
        }
        expect_scores = end_scores;
    }
    Ok(())
}

#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn every_top_level_game_passes_the_tile_tracker() {
    let dir = crate::testdata::need_file("tenhou");
    let bad: Vec<String> = files_in(&dir)
        .par_iter()
        .filter_map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            let g = parse_game(&name, &std::fs::read(p).unwrap()).map_err(|e| e.to_string()).ok()?;
            track(&g, !SCORE_QUIRKS.contains(&g.id.as_str())).err().map(|e| format!("{name}: {e}"))
        })
        .collect();
    for b in bad.iter().take(20) {
        eprintln!("{b}");
    }
    assert!(bad.is_empty(), "{} games fail the tracker", bad.len());
}

/// Every 3-player Houou game reads on its own rules and passes the tile tracker; the set-asides
/// read are the `<N>` tags with a north's set-aside code, counted in the raw text (docs/sanma.md:
/// 6,547 over the 279 games, as `scripts/sanma_facts.py --counts` counts them).
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn every_sanma_game_reads_on_three_player_rules() {
    let files = crate::testdata::need_sanma_files();
    let (mut kita, mut raw_kita) = (0, 0);
    for p in &files {
        let name = p.display().to_string();
        let bytes = std::fs::read(p).unwrap();
        let g = parse_game(&name, &bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((g.rules.players, g.rules.start_score, g.rules.nukidora), (3, 35_000, true), "{name}");
        track(&g, true).unwrap_or_else(|e| panic!("{name}: {e}"));
        kita += g.rounds.iter().flat_map(|r| &r.events).filter(|e| matches!(e, Event::Kita { .. })).count();
        let text = String::from_utf8_lossy(&bytes);
        raw_kita += ["30752", "31008", "31264", "31520"]
            .iter()
            .map(|m| {
                text.matches(&format!("<N who=\"0\" m=\"{m}\"")).count()
                    + text.matches(&format!("<N who=\"1\" m=\"{m}\"")).count()
                    + text.matches(&format!("<N who=\"2\" m=\"{m}\"")).count()
            })
            .sum::<usize>();
    }
    assert_eq!(kita, raw_kita);
    assert_eq!(kita, 6_547, "docs/sanma.md's count");
}

#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn partial_records_parse_or_fail_clearly() {
    let dir = crate::testdata::need_file("tenhou/partial");
    let files = files_in(&dir);
    assert_eq!(files.len(), 23);
    let mut parsed = 0;
    for p in &files {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        match parse_game(&name, &std::fs::read(p).unwrap()) {
            Ok(g) => {
                parsed += 1;
                // Excerpts start mid-game, so only the tiles are checked, not score carry-over.
                if let Err(e) = track(&g, false) {
                    panic!("{name}: {e}");
                }
            }
            Err(e) => {
                eprintln!("partial: {e}");
                assert!(e.to_string().starts_with(&name), "{e}");
            }
        }
    }
    eprintln!("partial: {parsed} of {} parsed", files.len());
    // The confusing-call excerpts of mjai-reviewer are valid rounds; they must all come out.
    assert!(parsed >= 19, "only {parsed} partial records parsed");
}

/// tenhou.net/6 events rebuilt by turn order agree with the mjlog of the same game: the
/// tenhou6 JSON files here have no mjlog twin, so compare on a converted mjlog instead (the
/// mjlog's events written as tenhou.net/6 by [`super::tenhou6::write::write`], then read back by
/// the JSON reader). The writer's own round trip (wins, scores, bytes) is `tests/tenhou6.rs`.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn tenhou6_reader_agrees_with_mjlog_on_converted_games() {
    let dir = crate::testdata::need_file("tenhou");
    // Every third mjlog keeps the test quick; all 4940 convertible ones agree (checked once).
    let files: Vec<PathBuf> =
        files_in(&dir).into_iter().filter(|p| p.to_string_lossy().ends_with(".mjlog")).step_by(3).collect();
    let outcomes: Vec<Option<String>> = files
        .par_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            let g = parse_game(&name, &std::fs::read(p).unwrap()).unwrap();
            if CONVERSION_QUIRKS.contains(&g.id.as_str()) {
                return None;
            }
            Some(compare_with_tenhou6(&g).err().map(|e| format!("{name}: {e}")).unwrap_or_default())
        })
        .collect();
    let compared = outcomes.iter().flatten().count();
    let bad: Vec<&String> = outcomes.iter().flatten().filter(|e| !e.is_empty()).collect();
    for b in bad.iter().take(10) {
        eprintln!("{b}");
    }
    assert!(bad.is_empty(), "{} of {compared} games disagree", bad.len());
    assert!(compared > 1500, "{compared}");
}

/// Converts a game to tenhou.net/6, reads it back and compares the event order and the wins.
fn compare_with_tenhou6(g: &Game) -> Result<(), crate::batch::BoxError> {
    let json = super::tenhou6::write::write(g).map_err(|e| e.to_string())?;
    let back = super::tenhou6::parse_tenhou6(&g.id, json.as_bytes()).map_err(|e| e.to_string())?;
    if back.rounds.len() != g.rounds.len() {
        return Err(format!("{} rounds back, {} in", back.rounds.len(), g.rounds.len()).into());
    }
    let kinds = |r: &Round| -> Vec<String> {
        r.events
            .iter()
            .filter_map(|e| match e {
                Event::Draw { who, tile } => Some(format!("T{who}:{}", tile.kind())),
                Event::Discard { who, tile } => Some(format!("D{who}:{}", tile.kind())),
                Event::Call { who, call } => Some(format!("N{who}:{:?}", call.kind)),
                Event::Riichi { who, step, .. } => Some(format!("R{who}:{step}")),
                Event::Agari(a) => {
                    let mut h: Vec<usize> = a.hand.iter().map(|t| t.kind()).collect();
                    h.sort();
                    Some(format!("A{}<{}:{}:{h:?}", a.who, a.from_who, a.win_tile.kind()))
                }
                Event::Ryuukyoku(d) => Some(format!("R{:?}", d.kind)),
                _ => None,
            })
            .collect()
    };
    for (ri, (a, b)) in g.rounds.iter().zip(&back.rounds).enumerate() {
        let (ka, kb) = (kinds(a), kinds(b));
        if ka != kb {
            let at = ka.iter().zip(&kb).position(|(x, y)| x != y).unwrap_or(ka.len().min(kb.len()));
            let near = |k: &[String]| k[at.saturating_sub(2)..(at + 3).min(k.len())].join(" ");
            return Err(format!("round {ri} event {at}: {} vs {}", near(&ka), near(&kb)).into());
        }
    }
    Ok(())
}

/// mjlogs that no tenhou.net/6 file can express (checked by hand): bot-test fixtures where a
/// riichi is never accepted (no REACH step 2) although play goes on, or where the first draw of
/// a round is not the dealer's.
const CONVERSION_QUIRKS: [&str; 2] = [
    "MahjongRepository__tenhou-python-bot__project_system_testing_fixtures_23.txt",
    "MahjongRepository__tenhou-python-bot__project_system_testing_fixtures_24.txt",
];

/// Parse-only speed over the whole top level (files already in memory). Run by hand:
/// `cargo test --lib log::corpus_tests::parse_speed -- --ignored --nocapture`.
#[test]
#[ignore = "a timing, run by hand (see the doc comment): a debug-build figure, not a check"]
fn parse_speed() {
    let dir = crate::testdata::need_file("tenhou");
    let inputs: Vec<(String, Vec<u8>)> = files_in(&dir)
        .iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().to_string(), std::fs::read(p).unwrap()))
        .collect();
    let bytes: usize = inputs.iter().map(|(_, b)| b.len()).sum();
    let xml_bytes: usize = inputs
        .iter()
        .map(|(_, b)| {
            if b.starts_with(&[0x1f, 0x8b]) {
                super::source::decompress("", b).unwrap().len()
            } else {
                b.len()
            }
        })
        .sum();
    let report = |label: &str, secs: f64| {
        eprintln!(
            "{label}: {} files in {secs:.2} s = {:.0} files/s, {:.1} MB/s as stored ({:.1} MB/s decompressed)",
            inputs.len(),
            inputs.len() as f64 / secs,
            bytes as f64 / 1e6 / secs,
            xml_bytes as f64 / 1e6 / secs
        );
    };
    let t = std::time::Instant::now();
    let n = inputs.iter().filter(|(n, b)| parse_game(n, b).is_ok()).count();
    report("1 thread", t.elapsed().as_secs_f64());
    let t = std::time::Instant::now();
    let m = inputs.par_iter().filter(|(n, b)| parse_game(n, b).is_ok()).count();
    report(&format!("rayon ({} threads)", rayon::current_num_threads()), t.elapsed().as_secs_f64());
    assert_eq!((n, m), (inputs.len(), inputs.len()));
}

/// The corpus holds ~5 million events; keep each small (the big records are boxed).
#[test]
fn events_stay_small() {
    assert!(std::mem::size_of::<Event>() <= 40, "{}", std::mem::size_of::<Event>());
}
