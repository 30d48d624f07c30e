//! Writing tables to parquet with polars, in batches and atomically.
//!
//! A [`Columns`] is a plain typed column builder (no polars types leak out of this module);
//! a [`ParquetSink`] appends batches to a hidden `.NAME.parquet.tmp` beside the target (no reader's
//! `*.parquet` glob sees it) and renames it into place on
//! [`ParquetSink::finish`], so a reader never sees a half-written file and a failed run leaves the
//! previous output untouched.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use std::time::Duration;

use polars::io::parquet::write::get_encodings;
use polars::prelude::*;
use polars_parquet::write::{
    array_to_columns, compress, fallible_streaming_iterator, CompressedPage, DynIter, DynStreamingIterator,
    Encoding, ParquetType, SchemaDescriptor, WriteOptions,
};
use rayon::prelude::*;

use super::columns::{Columns, Values};
use super::error::DatasetError;

impl Values {
    /// The polars column (a copy of the values).
    pub fn column(&self, name: &str) -> Column {
        let n: PlSmallStr = name.into();
        match self {
            Values::Bool(v) => Column::new(n, v),
            Values::U8(v) => Column::new(n, v),
            Values::U16(v) => Column::new(n, v),
            Values::U32(v) => Column::new(n, v),
            Values::U64(v) => Column::new(n, v),
            Values::I8(v) => Column::new(n, v),
            Values::I16(v) => Column::new(n, v),
            Values::I32(v) => Column::new(n, v),
            Values::F32(v) => Column::new(n, v),
            Values::F64(v) => Column::new(n, v),
            Values::Str(v) => Column::new(n, v),
        }
    }
}

impl Columns {
    /// The polars frame; errors when the columns differ in length.
    pub fn frame(&self) -> PolarsResult<DataFrame> {
        let cols = self.names.iter().zip(&self.values).map(|(n, v)| v.column(n)).collect();
        DataFrame::new(self.height(), cols)
    }
}

/// zstd level of the files: zstd's default, 3, chosen for speed over size. Ingest is judged in
/// games per second and the files recompress offline if bytes matter; higher levels cost the
/// writer pool markedly more CPU for a few percent fewer bytes (docs/performance.md, "Writing",
/// has the measurements; `examples/writer_costs` repeats them on a real part). Each batch is one
/// row group (ingest appends one chunk of games at a time); column statistics are written so that
/// readers can skip row groups.
pub const ZSTD_LEVEL: i32 = 3;

/// CPU time of the calling thread: the writer's accounting (what the writer thread itself spends,
/// and what each column's encoding costs on the pool).
pub fn thread_cpu() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The bytes the file writer gathers before one `write` call. polars' file writer writes each
/// page header field by field (thrift) straight to its writer, so on a bare `File` every field is
/// a system call; buffered, a whole chunk of the options table is a handful of calls.
const WRITE_BUFFER: usize = 1 << 20;

/// The file writer of a sink: polars' parquet writer over a buffered file.
type FileWriter = polars_parquet::write::FileWriter<BufWriter<File>>;

/// How a file's columns are encoded, for one schema: taken from polars' own batched writer (made
/// once over `io::sink`, which writes nothing), so the pages encoded here and the file written
/// are those polars' `ParquetWriter::batched` and `write_batch` would write (same parquet types,
/// statistics, page size, version and compression level). It is plain data: the encoding of a
/// batch ([`Layout::encode`]) needs no file, so several batches of one file can be encoded at
/// once on any threads.
pub struct Layout {
    arrow: ArrowSchema,
    parquet: SchemaDescriptor,
    encodings: Vec<Vec<Encoding>>,
    options: WriteOptions,
}

impl Layout {
    /// The layout of files of `schema`, written as [`ParquetSink`] writes them.
    pub fn of(schema: &Schema) -> PolarsResult<Layout> {
        let probe = ParquetWriter::new(std::io::sink())
            .with_compression(ParquetCompression::Zstd(Some(polars_parquet::write::ZstdLevel::try_new(
                ZSTD_LEVEL,
            )?)))
            .with_statistics(StatisticsOptions::default())
            .batched(schema)?;
        let writer = probe.get_writer().lock().map_err(|_| polars_err!(ComputeError: "writer lock"))?;
        Ok(Layout {
            arrow: writer.schema().clone(),
            parquet: writer.parquet_schema().clone(),
            encodings: get_encodings(writer.schema()).iter().cloned().collect(),
            options: writer.options(),
        })
    }

    /// Encodes and compresses `df` (one row group per chunk, as `write_batch` cuts them), its
    /// columns in parallel on the current rayon pool. `df` must have this layout's schema.
    pub fn encode(&self, df: &DataFrame) -> PolarsResult<Encoded> {
        let mut encoded = Encoded { groups: Vec::new(), cpu: Duration::ZERO, longest: Duration::ZERO };
        for batch in df.iter_chunks(CompatLevel::newest(), false) {
            if batch.is_empty() {
                continue;
            }
            let columns = batch
                .columns()
                .par_iter()
                .zip(self.parquet.fields())
                .zip(&self.encodings)
                .map(|((array, field), encoding)| encode_column(array, field, encoding, self.options))
                .collect::<PolarsResult<Vec<_>>>()?;
            let mut pages = Vec::with_capacity(columns.len());
            for (leaves, cpu) in columns {
                encoded.cpu += cpu;
                encoded.longest = encoded.longest.max(cpu);
                pages.extend(leaves);
            }
            encoded.groups.push((batch.len() as u64, pages));
        }
        Ok(encoded)
    }

    /// A file writer of this layout over `file`.
    fn writer(&self, file: File) -> FileWriter {
        let file = BufWriter::with_capacity(WRITE_BUFFER, file);
        FileWriter::new_with_parquet_schema(file, self.arrow.clone(), self.parquet.clone(), self.options)
    }
}

/// A batch's row groups, encoded and compressed, ready to be appended to its file.
pub struct Encoded {
    /// Each row group's row count and its columns' compressed pages.
    groups: Vec<(u64, Vec<Vec<CompressedPage>>)>,
    /// CPU time the columns took to encode and compress, summed over the threads that did it.
    pub cpu: Duration,
    /// The longest single column (the part of the batch no number of threads can shorten).
    pub longest: Duration,
}

impl Encoded {
    /// Whether the batch had no rows.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }
}

/// One column of a row group encoded into pages and each page compressed: the costly step of
/// writing (zstd), pure, so the columns of a batch go to any threads.
fn encode_column(
    array: &ArrayRef,
    field: &ParquetType,
    encoding: &[Encoding],
    options: WriteOptions,
) -> PolarsResult<(Vec<Vec<CompressedPage>>, Duration)> {
    let start = thread_cpu();
    let leaves = array_to_columns(array, field.clone(), options, encoding)?;
    let mut out = Vec::with_capacity(leaves.len());
    for pages in leaves {
        let compressed = pages
            .map(|page| Ok(compress(page?, Vec::new(), options.compression)?))
            .collect::<PolarsResult<Vec<CompressedPage>>>()?;
        out.push(compressed);
    }
    Ok((out, thread_cpu().saturating_sub(start)))
}

/// A parquet file written in batches, made visible atomically.
///
/// Writing is split in two so that the costly step runs in parallel: [`Layout::encode`]
/// (encoding and zstd compression of each column, on the caller's rayon pool, needing no file, so
/// several batches and files can be encoded at once) and [`append`](Self::append) (the finished
/// pages go to the file, in order). polars' own `BatchedWriter::write_batch` encodes in parallel
/// but compresses lazily on the calling thread while the file writer consumes the pages, so that
/// one thread would compress every page and set the pace of the whole ingest. The pages are the
/// same bytes either way (same encoder, options and compressor; compression is per page), and the
/// file writer is polars' own, so the files are byte-identical to `write_batch`'s.
pub struct ParquetSink {
    tmp: PathBuf,
    path: PathBuf,
    writer: Option<FileWriter>,
    layout: Option<std::sync::Arc<Layout>>,
    rows: u64,
}

impl ParquetSink {
    /// Writes go to `.NAME.tmp` beside `path`; nothing appears at `path` until
    /// [`finish`](Self::finish).
    pub fn create(path: &Path) -> std::io::Result<ParquetSink> {
        let name =
            path.file_name().ok_or_else(|| std::io::Error::other("a parquet path without a file name"))?;
        let mut tmp = std::ffi::OsString::from(".");
        tmp.push(name);
        tmp.push(".tmp");
        Ok(ParquetSink {
            tmp: path.with_file_name(tmp),
            path: path.to_path_buf(),
            writer: None,
            layout: None,
            rows: 0,
        })
    }

    /// The same, the layout of its batches known in advance (batches encoded elsewhere with
    /// `layout` are appended with [`append`](Self::append)).
    pub fn with_layout(path: &Path, layout: std::sync::Arc<Layout>) -> std::io::Result<ParquetSink> {
        let mut sink = ParquetSink::create(path)?;
        sink.layout = Some(layout);
        Ok(sink)
    }

    /// Appends a batch (the first batch fixes the schema), encoding its columns on the current
    /// rayon pool.
    pub fn write(&mut self, cols: &Columns) -> PolarsResult<()> {
        let df = cols.frame()?;
        if df.height() == 0 {
            return Ok(());
        }
        if self.layout.is_none() {
            self.layout = Some(std::sync::Arc::new(Layout::of(df.schema())?));
        }
        let encoded = self.layout.as_ref().map(|l| l.encode(&df)).transpose()?;
        encoded.map_or(Ok(()), |e| self.append(e))
    }

    /// Writes the encoded row groups to the file, in order; the file is created by the first
    /// non-empty batch (an empty sink is written by [`finish`](Self::finish)).
    pub fn append(&mut self, encoded: Encoded) -> PolarsResult<()> {
        if encoded.groups.is_empty() {
            return Ok(());
        }
        if self.writer.is_none() {
            let layout =
                self.layout.as_ref().ok_or_else(|| polars_err!(ComputeError: "append without a layout"))?;
            self.writer = Some(layout.writer(File::create(&self.tmp)?));
        }
        let w = self.writer.as_mut().ok_or_else(|| polars_err!(ComputeError: "no file writer"))?;
        for (rows, pages) in &encoded.groups {
            let group = DynIter::new(pages.iter().map(|col_pages| {
                Ok(DynStreamingIterator::new(fallible_streaming_iterator::convert(
                    col_pages.iter().map(PolarsResult::Ok),
                )))
            }));
            w.write(*rows, group)?;
            self.rows += rows;
        }
        Ok(())
    }

    /// Closes the file (footer written, buffer flushed) and moves it into place. An empty sink
    /// writes `empty` (to fix the schema).
    pub fn finish(mut self, empty: &Columns) -> PolarsResult<u64> {
        if let Some(mut w) = self.writer.take() {
            // The footer as `BatchedWriter::finish` writes it: no extra key-value metadata, so
            // the file writer adds the arrow schema.
            w.end(None)?;
            w.into_inner().into_inner().map_err(|e| e.into_error())?;
        } else {
            let mut df = empty.frame()?;
            let file = File::create(&self.tmp)?;
            ParquetWriter::new(file).finish(&mut df)?;
        }
        std::fs::rename(&self.tmp, &self.path)?;
        Ok(self.rows)
    }
}

impl Drop for ParquetSink {
    fn drop(&mut self) {
        // An unfinished sink leaves no partial file behind.
        if self.writer.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Opens a file, the error naming it.
pub fn open(path: &Path) -> Result<std::fs::File, DatasetError> {
    std::fs::File::open(path).map_err(|source| DatasetError::Open { path: path.to_path_buf(), source })
}

/// Reads `path` in slices of `rows` rows with only `columns`, calling `f` on each slice in file
/// order: memory holds one slice, whatever the file's size.
pub fn for_each_slice<E: From<DatasetError>>(
    path: &Path,
    columns: &[String],
    rows: usize,
    mut f: impl FnMut(&DataFrame) -> Result<(), E>,
) -> Result<(), E> {
    let open = || self::open(path);
    let n_rows = ParquetReader::new(open()?).num_rows().map_err(DatasetError::from)?;
    let mut offset = 0;
    while offset < n_rows {
        let len = rows.max(1).min(n_rows - offset);
        let df = ParquetReader::new(open()?)
            .with_columns(Some(columns.to_vec()))
            .with_slice(Some((offset, len)))
            .finish()
            .map_err(|error| DatasetError::Slice { path: path.to_path_buf(), offset, error })?;
        f(&df)?;
        offset += len;
    }
    Ok(())
}

/// Reads a whole parquet file (for tests, eval and reports on moderate data).
pub fn read(path: &Path) -> PolarsResult<DataFrame> {
    ParquetReader::new(File::open(path)?).finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_batches_atomically_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.parquet");
        let mut sink = ParquetSink::create(&path).unwrap();
        for batch in 0..3u32 {
            let mut c = Columns::new();
            c.push("id", Values::U32(vec![batch * 2, batch * 2 + 1]));
            c.push("name", Values::Str(vec!["a".into(), "b".into()]));
            c.push("x", Values::F32(vec![0.5, 1.5]));
            sink.write(&c).unwrap();
            assert!(!path.exists(), "visible before finish");
        }
        assert_eq!(sink.finish(&Columns::new()).unwrap(), 6);
        let df = read(&path).unwrap();
        assert_eq!(df.height(), 6);
        let names: Vec<&str> = df.get_column_names().iter().map(|n| n.as_str()).collect();
        assert_eq!(names, vec!["id", "name", "x"]);
        let ids: Vec<u32> = df.column("id").unwrap().u32().unwrap().into_no_null_iter().collect();
        assert_eq!(ids, vec![0, 1, 2, 3, 4, 5]);
    }

    /// The sink's files are polars' own: the same batches through `ParquetWriter::batched` and
    /// `write_batch` (same compression and statistics) give the same bytes, the buffered file
    /// and the separately encoded pages notwithstanding.
    #[test]
    fn files_equal_polars_batched_writer() {
        let dir = tempfile::tempdir().unwrap();
        let batch = |b: u32| {
            let mut c = Columns::new();
            let n = 3000 + b as usize * 1000;
            c.push("id", Values::U32((0..n as u32).map(|i| i * 7 + b).collect()));
            c.push("name", Values::Str((0..n).map(|i| format!("p{}", i % 13)).collect()));
            c.push("x", Values::F32((0..n).map(|i| (i as f32 * 0.37).sin()).collect()));
            c.push("flag", Values::Bool((0..n).map(|i| i % 5 == 0).collect()));
            c
        };
        let ours = dir.path().join("ours.parquet");
        let mut sink = ParquetSink::create(&ours).unwrap();
        for b in 0..3 {
            sink.write(&batch(b)).unwrap();
        }
        sink.finish(&Columns::new()).unwrap();
        let theirs = dir.path().join("theirs.parquet");
        let first = batch(0).frame().unwrap();
        let zstd = polars_parquet::write::ZstdLevel::try_new(ZSTD_LEVEL).unwrap();
        let mut w = ParquetWriter::new(File::create(&theirs).unwrap())
            .with_compression(ParquetCompression::Zstd(Some(zstd)))
            .with_statistics(StatisticsOptions::default())
            .batched(first.schema())
            .unwrap();
        for b in 0..3 {
            w.write_batch(&batch(b).frame().unwrap()).unwrap();
        }
        w.finish().unwrap();
        drop(w);
        let (a, b) = (std::fs::read(&ours).unwrap(), std::fs::read(&theirs).unwrap());
        assert!(a.len() > 1000 && a == b, "{} bytes against polars' {}", a.len(), b.len());
    }

    #[test]
    fn unequal_columns_are_an_error() {
        let mut c = Columns::new();
        c.push("a", Values::U8(vec![1, 2]));
        c.push("b", Values::U8(vec![1]));
        assert!(c.frame().is_err());
    }
}
