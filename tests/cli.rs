//! End-to-end tests of the command line: arguments in, text/JSON and exit codes out.
//! One test binary for the whole CLI, so the heavy dependency stack is linked once.

use std::process::{Command, Output};

fn haifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_haifu")).args(args).output().expect("run haifu")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = haifu(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

#[test]
fn shanten_json_by_form() {
    let v = json(&["shanten", "19m19p19s1234567z", "--json"]);
    assert_eq!(v, serde_json::json!({"shanten":0,"standard":8,"chiitoitsu":6,"kokushi":0}));
    let v = json(&["shanten", "1188m288p55s1177z", "--json"]);
    assert_eq!(v["chiitoitsu"], 0);
    assert_eq!(v["shanten"], 0);
}

#[test]
fn shanten_with_melds() {
    let v = json(&["shanten", "2367m34p11z 555z 789s", "--json"]);
    assert_eq!(v["standard"], 1);
    assert_eq!(v["chiitoitsu"], serde_json::Value::Null);
}

#[test]
fn nanikiru_json_shape_and_red_five() {
    // Holding 0p and 5p: both are options, printed as 0p and 5p.
    let v = json(&["nanikiru", "1234678m056p3s114z", "--dora", "4p", "--json"]);
    let opts = v["options"].as_array().unwrap();
    let tiles: Vec<&str> = opts.iter().map(|o| o["tile"].as_str().unwrap()).collect();
    assert!(tiles.contains(&"0p") && tiles.contains(&"5p"), "{tiles:?}");
    assert_eq!(v["discard"], opts[0]["tile"]);
    // 14 tiles, 13 distinct (1m..4m 6m..8m 0p 5p 6p 3s 1z 4z): every option listed once
    assert_eq!(opts.len(), 13);
    for o in opts {
        assert!(o["score"].is_number() && o["shanten"].is_number() && o["ukeire"].is_number());
    }
    // the isolated guest wind (North for a South seat in an East round) goes first
    assert_eq!(v["discard"], "4z");
}

#[test]
fn bad_input_is_a_clear_error() {
    let out = haifu(&["shanten", "123m45x"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'x'") && err.contains("position 6"), "{err}");
    let out = haifu(&["nanikiru", "123m456p789s1122z"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("14 tiles"));
    let out = haifu(&["nanikiru", "123m456p789s11222z", "--seat-wind", "X"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A real record from ../shared copied into a temp folder, plus a corrupted copy: the good one
/// checks clean (exit 0), the pair reports the bad file by name and exits 1 without losing the
/// good game.
#[test]
fn check_exit_codes_and_bad_files() {
    let Some(src) = haifu::testdata::shared_file("tenhou/2019013122gm-00a9-0000-fe2af191.mjlog") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.mjlog");
    std::fs::copy(&src, &good).unwrap();
    let v = json(&["check", good.to_str().unwrap(), "--json"]);
    assert_eq!(v["games"], 1);
    assert_eq!(v["agari_mismatches"], 0);
    assert!(v["agari"].as_u64().unwrap() > 0 && v["discards"].as_u64().unwrap() > 100);
    let bytes = std::fs::read(&src).unwrap();
    std::fs::write(dir.path().join("cut.mjlog"), &bytes[..bytes.len() / 2]).unwrap();
    let out = haifu(&["check", dir.path().to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"], 2);
    assert_eq!(v["games"], 1);
    let errors = v["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert!(errors[0]["file"].as_str().unwrap().ends_with("cut.mjlog"), "{errors:?}");
    let out = haifu(&["check"]);
    assert_eq!(out.status.code(), Some(2), "no path is bad usage");
}
