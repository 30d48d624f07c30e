//! Batch statistics over log archives: player and table statistics ([`players`]) and the
//! kabe / early-outside / push-fold studies ([`studies`]), collected in one replay pass per game
//! ([`analyse`]) and written as parquet, CSV and a markdown README with plots ([`tables`]).

#[cfg(feature = "parquet")]
mod output;
pub mod players;
pub mod studies;
pub mod tables;
#[cfg(feature = "parquet")]
pub use output::write;
#[cfg(test)]
pub(crate) mod test_games;

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::Result;

use crate::batch::{self, FileError};
use players::{game_outcome_with, GameOutcome, PlayerStats};
use studies::{Studies, StudyCollector};

/// Everything `haifu stats` computed.
pub struct StatsRun {
    pub files: usize,
    pub overall: PlayerStats,
    pub by_table: BTreeMap<&'static str, PlayerStats>,
    pub by_player: BTreeMap<String, PlayerStats>,
    /// The kabe / early-outside / push-fold counts over every game that replayed.
    pub studies: Studies,
    pub errors: Vec<FileError>,
}

/// Aggregates game outcomes.
pub fn aggregate(
    games: &[GameOutcome],
) -> (PlayerStats, BTreeMap<&'static str, PlayerStats>, BTreeMap<String, PlayerStats>) {
    let mut overall = PlayerStats::default();
    let mut by_table: BTreeMap<&'static str, PlayerStats> = BTreeMap::new();
    let mut by_player: BTreeMap<String, PlayerStats> = BTreeMap::new();
    for g in games {
        for seat in 0..4 {
            overall.add_seat(g, seat);
            by_table.entry(g.table.name()).or_default().add_seat(g, seat);
            by_player.entry(g.players[seat].clone()).or_default().add_seat(g, seat);
        }
    }
    (overall, by_table, by_player)
}

/// Replays everything under `paths` and aggregates.
pub fn compute(paths: &[PathBuf], jobs: Option<usize>) -> StatsRun {
    let out = batch::run(paths, jobs, "stats", analyse);
    let mut studies = Studies::default();
    let mut games: Vec<GameOutcome> = Vec::with_capacity(out.results.len());
    for (_, (g, s)) in out.results {
        studies.merge(&s);
        games.push(g);
    }
    let (overall, by_table, by_player) = aggregate(&games);
    StatsRun { files: out.files, overall, by_table, by_player, studies, errors: out.errors }
}

/// One game's outcomes and study counts, from a single replay.
pub fn analyse(game: &crate::log::Game) -> Result<(GameOutcome, Studies), String> {
    let mut c = StudyCollector::default();
    let g = game_outcome_with(game, &mut c).map_err(|e| format!("replay: {e}"))?;
    Ok((g, c.studies))
}

/// The overall figures as `haifu stats --json` prints them.
pub fn overall_json(run: &StatsRun) -> serde_json::Value {
    let s = &run.overall;
    serde_json::json!({
        "overall": {
            "games": s.games / 4,
            "rounds": s.rounds / 4,
            "player_rounds": s.rounds,
            "placement_rates": s.placement_rates(),
            "avg_placement": s.avg_placement.value(),
            "win_rate": s.win.value(),
            "deal_in_rate": s.deal_in.value(),
            "riichi_rate": s.riichi.value(),
            "call_rate": s.call.value(),
            "draw_rate": s.exhaustive_draw.value(),
            "avg_win_points": s.win_points.value(),
        },
        "studies": studies::kabe_json(&run.studies),
        "errors": run.errors,
    })
}

#[cfg(test)]
mod tests {
    use super::players::game_outcome;
    use super::test_games::{exhaustive_draw, pon_then_tsumo, riichi_23m_wins, riichi_78s_loses};
    use super::*;
    use crate::util::Rate;

    fn r(hits: u64, n: u64) -> Rate {
        Rate { hits, n }
    }

    /// Four hand-made one-round games (see `test_games`): A seat 0 riichi rons seat 1 (2000);
    /// B seat 0 riichi, seat 2 rons seat 1 (1000); C seat 2 pons and wins by tsumo (1100);
    /// D exhaustive draw, only seat 0 tenpai. Players A-D sit at seats 0-3 in every game.
    fn games() -> Vec<GameOutcome> {
        [riichi_23m_wins(), riichi_78s_loses(), pon_then_tsumo(), exhaustive_draw()]
            .iter()
            .map(|g| game_outcome(g).expect("hand-made game replays"))
            .collect()
    }

    #[test]
    fn placements_of_hand_made_games() {
        let g = games();
        // A: 27000 23000 25000 25000. B: 24000 24000 27000 25000 (tie: seat 0 first).
        // C: 24500 24700 26100 24700 (tie: seat 1 first). D: 28000 24000 24000 24000.
        let p: Vec<[u8; 4]> = g.iter().map(|x| x.placement).collect();
        assert_eq!(p, vec![[1, 4, 2, 3], [3, 4, 1, 2], [4, 2, 1, 3], [1, 2, 3, 4]]);
        assert_eq!(g[0].rounds[0][0].score_change, 2000);
        assert_eq!(g[2].rounds[0][0].score_change, -500);
    }

    #[test]
    fn player_statistics_of_hand_made_games() {
        let (overall, by_table, by_player) = aggregate(&games());
        assert_eq!((overall.games, overall.rounds), (16, 16));
        assert_eq!(overall.win, r(3, 16));
        assert_eq!(overall.deal_in, r(2, 16));
        assert_eq!(overall.tsumo_lost, r(3, 16));
        assert_eq!(overall.lateral, r(4, 16));
        assert_eq!(overall.exhaustive_draw, r(4, 16));
        assert_eq!(overall.tenpai_at_draw, r(1, 4));
        assert_eq!(overall.riichi, r(2, 16));
        assert_eq!(overall.call, r(1, 16));
        assert_eq!(overall.win_points.n, 3);
        assert!((overall.win_points.value() - 4100.0 / 3.0).abs() < 1e-9);
        assert_eq!(overall.deal_in_points.value(), 1500.0);
        assert_eq!(overall.placements, [4, 4, 4, 4]);
        assert_eq!(by_table.keys().copied().collect::<Vec<_>>(), vec!["ippan"]);
        assert_eq!(by_table["ippan"], overall);

        let a = &by_player["A"];
        assert_eq!((a.games, a.rounds), (4, 4));
        assert_eq!(a.placements, [2, 0, 1, 1]);
        assert_eq!(a.avg_placement.value(), 2.25);
        assert_eq!((a.win, a.deal_in, a.tsumo_lost, a.lateral), (r(1, 4), r(0, 4), r(1, 4), r(1, 4)));
        assert_eq!((a.riichi, a.call, a.tenpai_at_draw), (r(2, 4), r(0, 4), r(1, 1)));
        assert_eq!(a.win_points.value(), 2000.0);
        let b = &by_player["B"];
        assert_eq!((b.win, b.deal_in, b.tsumo_lost, b.lateral), (r(0, 4), r(2, 4), r(1, 4), r(0, 4)));
        assert_eq!(b.deal_in_points.value(), 1500.0);
        assert_eq!(b.tenpai_at_draw, r(0, 1));
        let c = &by_player["C"];
        assert_eq!((c.win, c.lateral, c.call, c.riichi), (r(2, 4), r(1, 4), r(1, 4), r(0, 4)));
        assert_eq!(c.win_points.value(), 1050.0);
        let d = &by_player["D"];
        assert_eq!((d.win, d.lateral, d.tsumo_lost, d.exhaustive_draw), (r(0, 4), r(2, 4), r(1, 4), r(1, 4)));
        assert_eq!(d.score_change.value(), (0.0 + 0.0 - 300.0 - 1000.0) / 4.0);
    }

    #[test]
    fn json_has_the_kabe_table() {
        let games = [riichi_23m_wins(), riichi_78s_loses()];
        let mut studies = Studies::default();
        let mut outcomes = Vec::new();
        for g in &games {
            let (o, s) = analyse(g).unwrap();
            outcomes.push(o);
            studies.merge(&s);
        }
        let (overall, by_table, by_player) = aggregate(&outcomes);
        let run = StatsRun { files: 2, overall, by_table, by_player, studies, errors: vec![] };
        let j = overall_json(&run);
        assert_eq!(j["studies"]["kabe"]["0"]["n"], 1);
        assert_eq!(j["studies"]["kabe"]["3"]["rate"], 1.0);
        let dir = tempfile::tempdir().unwrap();
        write(&run, dir.path(), 1).unwrap();
        let md = std::fs::read_to_string(dir.path().join("README.md")).unwrap();
        assert!(md.contains("## Study 1") && md.contains("## Study 3"));
    }
}
