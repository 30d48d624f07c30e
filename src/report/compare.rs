//! `haifu report`: the evaluators side by side on an ingested dataset — agreement with the human
//! picks overall and by shanten, turn and riichi situation, each with and without the push/fold
//! policy layer, how often the humans folded by hand-value class, and the positions where the
//! fitted linear evaluator and `ev` disagree with the human most.
//!
//! One streaming pass over options.parquet scores every option of the selected decisions with
//! each evaluator (all are functions of the option columns), so memory holds one slice.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, Result};
use polars::prelude::{ParquetReader, SerReader};

use crate::eval::agreement::{ev_weights, linear_weights, turn_bucket, ukeire_weights};
use crate::eval::push_fold::Thresholds;
use crate::fit::load::{feature_columns, Filter};
use crate::fit::split::{split_of, Split};
use crate::fit::train::AgreementSum;
use crate::fit::weights::WeightsFile;
use crate::report::markdown::{pct, pct_ci, table};
use crate::report::plots::{bars, Bar};
use crate::report::write_atomic;
use crate::stats::players::Rate;

/// What to compare.
pub struct ReportConfig {
    pub data: PathBuf,
    pub weights: PathBuf,
    pub filter: Filter,
    pub seed: u64,
    pub validation: f64,
    pub test: f64,
    /// Only the test split (games the fit never saw); else every selected decision.
    pub test_only: bool,
    pub out: PathBuf,
    pub thresholds: Thresholds,
}

const EVALUATORS: [&str; 4] = ["ukeire", "ev", "yaku", "linear"];
const YAKU: usize = 2;
const LINEAR: usize = 3;

/// One option as the report needs it.
#[derive(Clone, Debug)]
struct Opt {
    label: String,
    chosen: bool,
    scores: [f64; 4],
    ev: f64,
    ev_defined: bool,
    safe: bool,
    danger: f64,
}

/// One decision's context.
#[derive(Clone, Debug)]
struct Ctx {
    shanten: i8,
    turn: u8,
    riichi: bool,
}

#[derive(Default)]
struct Tally {
    overall: AgreementSum,
    by_shanten: BTreeMap<String, AgreementSum>,
    by_turn: BTreeMap<String, AgreementSum>,
    by_riichi: BTreeMap<String, AgreementSum>,
}

impl Tally {
    fn add(&mut self, c: &Ctx, better: usize, ties: usize) {
        self.overall.add(better, ties);
        let s = if c.shanten >= 3 { "3+".to_string() } else { c.shanten.to_string() };
        self.by_shanten.entry(s).or_default().add(better, ties);
        self.by_turn.entry(turn_bucket(c.turn).to_string()).or_default().add(better, ties);
        let r = if c.riichi { "riichi" } else { "no riichi" };
        self.by_riichi.entry(r.to_string()).or_default().add(better, ties);
    }
}

/// Options above / tied with the chosen one under `score`.
fn rank_of(opts: &[Opt], score: impl Fn(&Opt) -> f64) -> (usize, usize) {
    let c = opts.iter().find(|o| o.chosen).map(&score).unwrap_or(f64::NAN);
    let better = opts.iter().filter(|o| !o.chosen && score(o) > c + 1e-9).count();
    let ties = opts.iter().filter(|o| !o.chosen && (score(o) - c).abs() <= 1e-9).count();
    (better, ties)
}

/// Hand-value class by the best expected value among the options (weak / good / excellent).
fn hand_class(opts: &[Opt], t: &Thresholds) -> &'static str {
    let best = opts.iter().filter(|o| o.ev_defined).map(|o| o.ev).fold(f64::NEG_INFINITY, f64::max);
    if !best.is_finite() || best < t.good {
        "weak"
    } else if best < t.excellent {
        "good"
    } else {
        "excellent"
    }
}

/// The push/fold layer over an evaluator's scores: weak hands play the safest tile, good hands
/// play safe tiles (genbutsu, suji, honors) first in the evaluator's order, excellent hands keep
/// the evaluator's order. Returns re-ranked scores.
fn push_fold_scores(opts: &[Opt], e: usize, class: &str) -> Vec<f64> {
    opts.iter()
        .map(|o| match class {
            "weak" => -o.danger * 1e6 + o.scores[e] * 1e-9,
            "good" => {
                if o.safe {
                    1e12 + o.scores[e]
                } else {
                    -o.danger * 1e6 + o.scores[e] * 1e-9
                }
            }
            _ => o.scores[e],
        })
        .collect()
}

/// Fills the yaku evaluator's score of each option from the decision's hand (the yaku function
/// needs the shape, not the feature columns). Options it cannot place keep 0.
fn yaku_scores(opts: &mut [Opt], hand: &str, dora: &str, round_wind: u8, seat: u8, dealer: u8) {
    let Ok(h) = crate::hand::Hand::parse(hand) else { return };
    let indicators = crate::tile::parse_mpsz(dora).unwrap_or_default();
    let seat_wind = crate::tile::EAST + ((seat + 4 - dealer) % 4) as usize;
    let pos = crate::eval::Position::new(h, indicators, crate::tile::EAST + round_wind as usize, seat_wind);
    let ranked = crate::eval::yaku_eval::rank(&pos);
    for o in opts.iter_mut() {
        if let Some(r) = ranked.iter().find(|r| r.tile.to_string() == o.label) {
            o.scores[YAKU] = r.score;
        }
    }
}

fn col_f32(df: &polars::prelude::DataFrame, name: &str) -> Result<Vec<f32>> {
    Ok(df
        .column(name)
        .with_context(|| format!("column {name}"))?
        .f32()?
        .iter()
        .map(|x| x.unwrap_or(0.0))
        .collect())
}

/// Runs the comparison and writes `out/README.md` with its plots.
pub fn run(cfg: &ReportConfig) -> Result<String> {
    let dpath = cfg.data.join("decisions.parquet");
    let opath = cfg.data.join("options.parquet");
    let decisions = ParquetReader::new(
        std::fs::File::open(&dpath).with_context(|| format!("cannot open {}", dpath.display()))?,
    )
    .with_columns(Some(
        [
            "game_id",
            "kind",
            "is_ai",
            "table",
            "shanten",
            "turn",
            "any_riichi",
            "hand",
            "dora_indicators",
            "round_wind",
            "seat",
            "dealer",
        ]
        .map(String::from)
        .to_vec(),
    ))
    .finish()?;
    let strs = |n: &str| -> Result<Vec<String>> {
        Ok(decisions.column(n)?.str()?.iter().map(|x| x.unwrap_or("").to_string()).collect())
    };
    let (game, kind, table_col, hand, dora) =
        (strs("game_id")?, strs("kind")?, strs("table")?, strs("hand")?, strs("dora_indicators")?);
    let is_ai: Vec<bool> = decisions.column("is_ai")?.bool()?.iter().map(|x| x.unwrap_or(false)).collect();
    let shanten: Vec<i8> = decisions.column("shanten")?.i8()?.iter().map(|x| x.unwrap_or(0)).collect();
    let turn: Vec<u8> = decisions.column("turn")?.u8()?.iter().map(|x| x.unwrap_or(0)).collect();
    let riichi: Vec<bool> =
        decisions.column("any_riichi")?.bool()?.iter().map(|x| x.unwrap_or(false)).collect();
    let u8s = |n: &str| -> Result<Vec<u8>> {
        Ok(decisions.column(n)?.u8()?.iter().map(|x| x.unwrap_or(0)).collect())
    };
    let (round_wind, seat, dealer) = (u8s("round_wind")?, u8s("seat")?, u8s("dealer")?);
    let keep: Vec<bool> = (0..game.len())
        .map(|i| {
            kind[i] == cfg.filter.kind
                && (cfg.filter.tables.is_empty() || cfg.filter.tables.contains(&table_col[i]))
                && cfg.filter.ai.is_none_or(|a| a == is_ai[i])
                && (!cfg.test_only || split_of(&game[i], cfg.seed, cfg.validation, cfg.test) == Split::Test)
        })
        .collect();

    let names = feature_columns(&cfg.data)?;
    let weights = WeightsFile::read(&cfg.weights)?;
    // The yaku evaluator is not a function of the columns: it is scored from the hand (below).
    let w: [Vec<f64>; 4] = [
        ukeire_weights(&names),
        ev_weights(&names),
        vec![0.0; names.len()],
        linear_weights(&weights, &names),
    ];
    let mut columns = vec!["decision_id".to_string(), "option".to_string(), "chosen".to_string()];
    columns.extend(names.iter().cloned());

    let mut plain: [Tally; 4] = Default::default();
    let mut with_pf: [Tally; 4] = Default::default();
    let mut folded: BTreeMap<&'static str, Rate> = BTreeMap::new();
    let mut worst: Vec<(f64, usize, [String; 3])> = Vec::new();
    let mut decisions_used = 0usize;
    let mut current: Option<u64> = None;
    let mut opts: Vec<Opt> = Vec::new();
    let mut finish = |id: u64, opts: &mut Vec<Opt>| {
        let i = id as usize;
        if opts.len() >= 2 && opts.iter().filter(|o| o.chosen).count() == 1 {
            decisions_used += 1;
            yaku_scores(opts, &hand[i], &dora[i], round_wind[i], seat[i], dealer[i]);
            let ctx = Ctx { shanten: shanten[i], turn: turn[i], riichi: riichi[i] };
            let class = hand_class(opts, &cfg.thresholds);
            for e in 0..EVALUATORS.len() {
                let (b, t) = rank_of(opts, |o| o.scores[e]);
                plain[e].add(&ctx, b, t);
                if ctx.riichi {
                    let pf = push_fold_scores(opts, e, class);
                    let idx: Vec<usize> = (0..opts.len()).collect();
                    let (b, t) = {
                        let c = idx.iter().find(|&&k| opts[k].chosen).map(|&k| pf[k]).unwrap_or(f64::NAN);
                        let better = idx.iter().filter(|&&k| !opts[k].chosen && pf[k] > c + 1e-9).count();
                        let ties =
                            idx.iter().filter(|&&k| !opts[k].chosen && (pf[k] - c).abs() <= 1e-9).count();
                        (better, ties)
                    };
                    with_pf[e].add(&ctx, b, t);
                } else {
                    with_pf[e].add(&ctx, b, t);
                }
            }
            if ctx.riichi && ctx.shanten <= 2 {
                let chosen_safe = opts.iter().any(|o| o.chosen && o.safe);
                let any_unsafe = opts.iter().any(|o| !o.safe);
                let any_safe = opts.iter().any(|o| o.safe);
                if any_safe && any_unsafe {
                    folded.entry(class).or_default().add(chosen_safe);
                }
            }
            // Where linear and ev both disagree with the human: margin of linear's pick.
            let pick =
                |e: usize| opts.iter().max_by(|a, b| a.scores[e].total_cmp(&b.scores[e])).expect("options");
            let (lp, ep) = (pick(LINEAR), pick(1));
            if !lp.chosen && !ep.chosen {
                let c = opts.iter().find(|o| o.chosen).expect("chosen");
                let margin = lp.scores[LINEAR] - c.scores[LINEAR];
                worst.push((margin, i, [c.label.clone(), lp.label.clone(), ep.label.clone()]));
                worst.sort_by(|a, b| b.0.total_cmp(&a.0));
                worst.truncate(8);
            }
        }
        opts.clear();
    };
    let ci = |n: &str| names.iter().position(|x| x == n);
    let (c_ev, c_evd, c_gen, c_suji, c_honor, c_danger) = (
        ci("ev"),
        ci("ev_defined"),
        ci("safety_worst_genbutsu"),
        ci("safety_worst_suji"),
        ci("safety_worst_honor"),
        ci("safety_worst_danger_est"),
    );
    crate::dataset::parquet::for_each_slice(&opath, &columns, 200_000, |df| {
        let did: Vec<u64> = df.column("decision_id")?.u64()?.iter().map(|x| x.unwrap_or(0)).collect();
        let chosen: Vec<bool> = df.column("chosen")?.bool()?.iter().map(|x| x.unwrap_or(false)).collect();
        let label: Vec<String> =
            df.column("option")?.str()?.iter().map(|x| x.unwrap_or("").to_string()).collect();
        let feats: Vec<Vec<f32>> = names.iter().map(|n| col_f32(df, n)).collect::<Result<_>>()?;
        for r in 0..df.height() {
            let id = did[r];
            if current != Some(id) {
                if let Some(p) = current {
                    finish(p, &mut opts);
                }
                current = Some(id);
            }
            if !keep.get(id as usize).copied().unwrap_or(false) {
                continue;
            }
            let x = |c: Option<usize>| c.map_or(0.0, |c| feats[c][r] as f64);
            let mut scores = [0.0; 4];
            for (e, we) in w.iter().enumerate().filter(|(e, _)| *e != YAKU) {
                scores[e] =
                    feats.iter().zip(we).filter(|(_, &wj)| wj != 0.0).map(|(f, &wj)| f[r] as f64 * wj).sum();
            }
            opts.push(Opt {
                label: label[r].clone(),
                chosen: chosen[r],
                scores,
                ev: x(c_ev),
                ev_defined: x(c_evd) > 0.5,
                safe: x(c_gen) + x(c_suji) + x(c_honor) > 0.5,
                danger: x(c_danger),
            });
        }
        Ok(())
    })?;
    if let Some(p) = current {
        finish(p, &mut opts);
    }
    write_report(cfg, decisions_used, &plain, &with_pf, &folded, &worst, &hand, &dora)
}

#[allow(clippy::too_many_arguments)]
fn write_report(
    cfg: &ReportConfig,
    n: usize,
    plain: &[Tally; 4],
    with_pf: &[Tally; 4],
    folded: &BTreeMap<&'static str, Rate>,
    worst: &[(f64, usize, [String; 3])],
    hand: &[String],
    dora: &[String],
) -> Result<String> {
    std::fs::create_dir_all(&cfg.out).with_context(|| format!("cannot create {}", cfg.out.display()))?;
    let mut md = String::new();
    md.push_str("# Evaluators against the human picks\n\n");
    md.push_str(&format!(
        "Data `{}`, weights `{}`. Decisions: kind `{}`, tables {:?}, AI seats {:?}{}: **{n}** decisions. \
         Ties are broken at random in expectation. Regenerate with `haifu report --data DIR --out {}`.\n\n",
        cfg.data.display(),
        cfg.weights.display(),
        cfg.filter.kind,
        cfg.filter.tables,
        cfg.filter.ai,
        if cfg.test_only {
            format!(", test split of seed {} (games the fit never saw)", cfg.seed)
        } else {
            String::new()
        },
        cfg.out.display()
    ));
    md.push_str("## Overall\n\n");
    let rows: Vec<Vec<String>> = EVALUATORS
        .iter()
        .enumerate()
        .flat_map(|(e, name)| {
            let a = plain[e].overall.finish();
            let b = with_pf[e].overall.finish();
            vec![
                vec![name.to_string(), pct(a.top1), pct(a.top3), format!("{:.2}", a.mean_rank)],
                vec![format!("{name} + push/fold"), pct(b.top1), pct(b.top3), format!("{:.2}", b.mean_rank)],
            ]
        })
        .collect();
    md.push_str(&table(&["evaluator", "top-1", "top-3", "mean rank"], &rows));
    for (title, pick) in [
        ("By shanten before the decision", 0usize),
        ("By turn (the player's draws)", 1),
        ("By riichi situation (push/fold applies only with a riichi)", 2),
    ] {
        md.push_str(&format!("\n## {title}\n\n"));
        let get = |t: &Tally| -> BTreeMap<String, AgreementSum> {
            match pick {
                0 => t.by_shanten.clone(),
                1 => t.by_turn.clone(),
                _ => t.by_riichi.clone(),
            }
        };
        let keys: Vec<String> = get(&plain[0]).keys().cloned().collect();
        let mut header = vec!["slice".to_string(), "n".to_string()];
        for name in EVALUATORS {
            header.push(format!("{name} top-1"));
            header.push(format!("{name}+pf top-1"));
        }
        let body: Vec<Vec<String>> = keys
            .iter()
            .map(|k| {
                let mut r =
                    vec![k.clone(), get(&plain[0]).get(k).map_or(0, |a| a.finish().decisions).to_string()];
                for e in 0..EVALUATORS.len() {
                    r.push(pct(get(&plain[e]).get(k).map_or(f64::NAN, |a| a.finish().top1)));
                    r.push(pct(get(&with_pf[e]).get(k).map_or(f64::NAN, |a| a.finish().top1)));
                }
                r
            })
            .collect();
        let h: Vec<&str> = header.iter().map(|s| s.as_str()).collect();
        md.push_str(&table(&h, &body));
        if pick == 0 {
            let mut bs = Vec::new();
            for k in &keys {
                for (e, name) in EVALUATORS.iter().enumerate() {
                    let a = plain[e].by_shanten.get(k).map(|a| a.finish());
                    if let Some(a) = a {
                        bs.push(Bar {
                            label: format!("{name} s{k}"),
                            value: a.top1,
                            lo: f64::NAN,
                            hi: f64::NAN,
                        });
                    }
                }
            }
            bars(&cfg.out.join("top1_by_shanten.png"), "Top-1 agreement by shanten", "top-1", &bs)
                .map_err(|e| anyhow::anyhow!("plot: {e}"))?;
            md.push_str("\n![top-1 by shanten](top1_by_shanten.png)\n");
        }
    }
    md.push_str(&format!(
        "\n## Push / fold: how often the human played a safe tile, by hand value\n\n\
         Decisions with an opponent in riichi, the player at shanten 2 or better, and both safe \
         (genbutsu, suji or honor against the most dangerous riichi player) and unsafe tiles to choose \
         from. Hand class by the best expected value among the options: weak < {}, good < {}, excellent.\n\n",
        cfg.thresholds.good, cfg.thresholds.excellent
    ));
    let rows: Vec<Vec<String>> = ["weak", "good", "excellent"]
        .iter()
        .map(|c| {
            let r = folded.get(c).copied().unwrap_or_default();
            let (lo, hi) = r.ci95();
            vec![c.to_string(), r.n.to_string(), pct_ci(r.value(), lo, hi)]
        })
        .collect();
    md.push_str(&table(&["hand class", "decisions", "played safe (95% CI)"], &rows));
    md.push_str("\n## Where the fitted linear evaluator and ev disagree with the human most\n\n");
    md.push_str("Positions where both pick another tile than the human, largest linear margin first.\n\n");
    for (margin, i, picks) in worst {
        md.push_str(&format!(
            "- `{}` dora indicators `{}`: human **{}**, linear {}, ev {} (linear margin {:.2})\n",
            hand[*i], dora[*i], picks[0], picks[1], picks[2], margin
        ));
    }
    write_atomic(&cfg.out.join("README.md"), &md)?;
    Ok(md)
}
