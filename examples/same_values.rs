//! Checks that two datasets written by `haifu ingest` hold the same rows in the columns they
//! share, part by part: how a `--skip` run is shown to change no other value than the columns it
//! leaves out (and that those are the only columns missing), on a whole corpus.
//!
//!     cargo run --release --example same_values -- FULL_DIR SKIP_DIR [IGNORE,COLUMNS]
//!
//! The optional third argument names columns to leave out of the comparison (comma-separated):
//! how a change of one column group's definition (the `ev` columns, say) is shown to leave
//! every other column as it was.
//!
//! Exit status 0 when every table of every part matches, 1 otherwise.
use std::path::Path;

use haifu::dataset::parts::{self, TABLES};
use polars::prelude::*;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    anyhow::ensure!((3..=4).contains(&args.len()), "usage: same_values FULL_DIR SKIP_DIR [IGNORE,COLUMNS]");
    let (full, skip) = (Path::new(&args[1]), Path::new(&args[2]));
    let ignore: Vec<&str> = args.get(3).map(|a| a.split(',').collect()).unwrap_or_default();
    let mut bad = 0;
    for table in TABLES {
        let a = parts::table_files(full, table)?;
        // A table the second run did not write at all (a dataset of an older haifu: the `waits`
        // table came later) has no shared columns: said, not compared.
        let Ok(b) = parts::table_files(skip, table) else {
            println!("{table}: only in {} (the other dataset has no such table)", full.display());
            continue;
        };
        anyhow::ensure!(a.len() == b.len(), "{table}: {} parts against {}", a.len(), b.len());
        let (mut rows, mut cols_seen) = (0usize, 0usize);
        for (i, (pa, pb)) in a.iter().zip(&b).enumerate() {
            let read =
                |p: &Path| ParquetReader::new(std::fs::File::open(p)?).finish().map_err(anyhow::Error::from);
            let (fa, fb) = (read(pa)?, read(pb)?);
            let names: Vec<PlSmallStr> = fb
                .get_column_names()
                .into_iter()
                .filter(|n| !ignore.contains(&n.as_str()))
                .cloned()
                .collect();
            let only_full: Vec<String> =
                fa.get_column_names().iter().filter(|n| !names.contains(n)).map(|n| n.to_string()).collect();
            if i == 0 && !only_full.is_empty() {
                println!("{table}: columns only in {}: {}", full.display(), only_full.join(", "));
            }
            let fa = fa.select(names.iter().cloned())?;
            let fb = fb.select(names.iter().cloned())?;
            if !fa.equals_missing(&fb) {
                let cols: Vec<String> = names
                    .iter()
                    .filter(|n| match (fa.column(n), fb.column(n)) {
                        (Ok(x), Ok(y)) => {
                            !x.as_materialized_series().equals_missing(y.as_materialized_series())
                        }
                        _ => true,
                    })
                    .map(|n| n.to_string())
                    .collect();
                println!("{table}: {} and {} differ in {}", pa.display(), pb.display(), cols.join(", "));
                bad += 1;
            }
            rows += fb.height();
            cols_seen = fb.width();
        }
        println!("{table}: {} parts, {rows} rows, {cols_seen} shared columns", b.len());
    }
    if bad > 0 {
        println!("{bad} part files differ");
        std::process::exit(1);
    }
    println!("every shared column of every part is equal");
    Ok(())
}
