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

/// Runs `haifu ARGS...` and returns (status code, stdout).
fn haifu(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_haifu")).args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

/// The page of a real three-player game: three seats, judged by the three-player weights, the
/// north decisions present and as many set-asides among them as the mjlog text has `<N>` tags
/// with 0x20 for that seat, and no opponent across the table.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn three_player_page() {
    let game = haifu::testdata::need_file("tenhou/sanma/2020010100gm-00b9-0000-18a1410f.mjlog");
    let tmp = tempfile::tempdir().unwrap();
    let (page, json) = (tmp.path().join("p.html"), tmp.path().join("p.json"));
    for seat in ["0", "2"] {
        let args = [game.as_os_str(), "--seat".as_ref(), seat.as_ref(), "--out".as_ref(), page.as_os_str()];
        let (code, text) =
            haifu(&[&["review".as_ref()][..], &args, &["--json".as_ref(), json.as_os_str()]].concat());
        assert_eq!(code, Some(0), "{text}");
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(v["game"]["seats"], 3);
        let mut places: Vec<u64> = v["game"]["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["placement"].as_u64().unwrap())
            .collect();
        places.sort();
        assert_eq!(places, [1, 2, 3]);
        for w in v["weights"].as_array().unwrap() {
            assert!(w.as_str().unwrap().contains("sanma"), "a four-player model judged: {w}");
        }
        let decisions: Vec<&serde_json::Value> =
            v["rounds"].as_array().unwrap().iter().flat_map(|r| r["decisions"].as_array().unwrap()).collect();
        let kita: Vec<_> = decisions.iter().filter(|d| d["kind"] == "kita").collect();
        assert_eq!(v["summary"]["kita"]["decisions"].as_u64(), Some(kita.len() as u64));
        for d in &kita {
            let mut labels: Vec<&str> =
                d["options"].as_array().unwrap().iter().map(|o| o["label"].as_str().unwrap()).collect();
            labels.sort();
            assert_eq!(labels, ["keep", "kita"]);
        }
        // The set-asides of the seat, from the text: <N who="s" m="..."> with m & 0xFF == 0x20.
        let text = std::fs::read_to_string(&game).unwrap();
        let set_aside = text
            .split(&format!("<N who=\"{seat}\" m=\""))
            .skip(1)
            .filter(|rest| rest.split('"').next().unwrap().parse::<u32>().unwrap() & 0xFF == 0x20)
            .count();
        assert!(set_aside > 0);
        assert_eq!(kita.iter().filter(|d| d["human"] == "kita").count(), set_aside, "seat {seat}");
        for d in &decisions {
            for r in d["riichi"].as_array().unwrap() {
                assert!(r["seat"].as_u64().unwrap() < 3 && r["relative"] != "toimen", "{r}");
            }
        }
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(html.contains("A three-player (sanma) game") && html.contains("norths (kita)"));
        assert_eq!(html.matches("<section class=\"decision").count(), decisions.len());
        assert_eq!(
            html.split("id=\"result\"")
                .nth(1)
                .unwrap()
                .split("</table>")
                .next()
                .unwrap()
                .matches("<tr")
                .count(),
            4
        );
    }
    // Seat 3 is nobody's at three players.
    let (code, text) = haifu(&[
        "review".as_ref(),
        game.as_os_str(),
        "--seat".as_ref(),
        "3".as_ref(),
        "--out".as_ref(),
        page.as_os_str(),
    ]);
    assert_eq!(code, Some(2), "{text}");
}

/// A player with games of both variants (藤井聡太: two four-player and two three-player records
/// here): the summary keeps them apart, each variant's totals the sums of its own games' pages.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn summary_per_variant() {
    let games = [
        "tenhou/2020010104gm-00a9-0000-2cf09a93.mjlog",
        "tenhou/2020010109gm-00a9-0000-d5ed323a.mjlog",
        "tenhou/sanma/2020010103gm-00b9-0000-99053d35.mjlog",
        "tenhou/sanma/2020010103gm-00b9-0000-b05f20db.mjlog",
    ]
    .map(haifu::testdata::need_file);
    let tmp = tempfile::tempdir().unwrap();
    let (sum, json) = (tmp.path().join("sum"), tmp.path().join("json"));
    let mut args: Vec<&std::ffi::OsStr> = vec!["review".as_ref()];
    args.extend(games.iter().map(|g| g.as_os_str()));
    args.extend(["--player".as_ref(), "藤井聡太".as_ref(), "--summary".as_ref(), sum.as_os_str()]);
    args.extend(["--json".as_ref(), json.as_os_str()]);
    let (code, text) = haifu(&args);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("2 four-player games") && text.contains("2 three-player games"), "{text}");
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(sum.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["games"], 4);
    for (key, seats) in [("totals", 4), ("totals_three_player", 3)] {
        let t = &s[key];
        assert_eq!((t["seats"].as_u64(), t["games"].as_u64()), (Some(seats), Some(2)), "{key}");
        // The variant's decisions: the sum over its games' own pages.
        let mut decisions = 0;
        for r in s["rows"].as_array().unwrap().iter().filter(|r| r["seats"] == seats) {
            let stem = r["page"].as_str().unwrap().rsplit('/').next().unwrap().trim_end_matches(".html");
            let page: serde_json::Value =
                serde_json::from_slice(&std::fs::read(json.join(format!("{stem}.json"))).unwrap()).unwrap();
            assert_eq!(page["game"]["seats"], seats);
            decisions += page["summary"]["game"]["decisions"].as_u64().unwrap();
        }
        assert_eq!(t["agreement"]["decisions"].as_u64(), Some(decisions), "{key}");
        let placed: u64 = t["placements"].as_array().unwrap().iter().map(|p| p.as_u64().unwrap()).sum();
        assert_eq!(placed, 2, "{key}");
    }
    assert_eq!(s["totals_three_player"]["placements"][3], 0);
    assert!(
        s["totals"]["kita"]["decisions"] == 0
            && s["totals_three_player"]["kita"]["decisions"].as_u64() > Some(0)
    );
    for f in ["trend.png", "trend-three-player.png"] {
        assert!(sum.join(f).is_file(), "{f}");
    }
    let html = std::fs::read_to_string(sum.join("index.html")).unwrap();
    assert!(html.contains("Four-player games (2)") && html.contains("Three-player games (2)"));
}
