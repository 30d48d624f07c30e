//! haifu's side of `scripts/trees_check.sh`: a trees model's scores and TreeSHAP contributions
//! for whole decisions of a dataset, computed as `haifu eval --evaluator trees` computes them:
//! each decision's option rows rebuilt in catalog order (a column the ingest skipped is 0), its
//! situation from the `decisions` table, and [`TreesRanker`] deriving the context, relative,
//! margin and table columns itself. `scripts/trees_check.py` derives them its own way, with
//! `scripts/trees.py`'s training code, and LightGBM scores them.
//!
//!     cargo run --example trees_predict -- DATA MODEL N C
//!
//! The rows: every option of each decision that has a row among the first N rows of DATA's first
//! options part and at least two options (a forced discard has nothing to rank, and training
//! leaves it out: its margin columns have no second option to measure against). One line a row: decision id, option, the batch score, the row-by-row (f64)
//! score, then the contributions (one per model feature, then the bias), space-separated, the
//! numbers in Rust's shortest round-trip form. Contributions are computed for the decisions among
//! the first C rows only (TreeSHAP costs each tree's leaves times its depth squared a row, in
//! LightGBM as here); the other lines end at the batch score.
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

use haifu::dataset::parts;
use haifu::features::catalog::{catalog_width, index_of, names};
use haifu::model::trees::inputs::Situation;
use haifu::model::trees::TreesRanker;
use polars::prelude::*;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    anyhow::ensure!(args.len() == 5, "usage: trees_predict DATA MODEL N C");
    let (data, n, c): (&Path, usize, usize) = (Path::new(&args[1]), args[3].parse()?, args[4].parse()?);
    let ranker = TreesRanker::load_uncalibrated(Some(Path::new(&args[2])))?;
    let first = &parts::table_files(data, "options")?[0];
    let options = ParquetReader::new(std::fs::File::open(first)?).finish()?;
    let ids: Vec<u64> = options.column("decision_id")?.u64()?.into_no_null_iter().collect();
    let option: Vec<String> = options
        .column("option")?
        .cast(&DataType::String)?
        .str()?
        .iter()
        .map(|o| o.unwrap_or("").to_string())
        .collect();
    let wanted: HashSet<u64> = ids.iter().take(n).copied().collect();
    let explained: HashSet<u64> = ids.iter().take(c).copied().collect();
    // Catalog-ordered option rows, row-major.
    let width = catalog_width();
    let mut rows = vec![0.0f32; options.height() * width];
    for name in names() {
        if options.get_column_names().iter().any(|c| c.as_str() == name) {
            let at = index_of(name).expect("a catalog name");
            for (i, v) in parts::f32s(&options, name)?.into_iter().enumerate() {
                rows[i * width + at] = v;
            }
        }
    }
    let situations = situations(data)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut start = 0;
    while start < ids.len() {
        let end = start + ids[start..].iter().take_while(|&&id| id == ids[start]).count();
        if wanted.contains(&ids[start]) && end - start >= 2 {
            let situation = *situations
                .get(&ids[start])
                .ok_or_else(|| anyhow::anyhow!("decision {} is not in the decisions table", ids[start]))?;
            let refs: Vec<&[f32]> = (start..end).map(|i| &rows[i * width..(i + 1) * width]).collect();
            let scores = ranker.score_rows(&refs, situation);
            let terms = if explained.contains(&ids[start]) {
                ranker.contribution_rows(&refs, situation)
            } else {
                Vec::new()
            };
            for (k, score) in scores.iter().enumerate() {
                write!(out, "{} {} {score:?}", ids[start], option[start + k])?;
                if let Some((x, phi)) = terms.get(k) {
                    let wide: Vec<f64> = x.iter().map(|&v| v as f64).collect();
                    write!(out, " {:?}", ranker.trees().predict(&wide))?;
                    for c in phi {
                        write!(out, " {c:?}")?;
                    }
                }
                writeln!(out)?;
            }
        }
        start = end;
    }
    Ok(())
}

/// Each decision's situation, by decision id, from the `decisions` table (the reader `eval` uses).
fn situations(data: &Path) -> anyhow::Result<std::collections::HashMap<u64, Situation>> {
    let mut cols = vec!["decision_id"];
    cols.extend(haifu::dataset::parts::situation_columns());
    let df = parts::read_table(data, "decisions", Some(&cols))?;
    let read = haifu::dataset::parts::situations(&df)?;
    let ids = df.column("decision_id")?.u64()?.into_no_null_iter();
    Ok(ids.zip(read).collect())
}
