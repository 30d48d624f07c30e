//! Per-bot summaries of simulated games: placements, rates per player-round and means, each
//! with a 95% confidence interval (Wilson for rates, normal approximation for means).
//!
//! The per-round facts come from [`crate::replay::outcome::game_outcome`], the same replay-based
//! collection the real-data statistics use, so simulated and real figures mean the same thing.
//! Intervals treat games as independent; in duplicate sets the four games of a set share
//! walls, which makes the comparison between bots sharper than the intervals say.

use std::fmt::Write as _;

use crate::replay::outcome::{GameOutcome, SeatRound};
use crate::util::Rate;

/// A mean with the spread needed for its confidence interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct MeanCi {
    pub n: u64,
    pub sum: f64,
    pub sum_sq: f64,
}

impl MeanCi {
    pub fn add(&mut self, v: f64) {
        self.n += 1;
        self.sum += v;
        self.sum_sq += v * v;
    }

    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            f64::NAN
        } else {
            self.sum / self.n as f64
        }
    }

    /// 95% interval of the mean, mean ± 1.96 standard errors (sample variance).
    pub fn ci95(&self) -> (f64, f64) {
        if self.n < 2 {
            return (f64::NAN, f64::NAN);
        }
        let n = self.n as f64;
        let var = ((self.sum_sq - self.sum * self.sum / n) / (n - 1.0)).max(0.0);
        let half = 1.959_963_984_540_054 * (var / n).sqrt();
        (self.mean() - half, self.mean() + half)
    }
}

/// Everything summed for one bot (one entry of the bot list, over all its seats and games).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct BotSummary {
    /// `<position in the list>:<bot name>`, e.g. `1:ukeire`.
    pub label: String,
    pub games: u64,
    pub rounds: u64,
    /// 1st..4th per game.
    pub place: [Rate; 4],
    pub avg_placement: MeanCi,
    /// Tenhou's uma/oka result per game (`owari`).
    pub result: MeanCi,
    pub win: Rate,
    pub deal_in: Rate,
    pub tsumo_lost: Rate,
    pub lateral: Rate,
    /// Rounds that ended without a win (exhaustive or abortive).
    pub draw: Rate,
    pub riichi: Rate,
    pub call: Rate,
    pub win_points: MeanCi,
    /// Score change per round, over all rounds and by the bot's outcome in the round.
    pub balance: MeanCi,
    pub balance_win: MeanCi,
    pub balance_deal_in: MeanCi,
    pub balance_tsumo_lost: MeanCi,
    pub balance_lateral: MeanCi,
    pub balance_draw: MeanCi,
}

impl BotSummary {
    pub fn new(label: String) -> BotSummary {
        BotSummary { label, ..Default::default() }
    }

    /// Adds one seat of one game.
    pub fn add_seat(&mut self, game: &GameOutcome, seat: usize, result: Option<f32>) {
        self.games += 1;
        let place = game.placement[seat] as usize;
        // The places of the table: a three-player game has no fourth (its empty seat has place 0).
        let seats = game.placement.iter().filter(|&&p| p > 0).count();
        for (i, r) in self.place.iter_mut().enumerate().take(seats) {
            r.add(place == i + 1);
        }
        self.avg_placement.add(place as f64);
        if let Some(r) = result {
            self.result.add(r as f64);
        }
        for round in &game.rounds {
            self.add_round(&round[seat]);
        }
    }

    fn add_round(&mut self, s: &SeatRound) {
        self.rounds += 1;
        let drawn = !(s.won || s.dealt_in || s.tsumo_lost || s.lateral);
        self.win.add(s.won);
        self.deal_in.add(s.dealt_in);
        self.tsumo_lost.add(s.tsumo_lost);
        self.lateral.add(s.lateral);
        self.draw.add(drawn);
        self.riichi.add(s.riichi);
        self.call.add(s.called);
        let change = s.score_change as f64;
        self.balance.add(change);
        if s.won {
            self.win_points.add(s.win_points as f64);
            self.balance_win.add(change);
        } else if s.dealt_in {
            self.balance_deal_in.add(change);
        } else if s.tsumo_lost {
            self.balance_tsumo_lost.add(change);
        } else if s.lateral {
            self.balance_lateral.add(change);
        } else {
            self.balance_draw.add(change);
        }
    }

    /// (column name, value, low, high) of every figure, in table order.
    /// A three-player run's bots have no fourth place, and no `fourth` figure.
    pub fn figures(&self) -> Vec<(&'static str, f64, f64, f64)> {
        let mut all = self.all_figures();
        if self.games > 0 && self.place[3].n == 0 {
            all.retain(|f| f.0 != "fourth");
        }
        all
    }

    fn all_figures(&self) -> Vec<(&'static str, f64, f64, f64)> {
        let rate = |name, r: &Rate| {
            let (lo, hi) = r.ci95();
            (name, r.value(), lo, hi)
        };
        let mean = |name, m: &MeanCi| {
            let (lo, hi) = m.ci95();
            (name, m.mean(), lo, hi)
        };
        vec![
            rate("first", &self.place[0]),
            rate("second", &self.place[1]),
            rate("third", &self.place[2]),
            rate("fourth", &self.place[3]),
            mean("avg_placement", &self.avg_placement),
            mean("avg_result", &self.result),
            rate("win", &self.win),
            rate("deal_in", &self.deal_in),
            rate("tsumo_lost", &self.tsumo_lost),
            rate("lateral", &self.lateral),
            rate("draw", &self.draw),
            rate("riichi", &self.riichi),
            rate("call", &self.call),
            mean("avg_win_points", &self.win_points),
            mean("balance_per_round", &self.balance),
            mean("balance_win", &self.balance_win),
            mean("balance_deal_in", &self.balance_deal_in),
            mean("balance_tsumo_lost", &self.balance_tsumo_lost),
            mean("balance_lateral", &self.balance_lateral),
            mean("balance_draw", &self.balance_draw),
        ]
    }
}

fn num(v: f64) -> String {
    if v.is_nan() {
        String::new()
    } else {
        format!("{v:.4}")
    }
}

/// CSV: one row per bot; each figure as `<name>,<name>_lo,<name>_hi`.
pub fn to_csv(bots: &[BotSummary]) -> String {
    let mut out = String::from("bot,games,rounds");
    if let Some(b) = bots.first() {
        for (name, ..) in b.figures() {
            let _ = write!(out, ",{name},{name}_lo,{name}_hi");
        }
    }
    out.push('\n');
    for b in bots {
        let _ = write!(out, "{},{},{}", b.label.replace(',', ";"), b.games, b.rounds);
        for (_, v, lo, hi) in b.figures() {
            let _ = write!(out, ",{},{},{}", num(v), num(lo), num(hi));
        }
        out.push('\n');
    }
    out
}

/// A markdown table with the bots as columns and the figures as rows, `value [lo, hi]`:
/// rates in percent, points as points.
pub fn to_markdown(bots: &[BotSummary]) -> String {
    let mut out = String::from("| figure |");
    for b in bots {
        let _ = write!(out, " {} |", b.label);
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(bots.len()));
    out.push('\n');
    let _ = write!(out, "| games / rounds |");
    for b in bots {
        let _ = write!(out, " {} / {} |", b.games, b.rounds);
    }
    out.push('\n');
    let names: Vec<&str> =
        bots.first().map(|b| b.figures().iter().map(|f| f.0).collect()).unwrap_or_default();
    for (i, name) in names.iter().enumerate() {
        let _ = write!(out, "| {name} |");
        let percent = !(name.starts_with("avg") || name.starts_with("balance"));
        for b in bots {
            let (_, v, lo, hi) = b.figures()[i];
            let cell = if v.is_nan() {
                "-".to_string()
            } else if percent {
                format!("{:.1}% [{:.1}, {:.1}]", v * 100.0, lo * 100.0, hi * 100.0)
            } else if name.starts_with("avg_placement") || name.starts_with("avg_result") {
                format!("{v:.3} [{lo:.3}, {hi:.3}]")
            } else {
                format!("{v:.0} [{lo:.0}, {hi:.0}]")
            };
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_interval() {
        let mut m = MeanCi::default();
        for v in [1.0, 2.0, 3.0, 4.0] {
            m.add(v);
        }
        // mean 2.5, sample sd sqrt(5/3) = 1.2910, se 0.6455, half width 1.2652.
        let (lo, hi) = m.ci95();
        assert!((m.mean() - 2.5).abs() < 1e-12);
        assert!((lo - 1.2348).abs() < 1e-3 && (hi - 3.7652).abs() < 1e-3, "{lo} {hi}");
    }

    #[test]
    fn outcome_buckets() {
        let mut b = BotSummary::new("x".into());
        let won = SeatRound { won: true, win_points: 8000, score_change: 8000, ..Default::default() };
        let dealt = SeatRound { dealt_in: true, score_change: -8000, ..Default::default() };
        let drawn = SeatRound { exhaustive_draw: true, score_change: 1500, ..Default::default() };
        for r in [won, dealt, drawn] {
            b.add_round(&r);
        }
        assert_eq!((b.win.hits, b.deal_in.hits, b.draw.hits, b.rounds), (1, 1, 1, 3));
        assert_eq!(b.balance_draw.mean(), 1500.0);
        assert_eq!(b.balance.mean(), 500.0);
        assert_eq!(b.win_points.mean(), 8000.0);
        let csv = to_csv(&[b.clone()]);
        assert!(csv.starts_with("bot,games,rounds,first,first_lo,first_hi"), "{csv}");
        assert_eq!(csv.lines().count(), 2);
        assert!(to_markdown(&[b]).contains("| win | 33.3% ["));
    }
}
