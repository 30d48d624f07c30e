//! `haifu simulate`: plays N games in parallel, writes one mjlog per game and the per-bot
//! summary. Deterministic for a seed whatever the thread count: each game depends only on its
//! own index, and results are gathered in index order.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use super::bots::{parse_bot, plays_three, Bot, EvalBot, UnknownBot};
use super::duplicate::{game_count, seating, Seating};
use super::engine::{play_game, EngineError, GameSpec};
use super::summary::{to_csv, to_markdown, BotSummary};
use crate::log::event::{Game, Player};
use crate::log::mjlog::write::{write_mjlog, EncodeError};
use crate::replay::outcome::{game_outcome, GameOutcome};

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// Games to play (rounded up to a multiple of 4 with `duplicate`).
    pub games: usize,
    /// One bot name for all four seats, or four names.
    pub bots: Vec<String>,
    pub seed: u64,
    pub duplicate: bool,
    /// Hanchan (East + South); false = tonpuu.
    pub hanchan: bool,
    /// Seats at the table: 4, or 3 (Tenhou's sanma rules).
    pub players: u8,
    pub out: PathBuf,
    pub jobs: Option<usize>,
    /// Which record files each game is written as.
    pub format: RecordFormat,
}

/// The record files of a simulated game: Tenhou's mjlog (what every stage of haifu reads), mjai
/// JSON lines gzipped (what Mortal, RiichiEnv and mjai.app read), or both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum RecordFormat {
    /// `sim-<seed>-<index>.mjlog`.
    #[default]
    Mjlog,
    /// `sim-<seed>-<index>.json.gz`, written as `haifu convert` writes it (replayed, re-scored,
    /// read back).
    Mjai,
    /// Both files.
    Both,
}

impl RecordFormat {
    fn mjlog(self) -> bool {
        self != RecordFormat::Mjai
    }

    fn mjai(self) -> bool {
        self != RecordFormat::Mjlog
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error(transparent)]
    UnknownBot(#[from] UnknownBot),
    #[error("--bots takes one bot or one per seat ({players}), got {got}")]
    BotCount { got: usize, players: u8 },
    #[error("--players takes 3 or 4, got {0}")]
    Players(u8),
    /// A bot whose player is four-player only at a three-player table ([`plays_three`]).
    #[error("bot {0} is four-player only (電脳麻将's ev, or trees fitted on four-player games): not at a three-player table")]
    FourPlayerBot(String),
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
}

/// One game that failed (an engine or bot bug; the run goes on).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GameFailure {
    pub index: usize,
    pub error: String,
}

/// The result of a run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SimReport {
    pub games: usize,
    pub rounds: usize,
    pub seconds: f64,
    pub games_per_second: f64,
    pub bots: Vec<BotSummary>,
    pub failures: Vec<GameFailure>,
    pub out: PathBuf,
}

impl SimReport {
    /// The text `haifu simulate` prints.
    pub fn text(&self) -> String {
        let mut s = format!(
            "{} games, {} rounds in {:.1} s ({:.1} games/s) -> {}\n\n{}",
            self.games,
            self.rounds,
            self.seconds,
            self.games_per_second,
            self.out.display(),
            to_markdown(&self.bots)
        );
        for f in self.failures.iter().take(20) {
            s.push_str(&format!("  failed game {}: {}\n", f.index, f.error));
        }
        s
    }
}

/// The file a game is written to.
pub fn game_path(dir: &Path, seed: u64, index: usize) -> PathBuf {
    dir.join(format!("sim-{seed}-{index}.mjlog"))
}

#[derive(Debug, thiserror::Error)]
enum OneError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Encode(#[from] EncodeError),
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("replay of the generated game: {0}")]
    Replay(String),
    #[error("mjai record of the generated game: {0}")]
    Mjai(String),
}

fn player(label: &str) -> Player {
    Player { name: label.to_string(), dan: Some(0), rate: Some(1500.0), sex: Some("C".into()) }
}

/// Plays game `index` and writes it. Returns the game, its seating and its outcome.
fn one_game(
    cfg: &SimConfig,
    bots: &[EvalBot; 4],
    labels: &[String],
    index: usize,
) -> Result<(Game, Seating, GameOutcome), OneError> {
    let seat = seating(cfg.seed, index, cfg.duplicate, cfg.players);
    let id = format!("sim-{}-{index}", cfg.seed);
    let spec = GameSpec {
        id: id.clone(),
        seed: seat.wall_seed,
        hanchan: cfg.hanchan,
        players: std::array::from_fn(|s| {
            if s < usize::from(cfg.players) {
                player(&labels[seat.bots[s]])
            } else {
                Player::default()
            }
        }),
        seats: cfg.players,
    };
    let at: [&dyn Bot; 4] = seat.bots.map(|b| &bots[b] as &dyn Bot);
    let game = play_game(&spec, at)?;
    if cfg.format.mjlog() {
        let xml = write_mjlog(&game, &format!("haifu-sim,seed={},set={},index={index}", cfg.seed, seat.set))?;
        let path = game_path(&cfg.out, cfg.seed, index);
        crate::util::write_atomic(&path, xml).map_err(|source| OneError::Io { path, source })?;
    }
    if cfg.format.mjai() {
        let gz = crate::convert::convert_game(&game).map_err(|e| OneError::Mjai(e.to_string()))?;
        let path = cfg.out.join(format!("{id}.json.gz"));
        crate::util::write_atomic(&path, gz).map_err(|source| OneError::Io { path, source })?;
    }
    let outcome = game_outcome(&game).map_err(|e| OneError::Replay(e.to_string()))?;
    Ok((game, seat, outcome))
}

/// Runs a simulation: plays, writes `sim-<seed>-<index>.mjlog` files, `summary.csv` and
/// `summary.md` into `cfg.out`.
pub fn simulate(cfg: &SimConfig) -> Result<SimReport, SimError> {
    let seats = usize::from(cfg.players);
    if !(3..=4).contains(&cfg.players) {
        return Err(SimError::Players(cfg.players));
    }
    let names: Vec<String> = match cfg.bots.len() {
        1 => vec![cfg.bots[0].clone(); seats],
        n if n == seats => cfg.bots.clone(),
        n => return Err(SimError::BotCount { got: n, players: cfg.players }),
    };
    let parsed: Vec<EvalBot> = names.iter().map(|n| parse_bot(n)).collect::<Result<_, _>>()?;
    if cfg.players == 3 {
        if let Some(b) = parsed.iter().find(|b| !plays_three(&b.name)) {
            return Err(SimError::FourPlayerBot(b.name.clone()));
        }
    }
    // At three players the fourth entries are placeholders no seat uses.
    let bots: [EvalBot; 4] = std::array::from_fn(|i| parsed[i.min(seats - 1)].clone());
    let labels: Vec<String> = (0..seats).map(|i| format!("{}:{}", i + 1, names[i].trim())).collect();
    std::fs::create_dir_all(&cfg.out).map_err(|source| SimError::Io { path: cfg.out.clone(), source })?;
    let n = game_count(cfg.games, cfg.duplicate, cfg.players);
    let bar = crate::batch::progress(n, "simulate");
    let started = Instant::now();
    let results: Vec<Result<(Game, Seating, GameOutcome), OneError>> =
        crate::batch::pool(cfg.jobs).install(|| {
            (0..n)
                .into_par_iter()
                .map(|i| {
                    let r = one_game(cfg, &bots, &labels, i);
                    bar.inc(1);
                    r
                })
                .collect()
        });
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let mut summaries: Vec<BotSummary> = labels.iter().map(|l| BotSummary::new(l.clone())).collect();
    let mut failures = Vec::new();
    let (mut games, mut rounds) = (0, 0);
    for (index, r) in results.into_iter().enumerate() {
        match r {
            Ok((game, seat, outcome)) => {
                games += 1;
                rounds += game.rounds.len();
                for s in 0..seats {
                    let result = game.final_results.map(|r| r[s]);
                    summaries[seat.bots[s]].add_seat(&outcome, s, result);
                }
            }
            Err(e) => failures.push(GameFailure { index, error: e.to_string() }),
        }
    }
    let write = |name: &str, text: String| {
        let path = cfg.out.join(name);
        crate::util::write_atomic(&path, text).map_err(|source| SimError::Io { path, source })
    };
    write("summary.csv", to_csv(&summaries))?;
    let header = format!(
        "# Simulation summary\n\n{} games ({}{}, {}), seed {}, bots {}; 95% intervals (Wilson for \
         rates, normal for means).\n\n",
        games,
        if cfg.players == 3 { "three players, " } else { "" },
        if cfg.hanchan { "hanchan" } else { "tonpuu" },
        if cfg.duplicate {
            format!("duplicate: each wall set played {seats} times, bots rotated")
        } else {
            "fixed seats".to_string()
        },
        cfg.seed,
        names.join(",")
    );
    write("summary.md", header + &to_markdown(&summaries))?;
    Ok(SimReport {
        games,
        rounds,
        seconds,
        games_per_second: games as f64 / seconds.max(1e-9),
        bots: summaries,
        failures,
        out: cfg.out.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::event::Event;

    fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap())
            })
            .collect();
        v.sort();
        v
    }

    /// Same seed, 1 or 2 threads: byte-identical files and summary; every file reads back and
    /// re-scores cleanly through the `haifu check` path.
    #[test]
    fn duplicate_run_is_deterministic_for_any_jobs() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let cfg = |out: &Path, jobs| SimConfig {
            games: 6,
            bots: vec!["ukeire".into(), "stress".into(), "ukeire".into(), "stress".into()],
            seed: 5,
            duplicate: true,
            hanchan: false,
            players: 4,
            out: out.to_path_buf(),
            jobs: Some(jobs),
            format: RecordFormat::Mjlog,
        };
        let ra = simulate(&cfg(a.path(), 1)).unwrap();
        let rb = simulate(&cfg(b.path(), 2)).unwrap();
        assert_eq!(ra.games, 8, "rounded up to two duplicate sets");
        assert!(ra.failures.is_empty() && rb.failures.is_empty(), "{:?}", ra.failures);
        let (fa, fb) = (files(a.path()), files(b.path()));
        assert_eq!(fa.len(), 10, "8 games + summary.csv + summary.md");
        assert_eq!(fa, fb);
        // Each bot played 8 games: 2 sets x 4 rotations, one per seat... per list position.
        for s in &ra.bots {
            assert_eq!(s.games, 8);
        }
        // The four games of a set are dealt the same first wall, whoever sits where.
        let first = |i: usize| {
            let p = game_path(a.path(), 5, i);
            crate::log::source::parse_game("x.mjlog", &std::fs::read(p).unwrap()).unwrap().rounds[0]
                .start
                .clone()
        };
        assert!((1..4).all(|i| first(i) == first(0)));
        assert_ne!(first(4).hands, first(0).hands);
        let out = crate::batch::run(&[a.path().to_path_buf()], Some(1), "check", |g| {
            let mut c = crate::replay::check::Rescore::default();
            crate::replay::replay_game(g, &mut (), &mut c).map_err(|e| e.to_string())
        });
        assert!(out.errors.is_empty(), "{:?}", out.errors);
        assert_eq!(out.results.len(), 8);
        assert!(out.results.iter().all(|(_, s)| s.mismatches.is_empty()));
    }

    #[test]
    fn bad_bot_lists_are_errors() {
        let d = tempfile::tempdir().unwrap();
        let mut cfg = SimConfig {
            games: 1,
            bots: vec!["ukeire".into(), "ukeire".into()],
            seed: 0,
            duplicate: false,
            hanchan: true,
            players: 4,
            out: d.path().to_path_buf(),
            jobs: Some(1),
            format: RecordFormat::Mjlog,
        };
        assert!(matches!(simulate(&cfg), Err(SimError::BotCount { got: 2, players: 4 })));
        cfg.players = 3;
        for four_only in ["ev", "majiang-0402", "trees"] {
            cfg.bots = vec![four_only.into()];
            assert!(matches!(simulate(&cfg), Err(SimError::FourPlayerBot(_))), "{four_only}");
        }
        cfg.players = 4;
        cfg.bots = vec!["nobody".into()];
        assert!(matches!(simulate(&cfg), Err(SimError::UnknownBot(_))));
    }

    /// `--format both`: each game's mjai file reads back (through the source sniffing every command
    /// uses) as the same game as its mjlog: the same rounds, discards and wins, all re-scoring.
    #[test]
    fn mjai_records_replay_as_their_mjlog() {
        let d = tempfile::tempdir().unwrap();
        let cfg = SimConfig {
            games: 2,
            bots: vec!["ukeire".into()],
            seed: 3,
            duplicate: false,
            hanchan: false,
            players: 4,
            out: d.path().to_path_buf(),
            jobs: Some(1),
            format: RecordFormat::Both,
        };
        let r = simulate(&cfg).unwrap();
        assert!(r.failures.is_empty(), "{:?}", r.failures);
        for i in 0..2 {
            let read = |p: PathBuf| {
                let name = p.to_string_lossy().to_string();
                let g = crate::log::source::parse_game(&name, &std::fs::read(&p).unwrap()).unwrap();
                let mut c = crate::replay::check::Rescore::default();
                let s = crate::replay::replay_game(&g, &mut (), &mut c).unwrap();
                assert!(s.mismatches.is_empty(), "{name}: {:?}", s.mismatches);
                (s.rounds, s.discards, s.agari)
            };
            let mjlog = read(game_path(d.path(), 3, i));
            let mjai = read(d.path().join(format!("sim-3-{i}.json.gz")));
            assert_eq!(mjai, mjlog, "game {i}");
            assert!(mjlog.1 > 0);
        }
    }

    /// Three players: duplicate sets of three games (each bot once at each seat), the walls of a
    /// set shared, and every record re-scored clean by the check path (wins, the end, the
    /// result, the norths set aside).
    #[test]
    fn three_player_games_check_clean() {
        let d = tempfile::tempdir().unwrap();
        let cfg = SimConfig {
            games: 6,
            bots: vec!["linear".into(), "stress".into(), "random".into()],
            seed: 8,
            duplicate: true,
            hanchan: true,
            players: 3,
            out: d.path().to_path_buf(),
            jobs: Some(2),
            format: RecordFormat::Both,
        };
        let r = simulate(&cfg).unwrap();
        assert!(r.failures.is_empty(), "{:?}", r.failures);
        assert_eq!((r.games, r.bots.len()), (6, 3));
        assert!(r.bots.iter().all(|b| b.games == 6));
        let out = crate::batch::run(&[d.path().to_path_buf()], Some(1), "check", |g| {
            let mut c = crate::replay::check::Rescore::default();
            let kita =
                g.rounds.iter().flat_map(|r| &r.events).filter(|e| matches!(e, Event::Kita { .. })).count();
            crate::replay::replay_game(g, &mut (), &mut c)
                .map(|s| (s, kita, g.rules.players))
                .map_err(|e| e.to_string())
        });
        assert!(out.errors.is_empty(), "{:?}", out.errors);
        assert_eq!(out.results.len(), 12, "6 mjlog + 6 mjai records");
        for (_, (s, _, players)) in &out.results {
            assert!(s.mismatches.is_empty() && s.complete(), "{:?} {:?}", s.mismatches, s.partial);
            assert_eq!(*players, 3);
        }
        assert!(out.results.iter().map(|(_, (_, k, _))| k).sum::<usize>() > 0, "norths were set aside");
    }
}
