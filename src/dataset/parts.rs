//! A dataset folder as `haifu ingest` writes it, and the readers every stage above uses.
//!
//! Each table is a folder of numbered part files, `options/part-000012.parquet`; all five tables
//! of one chunk of input records share the part number. A part is complete when its manifest
//! `_parts/part-000012.json` exists (written last, atomically): it lists the input records of the
//! part. Readers take `TABLE/part-*.parquet` in name order, or the older single file
//! `TABLE.parquet` when there is no `TABLE/` folder. Polars, pyarrow and duckdb read a table from
//! the glob `TABLE/*.parquet` as one table (unfinished files are hidden `.part-*.tmp` names).

use std::path::{Path, PathBuf};

use super::error::DatasetError;
use super::parquet::open;
use polars::prelude::{DataFrame, DataType, ParquetReader, SerReader};

use crate::batch::FileError;
use crate::replay::view::{Scoreboard, Situation};

/// The tables of a dataset, in the order they are written.
pub const TABLES: [&str; 5] = ["games", "rounds", "decisions", "options", "waits"];

/// The folder of part manifests.
pub const MANIFESTS: &str = "_parts";

/// Decision ids are `source_index * DECISION_ID_STRIDE + k`: the record's position in the sorted
/// input list (before sharding) and the decision's position in its game. Unique and the same
/// whatever the part size, the shard or an interruption.
pub const DECISION_ID_STRIDE: u64 = 100_000;

/// `part-000012`: the file stem of part 12 (six digits keep name order = number order).
pub fn part_stem(part: u64) -> String {
    format!("part-{part:06}")
}

/// The part number of a file name `part-000012.parquet` / `part-000012.json`.
pub fn part_number(file_name: &str) -> Option<u64> {
    let rest = file_name.strip_prefix("part-")?;
    let digits = rest.split('.').next()?;
    if rest.len() == digits.len() || digits.is_empty() {
        return None;
    }
    digits.parse().ok()
}

/// What a complete part holds: its input records and the counts and errors they gave.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    pub part: u64,
    /// `I/N` of the run that wrote it.
    pub shard: String,
    /// Records per part of that run.
    pub part_games: usize,
    /// The input records (source names) in order, with their index in the whole input list.
    pub sources: Vec<String>,
    pub source_index: Vec<u64>,
    /// Their game ids ([`crate::log::source::Source::id`]): what `--resume` compares, so the same
    /// archive resumes under another mount point or spelling of its path (`../shared` or
    /// `/work/shared`). Empty in manifests written before ids were recorded (then the names are
    /// compared).
    #[serde(default)]
    pub ids: Vec<String>,
    /// Fingerprint of the five tables' columns and types as the writing haifu wrote them
    /// ([`crate::dataset::ingest`]): `--resume` keeps a part only when its schema is this run's.
    /// Empty in manifests written before fingerprints were recorded (then the part files' own
    /// schemas are compared).
    #[serde(default)]
    pub schema: String,
    /// The option column groups the run left out (`--skip`, e.g. `ev,ukeire2`; empty: none), so
    /// a reader can say why a column is missing.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub skip: String,
    /// The option column groups the part holds (`ev`, `ev,ukeire2`; empty: neither), so a reader
    /// of a folder knows which columns to expect. `None` in manifests written before `--with`
    /// existed (then every group but those in `skip` was held).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<String>,
    /// What its records gave (flattened: the JSON keeps the fields at the top level).
    #[serde(flatten)]
    pub tally: Tally,
}

/// What some input records gave: rows per table, decisions by kind, and the records that
/// failed. Each part's manifest holds its own; a run's summary adds up those of its parts.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    pub games: u64,
    pub rounds: u64,
    pub decisions: u64,
    pub options: u64,
    pub decisions_by_kind: std::collections::BTreeMap<String, u64>,
    pub errors: Vec<FileError>,
}

impl Tally {
    /// Adds another tally to this one.
    pub fn add(&mut self, other: &Tally) {
        self.games += other.games;
        self.rounds += other.rounds;
        self.decisions += other.decisions;
        self.options += other.options;
        for (k, n) in &other.decisions_by_kind {
            *self.decisions_by_kind.entry(k.clone()).or_default() += n;
        }
        self.errors.extend(other.errors.iter().cloned());
    }
}

pub fn manifest_path(dir: &Path, part: u64) -> PathBuf {
    dir.join(MANIFESTS).join(format!("{}.json", part_stem(part)))
}

/// The part file of `table`.
pub fn part_path(dir: &Path, table: &str, part: u64) -> PathBuf {
    dir.join(table).join(format!("{}.parquet", part_stem(part)))
}

/// Every complete part's manifest, by part number.
pub fn manifests(dir: &Path) -> Result<Vec<Manifest>, DatasetError> {
    let mdir = dir.join(MANIFESTS);
    let mut out = Vec::new();
    if !mdir.is_dir() {
        return Ok(out);
    }
    for e in std::fs::read_dir(&mdir).map_err(|source| DatasetError::List { path: mdir.clone(), source })? {
        let p = e?.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if part_number(name).is_none() || !name.ends_with(".json") {
            continue;
        }
        let text =
            std::fs::read_to_string(&p).map_err(|source| DatasetError::Read { path: p.clone(), source })?;
        out.push(
            serde_json::from_str(&text)
                .map_err(|source| DatasetError::Manifest { path: p.clone(), source })?,
        );
    }
    out.sort_by_key(|m: &Manifest| m.part);
    Ok(out)
}

/// The files of `table` in `dir`, in name order: `TABLE/part-*.parquet`, or `TABLE.parquet`.
pub fn table_files(dir: &Path, table: &str) -> Result<Vec<PathBuf>, DatasetError> {
    let folder = dir.join(table);
    if folder.is_dir() {
        let mut files = Vec::new();
        for e in std::fs::read_dir(&folder)
            .map_err(|source| DatasetError::List { path: folder.clone(), source })?
        {
            let p = e?.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.starts_with("part-") && name.ends_with(".parquet") {
                files.push(p);
            }
        }
        files.sort();
        if files.is_empty() {
            return Err(DatasetError::NoParts { folder });
        }
        return Ok(files);
    }
    let single = dir.join(format!("{table}.parquet"));
    if single.is_file() {
        return Ok(vec![single]);
    }
    Err(DatasetError::NotADataset { dir: dir.to_path_buf(), table: table.to_string() })
}

/// The column names of `table` (from its first file).
pub fn column_names(dir: &Path, table: &str) -> Result<Vec<String>, DatasetError> {
    let files = table_files(dir, table)?;
    let file = open(&files[0])?;
    let schema = ParquetReader::new(file).schema()?;
    Ok(schema.iter_names().map(|n| n.to_string()).collect())
}

/// Each column of `df` as (name, type), the way [`file_columns`] reports a file's.
pub fn columns_of(df: &DataFrame) -> Vec<(String, String)> {
    df.schema().iter().map(|(n, t)| (n.to_string(), t.to_string())).collect()
}

/// The columns and types of one parquet file, read from its footer (no rows).
pub fn file_columns(path: &Path) -> Result<Vec<(String, String)>, DatasetError> {
    let file = open(path)?;
    let df = ParquetReader::new(file)
        .with_slice(Some((0, 0)))
        .finish()
        .map_err(|source| DatasetError::Schema { path: path.to_path_buf(), source })?;
    Ok(columns_of(&df))
}

/// Reads `columns` (all when `None`) of every file of `table`, stacked in name order.
pub fn read_table(dir: &Path, table: &str, columns: Option<&[&str]>) -> Result<DataFrame, DatasetError> {
    let mut out: Option<DataFrame> = None;
    for path in table_files(dir, table)? {
        let file = open(&path)?;
        let df = ParquetReader::new(file)
            .with_columns(columns.map(|c| c.iter().map(|s| s.to_string()).collect()))
            .finish()
            .map_err(|source| DatasetError::Parquet { path: path.clone(), source })?;
        match &mut out {
            None => out = Some(df),
            Some(o) => {
                o.vstack_mut(&df)
                    .map_err(|source| DatasetError::SchemaDiffers { path: path.clone(), source })?;
            }
        }
    }
    let mut df = out.expect("at least one file");
    df.align_chunks_par();
    Ok(df)
}

/// The `decisions` columns [`scoreboards`] reads.
pub const SCOREBOARD_SOURCES: [&str; 9] =
    ["round", "honba", "sticks", "seat", "score_0", "score_1", "score_2", "score_3", "players"];

/// The `decisions` columns a [`Situation`] is read from ([`situations`]).
pub fn situation_columns() -> Vec<&'static str> {
    let mut cols = vec!["turn", "wall_left", "round_wind", "dealer"];
    cols.extend(SCOREBOARD_SOURCES);
    cols
}

/// Each row's [`Situation`], from a `decisions` frame holding [`situation_columns`]: the one
/// reader `eval`, `stats --agreement` and the trees example share, so that the situation a model
/// sees off a dataset is the one [`Situation::of_view`] gives a live position.
pub fn situations(df: &DataFrame) -> Result<Vec<Situation>, DatasetError> {
    let u8s = |n: &str| -> Result<Vec<u8>, DatasetError> {
        Ok(df.column(n)?.u8()?.iter().map(|x| x.unwrap_or(0)).collect())
    };
    let (turn, wall, wind, dealer) = (u8s("turn")?, u8s("wall_left")?, u8s("round_wind")?, u8s("dealer")?);
    let boards = scoreboards(df)?;
    Ok((0..df.height())
        .map(|i| Situation::of_decision(turn[i], wall[i], wind[i], dealer[i], boards[i]))
        .collect())
}

/// Each row's scoreboard (round, counters, scores, the deciding seat) from a `decisions` frame
/// holding [`SCOREBOARD_SOURCES`]: what a live position's view holds as
/// [`crate::replay::view::View::scoreboard`].
pub fn scoreboards(df: &DataFrame) -> Result<Vec<Scoreboard>, DatasetError> {
    let u8s = |n: &str| -> Result<Vec<u8>, DatasetError> {
        Ok(df.column(n)?.u8()?.iter().map(|x| x.unwrap_or(0)).collect())
    };
    let i32s = |n: &str| -> Result<Vec<i32>, DatasetError> {
        Ok(df.column(n)?.i32()?.iter().map(|x| x.unwrap_or(0)).collect())
    };
    let (round, honba, sticks, seat) = (u8s("round")?, u8s("honba")?, u8s("sticks")?, u8s("seat")?);
    let players = u8s("players")?;
    let scores = [i32s("score_0")?, i32s("score_1")?, i32s("score_2")?, i32s("score_3")?];
    Ok((0..df.height())
        .map(|i| Scoreboard {
            round: round[i],
            honba: honba[i],
            sticks: sticks[i],
            scores: [scores[0][i], scores[1][i], scores[2][i], scores[3][i]],
            seat: seat[i],
            players: players[i],
        })
        .collect())
}

/// Reads `table` in slices of at most `rows` rows with only `columns`, file by file in name
/// order, calling `f` on each slice: memory holds one slice, whatever the dataset's size. A
/// progress bar counts the part files (fit, eval and report all read this way).
pub fn for_each_slice<E: From<DatasetError>>(
    dir: &Path,
    table: &str,
    columns: &[String],
    rows: usize,
    mut f: impl FnMut(&DataFrame) -> Result<(), E>,
) -> Result<(), E> {
    let files = table_files(dir, table)?;
    let bar = crate::batch::progress(files.len(), &format!("reading {table} parts"));
    for path in files {
        crate::dataset::parquet::for_each_slice(&path, columns, rows, &mut f)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(())
}

/// A numeric or boolean column as f32 (option feature columns are stored in their smallest exact
/// type; see [`crate::dataset::storage`]). Nulls read as 0.
pub fn f32s(df: &DataFrame, name: &str) -> Result<Vec<f32>, DatasetError> {
    let c =
        df.column(name).map_err(|source| DatasetError::MissingColumn { name: name.to_string(), source })?;
    let c = c
        .cast(&DataType::Float32)
        .map_err(|source| DatasetError::NotNumeric { name: name.to_string(), source })?;
    Ok(c.f32()?.iter().map(|x| x.unwrap_or(0.0)).collect())
}

/// Position of every decision id in `ids` (ids are unique; they need not be dense or sorted).
pub fn id_index(ids: &[u64]) -> Result<std::collections::HashMap<u64, usize>, DatasetError> {
    let mut m = std::collections::HashMap::with_capacity(ids.len());
    for (i, &id) in ids.iter().enumerate() {
        if m.insert(id, i).is_some() {
            return Err(DatasetError::DuplicateId { id });
        }
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A manifest keeps its counts at the top level of its JSON, as manifests written before
    /// [`Tally`] existed did, so `--resume` still reads those; and tallies add up field by field.
    #[test]
    fn manifest_counts_stay_top_level_and_tallies_add() {
        let old = r#"{"part": 3, "shard": "0/1", "part_games": 200, "sources": ["a.mjlog"],
            "source_index": [600], "games": 1, "rounds": 9, "decisions": 700, "options": 6000,
            "decisions_by_kind": {"discard": 600, "call": 100},
            "errors": [{"file": "b.mjlog", "error": "bad"}]}"#;
        let m: Manifest = serde_json::from_str(old).unwrap();
        assert_eq!((m.part, m.tally.games, m.tally.rounds, m.tally.options), (3, 1, 9, 6000));
        assert_eq!(m.tally.decisions_by_kind["call"], 100);
        assert_eq!(m.tally.errors[0].file, "b.mjlog");
        let json: serde_json::Value = serde_json::to_value(&m).unwrap();
        assert_eq!(json["decisions"], 700);
        assert!(json.get("tally").is_none(), "{json}");
        let mut sum = m.tally.clone();
        sum.add(&m.tally);
        assert_eq!(
            (sum.games, sum.decisions, sum.decisions_by_kind["discard"], sum.errors.len()),
            (2, 1400, 1200, 2)
        );
    }

    #[test]
    fn part_names_round_trip() {
        assert_eq!(part_stem(12), "part-000012");
        assert_eq!(part_number("part-000012.parquet"), Some(12));
        assert_eq!(part_number("part-000012.json"), Some(12));
        assert_eq!(part_number(".part-000012.parquet.tmp"), None);
        assert_eq!(part_number("part-.parquet"), None);
        assert_eq!(part_number("part-12"), None);
    }
}
