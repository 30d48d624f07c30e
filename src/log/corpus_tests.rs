//! Whole-corpus tests over the real records in `../shared/data/tenhou` (see its README): every
//! 4-player game parses, and round and discard counts match the manifest, which was counted
//! from the files by a separate tool (tags for mjlog, `log` entries for JSON).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::*;

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
fn every_top_level_game_parses_and_matches_the_manifest() {
    let Some(dir) = crate::testdata::shared_file("tenhou") else { return };
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
