//! The haifu command line: a thin layer that parses arguments and wires library stages together.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use haifu::eval::rank_discards;
use haifu::hand::Hand;
use haifu::rank::position::Position;
use haifu::rank::Evaluator;
use haifu::tile::{parse_mpsz, Kind, EAST};

#[derive(Parser)]
#[command(name = "haifu", version, about = "Tenhou game records into measured knowledge", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay every game with full validation and re-score every win against Tenhou's record.
    ///
    /// PATH may be mjlog XML (plain or gzipped), tenhou.net/6 JSON, folders (recursive), .zip
    /// archives, or SQLite databases of the phoenix-logs downloader. A file that fails is reported
    /// with the reason and the batch goes on. Exit status: 0 when everything read and agreed,
    /// 1 when anything failed or disagreed, 2 for bad usage, 3 for other errors.
    Check {
        /// Files, folders, archives or databases.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
        /// Worker threads (default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Every decision with all its options and their feature vectors, to parquet.
    ///
    /// Writes the tables games (one row per game), rounds, decisions (one row per decision:
    /// context and the chosen option) and options (one row per option: decision_id, option, chosen
    /// and the feature columns) into --out as folders of parts, `options/part-000012.parquet`, one
    /// part per --part-games input records, each complete part marked by `_parts/part-000012.json`;
    /// the schema is in docs/schema.md. Files that fail are listed and skipped; a killed run loses
    /// only the part in flight (--resume finishes it); output is the same for any --jobs.
    Ingest {
        /// Files, folders, archives or databases.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
        /// Worker threads (default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
        /// Input records per part.
        #[arg(long, default_value_t = 200)]
        part_games: usize,
        /// Keep the complete parts already in --out and ingest the rest (same inputs and options; a part written with other columns, by another haifu, is refused).
        #[arg(long, conflicts_with = "force")]
        resume: bool,
        /// Replace the dataset already in --out.
        #[arg(long)]
        force: bool,
        /// Only the records whose game id hashes (FNV-1a) to I mod N, e.g. 3/8: run the N shards
        /// on N machines and put their parts in one folder (part numbers do not clash).
        #[arg(long, default_value = "0/1")]
        shard: haifu::batch::Shard,
        /// Leave out costly option column groups (comma-separated): `ev` (ev, log_ev, ev_defined:
        /// 電脳麻将's expected value, about two thirds of the CPU time) and `ukeire2` (ukeire2_avg,
        /// ukeire2_sum: second-order ukeire, about 16%). For archive-scale runs that do not
        /// study those columns: `--skip ev,ukeire2` is about 5 times faster. The columns are
        /// absent from the options table, every other value is the same as a full run's; `fit`
        /// then fits without them (the `value` gate needs ev), `eval` takes `--evaluator`s
        /// other than ev and weights fitted on such data.
        #[arg(long, value_parser = haifu::dataset::skip::Skip::parse)]
        skip: Option<haifu::dataset::skip::Skip>,
    },
    /// Fit the weights of the linear evaluator to the recorded choices (a ranking loss).
    ///
    /// The default loss, softmax, is listwise: the chosen option against all the others at once.
    /// The pairwise losses, the chosen option against each other option in turn, are
    /// `--loss hinge` (with `--margin`) and `--loss logistic`.
    ///
    /// Reads an `haifu ingest` folder, keeps the decisions the filter selects, splits them by game
    /// (seeded) into train / validation / test, picks the L2 strength with the best validation
    /// top-1 agreement, and writes the weights file (JSON) with a markdown report and a
    /// loss-curve PNG beside it. Features are standardised internally; weights are reported in
    /// original units.
    Fit {
        /// Folder written by `haifu ingest`.
        #[arg(long)]
        data: PathBuf,
        /// Weights file to write.
        #[arg(long, default_value = "data/weights/default.json")]
        out: PathBuf,
        /// Ranking loss: softmax (listwise), hinge or logistic (pairwise).
        #[arg(long, value_enum, default_value = "softmax")]
        loss: haifu::model::weights::Loss,
        /// Hinge margin (0 allowed).
        #[arg(long, default_value_t = 1.0)]
        margin: f64,
        /// Width of the hinge's quadratic smoothing.
        #[arg(long, default_value_t = 0.1)]
        smoothing: f64,
        /// L2 strengths to try (comma-separated); the best on validation is kept.
        #[arg(long, value_delimiter = ',', default_value = "0.0001,0.001,0.01")]
        l2: Vec<f64>,
        #[command(flatten)]
        select: Select,
        /// Maximum L-BFGS iterations per fit.
        #[arg(long, default_value_t = 150)]
        max_iters: u64,
        /// Keep at most this many decisions (whole games, a seeded sample). Not needed to bound
        /// memory: see --memory-budget.
        #[arg(long)]
        max_decisions: Option<usize>,
        /// Decision data held in memory (e.g. 512M, 2G; default a quarter of RAM, at most 2G).
        /// Beyond it the decisions are written once to a temporary cache file beside --out and
        /// streamed back on every pass: peak memory stays flat however large the data, and the
        /// weights are exactly those of an in-memory fit.
        #[arg(long, value_parser = haifu::fit::store::parse_bytes)]
        memory_budget: Option<usize>,
        /// Leave out feature columns whose names start with any of these prefixes (comma-separated),
        /// e.g. `ev,log_ev` to fit without the expected-value features.
        #[arg(long, value_delimiter = ',')]
        drop: Vec<String>,
        /// Situation-dependent weights: copies of columns gated by a decision-level fact, one
        /// per level (repeatable). `GATE` copies every column, `GATE:PREFIX+PREFIX` the columns
        /// starting with those prefixes. Gates: shanten (0/1/2/3+ before the decision), riichi
        /// (an opponent in riichi or not), value (weak/good/excellent by the best expected value),
        /// turn (1-6/7-12/13+), stage (shanten × turn, 12 levels). E.g. `--interact shanten --interact riichi:safety_+ev`.
        #[arg(long = "interact")]
        interactions: Vec<String>,
    },
    /// Agreement of evaluators with the recorded choices over an ingested dataset.
    ///
    /// Top-1, top-3 and mean rank of the chosen option (ties broken at random in expectation),
    /// overall and by shanten before the decision, turn (1-6, 7-12, 13+), riichi situation,
    /// table level and human vs AI seat.
    Eval {
        /// Folder written by `haifu ingest`.
        #[arg(long)]
        data: PathBuf,
        /// Weights of the `linear` evaluator.
        #[arg(long, default_value = "data/weights/default.json")]
        weights: PathBuf,
        /// Evaluators to compare (repeat); default: ukeire, ev and linear (yaku scores each
        /// decision's hand and is slower).
        #[arg(long = "evaluator", value_enum)]
        evaluators: Vec<Evaluator>,
        #[command(flatten)]
        select: Select,
        /// Which games: all, or one split of the seeded game split (`test` = held-out games).
        #[arg(long, value_enum, default_value = "all")]
        split: SplitArg,
        /// Apply the push/fold layer over every evaluator: with an opponent in riichi, weak hands
        /// (best expected value below --good, or 3+ shanten) play the safest tile, good hands
        /// only genbutsu / suji / honors, excellent hands (from --excellent) anything.
        #[arg(long)]
        push_fold: bool,
        /// Expected value at which a hand is good rather than weak (with --push-fold).
        #[arg(long, default_value_t = 400.0)]
        good: f64,
        /// Expected value at which a hand is excellent (with --push-fold).
        #[arg(long, default_value_t = 1200.0)]
        excellent: f64,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Compare the evaluators (ukeire, ev, linear; each with and without push/fold) with the human
    /// picks, and write a markdown report with plots.
    ///
    /// Top-1 / top-3 agreement overall and by shanten, turn and riichi situation; how often the
    /// human played safe by hand-value class; the positions where linear and ev disagree with the
    /// human most. By default only the test split (games the fit never saw) of human houou discards.
    Report {
        /// Folder written by `haifu ingest`.
        #[arg(long)]
        data: PathBuf,
        /// Weights of the linear evaluator.
        #[arg(long, default_value = "data/weights/default.json")]
        weights: PathBuf,
        /// Output folder (README.md and PNG plots).
        #[arg(long, default_value = "reports")]
        out: PathBuf,
        #[command(flatten)]
        select: Select,
        /// Use every selected decision, not only the test split.
        #[arg(long)]
        all_games: bool,
        /// Expected value at which a hand is good (push safe tiles) rather than weak (fold).
        #[arg(long, default_value_t = 400.0)]
        good: f64,
        /// Expected value at which a hand is excellent (push anything).
        #[arg(long, default_value_t = 1200.0)]
        excellent: f64,
    },
    /// A review page of one game: the player's decisions against the `linear` evaluator.
    ///
    /// For every discard, riichi-or-dama and call offered to the player: the hand, dora
    /// indicators, riichi on the table, the player's choice and every option ranked by `linear`
    /// (discard weights from --weights, riichi.json and call.json beside them) with its expected
    /// value, ukeire and safety against each riichi; where the two differ, the features that
    /// decided it. RECORD may be any record haifu reads; a folder, archive or several records
    /// write one page per game plus index.html into --out (a folder then). The JSON schema
    /// (--json) is in docs/review.md.
    Review {
        /// A game record (or folders, archives, databases: a batch).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Review this player (by name); in a batch, games without them are skipped.
        #[arg(long, conflicts_with = "seat")]
        player: Option<String>,
        /// Review this seat (0 = the first dealer); default 0.
        #[arg(long, value_parser = clap::value_parser!(u8).range(0..4))]
        seat: Option<u8>,
        /// Discard weights of the linear evaluator (default data/weights/default.json).
        #[arg(long)]
        weights: Option<PathBuf>,
        /// The HTML page to write (a folder for a batch).
        #[arg(long)]
        out: PathBuf,
        /// Also write the review as JSON (schema_version 1; a folder for a batch).
        #[arg(long)]
        json: Option<PathBuf>,
        /// Worker threads for a batch (default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Print the option feature columns (name, family, meaning) and their storage types as markdown.
    Schema,
    /// Player and table statistics over archives: placements, stable dan, win / deal-in / riichi /
    /// call rates and their breakdowns, yaku, and four log studies...
    ///
    /// Writes into --out: `tables.parquet|csv` (overall and per table level), `players.parquet|csv`
    /// (per player name with at least --min-games games), `yaku.parquet|csv`, the study tables,
    /// PNG plots, a README.md with every figure, its denominator, its 95% interval and its
    /// definition, and the raw counts (`counts.parquet`, `run.json`).
    ///
    /// The counts add up: run `haifu stats` on each shard of an archive (on as many machines as
    /// you like), then `haifu stats --merge shard1/ shard2/ ... --out all/` writes exactly the
    /// report one run over everything would have written.
    ///
    /// Examples: `haifu stats ../logs --out stats --json | jq .overall.riichi_win_rate`;
    /// `haifu stats --merge out/s0 out/s1 --out out/stats`.
    Stats {
        /// Files, folders, archives or databases.
        #[arg(required_unless_present = "merge", conflicts_with = "merge")]
        paths: Vec<PathBuf>,
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
        /// Instead of reading logs, add up the counts of earlier `haifu stats --out` folders.
        #[arg(long, num_args = 1.., value_name = "DIR")]
        merge: Vec<PathBuf>,
        /// Only the records whose game id hashes (FNV-1a) to I mod N, as `haifu ingest --shard`:
        /// `--merge` the N outputs for the whole.
        #[arg(long, default_value = "0/1", value_name = "I/N", conflicts_with = "merge")]
        shard: haifu::batch::Shard,
        /// Players with fewer games are left out of the player tables (never out of the counts).
        #[arg(long, default_value_t = 10)]
        min_games: u64,
        /// Also print the overall and per-table figures as JSON (names as in the README glossary).
        #[arg(long)]
        json: bool,
        /// Worker threads (default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Shanten of a hand: the minimum and each form (standard, chiitoitsu, kokushi).
    ///
    /// HAND is mpsz notation (`123m456p789s1122z`, `0` = red five, 1z-7z = E S W N white green red)
    /// with 13 or 14 concealed tiles, or fewer when melds follow. Each meld is its own group after a
    /// space or comma: three equal tiles = pon, three in a row = chi, four equal = open kan,
    /// `(1111m)` = closed kan. Example: `haifu shanten "2367m34p11z 555z 789s"`.
    ///
    /// Majiang notation, as 電脳麻将 and kobalab's tools write it, works too (a leading suit
    /// letter tells it apart): `m34567p2388s5779p1`, `p456788s3477p0,p222=` (melds after commas,
    /// the called tile marked + / = / - by where it came from; `z1111` a closed kan).
    Shanten {
        /// The hand, e.g. "123m456p789s1122z" or "2367m34p11z 555z 789s".
        hand: String,
        /// Print JSON: {"shanten":s,"standard":a,"chiitoitsu":b,"kokushi":c} (null = form not possible).
        #[arg(long)]
        json: bool,
    },
    /// Self-play: N games of 4 bots under Tenhou rules, one mjlog per game plus a per-bot summary.
    ///
    /// Writes DIR/sim-<seed>-<index>.mjlog (readable by `haifu check` and every other stage),
    /// DIR/summary.csv and DIR/summary.md (placements, win / deal-in / riichi / call rates, score
    /// balance by outcome, with 95% intervals). With --duplicate each wall set is played 4 times
    /// with the bots rotated through the seats. The same seed gives the same files for any --jobs.
    Simulate {
        /// Games to play (a multiple of 4 with --duplicate; rounded up).
        #[arg(long)]
        games: usize,
        /// One bot for all seats or four, comma-separated: an evaluator name (ukeire) or stress.
        #[arg(long, value_delimiter = ',', required = true)]
        bots: Vec<String>,
        /// Seed of the walls (and of the stress bot's random choices).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Play each wall set 4 times, rotating the bots through the seats.
        #[arg(long)]
        duplicate: bool,
        /// East-only games (default: hanchan).
        #[arg(long)]
        tonpuu: bool,
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
        /// Worker threads (default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// What to discard: ranks every distinct discard of a 14-tile hand, best first.
    ///
    /// A red five and a plain five held together are ranked as two options. Remaining tile
    /// counts treat the hand and the dora indicators as seen. Hands pasted in majiang notation
    /// (`m34567p2388s5779p1`) name their drawn tile (the last one): `ev` then breaks exact ties
    /// as 電脳麻将 does, drawn tile first among equal isolated-tile values.
    Nanikiru {
        /// The hand with 14 tiles counting melds as 3: mpsz with melds as in `haifu shanten`, or
        /// majiang notation (`p456788s3477p0,p222=`).
        hand: String,
        /// A dora indicator (the tile shown, not the dora; `4p` or `p4`); repeat for kan dora.
        #[arg(long = "dora", value_name = "IND")]
        dora: Vec<String>,
        /// Round wind.
        #[arg(long, default_value = "E", value_parser = parse_wind)]
        round_wind: Kind,
        /// Seat wind.
        #[arg(long, default_value = "S", value_parser = parse_wind)]
        seat_wind: Kind,
        /// Which evaluator ranks the options (linear: the fitted weights, which agree with human
        /// houou discards far more often than ukeire; see reports/README.md).
        #[arg(long, value_enum, default_value = "linear")]
        evaluator: Evaluator,
        /// Print JSON: {"discard":"7s","options":[{"tile","score","shanten","ukeire"},...]}.
        #[arg(long)]
        json: bool,
        /// Weights file of the linear evaluator.
        #[arg(long)]
        weights: Option<PathBuf>,
        /// With the linear evaluator: each option's largest feature contributions (relative to
        /// the best option), so you see why one discard beat another.
        #[arg(long)]
        explain: bool,
        /// An opponent in riichi, given by their discards in mpsz (repeat for several); used by
        /// --push-fold.
        #[arg(long = "riichi", value_name = "DISCARDS")]
        riichi: Vec<String>,
        /// Apply the push/fold layer over the evaluator: against a riichi, weak hands (expected
        /// value < 400 or 3+ shanten) fold to the safest tile, good hands (< 1200) play only
        /// genbutsu / suji / honors, excellent hands push.
        #[arg(long)]
        push_fold: bool,
    },
}

/// Which decisions to use (shared by fit and eval).
#[derive(clap::Args, Clone, Debug)]
struct Select {
    /// Decision kind: discard, riichi or call.
    #[arg(long, default_value = "discard")]
    kind: String,
    /// Table levels to keep, comma-separated (houou, tokujou, joukyuu, ippan); default all.
    #[arg(long, value_delimiter = ',')]
    tables: Vec<String>,
    /// Seats to keep: human, ai or all.
    #[arg(long, value_enum, default_value = "human")]
    seats: Seats,
    /// Seed of the game split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fraction of games held out for validation.
    #[arg(long, default_value_t = 0.1)]
    validation: f64,
    /// Fraction of games held out for test.
    #[arg(long, default_value_t = 0.1)]
    test: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Seats {
    Human,
    Ai,
    All,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum SplitArg {
    All,
    Train,
    Validation,
    Test,
}

impl Select {
    fn filter(&self) -> haifu::dataset::filter::Filter {
        haifu::dataset::filter::Filter {
            kind: self.kind.clone(),
            tables: self.tables.clone(),
            ai: match self.seats {
                Seats::Human => Some(false),
                Seats::Ai => Some(true),
                Seats::All => None,
            },
        }
    }

    /// The scoring pass over `data` for these decisions (`haifu eval`, `haifu report`).
    fn dataset(
        &self,
        data: PathBuf,
        weights: PathBuf,
        split: Option<haifu::fit::split::Split>,
        push_fold: Option<haifu::rank::push_fold::Thresholds>,
        enabled: [bool; 4],
    ) -> haifu::eval::dataset::DatasetConfig {
        haifu::eval::dataset::DatasetConfig {
            data,
            weights: Some(weights),
            filter: self.filter(),
            seed: self.seed,
            validation: self.validation,
            test: self.test,
            split,
            thresholds: push_fold.unwrap_or_default(),
            push_fold: push_fold.is_some(),
            enabled,
        }
    }
}

fn parse_wind(s: &str) -> Result<Kind, String> {
    match s.to_ascii_uppercase().as_str() {
        "E" => Ok(EAST),
        "S" => Ok(EAST + 1),
        "W" => Ok(EAST + 2),
        "N" => Ok(EAST + 3),
        _ => Err(format!("wind must be E, S, W or N, not {s:?}")),
    }
}

/// A mistake on the command line that clap cannot see (a hand, a tile, a flag combination):
/// exit status 2, like clap's own usage errors. Every other error is a runtime error (exit 3).
#[derive(Debug)]
struct Usage(String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

fn usage(msg: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Usage(msg.into()))
}

/// Exit status: 0 success, 1 some input failed (the batch went on), 2 bad usage, 3 any other
/// runtime error (a file that cannot be written, a missing weights file, ...).
fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("haifu: error: {e:#}");
            if e.chain().any(|c| c.is::<Usage>()) {
                ExitCode::from(2)
            } else {
                ExitCode::from(3)
            }
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Check { paths, json, jobs } => return check(&paths, json, jobs),
        Command::Review { paths, player, seat, weights, out, json, jobs } => {
            return review_cmd(&paths, player, seat, weights.as_deref(), &out, json.as_deref(), jobs);
        }
        Command::Schema => {
            print!("{}", haifu::dataset::rows::features_markdown());
            print!(
                "\nStorage types of the option columns (first match wins):\n\n{}",
                haifu::dataset::storage::markdown()
            );
        }
        Command::Report { data, weights, out, select, all_games, good, excellent } => {
            let cfg = haifu::report::compare::ReportConfig {
                dataset: select.dataset(
                    data,
                    weights,
                    (!all_games).then_some(haifu::fit::split::Split::Test),
                    Some(haifu::rank::push_fold::Thresholds { good, excellent }),
                    [true; 4],
                ),
                out: out.clone(),
            };
            let md = haifu::report::compare::run(&cfg)?;
            let overall: Vec<&str> =
                md.lines().skip_while(|l| !l.starts_with("## Overall")).take(10).collect();
            println!("{}", overall.join("\n"));
            println!("wrote {}/README.md", out.display());
        }
        Command::Fit {
            data,
            out,
            loss,
            margin,
            smoothing,
            l2,
            select,
            max_iters,
            max_decisions,
            memory_budget,
            drop,
            interactions,
        } => {
            let interactions = interactions
                .iter()
                .map(|s| {
                    haifu::model::gates::Interaction::parse(s)
                        .map_err(|e| usage(format!("--interact {s:?}: {e:#}")))
                })
                .collect::<Result<Vec<_>>>()?;
            let cfg = haifu::fit::run::FitConfig {
                data,
                filter: select.filter(),
                loss: haifu::model::weights::LossParams { loss, margin, smoothing },
                l2_grid: l2,
                seed: select.seed,
                validation: select.validation,
                test: select.test,
                max_iters,
                max_decisions,
                memory: haifu::fit::load::Memory {
                    budget: memory_budget.unwrap_or_else(haifu::fit::store::default_budget),
                    spill_dir: out
                        .parent()
                        .filter(|p| !p.as_os_str().is_empty())
                        .unwrap_or(std::path::Path::new("."))
                        .to_path_buf(),
                },
                drop,
                interactions,
                out: out.clone(),
            };
            let (w, cost) = haifu::fit::run::fit(&cfg)?;
            let m = &w.metrics;
            println!(
                "fitted {} features on {} decisions (validation {}, test {}), l2 {}, {} iterations",
                w.features.len(),
                w.decisions.train,
                w.decisions.validation,
                w.decisions.test,
                w.l2,
                w.iterations
            );
            println!(
                "top-1 train {:.1}%  validation {:.1}%  test {:.1}%   top-3 test {:.1}%",
                m.train.top1 * 100.0,
                m.validation.top1 * 100.0,
                m.test.top1 * 100.0,
                m.test.top3 * 100.0
            );
            println!(
                "cost: {:.0} s wall, peak RSS {}, {} passes; decision data {:.0} MiB in memory, {:.0} MiB streamed",
                cost.wall_seconds,
                cost.peak_rss_mib.map_or("unknown".to_string(), |m| format!("{m:.0} MiB")),
                cost.passes,
                cost.in_memory_mib,
                cost.spilled_mib
            );
            println!(
                "wrote {}, {} and {}",
                out.display(),
                out.with_extension("md").display(),
                haifu::fit::run::cost_path(&out).display()
            );
        }
        Command::Eval { data, weights, evaluators, select, split, push_fold, good, excellent, json } => {
            let pf = push_fold.then_some(haifu::rank::push_fold::Thresholds { good, excellent });
            return eval_cmd(&data, &weights, &evaluators, &select, split, pf, json);
        }
        Command::Ingest { paths, out, jobs, json, part_games, resume, force, shard, skip } => {
            // HAIFU_INGEST_STOP_AFTER_PARTS=N stops after N parts, as a kill between parts would
            // (for testing --resume).
            let stop_after_parts =
                std::env::var("HAIFU_INGEST_STOP_AFTER_PARTS").ok().and_then(|v| v.parse().ok());
            let opts = haifu::dataset::ingest::IngestOptions {
                jobs,
                part_games,
                shard,
                resume,
                force,
                stop_after_parts,
                skip: skip.unwrap_or_default(),
            };
            let summary = haifu::dataset::ingest::run(&paths, &out, &opts)?;
            if json {
                println!("{}", serde_json::to_string(&summary)?);
            } else {
                println!(
                    "{} files, {} games, {} rounds, {} decisions, {} options -> {} ({} parts written, {} kept)",
                    summary.files,
                    summary.tally.games,
                    summary.tally.rounds,
                    summary.tally.decisions,
                    summary.tally.options,
                    out.display(),
                    summary.parts_written,
                    summary.parts_kept
                );
                for (k, n) in &summary.tally.decisions_by_kind {
                    println!("  {k:8} {n}");
                }
                for e in summary.tally.errors.iter().take(20) {
                    println!("  error {}: {}", e.file, e.error);
                }
            }
            return Ok(if summary.tally.errors.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) });
        }
        Command::Stats { paths, out, merge, shard, min_games, json, jobs } => {
            let run = if merge.is_empty() {
                haifu::stats::compute_shard(&paths, jobs, shard)
            } else {
                haifu::stats::output::merge(&merge)?
            };
            haifu::stats::output::write(&run, &out, min_games)?;
            if json {
                println!("{}", haifu::stats::overall_json(&run));
            } else {
                let s = &run.overall;
                println!(
                    "{} games, {} player-rounds: win {:.1}%, deal-in {:.1}%, riichi {:.1}%, call {:.1}%, avg placement {:.3}",
                    s.games / 4,
                    s.rounds,
                    s.win.value() * 100.0,
                    s.deal_in.value() * 100.0,
                    s.riichi.value() * 100.0,
                    s.call.value() * 100.0,
                    s.avg_placement.value()
                );
                println!(
                    "wrote {}/README.md (+ tables, players, plots); {} files failed",
                    out.display(),
                    run.errors.len()
                );
                for e in run.errors.iter().take(10) {
                    println!("  error {}: {}", e.file, e.error);
                }
            }
            return Ok(if run.errors.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) });
        }
        Command::Simulate { games, bots, seed, duplicate, tonpuu, out, jobs } => {
            let cfg =
                haifu::sim::run::SimConfig { games, bots, seed, duplicate, hanchan: !tonpuu, out, jobs };
            let report = haifu::sim::run::simulate(&cfg)?;
            print!("{}", report.text());
            return Ok(if report.failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) });
        }
        Command::Shanten { hand, json } => {
            let hand = Hand::parse(&hand).map_err(|e| usage(format!("bad hand {hand:?}: {e}")))?;
            let s = hand.shanten();
            if json {
                println!("{}", serde_json::to_string(&s)?);
            } else {
                let form = |v: Option<i8>| v.map_or("-".to_string(), |v| v.to_string());
                println!("hand        {hand}");
                println!("shanten     {}", s.shanten);
                println!("standard    {}", s.standard);
                println!("chiitoitsu  {}", form(s.chiitoitsu));
                println!("kokushi     {}", form(s.kokushi));
            }
        }
        Command::Nanikiru {
            hand,
            dora,
            round_wind,
            seat_wind,
            evaluator,
            json,
            weights,
            explain,
            riichi,
            push_fold,
        } => {
            // Majiang notation names the drawn tile (its last concealed tile): 電脳麻将's ties go to it.
            let drawn = if haifu::hand::majiang::is_majiang(&hand) {
                haifu::hand::majiang::parse(&hand).ok().and_then(|(_, d)| d)
            } else {
                None
            };
            let hand = Hand::parse(&hand).map_err(|e| usage(format!("bad hand {hand:?}: {e}")))?;
            if !hand.is_full() {
                return Err(usage(format!(
                    "nanikiru needs a hand whose turn it is: 14 tiles counting each meld as 3, got {}",
                    hand.tiles.len() + 3 * hand.melds.len()
                )));
            }
            let mut indicators = Vec::new();
            for d in &dora {
                let t = if haifu::hand::majiang::is_majiang(d) {
                    haifu::tile::parse_majiang(d)
                } else {
                    parse_mpsz(d)
                }
                .map_err(|e| usage(format!("bad dora indicator {d:?}: {e}")))?;
                if t.len() != 1 {
                    return Err(usage(format!("--dora takes one tile, got {d:?}")));
                }
                indicators.push(t[0]);
            }
            let mut pos = Position::new(hand, indicators, round_wind, seat_wind);
            pos.drawn = drawn;
            for r in &riichi {
                let discards =
                    parse_mpsz(r).map_err(|e| usage(format!("bad --riichi discards {r:?}: {e}")))?;
                for t in &discards {
                    pos.visible[t.kind()] = pos.visible[t.kind()].saturating_add(1);
                }
                pos.opponents_riichi
                    .push(haifu::rank::position::RiverInfo { discards, passed_after_riichi: Vec::new() });
            }
            let mut options = rank_discards(evaluator, &pos, weights.as_deref())?;
            if push_fold {
                options = haifu::rank::push_fold::push_fold(
                    &pos,
                    options,
                    &haifu::rank::push_fold::Thresholds::default(),
                );
            }
            let explained = if explain {
                if evaluator != Evaluator::Linear {
                    return Err(usage("--explain needs --evaluator linear"));
                }
                Some(haifu::model::linear::Linear::load(weights.as_deref())?.explain(&pos, 5)?)
            } else {
                None
            };
            if json {
                let mut out = serde_json::json!({
                    "discard": options[0].tile.to_string(),
                    "options": options,
                });
                if let Some(ex) = &explained {
                    out["explain"] = ex.iter().map(|(t, c)| (t.to_string(), serde_json::json!(c))).collect();
                }
                println!("{out}");
            } else {
                println!("hand {}  (evaluator: {:?})", pos.hand, evaluator);
                println!("{:>6} {:>8} {:>8} {:>10}", "tile", "shanten", "ukeire", "score");
                for o in &options {
                    println!("{:>6} {:>8} {:>8} {:>10.2}", o.tile.to_string(), o.shanten, o.ukeire, o.score);
                }
                println!("discard {}", options[0].tile);
                if let Some(ex) = &explained {
                    for o in &options {
                        let c = &ex.iter().find(|(t, _)| *t == o.tile).expect("explained option").1;
                        let parts: Vec<String> =
                            c.iter().map(|c| format!("{} {:+.2}", c.feature, c.contribution)).collect();
                        let what = if o.tile == options[0].tile { "largest terms" } else { "vs best" };
                        println!("  {:>3} {what}: {}", o.tile.to_string(), parts.join(", "));
                    }
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `haifu review`: one page for one record, or a batch of pages with an index.
fn review_cmd(
    paths: &[PathBuf],
    player: Option<String>,
    seat: Option<u8>,
    weights: Option<&std::path::Path>,
    out: &std::path::Path,
    json: Option<&std::path::Path>,
    jobs: Option<usize>,
) -> Result<ExitCode> {
    use haifu::report::review::{review_game, Models, Who};
    use haifu::report::review_batch::review_batch;
    let who = match (player, seat) {
        (Some(p), _) => Who::Player(p),
        (None, Some(s)) if s < 4 => Who::Seat(s),
        (None, Some(s)) => return Err(usage(format!("--seat {s}: seats are 0..=3"))),
        (None, None) => Who::Seat(0),
    };
    let models = Models::load(weights)?;
    let inputs = haifu::log::source::expand(paths);
    let single = inputs.sources.len() == 1
        && inputs.errors.is_empty()
        && out.extension().is_some_and(|e| e.eq_ignore_ascii_case("html"));
    if single {
        let src = &inputs.sources[0];
        let game = src.load().with_context(|| format!("cannot read {}", src.name))?;
        let Some(s) = who.seat(&game) else {
            let names: Vec<&str> = game.players.iter().map(|p| p.name.as_str()).collect();
            let who = match &who {
                Who::Player(p) => format!("player {p:?}"),
                Who::Seat(s) => format!("seat {s}"),
            };
            return Err(usage(format!(
                "{who} does not play in {} (players: {})",
                src.name,
                names.join(", ")
            )));
        };
        let review = review_game(&game, &src.name, s, &models).with_context(|| src.name.clone())?;
        for f in std::iter::once(out).chain(json) {
            if let Some(dir) = f.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            }
        }
        haifu::util::write_atomic(out, haifu::report::review_html::page(&review))?;
        if let Some(j) = json {
            haifu::util::write_atomic(j, review.to_json())?;
        }
        let a = &review.summary.game;
        println!(
            "{} ({}, seat {}): {} decisions, linear top-1 {:.0}%, top-3 {:.0}% -> {}",
            review.game.id,
            review.player,
            review.seat,
            a.decisions,
            100.0 * a.top1_rate(),
            100.0 * a.top3_rate(),
            out.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let report = review_batch(paths, &who, &models, out, json, jobs)?;
    let (n, t1) = report.entries.iter().fold((0, 0), |a, e| (a.0 + e.decisions, a.1 + e.top1));
    println!(
        "{} files, {} pages ({} decisions, linear top-1 {:.0}%), {} games without the player, {} failed -> {}",
        report.files,
        report.entries.len(),
        n,
        100.0 * t1 as f64 / n.max(1) as f64,
        report.without_player,
        report.errors.len(),
        out.join("index.html").display()
    );
    for e in report.errors.iter().take(20) {
        println!("  error {}: {}", e.file, e.error);
    }
    Ok(if report.errors.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `haifu check`: replay and re-score everything, print the summary.
fn check(paths: &[PathBuf], json: bool, jobs: Option<usize>) -> Result<ExitCode> {
    use haifu::replay::{check::Rescore, replay_game};
    let out = haifu::batch::run(paths, jobs, "check", |game| {
        replay_game(game, &mut (), &mut Rescore::default()).map_err(|e| format!("replay: {e}"))
    });
    let games = out.results.len();
    let rounds: usize = out.results.iter().map(|(_, s)| s.rounds).sum();
    let discards: usize = out.results.iter().map(|(_, s)| s.discards).sum();
    let agari: usize = out.results.iter().map(|(_, s)| s.agari).sum();
    let mismatches: Vec<serde_json::Value> = out
        .results
        .iter()
        .flat_map(|(f, s)| s.mismatches.iter().map(move |m| serde_json::json!({"file": f, "detail": m})))
        .collect();
    let ok = out.errors.is_empty() && mismatches.is_empty();
    if json {
        let v = serde_json::json!({
            "files": out.files,
            "games": games,
            "rounds": rounds,
            "discards": discards,
            "agari": agari,
            "agari_mismatches": mismatches.len(),
            "errors": out.errors,
            "mismatches": mismatches,
            "skipped": out.skipped.iter().map(|s| serde_json::json!({"file": s.name, "reason": format!("{:?}", s.reason)})).collect::<Vec<_>>(),
        });
        println!("{v}");
    } else {
        println!("files      {}", out.files);
        println!("games      {games}");
        println!("rounds     {rounds}");
        println!("discards   {discards}");
        println!("agari      {agari}");
        println!("mismatches {}", mismatches.len());
        println!("errors     {}", out.errors.len());
        println!("skipped    {}", out.skipped.len());
        for e in out.errors.iter().take(20) {
            println!("  error {}: {}", e.file, e.error);
        }
        for m in mismatches.iter().take(20) {
            println!(
                "  mismatch {}: {}",
                m["file"].as_str().unwrap_or(""),
                m["detail"].as_str().unwrap_or("")
            );
        }
        if out.errors.len() + mismatches.len() > 40 {
            println!("  ... (use --json for the full list)");
        }
    }
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `haifu eval`: agreement of each evaluator with the recorded choices.
fn eval_cmd(
    data: &std::path::Path,
    weights: &std::path::Path,
    evaluators: &[Evaluator],
    select: &Select,
    split: SplitArg,
    push_fold: Option<haifu::rank::push_fold::Thresholds>,
    json: bool,
) -> Result<ExitCode> {
    use haifu::fit::split::Split;
    let evaluators = if evaluators.is_empty() {
        vec![Evaluator::Ukeire, Evaluator::Ev, Evaluator::Linear]
    } else {
        evaluators.to_vec()
    };
    let mut enabled = [false; 4];
    for e in &evaluators {
        enabled[e.index()] = true;
    }
    let which = match split {
        SplitArg::All => None,
        SplitArg::Train => Some(Split::Train),
        SplitArg::Validation => Some(Split::Validation),
        SplitArg::Test => Some(Split::Test),
    };
    let scored = haifu::eval::dataset::score(&select.dataset(
        data.to_path_buf(),
        weights.to_path_buf(),
        which,
        push_fold,
        enabled,
    ))?;
    let mut results = serde_json::Map::new();
    for e in &evaluators {
        let i = e.index();
        let tally = if push_fold.is_some() { &scored.with_pf[i] } else { &scored.plain[i] };
        results.insert(e.name().to_string(), serde_json::to_value(tally.sliced())?);
    }
    let subset_len = scored.decisions;
    if json {
        println!(
            "{}",
            serde_json::json!({"decisions": subset_len, "push_fold": push_fold, "evaluators": results})
        );
    } else {
        let pf = match push_fold {
            Some(t) => format!(", push/fold at {} / {}", t.good, t.excellent),
            None => String::new(),
        };
        println!("{subset_len} {} decisions ({:?} split{pf})", select.kind, split);
        for (name, v) in &results {
            let f = |x: &serde_json::Value| x.as_f64().unwrap_or(f64::NAN) * 100.0;
            println!(
                "{name:8} top-1 {:5.1}%  top-3 {:5.1}%  mean rank {:.2}",
                f(&v["top1"]),
                f(&v["top3"]),
                v["mean_rank"].as_f64().unwrap_or(f64::NAN)
            );
            for slice in ["by_shanten", "by_turn", "by_riichi", "by_table", "by_seat"] {
                if let Some(m) = v[slice].as_object() {
                    let mut keys: Vec<&String> = m.keys().collect();
                    keys.sort_by_key(|k| haifu::eval::agreement::slice_order(k));
                    let parts: Vec<String> = keys
                        .into_iter()
                        .map(|k| (k, &m[k]))
                        .map(|(k, a)| format!("{k} {:.1}% (n={})", f(&a["top1"]), a["decisions"]))
                        .collect();
                    println!("  {slice:11} {}", parts.join("  "));
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
