//! The ground truth a danger model learns from: at a discard decision, what each opponent's
//! concealed hand (which the replay knows and the deciding player does not) waits on, and what a
//! ron on each winning kind would pay ([`opponent_waits`]).
//!
//! The labels answer "had I discarded kind k here, would this opponent have been able to ron it,
//! and for how much", so they follow the rules a ron follows, not the hand alone:
//! - `waits`: the winning kinds of the 13-tile hand (tenpai = some kind; [`rules::wait_kinds`],
//!   what the engine judges furiten against).
//! - `furiten`: a winning kind is in the opponent's own river (called-away tiles too), or was
//!   discarded by anyone since the opponent's last discard (a passed winning tile), or, once the
//!   opponent is in riichi, since their riichi tile. A furiten opponent cannot ron any kind.
//! - `ron_points[k]`: the hand value (Tenhou's `ten`, without honba and sticks) of a ron on a
//!   plain copy of kind k from the deciding seat, scored by the one scorer with the table as it
//!   stands (riichi, ippatsu, houtei on the last discard, dora indicators shown). Ura dora are
//!   unknown at the decision and left out, so a riichi hand's value is a lower bound by its ura.
//!   0 when a ron is not possible: not a winning kind, furiten, or no yaku (an open hand without
//!   one, or a closed hand whose only yaku would be menzen tsumo).
//!
//! A red five is scored as a plain five (the ron on the red copy is worth one han more); the
//! labels are by kind, as the danger of a discard is.

use super::check::win_input;
use super::rules::{unscored_win, wait_kinds};
use super::table::{RiichiState, Table};
use crate::hand::shanten::min_shanten;
use crate::score::score_with;
use crate::tile::{TileId, KINDS};

/// One opponent's waits at a discard decision of another seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpponentWaits {
    /// The opponent's absolute seat.
    pub seat: u8,
    /// Minimum shanten of the opponent's concealed hand (0 with no winning kind: every kind it
    /// waits on is held four times in the hand).
    pub shanten: i8,
    /// Winning kinds, as bits over kinds (0 when not tenpai).
    pub waits: u64,
    /// A winning kind was passed or discarded (see the module doc): no ron at all.
    pub furiten: bool,
    /// Points a ron on each kind would pay (0: no ron possible on it).
    pub ron_points: [u32; KINDS],
}

impl OpponentWaits {
    pub fn tenpai(&self) -> bool {
        self.waits != 0
    }

    /// Kinds a ron is possible on (a winning kind, not furiten, with a yaku), as bits.
    pub fn ron_kinds(&self) -> u64 {
        (0..KINDS).filter(|&k| self.ron_points[k] > 0).fold(0, |m, k| m | 1 << k)
    }
}

fn bits_of(kinds: impl Iterator<Item = usize>) -> u64 {
    kinds.fold(0, |m, k| m | 1 << k)
}

/// Whether seat `opp`, waiting on `waits`, is furiten (see the module doc). Reads the table's
/// every-discard list ([`Table::discards`]) from the end back to the opponent's last discard, or
/// to its riichi tile when it is in riichi.
pub fn furiten(t: &Table, opp: u8, waits: u64) -> bool {
    let own = bits_of(t.rivers[opp as usize].iter().map(|r| r.tile.kind()));
    if own & waits != 0 {
        return true;
    }
    let mine: Vec<usize> =
        t.discards.iter().enumerate().filter(|(_, (s, _))| *s == opp).map(|(i, _)| i).collect();
    let since = match t.riichi[opp as usize] {
        RiichiState::Accepted { river_index, .. } => mine.get(river_index).copied(),
        _ => mine.last().copied(),
    };
    let from = since.map_or(0, |i| i + 1);
    bits_of(t.discards[from..].iter().filter(|(s, _)| *s != opp).map(|(_, x)| x.kind())) & waits != 0
}

/// Points a ron by `opp` on a plain copy of kind `k` discarded by `from` would pay, the table
/// standing before that discard; `None` when the hand is not complete with it or has no yaku.
/// Furiten is the caller's.
pub fn ron_points(t: &Table, opp: u8, from: u8, k: usize) -> Option<u32> {
    // Copy 3 is never a red five (those are copy 0), so the tile scores as a plain one.
    let tile = TileId::new((k * 4 + 3) as u32)?;
    let mut at = t.clone();
    at.last_discard = Some((from, tile));
    at.last_kakan = None;
    at.last_kita = None;
    let agari = unscored_win(&at, opp, from, tile, false, Vec::new());
    let input = win_input(&at, &agari, false).ok()?;
    score_with(&input, &at.rules.score_rules()).map(|s| s.base_points)
}

/// The waits of every opponent of `who` at a discard decision of `who` (the table as the
/// decision found it), in relative seat order 1, 2, 3 ([`super::view::opponent_seats`]); `None`
/// for the empty seat at three players.
pub fn opponent_waits(t: &Table, who: u8) -> [Option<OpponentWaits>; 3] {
    super::view::opponent_seats(t.rules.players, who).map(|s| s.map(|opp| waits_of(t, who, opp)))
}

fn waits_of(t: &Table, who: u8, opp: u8) -> OpponentWaits {
    let waits = wait_kinds(t, opp);
    let shanten = min_shanten(&t.hand_counts(opp));
    let furiten = waits != 0 && furiten(t, opp, waits);
    let mut points = [0u32; KINDS];
    if !furiten {
        for (k, p) in points.iter_mut().enumerate().filter(|(k, _)| waits >> k & 1 == 1) {
            *p = ron_points(t, opp, who, k).unwrap_or(0);
        }
    }
    OpponentWaits { seat: opp, shanten, waits, furiten, ron_points: points }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::event::Agari;
    use crate::replay::decision::{Action, Decision, DecisionKind, Recording, RoundSink};
    use crate::replay::{replay_game, NoWinCheck, RoundResult};

    /// Every ron of the round, with the last discard decision before it.
    #[derive(Default)]
    struct Rons {
        found: Vec<(Agari, Decision)>,
    }

    impl RoundSink for Rons {
        fn round(&mut self, _: &Table, result: &RoundResult, decisions: Vec<Decision>) {
            let RoundResult::Wins(wins) = result else { return };
            let Some(last) = decisions.iter().rev().find(|d| d.kind == DecisionKind::Discard) else { return };
            for a in wins.iter().filter(|a| a.from_who != a.who && a.from_who == last.seat) {
                let Action::Discard(tile) = last.options[last.chosen] else { continue };
                // A robbed kan or north is not the discard.
                if tile.kind() == a.win_tile.kind() {
                    self.found.push((a.clone(), last.clone()));
                }
            }
        }
    }

    /// On real games, every recorded ron is one the labels allow: at the discard decision that
    /// dealt in, the winner is tenpai on the ronned kind, not furiten, and a ron there pays
    /// what the record says (when the record's value holds no ura dora and the tile was not a red
    /// five, the two things the labels leave out by design, the record's value is exactly ours;
    /// else ours is not above it). The record's points are Tenhou's, not this scorer's.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn recorded_rons_are_allowed_by_the_labels_and_pay_the_recorded_points() {
        let files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        let mut rons = Recording::new(Rons::default());
        for f in files.iter().take(300) {
            let game = crate::log::source::Source::file(f.clone()).load().unwrap();
            replay_game(&game, &mut rons, &mut NoWinCheck).unwrap();
        }
        let (mut exact, mut bounded) = (0, 0);
        for (a, d) in &rons.sink.found {
            let w = opponent_waits(&d.table, d.seat).into_iter().flatten().find(|w| w.seat == a.who).unwrap();
            let k = a.win_tile.kind();
            assert!(w.tenpai() && w.waits >> k & 1 == 1, "{a:?}: not a winning kind");
            assert!(!w.furiten, "{a:?}: a recorded ron judged furiten");
            let ours = w.ron_points[k] as i32;
            let ura = a.yaku.iter().any(|&(id, han)| id == 53 && han > 0);
            if ura || a.win_tile.tile(d.table.rules.red_fives()).is_red() {
                assert!(ours > 0 && ours <= a.points, "{a:?}: {ours}");
                bounded += 1;
            } else {
                assert_eq!(ours, a.points, "{a:?}");
                exact += 1;
            }
        }
        assert!(exact > 1000 && bounded > 100, "{exact} exact, {bounded} bounded");
    }

    /// A furiten seat is one whose winning kind lies in its own river, or passed since.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn furiten_opponents_and_non_tenpai_ones_have_no_ron() {
        #[derive(Default)]
        struct All(Vec<Decision>);
        impl RoundSink for All {
            fn round(&mut self, _: &Table, _: &RoundResult, d: Vec<Decision>) {
                self.0.extend(d.into_iter().filter(|d| d.kind == DecisionKind::Discard));
            }
        }
        let files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        let mut all = Recording::new(All::default());
        for f in files.iter().take(100) {
            let game = crate::log::source::Source::file(f.clone()).load().unwrap();
            replay_game(&game, &mut all, &mut NoWinCheck).unwrap();
        }
        let (mut tenpai, mut furiten, mut own_river) = (0, 0, 0);
        for d in &all.sink.0 {
            for w in opponent_waits(&d.table, d.seat).into_iter().flatten() {
                assert_eq!(w.ron_kinds() & !w.waits, 0, "a ron on a kind it does not wait on");
                if !w.tenpai() || w.furiten {
                    assert_eq!(w.ron_kinds(), 0);
                }
                tenpai += usize::from(w.tenpai());
                furiten += usize::from(w.furiten);
                let river = d.table.rivers[w.seat as usize].iter().fold(0u64, |m, r| m | 1 << r.tile.kind());
                if river & w.waits != 0 {
                    assert!(w.furiten);
                    own_river += 1;
                }
            }
        }
        assert!(tenpai > 10000 && furiten > 50 && own_river > 40, "{tenpai} {furiten} {own_river}");
    }
}
