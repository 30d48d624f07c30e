//! What `haifu eval` reports: each evaluator's agreement with the recorded choices, overall and
//! by slice, as one typed value that serialises to the command's JSON and displays as its text,
//! so the binary only prints it and a library user gets the same figures.

use serde::ser::SerializeMap;

use crate::eval::agreement::{slice_order, SlicedAgreement};
use crate::eval::dataset::Scored;
use crate::model::metrics::Agreement;
use crate::rank::push_fold::Thresholds;
use crate::rank::Evaluator;

/// The agreement of the evaluators asked for, in the order asked.
#[derive(Clone, Debug, serde::Serialize)]
pub struct EvalReport {
    pub decisions: usize,
    /// The push/fold layer's thresholds when it was applied over every evaluator.
    pub push_fold: Option<Thresholds>,
    /// (evaluator, agreement), serialised as an object keyed by the evaluator's name.
    #[serde(serialize_with = "as_map")]
    pub evaluators: Vec<(Evaluator, SlicedAgreement)>,
}

impl EvalReport {
    /// The figures of `evaluators` from a scoring pass: with the push/fold layer's tallies when
    /// `push_fold` is given, else the plain ones.
    pub fn new(scored: &Scored, evaluators: &[Evaluator], push_fold: Option<Thresholds>) -> EvalReport {
        let tallies = if push_fold.is_some() { &scored.with_pf } else { &scored.plain };
        let evaluators = evaluators.iter().map(|&e| (e, tallies[e.index()].sliced())).collect();
        EvalReport { decisions: scored.decisions, push_fold, evaluators }
    }
}

fn as_map<S: serde::Serializer>(v: &[(Evaluator, SlicedAgreement)], s: S) -> Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(Some(v.len()))?;
    for (e, a) in v {
        m.serialize_entry(e.name(), a)?;
    }
    m.end()
}

/// One line per evaluator (top-1, top-3, mean rank), then one per slice (shanten, turn, riichi,
/// table, seat) with each level's top-1 and count, levels in their natural order.
impl std::fmt::Display for EvalReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut first = true;
        for (e, a) in &self.evaluators {
            if !first {
                writeln!(f)?;
            }
            first = false;
            let o = &a.overall;
            write!(
                f,
                "{:8} top-1 {:5.1}%  top-3 {:5.1}%  mean rank {:.2}",
                e.name(),
                o.top1 * 100.0,
                o.top3 * 100.0,
                o.mean_rank
            )?;
            let slices = [
                ("by_shanten", &a.by_shanten),
                ("by_turn", &a.by_turn),
                ("by_riichi", &a.by_riichi),
                ("by_table", &a.by_table),
                ("by_seat", &a.by_seat),
            ];
            for (name, levels) in slices {
                let mut keys: Vec<&String> = levels.keys().collect();
                keys.sort_by_key(|k| slice_order(k));
                let parts: Vec<String> = keys.into_iter().map(|k| level(k, &levels[k])).collect();
                write!(f, "\n  {name:11} {}", parts.join("  "))?;
            }
        }
        Ok(())
    }
}

fn level(key: &str, a: &Agreement) -> String {
    format!("{key} {:.1}% (n={})", a.top1 * 100.0, a.decisions)
}
