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

/// Hands pasted from 電脳麻将 in majiang notation: the issue's two examples, the same answers as
/// their mpsz spelling.
#[test]
fn majiang_notation_on_the_command_line() {
    let a = json(&["shanten", "m34567p2388s5779p1", "--json"]);
    assert_eq!(a, json(&["shanten", "34567m12388p5779s", "--json"]));
    let b = json(&["shanten", "p456788s3477p0,p222=", "--json"]);
    assert_eq!(b, json(&["shanten", "4567880p3477s 222p", "--json"]));
    let n = json(&["nanikiru", "p456788s3477p0,p222=", "--evaluator", "ev", "--dora", "s4", "--json"]);
    let m = json(&["nanikiru", "4567880p3477s 222p", "--evaluator", "ev", "--dora", "4s", "--json"]);
    assert_eq!(n["options"].as_array().unwrap().len(), m["options"].as_array().unwrap().len());
    assert_eq!(n["options"][0]["score"], m["options"][0]["score"]);
    let out = haifu(&["shanten", "m12x4"]);
    assert_eq!(out.status.code(), Some(2));
    let out = haifu(&["shanten", "m123p456s789z11,m1+23"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("m1+23"));
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
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn check_exit_codes_and_bad_files() {
    let src = haifu::testdata::need_file("tenhou/2019013122gm-00a9-0000-fe2af191.mjlog");
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

/// ingest → fit → eval → stats on a few real records: the files each stage writes, the JSON
/// shapes other tools rely on, and that the fitted evaluator is measured on held-out games.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn pipeline_on_real_records() {
    let files = haifu::testdata::need_tenhou_files(&[".mjlog"]);
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    for f in files.iter().skip(100).step_by(97).take(8) {
        std::fs::copy(f, logs.join(f.file_name().unwrap())).unwrap();
    }
    let data = tmp.path().join("data");
    let ingest = |out: &std::path::Path, more: &[&str]| -> Output {
        let mut args = vec!["ingest", logs.to_str().unwrap(), "--out", out.to_str().unwrap(), "--json"];
        args.extend(["--part-games", "3"]);
        args.extend(more);
        haifu(&args)
    };
    let v: serde_json::Value = serde_json::from_slice(&ingest(&data, &[]).stdout).expect("JSON");
    assert_eq!(v["games"], 8);
    assert_eq!(v["parts_written"], 3);
    assert!(v["decisions"].as_u64().unwrap() > 1000);
    let tables = ["games", "rounds", "decisions", "options", "waits", "_parts"];
    let listing = |dir: &std::path::Path| -> Vec<(String, Vec<u8>)> {
        let mut files = Vec::new();
        for t in tables {
            for e in std::fs::read_dir(dir.join(t)).unwrap() {
                let p = e.unwrap().path();
                files.push((
                    format!("{t}/{}", p.file_name().unwrap().to_str().unwrap()),
                    std::fs::read(&p).unwrap(),
                ));
            }
        }
        files.sort();
        files
    };
    let names: Vec<String> = listing(&data).into_iter().map(|(n, _)| n).collect();
    assert!(names.contains(&"options/part-000002.parquet".to_string()), "{names:?}");
    assert!(names.contains(&"_parts/part-000002.json".to_string()), "{names:?}");
    assert_eq!(names.len(), 18, "{names:?}");
    // A run stopped after one part, then resumed: the same files as the run above.
    let cut = tmp.path().join("cut");
    let out = Command::new(env!("CARGO_BIN_EXE_haifu"))
        .env("HAIFU_INGEST_STOP_AFTER_PARTS", "1")
        .args(["ingest", logs.to_str().unwrap(), "--out", cut.to_str().unwrap(), "--part-games", "3"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = ingest(&cut, &[]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--resume"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&ingest(&cut, &["--resume"]).stdout).expect("JSON");
    assert_eq!(
        (v["parts_kept"].as_u64(), v["parts_written"].as_u64(), v["games"].as_u64()),
        (Some(1), Some(2), Some(8))
    );
    assert!(listing(&cut) == listing(&data), "resumed output differs");
    let weights = tmp.path().join("w/weights.json");
    let again = tmp.path().join("w/again.json");
    let fit_args = |out: &std::path::Path| -> Vec<String> {
        let args =
            ["fit", "--data", data.to_str().unwrap(), "--out", out.to_str().unwrap(), "--seats", "all"];
        let rest = [
            "--test",
            "0.25",
            "--validation",
            "0.25",
            "--max-iters",
            "30",
            "--l2",
            "0.001",
            "--interact",
            "shanten:ukeire+energy_",
            "--interact",
            "riichi:safety_worst",
        ];
        args.iter().chain(&rest).map(|a| a.to_string()).collect()
    };
    let out = Command::new(env!("CARGO_BIN_EXE_haifu")).args(fit_args(&weights)).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The same data and seed give the same weights file, whatever the thread count.
    let out = Command::new(env!("CARGO_BIN_EXE_haifu"))
        .env("RAYON_NUM_THREADS", "1")
        .args(fit_args(&again))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(std::fs::read(&weights).unwrap() == std::fs::read(&again).unwrap(), "fit is not deterministic");
    let w: serde_json::Value = serde_json::from_slice(&std::fs::read(&weights).unwrap()).unwrap();
    for key in
        ["features", "loss", "l2", "filter", "split_seed", "data_fingerprint", "haifu_version", "metrics"]
    {
        assert!(!w[key].is_null(), "weights file lacks {key}");
    }
    assert!(weights.with_extension("md").exists() && weights.with_extension("loss.png").exists());
    // The fit's last step calibrates; `haifu calibrate` on the same data recomputes exactly it
    // from the file's own weights.
    let t = w["calibration"]["temperature"].as_f64().expect("a calibration");
    assert!(t > 0.0 && t.is_finite(), "temperature {t}");
    assert!(w["calibration"]["test"]["bins"].as_array().is_some_and(|b| b.len() == 10));
    let out = Command::new(env!("CARGO_BIN_EXE_haifu"))
        .args(["calibrate", "--data", data.to_str().unwrap(), "--weights", again.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("temperature"));
    assert!(
        std::fs::read(&weights).unwrap() == std::fs::read(&again).unwrap(),
        "calibrate differs from the fit's"
    );
    assert!(std::fs::read_to_string(again.with_extension("md")).unwrap().contains("## Calibration"));
    // `haifu calibrate --trees MODEL` writes the model's temperature beside it, tied to its bytes,
    // and `review --trees MODEL` then judges the discards with the trees.
    let model = tmp.path().join("m.txt.gz");
    std::fs::copy(haifu::model::trees::default_path(), &model).unwrap();
    // `haifu calibrate --trees m.txt.gz`, then the calibration file it wrote
    let calibrate_trees = || {
        let out = Command::new(env!("CARGO_BIN_EXE_haifu"))
            .args(["calibrate", "--data", data.to_str().unwrap(), "--weights", weights.to_str().unwrap()])
            .args(["--trees", model.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let file = std::fs::read(tmp.path().join("m.calibration.json")).unwrap();
        serde_json::from_slice::<serde_json::Value>(&file).unwrap()
    };
    let cal = calibrate_trees();
    let t = cal["calibration"]["temperature"].as_f64().expect("a temperature");
    assert!(t > 0.0 && t.is_finite() && cal["model"] == "m.txt.gz", "{cal}");
    let page = tmp.path().join("page.json");
    let first = std::fs::read_dir(&logs).unwrap().next().unwrap().unwrap().path();
    let out = Command::new(env!("CARGO_BIN_EXE_haifu"))
        .args(["review", first.to_str().unwrap(), "--seat", "0", "--trees", model.to_str().unwrap()])
        .args(["--out", tmp.path().join("page.html").to_str().unwrap(), "--json", page.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&page).unwrap()).unwrap();
    assert_eq!(r["judges"][0], "trees", "{}", r["judges"]);
    let discards = r["rounds"].as_array().unwrap().iter().flat_map(|x| x["decisions"].as_array().unwrap());
    assert!(discards.filter(|d| d["kind"] == "discard").all(|d| d["judged_by"] == "trees"));
    // A retrained model (other bytes) is refused its old temperature by the judge, and
    // `haifu calibrate --trees`, which the refusal points to, replaces it.
    std::fs::copy("data/weights/trees-riichi.txt.gz", &model).unwrap();
    let review = Command::new(env!("CARGO_BIN_EXE_haifu"))
        .args(["review", first.to_str().unwrap(), "--seat", "0", "--trees", model.to_str().unwrap()])
        .args(["--out", tmp.path().join("page.html").to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&review.stderr);
    assert!(!review.status.success() && err.contains("haifu calibrate --trees"), "{err}");
    let again = calibrate_trees();
    assert_ne!(again["model_fnv1a"], cal["model_fnv1a"], "{again}");
    // `haifu eval --data DATA --seats all ARGS --json`
    let eval = |args: &[&str]| {
        let mut all = vec!["eval", "--data", data.to_str().unwrap(), "--seats", "all"];
        all.extend_from_slice(args);
        all.push("--json");
        json(&all)
    };
    let e = eval(&[
        "--weights",
        weights.to_str().unwrap(),
        "--test",
        "0.25",
        "--validation",
        "0.25",
        "--split",
        "test",
    ]);
    assert_eq!(e["decisions"].as_u64(), w["decisions"]["test"].as_u64(), "eval sees the fit's test split");
    // The evaluator rebuilds the interaction columns from the weights file exactly as the fit
    // built them from the dataset: same top-1 on the same decisions.
    assert!(w["features"].as_array().unwrap().iter().any(|f| f["name"] == "sh1*ukeire_count"));
    let (fit_top1, eval_top1) =
        (w["metrics"]["test"]["top1"].as_f64().unwrap(), e["evaluators"]["linear"]["top1"].as_f64().unwrap());
    assert!((fit_top1 - eval_top1).abs() < 1e-6, "fit {fit_top1} vs eval {eval_top1}");
    for ev in ["ukeire", "linear"] {
        let a = &e["evaluators"][ev];
        let top1 = a["top1"].as_f64().unwrap();
        assert!(top1 > 0.2 && top1 <= 1.0, "{ev} top1 {top1}");
        assert!(a["top3"].as_f64().unwrap() >= top1);
        for s in ["by_shanten", "by_turn", "by_riichi", "by_table", "by_seat"] {
            assert!(a[s].is_object(), "{ev}.{s}");
        }
    }
    // The yaku evaluator and the push/fold layer over a dataset.
    let pf = eval(&["--evaluator", "yaku", "--evaluator", "ukeire", "--push-fold"]);
    assert_eq!(pf["push_fold"]["good"].as_f64(), Some(400.0));
    let yaku = pf["evaluators"]["yaku"]["top1"].as_f64().unwrap();
    assert!(yaku > 0.1 && yaku < 1.0, "yaku top1 {yaku}");
    assert!(pf["evaluators"]["linear"].is_null(), "only the evaluators asked for");
    // Riichi decisions: both reference evaluators always declare (the options differ only in the
    // action columns), so they agree exactly; a tie-break lost in rounding would split them.
    let r = eval(&["--kind", "riichi", "--evaluator", "ukeire", "--evaluator", "ev"]);
    assert!(r["decisions"].as_u64().unwrap() > 0, "some riichi decisions");
    let (u, e) = (&r["evaluators"]["ukeire"], &r["evaluators"]["ev"]);
    assert_eq!(u["top1"], e["top1"]);
    assert!(u["top1"].as_f64().unwrap() < 1.0, "humans sometimes stay dama (or declare late)");
    // The side-by-side report over every selected decision.
    let reports = tmp.path().join("reports");
    let out = haifu(&[
        "report",
        "--data",
        data.to_str().unwrap(),
        "--weights",
        weights.to_str().unwrap(),
        "--seats",
        "all",
        "--all-games",
        "--out",
        reports.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let md = std::fs::read_to_string(reports.join("README.md")).unwrap();
    for section in ["## Overall", "## By shanten", "## Push / fold", "linear + push/fold", "yaku"] {
        assert!(md.contains(section), "report lacks {section}");
    }
    assert!(reports.join("top1_by_shanten.png").exists());
    let stats = tmp.path().join("stats");
    let s = json(&[
        "stats",
        logs.to_str().unwrap(),
        "--out",
        stats.to_str().unwrap(),
        "--min-games",
        "1",
        "--json",
    ]);
    assert_eq!(s["overall"]["games"], 8);
    let rates = s["overall"]["placement_rates"].as_array().unwrap();
    assert_eq!(rates.len(), 4);
    assert!(stats.join("README.md").exists() && stats.join("players.csv").exists());
}

/// `ingest --skip ev,ukeire2`: the options table lacks those columns, a fit on it works without
/// them, and what needs them says so instead of scoring a missing column as 0.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn skipped_columns_are_absent_and_their_users_say_so() {
    let files = haifu::testdata::need_tenhou_files(&[".mjlog"]);
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let d = data.to_str().unwrap();
    let mut args = vec!["ingest", "--skip", "ev,ukeire2", "--out", d];
    let picked: Vec<String> =
        files.iter().skip(7).step_by(301).take(4).map(|f| f.display().to_string()).collect();
    args.extend(picked.iter().map(String::as_str));
    let out = haifu(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let cols = haifu::dataset::parts::column_names(&data, "options").unwrap();
    for c in ["ev", "log_ev", "ev_defined", "ukeire2_avg", "ukeire2_sum"] {
        assert!(!cols.iter().any(|n| n == c), "{c} written");
    }
    assert!(cols.iter().any(|n| n == "ukeire_count"));
    let err = |args: &[&str]| -> String {
        let out = haifu(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    // the shipped weights use ev: refused, not scored with ev = 0
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/data/weights/default.json");
    let e = err(&["eval", "--data", d, "--weights", shipped, "--evaluator", "linear"]);
    assert!(e.contains("ev") && e.contains("--skip"), "{e}");
    let e = err(&["eval", "--data", d, "--evaluator", "ev"]);
    assert!(e.contains("ev evaluator") && e.contains("--skip"), "{e}");
    let e = err(&["eval", "--data", d, "--evaluator", "ukeire", "--push-fold"]);
    assert!(e.contains("--push-fold") && e.contains("--skip"), "{e}");
    let w = tmp.path().join("w.json");
    let fit = |more: &[&str]| {
        let mut a =
            vec!["fit", "--data", d, "--out", w.to_str().unwrap(), "--seats", "all", "--max-iters", "20"];
        a.extend_from_slice(more);
        haifu(&a)
    };
    let out = fit(&["--interact", "value"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("value gate needs"), "{out:?}");
    let out = fit(&["--interact", "turn"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let e = json(&["eval", "--data", d, "--weights", w.to_str().unwrap(), "--evaluator", "linear", "--json"]);
    let top1 = e["evaluators"]["linear"]["top1"].as_f64().unwrap();
    assert!(top1 > 0.2 && top1 < 1.0, "linear top1 {top1}");
    // resuming without the same --skip is refused, naming the groups and the flags
    let mut again = vec!["ingest", "--resume", "--out", d];
    again.extend(picked.iter().map(String::as_str));
    let e = err(&again);
    assert!(
        e.contains("holds the option column groups danger,seats (written with --skip ev)")
            && e.contains("resume with --skip ev"),
        "{e}"
    );
}

/// `haifu stats` over three shards, then `--merge`: the same report, tables and JSON as one run over
/// everything, a bad record included (reported once, by shard 0).
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn stats_of_shards_merge_into_the_whole_run() {
    let files = haifu::testdata::need_tenhou_files(&[".mjlog"]);
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    for f in files.iter().step_by(150).take(30) {
        std::fs::copy(f, logs.join(f.file_name().unwrap())).unwrap();
    }
    std::fs::write(logs.join("broken.mjlog"), "<mjloggm ver=\"2.3\"><GO type=\"169\"/>").unwrap();
    let out = |name: &str| tmp.path().join(name);
    let stats = |args: &[&str]| -> serde_json::Value {
        let o = haifu(&[&["stats", "--json", "--min-games", "1"], args].concat());
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        // Exit 1 exactly when some record failed.
        let failed = !v["errors"].as_array().unwrap().is_empty();
        assert_eq!(o.status.code(), Some(i32::from(failed)), "{}", String::from_utf8_lossy(&o.stderr));
        v
    };
    let whole = stats(&[logs.to_str().unwrap(), "--out", out("whole").to_str().unwrap()]);
    assert_eq!(whole["files"], 31);
    assert_eq!(whole["errors"].as_array().unwrap().len(), 1);
    let (mut shard_games, mut shard_errors) = (0, 0);
    for i in 0..3 {
        let s = format!("{i}/3");
        let v =
            stats(&[logs.to_str().unwrap(), "--shard", &s, "--out", out(&format!("s{i}")).to_str().unwrap()]);
        shard_games += v["overall"]["games"].as_u64().unwrap();
        shard_errors += v["errors"].as_array().unwrap().len();
        assert!(v["overall"]["games"].as_u64().unwrap() < 30, "shard {s} is not everything");
    }
    assert_eq!((shard_games, shard_errors), (30, 1));
    let dirs: Vec<String> = (0..3).map(|i| out(&format!("s{i}")).to_str().unwrap().to_string()).collect();
    let merged = stats(
        &[
            &["--merge"],
            &dirs.iter().map(String::as_str).collect::<Vec<_>>()[..],
            &["--out", out("merged").to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(merged, whole);
    for f in ["README.md", "tables.csv", "players.csv", "yaku.csv", "study_kabe.csv", "study_early_five.csv"]
    {
        let (a, b) =
            (std::fs::read(out("whole").join(f)).unwrap(), std::fs::read(out("merged").join(f)).unwrap());
        assert!(a == b, "{f} differs between the whole run and the merge of its shards");
    }
    // Merging a folder that holds no stats is a clear error.
    let o = haifu(&["stats", "--merge", logs.to_str().unwrap(), "--out", out("bad").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stderr).contains("counts.parquet"));
}

/// With an opponent in riichi and a hopeless hand, the push/fold layer plays the genbutsu.
#[test]
fn nanikiru_push_fold_folds_a_weak_hand() {
    let hand = "13579m2468p1357s7z";
    let plain = json(&["nanikiru", hand, "--evaluator", "ukeire", "--json"]);
    assert_ne!(plain["discard"], "6p");
    let v = json(&["nanikiru", hand, "--evaluator", "ukeire", "--riichi", "6p1z", "--push-fold", "--json"]);
    assert_eq!(v["discard"], "6p", "{v}");
    // without a riichi the layer changes nothing
    let v = json(&["nanikiru", hand, "--evaluator", "ukeire", "--push-fold", "--json"]);
    assert_eq!(v["discard"], plain["discard"]);
}

/// One ukeire: the `ukeire` evaluator over a dataset is the `ukeire` bot's own ranking, so on
/// games of four ukeire bots it picks every discard and every riichi the bots made.
#[test]
fn ukeire_evaluator_reproduces_the_ukeire_bot() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    let data = tmp.path().join("data");
    let out = haifu(&[
        "simulate",
        "--games",
        "6",
        "--bots",
        "ukeire",
        "--seed",
        "11",
        "--out",
        logs.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = haifu(&["ingest", logs.to_str().unwrap(), "--out", data.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for kind in ["discard", "riichi"] {
        let v = json(&[
            "eval",
            "--data",
            data.to_str().unwrap(),
            "--seats",
            "all",
            "--kind",
            kind,
            "--evaluator",
            "ukeire",
            "--json",
        ]);
        let n = v["decisions"].as_u64().unwrap();
        assert!(n > if kind == "discard" { 1000 } else { 10 }, "{kind}: {n} decisions");
        let top1 = v["evaluators"]["ukeire"]["top1"].as_f64().unwrap();
        assert_eq!(top1, 1.0, "{kind}: ukeire top-1 {top1} over {n} bot decisions");
    }
}

/// Exit status 3 for runtime errors (2 is for usage): a weights file that does not exist.
#[test]
fn runtime_errors_exit_3() {
    let out = haifu(&[
        "nanikiru",
        "123m456p789s11222z",
        "--evaluator",
        "linear",
        "--weights",
        "/nonexistent/w.json",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/w.json"));
}

/// `check --json` has one format (totals, then every failed file, disagreeing win and skipped
/// record, each naming its file) and the text summary shows the same totals: a folder with a
/// good record, a cut copy and a link back to itself (walked once, the link skipped).
#[test]
#[cfg(unix)]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn check_summary_json_and_text_agree_with_the_format() {
    let src = haifu::testdata::need_file("tenhou/2019013122gm-00a9-0000-fe2af191.mjlog");
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(&src, dir.path().join("good.mjlog")).unwrap();
    let bytes = std::fs::read(&src).unwrap();
    std::fs::write(dir.path().join("cut.mjlog"), &bytes[..bytes.len() / 3]).unwrap();
    std::os::unix::fs::symlink(dir.path(), dir.path().join("again")).unwrap();
    let folder = dir.path().to_str().unwrap();
    let out = haifu(&["check", folder, "--json"]);
    assert_eq!(out.status.code(), Some(1), "a cut file fails the batch");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let totals = ["files", "games", "rounds", "discards", "agari", "agari_mismatches"];
    assert_eq!(
        keys,
        [&totals[..], &["errors", "mismatches", "skipped", "partial_games", "partial"]].concat()
    );
    assert_eq!((v["partial_games"].as_u64(), v["partial"].as_array().map(Vec::len)), (Some(0), Some(0)));
    assert_eq!((v["files"].as_u64(), v["games"].as_u64()), (Some(2), Some(1)));
    assert_eq!(v["agari_mismatches"].as_u64(), Some(v["mismatches"].as_array().unwrap().len() as u64));
    let error = &v["errors"].as_array().unwrap()[..];
    assert_eq!(error.len(), 1);
    assert!(error[0]["file"].as_str().unwrap().ends_with("cut.mjlog") && error[0]["error"].is_string());
    let skipped = v["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert!(skipped[0]["file"].as_str().unwrap().ends_with("again"), "{skipped:?}");
    assert_eq!(skipped[0]["reason"], "Revisited");

    let text = haifu(&["check", folder]);
    assert_eq!(text.status.code(), Some(1));
    let text = String::from_utf8(text.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let label =
        ["files", "games", "rounds", "discards", "agari", "mismatches", "errors", "skipped", "partial"];
    let value = |k: &str| match k {
        "mismatches" => v["agari_mismatches"].to_string(),
        "errors" | "skipped" | "partial" => v[k].as_array().unwrap().len().to_string(),
        _ => v[k].to_string(),
    };
    for (line, k) in lines.iter().zip(label) {
        assert_eq!(*line, format!("{k:<10} {}", value(k)));
    }
    assert!(lines[9].starts_with("  error ") && lines[9].contains("cut.mjlog: "), "{text}");
    assert_eq!(lines.len(), 10, "{text}");
}

/// `nanikiru --positions` on real positions from the golden files: three open hands (the first a
/// shanten-back discard from tenpai) and three closed-or-open ones, each line's `pick` recorded
/// from `@kobalab/majiang-ai` 1.0.13 itself, with a bad line among them: every good line gets its
/// id echoed and majiang-ai's pick, the bad one is named by its line number, the status is 1.
#[test]
fn nanikiru_positions_make_majiang_ai_picks() {
    let open = include_str!("../src/rank/testdata/majiang_ai_open.jsonl");
    let picks = include_str!("../src/rank/testdata/majiang_ai_picks.jsonl");
    let mut lines: Vec<&str> = open.lines().take(3).collect();
    lines.push(r#"{"id":"bad","shoupai":"m123","zhuangfeng":0,"menfeng":0}"#);
    lines.extend(picks.lines().take(3));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("positions.jsonl");
    std::fs::write(&file, lines.join("\n")).unwrap();
    let out = haifu(&["nanikiru", "--positions", file.to_str().unwrap(), "--evaluator", "ev", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 4") && err.contains("m123"), "{err}");
    let got: Vec<serde_json::Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let want: Vec<serde_json::Value> =
        lines.iter().filter(|l| !l.contains("\"bad\"")).map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(got.len(), 6);
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g["id"], w["id"]);
        assert_eq!(g["pick"], w["pick"], "{}", w["shoupai"]);
        assert_eq!(g["options"].as_array().unwrap().len(), w["candidates"].as_object().unwrap().len());
    }
    // The first open hand is at tenpai, and majiang-ai goes back to 1-shanten.
    assert_eq!((&want[0]["shanten"], &got[0]["options"][0]["shanten"]), (&0.into(), &1.into()));
}

/// A reader that stops early (`haifu schema | head -1`) ends haifu quietly with status 0: no
/// panic message on stderr.
#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_haifu"))
        .arg("schema")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run haifu");
    // closed before haifu starts writing (its 50 KB would fit the pipe's buffer otherwise)
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// `ingest --with ukeire2` adds second-order ukeire; naming a group in both `--skip` and `--with`
/// is bad usage (exit 2) that names the group.
#[test]
fn ingest_with_and_skip_the_same_group_is_refused() {
    let out = haifu(&[
        "ingest",
        "nothing.mjlog",
        "--out",
        "/nonexistent",
        "--skip",
        "ukeire2",
        "--with",
        "ukeire2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--skip and --with both name ukeire2"));
    let out = haifu(&["ingest", "nothing.mjlog", "--out", "/nonexistent", "--with", "ev2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown column group \"ev2\""));
}

/// A record cut after a round is listed as partial by `check` (exit 1, or 0 with
/// `--allow-partial`), and `stats` leaves it out of the placement figures and says so.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn partial_records_are_listed_and_left_out_of_placements() {
    let src = haifu::testdata::shared_file("tenhou/2019013122gm-00a9-0000-fe2af191.mjlog")
        .expect("../shared/data/tenhou holds the record");
    let xml = std::fs::read_to_string(&src).unwrap();
    let last = xml.rfind("<INIT ").unwrap();
    let cut = format!("{}</mjloggm>", &xml[..last]);
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(&src, dir.path().join("whole.mjlog")).unwrap();
    std::fs::write(dir.path().join("cut.mjlog"), cut).unwrap();
    let folder = dir.path().to_str().unwrap();
    let out = haifu(&["check", folder]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("partial    1"), "{text}");
    assert!(text.contains("  partial ") && text.contains("cut.mjlog: its last round"), "{text}");
    assert!(text.contains("states no result"), "{text}");
    assert_eq!(haifu(&["check", folder, "--allow-partial"]).status.code(), Some(0));
    let stats = dir.path().join("stats");
    let out = haifu(&["stats", folder, "--out", stats.to_str().unwrap(), "--min-games", "1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("1 games,") && text.contains("1 partial records left out"), "{text}");
    let md = std::fs::read_to_string(stats.join("README.md")).unwrap();
    assert!(md.contains("1 partial records"), "{md}");
    let out =
        haifu(&["stats", folder, "--out", stats.to_str().unwrap(), "--min-games", "1", "--allow-partial"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("2 games,"));
}

/// Every 3-player Houou game of ../shared replays and every win re-scores as recorded, on the
/// rules its GO tag states; the wins counted are the `<AGARI` tags of the raw files, and the
/// rounds the `<INIT` tags (docs/sanma.md: 279 games, 2,540 rounds, 2,183 wins).
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn every_sanma_game_checks_clean() {
    let dir = haifu::testdata::need_file("tenhou/sanma");
    let files = haifu::testdata::need_sanma_files();
    let count = |tag| haifu::testdata::count_in_files(&files, tag) as u64;
    let (agari, init) = (count("<AGARI "), count("<INIT "));
    let v = json(&["check", dir.to_str().unwrap(), "--json"]);
    assert_eq!((v["files"].as_u64(), v["games"].as_u64()), (Some(279), Some(279)));
    assert_eq!((v["rounds"].as_u64(), v["agari"].as_u64()), (Some(init), Some(agari)));
    assert_eq!((init, agari), (2_540, 2_183));
    assert_eq!(v["agari_mismatches"].as_u64(), Some(0), "{}", v["mismatches"]);
    assert_eq!(v["errors"].as_array().map(Vec::len), Some(0), "{}", v["errors"]);
    assert_eq!(v["partial_games"].as_u64(), Some(0), "{}", v["partial"]);
}
