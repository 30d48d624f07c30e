//! The paired experiments of self-play as plain counts: [`Paired`] is what `sim::seed_pairs`
//! plays and `stats::seed_report` writes, so it lives below both, with the paired difference of
//! two proportions ([`PairTally::diff`]) that its report needs.

use super::Rate;

/// The paired kabe experiment in self-play (`sim::seed_pairs`): the dealer's win with the
/// three other 3m out of play (kabe) and with three 3s out of play instead (free), over the
/// pairs where the dealer riichis on 1m-4m at its first discard in both.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Paired {
    /// Pairs played (counted or not).
    pub pairs: u64,
    /// The dealer wins the round.
    pub win: PairTally,
    /// The dealer wins by its 6th draw (a measure away from the ceiling of a turn-1 riichi
    /// against bots that never fold).
    pub early: PairTally,
    /// The early-tile triples (`sim::seed_pairs::run_early`): (win, win by the 6th draw) for the
    /// riichi tile 3m against a guest wind (序盤外側), 5m against a guest wind (序盤5切り) and 3m
    /// against 5m (the seed's swap).
    pub outside: (PairTally, PairTally),
    pub five: (PairTally, PairTally),
    pub swap: (PairTally, PairTally),
    /// Triples played (counted or not).
    pub triples: u64,
}

/// One binary outcome over the counted pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairTally {
    pub kabe: Rate,
    pub free: Rate,
    /// Pairs with the outcome under the kabe only / without it only (the discordant pairs).
    pub kabe_only: u64,
    pub free_only: u64,
}

impl PairTally {
    pub fn add(&mut self, kabe: bool, free: bool) {
        self.kabe.add(kabe);
        self.free.add(free);
        self.kabe_only += u64::from(kabe && !free);
        self.free_only += u64::from(free && !kabe);
    }

    /// Paired difference kabe − free and its 95% interval (the variance of a difference of
    /// paired proportions, from the discordant pairs).
    pub fn diff(&self) -> (f64, f64, f64) {
        let n = self.kabe.n as f64;
        let (b, c) = (self.kabe_only as f64, self.free_only as f64);
        let d = (b - c) / n;
        let se = (((b + c) / n - d * d) / n).sqrt();
        (d, d - 1.96 * se, d + 1.96 * se)
    }
}
