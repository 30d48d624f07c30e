//! Points from han and fu, limit hands, and who pays what.
//!
//! Tenhou rules: no kiriage mangan (4 han 30 fu is 7700), 13+ han is a counted yakuman worth one
//! yakuman however many han, every yakuman is worth 8000 basic points times its multiplier.

use super::{ScoreRules, WinScore};
use crate::score::Limit;

/// Basic points of a normal (non-yakuman) hand and its limit class.
pub fn basic_points(han: u8, fu: u8, rules: &ScoreRules) -> (u32, Limit) {
    match han {
        13.. if rules.kazoe_yakuman => (8000, Limit::Yakuman),
        11.. => (6000, Limit::Sanbaiman),
        8..=10 => (4000, Limit::Baiman),
        6..=7 => (3000, Limit::Haneman),
        5 => (2000, Limit::Mangan),
        _ => {
            let raw = fu as u32 * (1u32 << (han as u32 + 2));
            if raw >= 2000 {
                (2000, Limit::Mangan)
            } else if rules.kiriage_mangan && raw >= 1920 {
                // Rounded up to mangan points, but Tenhou's record keeps limit 0 for these.
                (2000, Limit::None)
            } else {
                (raw, Limit::None)
            }
        }
    }
}

/// Rounds up to the next 100 points.
#[inline]
pub const fn ceil100(x: u32) -> u32 {
    x.div_ceil(100) * 100
}

/// What the winning hand is worth before honba and riichi sticks, as Tenhou writes it in the
/// second field of `ten`: the ron payment, or the sum of the tsumo payments. At a table of
/// `players` seats a tsumo is paid by the `players − 1` others their four-player shares (at
/// three, Tenhou's tsumo loss: the missing seat's share is not paid).
pub fn hand_points(base: u32, dealer: bool, ron: bool, players: u8) -> u32 {
    let others = u32::from(players.max(2)) - 1;
    match (ron, dealer) {
        (true, true) => ceil100(base * 6),
        (true, false) => ceil100(base * 4),
        (false, true) => others * ceil100(base * 2),
        (false, false) => ceil100(base * 2) + (others - 1) * ceil100(base),
    }
}

/// Who takes part in a win's payments: the winner, the dealer, the discarder (`ron_from`,
/// `None` for tsumo) and the seat liable under sekinin barai (`pao`, daisangen and daisuushii,
/// as Tenhou records it in `paoWho`), at a table of `players` seats (absolute seats, 0 = the first
/// dealer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Payers {
    pub winner: u8,
    pub dealer: u8,
    pub ron_from: Option<u8>,
    pub pao: Option<u8>,
    pub players: u8,
}

/// Per-seat score changes of one win.
///
/// A honba adds 100 from each other seat to a ron (300 at four players, 200 at three) and 100
/// from each payer to a tsumo; riichi sticks go to the winner. For a double ron the caller passes
/// `honba = 0, sticks = 0` to the second winner (Tenhou gives both to the winner nearest the
/// discarder in turn order).
///
/// Pao, as Tenhou does it (checked against the three pao records in the shared Tenhou data,
/// where a daisangen + tsuuiisou tsumo had the liable player pay the whole 64000 + 900 honba):
/// - tsumo: the liable player pays the whole hand (every yakuman in it, not only the one it is
///   liable for) plus all honba; nobody else pays.
/// - ron from another player: the discarder and the liable player each pay half of the hand, the
///   liable player also pays the honba (as mjx implements Tenhou; no ron-with-pao record exists
///   in the shared data to confirm the honba side).
/// - ron from the liable player himself: an ordinary ron.
pub fn payments(win: &WinScore, who: &Payers, honba: u8, sticks: u8) -> [i32; 4] {
    let (hand_points_total, base) = (win.base_points, win.basic_points);
    let Payers { winner, dealer, ron_from, pao, players } = *who;
    let mut d = [0i32; 4];
    let w = winner as usize % 4;
    let ron_honba = 100 * (i32::from(players.max(2)) - 1) * honba as i32;
    let honba = honba as i32;
    let win_dealer = winner == dealer;
    let total = hand_points_total as i32;
    d[w] += total + ron_honba + 1000 * sticks as i32;
    match (ron_from, pao) {
        (Some(from), Some(p)) if p != from && p != winner => {
            let half = total / 2;
            d[from as usize % 4] -= total - half;
            d[p as usize % 4] -= half + ron_honba;
        }
        (Some(from), _) => d[from as usize % 4] -= total + ron_honba,
        (None, Some(p)) if p != winner => d[p as usize % 4] -= total + ron_honba,
        (None, _) => {
            for s in (0..players.min(4)).filter(|&s| s != winner) {
                let share = if win_dealer || s == dealer { ceil100(base * 2) } else { ceil100(base) };
                d[s as usize] -= share as i32 + 100 * honba;
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A score with only the fields payments read.
    fn value(total: u32, base: u32) -> WinScore {
        WinScore {
            yaku: vec![],
            yakuman: vec![],
            han: 0,
            fu: 0,
            yakuman_multiplier: 0,
            limit: Limit::None,
            basic_points: base,
            base_points: total,
        }
    }

    #[test]
    fn table_values() {
        // Non-dealer ron, from the standard point table.
        let ron = |han, fu| hand_points4(basic_points(han, fu, &ScoreRules::TENHOU).0, false, true);
        assert_eq!(ron(1, 30), 1000);
        assert_eq!(ron(1, 40), 1300);
        assert_eq!(ron(2, 25), 1600);
        assert_eq!(ron(3, 30), 3900);
        assert_eq!(ron(4, 30), 7700, "no kiriage mangan");
        assert_eq!(ron(4, 40), 8000);
        assert_eq!(ron(3, 70), 8000);
        assert_eq!(ron(7, 30), 12000);
        assert_eq!(ron(10, 30), 16000);
        assert_eq!(ron(12, 30), 24000);
        assert_eq!(ron(13, 30), 32000);
        assert_eq!(basic_points(4, 30, &ScoreRules::TENHOU).1, Limit::None);
        assert_eq!(basic_points(3, 70, &ScoreRules::TENHOU).1, Limit::Mangan);
        let kiriage = ScoreRules { kiriage_mangan: true, ..ScoreRules::TENHOU };
        assert_eq!(basic_points(4, 30, &kiriage), (2000, Limit::None));
        assert_eq!(basic_points(3, 60, &kiriage), (2000, Limit::None));
        assert_eq!(basic_points(3, 50, &kiriage), (1600, Limit::None));
        // Dealer ron and tsumo.
        assert_eq!(hand_points4(basic_points(1, 30, &ScoreRules::TENHOU).0, true, true), 1500);
        assert_eq!(hand_points4(basic_points(1, 30, &ScoreRules::TENHOU).0, true, false), 1500);
        assert_eq!(hand_points4(basic_points(1, 30, &ScoreRules::TENHOU).0, false, false), 1100);
        assert_eq!(hand_points4(basic_points(2, 20, &ScoreRules::TENHOU).0, false, false), 1500);
        assert_eq!(hand_points4(basic_points(3, 20, &ScoreRules::TENHOU).0, false, false), 2700);
    }

    #[test]
    fn payments_with_honba_and_sticks() {
        // Non-dealer (seat 2) tsumo 30 fu 1 han, dealer seat 0, 1 honba, 2 sticks.
        let base = basic_points(1, 30, &ScoreRules::TENHOU).0;
        let p = payments(&value(hand_points(base, false, false, 4), base), &four(2, 0, None, None), 1, 2);
        assert_eq!(p, [-600, -400, 1100 + 300 + 2000, -400]);
        // Ron from seat 3 with 1 honba.
        let p = payments(&value(1000, base), &four(2, 0, Some(3), None), 1, 0);
        assert_eq!(p, [0, 0, 1300, -1300]);
    }

    fn hand_points4(base: u32, dealer: bool, ron: bool) -> u32 {
        hand_points(base, dealer, ron, 4)
    }

    fn four(winner: u8, dealer: u8, ron_from: Option<u8>, pao: Option<u8>) -> Payers {
        Payers { winner, dealer, ron_from, pao, players: 4 }
    }

    /// Tenhou's sanma: the tsumo examples of docs/sanma.md (`sc` deltas of real records).
    #[test]
    fn three_player_tsumo_loss_and_honba() {
        let rules = ScoreRules::TENHOU_SANMA;
        let three = |winner, dealer, ron_from| Payers { winner, dealer, ron_from, pao: None, players: 3 };
        // …18a1410f round#4 (南1-1): non-dealer 60 fu 8 han (baiman), 1 honba, 1 stick: the dealer
        // pays 8,100, the other 4,100, the winner +13,200; `ten` says 12,000.
        let (base, _) = basic_points(8, 60, &rules);
        let total = hand_points(base, false, false, 3);
        assert_eq!(total, 12_000);
        assert_eq!(payments(&value(total, base), &three(1, 0, None), 1, 1), [-8_100, 13_200, -4_100, 0]);
        // …2eca4cd0 round#3 (東2-1): the dealer's 30 fu 6 han tsumo, 1 honba: 6,100 each.
        let (base, _) = basic_points(6, 30, &rules);
        assert_eq!(hand_points(base, true, false, 3), 12_000);
        assert_eq!(payments(&value(12_000, base), &three(1, 1, None), 1, 1), [-6_100, 13_200, -6_100, 0]);
        // …2eca4cd0 round#12 (南2-3): a 8,000 ron with 3 honba: 200 a honba.
        assert_eq!(payments(&value(8_000, 2_000), &three(0, 1, Some(2)), 3, 0), [8_600, 0, -8_600, 0]);
    }

    #[test]
    fn pao_matches_tenhou_records() {
        // 2019103023gm-00a9-0000-f90e0fe9: seat 0 (non-dealer) tsumo daisangen + tsuuiisou,
        // 64000, 3 honba, pao seat 2: seat 0 +64900, seat 2 -64900.
        let p = payments(&value(64000, 16000), &four(0, 1, None, Some(2)), 3, 0);
        assert_eq!(p, [64900, 0, -64900, 0]);
        // Ron from seat 1 with pao seat 3, 2 honba: split, honba on the liable player.
        let p = payments(&value(32000, 8000), &four(0, 1, Some(1), Some(3)), 2, 1);
        assert_eq!(p, [32000 + 600 + 1000, -16000, 0, -16600]);
        // The liable player deals in: ordinary ron.
        let p = payments(&value(32000, 8000), &four(0, 1, Some(3), Some(3)), 0, 0);
        assert_eq!(p, [32000, 0, 0, -32000]);
    }
}
