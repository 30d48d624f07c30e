//! The decisions of one split, held as chunks of [`CHUNK`] decisions: in memory while a memory
//! budget lasts, then spilled to a binary cache file and streamed back on every pass.
//!
//! Why chunks: a pass over the data (loss and gradient, or agreement) works chunk by chunk in
//! parallel and sums the per-chunk results in chunk order. The chunks are the same whether they
//! sit in memory or on disk, so a fit that spills gives exactly the weights of one that does not,
//! at any thread count; and memory holds the in-memory chunks plus one chunk per thread, however
//! large the data grow.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::{BadSize, FitError, Result};
use rayon::prelude::*;

use super::data::{Layout, RankingData};

/// Decisions per chunk: the unit of parallel work and of spilling.
pub const CHUNK: usize = 4096;

enum Chunk {
    Memory(RankingData),
    Disk { offset: u64, bytes: usize },
}

/// The cache file chunks are spilled to, removed when the fit ends.
struct Spill {
    file: File,
    path: PathBuf,
}

impl Drop for Spill {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Where spilled chunks go and how much memory the in-memory chunks may take.
pub struct Budget {
    limit: usize,
    used: usize,
    dir: PathBuf,
    spill: Option<Arc<Spill>>,
    /// Bytes written to the cache file (the next chunk's offset).
    spilled: usize,
}

impl Budget {
    /// In-memory chunks up to `limit` bytes; the rest to a hidden cache file in `dir`.
    pub fn new(limit: usize, dir: &Path) -> Budget {
        Budget { limit, used: 0, dir: dir.to_path_buf(), spill: None, spilled: 0 }
    }

    /// Bytes held in memory by the chunks.
    pub fn in_memory(&self) -> usize {
        self.used
    }

    /// Bytes written to the cache file.
    pub fn spilled(&self) -> usize {
        self.spilled
    }

    fn place(&mut self, d: RankingData) -> Result<Chunk> {
        let bytes = d.heap_bytes();
        if self.used + bytes <= self.limit {
            self.used += bytes;
            return Ok(Chunk::Memory(d));
        }
        if self.spill.is_none() {
            std::fs::create_dir_all(&self.dir)
                .map_err(|source| FitError::Create { path: self.dir.clone(), source })?;
            let path = self.dir.join(format!(".haifu-fit-{}.cache", std::process::id()));
            let file = File::options()
                .read(true)
                .write(true)
                .create(true)
                .truncate(true)
                .open(&path)
                .map_err(|source| FitError::CacheCreate { path: path.clone(), source })?;
            self.spill = Some(Arc::new(Spill { file, path }));
        }
        let spill = self.spill.as_ref().expect("spill");
        let buf = encode(&d);
        // Appends: reads go through `read_exact_at`, which leaves the write position alone.
        (&spill.file)
            .write_all(&buf)
            .map_err(|source| FitError::CacheWrite { path: spill.path.clone(), source })?;
        let offset = self.spilled as u64;
        self.spilled += buf.len();
        Ok(Chunk::Disk { offset, bytes: buf.len() })
    }
}

/// The decisions of one split.
pub struct Store {
    layout: Arc<Layout>,
    chunks: Vec<Chunk>,
    open: RankingData,
    decisions: usize,
    spill: Option<Arc<Spill>>,
}

impl Store {
    pub fn new(layout: Arc<Layout>) -> Store {
        Store {
            open: RankingData::with_layout(layout.clone()),
            layout,
            chunks: Vec::new(),
            decisions: 0,
            spill: None,
        }
    }

    pub fn decisions(&self) -> usize {
        self.decisions
    }

    pub fn is_empty(&self) -> bool {
        self.decisions == 0
    }

    /// Adds a decision (see [`RankingData::push`]); a full chunk is placed within `budget`.
    pub fn push(
        &mut self,
        options: &[&[f32]],
        chosen: usize,
        levels: &[u8],
        budget: &mut Budget,
    ) -> Result<bool> {
        if !self.open.push(options, chosen, levels) {
            return Ok(false);
        }
        self.decisions += 1;
        if self.open.decisions() == CHUNK {
            self.seal(budget)?;
        }
        Ok(true)
    }

    fn seal(&mut self, budget: &mut Budget) -> Result<()> {
        let full = std::mem::replace(&mut self.open, RankingData::with_layout(self.layout.clone()));
        self.chunks.push(budget.place(full)?);
        Ok(())
    }

    /// Places the last, partial chunk; call once loading is done.
    pub fn finish(&mut self, budget: &mut Budget) -> Result<()> {
        if self.open.decisions() > 0 {
            self.seal(budget)?;
        }
        self.spill = budget.spill.clone();
        Ok(())
    }

    /// `f` over every chunk in parallel, results in chunk order (spilled chunks are read back one
    /// per worker at a time).
    pub fn map_chunks<T: Send>(&self, f: impl Fn(&RankingData) -> T + Sync) -> Result<Vec<T>> {
        debug_assert_eq!(self.open.decisions(), 0, "Store::finish not called");
        self.chunks
            .par_iter()
            .map(|c| match c {
                Chunk::Memory(d) => Ok(f(d)),
                Chunk::Disk { offset, bytes } => {
                    let spill = self.spill.as_ref().expect("a spilled chunk has a cache file");
                    let d = read_chunk(spill, *offset, *bytes, &self.layout)?;
                    Ok(f(&d))
                }
            })
            .collect()
    }
}

fn read_chunk(spill: &Spill, offset: u64, bytes: usize, layout: &Arc<Layout>) -> Result<RankingData> {
    use std::os::unix::fs::FileExt;
    let mut buf = vec![0u8; bytes];
    spill.file.read_exact_at(&mut buf, offset).map_err(|source| FitError::CacheRead {
        path: spill.path.clone(),
        offset,
        source,
    })?;
    decode(&buf, layout.clone()).map_err(|e| FitError::CacheChunk {
        path: spill.path.clone(),
        offset,
        source: Box::new(e),
    })
}

/// A chunk as bytes: counts, then each array in little-endian order.
fn encode(d: &RankingData) -> Vec<u8> {
    let mut b = Vec::with_capacity(d.heap_bytes() + 24);
    b.extend_from_slice(&(d.dec_ptr.len() as u64).to_le_bytes());
    b.extend_from_slice(&(d.row_ptr.len() as u64).to_le_bytes());
    b.extend_from_slice(&(d.cols.len() as u64).to_le_bytes());
    b.extend(d.dec_ptr.iter().flat_map(|x| x.to_le_bytes()));
    b.extend(d.row_ptr.iter().flat_map(|x| x.to_le_bytes()));
    b.extend(d.cols.iter().flat_map(|x| x.to_le_bytes()));
    b.extend(d.vals.iter().flat_map(|x| x.to_le_bytes()));
    b.extend_from_slice(&d.levels);
    b
}

fn decode(b: &[u8], layout: Arc<Layout>) -> Result<RankingData> {
    let mut at = 0usize;
    let mut take = |n: usize| -> Result<&[u8]> {
        let s = b.get(at..at + n).ok_or(FitError::TruncatedChunk)?;
        at += n;
        Ok(s)
    };
    let count = |s: &[u8]| u64::from_le_bytes(s.try_into().expect("8 bytes")) as usize;
    let (nd, nr, nnz) = (count(take(8)?), count(take(8)?), count(take(8)?));
    let dec_ptr =
        take(nd * 4)?.chunks_exact(4).map(|x| u32::from_le_bytes(x.try_into().expect("4"))).collect();
    let row_ptr =
        take(nr * 8)?.chunks_exact(8).map(|x| u64::from_le_bytes(x.try_into().expect("8"))).collect();
    let cols = take(nnz * 2)?.chunks_exact(2).map(|x| u16::from_le_bytes(x.try_into().expect("2"))).collect();
    let vals = take(nnz * 4)?.chunks_exact(4).map(|x| f32::from_le_bytes(x.try_into().expect("4"))).collect();
    let levels = take(nd.saturating_sub(1) * layout.blocks.len())?.to_vec();
    let mut d = RankingData::with_layout(layout);
    (d.dec_ptr, d.row_ptr, d.cols, d.vals, d.levels) = (dec_ptr, row_ptr, cols, vals, levels);
    Ok(d)
}

/// The default memory budget of the in-memory chunks: a quarter of the machine's memory, at most
/// 2 GiB (so a fit stays within 4 GB with the loader's slices), 1 GiB when it cannot be read.
pub fn default_budget() -> usize {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        m.lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
            .map(|kb| kb * 1024)
    });
    total.map_or(1 << 30, |t| (t / 4).min(2 << 30))
}

/// Parses a byte size: `512M`, `2G`, `1500000000` (K / M / G are powers of 1024).
pub fn parse_bytes(s: &str) -> Result<usize, BadSize> {
    let t = s.trim();
    let (num, mult) = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&t[..t.len() - 1], 1usize << 10),
        Some('M') => (&t[..t.len() - 1], 1 << 20),
        Some('G') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    let n: f64 = num.trim().parse().map_err(|_| BadSize(s.to_string()))?;
    if !(n.is_finite() && n >= 0.0) {
        return Err(BadSize(s.to_string()));
    }
    Ok((n * mult as f64) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(n: usize) -> Vec<(Vec<Vec<f32>>, usize)> {
        let mut s = 5u64;
        (0..n)
            .map(|i| {
                let rows = (0..2 + i % 4)
                    .map(|_| {
                        (0..6)
                            .map(|_| {
                                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                                ((s >> 40) % 7) as f32
                            })
                            .collect()
                    })
                    .collect();
                (rows, i % 2)
            })
            .collect()
    }

    /// The same decisions in memory and spilled (budget 0) come back chunk for chunk identical.
    #[test]
    fn spilled_chunks_read_back_identical() {
        let dir = tempfile::tempdir().unwrap();
        let layout = Arc::new(Layout::identity(6));
        let build = |limit: usize| {
            let mut budget = Budget::new(limit, dir.path());
            let mut st = Store::new(layout.clone());
            for (rows, c) in data(CHUNK * 2 + 17) {
                let refs: Vec<&[f32]> = rows.iter().map(|r| r.as_slice()).collect();
                st.push(&refs, c, &[], &mut budget).unwrap();
            }
            st.finish(&mut budget).unwrap();
            (st, budget.in_memory(), budget.spilled())
        };
        let (mem, used, spilled) = build(usize::MAX);
        assert!(used > 0 && spilled == 0);
        let (disk, used, spilled) = build(0);
        assert!(used == 0 && spilled > 0);
        assert_eq!(disk.decisions(), CHUNK * 2 + 17);
        let key = |d: &RankingData| (d.dec_ptr.clone(), d.row_ptr.clone(), d.cols.clone(), d.vals.clone());
        assert_eq!(mem.map_chunks(key).unwrap(), disk.map_chunks(key).unwrap());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "the cache file while the store lives");
        drop((mem, disk));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "removed with the store");
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_bytes("2G").unwrap(), 2 << 30);
        assert_eq!(parse_bytes("512m").unwrap(), 512 << 20);
        assert_eq!(parse_bytes("1000").unwrap(), 1000);
        assert_eq!(parse_bytes("lots").unwrap_err().to_string(), "\"lots\": expected a size like 512M or 2G");
    }
}
