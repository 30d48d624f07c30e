//! The statistics of the real three-player games of the shared data, against counts taken from
//! the mjlog text itself (the `<AGARI ` tags, the set-aside `<N>` tags, the `owari` scores and
//! results), not from haifu's reader or replay; and the variant kept apart in runs and merges.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::*;

/// The sanma files (279 Houou games, every one with an `owari`).
fn sanma_files() -> Vec<PathBuf> {
    crate::testdata::need_sanma_files()
}

/// The value of attribute `name` of every tag of the text that starts with `tag`.
fn attrs<'a>(text: &'a str, tag: &'a str, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    text.split(tag).skip(1).filter_map(move |rest| {
        let end = rest.find('>')?;
        let inside = &rest[..end];
        let at = inside.find(&format!(" {name}=\""))? + name.len() + 3;
        inside[at..].split('"').next()
    })
}

/// What the text of one mjlog says: wins, set-asides, the final scores and results.
struct Raw {
    agari: u64,
    nuki: u64,
    scores: [i32; 3],
    results: [f64; 3],
}

fn raw(text: &str) -> Raw {
    let agari = text.matches("<AGARI ").count() as u64;
    // A set-aside north: an <N> whose meld code has 0x20 as its low byte.
    let nuki = attrs(text, "<N ", "m").filter(|m| m.parse::<u32>().unwrap() & 0xFF == 0x20).count() as u64;
    let owari: Vec<&str> =
        attrs(text, "<AGARI ", "owari").chain(attrs(text, "<RYUUKYOKU ", "owari")).collect();
    assert_eq!(owari.len(), 1, "one owari per game");
    let f: Vec<f64> = owari[0].split(',').map(|x| x.parse().unwrap()).collect();
    assert_eq!((f[6], f[7]), (0.0, 0.0), "the empty fourth seat");
    Raw {
        agari,
        nuki,
        scores: [0, 1, 2].map(|s| (f[2 * s] * 100.0) as i32),
        results: [0, 1, 2].map(|s| f[2 * s + 1]),
    }
}

/// Over the 279 games: one 1st, 2nd and 3rd per game; the wins, set-asides, busts, each
/// player's placements and summed results as the mjlog text gives them.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn three_player_figures_match_the_records_text() {
    let files = sanma_files();
    let run = compute_variant(&files, Some(1), batch::Shard::default(), false, None, 3).unwrap();
    assert!(run.errors.is_empty(), "{:?}", run.errors);
    assert_eq!((run.players, run.other_variant, run.files), (3, 0, 279));
    let all = &run.overall;
    assert_eq!((all.games, all.partial_games), (3 * 279, 0));
    assert_eq!(all.placements, [279, 279, 279, 0], "each game gives exactly one 1st, 2nd and 3rd");
    assert_eq!(all.avg_placement.value(), 2.0);

    let (mut agari, mut nuki, mut busts) = (0, 0, 0);
    // Per player name: games at each place, and the summed results.
    let mut places: BTreeMap<String, [u64; 4]> = BTreeMap::new();
    let mut points: BTreeMap<String, f64> = BTreeMap::new();
    let mut rounds = 0;
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let r = raw(&String::from_utf8_lossy(&bytes));
        // The names only: the reader's word on who sat where.
        let game = crate::log::source::parse_game("g", &bytes).unwrap();
        rounds += game.rounds.len() as u64;
        agari += r.agari;
        nuki += r.nuki;
        busts += r.scores.iter().filter(|&&s| s < 0).count() as u64;
        for seat in 0..3 {
            // Place: 1 + the seats ahead (a higher score, or an equal one at an earlier seat).
            let ahead = (0..3)
                .filter(|&o| r.scores[o] > r.scores[seat] || (r.scores[o] == r.scores[seat] && o < seat))
                .count();
            let name = &game.players[seat].name;
            places.entry(name.clone()).or_default()[ahead] += 1;
            *points.entry(name.clone()).or_default() += r.results[seat];
        }
    }
    assert_eq!((agari, nuki, rounds), (2183, 6547, 2540), "docs/sanma.md's counts");
    assert_eq!(all.rounds, 3 * rounds);
    assert_eq!((all.win.hits, all.win.n), (agari, 3 * rounds));
    assert_eq!((all.kita.sum, all.kita.n), (nuki as f64, 3 * rounds));
    assert_eq!(all.bust.hits, busts);
    assert!(busts >= 60, "60 games ended below zero: {busts}");
    assert_eq!(all.win_points.n, agari);
    // docs/sanma.md: 6 rons on a set-aside north, none a double ron.
    assert_eq!((all.kita_ron.hits, all.kita_deal_in.hits), (6, 6));
    assert_eq!(run.by_player.len(), places.len(), "no empty fourth seat among the players");
    assert!(!run.by_player.contains_key(""));
    for (name, s) in &run.by_player {
        assert_eq!(s.placements, places[name], "{name}");
        assert_eq!(s.game_points.sum, points[name], "{name}");
    }
    let total: f64 = points.values().sum();
    assert!(total.abs() < 1e-6, "results sum to zero: {total}");

    // The figures of three players: no 4th place, no four-player rank points.
    let j = overall_json(&run);
    assert_eq!((j["players"].as_u64(), j["overall"]["games"].as_u64()), (Some(3), Some(279)));
    assert_eq!(j["overall"]["placement_rates"].as_array().unwrap().len(), 3);
    for absent in ["fourth_rate", "stable_dan", "avg_rank_points"] {
        assert!(j["overall"].get(absent).is_none(), "{absent}");
    }
    assert_eq!(j["overall"]["n"]["kita_ron_rate"].as_u64(), Some(agari));
}

/// A four-player run over the sanma folder counts none of its games and says how many it left
/// out; merges keep the variants apart.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn variants_are_kept_apart() {
    let files = sanma_files();
    let four = compute_variant(&files[..20], Some(1), batch::Shard::default(), false, None, 4).unwrap();
    assert_eq!((four.players, four.other_variant, four.overall.games, four.overall.rounds), (4, 20, 0, 0));
    assert!(four.other_variant_note().unwrap().contains("--players 3"));
    let halves = [&files[..10], &files[10..20]]
        .map(|f| compute_variant(f, Some(1), batch::Shard::default(), false, None, 3).unwrap());
    let whole = compute_variant(&files[..20], Some(1), batch::Shard::default(), false, None, 3).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let [a, b, w, f] = ["a", "b", "w", "f"].map(|d| dir.path().join(d));
    output::write(&halves[0], &a, 1).unwrap();
    output::write(&halves[1], &b, 1).unwrap();
    output::write(&whole, &w, 1).unwrap();
    output::write(&four, &f, 1).unwrap();
    let merged = output::merge(&[a.clone(), b]).unwrap();
    assert_eq!(merged, whole);
    assert_eq!(merged.players, 3);
    let e = output::merge(&[a, f.clone()]).unwrap_err();
    assert!(matches!(e, StatsError::MixedVariants { first_players: 3, players: 4, .. }), "{e}");
    let md = std::fs::read_to_string(w.join("README.md")).unwrap();
    assert!(md.contains("20 three-player games") && md.contains("`kita_per_round`"), "{md}");
    assert!(!md.contains("4th") && !md.contains("Cross-check: kobalab"));
    let md4 = std::fs::read_to_string(f.join("README.md")).unwrap();
    assert!(md4.contains("20 three-player games left out"), "{md4}");
}
