//! The score situation in points a win or a deal-in must move: how far the game has to go, and
//! what each change of placement needs (issue 69's "all-last" family).
//!
//! The table family of the trees (`model::trees::inputs`) gives the gaps to the scores above and
//! below. A strong player at all-last reads them as needs: "a 2,000 ron off the second passes
//! them, off anyone else I need 3,900, a tsumo 2,000 all" decides whether a cheap fast hand is
//! worth more than an expensive slow one. Those needs are not a gap: a ron off the seat above
//! moves both scores, a tsumo takes a share from each payer (half from the dealer), and the
//! honba and riichi sticks go to the winner. These columns give them in points of the hand's
//! base payment (the value a ron pays before honba), found by searching the smallest payment,
//! in steps of 100, that changes the seat's placement as the `decisions` table ranks (ties by
//! seat order, [`crate::util::placements_of`]).
//!
//! Payments follow Tenhou: a ron pays 300 a honba; a tsumo is paid half by the dealer and a
//! quarter by each other seat (a dealer's a third each), 100 a honba from each payer, each share
//! rounded up to 100; at three players the missing seat's share is not paid (tsumo loss). The
//! columns are the same for every option of a decision; the trees read them with the option
//! columns.

use super::column::Cols;
use crate::replay::view::{opponent_seats, View};
use crate::util::placements_of;

pub(crate) const COLUMNS: [(&str, &str); 8] = [
    ("al_last", "1 in the game's last scheduled round or later (all-last: South 4 of a hanchan, East 4 of an East-only game; the third round of the wind at three players)"),
    ("al_rounds_left", "scheduled rounds after this one (0 at all-last and in an extension)"),
    ("al_up_ron_direct", "the smallest ron (points before honba) off the seat just above that lifts the seat a place (0 when first)"),
    ("al_up_ron_other", "the smallest ron off a seat other than the one just above that lifts the seat a place (0 when first)"),
    ("al_up_tsumo", "the smallest tsumo (the ron value it is paid as) that lifts the seat a place (0 when first)"),
    ("al_top_ron_direct", "the smallest ron off the leader that takes first place (0 when first)"),
    ("al_top_tsumo", "the smallest tsumo that takes first place (0 when first)"),
    ("al_down_ron", "the smallest deal-in to the seat just below that drops the seat a place (0 when last)"),
];

/// The largest payment searched: past every hand (a double yakuman is 64,000 at a non-dealer's
/// ron), so a need that no hand meets reads as this.
const MAX_PAYMENT: i32 = 200_000;

/// A win or a deal-in: who gains, who pays.
#[derive(Clone, Copy, Debug)]
enum Payment {
    /// `winner` rons `payer`.
    Ron { winner: usize, payer: usize },
    /// `winner` draws their own winning tile.
    Tsumo { winner: usize },
}

/// The table the needs are computed on: the scores by absolute seat and the counters.
#[derive(Clone, Copy, Debug)]
struct Board {
    scores: [i32; 4],
    players: u8,
    dealer: usize,
    honba: i32,
    sticks: i32,
}

impl Board {
    fn of(view: &View) -> Board {
        let sb = &view.scoreboard;
        let seat = usize::from(sb.seat % 4);
        let dealer = if view.seat_wind == 27 {
            seat
        } else {
            opponent_seats(sb.players, sb.seat)
                .iter()
                .zip(&view.opponents)
                .find_map(|(s, o)| s.filter(|_| o.is_dealer).map(usize::from))
                .unwrap_or(seat)
        };
        Board {
            scores: sb.scores,
            players: sb.players,
            dealer,
            honba: i32::from(sb.honba),
            sticks: i32::from(sb.sticks),
        }
    }

    /// The scores after `payment` of `value` (a ron's base payment).
    fn after(&self, payment: Payment, value: i32) -> [i32; 4] {
        let mut s = self.scores;
        match payment {
            Payment::Ron { winner, payer } => {
                let paid = value + 300 * self.honba;
                s[payer] -= paid;
                s[winner] += paid + 1000 * self.sticks;
            }
            Payment::Tsumo { winner } => {
                let mut got = 1000 * self.sticks;
                for p in (0..usize::from(self.players)).filter(|&p| p != winner) {
                    let share = if winner == self.dealer {
                        value / 3
                    } else if p == self.dealer {
                        value / 2
                    } else {
                        value / 4
                    };
                    let paid = round_up_100(share) + 100 * self.honba;
                    s[p] -= paid;
                    got += paid;
                }
                s[winner] += got;
            }
        }
        s
    }

    /// Whether `seat`'s placement after `payment` of `value` meets `goal` (at most it when `up`,
    /// at least it when not).
    fn meets(&self, seat: usize, payment: Payment, goal: u8, up: bool, value: i32) -> bool {
        let p = self.placement(&self.after(payment, value), seat);
        if up {
            p <= goal
        } else {
            p >= goal
        }
    }

    fn placement(&self, scores: &[i32; 4], seat: usize) -> u8 {
        placements_of(scores, self.players)[seat]
    }

    /// The smallest payment (a multiple of 100 up to [`MAX_PAYMENT`]) after which `seat`'s
    /// placement meets `goal` (a placement at most it when `up`, at least it when not); 0 when it
    /// already does. A binary search: a larger payment moves the scores further the same way.
    fn need(&self, seat: usize, payment: Payment, goal: u8, up: bool) -> f32 {
        let meets = |v: i32| self.meets(seat, payment, goal, up, v);
        if meets(0) {
            return 0.0;
        }
        let (mut lo, mut hi) = (0, MAX_PAYMENT / 100);
        if !meets(hi * 100) {
            return MAX_PAYMENT as f32;
        }
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if meets(mid * 100) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        (hi * 100) as f32
    }
}

fn round_up_100(v: i32) -> i32 {
    (v + 99) / 100 * 100
}

/// The decision's needs, computed once (every option shares them).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct AllLastPrep {
    values: [f32; 8],
}

impl AllLastPrep {
    pub(crate) fn new(view: &View) -> AllLastPrep {
        let b = Board::of(view);
        let sb = &view.scoreboard;
        let seat = usize::from(sb.seat % 4);
        let n = usize::from(b.players.clamp(2, 4));
        let place = b.placement(&b.scores, seat);
        let at = |p: u8| (0..n).find(|&s| b.placement(&b.scores, s) == p);
        let above = place.checked_sub(1).filter(|&p| p >= 1).and_then(at);
        let top = (place > 1).then(|| at(1)).flatten();
        let below = at(place + 1);
        // a third seat to ron: the lowest-placed seat that is neither the seat nor the one above
        let other = |target: usize| {
            (0..n).filter(|&s| s != seat && s != target).max_by_key(|&s| b.placement(&b.scores, s))
        };
        let up = |p: Option<usize>, f: &dyn Fn(usize) -> Option<Payment>| {
            p.and_then(f).map_or(0.0, |pay| b.need(seat, pay, place - 1, true))
        };
        let values = [
            f32::from(u8::from(sb.round >= view.last_round)),
            f32::from(view.last_round.saturating_sub(sb.round)),
            up(above, &|a| Some(Payment::Ron { winner: seat, payer: a })),
            up(above, &|a| other(a).map(|o| Payment::Ron { winner: seat, payer: o })),
            up(above, &|_| Some(Payment::Tsumo { winner: seat })),
            top.map_or(0.0, |t| b.need(seat, Payment::Ron { winner: seat, payer: t }, 1, true)),
            top.map_or(0.0, |_| b.need(seat, Payment::Tsumo { winner: seat }, 1, true)),
            below.map_or(0.0, |w| b.need(seat, Payment::Ron { winner: w, payer: seat }, place + 1, false)),
        ];
        AllLastPrep { values }
    }
}

pub(crate) fn fill(prep: &AllLastPrep, cols: &mut Cols) {
    for ((name, _), v) in COLUMNS.iter().zip(prep.values) {
        cols.put(name, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::facts::tests_support::view;
    use crate::replay::view::Scoreboard;

    /// South 4 of a hanchan, seat 0 (not the dealer; seat 3 deals), 1 honba and 1 stick.
    fn at(scores: [i32; 4]) -> AllLastPrep {
        let mut v = view("123456789m1234p5p", "", 28, 28);
        v.opponents[2].is_dealer = true;
        v.scoreboard = Scoreboard { round: 7, honba: 1, sticks: 1, scores, seat: 0, players: 4 };
        AllLastPrep::new(&v)
    }

    #[test]
    fn needs_count_both_scores_the_sticks_and_the_honba() {
        // Second by 4,000 behind seat 1; seat 2 third, seat 3 (the dealer) last.
        let p = at([30_000, 34_000, 20_000, 15_000]);
        assert_eq!(p.values[..2], [1.0, 0.0]);
        // ron off the leader: 30,000 + x + 300 + 1,000 against 34,000 - x - 300; a tie goes
        // to seat 0, the earlier seat, so 1,200 (32,500 each) is enough
        assert_eq!(p.values[2], 1_200.0);
        // ron off seat 3: x + 300 + 1,000 >= 4,000 with the tie to seat 0: 2,700
        assert_eq!(p.values[3], 2_700.0);
        // tsumo: leader pays value/4 (rounded up) + 100, the dealer value/2 + 100, seat 2
        // value/4 + 100; gain + leader's payment >= 4,000.
        let t = p.values[4] as i32;
        let gain = |v: i32| 1000 + round_up_100(v / 2) + 2 * round_up_100(v / 4) + 300;
        let lead = |v: i32| 34_000 - (round_up_100(v / 4) + 100);
        assert!(30_000 + gain(t) >= lead(t) && 30_000 + gain(t - 100) < lead(t - 100), "{t}");
        // the leader is the one above: the top needs are the up needs
        assert_eq!(p.values[5], p.values[2]);
        assert_eq!(p.values[6], p.values[4]);
        // a deal-in to seat 2 (10,000 behind): seat 2 passes seat 0 when 20,000 + x + 300 +
        // 1,000 > 30,000 - x - 300 (a tie stays with seat 0): x > 4,200
        assert_eq!(p.values[7], 4_300.0);
    }

    /// The binary search finds what a scan of every payment finds, on random tables of three
    /// and four players: the smallest payment that meets the goal, and none below it does.
    #[test]
    fn the_search_is_the_scans_smallest_payment() {
        let mut next = crate::testdata::xorshift(0x0a11_1a57);
        for _ in 0..300 {
            let players = if next() % 3 == 0 { 3 } else { 4 };
            let mut scores = [0; 4];
            for s in scores.iter_mut().take(players) {
                *s = (next() % 700) as i32 * 100 - 5_000;
            }
            let b = Board {
                scores,
                players: players as u8,
                dealer: (next() % players as u64) as usize,
                honba: (next() % 4) as i32,
                sticks: (next() % 4) as i32,
            };
            let seat = (next() % players as u64) as usize;
            let place = b.placement(&b.scores, seat);
            let payer = (0..players).find(|&p| p != seat).unwrap();
            let cases = [
                (Payment::Ron { winner: seat, payer }, place.saturating_sub(1).max(1), true),
                (Payment::Tsumo { winner: seat }, 1, true),
                (Payment::Ron { winner: payer, payer: seat }, (place + 1).min(players as u8), false),
            ];
            for (pay, goal, up) in cases {
                let meets = |v: i32| b.meets(seat, pay, goal, up, v);
                let scan =
                    (0..=MAX_PAYMENT / 100).map(|i| i * 100).find(|&v| meets(v)).unwrap_or(MAX_PAYMENT);
                assert_eq!(b.need(seat, pay, goal, up), scan as f32, "{b:?} seat {seat} {pay:?} goal {goal}");
            }
        }
    }

    #[test]
    fn the_leader_needs_nothing_and_the_last_cannot_drop() {
        let p = at([40_000, 30_000, 20_000, 10_000]);
        assert_eq!(p.values[2..7], [0.0; 5]);
        assert!(p.values[7] > 0.0);
        let p = at([10_000, 30_000, 20_000, 40_000]);
        assert_eq!(p.values[7], 0.0);
        assert!(p.values[2..7].iter().all(|&v| v > 0.0));
        // an early round is not all-last
        let mut v = view("123456789m1234p5p", "", 27, 28);
        v.scoreboard.round = 1;
        let p = AllLastPrep::new(&v);
        assert_eq!(p.values[..2], [0.0, 6.0]);
    }
}
