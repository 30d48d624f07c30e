//! Agreement of evaluators with the recorded choices over an ingested dataset, overall and sliced
//! by shanten before the decision, turn, riichi situation, table level and human vs AI seat.
//!
//! Every dataset evaluator here is a linear function of the option columns, so one code path
//! scores them all: `ukeire` is `-1000 * shanten_min + ukeire_count - 0.1 * discard_class` (the
//! same ordering as the `nanikiru` evaluator), `linear` uses a fitted weights file.

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::fit::load::Loaded;
use crate::fit::train::{Agreement, AgreementSum};
use crate::fit::weights::WeightsFile;

/// Weights of the `ukeire` evaluator over the option columns.
pub fn ukeire_weights(names: &[String]) -> Vec<f64> {
    names
        .iter()
        .map(|n| match n.as_str() {
            "shanten_min" => -1000.0,
            "ukeire_count" => 1.0,
            "discard_class" => -0.1,
            _ => 0.0,
        })
        .collect()
}

/// Weights of the `ev` evaluator over the option columns: the expected value where it is defined
/// (shanten 2 or better after the discard; those options always rank first), then lower shanten,
/// more ukeire and the discard order as tie-breaks.
pub fn ev_weights(names: &[String]) -> Vec<f64> {
    names
        .iter()
        .map(|n| match n.as_str() {
            "ev" => 1.0,
            "ev_defined" => 1e5,
            "shanten_min" => -1e-3,
            "ukeire_count" => 1e-6,
            "discard_class" => -1e-8,
            _ => 0.0,
        })
        .collect()
}

/// Weights of a fitted file aligned to the dataset's columns (absent features weigh 0).
pub fn linear_weights(file: &WeightsFile, names: &[String]) -> Vec<f64> {
    names.iter().map(|n| file.weight(n)).collect()
}

/// Agreement overall and by slice.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct SlicedAgreement {
    #[serde(flatten)]
    pub overall: Agreement,
    pub by_shanten: BTreeMap<String, Agreement>,
    pub by_turn: BTreeMap<String, Agreement>,
    pub by_riichi: BTreeMap<String, Agreement>,
    pub by_table: BTreeMap<String, Agreement>,
    pub by_seat: BTreeMap<String, Agreement>,
}

/// Turn bucket of the slices.
pub fn turn_bucket(turn: u8) -> &'static str {
    match turn {
        0..=6 => "1-6",
        7..=12 => "7-12",
        _ => "13+",
    }
}

/// Options ranked above and tied with the chosen one, per decision of `subset`.
pub fn ranks(loaded: &Loaded, w: &[f64], subset: &[u32]) -> Vec<(usize, usize)> {
    let ones = vec![1.0; w.len()];
    subset
        .par_iter()
        .map(|&d| {
            let (mut better, mut ties) = (0, 0);
            for r in loaded.data.decision_rows(d as usize) {
                let z = loaded.data.row_dot(r, w, &ones);
                if z > 1e-9 {
                    better += 1;
                } else if z >= -1e-9 {
                    ties += 1;
                }
            }
            (better, ties)
        })
        .collect()
}

/// Agreement of weights `w` (original units) on `subset`, sliced.
pub fn sliced(loaded: &Loaded, w: &[f64], subset: &[u32]) -> SlicedAgreement {
    let r = ranks(loaded, w, subset);
    let m = &loaded.meta;
    let mut overall = AgreementSum::default();
    let mut slices: [BTreeMap<String, AgreementSum>; 5] = Default::default();
    for (&d, &(better, ties)) in subset.iter().zip(&r) {
        let i = d as usize;
        overall.add(better, ties);
        let keys = [
            m.shanten[i].min(3).to_string().replace('3', "3+"),
            turn_bucket(m.turn[i]).to_string(),
            if m.any_riichi[i] { "riichi".to_string() } else { "no_riichi".to_string() },
            m.table[i].clone(),
            if m.is_ai[i] { "ai".to_string() } else { "human".to_string() },
        ];
        for (s, k) in slices.iter_mut().zip(keys) {
            s.entry(k).or_default().add(better, ties);
        }
    }
    let fin = |m: &BTreeMap<String, AgreementSum>| m.iter().map(|(k, v)| (k.clone(), v.finish())).collect();
    SlicedAgreement {
        overall: overall.finish(),
        by_shanten: fin(&slices[0]),
        by_turn: fin(&slices[1]),
        by_riichi: fin(&slices[2]),
        by_table: fin(&slices[3]),
        by_seat: fin(&slices[4]),
    }
}
