//! What an output folder may hold when a run starts, and the checks that let `--resume` keep a
//! complete part: it must hold this run's records, in the same places, with the same columns.

use std::collections::BTreeMap;
use std::path::Path;

use crate::dataset::error::DatasetError;
use crate::dataset::parts::{self, Manifest, TABLES};
use crate::dataset::skip::{Group, Skip};
use crate::util::fnv1a;

use super::{IngestOptions, IngestSummary};

/// Whether `dir` holds anything.
fn non_empty(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some())
}

/// Readies `out`: an error when it holds data and neither `--resume` nor `--force` was given;
/// with `--force`, what an earlier ingest wrote there is removed (nothing else is touched).
pub(super) fn prepare_out(out: &Path, opts: &IngestOptions) -> Result<(), DatasetError> {
    if non_empty(out) && !opts.resume {
        if !opts.force {
            return Err(DatasetError::NotEmpty { out: out.to_path_buf() });
        }
        for t in TABLES {
            for p in [out.join(t), out.join(parts::MANIFESTS)] {
                if p.is_dir() {
                    std::fs::remove_dir_all(&p)
                        .map_err(|source| DatasetError::Remove { path: p.clone(), source })?;
                }
            }
            let single = out.join(format!("{t}.parquet"));
            if single.is_file() {
                std::fs::remove_file(&single)?;
            }
        }
    }
    for t in TABLES.iter().chain(&[parts::MANIFESTS]) {
        let d = out.join(t);
        std::fs::create_dir_all(&d).map_err(|source| DatasetError::Create { path: d.clone(), source })?;
    }
    Ok(())
}

/// Removes the files of every part without a manifest (a killed run's leftovers, temporary files
/// included) and returns the complete parts' manifests.
pub(super) fn complete_parts(out: &Path) -> Result<std::collections::BTreeMap<u64, Manifest>, DatasetError> {
    let done: std::collections::BTreeMap<u64, Manifest> =
        parts::manifests(out)?.into_iter().map(|m| (m.part, m)).collect();
    for t in TABLES.iter().chain(&[parts::MANIFESTS]) {
        for e in std::fs::read_dir(out.join(t))? {
            let p = e?.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
            let stale =
                name.ends_with(".tmp") || parts::part_number(&name).is_some_and(|n| !done.contains_key(&n));
            if stale {
                std::fs::remove_file(&p)
                    .map_err(|source| DatasetError::Remove { path: p.clone(), source })?;
            }
        }
    }
    for m in done.values() {
        for t in TABLES {
            let p = parts::part_path(out, t, m.part);
            if !p.is_file() {
                let what = format!("part {} has a manifest but no {}", m.part, p.display());
                return Err(DatasetError::Refused { out: out.to_path_buf(), what });
            }
        }
    }
    Ok(done)
}

/// Each table's columns as this haifu writes them: (table, [(column, type)]).
pub(super) type Schemas = Vec<(&'static str, Vec<(String, String)>)>;

/// The columns and types of the five tables, read off the frames an empty part would write
/// (without the option columns `skip` leaves out).
pub(super) fn schemas(skip: Skip) -> Result<Schemas, DatasetError> {
    let frames = super::tables::empty_columns(skip);
    TABLES.iter().zip(frames).map(|(t, c)| Ok((*t, parts::columns_of(&c.frame()?)))).collect()
}

/// A short fingerprint of [`schemas`] for the manifests (FNV-1a of every table, column and type).
pub(super) fn fingerprint(schemas: &Schemas) -> String {
    let mut text = String::new();
    for (t, cols) in schemas {
        for (n, ty) in cols {
            text.push_str(&format!("{t}.{n}:{ty}\n"));
        }
    }
    format!("{:016x}", fnv1a(text.as_bytes()))
}

/// Refuses to resume onto the complete parts `done` unless this run would write each of them the
/// same: the same column groups ([`check_groups`]) and columns ([`check_schema`]), the same shard
/// count and part size, and a part number within this shard's `inputs` records.
pub(super) fn check_parts(
    out: &Path,
    done: &BTreeMap<u64, Manifest>,
    opts: &IngestOptions,
    schemas: &Schemas,
    print: &str,
    inputs: usize,
) -> Result<(), DatasetError> {
    let per = opts.part_games.max(1);
    let shard = opts.shard.to_string();
    for m in done.values() {
        check_groups(out, m, opts.skip)?;
        check_schema(out, m, schemas, print)?;
        if m.shard.split('/').nth(1) != shard.split('/').nth(1) || m.part_games != per {
            let what = format!(
                "part {} was written with --shard {} --part-games {}, not --shard {shard} --part-games {per} \
                 (use the same options to resume, or --force)",
                m.part, m.shard, m.part_games
            );
            return Err(DatasetError::Refused { out: out.to_path_buf(), what });
        }
        if m.part % opts.shard.count == opts.shard.index
            && m.part / opts.shard.count >= inputs.div_ceil(per) as u64
        {
            let what = format!("part {} does not belong to these inputs (use --force to replace)", m.part);
            return Err(DatasetError::Refused { out: out.to_path_buf(), what });
        }
    }
    Ok(())
}

/// Refuses to resume onto a part that holds other column groups than this run: the message names
/// the groups on both sides and the flags that write the part's. A manifest without `groups`
/// (written before `--with` existed, when every group was held unless `--skip` said otherwise) is
/// read from its `skip` (every group of that time, ev and ukeire2, unless skipped: the `danger`
/// and `seats` groups came later, so such a part never holds them).
fn check_groups(out: &Path, m: &Manifest, skip: Skip) -> Result<(), DatasetError> {
    let theirs = match &m.groups {
        Some(held) => Skip::parse(held).map(Skip::complement),
        // before `--with`: every group of the time (ev, ukeire2) held unless skipped
        None => Skip::parse(&m.skip).map(|s| s.union(Skip::of(&[Group::Danger, Group::Seats]))),
    };
    let theirs = match theirs {
        Ok(s) => s,
        // an unknown group name in a manifest: the schema check below says what differs
        Err(_) => return Ok(()),
    };
    if theirs == skip {
        return Ok(());
    }
    let held = |s: Skip| match s.holds() {
        h if h.is_empty() => "none".to_string(),
        h => h,
    };
    let flags = |s: Skip| match s.flags() {
        f if f.is_empty() => "without --with or --skip".to_string(),
        f => format!("with {f}"),
    };
    let what = format!(
        "part {} holds the option column groups {} (written {}), this run holds {} ({}). Parts with \
         other columns cannot be read as one table: resume {}, use --force to rebuild the dataset, or \
         ingest into a new --out",
        m.part,
        held(theirs),
        flags(theirs),
        held(skip),
        flags(skip),
        flags(theirs),
    );
    Err(DatasetError::Refused { out: out.to_path_buf(), what })
}

/// Refuses to resume onto a part written with other columns (an older haifu): a dataset whose
/// parts differ in schema cannot be read as one table. A manifest with this run's fingerprint is
/// trusted; otherwise (another fingerprint, or none from before fingerprints) the part files'
/// own schemas are read and compared, and the error names what differs.
fn check_schema(out: &Path, m: &Manifest, schemas: &Schemas, print: &str) -> Result<(), DatasetError> {
    if m.schema == print {
        return Ok(());
    }
    for (t, want) in schemas {
        let have = parts::file_columns(&parts::part_path(out, t, m.part))?;
        if &have != want {
            let names = |v: &[(String, String)]| v.iter().map(|c| c.0.clone()).collect::<Vec<_>>();
            let (hn, wn) = (names(&have), names(want));
            let missing: Vec<String> = wn.iter().filter(|n| !hn.contains(n)).cloned().collect();
            let extra: Vec<String> = hn.iter().filter(|n| !wn.contains(n)).cloned().collect();
            let retyped: Vec<String> = want
                .iter()
                .filter_map(|(n, ty)| {
                    have.iter().find(|c| &c.0 == n && &c.1 != ty).map(|c| format!("{n} ({} -> {ty})", c.1))
                })
                .collect();
            let show = |v: Vec<String>| crate::util::first_of(&v, 8);
            let mut what = Vec::new();
            if !missing.is_empty() {
                what.push(format!("no {}", show(missing)));
            }
            if !extra.is_empty() {
                what.push(format!("columns this haifu does not write: {}", show(extra)));
            }
            if !retyped.is_empty() {
                what.push(format!("other types: {}", show(retyped)));
            }
            if what.is_empty() {
                what.push("its columns in another order".to_string());
            }
            let what = format!(
                "part {} was written by another haifu or with another --skip (it says {:?}): its {t} \
                 table has {}. Parts with other columns cannot be read as one table: resume with the \
                 same --skip, use --force to rebuild the dataset, or ingest into a new --out",
                m.part,
                m.skip,
                what.join("; "),
            );
            return Err(DatasetError::Refused { out: out.to_path_buf(), what });
        }
    }
    Ok(())
}

/// Counts a complete part found in `out` (`--resume`), after checking that it holds this run's
/// records (`manifest`) in the same places.
pub(super) fn keep(
    out: &Path,
    m: &Manifest,
    manifest: &Manifest,
    summary: &mut IngestSummary,
) -> Result<(), DatasetError> {
    let same_inputs = if m.ids.is_empty() { m.sources == manifest.sources } else { m.ids == manifest.ids };
    if !same_inputs || m.source_index != manifest.source_index {
        let what = format!(
            "part {} holds other inputs than this run's ({} ...); use --force to replace",
            m.part,
            m.sources.first().map_or("nothing", |s| s.as_str())
        );
        return Err(DatasetError::Refused { out: out.to_path_buf(), what });
    }
    summary.tally.add(&m.tally);
    summary.games_kept += m.tally.games;
    summary.parts_kept += 1;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::dataset::ingest::tests::{assert_same_rows, opts, part_files, sample_files, tables};
    use crate::dataset::ingest::{run, IngestOptions};
    use crate::dataset::parts::{self, read_table, Manifest};
    use polars::prelude::*;
    use std::path::PathBuf;

    /// A run killed after two parts, with a third part's files renamed into place but no
    /// manifest and a temporary file in flight, then resumed: the same part files (byte for byte)
    /// and the same rows as one uninterrupted run.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn interrupted_then_resumed_equals_uninterrupted() {
        let files = sample_files(500);
        assert!(files.len() >= 8, "{} files", files.len());
        let files = &files[..9];
        let whole = tempfile::tempdir().unwrap();
        let s = run(files, whole.path(), &opts(2)).unwrap();
        assert_eq!(s.parts_written, 5);
        assert!(s.tally.errors.is_empty(), "{:?}", s.tally.errors);

        let cut = tempfile::tempdir().unwrap();
        let first = run(files, cut.path(), &IngestOptions { stop_after_parts: Some(3), ..opts(2) }).unwrap();
        assert_eq!((first.parts_written, first.tally.games), (3, 6));
        // the kill: part 2 lost its manifest (killed between the renames and the manifest), and
        // part 3's options file was being written
        std::fs::remove_file(parts::manifest_path(cut.path(), 2)).unwrap();
        std::fs::write(cut.path().join("options/.part-000003.parquet.tmp"), b"half a file").unwrap();
        // without --resume an existing dataset is refused
        let e = run(files, cut.path(), &opts(2)).unwrap_err().to_string();
        assert!(e.contains("--resume") && e.contains("--force"), "{e}");
        let resumed = run(files, cut.path(), &IngestOptions { resume: true, ..opts(2) }).unwrap();
        assert_eq!((resumed.parts_kept, resumed.parts_written), (2, 3));
        assert_eq!(
            (resumed.tally.games, resumed.tally.decisions, resumed.tally.options),
            (s.tally.games, s.tally.decisions, s.tally.options)
        );
        assert!(!cut.path().join("options/.part-000003.parquet.tmp").exists());
        assert!(part_files(whole.path()) == part_files(cut.path()), "part files differ after resume");
        assert_same_rows(&tables(whole.path()), &tables(cut.path()));
        // resuming a complete dataset writes nothing; other options are refused; --force redoes it
        let again = run(files, cut.path(), &IngestOptions { resume: true, ..opts(2) }).unwrap();
        assert_eq!((again.parts_kept, again.parts_written, again.tally.games), (5, 0, s.tally.games));
        // the same records under another path (another mount, `../shared` vs an absolute path)
        // resume by game id; other records in a part are refused
        let moved = tempfile::tempdir().unwrap();
        let copies: Vec<PathBuf> = files
            .iter()
            .map(|f| {
                let to = moved.path().join(f.file_name().unwrap());
                std::fs::copy(f, &to).unwrap();
                to
            })
            .collect();
        let elsewhere = run(&copies, cut.path(), &IngestOptions { resume: true, ..opts(2) }).unwrap();
        assert_eq!((elsewhere.parts_kept, elsewhere.parts_written), (5, 0));
        let mut swapped = files.to_vec();
        swapped.swap(0, 1);
        let e =
            run(&swapped, cut.path(), &IngestOptions { resume: true, ..opts(2) }).unwrap_err().to_string();
        assert!(e.contains("other inputs"), "{e}");
        assert!(run(files, cut.path(), &IngestOptions { resume: true, ..opts(3) }).is_err());
        let forced = run(files, cut.path(), &IngestOptions { force: true, ..opts(3) }).unwrap();
        assert_eq!((forced.parts_written, forced.tally.games), (3, s.tally.games));
        assert_same_rows(&tables(whole.path()), &tables(cut.path()));
    }

    /// `--resume` keeps parts whose columns are this haifu's (a manifest from before fingerprints
    /// included) and refuses, by part, table and column, a part written with other columns.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn resume_refuses_parts_with_other_columns() {
        let files = sample_files(500);
        let files = &files[..4];
        let dir = tempfile::tempdir().unwrap();
        let s = run(files, dir.path(), &opts(2)).unwrap();
        assert_eq!(s.parts_written, 2);
        let set_schema = |part: u64, schema: &str| {
            let path = parts::manifest_path(dir.path(), part);
            let mut m: Manifest = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            assert_eq!(m.schema.len(), 16, "a fingerprint is recorded");
            m.schema = schema.to_string();
            std::fs::write(&path, serde_json::to_vec(&m).unwrap()).unwrap();
        };
        // a manifest without a fingerprint (older haifu) over files with today's columns is kept
        set_schema(0, "");
        let r = run(files, dir.path(), &IngestOptions { resume: true, ..opts(2) }).unwrap();
        assert_eq!((r.parts_kept, r.parts_written), (2, 0));
        // part 1's options written without `ev` and with another fingerprint
        let path = parts::part_path(dir.path(), "options", 1);
        let mut df = ParquetReader::new(std::fs::File::open(&path).unwrap()).finish().unwrap();
        df = df.drop("ev").unwrap();
        ParquetWriter::new(std::fs::File::create(&path).unwrap()).finish(&mut df).unwrap();
        set_schema(1, "0123456789abcdef");
        let e = run(files, dir.path(), &IngestOptions { resume: true, ..opts(2) }).unwrap_err().to_string();
        assert!(
            e.contains("part 1") && e.contains("options table has no ev") && e.contains("--force"),
            "{e}"
        );
        // nothing was removed by the refusal; --force rebuilds
        assert!(path.is_file());
        let f = run(files, dir.path(), &IngestOptions { force: true, ..opts(2) }).unwrap();
        assert_eq!((f.parts_written, f.tally.games), (2, s.tally.games));
        assert!(read_table(dir.path(), "options", None).unwrap().column("ev").is_ok());
    }

    /// The default run holds ev, danger and seats, not second-order ukeire, and says so in every
    /// manifest. A folder written before `--with` existed (manifests without `groups`: ev and
    /// ukeire2) is refused by a default `--resume`, which names the flags that write it; resumed
    /// with them, the parts are kept. So is a default folder of the haifu before danger and seats
    /// were held by default (groups "ev"), named `--skip danger,seats`.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn default_run_holds_ev_danger_and_seats_without_ukeire2() {
        use super::{Group, Skip};
        let files = sample_files(500);
        let files = &files[..2];
        let dir = tempfile::tempdir().unwrap();
        let default = IngestOptions { jobs: Some(2), part_games: 1, ..IngestOptions::default() };
        run(files, dir.path(), &default).unwrap();
        let options = read_table(dir.path(), "options", None).unwrap();
        assert!(options.column("ukeire2_avg").is_err() && options.column("ukeire2_sum").is_err());
        for held in ["ev", "ukeire_count", "danger_dealin", "al_last", "sr_opp1_streak", "furiten_risk_share"]
        {
            assert!(options.column(held).is_ok(), "{held} not written by a default run");
        }
        for m in parts::manifests(dir.path()).unwrap() {
            assert_eq!((m.skip.as_str(), m.groups.as_deref()), ("ukeire2", Some("ev,danger,seats")));
        }
        // an older folder: every column of the time, manifests without groups
        let old = tempfile::tempdir().unwrap();
        // (every group of the time: ev and ukeire2; the danger and seats groups came later)
        let later = Skip::of(&[Group::Danger, Group::Seats]);
        let then = IngestOptions { part_games: 1, skip: later, ..opts(1) };
        run(files, old.path(), &then).unwrap();
        for part in 0..2 {
            let path = parts::manifest_path(old.path(), part);
            let mut m: Manifest = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            m.groups = None;
            std::fs::write(&path, serde_json::to_vec(&m).unwrap()).unwrap();
        }
        let e = run(files, old.path(), &IngestOptions { resume: true, ..default.clone() })
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("part 0 holds the option column groups ev,ukeire2 (written with --with ukeire2 --skip danger,seats)")
                && e.contains("resume with --with ukeire2 --skip danger,seats"),
            "{e}"
        );
        let r = run(files, old.path(), &IngestOptions { resume: true, ..then }).unwrap();
        assert_eq!((r.parts_kept, r.parts_written), (2, 0));
        // a default folder of the haifu before danger and seats were held by default
        let lean = tempfile::tempdir().unwrap();
        let before = Skip::of(&[Group::Ukeire2, Group::Danger, Group::Seats]);
        run(files, lean.path(), &IngestOptions { skip: before, ..default.clone() }).unwrap();
        let e = run(files, lean.path(), &IngestOptions { resume: true, ..default.clone() })
            .unwrap_err()
            .to_string();
        assert!(e.contains("resume with --skip danger,seats"), "{e}");
        let r = run(files, lean.path(), &IngestOptions { resume: true, skip: before, ..default }).unwrap();
        assert_eq!((r.parts_kept, r.parts_written), (2, 0));
    }
}
