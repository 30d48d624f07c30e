//! The five tables' columns, built from a chunk's games in input order: `games` (one row per
//! game, [`GameMeta`]), `rounds`, `decisions`, `options` (decision id, label and chosen flag,
//! then one column per feature of the catalog in its storage type, less the groups a [`Skip`]
//! leaves out), and `waits` (each opponent's waits at each discard decision, the danger labels).
//! Built from no games, each gives its table's schema.

use crate::dataset::columns::{Columns, Values};
use crate::dataset::rows::GameRows;
use crate::dataset::skip::Skip;
use crate::dataset::storage;
use crate::features::catalog::names;
use crate::log::event::{Game, Rules};

use super::IngestedGame;

/// The parts of a [`Game`] the `games` table keeps.
#[derive(Clone, Debug)]
pub struct GameMeta {
    pub id: String,
    pub table: &'static str,
    /// The rules the record states ([`Rules`]): the `games` table's rule columns.
    pub rules: Rules,
    pub players: [String; 4],
    pub dan: [i16; 4],
    pub rate: [f32; 4],
    pub is_ai: [bool; 4],
    pub final_scores: [i32; 4],
    pub placement: [u8; 4],
    pub rounds: u16,
    /// The record holds a whole game: a partial record's final scores and placements are those
    /// of where it stops ([`crate::replay::ending`]).
    pub complete: bool,
}

impl GameMeta {
    pub(super) fn of(game: &Game, rows: &GameRows) -> GameMeta {
        let final_scores = game.final_scores.unwrap_or_else(|| {
            let mut s = game.rounds.last().map_or(game.rules.start_scores(), |r| r.start.scores);
            if let Some(r) = rows.rounds.last() {
                for p in 0..4 {
                    s[p] += r.deltas[p];
                }
            }
            s
        });
        GameMeta {
            id: game.id.clone(),
            table: game.rules.table.name(),
            rules: game.rules,
            players: game.players.clone().map(|p| p.name),
            dan: game.players.clone().map(|p| p.dan.map_or(-1, |d| d as i16)),
            rate: game.players.clone().map(|p| p.rate.unwrap_or(f32::NAN)),
            is_ai: game.players.clone().map(|p| p.is_ai()),
            final_scores,
            placement: crate::util::placements_of(&final_scores, game.rules.players),
            rounds: rows.rounds.len() as u16,
            complete: rows.complete,
        }
    }
}

fn per_seat<T: Clone>(c: &mut Columns, prefix: &str, v: Vec<[T; 4]>, wrap: fn(Vec<T>) -> Values) {
    for s in 0..4 {
        c.push(&format!("{prefix}_{s}"), wrap(v.iter().map(|x| x[s].clone()).collect()));
    }
}

/// The five tables' columns with no rows, in [`crate::dataset::parts::TABLES`] order (the option
/// columns `skip` leaves out dropped): what the layouts and the schema fingerprint are read off.
pub(super) fn empty_columns(skip: Skip) -> [Columns; 5] {
    [
        games_columns(&[]),
        rounds_columns(&[]),
        decisions_columns(&[]),
        options_columns(&[], skip),
        waits_columns(&[]),
    ]
}

pub(super) fn games_columns(games: &[&GameMeta]) -> Columns {
    let mut c = Columns::new();
    c.push("game_id", Values::Str(games.iter().map(|g| g.id.clone()).collect()));
    c.push("table", Values::Str(games.iter().map(|g| g.table.to_string()).collect()));
    let rules = |f: fn(&Rules) -> bool| Values::Bool(games.iter().map(|g| f(&g.rules)).collect());
    c.push("go_type", Values::U32(games.iter().map(|g| g.rules.go_type).collect()));
    c.push("hanchan", rules(|r| r.hanchan));
    c.push("red_fives", rules(Rules::red_fives));
    c.push("rounds", Values::U16(games.iter().map(|g| g.rounds).collect()));
    c.push("complete", Values::Bool(games.iter().map(|g| g.complete).collect()));
    per_seat(&mut c, "player", games.iter().map(|g| g.players.clone()).collect(), Values::Str);
    per_seat(&mut c, "dan", games.iter().map(|g| g.dan).collect(), Values::I16);
    per_seat(&mut c, "rate", games.iter().map(|g| g.rate).collect(), Values::F32);
    per_seat(&mut c, "is_ai", games.iter().map(|g| g.is_ai).collect(), Values::Bool);
    per_seat(&mut c, "final_score", games.iter().map(|g| g.final_scores).collect(), Values::I32);
    per_seat(&mut c, "placement", games.iter().map(|g| g.placement).collect(), Values::U8);
    // The rules, as the record states them (docs/schema.md): appended after the columns that
    // were there before them, so that every earlier column keeps its place.
    c.push("players", Values::U8(games.iter().map(|g| g.rules.players).collect()));
    c.push("start_score", Values::I32(games.iter().map(|g| g.rules.start_score).collect()));
    c.push("return_score", Values::I32(games.iter().map(|g| g.rules.return_score).collect()));
    for place in 0..4 {
        c.push(
            &format!("uma_{}", place + 1),
            Values::I32(games.iter().map(|g| g.rules.uma[place]).collect()),
        );
    }
    for (suit, name) in ["red_m", "red_p", "red_s"].into_iter().enumerate() {
        c.push(name, Values::U8(games.iter().map(|g| g.rules.red[suit]).collect()));
    }
    c.push("kuitan", rules(|r| r.kuitan));
    c.push("kiriage_mangan", rules(|r| r.kiriage_mangan));
    c.push("double_yakuman", rules(|r| r.double_yakuman));
    c.push("kazoe_yakuman", rules(|r| r.kazoe_yakuman));
    c.push("nukidora", rules(|r| r.nukidora));
    c.push("tsumo_loss", rules(|r| r.tsumo_loss));
    c.push("fast", rules(|r| r.fast));
    c.push("result_known", rules(|r| r.result_known));
    c
}

pub(super) fn rounds_columns(games: &[&IngestedGame]) -> Columns {
    let rows: Vec<(&str, usize, &crate::dataset::rows::RoundRow)> = games
        .iter()
        .flat_map(|g| g.rows.rounds.iter().enumerate().map(move |(i, r)| (g.game.id.as_str(), i, r)))
        .collect();
    let mut c = Columns::new();
    c.push("game_id", Values::Str(rows.iter().map(|r| r.0.to_string()).collect()));
    c.push("round_index", Values::U16(rows.iter().map(|r| r.1 as u16).collect()));
    c.push("round", Values::U8(rows.iter().map(|r| r.2.round).collect()));
    c.push("honba", Values::U8(rows.iter().map(|r| r.2.honba).collect()));
    c.push("sticks", Values::U8(rows.iter().map(|r| r.2.sticks).collect()));
    c.push("dealer", Values::U8(rows.iter().map(|r| r.2.dealer).collect()));
    c.push("result", Values::Str(rows.iter().map(|r| r.2.result.clone()).collect()));
    c.push("winners", Values::Str(rows.iter().map(|r| r.2.winners.clone()).collect()));
    per_seat(&mut c, "delta", rows.iter().map(|r| r.2.deltas).collect(), Values::I32);
    c
}

pub(super) fn decisions_columns(games: &[&IngestedGame]) -> Columns {
    let ids: Vec<u64> =
        games.iter().flat_map(|g| (0..g.rows.decisions.len() as u64).map(|k| g.first_decision + k)).collect();
    let rows: Vec<(&GameMeta, &crate::dataset::rows::DecisionRow)> =
        games.iter().flat_map(|g| g.rows.decisions.iter().map(move |d| (&g.game, d))).collect();
    let mut c = Columns::new();
    c.push("decision_id", Values::U64(ids));
    c.push("game_id", Values::Str(rows.iter().map(|(g, _)| g.id.clone()).collect()));
    c.push("round", Values::U8(rows.iter().map(|(_, d)| d.round).collect()));
    c.push("round_wind", Values::U8(rows.iter().map(|(_, d)| d.round_wind).collect()));
    c.push("round_number", Values::U8(rows.iter().map(|(_, d)| d.round_number).collect()));
    c.push("honba", Values::U8(rows.iter().map(|(_, d)| d.honba).collect()));
    c.push("sticks", Values::U8(rows.iter().map(|(_, d)| d.sticks).collect()));
    c.push("seat", Values::U8(rows.iter().map(|(_, d)| d.seat).collect()));
    c.push("dealer", Values::U8(rows.iter().map(|(_, d)| d.dealer).collect()));
    c.push("turn", Values::U8(rows.iter().map(|(_, d)| d.turn).collect()));
    c.push("wall_left", Values::U8(rows.iter().map(|(_, d)| d.wall_left).collect()));
    c.push("kind", Values::Str(rows.iter().map(|(_, d)| d.kind.name().to_string()).collect()));
    c.push("chosen", Values::Str(rows.iter().map(|(_, d)| d.chosen.clone()).collect()));
    c.push("n_options", Values::U16(rows.iter().map(|(_, d)| d.n_options).collect()));
    per_seat(&mut c, "score", rows.iter().map(|(_, d)| d.scores).collect(), Values::I32);
    c.push("placement", Values::U8(rows.iter().map(|(_, d)| d.placement).collect()));
    for r in 0..3 {
        c.push(
            &format!("opp{}_riichi", r + 1),
            Values::Bool(rows.iter().map(|(_, d)| d.opp_riichi[r]).collect()),
        );
    }
    c.push("any_riichi", Values::Bool(rows.iter().map(|(_, d)| d.opp_riichi.iter().any(|&x| x)).collect()));
    c.push("dora_indicators", Values::Str(rows.iter().map(|(_, d)| d.dora_indicators.clone()).collect()));
    c.push("shanten", Values::I8(rows.iter().map(|(_, d)| d.shanten).collect()));
    c.push("offered", Values::Str(rows.iter().map(|(_, d)| d.offered.clone()).collect()));
    c.push("hand", Values::Str(rows.iter().map(|(_, d)| d.hand.clone()).collect()));
    c.push("player", Values::Str(rows.iter().map(|(g, d)| g.players[d.seat as usize].clone()).collect()));
    c.push("dan", Values::I16(rows.iter().map(|(g, d)| g.dan[d.seat as usize]).collect()));
    c.push("rate", Values::F32(rows.iter().map(|(g, d)| g.rate[d.seat as usize]).collect()));
    c.push("is_ai", Values::Bool(rows.iter().map(|(g, d)| g.is_ai[d.seat as usize]).collect()));
    c.push("table", Values::Str(rows.iter().map(|(g, _)| g.table.to_string()).collect()));
    // Appended, so that every earlier column keeps its place: the variant filter of fit, eval,
    // report, calibrate and stats reads it (docs/schema.md).
    c.push("players", Values::U8(rows.iter().map(|(_, d)| d.players).collect()));
    c
}

/// The `waits` table of `games`: one row per discard decision and opponent, the labels of the
/// danger models (docs/schema.md).
pub(super) fn waits_columns(games: &[&IngestedGame]) -> Columns {
    let rows: Vec<(u64, &crate::dataset::rows::WaitRow)> = games
        .iter()
        .flat_map(|g| g.rows.waits.iter().map(move |w| (g.first_decision + u64::from(w.decision), w)))
        .collect();
    let mut c = Columns::new();
    c.push("decision_id", Values::U64(rows.iter().map(|r| r.0).collect()));
    c.push("opponent", Values::U8(rows.iter().map(|r| r.1.opponent).collect()));
    c.push("seat", Values::U8(rows.iter().map(|r| r.1.waits.seat).collect()));
    c.push("shanten", Values::I8(rows.iter().map(|r| r.1.waits.shanten).collect()));
    c.push("tenpai", Values::Bool(rows.iter().map(|r| r.1.waits.tenpai()).collect()));
    c.push("furiten", Values::Bool(rows.iter().map(|r| r.1.waits.furiten).collect()));
    c.push("waits", Values::U64(rows.iter().map(|r| r.1.waits.waits).collect()));
    c.push("ron", Values::U64(rows.iter().map(|r| r.1.waits.ron_kinds()).collect()));
    for k in 0..crate::tile::KINDS {
        let name = format!("ron_{}", crate::tile::Tile::from_kind(k));
        c.push(&name, Values::U32(rows.iter().map(|r| r.1.waits.ron_points[k]).collect()));
    }
    c
}

/// The options table of `games`, without the columns `skip` leaves out.
pub(super) fn options_columns(games: &[&IngestedGame], skip: Skip) -> Columns {
    let mut c = options_head(games);
    let mut features = storage::empty_columns(0);
    for g in games {
        for (col, part) in features.iter_mut().zip(&g.options) {
            col.append(part);
        }
    }
    for (name, col) in names().iter().zip(features) {
        if !skip.leaves_out(name) {
            c.push(name, col);
        }
    }
    c
}

/// The options table's first columns, those before the features.
pub(super) fn options_head(games: &[&IngestedGame]) -> Columns {
    let mut ids = Vec::new();
    let mut labels = Vec::new();
    let mut chosen = Vec::new();
    for g in games {
        let r = &g.rows;
        for d in 0..r.decisions.len() {
            for o in &r.options[r.option_ptr[d] as usize..r.option_ptr[d + 1] as usize] {
                ids.push(g.first_decision + d as u64);
                labels.push(o.label.clone());
                chosen.push(o.chosen);
            }
        }
    }
    let mut c = Columns::new();
    c.push("decision_id", Values::U64(ids));
    c.push("option", Values::Str(labels));
    c.push("chosen", Values::Bool(chosen));
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::ingest::tests::{assert_same_rows, opts, sample_files, tables};
    use crate::dataset::ingest::{run, IngestOptions};
    use crate::dataset::parts::{self, read_table};
    use crate::features::catalog::catalog_width;
    use polars::prelude::*;

    /// Ingests real games, reads the parts back and checks the schema other tools rely on,
    /// one chosen option per decision, and that no feature column is constant.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn parquet_schema_and_features_on_real_games() {
        let files = sample_files(25);
        let dir = tempfile::tempdir().unwrap();
        let s = run(&files, dir.path(), &opts(200)).unwrap();
        assert!(s.tally.errors.is_empty(), "{:?}", s.tally.errors);
        assert_eq!(s.tally.games as usize, files.len());
        assert_eq!(s.parts_written, files.len().div_ceil(200));
        let decisions = read_table(dir.path(), "decisions", None).unwrap();
        let options = read_table(dir.path(), "options", None).unwrap();
        for c in ["decision_id", "game_id", "round", "seat", "turn", "kind", "is_ai", "table", "chosen"] {
            assert!(decisions.column(c).is_ok(), "decisions.{c} missing");
        }
        for c in ["decision_id", "option", "chosen"] {
            assert!(options.column(c).is_ok(), "options.{c} missing");
        }
        assert_eq!(decisions.height() as u64, s.tally.decisions);
        assert_eq!(options.height() as u64, s.tally.options);
        let kinds: Vec<&str> =
            decisions.column("kind").unwrap().str().unwrap().iter().map(|x| x.unwrap()).collect();
        assert!(kinds.iter().all(|k| ["discard", "riichi", "call", "agari", "kan"].contains(k)));
        // exactly one chosen option per decision
        let dids: Vec<u64> =
            decisions.column("decision_id").unwrap().u64().unwrap().into_no_null_iter().collect();
        let row_of = crate::dataset::parts::id_index(&dids).unwrap();
        let ids: Vec<u64> =
            options.column("decision_id").unwrap().u64().unwrap().into_no_null_iter().collect();
        let chosen: Vec<bool> =
            options.column("chosen").unwrap().bool().unwrap().iter().map(|x| x.unwrap()).collect();
        let mut per = vec![0u32; decisions.height()];
        for (id, c) in ids.iter().zip(&chosen) {
            per[row_of[id]] += u32::from(*c);
        }
        assert!(per.iter().all(|&n| n == 1), "a decision without exactly one chosen option");
        // the decisions' chosen label is the chosen option's label
        let labels: Vec<&str> =
            options.column("option").unwrap().str().unwrap().iter().map(|x| x.unwrap()).collect();
        let dchosen: Vec<&str> =
            decisions.column("chosen").unwrap().str().unwrap().iter().map(|x| x.unwrap()).collect();
        for ((id, c), l) in ids.iter().zip(&chosen).zip(&labels) {
            if *c {
                assert_eq!(dchosen[row_of[id]], *l);
            }
        }
        // Columns real but too rare for 25 games: kokushi tenpai (17 options in 199 games).
        // And the flag of a north set aside, which four-player games never have.
        const RARE: [&str; 2] = ["lv_kokushi_0", "act_kita"];
        let mut constant = Vec::new();
        for name in names().into_iter().filter(|n| !RARE.contains(n)) {
            let col = crate::dataset::parts::f32s(&options, name).unwrap();
            if col.iter().all(|&x| x == col[0]) {
                constant.push(name);
            }
        }
        assert!(constant.is_empty(), "constant feature columns: {constant:?}");
    }

    /// Every option value written to parquet, read back and cast to f32, equals the value the
    /// features computed (the declared storage types are lossless on real games).
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn option_values_round_trip_exactly() {
        let files = sample_files(250);
        let dir = tempfile::tempdir().unwrap();
        let s = run(&files, dir.path(), &opts(200)).unwrap();
        assert!(s.tally.errors.is_empty(), "{:?}", s.tally.errors);
        let options = read_table(dir.path(), "options", None).unwrap();
        let mut expected: Vec<f32> = Vec::new();
        for f in &files {
            let game = crate::log::source::Source::file(f.clone()).load().unwrap();
            expected.extend(crate::dataset::rows::game_rows(&game).unwrap().values);
        }
        let w = catalog_width();
        assert_eq!(expected.len(), options.height() * w);
        for (j, name) in names().iter().enumerate() {
            let dtype = options.column(name).unwrap().dtype().clone();
            assert_eq!(dtype.to_string(), polars_type(storage::types()[j]), "{name}");
            let got = crate::dataset::parts::f32s(&options, name).unwrap();
            for (r, g) in got.iter().enumerate() {
                let e = expected[r * w + j];
                assert!(
                    g.to_bits() == e.to_bits() || (g.is_nan() && e.is_nan()),
                    "{name} row {r}: {g} != {e}"
                );
            }
        }
    }

    /// The `waits` table on real games: one row per discard decision and opponent (three at a
    /// four-player table), keyed to the decisions table, its `ron` bits exactly the kinds whose
    /// `ron_*` points are set, those among the `waits` bits, and none for a furiten or
    /// non-tenpai opponent.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn waits_table_holds_each_opponent_of_each_discard() {
        let files = sample_files(100);
        let dir = tempfile::tempdir().unwrap();
        let s = run(&files, dir.path(), &opts(200)).unwrap();
        assert!(s.tally.errors.is_empty(), "{:?}", s.tally.errors);
        let decisions = read_table(dir.path(), "decisions", None).unwrap();
        let waits = read_table(dir.path(), "waits", None).unwrap();
        let u64s = |df: &DataFrame, c: &str| -> Vec<u64> {
            df.column(c).unwrap().u64().unwrap().into_no_null_iter().collect()
        };
        let bools = |c: &str| -> Vec<bool> {
            waits.column(c).unwrap().bool().unwrap().iter().map(|x| x.unwrap()).collect()
        };
        let kinds: Vec<&str> =
            decisions.column("kind").unwrap().str().unwrap().iter().map(|x| x.unwrap()).collect();
        let discards: Vec<u64> = u64s(&decisions, "decision_id")
            .into_iter()
            .zip(&kinds)
            .filter(|(_, k)| **k == "discard")
            .map(|(id, _)| id)
            .collect();
        let ids = u64s(&waits, "decision_id");
        let mut per = std::collections::BTreeMap::<u64, usize>::new();
        for id in &ids {
            *per.entry(*id).or_default() += 1;
        }
        assert_eq!(per.keys().copied().collect::<Vec<_>>(), discards, "one decision set");
        assert!(per.values().all(|&n| n == 3), "three opponents each");
        let (tenpai, furiten) = (bools("tenpai"), bools("furiten"));
        let (wait_bits, ron_bits) = (u64s(&waits, "waits"), u64s(&waits, "ron"));
        let points: Vec<Vec<u32>> = (0..crate::tile::KINDS)
            .map(|k| {
                let c = format!("ron_{}", crate::tile::Tile::from_kind(k));
                waits.column(&c).unwrap().u32().unwrap().into_no_null_iter().collect()
            })
            .collect();
        for r in 0..waits.height() {
            let set = (0..crate::tile::KINDS).filter(|&k| points[k][r] > 0).fold(0u64, |m, k| m | 1 << k);
            assert_eq!(set, ron_bits[r], "row {r}");
            assert_eq!(ron_bits[r] & !wait_bits[r], 0, "row {r}");
            assert_eq!(tenpai[r], wait_bits[r] != 0, "row {r}");
            if furiten[r] || !tenpai[r] {
                assert_eq!(ron_bits[r], 0, "row {r}");
            }
        }
        let share = tenpai.iter().filter(|&&t| t).count() as f64 / tenpai.len() as f64;
        assert!((0.05..0.5).contains(&share), "tenpai share {share}");
        assert!(ron_bits.iter().filter(|&&b| b != 0).count() > 1000);
    }

    fn polars_type(s: storage::Storage) -> String {
        match s {
            storage::Storage::Bool => DataType::Boolean,
            storage::Storage::U8 => DataType::UInt8,
            storage::Storage::I8 => DataType::Int8,
            storage::Storage::U16 => DataType::UInt16,
            storage::Storage::F32 => DataType::Float32,
        }
        .to_string()
    }

    /// `--skip` leaves its groups' columns out of the options table and changes no other value:
    /// every table equals the full run's with those columns dropped. Resuming with another
    /// `--skip` is refused.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn skip_leaves_out_its_columns_and_nothing_else() {
        use crate::dataset::skip::{Group, Skip};
        let files = sample_files(500);
        let files = &files[..4];
        let full = tempfile::tempdir().unwrap();
        run(files, full.path(), &opts(2)).unwrap();
        let full_tables = tables(full.path());
        for groups in [&[Group::Ev, Group::Ukeire2][..], &[Group::Ukeire2][..]] {
            let skip = Skip::of(groups);
            let dir = tempfile::tempdir().unwrap();
            run(files, dir.path(), &IngestOptions { skip, ..opts(2) }).unwrap();
            let got = tables(dir.path());
            let left_out: Vec<&str> = groups.iter().flat_map(|g| g.columns().iter().copied()).collect();
            let options = &full_tables[3];
            for c in &left_out {
                assert!(got[3].column(c).is_err(), "{skip}: {c} written");
                // the full run has real values there, so equality below is not about zeros
                let col = options.column(c).unwrap().cast(&DataType::Float64).unwrap();
                assert!(col.f64().unwrap().iter().any(|v| v.unwrap_or(0.0) > 0.0), "{c} all 0");
            }
            let mut want = full_tables.clone();
            want[3] = options.drop_many(left_out.iter().copied());
            assert_same_rows(&want, &got);
            let m = parts::manifests(dir.path()).unwrap();
            assert!(m.iter().all(|m| m.skip == skip.to_string()), "manifest says the skip");
            assert!(m.iter().all(|m| m.groups.as_deref() == Some(skip.holds().as_str())), "and the groups");
            // resuming with every group is refused, naming both sides' groups and the flags
            let e =
                run(files, dir.path(), &IngestOptions { resume: true, ..opts(2) }).unwrap_err().to_string();
            assert!(
                e.contains("this run holds ev,ukeire2,danger,seats (with --with ukeire2)")
                    && e.contains("--force"),
                "{e}"
            );
        }
    }
}
