//! The agreement figures of evaluators over a dataset (overall and sliced by shanten before the
//! decision, turn, riichi situation, table level and human vs AI seat), and the two reference
//! evaluators that are fixed linear functions of the option columns: `ukeire` is
//! `-1000 * shanten_min + ukeire_count - 0.1 * discard_class` (the same ordering as the
//! `nanikiru` evaluator; on riichi decisions it always declares, as the max-ukeire bot does) and
//! `ev`. The scoring pass is [`crate::eval::dataset`].

use std::collections::BTreeMap;

use crate::model::metrics::Agreement;

/// Weights of the `ukeire` evaluator over the option columns.
pub fn ukeire_weights(names: &[String]) -> Vec<f64> {
    names
        .iter()
        .map(|n| match n.as_str() {
            "shanten_min" => -1000.0,
            "ukeire_count" => 1.0,
            "discard_class" => -0.1,
            // Riichi decisions: both options share the hand, so only this column differs; the
            // max-ukeire bot declares riichi whenever it can.
            "act_riichi" => 0.01,
            _ => 0.0,
        })
        .collect()
}

/// Weights of the `ev` evaluator over the option columns for options without a value (3+
/// shanten after the discard, riichi and call options): lower shanten, more ukeire and the
/// discard order. Options with a value (`ev_defined`) are scored apart in
/// [`crate::eval::dataset`]: above all of these, by the value, exact ties broken as 電脳麻将
/// breaks them (lower `vis_paijia`, then `vis_tsumogiri`), which no fixed weight can express
/// below an ukeire term that applies only where the value is undefined.
pub fn ev_weights(names: &[String]) -> Vec<f64> {
    names
        .iter()
        .map(|n| match n.as_str() {
            "shanten_min" => -1e-3,
            "ukeire_count" => 1e-6,
            "discard_class" => -1e-8,
            // 電脳麻将 values a closed tenpai with riichi: it always declares. (Riichi options share
            // every other column, so this is the only difference; it must exceed the tie
            // tolerance of the agreement count.)
            "act_riichi" => 1e-6,
            _ => 0.0,
        })
        .collect()
}

/// A figure overall and by slice: the running sums while a dataset is scored
/// ([`crate::eval::dataset::Tally`]), then the finished agreement ([`SlicedAgreement`]).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Sliced<T> {
    #[serde(flatten)]
    pub overall: T,
    pub by_shanten: BTreeMap<String, T>,
    pub by_turn: BTreeMap<String, T>,
    pub by_riichi: BTreeMap<String, T>,
    pub by_table: BTreeMap<String, T>,
    pub by_seat: BTreeMap<String, T>,
}

impl<T> Sliced<T> {
    /// The same slices with `f` applied to every figure.
    pub fn map<U>(&self, f: impl Fn(&T) -> U) -> Sliced<U> {
        let m = |x: &BTreeMap<String, T>| x.iter().map(|(k, v)| (k.clone(), f(v))).collect();
        Sliced {
            overall: f(&self.overall),
            by_shanten: m(&self.by_shanten),
            by_turn: m(&self.by_turn),
            by_riichi: m(&self.by_riichi),
            by_table: m(&self.by_table),
            by_seat: m(&self.by_seat),
        }
    }
}

/// Agreement overall and by slice.
pub type SlicedAgreement = Sliced<Agreement>;

/// Turn bucket of the agreement's "by turn" slices: turns 1-6, 7-12 and 13 on (turn 0 counts as
/// the first bucket).
pub fn turn_bucket(turn: u8) -> &'static str {
    match turn {
        0..=6 => "1-6",
        7..=12 => "7-12",
        _ => "13+",
    }
}

/// Slices in their natural order: by the leading number where there is one ("-1", "3+", "1-6"
/// before "7-12" before "13+"), else by name.
pub fn slice_order(key: &str) -> (i64, String) {
    let end = key.char_indices().skip(1).find(|(_, c)| !c.is_ascii_digit()).map_or(key.len(), |(i, _)| i);
    (key[..end].parse().unwrap_or(i64::MAX), key.to_string())
}

#[cfg(test)]
mod tests {
    use super::slice_order;

    #[test]
    fn slices_sort_naturally() {
        let mut k = vec!["13+", "7-12", "1-6", "3+", "-1", "0", "riichi", "no_riichi"];
        k.sort_by_key(|s| slice_order(s));
        assert_eq!(k, ["-1", "0", "1-6", "3+", "7-12", "13+", "no_riichi", "riichi"]);
    }
}
