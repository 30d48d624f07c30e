//! `haifu stats --agreement --data DIR`: the agreement counts ([`super::agreement`]) read off an
//! `haifu ingest` folder instead of built in the stats replay.
//!
//! Judging a decision needs every option's feature row, and building the rows is the cost of
//! ingest (電脳麻将's expected value above all): built in the replay, the figures cost about 75
//! times a plain `haifu stats`. An ingest folder already holds the rows, so this pass only reads
//! the columns the models use and scores them: the same rows (ingest builds them as the replay
//! does, [`crate::dataset::rows`]), the same judge ([`Models::judge`]), the same keys (the seat's
//! dan, the game id's year), so the same counts (a test holds the two paths to each other).
//! Memory holds one slice of the options table and the decisions' few columns.

use std::collections::HashSet;
use std::path::Path;

use super::agreement::{year_key, AgreementTables};
use crate::dataset::error::DatasetError;
use crate::dataset::parts;
use crate::dataset::parts::{situation_columns, situations};
use crate::features::catalog::{catalog_width, names};
use crate::features::danger::COLUMN_NAMES as DANGER;
use crate::model::judges::Models;
use crate::model::stake::StakeColumns;
use crate::model::trees::inputs::Situation;
use crate::replay::decision::DecisionKind;

/// Why an ingest folder cannot give the agreement counts.
#[derive(Debug, thiserror::Error)]
pub enum FromDataError {
    /// Reading the folder's tables (the error names the file).
    #[error(transparent)]
    Read(#[from] DatasetError),
    /// The ingest left out columns the models read (`haifu ingest --skip`).
    #[error(
        "{} lacks the option columns {missing} that the models read (ingested with --skip?); \
         ingest again without it, or drop --data to judge in the stats replay",
        data.display()
    )]
    MissingColumns { data: std::path::PathBuf, missing: String },
    #[error("{}: decision {id} has options but no row in the decisions table", data.display())]
    UnknownDecision { data: std::path::PathBuf, id: u64 },
    #[error("{}: decision {id} is of kind {kind:?}, which is not judged", data.display())]
    UnknownKind { data: std::path::PathBuf, id: u64, kind: String },
}

/// The per-decision facts the judging and the keys need.
struct Decisions {
    row_of: std::collections::HashMap<u64, usize>,
    game: Vec<String>,
    kind: Vec<DecisionKind>,
    human: Vec<bool>,
    dan: Vec<Option<u8>>,
    year: Vec<String>,
    situation: Vec<Situation>,
}

/// A judged kind (discard, riichi, call) from its name.
fn kind_of(name: &str) -> Option<DecisionKind> {
    DecisionKind::from_name(name).filter(|k| !matches!(k, DecisionKind::Agari | DecisionKind::Kan))
}

fn read_decisions(data: &Path) -> Result<Decisions, FromDataError> {
    let polars = |e: polars::prelude::PolarsError| FromDataError::from(DatasetError::from(e));
    let mut cols = vec!["decision_id", "game_id", "kind", "is_ai", "dan"];
    cols.extend(situation_columns());
    let df = parts::read_table(data, "decisions", Some(&cols))?;
    let col = |n: &str| df.column(n).map_err(polars);
    let ids: Vec<u64> = col("decision_id")?.u64().map_err(polars)?.iter().map(|x| x.unwrap_or(0)).collect();
    let mut kind = Vec::with_capacity(ids.len());
    for (i, k) in col("kind")?.str().map_err(polars)?.iter().enumerate() {
        let k = k.unwrap_or("");
        kind.push(kind_of(k).ok_or_else(|| FromDataError::UnknownKind {
            data: data.to_path_buf(),
            id: ids[i],
            kind: k.to_string(),
        })?);
    }
    Ok(Decisions {
        row_of: parts::id_index(&ids)?,
        kind,
        game: col("game_id")?.str().map_err(polars)?.iter().map(|g| g.unwrap_or("").to_string()).collect(),
        human: col("is_ai")?.bool().map_err(polars)?.iter().map(|x| !x.unwrap_or(false)).collect(),
        dan: col("dan")?
            .i16()
            .map_err(polars)?
            .iter()
            .map(|x| x.and_then(|d| u8::try_from(d).ok()))
            .collect(),
        year: col("game_id")?.str().map_err(polars)?.iter().map(|g| year_key(g.unwrap_or(""))).collect(),
        situation: situations(&df)?,
    })
}

/// The option columns `models` read, in catalog order: those of the three linear models and of
/// the trees model (a relative column's base column among them).
fn needed(models: &Models) -> Vec<String> {
    let mut want = models.needed_columns();
    want.sort_by_key(|c| names().iter().position(|n| n == c));
    want.dedup();
    want
}

/// What [`agreement_of_data`] found.
pub struct FromData {
    pub tables: AgreementTables,
    /// The ids of the games asked for that the folder's `decisions` table holds.
    pub present: HashSet<String>,
}

/// The agreement counts of every human decision of the games `games` (ids) in the ingest folder
/// `data`, judged by `models`, by dan and by year, as
/// [`super::agreement::AgreementCollector`] counts them in the replay.
/// `jobs` threads (default: all cores) judge the part files.
pub fn agreement_of_data(
    data: &Path,
    models: &Models,
    games: &HashSet<String>,
    jobs: Option<usize>,
) -> Result<FromData, FromDataError> {
    let mut d = read_decisions(data)?;
    let present: HashSet<String> = d.game.iter().filter(|g| games.contains(*g)).cloned().collect();
    for (h, g) in d.human.iter_mut().zip(&d.game) {
        *h &= games.contains(g);
    }
    let have = parts::column_names(data, "options")?;
    let need = needed(models);
    let missing: Vec<&str> = need.iter().filter(|c| !have.contains(c)).map(String::as_str).collect();
    if !missing.is_empty() {
        return Err(FromDataError::MissingColumns {
            data: data.to_path_buf(),
            missing: crate::util::first_of(&missing, 8),
        });
    }
    // The danger family, where the folder holds it (a default ingest does): the judge states
    // the danger of bad moves ([`crate::model::stake`]); without it those counts stay empty.
    // Each wanted column in catalog order, with where it goes in a catalog row.
    let (at, want): (Vec<usize>, Vec<String>) = names()
        .iter()
        .enumerate()
        .filter(|(_, n)| need.iter().any(|c| c == *n) || (DANGER.contains(n) && have.iter().any(|c| c == *n)))
        .map(|(i, n)| (i, n.to_string()))
        .unzip();
    let mut columns = vec!["decision_id".to_string(), "chosen".to_string()];
    columns.extend(want.iter().cloned());
    // Part by part on the pool's threads (ingest writes a decision's options in its game's
    // part), each part's counts added after.
    let files = parts::table_files(data, "options")?;
    let bar = crate::batch::progress(files.len(), "judging options parts");
    let job =
        File { data, d: &d, models, want: &want, at: &at, columns: &columns, stake: StakeColumns::default() };
    let per_file: Vec<Result<AgreementTables, FromDataError>> = crate::batch::pool(jobs).install(|| {
        use rayon::prelude::*;
        files
            .par_iter()
            .map(|path| {
                let t = job.judge(path);
                bar.inc(1);
                t
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut tables = AgreementTables::default();
    for t in per_file {
        tables.merge(&t?);
    }
    Ok(FromData { tables, present })
}

/// What judging one part file needs.
struct File<'a> {
    data: &'a Path,
    d: &'a Decisions,
    models: &'a Models,
    want: &'a [String],
    /// Where each of `want` goes in a catalog row.
    at: &'a [usize],
    columns: &'a [String],
    stake: StakeColumns,
}

impl File<'_> {
    /// The counts of the human decisions whose options are in the part file `path`.
    fn judge(&self, path: &Path) -> Result<AgreementTables, FromDataError> {
        let (d, models, w) = (self.d, self.models, catalog_width());
        let mut out = AgreementTables::default();
        // The decision being gathered: its row in `d`, its options' catalog rows and its choice.
        let mut current: Option<(u64, usize)> = None;
        let (mut rows, mut chosen): (Vec<f32>, Option<usize>) = (Vec::new(), None);
        let mut judge = |i: usize, rows: &mut Vec<f32>, chosen: &mut Option<usize>| {
            if let Some(c) = chosen.take() {
                let refs: Vec<&[f32]> = rows.chunks_exact(w).collect();
                let (_, j) = models.judge(d.kind[i], &refs, d.situation[i], c);
                let danger = self.stake.separation(d.kind[i], refs[c], refs[j.pick]);
                out.add_decision(
                    d.dan[i],
                    &d.year[i],
                    d.kind[i],
                    j.matched,
                    j.bad_move(models.bad_below),
                    danger,
                );
            }
            rows.clear();
        };
        crate::dataset::parquet::for_each_slice(path, self.columns, 200_000, |df| {
            let ids: Vec<u64> = df.column("decision_id")?.u64()?.iter().map(|x| x.unwrap_or(0)).collect();
            let picked: Vec<bool> = df.column("chosen")?.bool()?.iter().map(|x| x.unwrap_or(false)).collect();
            let values: Vec<Vec<f32>> =
                self.want.iter().map(|n| parts::f32s(df, n)).collect::<Result<_, _>>()?;
            for r in 0..df.height() {
                let id = ids[r];
                if current.is_none_or(|(c, _)| c != id) {
                    if let Some((_, i)) = current {
                        judge(i, &mut rows, &mut chosen);
                    }
                    let unknown = || FromDataError::UnknownDecision { data: self.data.to_path_buf(), id };
                    current = Some((id, *d.row_of.get(&id).ok_or_else(unknown)?));
                }
                let Some((_, i)) = current else { continue };
                if !d.human[i] {
                    continue;
                }
                let option = rows.len() / w;
                rows.resize(rows.len() + w, 0.0);
                for (v, &c) in values.iter().zip(self.at) {
                    rows[option * w + c] = v[r];
                }
                if picked[r] {
                    chosen = Some(option);
                }
            }
            Ok::<_, FromDataError>(())
        })?;
        if let Some((_, i)) = current {
            judge(i, &mut rows, &mut chosen);
        }
        Ok(out)
    }
}

impl From<polars::prelude::PolarsError> for FromDataError {
    fn from(e: polars::prelude::PolarsError) -> Self {
        FromDataError::Read(DatasetError::from(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::ingest::{run, IngestOptions};
    use crate::stats::{compute_shard, Judging};

    /// The counts read off an ingest of real games are the ones the stats replay builds, with
    /// linear judging everything and with the trees judging every kind; the games of the
    /// run alone are counted, and a game the folder lacks is a failed file.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn counts_off_an_ingest_are_the_replays() {
        let mut files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        files.truncate(4);
        let dir = tempfile::tempdir().unwrap();
        use crate::features::groups::{Group, Skip};
        // a default ingest holds the danger family, which the judge reads to name the danger of
        // bad moves
        assert!(!Skip::default().has(Group::Danger));
        let opts = IngestOptions { jobs: Some(2), ..Default::default() };
        run(&files, dir.path(), &opts).expect("ingest");
        for m in [Models::for_tests(0.1, false), Models::for_tests(0.1, true)] {
            let shard = crate::batch::Shard::default();
            let replay = compute_shard(&files, Some(2), shard, false, Some(Judging::Replay(&m))).unwrap();
            let data =
                compute_shard(&files, Some(2), shard, false, Some(Judging::Data(&m, dir.path()))).unwrap();
            assert!(replay.errors.is_empty() && data.errors.is_empty(), "{:?}", data.errors);
            assert!(replay.agreement.total().matched.n > 500, "{:?}", replay.agreement.total());
            assert_eq!(data.agreement, replay.agreement, "judges {:?}", m.judges());
            // Three of the four games: the fourth's decisions are in the folder but not counted.
            let three =
                compute_shard(&files[..3], Some(2), shard, false, Some(Judging::Data(&m, dir.path())))
                    .unwrap();
            let want = compute_shard(&files[..3], Some(2), shard, false, Some(Judging::Replay(&m))).unwrap();
            assert_eq!(three.agreement, want.agreement);
            assert!(replay.agreement.total().bad_pushed.n > 0, "{:?}", replay.agreement.total());
        }
        // A folder without the danger family: the same counts, but no danger named.
        let plain = tempfile::tempdir().unwrap();
        let skip = Skip::default().union(Skip::of(&[Group::Danger]));
        run(&files[..2], plain.path(), &IngestOptions { jobs: Some(2), skip, ..Default::default() })
            .expect("ingest");
        let m = Models::for_tests(0.1, false);
        let shard = crate::batch::Shard::default();
        let data =
            compute_shard(&files[..2], Some(2), shard, false, Some(Judging::Data(&m, plain.path()))).unwrap();
        let mut replay =
            compute_shard(&files[..2], Some(2), shard, false, Some(Judging::Replay(&m))).unwrap();
        assert!(replay.agreement.total().bad_pushed.n > 0);
        for s in replay.agreement.by_dan.values_mut().chain(replay.agreement.by_year.values_mut()) {
            (s.bad_pushed, s.bad_folded) = Default::default();
        }
        assert_eq!(data.agreement, replay.agreement);
        // A folder of the first game only: the other three are failed files, named.
        let one = tempfile::tempdir().unwrap();
        run(&files[..1], one.path(), &opts).expect("ingest");
        let m = Models::for_tests(0.1, false);
        let shard = crate::batch::Shard::default();
        let part = compute_shard(&files, Some(2), shard, false, Some(Judging::Data(&m, one.path()))).unwrap();
        assert_eq!(part.errors.len(), 3, "{:?}", part.errors);
        assert!(part.errors.iter().all(|e| e.error.contains("is not in")), "{:?}", part.errors);
    }
}
