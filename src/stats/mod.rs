//! Batch statistics over log archives: player and table statistics ([`players`]) and the
//! kabe / early-outside / push-fold studies ([`studies`]), collected in one replay pass per game
//! ([`analyse`]) and written as parquet, CSV and a markdown README with plots ([`tables`]).

pub mod agreement;
#[cfg(feature = "parquet")]
pub mod agreement_data;
pub mod anchors;
pub mod counts;
pub mod early_five;
pub mod error;
pub mod metrics;
#[cfg(feature = "parquet")]
pub mod output;
pub mod players;
#[cfg(all(test, feature = "parquet"))]
mod sanma_tests;
pub mod seed_report;
pub mod seed_studies;
pub mod studies;
pub mod tables;
#[cfg(test)]
pub(crate) mod test_games;

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::batch::{self, FileError};
use crate::model::judges::Models;
use agreement::{AgreementCollector, AgreementStats, AgreementTables};
use counts::{Count, CountsError};
use error::StatsError;
use players::{game_outcome_with, GameOutcome, PlayerStats};
use studies::{Studies, StudyCollector};

/// Everything `haifu stats` computed, over the games of one variant: four or three players,
/// never both (a figure over both would mix different games).
#[derive(Clone, Debug, PartialEq)]
pub struct StatsRun {
    pub files: usize,
    /// The variant counted: seats at the table (`--players`, 4 or 3).
    pub players: u8,
    /// Games of the other variant read and left out (not replayed, not in any figure).
    pub other_variant: u64,
    pub overall: PlayerStats,
    pub by_table: BTreeMap<String, PlayerStats>,
    pub by_player: BTreeMap<String, PlayerStats>,
    /// The kabe / early-outside / push-fold / early-5 counts over every game that replayed.
    pub studies: Studies,
    /// Agreement with the linear models by dan and year (`--agreement`; empty without).
    pub agreement: AgreementTables,
    pub errors: Vec<FileError>,
}

impl Default for StatsRun {
    /// An empty four-player run.
    fn default() -> StatsRun {
        StatsRun {
            files: 0,
            players: 4,
            other_variant: 0,
            overall: PlayerStats::default(),
            by_table: BTreeMap::new(),
            by_player: BTreeMap::new(),
            studies: Studies::default(),
            agreement: AgreementTables::default(),
            errors: Vec::new(),
        }
    }
}

/// Aggregates game outcomes.
pub fn aggregate(
    games: &[GameOutcome],
) -> (PlayerStats, BTreeMap<String, PlayerStats>, BTreeMap<String, PlayerStats>) {
    aggregate_with(games, false)
}

/// Aggregates game outcomes; the placements and final scores of partial records too when
/// `allow_partial` (`haifu stats --allow-partial`), else they count as partial games. Only the
/// seated seats count (three in a three-player game).
pub fn aggregate_with(
    games: &[GameOutcome],
    allow_partial: bool,
) -> (PlayerStats, BTreeMap<String, PlayerStats>, BTreeMap<String, PlayerStats>) {
    let mut overall = PlayerStats::default();
    let mut by_table: BTreeMap<String, PlayerStats> = BTreeMap::new();
    let mut by_player: BTreeMap<String, PlayerStats> = BTreeMap::new();
    for g in games {
        let placement = g.complete || allow_partial;
        for seat in 0..usize::from(g.seats.min(4)) {
            overall.add_seat_counting(g, seat, placement);
            by_table.entry(g.table.name().to_string()).or_default().add_seat_counting(g, seat, placement);
            by_player.entry(g.players[seat].clone()).or_default().add_seat_counting(g, seat, placement);
        }
    }
    (overall, by_table, by_player)
}

/// Replays everything under `paths` and aggregates.
pub fn compute(paths: &[PathBuf], jobs: Option<usize>) -> StatsRun {
    compute_shard(paths, jobs, batch::Shard::default(), false, None).expect("no ingest folder to read")
}

/// How `--agreement` judges the human decisions.
#[derive(Clone, Copy)]
pub enum Judging<'a> {
    /// In the stats replay, each decision's option rows built as ingest builds them.
    Replay(&'a Models),
    /// Read off an `haifu ingest` folder of the same records ([`agreement_data`]): the rows are
    /// on disk, so only the scoring is left.
    #[cfg(feature = "parquet")]
    Data(&'a Models, &'a std::path::Path),
}

impl Judging<'_> {
    /// The models that judge.
    pub fn models(&self) -> &Models {
        match *self {
            Judging::Replay(m) => m,
            #[cfg(feature = "parquet")]
            Judging::Data(m, _) => m,
        }
    }
}

/// Replays the records of one shard (by game id) and aggregates: [`StatsRun::merged`] over the
/// N shards gives [`compute`] over everything. Partial records count in the placement figures
/// only when `allow_partial`. With `judging`, every human seat's decisions are also judged
/// ([`agreement`]): in the same replay, where a game whose decisions cannot be judged is then a
/// failed file like one that does not replay; or read off an ingest folder, where a game the
/// folder does not hold is a failed file. An ingest folder that cannot be read is the error.
pub fn compute_shard(
    paths: &[PathBuf],
    jobs: Option<usize>,
    shard: batch::Shard,
    allow_partial: bool,
    judging: Option<Judging>,
) -> Result<StatsRun, StatsError> {
    compute_variant(paths, jobs, shard, allow_partial, judging, 4)
}

/// The models that judge the decisions of `players`-seat games ([`Models::for_players`]): the
/// three-player judges at three, an error when there are none (a four-player model never judges
/// a sanma decision).
fn judging_for<'a>(judging: Option<Judging<'a>>, players: u8) -> Result<Option<Judging<'a>>, StatsError> {
    let for_players = |m: &'a Models| m.for_players(players).ok_or(StatsError::NoJudges { players });
    Ok(match judging {
        None => None,
        Some(Judging::Replay(m)) => Some(Judging::Replay(for_players(m)?)),
        #[cfg(feature = "parquet")]
        Some(Judging::Data(m, d)) => Some(Judging::Data(for_players(m)?, d)),
    })
}

/// [`compute_shard`] over the games of `players` seats (4 or 3, `--players`): the games of the
/// other variant are counted ([`StatsRun::other_variant`]) and not replayed.
pub fn compute_variant(
    paths: &[PathBuf],
    jobs: Option<usize>,
    shard: batch::Shard,
    allow_partial: bool,
    judging: Option<Judging>,
    players: u8,
) -> Result<StatsRun, StatsError> {
    let judging = judging_for(judging, players)?;
    let in_replay = match judging {
        Some(Judging::Replay(m)) => Some(m),
        _ => None,
    };
    let out = batch::run_sharded(paths, jobs, "stats", shard, |g| {
        if g.rules.players != players {
            return Ok(None);
        }
        analyse_with(g, in_replay).map(|r| Some((g.id.clone(), r)))
    });
    let mut studies = Studies::default();
    let mut agreement = AgreementTables::default();
    let mut games: Vec<GameOutcome> = Vec::with_capacity(out.results.len());
    let mut ids: Vec<(String, String)> = Vec::with_capacity(out.results.len());
    let mut other_variant = 0;
    for (file, result) in out.results {
        let Some((id, (g, s, a))) = result else {
            other_variant += 1;
            continue;
        };
        studies.merge(&s);
        agreement.merge(&a);
        games.push(g);
        ids.push((file, id));
    }
    // only the parquet build adds to it (the agreement data read from a dataset)
    #[cfg_attr(not(feature = "parquet"), allow(unused_mut))]
    let mut errors = out.errors;
    #[cfg(feature = "parquet")]
    if let Some(Judging::Data(models, data)) = judging {
        let wanted = ids.iter().map(|(_, id)| id.clone()).collect();
        let found = agreement_data::agreement_of_data(data, models, &wanted, jobs)
            .map_err(|e| StatsError::AgreementData { data: data.to_path_buf(), source: e })?;
        agreement = found.tables;
        for (file, id) in &ids {
            if !found.present.contains(id) {
                let error = format!("game {id} is not in {} (its decisions are not judged)", data.display());
                errors.push(batch::FileError { file: file.clone(), error });
            }
        }
    }
    if let Some(j) = judging {
        agreement.judges = j.models().judges_text();
    }
    let (overall, by_table, by_player) = aggregate_with(&games, allow_partial);
    Ok(StatsRun {
        files: out.files,
        players,
        other_variant,
        overall,
        by_table,
        by_player,
        studies,
        agreement,
        errors: sorted(errors),
    })
}

impl StatsRun {
    /// Whole games of a group of whole games (a table level, everything): its player-games over
    /// the seats of this run's variant.
    pub fn games_of(&self, s: &PlayerStats) -> u64 {
        s.games / u64::from(self.players.max(1))
    }

    /// Partial records of a group of whole games, likewise.
    pub fn partial_games_of(&self, s: &PlayerStats) -> u64 {
        s.partial_games / u64::from(self.players.max(1))
    }

    /// What the report says of the other variant's games: how many were left out and how to
    /// count them (`None` when there were none).
    pub fn other_variant_note(&self) -> Option<String> {
        (self.other_variant > 0).then(|| {
            let other = if self.players == 3 { 4 } else { 3 };
            format!(
                "{} {} games left out (a run counts one variant; `haifu stats --players {other}` counts them)",
                self.other_variant,
                variant_name(other)
            )
        })
    }
}

/// "four-player" or "three-player".
pub fn variant_name(players: u8) -> &'static str {
    if players == 3 {
        "three-player"
    } else {
        "four-player"
    }
}

/// Errors in file order, so a run and a merge of its shards list them alike.
fn sorted(mut errors: Vec<FileError>) -> Vec<FileError> {
    errors.sort_by(|a, b| (&a.file, &a.error).cmp(&(&b.file, &b.error)));
    errors
}

/// One game's outcomes and study counts, from a single replay.
pub fn analyse(game: &crate::log::event::Game) -> Result<(GameOutcome, Studies), StatsError> {
    let mut c = StudyCollector::default();
    let g = game_outcome_with(game, &mut c).map_err(StatsError::Replay)?;
    Ok((g, c.studies))
}

/// [`analyse`], and with `models` the game's agreement counts from the same replay (empty
/// without).
pub fn analyse_with(
    game: &crate::log::event::Game,
    models: Option<&Models>,
) -> Result<(GameOutcome, Studies, AgreementTables), StatsError> {
    let Some(models) = models else {
        let (g, s) = analyse(game)?;
        return Ok((g, s, AgreementTables::default()));
    };
    let mut c = StudyCollector::default();
    let mut a = AgreementCollector::for_game(game, models);
    let g = game_outcome_with(game, &mut players::Both(&mut c, &mut a)).map_err(StatsError::Replay)?;
    let seats: [AgreementStats; 4] = a.finish().map_err(StatsError::Agreement)?;
    let mut tables = AgreementTables::default();
    tables.add_game(game, &seats);
    Ok((g, c.studies, tables))
}

impl StatsRun {
    /// The counts of this run, one row per counter of every group: what `counts.parquet` holds
    /// and what [`StatsRun::from_counts`] reads back. Every player is there, whatever
    /// `--min-games`, so that merged runs lose nobody.
    pub fn counts(&self) -> Vec<Count> {
        let mut out = Vec::new();
        let mut push = |scope: &str, group: &str, leaves: Vec<(String, f64)>| {
            out.extend(leaves.into_iter().map(|(counter, value)| Count {
                scope: scope.into(),
                group: group.into(),
                counter,
                value,
            }))
        };
        let run = [
            ("files", self.files as f64),
            ("players", self.players.into()),
            ("other_variant", self.other_variant as f64),
        ];
        push("run", "all", run.into_iter().map(|(k, v)| (k.to_string(), v)).collect());
        push("overall", "all", counts::flatten(&self.overall));
        for (k, s) in &self.by_table {
            push("table", k, counts::flatten(s));
        }
        for (k, s) in &self.by_player {
            push("player", k, counts::flatten(s));
        }
        push("study", "all", counts::flatten(&self.studies));
        for (k, s) in &self.agreement.by_dan {
            push("agreement_dan", k, counts::flatten(s));
        }
        for (k, s) in &self.agreement.by_year {
            push("agreement_year", k, counts::flatten(s));
        }
        out
    }

    /// A run rebuilt from its counts (the errors are kept beside them, in `run.json`); counts
    /// written before the variant was counted are four-player ones.
    pub fn from_counts(rows: &[Count], errors: Vec<FileError>) -> Result<StatsRun, StatsError> {
        let mut groups: BTreeMap<(&str, &str), Vec<(&str, f64)>> = BTreeMap::new();
        for r in rows {
            groups.entry((&r.scope, &r.group)).or_default().push((&r.counter, r.value));
        }
        let mut run = StatsRun { errors, ..StatsRun::default() };
        for ((scope, group), leaves) in groups {
            let player = || counts::unflatten::<PlayerStats>(leaves.iter().copied());
            let at = |error| StatsError::Group { scope: scope.to_string(), group: group.to_string(), error };
            match scope {
                "run" => {
                    let leaf = |name: &str| leaves.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
                    run.files = leaf("files").map_or(0, |v| v as usize);
                    run.other_variant = leaf("other_variant").map_or(0, |v| v as u64);
                    run.players = match leaf("players") {
                        None => 4,
                        Some(v) if v == 3.0 || v == 4.0 => v as u8,
                        Some(v) => {
                            return Err(at(CountsError::NotWhole { path: "players".into(), value: v }))
                        }
                    };
                }
                "overall" => run.overall = player().map_err(at)?,
                "table" => {
                    run.by_table.insert(group.to_string(), player().map_err(at)?);
                }
                "player" => {
                    run.by_player.insert(group.to_string(), player().map_err(at)?);
                }
                "study" => run.studies = counts::unflatten(leaves.iter().copied()).map_err(at)?,
                "agreement_dan" => {
                    run.agreement
                        .by_dan
                        .insert(group.to_string(), counts::unflatten(leaves.iter().copied()).map_err(at)?);
                }
                "agreement_year" => {
                    run.agreement
                        .by_year
                        .insert(group.to_string(), counts::unflatten(leaves.iter().copied()).map_err(at)?);
                }
                other => return Err(StatsError::UnknownScope { scope: other.to_string() }),
            }
        }
        Ok(run)
    }

    /// This run and another of the same variant as one: every count added, the errors of both
    /// ([`output::merge`] refuses runs of two variants before it gets here).
    pub fn merged(&self, o: &StatsRun) -> StatsRun {
        debug_assert_eq!(self.players, o.players, "runs of two variants are not merged");
        let union = |a: &BTreeMap<String, PlayerStats>, b: &BTreeMap<String, PlayerStats>| {
            let mut out = a.clone();
            for (k, s) in b {
                let sum = out.get(k).map_or_else(|| s.clone(), |x| x.merged(s));
                out.insert(k.clone(), sum);
            }
            out
        };
        let mut studies = self.studies.clone();
        studies.merge(&o.studies);
        let mut agreement = self.agreement.clone();
        agreement.merge(&o.agreement);
        StatsRun {
            files: self.files + o.files,
            players: self.players,
            other_variant: self.other_variant + o.other_variant,
            overall: self.overall.merged(&o.overall),
            by_table: union(&self.by_table, &o.by_table),
            by_player: union(&self.by_player, &o.by_player),
            studies,
            agreement,
            errors: sorted(self.errors.iter().chain(&o.errors).cloned().collect()),
        }
    }
}

/// The figures as `haifu stats --json` prints them: `overall` and `by_table` map each figure's
/// stable name ([`metrics`]) to its value, with `n` and `ci95` maps beside; `players` says the
/// variant and `other_variant_games` how many games of the other one were left out.
pub fn overall_json(run: &StatsRun) -> serde_json::Value {
    // A group of whole games: `games` counts games, not player-games as in the player table.
    let group = |s: &PlayerStats| {
        let mut j = metrics::json_of(s, run.players);
        if let Some(m) = j.as_object_mut() {
            m.insert("games".into(), serde_json::json!(run.games_of(s)));
            m.insert("player_rounds".into(), serde_json::json!(s.rounds));
        }
        j
    };
    let by_table: serde_json::Map<String, serde_json::Value> =
        run.by_table.iter().map(|(k, s)| (k.clone(), group(s))).collect();
    serde_json::json!({
        "files": run.files,
        "players": run.players,
        "other_variant_games": run.other_variant,
        "overall": group(&run.overall),
        "by_table": by_table,
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
    #[cfg(feature = "parquet")]
    use output::{merge, read, write};

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
        let (overall, by_table, by_player) = aggregate_with(&games(), true);
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
        assert_eq!(by_table.keys().map(String::as_str).collect::<Vec<_>>(), vec!["ippan"]);
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

    /// The breakdowns of the hand-made games, worked out by hand from their descriptions in
    /// `test_games` (A is the dealer of every game and the only riichi player).
    #[test]
    fn breakdowns_of_hand_made_games() {
        let (all, _, by_player) = aggregate_with(&games(), true);
        // Riichi: A in game A (declared on its 2nd draw, 23m: two wait kinds, won by ron) and in
        // game B (1st draw, 78s, lost; paid the stick).
        assert_eq!((all.riichi_win, all.riichi_deal_in, all.riichi_draw), (r(1, 2), r(0, 2), r(0, 2)));
        assert_eq!((all.first_riichi, all.chase_riichi(), all.chased_riichi), (r(2, 2), r(0, 2), r(0, 2)));
        assert_eq!(all.good_wait_riichi, r(2, 2));
        assert_eq!(all.riichi_turn.value(), 1.5);
        // Game A: +3000 for the ron and the stick back, less the stick paid: +2000. Game B: -1000.
        assert_eq!(all.riichi_balance.value(), (2000.0 - 1000.0) / 2.0);
        // The test wins carry riichi as their only yaku: no ippatsu, no ura.
        assert_eq!((all.ippatsu, all.ura, all.yakuman), (r(0, 1), r(0, 1), r(0, 3)));
        assert_eq!(all.yaku.0[1], 3);
        assert_eq!(all.yaku.0.iter().sum::<u64>(), 3);
        // Wins: A's riichi ron as dealer (2000), C's closed ron in game B (1000), C's open tsumo
        // after a pon in game C (1100).
        assert_eq!(all.tsumo, r(1, 3));
        assert_eq!(all.dama(), r(1, 2));
        assert_eq!((all.win_points_dealer.value(), all.win_points_non_dealer.value()), (2000.0, 1050.0));
        assert_eq!(all.win_points_riichi.value(), 2000.0);
        assert_eq!(all.win_points_open.value(), 1100.0);
        assert_eq!(all.win_points_dama.value(), 1000.0);
        // Turns: A won on its 2nd draw, C rons before drawing, C's tsumo is its 1st draw.
        assert_eq!(all.win_turn.value(), 1.0);
        // Calls: C's pon in game C, and C won that round.
        assert_eq!((all.calls.n, all.calls.value()), (1, 1.0));
        assert_eq!((all.call_win, all.call_deal_in, all.call_draw), (r(1, 1), r(0, 1), r(0, 1)));
        // Deal-ins: B into A's riichi (2000) and into C's dama (1000).
        assert_eq!(all.deal_in_to_riichi, r(1, 2));
        assert_eq!(all.deal_in_to_open, r(0, 2));
        assert_eq!(all.deal_in_to_dama, r(1, 2));
        assert_eq!(all.deal_in_points.value(), 1500.0);
        assert_eq!(all.dealer_win, r(1, 4));
        assert_eq!(all.any_draw, r(4, 16));
        // Games: nobody busts; one of each placement per game: houou 7-dan points average 0.
        assert_eq!(all.bust, r(0, 16));
        assert_eq!(all.rank_points.value(), (90.0 + 45.0 + 0.0 - 135.0) / 4.0);
        assert_eq!(metrics::stable_dan(&all.placements), 7.0);
        // A: 1st twice, 3rd, 4th: (6 x 2 + 0) / 1 - 2.
        assert_eq!(metrics::stable_dan(&by_player["A"].placements), 10.0);
        let j = metrics::json(&by_player["A"]);
        assert_eq!(j["stable_dan"], 10.0);
        assert_eq!(j["riichi_win_rate"], 0.5);
        assert_eq!(j["n"]["riichi_win_rate"], 2);
        assert_eq!(j["ippatsu_rate"], 0.0);
        // D never declared riichi: no rate, n 0.
        let d = metrics::json(&by_player["D"]);
        assert!(d["riichi_win_rate"].is_null() && d["n"]["riichi_win_rate"] == 0, "{d}");
    }

    /// The counts of a whole input equal the merge of its two halves, exactly, through the files
    /// `haifu stats --out` writes and `--merge` reads; the README is byte-identical.
    #[test]
    fn stats_of_a_whole_equal_the_merge_of_its_halves() {
        let all: Vec<crate::log::event::Game> =
            vec![riichi_23m_wins(), riichi_78s_loses(), pon_then_tsumo(), exhaustive_draw()];
        // With the agreement counts (the shipped models, each given a temperature so that bad
        // moves are counted too), so that their scopes merge exactly as well.
        let models = Models::for_tests(crate::model::judges::BAD_BELOW, false);
        let run_of = |games: &[crate::log::event::Game]| {
            let mut studies = Studies::default();
            let mut agreement = AgreementTables::default();
            let mut outcomes = Vec::new();
            for g in games {
                let (o, s, a) = analyse_with(g, Some(&models)).unwrap();
                outcomes.push(o);
                studies.merge(&s);
                agreement.merge(&a);
            }
            let (overall, by_table, by_player) = aggregate(&outcomes);
            StatsRun {
                files: games.len(),
                overall,
                by_table,
                by_player,
                studies,
                agreement,
                ..StatsRun::default()
            }
        };
        let whole = run_of(&all);
        let dir = tempfile::tempdir().unwrap();
        let (a, b, w, m) =
            (dir.path().join("a"), dir.path().join("b"), dir.path().join("w"), dir.path().join("m"));
        write(&run_of(&all[..1]), &a, 1).unwrap();
        write(&run_of(&all[1..]), &b, 1).unwrap();
        write(&whole, &w, 1).unwrap();
        let merged = merge(&[a.clone(), b.clone()]).unwrap();
        let counted = whole.agreement.total();
        assert!(counted.matched.n > 0 && counted.bad_move.n == counted.matched.n, "{counted:?}");
        assert!(whole.agreement.by_year.contains_key("unknown"), "hand-made ids carry no date");
        assert_eq!(merged, whole);
        assert_eq!(read(&w).unwrap(), whole);
        write(&merged, &m, 1).unwrap();
        for f in
            ["README.md", "tables.csv", "players.csv", "yaku.csv", "study_early_five.csv", "agreement.csv"]
        {
            assert_eq!(std::fs::read(w.join(f)).unwrap(), std::fs::read(m.join(f)).unwrap(), "{f}");
        }
        // A folder without counts is a clear error naming it.
        let e = merge(&[a, dir.path().join("nothing")]).unwrap_err().to_string();
        assert!(e.contains("nothing") && e.contains("counts.parquet"), "{e}");
    }

    /// On real games, the figures against counts taken straight from the events (no table, no
    /// replay): riichi declarations and chases, wins, tsumo, dealer wins, yaku, ippatsu, calls,
    /// deal-ins into riichi and busts.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn figures_match_counts_taken_from_events() {
        use crate::hand::meld::MeldKind;
        use crate::log::event::Event;
        let mut files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        files.truncate(40);
        let batch = crate::batch::load_all(&files);
        assert_eq!(batch.games.len(), files.len(), "{:?}", batch.errors);
        let outcomes: Vec<GameOutcome> = batch.games.iter().map(|g| analyse(g).unwrap().0).collect();
        let (all, _, _) = aggregate(&outcomes);
        let (mut riichi, mut chase, mut wins, mut tsumo, mut dealer_wins, mut calls, mut call_rounds) =
            (0u64, 0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
        let (mut riichi_wins, mut ippatsu, mut ron_into_riichi, mut rons, mut busts) =
            (0u64, 0u64, 0u64, 0u64, 0u64);
        let (mut closed_wins, mut dama_wins) = (0u64, 0u64);
        let mut yaku = vec![0u64; 55];
        for game in &batch.games {
            busts += game.final_scores.unwrap().iter().filter(|&&x| x < 0).count() as u64;
            for round in &game.rounds {
                let mut declared = [false; 4];
                let mut seat_calls = [0u64; 4];
                for e in &round.events {
                    match e {
                        Event::Riichi { who, step: 1, .. } => {
                            riichi += 1;
                            chase += u64::from(declared.iter().any(|&d| d));
                            declared[*who as usize] = true;
                        }
                        Event::Call { who, call }
                            if matches!(call.kind, MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan) =>
                        {
                            seat_calls[*who as usize] += 1;
                        }
                        Event::Agari(a) => {
                            wins += 1;
                            if seat_calls[a.who as usize] == 0 {
                                closed_wins += 1;
                                dama_wins += u64::from(!declared[a.who as usize]);
                            }
                            tsumo += u64::from(a.who == a.from_who);
                            dealer_wins += u64::from(a.who == round.start.dealer);
                            let ids: Vec<u8> = a
                                .yaku
                                .iter()
                                .filter(|y| y.1 > 0)
                                .map(|y| y.0)
                                .chain(a.yakuman.iter().copied())
                                .collect();
                            for &id in &ids {
                                yaku[id as usize] += 1;
                            }
                            if declared[a.who as usize] {
                                riichi_wins += 1;
                                ippatsu += u64::from(ids.contains(&2));
                            }
                            if a.who != a.from_who {
                                rons += 1;
                                ron_into_riichi += u64::from(declared[a.who as usize]);
                            }
                        }
                        _ => {}
                    }
                }
                calls += seat_calls.iter().sum::<u64>();
                call_rounds += seat_calls.iter().filter(|&&c| c > 0).count() as u64;
            }
        }
        assert!(
            riichi > 100 && chase > 5 && riichi_wins > 20 && ippatsu > 0,
            "{riichi} {chase} {riichi_wins} {ippatsu}"
        );
        assert_eq!(all.riichi.hits, riichi);
        assert_eq!(
            (all.first_riichi.n, all.chase_riichi().hits, all.first_riichi.hits),
            (riichi, chase, riichi - chase)
        );
        assert_eq!((all.win.hits, all.tsumo.hits, all.tsumo.n), (wins, tsumo, wins));
        assert_eq!(all.dealer_win.hits, dealer_wins);
        assert_eq!(all.yaku.0, yaku);
        assert_eq!((all.ippatsu.n, all.ippatsu.hits), (riichi_wins, ippatsu));
        assert_eq!((all.calls.sum as u64, all.call.hits), (calls, call_rounds));
        assert_eq!((all.deal_in_to_riichi.n, all.deal_in_to_riichi.hits), (rons, ron_into_riichi));
        assert_eq!(all.bust.hits, busts);
        // Each closed win is riichi or dama; riichi + open + dama wins are all the wins.
        let by_state = all.win_points_riichi.n + all.win_points_open.n + all.win_points_dama.n;
        assert_eq!(by_state, wins);
        assert_eq!((all.dama().n, all.dama().hits), (closed_wins, dama_wins));
    }

    /// The hand-made games are single rounds without a result, so partial: by default their
    /// rounds count and their placements do not, and the tests above count them as
    /// `--allow-partial` does.
    #[test]
    fn partial_games_are_left_out_of_placements_only() {
        let strict = aggregate(&games()).0;
        let allowed = aggregate_with(&games(), true).0;
        assert!(games().iter().all(|g| !g.complete));
        assert_eq!((strict.games, strict.partial_games), (0, allowed.games));
        assert_eq!(strict.placements, [0; 4]);
        assert_eq!(strict.rounds, allowed.rounds);
        assert_eq!(strict.win, allowed.win);
        assert!(allowed.games > 0 && allowed.partial_games == 0);
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
        let (overall, by_table, by_player) = aggregate_with(&outcomes, true);
        let run = StatsRun { files: 2, overall, by_table, by_player, studies, ..StatsRun::default() };
        let j = overall_json(&run);
        assert_eq!(j["overall"]["games"], 2);
        assert_eq!(j["by_table"]["ippan"]["riichi_rate"], 0.25);
        assert_eq!(j["studies"]["kabe"]["0"]["n"], 1);
        assert_eq!(j["studies"]["kabe"]["3"]["rate"], 1.0);
        let dir = tempfile::tempdir().unwrap();
        write(&run, dir.path(), 1).unwrap();
        let md = std::fs::read_to_string(dir.path().join("README.md")).unwrap();
        assert!(md.contains("## Study 1") && md.contains("## Study 3"));
    }
}
