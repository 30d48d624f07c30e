//! Round trips through tenhou.net/6 on real games of `../shared/data/tenhou`: every complete game
//! written as tenhou.net/6 and read back replays and re-scores (yaku, fu, points, payments) with
//! no mismatch, has the same draws, discards, calls, riichi, doras, wins and draws, the same
//! players and final result, and writes the same bytes again; the real tenhou.net/6 files of the
//! corpus re-write to the same game (and to the same JSON when Tenhou wrote them).
//!
//! Without the shared data the tests are compiled as ignored (build.rs); a folder missing at run
//! time prints "SKIPPED" (and fails under `CI` / `HAIFU_REQUIRE_SHARED=1`).

mod common;

use haifu::log::event::{DrawKind, Event, Game, Round};
use haifu::log::tenhou6::parse_tenhou6;
use haifu::log::tenhou6::write::write;
use haifu::replay::check::Rescore;
use haifu::replay::replay_game;
use haifu::tile::TileId;

/// Records the replay refuses or mis-scores in their Tenhou form too (see `replay::check`).
const KNOWN_BAD: [&str; 3] = [
    "project_system_testing_fixtures_23.txt.mjlog",
    "project_system_testing_fixtures_24.txt.mjlog",
    "project_system_testing_fixtures_25.txt.mjlog",
];

/// A tile as the JSON can tell it: kind and redness (ids are handed out again by the reader).
fn code(t: TileId, red: bool) -> String {
    let r = red && haifu::tile::RED_IDS.contains(&t.get());
    format!("{}{}", t.kind(), if r { "r" } else { "" })
}

fn codes(ts: &[TileId], red: bool) -> String {
    let mut v: Vec<String> = ts.iter().map(|&t| code(t, red)).collect();
    v.sort();
    v.join(" ")
}

/// Every fact of a round that tenhou.net/6 carries, one string an event (disconnections aside:
/// the JSON places them only by step). `riichi_scores`: compare the scores after a riichi stick
/// (old mjlogs leave them out; the reader computes them). `dora_place`: keep each new dora where
/// it came (else they are listed at the end: a special lobby may show a kan's dora before the
/// replacement draw, which the JSON, giving only the list, turns into Tenhou's usual timing).
fn facts(r: &Round, red: bool, riichi_scores: bool, dora_place: bool) -> Vec<String> {
    let s = &r.start;
    let mut out = vec![format!(
        "start {} {} {} {:?} {} [{}]",
        s.round,
        s.honba,
        s.sticks,
        s.scores,
        code(s.dora_indicator, red),
        s.hands.iter().map(|h| codes(h, red)).collect::<Vec<_>>().join(" | ")
    )];
    let mut doras = Vec::new();
    for e in &r.events {
        out.push(match e {
            Event::Draw { who, tile } => format!("draw {who} {}", code(*tile, red)),
            Event::Discard { who, tile } => format!("discard {who} {}", code(*tile, red)),
            Event::Call { who, call } => format!(
                "call {who} {:?} from {} [{}] called {:?} added {:?}",
                call.kind,
                call.from,
                codes(&call.tiles, red),
                call.called.map(|t| code(t, red)),
                call.added.map(|t| code(t, red))
            ),
            Event::Riichi { who, step, scores } => {
                format!("riichi {who} {step} {:?}", scores.filter(|_| riichi_scores))
            }
            Event::Kita { who, tile } => format!("kita {who} {}", code(*tile, red)),
            Event::NewDora { indicator } if dora_place => format!("dora {}", code(*indicator, red)),
            Event::NewDora { indicator } => {
                doras.push(format!("dora {}", code(*indicator, red)));
                continue;
            }
            Event::Agari(a) => {
                let mut yaku: Vec<(u8, u8)> = a.yaku.iter().copied().filter(|&(_, h)| h > 0).collect();
                yaku.sort();
                // tenhou.net/6 writes no fu for a limit hand.
                let fu = if a.limit == haifu::score::Limit::None { a.fu } else { 0 };
                format!(
                    "win {} from {} pao {:?} tile {} hand [{}] melds {} fu {fu} points {} {:?} \
                     yaku {yaku:?} yakuman {:?} dora [{}] ura [{}] kita [{}] sticks {} honba {} before {:?} \
                     deltas {:?}",
                    a.who,
                    a.from_who,
                    a.pao_who,
                    code(a.win_tile, red),
                    codes(&a.hand, red),
                    a.melds.len(),
                    a.points,
                    a.limit,
                    a.yakuman,
                    codes(&a.dora_indicators, red),
                    codes(&a.ura_indicators, red),
                    codes(&a.kita, red),
                    a.sticks,
                    a.honba,
                    a.scores_before,
                    a.deltas
                )
            }
            Event::Ryuukyoku(d) => {
                // Hands shown at an exhaustive draw are the tenpai ones; the JSON tells them by
                // the payments (other draws show none there).
                let shown: Vec<bool> = d.shown.iter().map(Option::is_some).collect();
                let shown = if d.kind == DrawKind::Exhaustive { format!("{shown:?}") } else { String::new() };
                format!("draw {:?} {shown} before {:?} deltas {:?}", d.kind, d.scores_before, d.deltas)
            }
            Event::Disconnect { .. } | Event::Reconnect { .. } => continue,
        });
    }
    out.extend(doras);
    out
}

/// The game facts outside the rounds that tenhou.net/6 carries.
fn header(g: &Game) -> String {
    let r = &g.rules;
    format!(
        "{} {:?} red {} kuitan {} hanchan {} fast {} lobby {:?} players {:?} final {:?} {:?}",
        g.id,
        r.table,
        r.red_fives(),
        r.kuitan,
        r.hanchan,
        r.fast,
        r.lobby,
        g.players,
        g.final_scores,
        g.final_results
    )
}

/// Writes, reads back, replays with re-scoring, compares facts and bytes; `Ok(None)` for a
/// special-lobby game, whose read-back is not replayed (its scoring rules are not in the JSON).
fn round_trip(g: &Game) -> Result<Option<usize>, String> {
    let want = replay_game(g, &mut (), &mut Rescore::default()).map_err(|e| format!("tenhou form: {e}"))?;
    if let Some(m) = want.mismatches.first() {
        return Err(format!("tenhou form: {m}"));
    }
    let text = write(g).map_err(|e| format!("write: {e}"))?;
    let back = parse_tenhou6(&g.id, text.as_bytes()).map_err(|e| format!("read back: {e}"))?;
    let special = g.rules.go_type & !0xff != 0;
    if !special {
        let got =
            replay_game(&back, &mut (), &mut Rescore::default()).map_err(|e| format!("read back: {e}"))?;
        if let Some(m) = got.mismatches.first() {
            return Err(format!("read back: {m}"));
        }
        if (got.rounds, got.discards, got.agari) != (want.rounds, want.discards, want.agari) {
            return Err(format!("read back replays {got:?}, the record {want:?}"));
        }
    }
    if header(&back) != header(g) {
        return Err(format!("header {} vs {}", header(&back), header(g)));
    }
    let red = g.rules.red_fives();
    let with_scores = !g
        .rounds
        .iter()
        .flat_map(|r| &r.events)
        .any(|e| matches!(e, Event::Riichi { step: 2, scores: None, .. }));
    for (ri, (a, b)) in g.rounds.iter().zip(&back.rounds).enumerate() {
        let (fa, fb) = (facts(a, red, with_scores, !special), facts(b, red, with_scores, !special));
        if let Some(i) = (0..fa.len().max(fb.len())).find(|&i| fa.get(i) != fb.get(i)) {
            return Err(format!("round {ri} event {i}: {:?} vs {:?}", fa.get(i), fb.get(i)));
        }
    }
    if write(&back).map_err(|e| format!("write again: {e}"))? != text {
        return Err("tenhou6 -> tenhou6 changed bytes".into());
    }
    Ok((!special).then_some(want.agari))
}

/// Every complete game of the corpus (mjlog, gzipped mjlog, tenhou.net/6).
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn every_shared_game_round_trips_through_tenhou6() {
    let files = haifu::testdata::need_tenhou_files(&[".mjlog", ".mjlog.gz", ".t6.json"]);
    let t = std::time::Instant::now();
    let out = haifu::batch::run(&files, None, "tenhou6", round_trip);
    eprintln!("{} games in {:.1} s", out.results.len(), t.elapsed().as_secs_f64());
    let known = |f: &str| KNOWN_BAD.iter().any(|k| f.ends_with(k));
    let errors: Vec<_> = out.errors.iter().filter(|e| !known(&e.file)).collect();
    for e in &errors {
        eprintln!("{}: {}", e.file, &e.error[..e.error.len().min(400)]);
    }
    assert!(errors.is_empty(), "{} games failed, first: {:?}", errors.len(), &errors[..errors.len().min(5)]);
    let special = out.results.iter().filter(|(_, w)| w.is_none()).count();
    assert!(special <= 6, "{special} special-lobby games (6 in the corpus)");
    assert!(out.results.len() > 4900, "{} games", out.results.len());
    let wins: usize = out.results.iter().filter_map(|(_, w)| *w).sum();
    assert!(wins > 44_000, "{wins} wins");
}

/// Every 3-player game of `tenhou/sanma` (279 Houou sanma mjlogs) written as tenhou.net/6 and
/// read back: the same facts, players and result, no re-scoring mismatch, the same bytes written
/// again, and every win of the records. There is no real tenhou.net/6 sanma file in the shared
/// data (docs/sanma.md): the layout written and read (`三` in `rule.disp`, an empty fourth seat,
/// `"f44"` for a set-aside north, a tsumo's two payments) is tensoul's, so this proves the
/// writer and reader agree with each other and with the mjlogs, not with a file Tenhou wrote.
/// The wins are counted independently as the `<AGARI ` tags of the raw files.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn every_sanma_game_round_trips_through_tenhou6() {
    let files = haifu::testdata::need_sanma_files();
    let raw_wins = haifu::testdata::count_in_files(&files, "<AGARI ");
    let out = haifu::batch::run(&files, None, "tenhou6", |g| {
        assert_eq!(g.rules.players, 3, "{}", g.id);
        round_trip(g)
    });
    for e in &out.errors {
        eprintln!("{}: {}", e.file, &e.error[..e.error.len().min(400)]);
    }
    assert!(out.errors.is_empty(), "{} games failed", out.errors.len());
    assert_eq!(out.results.len(), 279);
    let wins: usize = out.results.iter().filter_map(|(_, w)| *w).sum();
    assert_eq!(wins, raw_wins, "wins replayed from the read-back games, <AGARI> tags in the files");
    assert_eq!(wins, 2_183, "docs/sanma.md's count");
}

/// Zero-han ura dora entries are not written (Tenhou leaves them out too), and dealt hands are
/// written sorted.
fn normalised(mut g: Game) -> Game {
    for r in &mut g.rounds {
        for h in &mut r.start.hands {
            h.sort();
        }
    }
    for e in g.rounds.iter_mut().flat_map(|r| &mut r.events) {
        if let Event::Agari(a) = e {
            a.yaku.retain(|&y| y != (53, 0));
        }
    }
    g
}

/// The real tenhou.net/6 files (top level and excerpts): re-written and read back they give the
/// same game, event for event and tile id for tile id; the ones Tenhou wrote re-write to the same
/// JSON, byte for byte when Tenhou's file is compact.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn real_tenhou6_files_rewrite_to_the_same_game() {
    let dir = haifu::testdata::need_file("tenhou");
    let mut files: Vec<_> = ["", "partial"]
        .iter()
        .flat_map(|sub| std::fs::read_dir(dir.join(sub)).unwrap().map(|e| e.unwrap().path()))
        .filter(|p| p.to_string_lossy().ends_with(".t6.json"))
        .collect();
    files.sort();
    let (mut same_game, mut same_json, mut same_bytes) = (0, 0, 0);
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        let Ok(g) = parse_tenhou6("x", &bytes) else { continue };
        let text = write(&g).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let back = parse_tenhou6("x", text.as_bytes()).unwrap();
        assert_eq!(normalised(back), normalised(g), "{}", p.display());
        same_game += 1;
        let orig: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        if orig.get("ver").is_some() {
            let ours: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(ours, orig, "{}", p.display());
            same_json += 1;
            same_bytes += usize::from(text.as_bytes() == bytes.trim_ascii_end());
        }
    }
    eprintln!("{same_game} games equal, {same_json} Tenhou files equal as JSON, {same_bytes} byte for byte");
    assert!(same_game >= 41, "{same_game} of the 42 files (one excerpt does not parse)");
    assert_eq!(same_json, 20, "every top-level file is Tenhou's");
    assert!(same_bytes >= 8, "{same_bytes} compact files");
}

/// Strings from Tenhou's own JSON of `2019021004gm-00a9-0000-e2f6516d` (its mjlog is in the
/// corpus; Tenhou's `mjlog2json.cgi` wrote them): a non-dealer tsumo's split, a pinfu ron, calls.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn an_mjlog_writes_tenhous_own_strings() {
    let p = haifu::testdata::need_file("tenhou/2019021004gm-00a9-0000-e2f6516d.mjlog");
    let g = haifu::log::source::Source::file(&p).load().unwrap();
    let text = write(&g).unwrap();
    for s in [
        r#"{"ver":2.3,"ref":"2019021004gm-00a9-0000-e2f6516d","log":[[[0,0,0],[25000,25000,25000,25000],[33],[],"#,
        r#"["和了",[-800,-1400,-800,5000],[3,3,3,"20符3飜700-1300点","立直(1飜)","門前清自摸和(1飜)","平和(1飜)"]]"#,
        r#"["和了",[0,-1800,2800,0],[2,1,2,"30符1飜1500点","平和(1飜)"]]"#,
        r#"["流局",[-1000,3000,-1000,-1000]]"#,
        r#"[12,17,19,22,27,27,27,28,32,53,37,39,46]"#,
        r#""c375336""#,
        r#""1515p15""#,
        r#""272727a27""#,
        r#""3737k3737""#,
        r#""r60""#,
        r#""ratingc":"PF4","rule":{"disp":"鳳南喰赤","aka53":1,"aka52":1,"aka51":1},"lobby":0,"dan":["七段","七段","七段","九段"],"rate":[2074.7,2067.27,2082.79,2277.68],"sx":["M","M","F","M"],"sc":[4400,-46,7100,-33,40700,21,47800,58]"#,
    ] {
        assert!(text.contains(s), "{s} not in {text}");
    }
}

/// The command: `haifu convert --to tenhou6` writes `OUT/GAME_ID.json` that reads back as the
/// game; a broken record makes exit status 1 and is not written.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn the_command_writes_json_files() {
    let files = haifu::testdata::need_tenhou_files(&[".mjlog"]);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::copy(&files[0], input.join("a.mjlog")).unwrap();
    std::fs::write(input.join("broken.mjlog"), "<mjloggm ver=\"2.3\"><GO type=\"169\"/>").unwrap();
    let out = dir.path().join("out");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_haifu"))
        .args(["convert", "--to", "tenhou6", "--jobs", "1", "--out"])
        .arg(&out)
        .arg(&input)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("written  1") && stdout.contains("failed   1"), "{stdout}");
    let text = std::fs::read(out.join("a.json")).unwrap();
    let back = parse_tenhou6("a", &text).unwrap();
    let orig = haifu::log::source::Source::file(&files[0]).load().unwrap();
    assert_eq!(back.rounds.len(), orig.rounds.len());
    assert!(!out.join("broken.json").exists());
    // --json: the same counts as one object, the refused file named with why, --resume keeps a.json.
    let json = std::process::Command::new(env!("CARGO_BIN_EXE_haifu"))
        .args(["convert", "--to", "tenhou6", "--jobs", "1", "--resume", "--json", "--out"])
        .arg(&out)
        .arg(&input)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json.status.code(), Some(1), "{v}");
    assert_eq!(
        (v["files"].as_u64(), v["written"].as_u64(), v["kept"].as_u64()),
        (Some(2), Some(0), Some(1)),
        "{v}"
    );
    let failed = v["failed"].as_array().unwrap();
    assert!(failed.len() == 1 && failed[0]["file"].as_str().unwrap().ends_with("broken.mjlog"), "{v}");
}

/// mjlog -> tenhou.net/6 and mjlog: the same rows from `game_rows` in every column (rounds,
/// decisions, options and every feature value), on games covering chi, pon and every kan.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn tenhou6_gives_the_same_rows_as_mjlog() {
    common::rows_survive(|g| parse_tenhou6(&g.id, write(g).unwrap().as_bytes()).unwrap());
}
