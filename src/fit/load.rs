//! Loading an ingested dataset (the `decisions` and `options` tables, folders of parts) into ranking
//! data, with a decision filter and the train / validation / test split.
//!
//! `options` is read part by part in slices of rows (with only the needed columns), so memory holds
//! one slice of dense rows plus the sparse differences kept; `max_decisions` caps what is kept
//! (a deterministic sample by game for archives far larger than memory).

use std::path::Path;

use super::error::{FitError, Result};
use crate::dataset::error::DatasetError;
use polars::prelude::{Column, DataFrame};

use std::sync::Arc;

use super::data::{Layout, Moments};
use super::split::{split_of, Split};
use super::store::{Budget, Store};
use crate::dataset::parts;
use crate::model::derived::Derived;
use crate::model::filter::Filter;
use crate::model::gates::{Expansion, Interaction};
use crate::util::{fnv1a_extend, FNV1A_START};

/// A loaded dataset: the kept decisions of each split in a [`Store`] (in memory within the
/// budget, the rest streamed from a cache file), and the feature moments over all of them.
pub struct Loaded {
    pub train: Store,
    pub validation: Store,
    pub test: Store,
    pub moments: Moments,
    pub feature_names: Vec<String>,
    /// Hash of the values the fit reads ([`ValuePrint`]: names, decisions, options' values; hex).
    pub fingerprint: String,
    /// Bytes of decision data held in memory and spilled to the cache file.
    pub in_memory: usize,
    pub spilled: usize,
}

impl Loaded {
    pub fn split(&self, split: Split) -> &Store {
        match split {
            Split::Train => &self.train,
            Split::Validation => &self.validation,
            Split::Test => &self.test,
        }
    }
}

/// How much decision data a fit may hold in memory, and where the rest goes.
#[derive(Clone, Debug)]
pub struct Memory {
    /// Bytes of in-memory decision chunks (see [`super::store::default_budget`]).
    pub budget: usize,
    /// Folder of the temporary cache file when the budget is exceeded.
    pub spill_dir: std::path::PathBuf,
}

/// A fingerprint of the values a fit reads: the feature names in order, then each kept
/// decision in decision-id order with its id, the place of the chosen option and every option's
/// values (f32 bits). It names the data, not its encoding: the same for any parquet compression,
/// part size, `--jobs` or shard layout, and different when any value the fit reads differs.
#[derive(Default)]
struct ValuePrint {
    /// (decision id, hash of the decision's values), in the order the parts give them.
    decisions: Vec<(u64, u64)>,
}

/// FNV-1a's prime, applied per 32-bit word instead of per byte: the options' values are billions
/// of words, and a word step is a quarter of the work with the same mixing of each word.
fn word_step(h: u64, w: u32) -> u64 {
    (h ^ u64::from(w)).wrapping_mul(0x0100_0000_01b3)
}

impl ValuePrint {
    fn push(&mut self, id: u64, chosen: usize, rows: &[&[f32]]) {
        let mut h = word_step(FNV1A_START, chosen as u32);
        for row in rows {
            h = word_step(h, row.len() as u32);
            for v in *row {
                h = word_step(h, v.to_bits());
            }
        }
        self.decisions.push((id, h));
    }

    fn finish(mut self, names: &[String]) -> String {
        self.decisions.sort_unstable();
        let mut h = FNV1A_START;
        for n in names {
            h = fnv1a_extend(h, n.as_bytes());
            h = fnv1a_extend(h, b"\n");
        }
        for (id, d) in &self.decisions {
            h = fnv1a_extend(h, &id.to_le_bytes());
            h = fnv1a_extend(h, &d.to_le_bytes());
        }
        format!("{h:016x}")
    }
}

fn col<'a>(df: &'a DataFrame, name: &str) -> Result<&'a Column> {
    df.column(name).map_err(|source| DatasetError::MissingColumn { name: name.to_string(), source }.into())
}

/// The feature column names of a dataset's options table.
pub fn feature_columns(dir: &Path) -> Result<Vec<String>> {
    Ok(parts::column_names(dir, "options")?
        .into_iter()
        .filter(|n| !["decision_id", "option", "chosen"].contains(&n.as_str()))
        .collect())
}

/// Caps the kept decisions at about `cap`, deterministically: whole games in hash order (by
/// `seed`) until the cap is reached, so a sample of a large archive keeps every decision of the
/// games it keeps.
fn cap_by_game(keep: &mut [bool], game: &[&str], seed: u64, cap: usize) {
    let mut by_game: Vec<(u64, &str)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for i in 0..keep.len() {
        if keep[i] && seen.insert(game[i]) {
            by_game.push((super::split::game_hash(game[i], seed ^ 0x5eed), game[i]));
        }
    }
    by_game.sort();
    let mut count: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for i in 0..keep.len() {
        if keep[i] {
            *count.entry(game[i]).or_default() += 1;
        }
    }
    let mut allowed = std::collections::HashSet::new();
    let mut total = 0;
    for (_, g) in by_game {
        if total >= cap {
            break;
        }
        total += count[g];
        allowed.insert(g);
    }
    for i in 0..keep.len() {
        keep[i] = keep[i] && allowed.contains(game[i]);
    }
}

/// Loads the decisions passing `filter`. `features` chooses the feature columns (by name; all of
/// the options file's feature columns when `None`); `interactions` adds gated copies of them
/// (see [`crate::model::gates`]), kept as one level byte per gate and decision, not as columns
/// (see [`super::data`]). `derived` appends the decision-relative columns of
/// [`crate::model::derived`] to every option row (before the gates, which may copy them).
#[allow(clippy::too_many_arguments)]
pub fn load(
    dir: &Path,
    filter: &Filter,
    seed: u64,
    validation: f64,
    test: f64,
    max_decisions: Option<usize>,
    features: Option<&[String]>,
    interactions: &[Interaction],
    derived: bool,
    memory: &Memory,
) -> Result<Loaded> {
    let decisions = parts::read_table(
        dir,
        "decisions",
        Some(&["decision_id", "game_id", "kind", "is_ai", "table", "turn", "players"]),
    )?;
    let ids: Vec<u64> = col(&decisions, "decision_id")?.u64()?.iter().map(|x| x.unwrap_or(0)).collect();
    let game: Vec<&str> = col(&decisions, "game_id")?.str()?.iter().map(|x| x.unwrap_or("")).collect();
    let kind: Vec<&str> = col(&decisions, "kind")?.str()?.iter().map(|x| x.unwrap_or("")).collect();
    let is_ai: Vec<bool> = col(&decisions, "is_ai")?.bool()?.iter().map(|x| x.unwrap_or(false)).collect();
    let table: Vec<&str> = col(&decisions, "table")?.str()?.iter().map(|x| x.unwrap_or("")).collect();
    let turn: Vec<u8> = col(&decisions, "turn")?.u8()?.iter().map(|x| x.unwrap_or(0)).collect();
    let players: Vec<u8> = col(&decisions, "players")?.u8()?.iter().map(|x| x.unwrap_or(4)).collect();
    let row_of = parts::id_index(&ids)?;
    let mut keep: Vec<bool> =
        (0..ids.len()).map(|i| filter.keeps(kind[i], table[i], is_ai[i], players[i])).collect();
    if let Some(cap) = max_decisions {
        cap_by_game(&mut keep, &game, seed, cap);
    }

    let all = feature_columns(dir)?;
    let names: Vec<String> = match features {
        Some(f) => {
            for n in f {
                if !all.contains(n) {
                    return Err(FitError::NotAColumn { feature: n.clone(), options: dir.join("options") });
                }
            }
            f.to_vec()
        }
        None => all,
    };
    let derived = if derived { Derived::all(&names) } else { Derived::default() };
    let mut row_names = names.clone();
    row_names.extend(derived.names());
    let expansion = Expansion::new(&row_names, interactions)?;
    let layout = Arc::new(Layout::of(&expansion));
    let mut budget = Budget::new(memory.budget, &memory.spill_dir);
    let mut stores = [Store::new(layout.clone()), Store::new(layout.clone()), Store::new(layout.clone())];
    let mut moments = Moments::for_layout(&layout);
    let mut print = ValuePrint::default();
    let mut columns = vec!["decision_id".to_string(), "chosen".to_string()];
    columns.extend(names.iter().cloned());
    // Rows of the decision being assembled (may straddle slices).
    let mut cur_id: Option<u64> = None;
    let mut cur_rows: Vec<Vec<f32>> = Vec::new();
    let mut cur_chosen: Option<usize> = None;
    let mut flush =
        |id: u64, rows: &mut Vec<Vec<f32>>, chosen: Option<usize>, stores: &mut [Store; 3]| -> Result<()> {
            if let Some(i) = row_of.get(&id).copied().filter(|&i| keep[i]) {
                if let Some(c) = chosen {
                    let inputs: Vec<&[f32]> = rows.iter().map(|r| r.as_slice()).collect();
                    print.push(id, c, &inputs);
                    derived.with_augmented(&inputs, |refs| -> Result<()> {
                        let levels = expansion.levels(&expansion.situation(refs, turn[i]));
                        let split = split_of(game[i], seed, validation, test) as usize;
                        if stores[split].push(refs, c, &levels, &mut budget)? {
                            moments.push(&layout, refs, &levels);
                        }
                        Ok(())
                    })?;
                }
            }
            rows.clear();
            Ok(())
        };
    parts::for_each_slice(dir, "options", &columns, 200_000, |df| {
        let did: Vec<u64> = col(df, "decision_id")?.u64()?.iter().map(|x| x.unwrap_or(0)).collect();
        let ch: Vec<bool> = col(df, "chosen")?.bool()?.iter().map(|x| x.unwrap_or(false)).collect();
        let feats: Vec<Vec<f32>> = names.iter().map(|n| parts::f32s(df, n)).collect::<Result<_, _>>()?;
        for r in 0..df.height() {
            let id = did[r];
            if cur_id != Some(id) {
                if let Some(prev) = cur_id {
                    flush(prev, &mut cur_rows, cur_chosen, &mut stores)?;
                }
                cur_id = Some(id);
                cur_chosen = None;
            }
            if row_of.get(&id).is_some_and(|&i| keep[i]) {
                if ch[r] {
                    cur_chosen = Some(cur_rows.len());
                }
                cur_rows.push(feats.iter().map(|c| c[r]).collect());
            }
        }
        Ok::<_, FitError>(())
    })?;
    if let Some(prev) = cur_id {
        flush(prev, &mut cur_rows, cur_chosen, &mut stores)?;
    }
    for st in &mut stores {
        st.finish(&mut budget)?;
    }
    let [train, validation, test] = stores;
    Ok(Loaded {
        train,
        validation,
        test,
        moments,
        feature_names: expansion.names().to_vec(),
        fingerprint: print.finish(&names),
        in_memory: budget.in_memory(),
        spilled: budget.spilled(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cap keeps whole games only, never a decision the filter dropped, and stops at the
    /// game that reaches the cap (the same games for the same seed).
    #[test]
    fn the_cap_keeps_whole_games_up_to_the_cap() {
        let game = ["a", "a", "b", "b", "b", "c", "c", "d", "a"];
        let filtered = [true, true, true, true, true, true, true, true, false];
        for cap in 0..10 {
            let mut keep = filtered;
            cap_by_game(&mut keep, &game, 7, cap);
            let mut again = filtered;
            cap_by_game(&mut again, &game, 7, cap);
            assert_eq!(keep, again, "cap {cap}: not deterministic");
            assert!(!keep[8], "cap {cap}: kept a decision the filter dropped");
            let kept_games: std::collections::BTreeSet<&str> =
                (0..game.len()).filter(|&i| keep[i]).map(|i| game[i]).collect();
            for i in 0..8 {
                assert_eq!(keep[i], kept_games.contains(game[i]), "cap {cap}: game {} split", game[i]);
            }
            let kept = keep.iter().filter(|&&k| k).count();
            let size = |g: &str| (0..8).filter(|&i| game[i] == g).count();
            // the last game taken (some kept game, at most the largest) was still needed
            let largest = kept_games.iter().map(|g| size(g)).max().unwrap_or(0);
            assert!(kept >= cap.min(8), "cap {cap}: kept {kept}");
            assert!(kept == 0 || kept - largest < cap, "cap {cap}: kept {kept}, more games than needed");
        }
    }
}

#[cfg(test)]
mod fingerprint_tests {
    use super::*;
    use crate::dataset::ingest::{run, IngestOptions};
    use crate::model::filter::Filter;

    fn print_of(dir: &Path) -> String {
        let filter = Filter { kind: "discard".into(), tables: vec![], ai: None, players: 4 };
        let spill = tempfile::tempdir().unwrap();
        let memory = Memory { budget: 1 << 30, spill_dir: spill.path().to_path_buf() };
        load(dir, &filter, 1, 0.1, 0.1, None, None, &[], false, &memory).unwrap().fingerprint
    }

    /// The fingerprint names the values, not their encoding: ingests of the same records with
    /// other part sizes and thread counts give one fingerprint (their files differ), and one value
    /// changed in one part gives another.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn fingerprint_is_of_values_not_files() {
        let files: Vec<std::path::PathBuf> = crate::testdata::tenhou_files(&[".mjlog"])
            .expect("../shared/data/tenhou holds .mjlog records")
            .into_iter()
            .step_by(700)
            .take(3)
            .collect();
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        run(&files, a.path(), &IngestOptions { jobs: Some(1), part_games: 1, ..Default::default() }).unwrap();
        run(&files, b.path(), &IngestOptions { jobs: Some(2), part_games: 3, ..Default::default() }).unwrap();
        let (pa, pb) = (print_of(a.path()), print_of(b.path()));
        assert_eq!(pa, pb, "part size and --jobs changed the fingerprint");
        assert_eq!(pa.len(), 16);
        // the files themselves differ (three parts against one)
        assert_ne!(parts::table_files(a.path(), "options").unwrap().len(), 1);
        // one value of one part's options changed: another fingerprint
        use polars::prelude::*;
        let path = parts::part_path(a.path(), "options", 1);
        let mut df = ParquetReader::new(std::fs::File::open(&path).unwrap()).finish().unwrap();
        let shanten = df.column("shanten_min").unwrap().cast(&DataType::Float32).unwrap();
        let mut v: Vec<f32> = shanten.f32().unwrap().into_no_null_iter().collect();
        v[0] += 1.0;
        let dtype = df.column("shanten_min").unwrap().dtype().clone();
        let changed = Column::new("shanten_min".into(), v).cast(&dtype).unwrap();
        df.with_column(changed).unwrap();
        ParquetWriter::new(std::fs::File::create(&path).unwrap()).finish(&mut df).unwrap();
        assert_ne!(print_of(a.path()), pa, "a changed value kept the fingerprint");
    }
}
