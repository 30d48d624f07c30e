//! `haifu convert`: any record haifu reads into one validated file per game: mjai
//! (`OUT/GAME_ID.json.gz`, the layout Mortal's training reads, `**/*.json.gz`) or tenhou.net/6
//! JSON (`OUT/GAME_ID.json`, what the Tenhou viewer and mjai-reviewer load).
//!
//! A game is written only when it replays with full validation, every win re-scores to the
//! recorded payments, and the written text read back replays the same way with the same rounds,
//! discards and wins: a file in OUT is one Mortal, RiichiEnv or mjai-reviewer can take as it is.
//! A game that fails any of it is reported and not written. tenhou.net/6 needs each win's yaku
//! and points strings: a record without them (mjai) gets them from the re-scoring. Files are
//! written atomically ([`util::write_atomic`](crate::util::write_atomic)) and are deterministic
//! (gzip with mtime 0), so `--resume` can keep the ones already there and a rerun writes the same
//! bytes.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::batch::FileError;
use crate::log::event::{Agari, Event, Game};
use crate::log::mjai::read::parse_mjai;
use crate::log::mjai::write::write_mjai;
use crate::log::source::Skipped;
use crate::log::tenhou6::parse_tenhou6;
use crate::replay::check::{compare, win_input, Rescore};
use crate::replay::table::Table;
use crate::replay::{replay_game, GameSummary, NoWinCheck, ReplayError, WinChecker};
use crate::score::{score_with, WinScore};

/// What `haifu convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// mjai JSON lines, gzipped, one `GAME_ID.json.gz` per game.
    Mjai,
    /// tenhou.net/6 JSON as Tenhou writes it, one `GAME_ID.json` per game.
    Tenhou6,
}

impl Target {
    /// The output file's extension.
    pub fn extension(self) -> &'static str {
        match self {
            Target::Mjai => "json.gz",
            Target::Tenhou6 => "json",
        }
    }
}

/// The options of one run.
#[derive(Clone, Debug)]
pub struct Options {
    pub to: Target,
    pub out: PathBuf,
    pub jobs: Option<usize>,
    /// Keep files already in OUT (a killed run goes on where it stopped).
    pub resume: bool,
}

/// Why one game is not written. The text names the step (`replay`, `mjai`, `tenhou6`, `... read
/// back`), so a batch's one line per refused game says where the game failed.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// The record does not replay under full validation.
    #[error("replay: {0}")]
    Replay(#[from] ReplayError),
    /// A win's recorded payments differ from the re-scoring (a wrong example, never written).
    #[error("replay: win does not re-score: {0}")]
    Rescore(String),
    /// The writer could not express the game in the target format.
    #[error("{format}: {detail}")]
    Write { format: &'static str, detail: String },
    /// The written text does not read back, or does not replay.
    #[error("{format} read back: {detail}")]
    ReadBack { format: &'static str, detail: String },
    /// The written text reads back as a different game: (rounds, discards, wins) differ.
    #[error(
        "{format} read back: {} rounds, {} discards, {} wins instead of {}, {}, {}",
        got.0, got.1, got.2, want.0, want.1, want.2
    )]
    Changed { format: &'static str, got: (usize, usize, usize), want: (usize, usize, usize) },
}

/// What a run did.
#[derive(Debug, Default, serde::Serialize)]
pub struct Summary {
    /// Records found, including the failed ones.
    pub files: usize,
    pub written: usize,
    /// Files already there, kept under `--resume`.
    pub kept: usize,
    /// Records that could not be read, replayed, re-scored or carried through the format.
    pub failed: Vec<FileError>,
    pub skipped: Vec<Skipped>,
    /// Outputs that could not be written (the disk, not the record).
    pub write_errors: Vec<FileError>,
    /// Wall time of the run.
    pub seconds: f64,
}

impl Summary {
    /// Games written per second of the run.
    pub fn games_per_second(&self) -> f64 {
        self.written as f64 / self.seconds.max(1e-9)
    }
}

/// The lines `haifu convert` prints: the counts, the rate, and the first 20 errors.
impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "files    {}", self.files)?;
        writeln!(f, "written  {} ({:.0} games/s)", self.written, self.games_per_second())?;
        writeln!(f, "kept     {}", self.kept)?;
        writeln!(f, "failed   {}", self.failed.len())?;
        write!(f, "skipped  {}", self.skipped.len())?;
        for e in self.failed.iter().chain(&self.write_errors).take(20) {
            write!(f, "\n  error {}: {}", e.file, e.error)?;
        }
        Ok(())
    }
}

enum Done {
    Written,
    Kept,
    WriteFailed(String),
}

/// Where a game's file goes: its id's folders under OUT (`2009/0801/x` gives
/// `OUT/2009/0801/x.json.gz` for mjai), with `..` and empty parts dropped so nothing lands
/// outside OUT.
pub fn output_path(out: &Path, id: &str, to: Target) -> PathBuf {
    let mut p = out.to_path_buf();
    let parts: Vec<&str> =
        id.split(['/', '\\']).filter(|s| !s.is_empty() && *s != "." && *s != "..").collect();
    let (file, folders) = parts.split_last().map_or(("game", &[][..]), |(f, d)| (*f, d));
    for d in folders {
        p.push(d);
    }
    p.push(format!("{file}.{}", to.extension()));
    p
}

/// A validated file of one game in the `to` format; `Err` says why the game is not written.
pub fn convert_to(game: &Game, to: Target) -> Result<Vec<u8>, ConvertError> {
    match to {
        Target::Mjai => convert_game(game),
        Target::Tenhou6 => convert_tenhou6(game).map(String::into_bytes),
    }
}

/// A validated mjai file of one game, gzipped; `Err` says why the game is not written.
pub fn convert_game(game: &Game) -> Result<Vec<u8>, ConvertError> {
    Ok(gzip(mjai_text(game)?.as_bytes()))
}

/// The validated mjai JSON lines of one game (what [`convert_game`] gzips): replayed, written,
/// read back and replayed the same.
pub fn mjai_text(game: &Game) -> Result<String, ConvertError> {
    const F: &str = "mjai";
    let want = validate(game)?;
    let text = write_mjai(game).map_err(|e| ConvertError::Write { format: F, detail: e.to_string() })?;
    let back = parse_mjai(&game.id, text.as_bytes()).map_err(|e| read_back(F, e))?;
    same_game(F, &validate(&back).map_err(|e| read_back(F, e))?, &want)?;
    Ok(text)
}

/// A validated tenhou.net/6 text of one game: replayed and re-scored (wins without yaku get the
/// re-scored ones), written, read back by the tenhou.net/6 reader and replayed again with the
/// same rounds, discards and wins.
pub fn convert_tenhou6(game: &Game) -> Result<String, ConvertError> {
    const F: &str = "tenhou6";
    let (want, wins) = validate_scored(game)?;
    let scored = with_scores(game, &wins);
    let scored = with_fitting_length(&scored);
    let text = crate::log::tenhou6::write::write(&scored)
        .map_err(|e| ConvertError::Write { format: F, detail: e.to_string() })?;
    let back = parse_tenhou6(&game.id, text.as_bytes()).map_err(|e| read_back(F, e))?;
    same_game(F, &validate(&back).map_err(|e| read_back(F, e))?, &want)?;
    Ok(text)
}

/// A read-back failure of `format`'s text.
fn read_back(format: &'static str, e: impl std::fmt::Display) -> ConvertError {
    ConvertError::ReadBack { format, detail: e.to_string() }
}

/// `Ok` when the game read back has the rounds, discards and wins of the one written.
fn same_game(format: &'static str, got: &GameSummary, want: &GameSummary) -> Result<(), ConvertError> {
    let counts = |s: &GameSummary| (s.rounds, s.discards, s.agari);
    if counts(got) == counts(want) {
        Ok(())
    } else {
        Err(ConvertError::Changed { format, got: counts(got), want: counts(want) })
    }
}

/// Re-scores every win like [`Rescore`] and keeps each score (in game order).
#[derive(Default)]
struct Scorer {
    wins: Vec<Option<WinScore>>,
}

impl WinChecker for Scorer {
    fn check(&mut self, table: &Table, agari: &Agari, index: usize, events: &[Event]) -> Vec<String> {
        let second_ron = index > 0 && matches!(events[index - 1], Event::Agari(_));
        let scored = win_input(table, agari, second_ron).map_err(|e| e.to_string()).and_then(|input| {
            let win = score_with(&input, &table.rules.score_rules())
                .ok_or_else(|| format!("re-scoring found no valid win for seat {}", agari.who))?;
            Ok((compare(table, agari, &win, &input), win))
        });
        let (mismatches, win) = match scored {
            Ok((m, win)) => (m, Some(win)),
            Err(e) => (vec![e], None),
        };
        self.wins.push(win);
        mismatches
    }
}

/// [`validate`] that also returns each win's re-scoring.
fn validate_scored(game: &Game) -> Result<(GameSummary, Vec<Option<WinScore>>), ConvertError> {
    let mut scorer = Scorer::default();
    let s = replay_game(game, &mut (), &mut scorer)?;
    match s.mismatches.first() {
        Some(m) => Err(ConvertError::Rescore(m.clone())),
        None => Ok((s, scorer.wins)),
    }
}

/// The game with the re-scored fu, points, limit and yaku in each win that has none (`points`
/// 0: an mjai record); borrowed unchanged when every win has them.
fn with_scores<'a>(game: &'a Game, wins: &[Option<WinScore>]) -> std::borrow::Cow<'a, Game> {
    let agaris = || game.rounds.iter().flat_map(|r| &r.events).filter(|e| matches!(e, Event::Agari(_)));
    let unscored = |e: &Event| matches!(e, Event::Agari(a) if a.points == 0);
    if !agaris().any(unscored) {
        return std::borrow::Cow::Borrowed(game);
    }
    let mut g = game.clone();
    let mut scores = wins.iter();
    for e in g.rounds.iter_mut().flat_map(|r| &mut r.events) {
        if let Event::Agari(a) = e {
            match scores.next() {
                Some(Some(w)) if a.points == 0 => {
                    a.fu = u32::from(w.fu);
                    a.points = w.base_points as i32;
                    a.limit = w.limit;
                    a.yaku.clone_from(&w.yaku);
                    a.yakuman.clone_from(&w.yakuman);
                }
                _ => {}
            }
        }
    }
    std::borrow::Cow::Owned(g)
}

/// The game with a length its rounds fit, for a record that does not state one (mjai): tenhou.net/6
/// states it (`rule.disp` 東 / 南), and its reader then holds the game to it. The mjai reader's
/// guess (East only unless a South round was played) is kept unless the game would have ended
/// earlier under it: a hanchan that a score below 0 ended in East, after its last East round
/// (East 3 at three players) met the East-only game's end and play went on (7 of the 279 sanma
/// games). Borrowed unchanged when the length is stated or the guess fits.
fn with_fitting_length(game: &Game) -> std::borrow::Cow<'_, Game> {
    if game.rules.length_stated {
        return std::borrow::Cow::Borrowed(game);
    }
    let stated = |hanchan: bool| {
        let mut g = game.clone();
        g.rules.hanchan = hanchan;
        g.rules.length_stated = true;
        g
    };
    if replay_game(&stated(game.rules.hanchan), &mut (), &mut NoWinCheck).is_ok() {
        return std::borrow::Cow::Borrowed(game);
    }
    let mut other = game.clone();
    other.rules.hanchan = !game.rules.hanchan;
    std::borrow::Cow::Owned(other)
}

/// Replays with re-scoring; a mismatch is an error here (the game would be a wrong example).
fn validate(game: &Game) -> Result<GameSummary, ConvertError> {
    let s = replay_game(game, &mut (), &mut Rescore::default())?;
    match s.mismatches.first() {
        Some(m) => Err(ConvertError::Rescore(m.clone())),
        None => Ok(s),
    }
}

/// gzip with the header's mtime 0, so the same game always gives the same bytes.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::GzBuilder::new().mtime(0).write(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).expect("writing to memory");
    e.finish().expect("writing to memory")
}

/// Converts every record of `paths` in parallel (progress bar with ETA on a terminal).
pub fn run(paths: &[PathBuf], opts: &Options) -> Summary {
    let started = std::time::Instant::now();
    let convert_one = |game: &Game| -> Result<Done, ConvertError> {
        let path = output_path(&opts.out, &game.id, opts.to);
        if opts.resume && path.is_file() {
            return Ok(Done::Kept);
        }
        let bytes = convert_to(game, opts.to)?;
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| crate::util::write_atomic(&path, &bytes));
        Ok(match written {
            Ok(()) => Done::Written,
            Err(e) => Done::WriteFailed(format!("{}: {e}", path.display())),
        })
    };
    let out = crate::batch::run(paths, opts.jobs, "convert", convert_one);
    let mut summary =
        Summary { files: out.files, failed: out.errors, skipped: out.skipped, ..Summary::default() };
    for (file, done) in out.results {
        match done {
            Done::Written => summary.written += 1,
            Done::Kept => summary.kept += 1,
            Done::WriteFailed(error) => summary.write_errors.push(FileError { file, error }),
        }
    }
    summary.seconds = started.elapsed().as_secs_f64();
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_map_inside_out() {
        let out = Path::new("/o");
        assert_eq!(output_path(out, "2009/0801/x", Target::Mjai), Path::new("/o/2009/0801/x.json.gz"));
        assert_eq!(output_path(out, "../../etc/x", Target::Mjai), Path::new("/o/etc/x.json.gz"));
        assert_eq!(output_path(out, "db.sqlite#a", Target::Mjai), Path::new("/o/db.sqlite#a.json.gz"));
        assert_eq!(output_path(out, "", Target::Mjai), Path::new("/o/game.json.gz"));
        assert_eq!(output_path(out, "2009/x", Target::Tenhou6), Path::new("/o/2009/x.json"));
    }

    /// The `log` of a tenhou.net/6 text with each win's yaku strings sorted (the re-scoring lists
    /// yaku in its own order, Tenhou in the mjlog's).
    fn log_with_sorted_yaku(text: &str) -> serde_json::Value {
        let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
        for round in v["log"].as_array_mut().unwrap() {
            let result = round[16].as_array_mut().unwrap();
            for item in result.iter_mut().skip(2).step_by(2) {
                let info = item.as_array_mut().unwrap();
                info[4..].sort_by_key(|y| y.as_str().unwrap().to_string());
            }
        }
        v["log"].take()
    }

    /// A record without yaku (mjai) gets them, and Tenhou's points strings, from the re-scoring:
    /// the tenhou.net/6 `log` written from the mjai form of real games equals the one written from
    /// their mjlog (Tenhou's recorded yaku), yaku order aside. Run through `run`, with `--resume`.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn tenhou6_from_mjai_has_the_mjlogs_yaku_and_points() {
        let files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        let dir = tempfile::tempdir().unwrap();
        let (from_mjlog, from_mjai) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir_all(&from_mjlog).unwrap();
        std::fs::create_dir_all(&from_mjai).unwrap();
        let picked: Vec<&PathBuf> = files.iter().step_by(97).take(12).collect();
        for f in &picked {
            let g = crate::log::source::Source::file(f).load().unwrap();
            std::fs::copy(f, from_mjlog.join(f.file_name().unwrap())).unwrap();
            let mjai = write_mjai(&g).unwrap();
            std::fs::write(from_mjai.join(format!("{}.json", g.id)), mjai).unwrap();
        }
        let opts = |input: &Path| Options {
            to: Target::Tenhou6,
            out: input.with_extension("out"),
            jobs: Some(2),
            resume: false,
        };
        for input in [&from_mjlog, &from_mjai] {
            let s = run(std::slice::from_ref(input), &opts(input));
            assert_eq!((s.files, s.written, s.failed.len()), (12, 12, 0), "{:?}", s.failed);
        }
        let mut wins = 0;
        for f in &picked {
            let name = format!("{}.json", f.file_stem().unwrap().to_str().unwrap());
            let a = std::fs::read_to_string(from_mjlog.with_extension("out").join(&name)).unwrap();
            let b = std::fs::read_to_string(from_mjai.with_extension("out").join(&name)).unwrap();
            assert_eq!(log_with_sorted_yaku(&a), log_with_sorted_yaku(&b), "{name}");
            wins += a.matches("和了").count();
        }
        assert!(wins > 60, "{wins} rounds won");
        let again = run(std::slice::from_ref(&from_mjai), &Options { resume: true, ..opts(&from_mjai) });
        assert_eq!((again.written, again.kept), (0, 12));
    }

    /// The 279 3-player games: mjlog -> mjai, mjai -> tenhou.net/6 and mjlog -> tenhou.net/6 all
    /// written, and the two tenhou.net/6 `log`s equal (the points strings and yaku re-scored from
    /// mjai are the ones Tenhou recorded). mjai states no length: 7 hanchan that a score below 0
    /// ended in East would have ended after East 3 as East-only games, so they are written 南.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn sanma_converts_to_both_formats() {
        let sanma = crate::testdata::need_file("tenhou/sanma");
        let dir = tempfile::tempdir().unwrap();
        let (mjai, t6, t6_from_mjai) =
            (dir.path().join("mjai"), dir.path().join("t6"), dir.path().join("t6b"));
        let opts = |to, out: &Path| Options { to, out: out.to_path_buf(), jobs: Some(2), resume: false };
        for (input, to, out) in [
            (&sanma, Target::Mjai, &mjai),
            (&sanma, Target::Tenhou6, &t6),
            (&mjai, Target::Tenhou6, &t6_from_mjai),
        ] {
            let s = run(std::slice::from_ref(input), &opts(to, out));
            assert_eq!((s.files, s.written, s.failed.len()), (279, 279, 0), "{to:?} {:?}", s.failed);
        }
        let (mut same, mut east_only) = (0, 0);
        for e in std::fs::read_dir(&t6).unwrap() {
            let name = e.unwrap().file_name();
            let a = std::fs::read_to_string(t6.join(&name)).unwrap();
            let b = std::fs::read_to_string(t6_from_mjai.join(&name)).unwrap();
            assert_eq!(log_with_sorted_yaku(&a), log_with_sorted_yaku(&b), "{name:?}");
            same += 1;
            east_only += usize::from(b.contains("\"disp\":\"三般東"));
        }
        assert_eq!(same, 279);
        assert!(east_only < 279 - 7, "{east_only} written East-only");
    }

    /// Real games: written, kept under --resume, refused when they do not re-score; the output
    /// reads back as the same game.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn converts_resumes_and_refuses_broken_games() {
        let files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in");
        std::fs::create_dir_all(&input).unwrap();
        for f in files.iter().take(3) {
            std::fs::copy(f, input.join(f.file_name().unwrap())).unwrap();
        }
        // A game whose first win's recorded scores are altered: refused, not written.
        let text = std::fs::read_to_string(&files[0]).unwrap();
        let at = text.find(" sc=\"").unwrap() + 5;
        let broken = format!("{}9{}", &text[..at], &text[at..]);
        std::fs::write(input.join("broken.mjlog"), broken).unwrap();
        let opts = Options { to: Target::Mjai, out: dir.path().join("out"), jobs: Some(2), resume: false };
        let s = run(std::slice::from_ref(&input), &opts);
        assert_eq!((s.files, s.written, s.kept, s.failed.len()), (4, 3, 0, 1), "{:?}", s.failed);
        assert!(
            s.failed[0].file.ends_with("broken.mjlog") && s.failed[0].error.contains("score"),
            "{:?}",
            s.failed
        );
        assert!(!opts.out.join("broken.json.gz").exists());
        let stem = files[0].file_stem().unwrap().to_str().unwrap();
        let written = opts.out.join(format!("{stem}.json.gz"));
        let bytes = std::fs::read(&written).unwrap();
        let back = crate::log::source::parse_game("w", &bytes).unwrap();
        let orig = crate::log::source::Source::file(&files[0]).load().unwrap();
        assert_eq!(back.rounds.len(), orig.rounds.len());
        let again = run(std::slice::from_ref(&input), &Options { resume: true, ..opts.clone() });
        assert_eq!((again.written, again.kept), (0, 3));
        let rerun = run(std::slice::from_ref(&input), &opts);
        assert_eq!(rerun.written, 3);
        assert_eq!(std::fs::read(&written).unwrap(), bytes, "deterministic bytes");
    }
}
