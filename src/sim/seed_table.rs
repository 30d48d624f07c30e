//! Seed 000's duplicate self-play table (kobalab, 押し引きアルゴリズムの改善(2)), ours beside its
//! figures: each 電脳麻将 player under test in duplicate games against three copies of 改善前.
//!
//! The seed's first table splits rounds by the tested player's outcome with the mean score
//! change of each: its 被ツモ share (32.6%) and its mean (−1,057 per round) only fit the rounds
//! in which the player faced a riichi, the situation the push/fold rules decide, so that is what
//! [`FacingRiichi`] counts: rounds in which another seat declared riichi before the player
//! declared one (or the player never did). The second table is the usual per-game and per-round
//! figures ([`super::summary::BotSummary`] of the tested seat).

use std::fmt::Write as _;

use super::summary::{BotSummary, MeanCi};
use crate::replay::outcome::{GameOutcome, SeatRound};
use crate::util::Rate;

/// The outcomes of the seed's first table, in its order: 和了, 放銃, 被ツモ, 横移動, 流局.
pub const OUTCOMES: [&str; 5] =
    ["和了 win", "放銃 deal-in", "被ツモ tsumo by another", "横移動 ron between others", "流局 draw"];

/// The seed's figures for one player: the first table (share %, mean score change per outcome),
/// its mean, and the second table.
#[derive(Clone, Copy, Debug)]
pub struct SeedColumn {
    pub name: &'static str,
    /// majiang-ai's player (`legacy/player-NNNN.js`) and our bot.
    pub bot: &'static str,
    pub share: [f64; 5],
    pub balance: [f64; 5],
    pub mean: f64,
    pub games: u32,
    pub rounds: u32,
    pub places: [f64; 4],
    pub avg_place: f64,
    pub win: f64,
    pub deal_in: f64,
    pub riichi: f64,
    pub call: f64,
    pub avg_win: f64,
}

/// Seed 000's three columns, as printed there.
pub const SEED: [SeedColumn; 3] = [
    SeedColumn {
        name: "改善前",
        bot: "majiang-0400",
        share: [10.2, 10.5, 32.6, 26.3, 20.4],
        balance: [6441.0, -6209.0, -2690.0, -57.0, -827.0],
        mean: -1057.0,
        games: 1000,
        rounds: 10505,
        places: [0.241, 0.251, 0.254, 0.254],
        avg_place: 2.52,
        win: 0.209,
        deal_in: 0.128,
        riichi: 0.221,
        call: 0.346,
        avg_win: 5492.0,
    },
    SeedColumn {
        name: "改善(1)",
        bot: "majiang-0401",
        share: [11.6, 13.0, 31.5, 25.6, 18.2],
        balance: [6468.0, -6200.0, -2703.0, -68.0, -615.0],
        mean: -1036.0,
        games: 1000,
        rounds: 10465,
        places: [0.249, 0.244, 0.255, 0.252],
        avg_place: 2.51,
        win: 0.218,
        deal_in: 0.141,
        riichi: 0.237,
        call: 0.349,
        avg_win: 5499.0,
    },
    SeedColumn {
        name: "改善(2)",
        bot: "majiang-0402",
        share: [11.3, 12.0, 31.9, 26.0, 18.9],
        balance: [6721.0, -6279.0, -2706.0, -63.0, -667.0],
        mean: -999.0,
        games: 1000,
        rounds: 10464,
        places: [0.255, 0.248, 0.248, 0.249],
        avg_place: 2.49,
        win: 0.215,
        deal_in: 0.137,
        riichi: 0.232,
        call: 0.349,
        avg_win: 5580.0,
    },
];

/// The first table for one player: its rounds facing a riichi by outcome.
#[derive(Clone, Debug, Default)]
pub struct FacingRiichi {
    /// Share of each outcome among the rounds facing a riichi.
    pub share: [Rate; 5],
    /// Score change per round by outcome, and over all of them.
    pub balance: [MeanCi; 5],
    pub mean: MeanCi,
}

/// The outcome index ([`OUTCOMES`]) of a seat's round.
pub fn outcome(s: &SeatRound) -> usize {
    if s.won {
        0
    } else if s.dealt_in {
        1
    } else if s.tsumo_lost {
        2
    } else if s.lateral {
        3
    } else {
        4
    }
}

/// Which rounds count as facing a riichi. The seed does not say; [`Facing::BeforeOwn`] is ours,
/// the other two bound it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Facing {
    /// Another seat declared riichi before the player declared its own (or it never did).
    BeforeOwn,
    /// Another seat declared riichi and the player never did.
    NeverOwn,
    /// Another seat declared riichi, whatever the player did.
    Any,
}

impl Facing {
    pub const ALL: [Facing; 3] = [Facing::BeforeOwn, Facing::NeverOwn, Facing::Any];

    pub fn name(self) -> &'static str {
        match self {
            Facing::BeforeOwn => "another seat's riichi came before the player's own (ours)",
            Facing::NeverOwn => "another seat's riichi, the player never declared",
            Facing::Any => "any round with another seat's riichi",
        }
    }
}

/// Whether `seat` faced a riichi in the round under definition `def`.
pub fn faces(round: &[SeatRound; 4], seat: usize, def: Facing) -> bool {
    let own = round[seat].riichi_order;
    (0..4).any(|q| {
        let other = round[q].riichi_order;
        q != seat
            && other > 0
            && match def {
                Facing::BeforeOwn => own == 0 || other < own,
                Facing::NeverOwn => own == 0,
                Facing::Any => true,
            }
    })
}

/// [`faces`] under our definition, [`Facing::BeforeOwn`].
pub fn faces_riichi(round: &[SeatRound; 4], seat: usize) -> bool {
    faces(round, seat, Facing::BeforeOwn)
}

impl FacingRiichi {
    /// Adds the rounds of `seat` in one game that face a riichi under `def`.
    pub fn add_seat(&mut self, game: &GameOutcome, seat: usize, def: Facing) {
        for round in game.rounds.iter().filter(|r| faces(r, seat, def)) {
            let s = &round[seat];
            let o = outcome(s);
            for (i, r) in self.share.iter_mut().enumerate() {
                r.add(i == o);
            }
            self.balance[o].add(s.score_change as f64);
            self.mean.add(s.score_change as f64);
        }
    }
}

/// One tested player's run: its figures and the run's speed.
#[derive(Clone, Debug)]
pub struct TableColumn {
    pub seed: SeedColumn,
    /// Under each definition of [`Facing::ALL`], ours first.
    pub facing: [FacingRiichi; 3],
    pub summary: BotSummary,
    pub seconds: f64,
}

/// `x [lo, hi]` of a rate in percent, and the gap to the seed's percent figure, flagged `*`
/// when the seed's value lies outside our interval.
fn pct(r: &Rate, seed: f64) -> (String, String) {
    let (lo, hi) = r.ci95();
    let v = r.value() * 100.0;
    let out = seed < lo * 100.0 || seed > hi * 100.0;
    (format!("{v:.1}% [{:.1}, {:.1}]", lo * 100.0, hi * 100.0), gap(v - seed, 1, out))
}

/// Like [`pct`] for a mean, with `digits` decimals.
fn mean(m: &MeanCi, seed: f64, digits: usize) -> (String, String) {
    let (lo, hi) = m.ci95();
    let out = seed < lo || seed > hi;
    (format!("{:.digits$} [{lo:.digits$}, {hi:.digits$}]", m.mean()), gap(m.mean() - seed, digits, out))
}

fn gap(d: f64, digits: usize, out: bool) -> String {
    format!("{d:+.digits$}{}", if out { " *" } else { "" })
}

/// The two tables in markdown: per row the seed's figure, ours with its 95% interval and the
/// gap (`*` = the seed's figure is outside our interval).
pub fn to_markdown(cols: &[TableColumn]) -> String {
    let mut out = String::from("| outcome facing a riichi |");
    for c in cols {
        let _ = write!(out, " {} seed | ours ({}) | gap |", c.seed.name, c.seed.bot);
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|---:|---:|".repeat(cols.len()));
    for (i, name) in OUTCOMES.iter().enumerate() {
        let _ = write!(out, "\n| {name}: share |");
        for c in cols {
            let (v, g) = pct(&c.facing[0].share[i], c.seed.share[i]);
            let _ = write!(out, " {:.1}% | {v} | {g} |", c.seed.share[i]);
        }
        let _ = write!(out, "\n| {name}: 局収支 |");
        for c in cols {
            let (v, g) = mean(&c.facing[0].balance[i], c.seed.balance[i], 0);
            let _ = write!(out, " {:+.0} | {v} | {g} |", c.seed.balance[i]);
        }
    }
    let _ = write!(out, "\n| 平均 (all rounds facing a riichi) |");
    for c in cols {
        let (v, g) = mean(&c.facing[0].mean, c.seed.mean, 0);
        let _ = write!(out, " {:+.0} | {v} | {g} |", c.seed.mean);
    }
    let _ = write!(out, "\n| rounds facing a riichi |");
    for c in cols {
        let _ = write!(out, " | {} | |", c.facing[0].mean.n);
    }
    out.push_str("\n\n");
    out.push_str(&second_table(cols));
    out.push('\n');
    out.push_str(&definitions_table(cols));
    out
}

/// The outcome shares and mean facing a riichi under each definition of [`Facing`], per column.
fn definitions_table(cols: &[TableColumn]) -> String {
    let mut out = String::from("| rounds facing a riichi, by definition | column | rounds |");
    for name in OUTCOMES {
        let _ = write!(out, " {name} |");
    }
    out.push_str(" 平均 |\n|---|---|---:|");
    out.push_str(&"---:|".repeat(OUTCOMES.len() + 1));
    for (d, def) in Facing::ALL.iter().enumerate() {
        for c in cols {
            let f = &c.facing[d];
            let _ = write!(out, "\n| {} | {} | {} |", def.name(), c.seed.name, f.mean.n);
            for r in &f.share {
                let _ = write!(out, " {:.1}% |", r.value() * 100.0);
            }
            let _ = write!(out, " {:.0} |", f.mean.mean());
        }
    }
    for c in cols {
        let _ = write!(out, "\n| the seed's table | {} | |", c.seed.name);
        for v in c.seed.share {
            let _ = write!(out, " {v:.1}% |");
        }
        let _ = write!(out, " {:.0} |", c.seed.mean);
    }
    out.push('\n');
    out
}

/// The second table: games, rounds, placements, rates and means of the tested seat.
fn second_table(cols: &[TableColumn]) -> String {
    let mut out = String::from("| figure |");
    for c in cols {
        let _ = write!(out, " {} seed | ours | gap |", c.seed.name);
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|---:|---:|".repeat(cols.len()));
    let _ = write!(out, "\n| 対戦数 games / 総局数 rounds |");
    for c in cols {
        let _ = write!(
            out,
            " {} / {} | {} / {} | |",
            c.seed.games, c.seed.rounds, c.summary.games, c.summary.rounds
        );
    }
    type RateRow = (&'static str, fn(&BotSummary) -> &Rate, fn(&SeedColumn) -> f64);
    let rows: [RateRow; 8] = [
        ("1位率 first", |s| &s.place[0], |c| c.places[0]),
        ("2位率 second", |s| &s.place[1], |c| c.places[1]),
        ("3位率 third", |s| &s.place[2], |c| c.places[2]),
        ("4位率 fourth", |s| &s.place[3], |c| c.places[3]),
        ("和了率 win rate", |s| &s.win, |c| c.win),
        ("放銃率 deal-in rate", |s| &s.deal_in, |c| c.deal_in),
        ("立直率 riichi rate", |s| &s.riichi, |c| c.riichi),
        ("副露率 call rate", |s| &s.call, |c| c.call),
    ];
    for (name, ours, seed) in rows {
        let _ = write!(out, "\n| {name} |");
        for c in cols {
            let (v, g) = pct(ours(&c.summary), seed(&c.seed) * 100.0);
            let _ = write!(out, " {:.1}% | {v} | {g} |", seed(&c.seed) * 100.0);
        }
    }
    let _ = write!(out, "\n| 平均順位 average placement |");
    for c in cols {
        let (v, g) = mean(&c.summary.avg_placement, c.seed.avg_place, 2);
        let _ = write!(out, " {:.2} | {v} | {g} |", c.seed.avg_place);
    }
    let _ = write!(out, "\n| 平均打点 average win |");
    for c in cols {
        let (v, g) = mean(&c.summary.win_points, c.seed.avg_win, 0);
        let _ = write!(out, " {:.0} | {v} | {g} |", c.seed.avg_win);
    }
    let _ = write!(out, "\n| 局収支 balance per round (all rounds) |");
    for c in cols {
        let (v, _) = mean(&c.summary.balance, 0.0, 0);
        let _ = write!(out, " | {v} | |");
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(orders: [u8; 4]) -> [SeatRound; 4] {
        orders.map(|o| SeatRound { riichi_order: o, ..Default::default() })
    }

    #[test]
    fn facing_a_riichi() {
        // Seat 1 declared first: seats 0, 2, 3 face it; seat 1 does not.
        let r = round([0, 1, 0, 0]);
        assert_eq!((0..4).map(|s| faces_riichi(&r, s)).collect::<Vec<_>>(), [true, false, true, true]);
        // Seat 0 declared first, seat 2 chased: seat 0 did not face a riichi before its own.
        let r = round([1, 0, 2, 0]);
        assert_eq!((0..4).map(|s| faces_riichi(&r, s)).collect::<Vec<_>>(), [false, true, true, true]);
        assert!(!(0..4).any(|s| faces_riichi(&round([0; 4]), s)));
        // The other definitions: seat 0 chased by seat 2 counts as facing under Any only.
        let r = round([1, 0, 2, 0]);
        assert!(!faces(&r, 0, Facing::NeverOwn) && faces(&r, 0, Facing::Any));
        assert!(!faces(&r, 2, Facing::NeverOwn) && faces(&r, 2, Facing::BeforeOwn));
    }

    #[test]
    fn outcomes_and_gaps() {
        let won = SeatRound { won: true, ..Default::default() };
        let lost = SeatRound { tsumo_lost: true, ..Default::default() };
        assert_eq!((outcome(&won), outcome(&lost), outcome(&SeatRound::default())), (0, 2, 4));
        let mut r = Rate::default();
        for i in 0..100 {
            r.add(i < 20);
        }
        // 20% [13.3, 28.9]: 21% is inside, 10% outside.
        assert_eq!(pct(&r, 21.0).1, "-1.0");
        assert_eq!(pct(&r, 10.0).1, "+10.0 *");
    }
}
