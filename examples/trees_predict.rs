//! haifu's side of `scripts/trees_check.sh`: a LightGBM model's scores and TreeSHAP contributions
//! for the first N option rows of a dataset's first options part, as the evaluator will compute
//! them: each row rebuilt in catalog order (the order `features::option_rows` writes; a column the
//! ingest skipped is 0), the decision's columns beside it, tied to the model's features by
//! `model::trees::Layout`.
//!
//!     cargo run --example trees_predict -- DATA MODEL N
//!
//! Prints one line a row: the batch score, the row-by-row (f64) score, then the contributions
//! (one per model feature, then the bias), space-separated in Rust's shortest round-trip form.
//! Model features that are neither catalog nor options-table columns are read from the
//! decisions table (joined on decision_id).
use std::io::Write;
use std::path::Path;

use haifu::dataset::parts;
use haifu::features::catalog::{catalog_width, index_of, names};
use haifu::model::trees::{Layout, Trees};
use polars::prelude::*;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    anyhow::ensure!(args.len() == 4, "usage: trees_predict DATA MODEL N");
    let (data, n): (&Path, usize) = (Path::new(&args[1]), args[3].parse()?);
    let trees = Trees::read(Path::new(&args[2]))?;
    let first = &parts::table_files(data, "options")?[0];
    let options = ParquetReader::new(std::fs::File::open(first)?).finish()?.slice(0, n);
    let columns: Vec<String> = options.get_column_names().iter().map(|c| c.to_string()).collect();
    let context: Vec<&str> = trees
        .feature_names()
        .iter()
        .map(String::as_str)
        .filter(|f| index_of(f).is_none() && !columns.iter().any(|c| c == f))
        .collect();
    let layout = Layout::catalog(&trees, &context)?;
    // Catalog-ordered option rows, row-major.
    let mut rows = vec![0.0f32; options.height() * catalog_width()];
    for name in names() {
        if columns.iter().any(|c| c == name) {
            let at = index_of(name).expect("a catalog name");
            for (i, v) in parts::f32s(&options, name)?.into_iter().enumerate() {
                rows[i * catalog_width() + at] = v;
            }
        }
    }
    // The decision columns of each row, in `context` order.
    let ids: Vec<u64> = options.column("decision_id")?.u64()?.into_no_null_iter().collect();
    let mut wanted = vec!["decision_id"];
    wanted.extend(&context);
    let decisions = parts::read_table(data, "decisions", Some(&wanted))?;
    let index =
        parts::id_index(&decisions.column("decision_id")?.u64()?.into_no_null_iter().collect::<Vec<_>>())?;
    let values: Vec<Vec<f32>> =
        context.iter().map(|c| parts::f32s(&decisions, c)).collect::<Result<_, _>>()?;
    let context_of = |id: u64| -> Vec<f32> { values.iter().map(|v| v[index[&id]]).collect() };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (i, row) in rows.chunks_exact(catalog_width()).enumerate() {
        let ctx = context_of(ids[i]);
        let batch = trees.score_options(&layout, &[row], &ctx)[0];
        let mut gathered = Vec::new();
        layout.gather(row, &ctx, &mut gathered);
        let wide: Vec<f64> = gathered.iter().map(|&x| x as f64).collect();
        write!(out, "{batch:?} {:?}", trees.predict(&wide))?;
        for c in trees.option_contributions(&layout, row, &ctx) {
            write!(out, " {c:?}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}
