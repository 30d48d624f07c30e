//! Re-scoring every win from the replayed table and comparing with what Tenhou recorded.
//!
//! The situational flags (riichi, ippatsu, haitei, rinshan, chankan, tenhou...) come from the
//! table, not from the recorded yaku list, so a disagreement means either the replay or the scoring
//! engine is wrong: both are under test.

use super::{RiichiState, Table, WinChecker};
use crate::hand::MeldKind;
use crate::log::{Agari, Event};
use crate::score::{payments, score_with, ScoreRules, WinInput, WinScore};
use crate::tile::Tile;

/// Re-scores wins with the scoring engine.
#[derive(Default)]
pub struct Rescore {
    /// Wins scored (for throughput figures).
    pub scored: usize,
}

/// Builds the scoring input for a recorded win from the table state. Returns an error message
/// when the recorded hand does not match the replayed one. `second_ron` marks the second winner
/// of a double ron, who gets neither honba nor sticks (Tenhou pays both to the first winner only).
pub fn win_input(table: &Table, agari: &Agari, second_ron: bool) -> Result<WinInput, String> {
    let who = agari.who;
    let red = table.rules.red_fives;
    let ron = agari.from_who != who;
    let mut ids = table.hands[who as usize].clone();
    let chankan = ron && table.last_kakan.is_some_and(|(w, _)| w == agari.from_who);
    if ron {
        let tile = if chankan {
            table.last_kakan.map(|(_, t)| t)
        } else {
            table.last_discard.filter(|(w, _)| *w == agari.from_who).map(|(_, t)| t)
        };
        let Some(tile) = tile else {
            return Err(format!("ron by seat {who} from seat {} with no discard to take", agari.from_who));
        };
        if tile != agari.win_tile {
            return Err(format!(
                "ron tile {} but the last discard is id {}",
                agari.win_tile.get(),
                tile.get()
            ));
        }
        ids.push(tile);
    } else if table.last_draw[who as usize] != Some(agari.win_tile) {
        return Err(format!("tsumo on id {} which seat {who} did not just draw", agari.win_tile.get()));
    }
    if !agari.hand.is_empty() {
        let mut a = ids.clone();
        let mut b = agari.hand.clone();
        a.sort_unstable();
        b.sort_unstable();
        if a != b {
            return Err(format!("recorded hand {b:?} differs from the replayed hand {a:?}"));
        }
    }
    let concealed: Vec<Tile> = ids.iter().map(|id| id.tile(red)).collect();
    let melds = table.hand_melds(who);
    let (riichi, double) = match table.riichi[who as usize] {
        RiichiState::Accepted { double, .. } => (!double, double),
        _ => (false, false),
    };
    let first = table.draws[who as usize] == 1 && !table.any_call && table.rivers[who as usize].is_empty();
    let dealer = who == table.start.dealer;
    let mut input = WinInput::new(concealed, melds, agari.win_tile.tile(red));
    input.ron = ron;
    input.round_wind = table.round_wind();
    input.seat_wind = table.seat_wind(who);
    input.riichi = riichi;
    input.double_riichi = double;
    input.ippatsu = table.ippatsu[who as usize];
    input.rinshan = !ron && table.rinshan[who as usize];
    input.haitei = !ron && table.wall_left == 0 && !input.rinshan;
    input.houtei = ron && table.wall_left == 0 && !chankan;
    input.chankan = chankan;
    input.tenhou = !ron && first && dealer;
    input.chiihou = !ron && first && !dealer;
    input.dora_indicators = table.dora_indicators.iter().map(|d| d.tile(red)).collect();
    input.ura_indicators = agari.ura_indicators.iter().map(|d| d.tile(red)).collect();
    (input.honba, input.sticks) = if second_ron { (0, 0) } else { (agari.honba, agari.sticks) };
    Ok(input)
}

/// Describes every difference between a re-scored win and the record.
pub fn compare(table: &Table, agari: &Agari, win: &WinScore, input: &WinInput) -> Vec<String> {
    let mut out = Vec::new();
    let mut recorded: Vec<(u8, u8)> = agari.yaku.iter().copied().filter(|&(_, h)| h > 0).collect();
    recorded.sort_unstable();
    let mut ours = win.yaku.clone();
    ours.sort_unstable();
    if recorded != ours {
        out.push(format!("yaku: recorded {recorded:?}, re-scored {ours:?}"));
    }
    let mut ry = agari.yakuman.clone();
    ry.sort_unstable();
    if ry != win.yakuman {
        out.push(format!("yakuman: recorded {ry:?}, re-scored {:?}", win.yakuman));
    }
    if agari.fu != win.fu as u32 {
        out.push(format!("fu: recorded {}, re-scored {}", agari.fu, win.fu));
    }
    if agari.points != win.base_points as i32 {
        out.push(format!("points: recorded {}, re-scored {}", agari.points, win.base_points));
    }
    if agari.limit != win.limit {
        out.push(format!("limit: recorded {:?}, re-scored {:?}", agari.limit, win.limit));
    }
    let ron_from = (agari.from_who != agari.who).then_some(agari.from_who);
    let pay =
        payments(win, agari.who, table.start.dealer, ron_from, agari.pao_who, input.honba, input.sticks);
    if pay != agari.deltas {
        out.push(format!("score changes: recorded {:?}, re-scored {pay:?}", agari.deltas));
    }
    out
}

impl WinChecker for Rescore {
    fn check(&mut self, table: &Table, agari: &Agari, index: usize, events: &[Event]) -> Vec<String> {
        let second_ron = index > 0 && matches!(events[index - 1], Event::Agari(_));
        let input = match win_input(table, agari, second_ron) {
            Ok(i) => i,
            Err(e) => return vec![e],
        };
        let rules = ScoreRules { kuitan: table.rules.kuitan, ..ScoreRules::TENHOU };
        self.scored += 1;
        match score_with(&input, &rules) {
            Some(win) => compare(table, agari, &win, &input),
            None => vec![format!(
                "re-scoring found no valid win for seat {} ({} + {} melds)",
                agari.who,
                crate::tile::format_mpsz(&input.concealed),
                input.melds.iter().filter(|m| m.kind != MeldKind::Ankan).count()
            )],
        }
    }
}
