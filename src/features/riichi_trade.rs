//! Family `riichi_trade`: the riichi option of a riichi decision crossed with the situation
//! (waits, turn, dora, opponents, standing) and with what riichi adds to the hand's ron value,
//! so one linear model can weigh riichi against dama. The dama option leaves the family at 0.

use super::column::Cols;
use super::dora::held_dora;
use super::facts::dora_table;
use crate::hand::meld::MeldKind;
use crate::hand::waits::ukeire;
use crate::replay::view::View;
use crate::tile::Tile;

pub(crate) const COLUMNS: &[(&str, &str)] = &[
    ("riichi_x_ukeire", "riichi option x unseen winning tiles after the discard"),
    ("riichi_x_turn", "riichi option x the player's draws so far"),
    ("riichi_x_dora", "riichi option x dora value held"),
    ("riichi_x_opp_riichi", "riichi option x number of opponents already in riichi"),
    ("riichi_x_wait_kinds", "riichi option x kinds the hand waits on after the discard (2+ = a good wait)"),
    ("riichi_x_wall_left", "riichi option x tiles left in the live wall"),
    ("riichi_x_dealer", "riichi option x the player is the dealer"),
    ("riichi_x_place", "riichi option x the player's placement by the scores before the round (1-4)"),
    ("riichi_x_last_round", "riichi option x the round is the game's last scheduled one or later (all-last)"),
    ("riichi_x_open_opp", "riichi option x opponents with 2+ calls (not in riichi)"),
    (
        "riichi_x_dama_points",
        "riichi option x the ron value without riichi, thousands of points, averaged over the unseen winning tiles (0 without yaku)",
    ),
    (
        "riichi_x_riichi_points",
        "riichi option x the ron value with riichi (no ura, no ippatsu), thousands of points, averaged over the unseen winning tiles",
    ),
    ("riichi_x_dama_no_yaku", "riichi option x no unseen winning tile makes a ron without riichi (dama wins only by tsumo)"),
    (
        "riichi_x_dama_mangan",
        "riichi option x share of the unseen winning tiles whose ron without riichi is already mangan or more",
    ),
];

/// The table facts the trade crosses with that a seat's [`View`] does not carry: the standing
/// before the round and the round's place in the game, given by the caller once per decision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Opponents in riichi (declared or accepted).
    pub opp_riichi: u8,
    /// The player is the dealer.
    pub dealer: bool,
    /// Placement 1..=4 by the scores before the round.
    pub place: u8,
    /// The round is the game's last scheduled one or later (all-last).
    pub last_round: bool,
}

/// Fills the family for the riichi option of `view` that discards `tile` (the best
/// tenpai-keeping discard), or with zeros for any other option (`riichi` false).
pub(crate) fn fill(view: &View, tile: Tile, standing: &Standing, riichi: bool, cols: &mut Cols) {
    if !riichi {
        let out = cols.slice();
        out.fill(0.0);
        return;
    }
    let mut after = [0u8; 34];
    view.hand.iter().for_each(|x| after[x.kind()] += 1);
    after[tile.kind()] -= 1;
    let u = ukeire(&after, &view.visible);
    let open_opp = view
        .opponents
        .iter()
        .filter(|o| !o.in_riichi() && o.melds.iter().filter(|m| m.kind != MeldKind::Ankan).count() >= 2)
        .count();
    let value = riichi_value(view, tile);
    cols.put("riichi_x_ukeire", u.count as f32);
    cols.put("riichi_x_turn", view.turn as f32);
    cols.put(
        "riichi_x_dora",
        held_dora(&dora_table(&view.dora_indicators, view.players()), &view.hand) as f32,
    );
    cols.put("riichi_x_opp_riichi", f32::from(standing.opp_riichi));
    cols.put("riichi_x_wait_kinds", u.kinds.count_ones() as f32);
    cols.put("riichi_x_wall_left", view.wall_left as f32);
    cols.flag("riichi_x_dealer", standing.dealer);
    cols.put("riichi_x_place", f32::from(standing.place));
    cols.flag("riichi_x_last_round", standing.last_round);
    cols.put("riichi_x_open_opp", open_opp as f32);
    cols.put("riichi_x_dama_points", value.dama_points);
    cols.put("riichi_x_riichi_points", value.riichi_points);
    cols.flag("riichi_x_dama_no_yaku", value.dama_no_yaku);
    cols.put("riichi_x_dama_mangan", value.dama_mangan);
}

/// What declaring riichi adds to a tenpai hand's ron, averaged over its unseen winning tiles.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct RiichiValue {
    /// Ron value without riichi, thousands of points (a wait without yaku counts 0).
    dama_points: f32,
    /// Ron value with riichi (no ura dora, no ippatsu), thousands of points.
    riichi_points: f32,
    /// No unseen winning tile gives a ron without riichi.
    dama_no_yaku: bool,
    /// Share of the unseen winning tiles whose ron without riichi is mangan or more.
    dama_mangan: f32,
}

/// The dama-or-riichi trade of the 14-tile hand of `view` after discarding `tile`: each winning
/// kind weighs by its copies the player has not seen (the discard lands in the river), and is
/// completed by a plain tile. Points are the ron payment without honba and sticks, as the
/// scoring engine gives them for this seat, round wind and dora.
fn riichi_value(view: &View, tile: Tile) -> RiichiValue {
    let mut concealed = view.hand.clone();
    let Some(at) = concealed.iter().position(|&t| t == tile) else { return RiichiValue::default() };
    concealed.swap_remove(at);
    let mut counts = [0u8; 34];
    concealed.iter().for_each(|t| counts[t.kind()] += 1);
    let waits = crate::hand::shanten::necessary_kinds(&counts);
    if waits.0 != 0 {
        return RiichiValue::default();
    }
    let (mut n_all, mut dama, mut riichi, mut dama_wins, mut mangan) = (0u32, 0f64, 0f64, 0u32, 0u32);
    for k in crate::hand::shanten::kinds_of(waits.1) {
        let seen = view.visible[k] + counts[k] + u8::from(tile.kind() == k);
        let n = u32::from(4u8.saturating_sub(seen));
        if n == 0 {
            continue;
        }
        let win = Tile::from_kind(k);
        let mut hand = concealed.clone();
        hand.push(win);
        let mut input = crate::score::WinInput::new(hand, view.melds.clone(), win);
        input.ron = true;
        input.round_wind = view.round_wind;
        input.seat_wind = view.seat_wind;
        input.dora_indicators = view.dora_indicators.clone();
        let plain = crate::score::score(&input);
        input.riichi = true;
        let with = crate::score::score(&input).map_or(0, |s| s.base_points);
        n_all += n;
        riichi += f64::from(n * with);
        if let Some(s) = plain {
            dama += f64::from(n * s.base_points);
            dama_wins += n;
            mangan += n * u32::from(s.limit != crate::score::Limit::None);
        }
    }
    if n_all == 0 {
        return RiichiValue { dama_no_yaku: true, ..RiichiValue::default() };
    }
    let per = |x: f64| (x / f64::from(n_all) / 1000.0) as f32;
    RiichiValue {
        dama_points: per(dama),
        riichi_points: per(riichi),
        dama_no_yaku: dama_wins == 0,
        dama_mangan: mangan as f32 / n_all as f32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::facts::tests_support::{tile, view};
    use crate::tile::EAST;

    const SOUTH: usize = EAST + 1;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-4
    }

    /// Pinfu waits on 3s-6s: 1 han 30 fu dama (1,000), 2 han with riichi (2,000), non-dealer.
    #[test]
    fn pinfu_is_worth_one_thousand_dama_and_two_with_riichi() {
        let v = riichi_value(&view("234567m234p4599s1z", "3z", EAST, SOUTH), tile("1z"));
        assert!(close(v.dama_points, 1.0) && close(v.riichi_points, 2.0), "{v:?}");
        assert!(!v.dama_no_yaku && close(v.dama_mangan, 0.0), "{v:?}");
    }

    /// A kanchan wait with no yaku: dama wins only by tsumo, riichi makes 1 han 40 fu (1,300).
    #[test]
    fn no_yaku_hand_is_worth_nothing_dama() {
        let v = riichi_value(&view("12355m456p13789s1z", "3z", EAST, SOUTH), tile("1z"));
        assert!(v.dama_no_yaku && close(v.dama_points, 0.0), "{v:?}");
        assert!(close(v.riichi_points, 1.3), "{v:?}");
    }

    /// 1s-4s with two dora: 4s is tanyao pinfu sanshoku dora 2 (haneman either way), 1s pinfu
    /// dora 2 (3,900 dama, 7,700 with riichi); four unseen copies each.
    #[test]
    fn sanshoku_side_is_haneman_dama() {
        let v = riichi_value(&view("2349m23455p23678s", "4p", EAST, SOUTH), tile("9m"));
        assert!(close(v.dama_points, 7.95) && close(v.riichi_points, 9.85), "{v:?}");
        assert!(!v.dama_no_yaku && close(v.dama_mangan, 0.5), "{v:?}");
    }

    /// Winning tiles the player has seen all copies of do not count; none left is no value.
    #[test]
    fn dead_waits_count_for_nothing() {
        let mut v = view("234567m234p4599s1z", "3z", EAST, SOUTH);
        v.visible[tile("3s").kind()] = 4;
        let one = riichi_value(&v, tile("1z"));
        assert!(close(one.dama_points, 1.0) && close(one.riichi_points, 2.0), "{one:?}");
        v.visible[tile("6s").kind()] = 4;
        assert_eq!(
            riichi_value(&v, tile("1z")),
            RiichiValue { dama_no_yaku: true, ..RiichiValue::default() }
        );
    }
}
