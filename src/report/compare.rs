//! `haifu report`: the evaluators side by side on an ingested dataset — agreement with the human
//! picks overall and by shanten, turn and riichi situation, each with and without the push/fold
//! policy layer, how often the humans folded by hand-value class, and the positions where the
//! fitted linear evaluator and `ev` disagree with the human most. The scoring pass itself is
//! [`crate::eval::dataset`], shared with `haifu eval`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::error::{ReportError, Result};

use crate::eval::agreement::slice_order;
use crate::eval::dataset::{score, DatasetConfig, Scored, Tally};
use crate::fit::split::Split;
use crate::model::metrics::AgreementSum;
use crate::rank::Evaluator;
use crate::util::markdown::{pct, pct_ci, table};
use crate::util::plots::{lines, Line};
use crate::util::write_atomic;

/// What to compare: the dataset pass (every evaluator is scored whatever `enabled` says) and the
/// output folder.
pub struct ReportConfig {
    pub dataset: DatasetConfig,
    pub out: PathBuf,
}

/// Scores the dataset with every evaluator and writes `out/README.md` with its plots.
pub fn run(cfg: &ReportConfig) -> Result<String> {
    // Every evaluator; `trees` when its model exists (it is built by `make trees`, not shipped
    // with every checkout).
    let mut enabled = [true; Evaluator::COUNT];
    enabled[Evaluator::Trees.index()] = cfg.dataset.trees_model().exists();
    // At three players the four-player evaluators are left out (docs/evaluators.md): ev and the
    // push/fold layer that reads it, and a trees model unless one was given.
    let three = cfg.dataset.filter.players == 3;
    if three {
        enabled[Evaluator::Ev.index()] = false;
        enabled[Evaluator::Trees.index()] = cfg.dataset.has_trees_model();
    }
    let scored = score(&DatasetConfig { enabled, push_fold: !three, ..cfg.dataset.clone() })?;
    let shown: Vec<Evaluator> = Evaluator::ALL.into_iter().filter(|e| enabled[e.index()]).collect();
    write_report(cfg, &scored, &shown)
}

fn write_report(cfg: &ReportConfig, scored: &Scored, shown: &[Evaluator]) -> Result<String> {
    let (n, plain, with_pf) = (scored.decisions, &scored.plain, &scored.with_pf);
    let (out, d) = (&cfg.out, &cfg.dataset);
    let pf = d.filter.players == 4;
    std::fs::create_dir_all(out).map_err(|source| ReportError::Create { path: out.to_path_buf(), source })?;
    let mut md = String::new();
    md.push_str("# Evaluators against the human picks\n\n");
    md.push_str(&format!(
        "Data `{}`, weights `{}`. Decisions: {}{}: **{n}** decisions. \
         Ties are broken at random in expectation. Regenerate with `haifu report --data {} {} --seed {} --out {}`.\n\n",
        d.data.display(),
        d.weights.as_deref().unwrap_or(std::path::Path::new("-")).display(),
        d.filter,
        if d.split == Some(Split::Test) {
            format!(", test split of seed {} (games the fit never saw)", d.seed)
        } else {
            String::new()
        },
        d.data.display(),
        d.filter.cli_args(),
        d.seed,
        out.display()
    ));
    md.push_str("## Overall\n\n");
    let rows: Vec<Vec<String>> = shown
        .iter()
        .map(|name| (name.index(), name))
        .flat_map(|(e, name)| {
            let a = plain[e].overall.finish();
            let b = with_pf[e].overall.finish();
            let mut rows =
                vec![vec![name.to_string(), pct(a.top1), pct(a.top3), format!("{:.2}", a.mean_rank)]];
            if pf {
                rows.push(vec![
                    format!("{name} + push/fold"),
                    pct(b.top1),
                    pct(b.top3),
                    format!("{:.2}", b.mean_rank),
                ]);
            }
            rows
        })
        .collect();
    md.push_str(&table(&["evaluator", "top-1", "top-3", "mean rank"], &rows));
    if !pf {
        md.push_str(
            "\nThree-player games: `ev` and the push/fold layer (which reads it) are four-player \
             (電脳麻将's search: its wall, payments and opponents), so neither is shown; `trees` is the \
             three-player model (data/weights/trees-sanma.txt.gz) where there is one \
             (docs/evaluators.md).\n",
        );
    }
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
        let mut keys: Vec<String> = get(&plain[0]).keys().cloned().collect();
        keys.sort_by_key(|k| slice_order(k));
        let mut header = vec!["slice".to_string(), "n".to_string()];
        for name in shown {
            header.push(format!("{name} top-1"));
            if pf {
                header.push(format!("{name}+pf top-1"));
            }
        }
        let body: Vec<Vec<String>> = keys
            .iter()
            .map(|k| {
                let mut r =
                    vec![k.clone(), get(&plain[0]).get(k).map_or(0, |a| a.finish().decisions).to_string()];
                for e in shown.iter().map(|e| e.index()) {
                    r.push(pct(get(&plain[e]).get(k).map_or(f64::NAN, |a| a.finish().top1)));
                    if pf {
                        r.push(pct(get(&with_pf[e]).get(k).map_or(f64::NAN, |a| a.finish().top1)));
                    }
                }
                r
            })
            .collect();
        let h: Vec<&str> = header.iter().map(|s| s.as_str()).collect();
        md.push_str(&table(&h, &body));
        if pick == 0 {
            plot_by_shanten(&out.join("top1_by_shanten.png"), shown, plain, &keys)?;
            md.push_str("\n![top-1 by shanten](top1_by_shanten.png)\n");
        }
    }
    if pf {
        push_fold_sections(&mut md, d, scored);
    }
    write_atomic(&out.join("README.md"), &md)?;
    Ok(md)
}

/// The sections that read 電脳麻将's value (four players only): how often the human played safe
/// by hand-value class, and the positions where linear and ev disagree with the human most.
fn push_fold_sections(md: &mut String, d: &DatasetConfig, scored: &Scored) {
    let folded = &scored.folded;
    md.push_str(&format!(
        "\n## Push / fold: how often the human played a safe tile, by hand value\n\n\
         Decisions with an opponent in riichi, the player at shanten 2 or better, and both safe \
         (genbutsu, suji or honor against the most dangerous riichi player) and unsafe tiles to choose \
         from. Hand class by the best expected value among the options: weak < {}, good < {}, excellent.\n\n",
        d.thresholds.good, d.thresholds.excellent
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
    for w in &scored.worst {
        md.push_str(&format!(
            "- `{}` dora indicators `{}`: human **{}**, linear {}, ev {} (linear margin {:.2})\n",
            w.hand, w.dora_indicators, w.picks[0], w.picks[1], w.picks[2], w.margin
        ));
    }
}

/// Top-1 by shanten, one line per evaluator (shanten "3+" at 3): a bar per evaluator and shanten
/// left labels no one could read.
fn plot_by_shanten(
    path: &std::path::Path,
    shown: &[Evaluator],
    plain: &[Tally],
    keys: &[String],
) -> Result<()> {
    let at = |k: &str| k.trim_end_matches('+').parse::<f64>().ok();
    let ls: Vec<Line> = shown
        .iter()
        .map(|e| Line {
            name: e.to_string(),
            points: keys
                .iter()
                .filter_map(|k| Some((at(k)?, plain[e.index()].by_shanten.get(k)?.finish().top1)))
                .collect(),
        })
        .collect();
    lines(path, "Top-1 agreement by shanten", "shanten (3: 3 or more)", "top-1", &ls)
        .map_err(|e| ReportError::Plot(e.to_string()))
}
