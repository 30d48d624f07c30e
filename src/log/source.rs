//! Where records come from: files, folders, zip archives and the SQLite databases of the
//! phoenix-logs downloader, expanded into a flat, deterministic list of [`Source`]s.
//!
//! Expanding inputs only lists records; reading and parsing happen per source ([`Source::read`],
//! [`parse_game`]), so the caller can spread them over threads (`sources.par_iter()`) and one bad
//! record never stops a batch: it becomes one [`LogError`] naming the file and the place.
//!
//! Formats are recognised by content, never by name: gzip by its magic bytes `1f 8b`, zlib by its
//! header (`78 xx`), bzip2 by `BZh1`..`BZh9` (phoenix-logs databases made before May 2023 store
//! `bz2.compress`ed XML), mjlog XML by `<mjloggm`, mjai JSON lines by a first line `{"type":...}`,
//! tenhou.net/6 JSON by any other `{`. Every decompression
//! stops at [`MAX_DECOMPRESSED`] bytes, so a zip bomb costs 64 MiB, not the machine; a database
//! blob larger than [`MAX_BLOB`] is refused before it is read.
//!
//! phoenix-logs databases of every era read, their 3-player rows (`is_sanma = 1` since August
//! 2020, `is_hiroshima = 1` before) like any other: the content is an mjlog whose GO tag states
//! three players, so the flag is not needed.
//!
//! A folder is walked for the record extensions ([`FOLDER_EXTENSIONS`]: mjlog, gzip, XML, JSON,
//! mjai's `.mjson` / `.jsonl`, zip, SQLite); any other file in it (a README, a MANIFEST.tsv, notes)
//! is listed as skipped with [`SkipReason::UnknownExtension`], so nothing found is dropped
//! without a word. Hidden files and folders (a name starting with `.`: `.git`, `.DS_Store`) are
//! not walked, as `ls` and ripgrep leave them out. A file named explicitly is always read.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::error::LogError;
use super::event::Game;

/// The largest record we accept, decompressed (real mjlogs are under 200 kB).
pub const MAX_DECOMPRESSED: u64 = 64 << 20;

/// The largest database blob we read (compressed records are under 50 kB).
pub const MAX_BLOB: u64 = 16 << 20;

/// File name endings taken when walking a folder (files named explicitly are always taken):
/// mjlog, gzip, XML, JSON (tenhou.net/6, paipu, mjai), mjai's own `.mjson` and `.jsonl`, zip, and
/// SQLite databases.
pub const FOLDER_EXTENSIONS: [&str; 10] =
    ["mjlog", "gz", "xml", "json", "mjson", "jsonl", "zip", "db", "sqlite", "sqlite3"];

type SharedZip = Arc<Mutex<zip::ZipArchive<BufReader<File>>>>;
type SharedDb = Arc<Mutex<rusqlite::Connection>>;

/// One record to read: a file, a zip entry or a database row.
#[derive(Clone)]
pub struct Source {
    /// Printable name: `path`, `archive.zip!entry` or `db.sqlite#log_id`.
    pub name: String,
    /// The game id given to the parsed game (a tenhou.net/6 `ref` wins): the path relative to the
    /// argument it was found under, without known extensions (`2009/0801/x` for
    /// `logs/2009/0801/x.mjlog` under `logs/`; the file stem for a file named explicitly), a zip
    /// entry's path without extensions, a database row's `log_id`. Unique within one [`expand`]:
    /// a repeat gets `~2`, `~3`, … in expansion order, so two `x.mjlog` in different folders never
    /// share a game id (and so a split or a shard) by accident. Independent of where the archive
    /// is mounted.
    pub id: String,
    origin: Origin,
}

#[derive(Clone)]
enum Origin {
    File(PathBuf),
    ZipEntry { archive: SharedZip, index: usize },
    DbRow { db: SharedDb, rowid: i64 },
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source").field("name", &self.name).finish()
    }
}

/// A record left out on purpose during expansion (e.g. a failed download of a database, a
/// README in a folder), with why.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    pub name: String,
    pub reason: SkipReason,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum SkipReason {
    /// The database row says the download failed (`was_error = 1`).
    DownloadError,
    /// The database row has no content.
    Empty,
    /// A folder reached a second time (through a symbolic link): walked once only, so a link
    /// loop cannot recurse forever.
    Revisited,
    /// A file in a folder whose name ends in none of [`FOLDER_EXTENSIONS`] (README.md,
    /// MANIFEST.tsv, notes.txt): not read. Named explicitly, it would be.
    UnknownExtension,
}

/// The result of [`expand`]: records to read, records skipped on purpose, and inputs that could not
/// be listed at all (a missing path, a corrupt archive or database).
#[derive(Debug, Default)]
pub struct Inputs {
    pub sources: Vec<Source>,
    pub skipped: Vec<Skipped>,
    pub errors: Vec<LogError>,
}

/// Expands paths into sources: folders recursively in sorted order, zip archives into their
/// entries, SQLite databases into their rows. Order is deterministic: inputs in the given order,
/// each folder's files sorted by path.
pub fn expand(paths: &[PathBuf]) -> Inputs {
    let mut out = Inputs::default();
    let mut visited = std::collections::HashSet::new();
    for p in paths {
        expand_path(p, p, &mut out, &mut visited);
    }
    make_ids_unique(&mut out.sources);
    out
}

/// Suffixes `~2`, `~3`, … to ids seen before, in order (an id already ending in such a suffix
/// cannot collide with a made one: the made one is checked against every id).
fn make_ids_unique(sources: &mut [Source]) {
    let mut seen: std::collections::HashSet<String> = sources.iter().map(|s| s.id.clone()).collect();
    let mut first = std::collections::HashSet::new();
    for s in sources.iter_mut() {
        if first.insert(s.id.clone()) {
            continue;
        }
        let mut k = 2;
        let id = loop {
            let candidate = format!("{}~{k}", s.id);
            if seen.insert(candidate.clone()) {
                break candidate;
            }
            k += 1;
        };
        s.id = id;
    }
}

/// The id of a file found under the argument `root`: its relative path with `/` separators and
/// the known extensions cut from the file name; a file named explicitly gives its stem.
fn relative_id(root: &Path, path: &Path) -> String {
    let rel = match path.strip_prefix(root) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel,
        _ => return id_from_name(&path.display().to_string()),
    };
    let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    let (file, folders) = parts.split_last().expect("a non-empty relative path");
    let mut id = folders.join("/");
    if !id.is_empty() {
        id.push('/');
    }
    id.push_str(&id_from_name(file));
    id
}

fn expand_path(root: &Path, path: &Path, out: &mut Inputs, visited: &mut std::collections::HashSet<PathBuf>) {
    let name = path.display().to_string();
    let explicit = root == path;
    if path.is_dir() {
        // Each folder once, by its real path: a symbolic link back up the tree ends here.
        let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        if !visited.insert(real) {
            return out.skipped.push(Skipped { name, reason: SkipReason::Revisited });
        }
        let mut entries: Vec<PathBuf> = match std::fs::read_dir(path) {
            Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
            Err(e) => return out.errors.push(LogError::Io(e).in_file(name)),
        };
        entries.sort();
        for e in entries.iter().filter(|e| !is_hidden(e)) {
            expand_path(root, e, out, visited);
        }
        return;
    }
    if !explicit && !has_log_extension(path) {
        return out.skipped.push(Skipped { name, reason: SkipReason::UnknownExtension });
    }
    let magic = match read_magic(path) {
        Ok(m) => m,
        Err(e) => return out.errors.push(LogError::Io(e).in_file(name)),
    };
    if magic.starts_with(b"PK\x03\x04") || magic.starts_with(b"PK\x05\x06") {
        expand_zip(path, out);
    } else if magic.starts_with(b"SQLite format 3\0") {
        expand_sqlite(path, out);
    } else {
        out.sources.push(Source {
            name,
            id: relative_id(root, path),
            origin: Origin::File(path.to_path_buf()),
        });
    }
}

/// A name starting with `.` (not walked in a folder).
fn is_hidden(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'))
}

fn has_log_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| FOLDER_EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

fn read_magic(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(16);
    File::open(path)?.take(16).read_to_end(&mut buf)?;
    Ok(buf)
}

fn expand_zip(path: &Path, out: &mut Inputs) {
    let name = path.display().to_string();
    let archive = File::open(path)
        .map_err(LogError::Io)
        .and_then(|f| zip::ZipArchive::new(BufReader::new(f)).map_err(zip_error));
    let archive = match archive {
        Ok(a) => a,
        Err(e) => return out.errors.push(e.in_file(name)),
    };
    let mut entries: Vec<(String, usize)> = Vec::new();
    for index in 0..archive.len() {
        match archive.name_for_index(index) {
            Some(Ok(n)) if !n.ends_with('/') => entries.push((n.into_owned(), index)),
            Some(Ok(_)) => {}
            Some(Err(e)) => out.errors.push(zip_error(e).in_file(format!("{name}!#{index}"))),
            None => {}
        }
    }
    entries.sort();
    let shared: SharedZip = Arc::new(Mutex::new(archive));
    for (entry, index) in entries {
        out.sources.push(Source {
            name: format!("{name}!{entry}"),
            id: relative_id(Path::new(""), Path::new(&entry)),
            origin: Origin::ZipEntry { archive: shared.clone(), index },
        });
    }
}

fn zip_error(e: zip::result::ZipError) -> LogError {
    LogError::Zip { detail: e.to_string() }
}

fn sql_error(e: rusqlite::Error) -> LogError {
    LogError::Sqlite { detail: e.to_string() }
}

/// Lists the rows of a phoenix-logs database (`logs(log_id, date, is_tonpusen, is_sanma,
/// is_processed, was_error, log_content)`), skipping failed downloads and empty rows. 3-player
/// rows are listed like the others (see the module doc).
fn expand_sqlite(path: &Path, out: &mut Inputs) {
    let name = path.display().to_string();
    let listed = list_rows(path);
    let (conn, rows) = match listed {
        Ok(x) => x,
        Err(e) => return out.errors.push(sql_error(e).in_file(name)),
    };
    let db: SharedDb = Arc::new(Mutex::new(conn));
    for (rowid, log_id, what) in rows {
        let row_name = format!("{name}#{log_id}");
        match what {
            SkipOr::Skip(reason) => out.skipped.push(Skipped { name: row_name, reason }),
            SkipOr::Take => out.sources.push(Source {
                name: row_name,
                id: log_id,
                origin: Origin::DbRow { db: db.clone(), rowid },
            }),
        }
    }
}

/// (rowid, log_id, take or skip) of each row, in log_id order.
type RowList = Vec<(i64, String, SkipOr)>;

fn list_rows(path: &Path) -> Result<(rusqlite::Connection, RowList), rusqlite::Error> {
    let conn = rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let mut rows = Vec::new();
    {
        let mut stmt = conn.prepare(
            "SELECT rowid, log_id, COALESCE(was_error, 0), COALESCE(length(log_content), 0) FROM logs \
             ORDER BY log_id, rowid",
        )?;
        let mut q = stmt.query([])?;
        while let Some(r) = q.next()? {
            let rowid: i64 = r.get(0)?;
            let log_id: String = r.get::<_, Option<String>>(1)?.unwrap_or_else(|| format!("row{rowid}"));
            let (was_error, len): (i64, i64) = (r.get(2)?, r.get(3)?);
            let what = if was_error != 0 {
                SkipOr::Skip(SkipReason::DownloadError)
            } else if len == 0 {
                SkipOr::Skip(SkipReason::Empty)
            } else {
                SkipOr::Take
            };
            rows.push((rowid, log_id, what));
        }
    }
    Ok((conn, rows))
}

enum SkipOr {
    Skip(SkipReason),
    Take,
}

impl Source {
    /// A source for one file path (no folder or archive expansion).
    pub fn file(path: impl Into<PathBuf>) -> Source {
        let path = path.into();
        let name = path.display().to_string();
        Source { id: id_from_name(&name), name, origin: Origin::File(path) }
    }

    /// The raw bytes of the record (still compressed if stored so; [`parse_game`] decompresses).
    pub fn read(&self) -> Result<Vec<u8>, LogError> {
        self.read_raw().map_err(|e| e.in_file(self.name.clone()))
    }

    fn read_raw(&self) -> Result<Vec<u8>, LogError> {
        match &self.origin {
            Origin::File(path) => {
                let f = File::open(path)?;
                let declared = f.metadata()?.len();
                if declared > MAX_DECOMPRESSED {
                    return Err(LogError::TooLarge {
                        entry: self.name.clone(),
                        declared,
                        limit: MAX_DECOMPRESSED,
                    });
                }
                let mut buf = Vec::with_capacity(declared as usize);
                f.take(MAX_DECOMPRESSED + 1).read_to_end(&mut buf)?;
                Ok(buf)
            }
            Origin::ZipEntry { archive, index } => {
                let mut archive = archive.lock().unwrap_or_else(|p| p.into_inner());
                let entry = archive.by_index(*index).map_err(zip_error)?;
                let declared = entry.size();
                if declared > MAX_DECOMPRESSED {
                    return Err(LogError::TooLarge {
                        entry: self.name.clone(),
                        declared,
                        limit: MAX_DECOMPRESSED,
                    });
                }
                // The declared size can lie: cap what we actually inflate too.
                let mut buf = Vec::with_capacity(declared as usize);
                entry.take(MAX_DECOMPRESSED + 1).read_to_end(&mut buf)?;
                if buf.len() as u64 > MAX_DECOMPRESSED {
                    return Err(LogError::TooLarge {
                        entry: self.name.clone(),
                        declared,
                        limit: MAX_DECOMPRESSED,
                    });
                }
                Ok(buf)
            }
            Origin::DbRow { db, rowid } => {
                let conn = db.lock().unwrap_or_else(|p| p.into_inner());
                let declared: i64 = conn
                    .query_row(
                        "SELECT COALESCE(length(log_content), 0) FROM logs WHERE rowid = ?1",
                        [rowid],
                        |r| r.get(0),
                    )
                    .map_err(sql_error)?;
                if declared as u64 > MAX_BLOB {
                    return Err(LogError::TooLarge {
                        entry: self.name.clone(),
                        declared: declared as u64,
                        limit: MAX_BLOB,
                    });
                }
                let content: Vec<u8> = conn
                    .query_row("SELECT log_content FROM logs WHERE rowid = ?1", [rowid], |r| {
                        let v = r.get_ref(0)?;
                        Ok(match v {
                            rusqlite::types::ValueRef::Blob(b) | rusqlite::types::ValueRef::Text(b) => {
                                b.to_vec()
                            }
                            _ => Vec::new(),
                        })
                    })
                    .map_err(sql_error)?;
                check_row_content(*rowid, &content)?;
                Ok(content)
            }
        }
    }

    /// Reads and parses in one step, errors naming this source.
    pub fn load(&self) -> Result<Game, LogError> {
        let bytes = self.read()?;
        parse_inner(&self.id, &bytes).map_err(|e| e.in_file(self.name.clone()))
    }
}

/// A phoenix-logs row's `log_content` before it is read as a record: the downloader stores
/// compressed XML (bz2 before May 2023, then gzip / zlib); plain XML is taken too. Anything else
/// is a wrong column, caught here by its bytes and named by its row.
pub fn check_row_content(rowid: i64, content: &[u8]) -> Result<(), LogError> {
    let text = content.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'<');
    if !is_gzip(content) && !is_zlib(content) && !is_bzip2(content) && !text {
        return Err(LogError::NotGzip {
            detail: format!(
                "log_content of row {rowid} is neither bz2, gzip, zlib nor XML: starts with {:02x?}",
                head(content)
            ),
        });
    }
    Ok(())
}

fn head(b: &[u8]) -> &[u8] {
    &b[..b.len().min(4)]
}

fn is_gzip(b: &[u8]) -> bool {
    b.starts_with(&[0x1f, 0x8b])
}

/// A bzip2 stream: `BZh` and the block size digit.
fn is_bzip2(b: &[u8]) -> bool {
    b.len() >= 4 && b.starts_with(b"BZh") && (b'1'..=b'9').contains(&b[3])
}

/// A zlib stream: CMF = deflate with a window ≤ 32 KiB, and the header checksum holds.
fn is_zlib(b: &[u8]) -> bool {
    b.len() >= 2 && b[0] & 0x0f == 8 && b[0] >> 4 <= 7 && (u16::from(b[0]) << 8 | u16::from(b[1])) % 31 == 0
}

/// Inflates gzip, zlib or bzip2 data, stopping at [`MAX_DECOMPRESSED`]. The buffer starts at a
/// small multiple of the input (capped at 1 MiB) and grows only with what is actually inflated.
pub fn decompress(name: &str, bytes: &[u8]) -> Result<Vec<u8>, LogError> {
    let mut out = Vec::with_capacity(bytes.len().saturating_mul(4).min(1 << 20));
    let read = if is_gzip(bytes) {
        flate2::read::MultiGzDecoder::new(bytes).take(MAX_DECOMPRESSED + 1).read_to_end(&mut out)
    } else if is_zlib(bytes) {
        flate2::read::ZlibDecoder::new(bytes).take(MAX_DECOMPRESSED + 1).read_to_end(&mut out)
    } else if is_bzip2(bytes) {
        bzip2::read::MultiBzDecoder::new(bytes).take(MAX_DECOMPRESSED + 1).read_to_end(&mut out)
    } else {
        return Err(LogError::NotGzip { detail: format!("starts with {:02x?}", head(bytes)) });
    };
    read.map_err(|e| LogError::NotGzip { detail: e.to_string() })?;
    if out.len() as u64 > MAX_DECOMPRESSED {
        return Err(LogError::TooLarge {
            entry: name.into(),
            declared: out.len() as u64,
            limit: MAX_DECOMPRESSED,
        });
    }
    Ok(out)
}

/// The game id a record name suggests: the file name without folders and known extensions.
pub fn id_from_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\', '!', '#']).next().unwrap_or(name);
    let mut s = base;
    for ext in [".gz", ".mjlog", ".xml", ".json", ".mjson", ".jsonl", ".t6"] {
        if s.len() > ext.len() && s.to_ascii_lowercase().ends_with(ext) {
            s = &s[..s.len() - ext.len()];
        }
    }
    s.to_string()
}

/// Parses one record of any supported format: gzip or zlib (by magic bytes; `<` and `{` never
/// look like zlib), mjlog XML (`<mjloggm`), mjai JSON lines (a first line with an mjai `type`),
/// tenhou.net/6 JSON (any other `{`). `name` names the record in errors and gives the game id (a JSON
/// `ref` wins). Errors are wrapped with `name`.
pub fn parse_game(name: &str, bytes: &[u8]) -> Result<Game, LogError> {
    parse_inner(&id_from_name(name), bytes).map_err(|e| e.in_file(name))
}

/// Parses a record as the game `id` (errors are not yet wrapped with a name).
fn parse_inner(id: &str, bytes: &[u8]) -> Result<Game, LogError> {
    let inflated;
    let mut bytes = bytes;
    if is_gzip(bytes) || is_zlib(bytes) || is_bzip2(bytes) {
        inflated = decompress(id, bytes)?;
        bytes = &inflated;
    }
    let start = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let skip = start.iter().take_while(|b| b.is_ascii_whitespace()).count();
    let text = &start[skip..];
    let offset = (bytes.len() - text.len()) as u64;
    if text.starts_with(b"<mjloggm") || (text.starts_with(b"<?xml") && find(text, b"<mjloggm").is_some()) {
        super::mjlog::parse_mjlog(id, bytes)
    } else if text.starts_with(b"{") && super::mjai::read::looks_like_mjai(text) {
        super::mjai::read::parse_mjai(id, text)
    } else if text.starts_with(b"{") && find(text, b"\"qijia\"").is_some() && find(text, b"\"log\"").is_some()
    {
        // 電脳麻将's paipu: the only JSON record with `qijia`, near its start
        super::paipu::parse_paipu(id, text)
    } else if text.starts_with(b"{") {
        super::tenhou6::parse_tenhou6(id, text)
    } else if text.starts_with(b"<") {
        Err(LogError::Xml { byte: offset, detail: "XML without an <mjloggm> root".into() })
    } else {
        Err(LogError::BinaryJunk { byte: offset })
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).take(4096).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A real plain-XML game and a real tenhou.net/6 game from the shared data.
    fn real(name: &str) -> (String, Vec<u8>) {
        let p = crate::testdata::need_file(&format!("tenhou/{name}"));
        (name.to_string(), std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
    }

    /// 15 rounds, 811 discards (MANIFEST.tsv).
    const XML: &str = "2010081709gm-00a9-0000-fe3371ad.mjlog";
    const GZ: &str = "2008092000gm-0009-0000-10db094d.mjlog.gz";
    const JSON: &str = "2012050716gm-0009-0000-85fac029.t6.json";

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn zlib(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn formats_are_sniffed_by_content_not_name() {
        let (_, xml) = real(XML);
        let (_, json) = real(JSON);
        let (_, gz) = real(GZ);
        // Names lie on purpose.
        let a = parse_game("x.json", &xml).unwrap();
        let b = parse_game("x.xml", &gzip(&xml)).unwrap();
        assert_eq!(a.rounds, b.rounds);
        assert_eq!(a.id, "x");
        let j = parse_game("y.mjlog", &json).unwrap();
        assert_eq!(j.id, "2012050716gm-0009-0000-85fac029", "JSON ref wins over the name");
        assert!(parse_game("z.json", &gz).is_ok());
        // Leading BOM and whitespace are fine.
        let mut padded = b"\xEF\xBB\xBF \n".to_vec();
        padded.extend_from_slice(&xml);
        assert!(parse_game("p", &padded).is_ok());
    }

    #[test]
    fn ids_come_from_file_names() {
        assert_eq!(
            id_from_name("a/b/2010081709gm-00a9-0000-fe3371ad.mjlog.gz"),
            "2010081709gm-00a9-0000-fe3371ad"
        );
        assert_eq!(id_from_name("x.zip!logs/2012.t6.json"), "2012");
        assert_eq!(id_from_name("db.sqlite#2019-abc"), "2019-abc");
    }

    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn truncated_xml_is_an_error_at_every_cut() {
        let (_, xml) = real(XML);
        let closing = xml.len() - b"</mjloggm>".len();
        for cut in (0..closing).step_by(97).chain([closing - 1, closing + 3]) {
            let e = parse_game("cut.mjlog", &xml[..cut]).expect_err("a truncated file parsed");
            let kind = e.kind_name();
            assert!(matches!(kind, "truncated_xml" | "binary_junk" | "structure"), "cut at {cut}: {e}");
            assert!(e.to_string().starts_with("cut.mjlog: "), "{e}");
        }
    }

    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn truncated_gzip_and_json_are_errors() {
        let (_, gz) = real(GZ);
        let e = parse_game("g.mjlog.gz", &gz[..gz.len() / 2]).unwrap_err();
        assert!(matches!(e.inner(), LogError::NotGzip { .. } | LogError::TruncatedXml { .. }), "{e}");
        let (_, json) = real(JSON);
        let e = parse_game("j.json", &json[..json.len() / 2]).unwrap_err();
        assert!(matches!(e.inner(), LogError::Json { .. }), "{e}");
        assert!(e.to_string().contains("line"), "{e}");
    }

    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn flipped_bytes_never_panic() {
        let (_, xml) = real(XML);
        let (_, json) = real(JSON);
        let mut next = crate::testdata::xorshift(0x2545_f491_4f6c_dd1du64);
        let (mut ok, mut err) = (0, 0);
        for base in [&xml, &json] {
            for _ in 0..150 {
                let mut b = base.clone();
                for _ in 0..1 + next() % 4 {
                    let i = (next() % b.len() as u64) as usize;
                    b[i] ^= 1 << (next() % 8);
                }
                match parse_game("flip", &b) {
                    Ok(_) => ok += 1,
                    Err(e) => {
                        assert!(e.to_string().starts_with("flip: "));
                        err += 1
                    }
                }
            }
        }
        assert!(err > 50, "flips that broke the file: {err} (ok {ok})");
    }

    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn clear_errors_for_each_kind_of_bad_input() {
        let (_, xml) = real(XML);
        let text = String::from_utf8(xml).unwrap();
        let check = |bytes: &[u8], want: &str, says: &str| {
            let e = parse_game("bad.mjlog", bytes).expect_err(want);
            assert_eq!(e.kind_name(), want, "{e}");
            assert!(e.to_string().contains(says), "{e} should say {says}");
        };
        // A tile id out of range in a draw, a hand and a DORA.
        check(text.replacen("<T77/>", "<T136/>", 1).as_bytes(), "tile_out_of_range", "136");
        check(text.replacen("hai0=\"34,", "hai0=\"340,", 1).as_bytes(), "tile_out_of_range", "340");
        // Unknown tags, including one that looks like a draw.
        check(text.replacen("<T77/>", "<X77/>", 1).as_bytes(), "unknown_tag", "<X77>");
        check(text.replacen("<T77/>", "<FOO a=\"1\"/>", 1).as_bytes(), "unknown_tag", "<FOO>");
        // A bad attribute value names the tag and the attribute.
        check(
            text.replacen("oya=\"0\" hai0", "oya=\"7\" hai0", 1).as_bytes(),
            "bad_attribute",
            "oya of <INIT>",
        );
        check(
            text.replacen("ten=\"30,7700,0\"", "ten=\"30,x,0\"", 1).as_bytes(),
            "bad_attribute",
            "ten of <AGARI>",
        );
        check(text.replacen("seed=\"0,0,0,3,3,20\"", "seed=\"0,0\"", 1).as_bytes(), "bad_attribute", "seed");
        // The place: the round of the bad tag.
        let e = parse_game("bad.mjlog", text.replacen("<T86/>", "<T999/>", 1).as_bytes()).unwrap_err();
        assert!(e.to_string().contains("round 0"), "{e}");
        // A 4-player record stating the sanma GO bit; a set-aside code that names no north.
        check(
            text.replacen("<GO type=\"169\"", "<GO type=\"185\"", 1).as_bytes(),
            "structure",
            "three players",
        );
        check(text.replacen("m=\"46185\"", "m=\"32\"", 1).as_bytes(), "bad_attribute", "m of <N>");
        // Binary junk and gzip magic over junk.
        check(b"\x00\x01\x02\x03binary", "binary_junk", "byte 0");
        check(b"\x1f\x8b\x08\x00junkjunkjunk", "not_gzip", "gzip");
        check(b"", "binary_junk", "byte 0");
        check(b"<html></html>", "xml", "mjloggm");
        // Invalid UTF-8 inside the XML.
        let mut b = text.clone().into_bytes();
        let at = text.find("<T77/>").unwrap();
        b.splice(at..at, [0xff, 0xfe]);
        let e = parse_game("bad.mjlog", &b).unwrap_err();
        assert!(matches!(e.kind_name(), "binary_junk" | "structure" | "xml"), "{e}");
    }

    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn folders_expand_recursively_in_sorted_order() {
        let (_, xml) = real(XML);
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("b/c")).unwrap();
        std::fs::write(dir.path().join("b/c/2.mjlog"), &xml).unwrap();
        std::fs::write(dir.path().join("b/1.mjlog.gz"), gzip(&xml)).unwrap();
        std::fs::write(dir.path().join("a.mjlog"), &xml).unwrap();
        std::fs::write(dir.path().join("README.md"), "not a log").unwrap();
        std::fs::write(dir.path().join("b/MANIFEST.tsv"), "file\trounds").unwrap();
        std::fs::write(dir.path().join(".hidden.mjlog"), &xml).unwrap();
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        std::fs::write(dir.path().join(".git/HEAD"), "ref: main").unwrap();
        let ex = expand(&[dir.path().to_path_buf()]);
        let rel =
            |name: &str| -> String { name.strip_prefix(&dir.path().display().to_string()).unwrap().into() };
        let names: Vec<String> = ex.sources.iter().map(|s| rel(&s.name)).collect();
        assert_eq!(names, ["/a.mjlog", "/b/1.mjlog.gz", "/b/c/2.mjlog"]);
        assert!(ex.errors.is_empty());
        // Other files are listed as skipped, with why; hidden ones are not walked.
        let skipped: Vec<(String, SkipReason)> =
            ex.skipped.iter().map(|s| (rel(&s.name), s.reason)).collect();
        assert_eq!(
            skipped,
            [
                ("/README.md".to_string(), SkipReason::UnknownExtension),
                ("/b/MANIFEST.tsv".to_string(), SkipReason::UnknownExtension)
            ]
        );
        for s in &ex.sources {
            assert_eq!(s.load().unwrap().rounds.len(), 15);
        }
        // Named explicitly, any file is read.
        assert_eq!(expand(&[dir.path().join(".hidden.mjlog")]).sources.len(), 1);
        std::fs::write(dir.path().join("b/broken.mjlog"), &xml[..xml.len() / 2]).unwrap();
        let loaded: Vec<_> = expand(&[dir.path().to_path_buf()]).sources.iter().map(Source::load).collect();
        assert_eq!(loaded.iter().filter(|r| r.is_ok()).count(), 3);
        let errors: Vec<_> = loaded.iter().filter_map(|r| r.as_ref().err()).collect();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].to_string().contains("broken.mjlog"), "{}", errors[0]);
        let missing = expand(&[dir.path().join("nope.mjlog")]);
        assert_eq!(missing.errors.len(), 1);
        assert!(missing.errors[0].to_string().contains("nope.mjlog"));
    }

    #[test]
    fn zip_entries_are_read_and_bombs_refused() {
        // Built here from the small test game, so the test runs without ../shared.
        let xml = crate::log::mjlog::SMALL_MJLOG.as_bytes().to_vec();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.zip");
        let mut z = zip::ZipWriter::new(File::create(&path).unwrap());
        let opts =
            zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        z.start_file("b/notes.txt", opts).unwrap();
        z.write_all(b"every entry of an archive is a record: this one is a clear error").unwrap();
        z.start_file("a/game.mjlog", opts).unwrap();
        z.write_all(&xml).unwrap();
        z.start_file("c/game.mjlog.gz", opts).unwrap();
        z.write_all(&gzip(&xml)).unwrap();
        z.start_file("d/bomb.mjlog", opts).unwrap();
        let zeros = vec![b' '; 1 << 20];
        for _ in 0..=(MAX_DECOMPRESSED >> 20) {
            z.write_all(&zeros).unwrap();
        }
        z.finish().unwrap();
        assert!(std::fs::metadata(&path).unwrap().len() < 1 << 20, "the bomb compresses small");
        let ex = expand(std::slice::from_ref(&path));
        let names: Vec<&str> = ex.sources.iter().map(|s| s.name.rsplit('!').next().unwrap()).collect();
        assert_eq!(names, ["a/game.mjlog", "b/notes.txt", "c/game.mjlog.gz", "d/bomb.mjlog"]);
        let load = |entry: &str| ex.sources.iter().find(|s| s.name.ends_with(entry)).map(Source::load);
        let a = load("a/game.mjlog").unwrap().unwrap();
        assert_eq!((a.rounds.len(), a.id.as_str()), (1, "a/game"));
        let c = load("c/game.mjlog.gz").unwrap().unwrap();
        assert_eq!((&c.rounds, c.id.as_str()), (&a.rounds, "c/game"), "same entry name, distinct ids");
        let e = load("b/notes.txt").unwrap().unwrap_err();
        assert!(e.to_string().contains("games.zip!b/notes.txt"), "{e}");
        let e = load("d/bomb.mjlog").unwrap().unwrap_err();
        assert_eq!(e.kind_name(), "too_large", "{e}");
        assert!(e.to_string().contains("games.zip!d/bomb.mjlog"), "{e}");
        // A corrupt archive is one error, not a panic.
        std::fs::write(dir.path().join("bad.zip"), b"PK\x03\x04 not really a zip").unwrap();
        let ex = expand(&[dir.path().join("bad.zip")]);
        assert_eq!(ex.errors.len(), 1);
        assert_eq!(ex.errors[0].kind_name(), "zip");
    }

    #[test]
    fn gzip_bomb_is_refused() {
        let big = vec![b' '; MAX_DECOMPRESSED as usize + 1];
        let e = parse_game("bomb.gz", &gzip(&big)).unwrap_err();
        assert_eq!(e.kind_name(), "too_large", "{e}");
    }

    fn bz2(bytes: &[u8]) -> Vec<u8> {
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    /// A phoenix-logs database in one of its layouts: `sanma` names the 3-player flag column
    /// (`is_sanma` since August 2020, `is_hiroshima` before, or none), rows are
    /// (log_id, sanma, was_error, content).
    fn phoenix_db(path: &Path, sanma: Option<&str>, rows: &[(&str, i64, i64, Vec<u8>)]) {
        let conn = rusqlite::Connection::open(path).unwrap();
        let flag = sanma.map_or(String::new(), |c| format!("{c} INTEGER, "));
        conn.execute_batch(&format!(
            "CREATE TABLE logs(log_id TEXT PRIMARY KEY, date INTEGER, is_tonpusen INTEGER, {flag}\
             is_processed INTEGER, was_error INTEGER, log_content BLOB)"
        ))
        .unwrap();
        for (id, s, err, content) in rows {
            let sql = match sanma {
                Some(c) => format!(
                    "INSERT INTO logs(log_id, date, is_tonpusen, {c}, is_processed, was_error, log_content) \
                     VALUES (?1, 0, 0, {s}, 1, ?2, ?3)"
                ),
                None => "INSERT INTO logs(log_id, date, is_tonpusen, is_processed, was_error, log_content) \
                         VALUES (?1, 0, 0, 1, ?2, ?3)"
                    .to_string(),
            };
            conn.execute(&sql, rusqlite::params![id, err, content]).unwrap();
        }
    }

    /// mjai files named as their writers name them (`.mjson`, `.jsonl`, gzipped too) are read
    /// from a folder, by content like every record.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn mjai_files_in_a_folder_are_read() {
        let game = parse_game("g", &real(XML).1).unwrap();
        let mjai = crate::log::mjai::write::write_mjai(&game).unwrap();
        let dir = tempfile::tempdir().unwrap();
        for f in ["a.mjson", "b.jsonl", "c.jsonl.gz", "d.json"] {
            let bytes = if f.ends_with(".gz") { gzip(mjai.as_bytes()) } else { mjai.clone().into_bytes() };
            std::fs::write(dir.path().join(f), bytes).unwrap();
        }
        let ex = expand(&[dir.path().to_path_buf()]);
        assert!(ex.skipped.is_empty() && ex.errors.is_empty());
        let ids: Vec<&str> = ex.sources.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "c", "d"]);
        for s in &ex.sources {
            assert_eq!(s.load().unwrap().rounds.len(), game.rounds.len(), "{}", s.name);
        }
    }

    #[test]
    fn phoenix_databases_of_every_era_are_read() {
        let xml = crate::log::mjlog::SMALL_MJLOG.as_bytes().to_vec();
        let dir = tempfile::tempdir().unwrap();
        // Since May 2023: gzip or zlib, `is_sanma`.
        let new = dir.path().join("2024.db");
        phoenix_db(
            &new,
            Some("is_sanma"),
            &[
                ("g1", 0, 0, gzip(&xml)),
                ("g2", 0, 0, zlib(&xml)),
                ("g3", 0, 1, Vec::new()),
                ("g4", 0, 0, Vec::new()),
                ("g5", 1, 0, gzip(&xml)),
                ("g6", 0, 0, xml.clone()),
                ("g7", 0, 0, b"\x00\x01junk".to_vec()),
            ],
        );
        // August 2020 - May 2023: bz2, `is_sanma`.
        let mid = dir.path().join("2021.db");
        phoenix_db(&mid, Some("is_sanma"), &[("m1", 0, 0, bz2(&xml)), ("m2", 1, 0, bz2(&xml))]);
        // Before August 2020: bz2, `is_hiroshima`.
        let old = dir.path().join("2019.db");
        phoenix_db(
            &old,
            Some("is_hiroshima"),
            &[("o1", 0, 0, bz2(&xml)), ("o2", 1, 0, bz2(&xml)), ("o3", 0, 0, bz2(&xml))],
        );
        // No 3-player flag at all: every row is a 4-player game.
        let bare = dir.path().join("bare.db");
        phoenix_db(&bare, None, &[("b1", 0, 0, bz2(&xml))]);

        let ex = expand(&[new.clone(), mid, old, bare]);
        assert!(ex.errors.is_empty(), "{:?}", ex.errors);
        let names: Vec<&str> = ex.sources.iter().map(|s| s.name.rsplit('#').next().unwrap()).collect();
        // The rows flagged 3-player (g5, m2, o2) are read too: their content decides.
        assert_eq!(names, ["g1", "g2", "g5", "g6", "g7", "m1", "m2", "o1", "o2", "o3", "b1"]);
        let skipped: Vec<(&str, SkipReason)> =
            ex.skipped.iter().map(|s| (s.name.rsplit('#').next().unwrap(), s.reason)).collect();
        assert_eq!(skipped, [("g3", SkipReason::DownloadError), ("g4", SkipReason::Empty)]);
        let games: Vec<Result<Game, LogError>> = ex.sources.iter().map(Source::load).collect();
        let first = games[0].as_ref().unwrap();
        assert_eq!(first.id, "g1");
        for (name, g) in names.iter().zip(&games) {
            if *name == "g7" {
                let e = g.as_ref().unwrap_err();
                assert_eq!(e.kind_name(), "not_gzip", "{e}");
                assert!(e.to_string().contains("2024.db#g7") && e.to_string().contains("bz2"), "{e}");
            } else {
                assert_eq!(g.as_ref().unwrap().rounds, first.rounds, "{name}");
            }
        }
    }

    /// Databases of each era holding a real 3-player game (flagged 1) and a real 4-player one
    /// (flagged 0) from the shared data: both read, each on its own rules, as the files do.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn phoenix_sanma_rows_read_as_three_player_games() {
        let sanma_path = crate::testdata::need_file("tenhou/sanma/2020010100gm-00b9-0000-18a1410f.mjlog");
        let sanma = std::fs::read(&sanma_path).unwrap();
        let (_, four) = real(XML);
        let want = |bytes: &[u8]| parse_game("x", bytes).unwrap();
        let (want3, want4) = (want(&sanma), want(&four));
        assert_eq!((want3.rules.players, want4.rules.players), (3, 4));
        let dir = tempfile::tempdir().unwrap();
        let dbs = [
            ("2024.db", "is_sanma", gzip(&sanma), gzip(&four)),
            ("2021.db", "is_sanma", bz2(&sanma), bz2(&four)),
            ("2019.db", "is_hiroshima", bz2(&sanma), bz2(&four)),
        ];
        let mut paths = Vec::new();
        for (file, flag, s, f) in dbs {
            let path = dir.path().join(file);
            phoenix_db(&path, Some(flag), &[("a-sanma", 1, 0, s), ("b-four", 0, 0, f)]);
            paths.push(path);
        }
        let ex = expand(&paths);
        assert!(ex.errors.is_empty() && ex.skipped.is_empty(), "{:?} {:?}", ex.errors, ex.skipped);
        assert_eq!(ex.sources.len(), 6);
        for s in &ex.sources {
            let g = s.load().unwrap();
            let want = if s.name.ends_with("#a-sanma") { &want3 } else { &want4 };
            assert_eq!((g.rules, &g.rounds), (want.rules, &want.rounds), "{}", s.name);
        }
    }

    #[test]
    fn oversized_blobs_are_refused_before_reading() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.db");
        phoenix_db(&path, Some("is_sanma"), &[("huge", 0, 0, vec![0x1f; MAX_BLOB as usize + 1])]);
        let ex = expand(std::slice::from_ref(&path));
        let e = ex.sources[0].load().unwrap_err();
        assert_eq!(e.kind_name(), "too_large", "{e}");
        assert!(e.to_string().contains("big.db#huge"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_loop_is_walked_once() {
        let xml = crate::log::mjlog::SMALL_MJLOG.as_bytes();
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        std::fs::write(dir.path().join("a/b/g.mjlog"), xml).unwrap();
        std::os::unix::fs::symlink(dir.path().join("a"), dir.path().join("a/b/up")).unwrap();
        let ex = expand(&[dir.path().to_path_buf()]);
        assert_eq!(ex.sources.len(), 1, "{:?}", ex.sources);
        assert_eq!(ex.skipped.len(), 1);
        assert_eq!(ex.skipped[0].reason, SkipReason::Revisited);
    }

    /// Two games with the same file name in different folders used to get the same game id, and
    /// so the same split and shard. Ids are now relative to the argument, and a repeat across
    /// arguments is suffixed.
    #[test]
    fn game_ids_stay_unique_when_file_names_repeat() {
        let xml = crate::log::mjlog::SMALL_MJLOG.as_bytes();
        let dir = tempfile::tempdir().unwrap();
        for f in ["2020/x.mjlog", "2021/x.mjlog", "2021/deep/x.mjlog.gz", "y.mjlog"] {
            let path = dir.path().join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, if f.ends_with(".gz") { gzip(xml) } else { xml.to_vec() }).unwrap();
        }
        let ids =
            |paths: &[PathBuf]| -> Vec<String> { expand(paths).sources.into_iter().map(|s| s.id).collect() };
        // A folder: paths relative to it, so the ids do not depend on where it is mounted.
        assert_eq!(ids(&[dir.path().to_path_buf()]), ["2020/x", "2021/deep/x", "2021/x", "y"]);
        assert_eq!(ids(&[dir.path().join("2021")]), ["deep/x", "x"]);
        // Files named explicitly: their stems, repeats suffixed in argument order.
        let files =
            [dir.path().join("2020/x.mjlog"), dir.path().join("2021/x.mjlog"), dir.path().join("y.mjlog")];
        assert_eq!(ids(&files), ["x", "x~2", "y"]);
        // The same folder twice: every id still unique, even against an existing `~2`.
        std::fs::write(dir.path().join("x~2.mjlog"), xml).unwrap();
        let twice = ids(&[dir.path().join("2020"), dir.path().join("2021"), dir.path().join("x~2.mjlog")]);
        assert_eq!(twice, ["x", "deep/x", "x~3", "x~2"]);
        // The parsed game carries the source's id.
        let games: Vec<_> = expand(&files).sources.iter().map(|s| s.load().unwrap()).collect();
        let got: Vec<&str> = games.iter().map(|g| g.id.as_str()).collect();
        assert_eq!(got, ["x", "x~2", "y"]);
    }
}
