//! `haifu review` end to end on real shared records: a single page with its JSON, and a batch
//! over a folder with `--player` writing only that player's games plus the index. Skipped with a
//! message when ../shared is missing.

use std::path::PathBuf;
use std::process::Command;

fn shared_games() -> Option<Vec<PathBuf>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/tenhou");
    if !dir.is_dir() {
        eprintln!("SKIPPED: {} not found; the review CLI test did not run", dir.display());
        return None;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".mjlog")))
        .collect();
    files.sort();
    files.truncate(2);
    Some(files)
}

#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn review_page_json_and_batch() {
    let Some(games) = shared_games() else { return };
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
