//! What writing a table costs, column by column: reads a parquet file ingest wrote and encodes
//! every row group again as the writer does (polars' encodings, zstd), on one thread, under a few
//! settings: the thread CPU and the compressed bytes of each, and the costliest columns.
//!
//!   cargo run --release --example writer_costs -- out/corpus/options/part-000000.parquet
//!
//! Why: on 40 games the writer pool spent ~20 ms of CPU per game against ~110 ms for everything
//! else, so the encoding settings are a lever on ingest's CPU; this measures them on real parts
//! without touching the writer.

use std::time::{Duration, Instant};

use haifu::dataset::parquet::thread_cpu;
use polars::io::parquet::write::get_encodings;
use polars::prelude::*;
use polars_parquet::write::{
    array_to_columns, compress, to_parquet_schema, CompressedPage, CompressionOptions, Encoding,
    StatisticsOptions, Version, WriteOptions, ZstdLevel,
};

struct Setting {
    name: &'static str,
    level: Option<i32>,
    plain_floats: bool,
    stats: bool,
    /// Encoding of the integer columns instead of polars' dictionary.
    ints: Option<Encoding>,
}

fn main() -> PolarsResult<()> {
    let path = std::env::args().nth(1).expect("usage: writer_costs FILE.parquet");
    let df = ParquetReader::new(std::fs::File::open(&path)?).finish()?;
    let schema = df.schema().to_arrow(CompatLevel::newest());
    let pq = to_parquet_schema(&schema)?;
    let fields = pq.fields().to_vec();
    let default_enc: Vec<Vec<Encoding>> = get_encodings(&schema).iter().cloned().collect();
    let dtypes: Vec<DataType> = df.dtypes();
    let settings = [
        Setting { name: "zstd 9 (today)", level: Some(9), plain_floats: false, stats: true, ints: None },
        Setting {
            name: "zstd 9, no statistics",
            level: Some(9),
            plain_floats: false,
            stats: false,
            ints: None,
        },
        Setting { name: "zstd 6", level: Some(6), plain_floats: false, stats: true, ints: None },
        Setting { name: "zstd 3", level: Some(3), plain_floats: false, stats: true, ints: None },
        Setting { name: "zstd 1", level: Some(1), plain_floats: false, stats: true, ints: None },
        Setting { name: "zstd 9, floats plain", level: Some(9), plain_floats: true, stats: true, ints: None },
        Setting {
            name: "zstd 9, ints plain",
            level: Some(9),
            plain_floats: false,
            stats: true,
            ints: Some(Encoding::Plain),
        },
        Setting {
            name: "zstd 3, ints plain",
            level: Some(3),
            plain_floats: false,
            stats: true,
            ints: Some(Encoding::Plain),
        },
        Setting {
            name: "zstd 9, ints delta",
            level: Some(9),
            plain_floats: false,
            stats: true,
            ints: Some(Encoding::DeltaBinaryPacked),
        },
        Setting { name: "no compression", level: None, plain_floats: false, stats: true, ints: None },
    ];
    println!("{path}: {} rows x {} columns", df.height(), df.width());
    let mut first_per_col: Vec<(Duration, usize, String)> = Vec::new();
    for s in &settings {
        let compression = match s.level {
            Some(l) => CompressionOptions::Zstd(Some(ZstdLevel::try_new(l)?)),
            None => CompressionOptions::Uncompressed,
        };
        let statistics = if s.stats { StatisticsOptions::default() } else { StatisticsOptions::empty() };
        let options = WriteOptions { statistics, version: Version::V1, compression, data_page_size: None };
        let mut per_col = vec![(Duration::ZERO, 0usize); df.width()];
        let wall = Instant::now();
        for batch in df.iter_chunks(CompatLevel::newest(), false) {
            for (i, array) in batch.columns().iter().enumerate() {
                let start = thread_cpu();
                let mut enc = default_enc[i].clone();
                if s.plain_floats && matches!(dtypes[i], DataType::Float32 | DataType::Float64) {
                    enc = vec![Encoding::Plain];
                }
                if let (Some(e), true) = (s.ints, dtypes[i].is_integer()) {
                    enc = vec![e];
                }
                let mut bytes = 0;
                for pages in array_to_columns(array, fields[i].clone(), options, &enc)? {
                    for page in pages {
                        // Dictionary pages (small, one per column chunk) have no public size.
                        if let CompressedPage::Data(c) = compress(page?, Vec::new(), options.compression)? {
                            bytes += c.compressed_size();
                        }
                    }
                }
                per_col[i].0 += thread_cpu().saturating_sub(start);
                per_col[i].1 += bytes;
            }
        }
        let cpu: Duration = per_col.iter().map(|c| c.0).sum();
        let bytes: usize = per_col.iter().map(|c| c.1).sum();
        println!(
            "{:<24} cpu {:>7.3} s  bytes {:>11}  (wall {:.3} s)",
            s.name,
            cpu.as_secs_f64(),
            bytes,
            wall.elapsed().as_secs_f64()
        );
        if first_per_col.is_empty() {
            let names = df.get_column_names();
            first_per_col = per_col
                .iter()
                .zip(names)
                .map(|(c, n)| (c.0, c.1, format!("{n} {:?}", df.column(n).unwrap().dtype())))
                .collect();
        }
    }
    first_per_col.sort_by_key(|c| std::cmp::Reverse(c.0));
    let total: Duration = first_per_col.iter().map(|c| c.0).sum();
    println!("costliest columns at zstd 9 (share of CPU, bytes):");
    for (cpu, bytes, name) in first_per_col.iter().take(15) {
        println!("  {:>5.1}%  {:>9}  {name}", 100.0 * cpu.as_secs_f64() / total.as_secs_f64(), bytes);
    }
    let mut by_type: std::collections::BTreeMap<String, (Duration, usize, usize)> = Default::default();
    for (cpu, bytes, name) in &first_per_col {
        let t = name.rsplit(' ').next().unwrap().to_string();
        let e = by_type.entry(t).or_default();
        e.0 += *cpu;
        e.1 += bytes;
        e.2 += 1;
    }
    for (t, (cpu, bytes, n)) in by_type {
        println!(
            "  {t:<8} {n:>4} columns  {:>5.1}% CPU  {bytes:>11} bytes",
            100.0 * cpu.as_secs_f64() / total.as_secs_f64()
        );
    }
    Ok(())
}
