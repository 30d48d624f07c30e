//! `haifu fit`: load, choose the L2 strength on the validation split, fit, measure every split,
//! and write the weights file with a markdown report and a loss-curve plot beside it.

use std::path::{Path, PathBuf};

use super::error::{FitError, Result};

use super::load::{load, Loaded, Memory};
use super::train::{agreement, minimise_rounds, Objective};
use crate::model::filter::Filter;
use crate::model::metrics::Agreement;
use crate::model::weights::{
    FitCost, L2Trial, Loss, LossParams, NamedWeight, SplitCounts, SplitMetrics, WeightsFile, SEED_PINNED,
    SEED_PIN_WEIGHT,
};
use crate::util::markdown::{pct, table};
use crate::util::plots::{lines, Line};
use crate::util::write_atomic;

/// Everything `haifu fit` needs.
#[derive(Clone, Debug)]
pub struct FitConfig {
    pub data: PathBuf,
    pub filter: Filter,
    pub loss: LossParams,
    pub l2_grid: Vec<f64>,
    pub seed: u64,
    pub validation: f64,
    pub test: f64,
    pub max_iters: u64,
    pub max_decisions: Option<usize>,
    /// Decision data held in memory; beyond it, streamed from a cache file.
    pub memory: Memory,
    /// Feature-name prefixes to leave out.
    pub drop: Vec<String>,
    /// Feature-name prefixes to fit, the others left out (all when empty); `drop` applies after.
    pub keep: Vec<String>,
    /// Gated copies of columns (situation-dependent weights).
    pub interactions: Vec<crate::model::gates::Interaction>,
    /// Append the decision-relative columns ([`crate::model::derived`]) to every option row.
    pub derived: bool,
    pub out: PathBuf,
}

fn scale_of(loaded: &Loaded) -> Vec<f64> {
    loaded.moments.std().iter().map(|s| 1.0 / s).collect()
}

/// Runs a fit and writes `cfg.out` (JSON), `cfg.out` with `.md`, `.loss.png` and `.cost.json`
/// beside it.
pub fn fit(cfg: &FitConfig) -> Result<(WeightsFile, FitCost)> {
    let started = std::time::Instant::now();
    let keep: Option<Vec<String>> = if cfg.drop.is_empty() && cfg.keep.is_empty() {
        None
    } else {
        let all = super::load::feature_columns(&cfg.data)?;
        let prefixed = |n: &str, ps: &[String]| ps.iter().any(|p| n.starts_with(p.as_str()));
        let kept = all.into_iter().filter(|n| cfg.keep.is_empty() || prefixed(n, &cfg.keep));
        Some(kept.filter(|n| !prefixed(n, &cfg.drop)).collect())
    };
    let loaded = load(
        &cfg.data,
        &cfg.filter,
        cfg.seed,
        cfg.validation,
        cfg.test,
        cfg.max_decisions,
        keep.as_deref(),
        &cfg.interactions,
        cfg.derived,
        &cfg.memory,
    )?;
    let (train, val, test) = (&loaded.train, &loaded.validation, &loaded.test);
    if train.is_empty() {
        return Err(FitError::NoTraining { filter: cfg.filter.to_string(), data: cfg.data.clone() });
    }
    let scale = scale_of(&loaded);
    let mut trials = Vec::new();
    let mut passes = 0;
    let mut best: Option<(Agreement, f64, super::train::Trained)> = None;
    let (init, frozen) = start(cfg.loss.loss, &loaded.feature_names, &loaded.moments.std())?;
    for &l2 in &cfg.l2_grid {
        let obj = || Objective::new(train, cfg.loss, l2, &scale).with_frozen(frozen.clone());
        let t = minimise_rounds(obj, init.clone(), cfg.max_iters, Some(val))
            .map_err(|e| FitError::Lbfgs(e.to_string()))?;
        passes += t.passes;
        let eval_on = if val.is_empty() { train } else { val };
        let a = agreement(eval_on, &t.w_std, &scale)?;
        trials.push(L2Trial { l2, iterations: t.iterations, validation: a });
        if best.as_ref().is_none_or(|(b, _, _)| a.top1 > b.top1) {
            best = Some((a, l2, t));
        }
    }
    let (_, l2, trained) = best.expect("at least one L2 value");
    let metric = |store: &super::store::Store| -> Result<Agreement> {
        if store.is_empty() {
            Ok(Agreement::default())
        } else {
            agreement(store, &trained.w_std, &scale)
        }
    };
    let features = loaded
        .feature_names
        .iter()
        .zip(trained.w_std.iter().zip(&scale))
        .map(|(name, (w, s))| NamedWeight { name: name.clone(), weight: w * s })
        .collect();
    let file = WeightsFile {
        haifu_version: env!("CARGO_PKG_VERSION").to_string(),
        features,
        loss: cfg.loss,
        l2,
        l2_trials: trials,
        filter: cfg.filter.clone(),
        split_seed: cfg.seed,
        validation_fraction: cfg.validation,
        test_fraction: cfg.test,
        max_decisions: cfg.max_decisions,
        interactions: cfg.interactions.iter().map(|i| i.spec()).collect(),
        data_fingerprint: loaded.fingerprint.clone(),
        decisions: SplitCounts {
            train: train.decisions() as u64,
            validation: val.decisions() as u64,
            test: test.decisions() as u64,
        },
        metrics: SplitMetrics { train: metric(train)?, validation: metric(val)?, test: metric(test)? },
        iterations: trained.iterations,
        loss_curve: trained.curve.clone(),
        calibration: super::calibrate::calibration(&loaded, &super::data::scaled(&trained.w_std, &scale))?,
    };
    if let Some(dir) = cfg.out.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir)?;
        }
    }
    write_atomic(&cfg.out, file.to_json())?;
    write_report(&file, &cfg.out)?;
    let mib = |b: f64| b / (1024.0 * 1024.0);
    let cost = FitCost {
        wall_seconds: started.elapsed().as_secs_f64(),
        peak_rss_mib: crate::util::peak_rss_bytes().map(|b| mib(b as f64)),
        passes,
        in_memory_mib: mib(loaded.in_memory as f64),
        spilled_mib: mib(loaded.spilled as f64),
    };
    let mut json = serde_json::to_string_pretty(&cost)?;
    json.push('\n');
    write_atomic(&cost_path(&cfg.out), json)?;
    Ok((file, cost))
}

/// The starting weights (standardised units) and the columns held fixed. Every loss starts from 0
/// with nothing fixed except the seed's, which fixes its scale as the seed does: the
/// [`SEED_PINNED`] weight at [`SEED_PIN_WEIGHT`] a step (original units) and its gated copies at
/// 0, so that no level can cancel the pin and bring back the all-zero minimum.
fn start(loss: Loss, names: &[String], std: &[f64]) -> Result<(Vec<f64>, Vec<usize>)> {
    let mut init = vec![0.0; names.len()];
    if loss != Loss::Seed {
        return Ok((init, Vec::new()));
    }
    let base = names.iter().position(|n| n == SEED_PINNED);
    let base = base.ok_or_else(|| FitError::NoPinnedColumn(SEED_PINNED.to_string()))?;
    init[base] = SEED_PIN_WEIGHT * std[base];
    let copies =
        names.iter().enumerate().filter(|(_, n)| n.split_once('*').is_some_and(|(_, b)| b == SEED_PINNED));
    let frozen = std::iter::once(base).chain(copies.map(|(i, _)| i)).collect();
    Ok((init, frozen))
}

/// `NAME.cost.json` beside the weights file `NAME.json`: what the fit cost ([`FitCost`]).
pub fn cost_path(weights: &Path) -> PathBuf {
    sibling(weights, "cost.json")
}

fn sibling(path: &Path, ext: &str) -> PathBuf {
    path.with_extension(ext)
}

/// The markdown report beside the weights: agreement per split, loss curve, weights by family and
/// the tile-energy table as a grid.
pub fn write_report(w: &WeightsFile, path: &Path) -> Result<()> {
    let png = sibling(path, "loss.png");
    let curve = Line {
        name: "objective".into(),
        points: w.loss_curve.iter().enumerate().map(|(i, v)| (i as f64, *v)).collect(),
    };
    lines(&png, "Training objective per L-BFGS iteration", "iteration", "objective", &[curve])
        .map_err(|e| FitError::Plot(e.to_string()))?;
    let mut md = String::new();
    md.push_str(&format!(
        "# Fitted weights: {}\n\nLoss `{:?}` (margin {}, smoothing {}, pairs {:?}, rounds {}), L2 {} chosen on validation top-1, {} iterations.\n\
         Decisions: {}. Split by game, seed {} (validation {}, test {}).\n\
         Data fingerprint `{}`.\n\n",
        path.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default(),
        w.loss.loss,
        w.loss.margin,
        w.loss.smoothing,
        w.loss.pairs,
        w.loss.rounds,
        w.l2,
        w.iterations,
        w.filter,
        w.split_seed,
        w.validation_fraction,
        w.test_fraction,
        w.data_fingerprint
    ));
    md.push_str("## Agreement with the recorded choice\n\n");
    let row = |name: &str, n: u64, a: &Agreement| {
        vec![name.to_string(), n.to_string(), pct(a.top1), pct(a.top3), format!("{:.3}", a.mean_rank)]
    };
    md.push_str(&table(
        &["split", "decisions", "top-1", "top-3", "mean rank"],
        &[
            row("train", w.decisions.train, &w.metrics.train),
            row("validation", w.decisions.validation, &w.metrics.validation),
            row("test", w.decisions.test, &w.metrics.test),
        ],
    ));
    md.push_str("\nL2 strengths tried (validation):\n\n");
    md.push_str(&table(
        &["l2", "iterations", "top-1", "top-3"],
        &w.l2_trials
            .iter()
            .map(|t| {
                vec![
                    format!("{}", t.l2),
                    t.iterations.to_string(),
                    pct(t.validation.top1),
                    pct(t.validation.top3),
                ]
            })
            .collect::<Vec<_>>(),
    ));
    md.push_str(&format!("\n![loss curve]({})\n\n", png.file_name().unwrap().to_string_lossy()));
    md.push_str(&super::calibrate::markdown(w));
    md.push_str("## Weights by feature family (original units)\n\n");
    let mut by_family: std::collections::BTreeMap<String, Vec<&NamedWeight>> = Default::default();
    for f in w.features.iter().filter(|f| !f.name.contains('*')) {
        let family = crate::features::catalog::catalog()
            .iter()
            .find(|d| d.name == f.name)
            .map_or("action".to_string(), |d| d.family.name().to_string());
        if family != "energy" {
            by_family.entry(family).or_default().push(f);
        }
    }
    for (family, fs) in by_family {
        md.push_str(&format!("### {family}\n\n"));
        md.push_str(&table(
            &["feature", "weight"],
            &fs.iter()
                .map(|f| vec![format!("`{}`", f.name), format!("{:+.4}", f.weight)])
                .collect::<Vec<_>>(),
        ));
        md.push('\n');
    }
    md.push_str(&energy_grid(w));
    md.push_str(&interaction_tables(w));
    write_atomic(&sibling(path, "md"), md)?;
    Ok(())
}

/// The situation-dependent weights (interaction columns `level*base`), one table per gate: a row
/// per base feature, a column per level, the 25 features whose weight varies most across levels.
fn interaction_tables(w: &WeightsFile) -> String {
    use crate::model::gates::Gate;
    let mut out = String::new();
    for gate in Gate::ALL {
        let levels = gate.levels();
        let mut by_base: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
        for f in &w.features {
            let Some((level, base)) = f.name.split_once('*') else { continue };
            let Some(l) = levels.iter().position(|x| *x == level) else { continue };
            by_base.entry(base).or_insert_with(|| vec![0.0; levels.len()])[l] = f.weight;
        }
        if by_base.is_empty() {
            continue;
        }
        let spread = |v: &[f64]| {
            v.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                - v.iter().copied().fold(f64::INFINITY, f64::min)
        };
        let mut rows: Vec<(&str, Vec<f64>)> = by_base.into_iter().collect();
        rows.sort_by(|a, b| spread(&b.1).total_cmp(&spread(&a.1)).then(a.0.cmp(b.0)));
        let total = rows.len();
        rows.truncate(25);
        let mut header = vec!["feature"];
        header.extend(levels.iter());
        let body: Vec<Vec<String>> = rows
            .iter()
            .map(|(b, v)| {
                let mut r = vec![format!("`{b}`")];
                r.extend(v.iter().map(|x| format!("{x:+.4}")));
                r
            })
            .collect();
        out.push_str(&format!(
            "\n## Situation-dependent weights: {} gate\n\nAdded to the base weight of the feature at \
             that level ({} features gated; the {} whose weight varies most across levels).\n\n{}",
            gate.name(),
            total,
            rows.len(),
            table(&header, &body)
        ));
    }
    out
}

/// The tile-energy weights as a grid: one row per tile class and copies held, one column per
/// neighbour pattern (which of -2, -1, +1, +2 are held).
fn energy_grid(w: &WeightsFile) -> String {
    let energy: Vec<&NamedWeight> = w.features.iter().filter(|f| f.name.starts_with("energy_")).collect();
    if energy.is_empty() {
        return String::new();
    }
    // names look like energy_<class>_x<copies>_n<pattern> (suited) or energy_<class>_x<copies>
    let mut rows: std::collections::BTreeMap<String, std::collections::BTreeMap<String, f64>> =
        Default::default();
    let mut patterns = std::collections::BTreeSet::new();
    for f in &energy {
        let rest = &f.name["energy_".len()..];
        let (head, pat) = match rest.rsplit_once("_n") {
            Some((h, p)) if p.chars().all(|c| c == '0' || c == '1') => (h.to_string(), p.to_string()),
            _ => (rest.to_string(), "-".to_string()),
        };
        patterns.insert(pat.clone());
        rows.entry(head).or_default().insert(pat, f.weight);
    }
    let pats: Vec<String> = patterns.into_iter().collect();
    let mut header = vec!["class / copies".to_string()];
    header.extend(pats.iter().cloned());
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|(head, m)| {
            let mut r = vec![head.clone()];
            r.extend(pats.iter().map(|p| m.get(p).map_or(String::new(), |v| format!("{v:+.2}"))));
            r
        })
        .collect();
    let hdr: Vec<&str> = header.iter().map(|s| s.as_str()).collect();
    format!(
        "## Tile energy (weight per held tile of each pattern)\n\nColumns: neighbours held at -2 -1 +1 +2 \
         (1 = held); `-` = no neighbours (honors).\n\n{}",
        table(&hdr, &body)
    )
}
