//! `haifu review` end to end on real shared records: a single page with its JSON, and a batch
//! over a folder with `--player` writing only that player's games plus the index. Ignored with
//! the reason when ../shared is missing.

use std::path::PathBuf;
use std::process::Command;

/// The first two .mjlog records of the shared corpus (a failure naming them when missing).
fn shared_games() -> Vec<PathBuf> {
    let mut files = haifu::testdata::need_tenhou_files(&[".mjlog"]);
    files.truncate(2);
    files
}

#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn review_page_json_and_batch() {
    let games = shared_games();
    let tmp = tempfile::tempdir().unwrap();
    let page = tmp.path().join("one/page.html");
    let json = tmp.path().join("one/page.json");
    let out = Command::new(env!("CARGO_BIN_EXE_haifu"))
        .arg("review")
        .arg(&games[0])
        .args(["--seat", "2", "--out"])
        .arg(&page)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && !html.contains("http://") && !html.contains("https://"));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["seat"], 2);
    let n = v["summary"]["game"]["decisions"].as_u64().unwrap() as usize;
    assert_eq!(html.matches("<section class=\"decision").count(), n);

    // A batch over a folder for the player of seat 2 of the first game: one page, one index.
    let player = v["player"].as_str().unwrap().to_string();
    let folder = tmp.path().join("in");
    std::fs::create_dir_all(&folder).unwrap();
    for g in &games {
        std::fs::copy(g, folder.join(g.file_name().unwrap())).unwrap();
    }
    let dir = tmp.path().join("pages");
    let out = Command::new(env!("CARGO_BIN_EXE_haifu"))
        .arg("review")
        .arg(&folder)
        .args(["--player", &player, "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let pages = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path() != dir.join("index.html"))
        .count();
    assert!(pages >= 1, "no page written");
    assert_eq!(index.matches("<tr><td class=\"l\"><a href=").count(), pages);
}

/// `haifu review --player NAME --summary DIR` on real records: the pages go to DIR/games without
/// --out, the summary's files are there, its JSON counts the player's games and links pages that
/// exist; `haifu stats --agreement` on the same records counts every human decision, by dan and
/// year, and the README carries the section.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn summary_and_stats_agreement() {
    let mut games = haifu::testdata::need_tenhou_files(&[".mjlog"]);
    games.truncate(3);
    let game = haifu::log::source::parse_game("g", &std::fs::read(&games[0]).unwrap()).unwrap();
    let name = game.players[1].name.clone();
    let tmp = tempfile::tempdir().unwrap();
    let sum = tmp.path().join("sum");
    let out = Command::new(env!("CARGO_BIN_EXE_haifu"))
        .arg("review")
        .args(&games)
        .args(["--player", &name, "--summary"])
        .arg(&sum)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("match rate") && stdout.contains("index.html"), "{stdout}");
    for f in ["index.html", "summary.json", "games.csv", "games.parquet", "trend.png", "games/index.html"] {
        assert!(sum.join(f).is_file(), "{f} missing");
    }
    let j: serde_json::Value =
        serde_json::from_slice(&std::fs::read(sum.join("summary.json")).unwrap()).unwrap();
    let rows = j["rows"].as_array().unwrap();
    assert!(!rows.is_empty() && j["games"] == rows.len(), "{j}");
    for r in rows {
        assert!(sum.join(r["page"].as_str().unwrap()).is_file(), "{r}");
    }
    // --summary needs --player: a usage error (status 2).
    let bad = Command::new(env!("CARGO_BIN_EXE_haifu"))
        .arg("review")
        .arg(&games[0])
        .args(["--seat", "1", "--summary"])
        .arg(tmp.path().join("x"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2), "{}", String::from_utf8_lossy(&bad.stderr));

    let stats = tmp.path().join("stats");
    let out = Command::new(env!("CARGO_BIN_EXE_haifu"))
        .arg("stats")
        .args(&games)
        .arg("--agreement")
        .arg("--out")
        .arg(&stats)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let md = std::fs::read_to_string(stats.join("README.md")).unwrap();
    assert!(md.contains("## Agreement with `linear` by dan and by year"), "{md}");
    let csv = std::fs::read_to_string(stats.join("agreement.csv")).unwrap();
    assert!(csv.lines().any(|l| l.starts_with("dan,all,")), "{csv}");
    assert!(stats.join("match_rate_by_dan.png").is_file());
}
