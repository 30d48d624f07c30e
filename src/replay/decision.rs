//! Decisions: every point in a game where a player chose among legal actions, with all the
//! alternatives they had and the one they took.
//!
//! The [`DecisionRecorder`] watches the replay as an [`Observer`]. Which options existed is derived
//! from the table state (the hand, the last discard, the rules), never from the record; the record
//! only says which option was chosen. Kinds:
//! - `Discard`: after a draw or a chi/pon, each distinct tile (a red five apart from plain fives),
//!   minus kuikae-forbidden tiles; when riichi was just declared, only the discards that keep tenpai.
//!   No decision while in riichi (the drawn tile must go).
//! - `Riichi`: the hand could declare riichi (closed, tenpai after some discard, 1000 points, at least
//!   4 tiles in the wall); chosen `riichi` or `dama`.
//! - `Call`: a discard another player could chi, pon or daiminkan; chosen the call or `pass`. Skipped
//!   when a higher-priority action by someone else took the tile (ron, or a pon over a chi), because
//!   the record cannot say what the player would have done.

use super::{Observer, RiichiState, Table};
use crate::hand::MeldKind;
use crate::log::Event;
use crate::tile::{format_mpsz, Tile, TileId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DecisionKind {
    Discard,
    Riichi,
    Call,
    Agari,
    Kan,
}

impl DecisionKind {
    pub fn name(self) -> &'static str {
        match self {
            DecisionKind::Discard => "discard",
            DecisionKind::Riichi => "riichi",
            DecisionKind::Call => "call",
            DecisionKind::Agari => "agari",
            DecisionKind::Kan => "kan",
        }
    }
}

/// One action a player could take.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Discard(Tile),
    Riichi,
    /// Stay closed without riichi (dama).
    Dama,
    Pass,
    /// Chi using these two tiles from the hand.
    Chi([Tile; 2]),
    /// Pon using these two tiles from the hand.
    Pon([Tile; 2]),
    Daiminkan,
}

impl Action {
    /// Stable label: the tile in mpsz for a discard, else the action name with its tiles.
    pub fn label(&self) -> String {
        match self {
            Action::Discard(t) => t.to_string(),
            Action::Riichi => "riichi".into(),
            Action::Dama => "dama".into(),
            Action::Pass => "pass".into(),
            Action::Chi(t) => format!("chi_{}", format_mpsz(t)),
            Action::Pon(t) => format!("pon_{}", format_mpsz(t)),
            Action::Daiminkan => "daiminkan".into(),
        }
    }
}

/// A decision with the table as the player saw it.
#[derive(Clone, Debug)]
pub struct Decision {
    pub kind: DecisionKind,
    pub seat: u8,
    /// Index of the event in its round at which the decision was taken.
    pub event_index: usize,
    pub options: Vec<Action>,
    /// Index into `options` of what the player did.
    pub chosen: usize,
    /// False when what the player did was not among the options our rules derived (it is then
    /// appended to `options` so the record stays visible); a test asserts this never happens.
    pub chosen_listed: bool,
    /// For call decisions, the discarded tile on offer.
    pub offered: Option<Tile>,
    /// The table before the decision (hands include the drawn tile for discards).
    pub table: Table,
}

/// Collects decisions while a game is replayed. Decisions of a round are available after it ends.
#[derive(Default)]
pub struct DecisionRecorder {
    pub decisions: Vec<Decision>,
    prev: Option<Event>,
    /// Set when a seat's last action was a chi/pon: (seat, forbidden kinds bit set).
    kuikae: Option<(u8, u64)>,
    pending_calls: Vec<(u8, Vec<Action>)>,
    pending_discard: Option<(u8, TileId, usize, Box<Table>)>,
}

impl DecisionRecorder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the decisions collected so far.
    pub fn take(&mut self) -> Vec<Decision> {
        std::mem::take(&mut self.decisions)
    }
}

/// Kinds that may not be discarded right after a call (Tenhou forbids both same-kind and
/// suji kuikae).
fn kuikae_forbidden(call: &crate::log::Call) -> u64 {
    let Some(called) = call.called else { return 0 };
    let k = called.kind();
    let mut bits = 1u64 << k;
    if call.kind == MeldKind::Chi {
        let mut kinds: Vec<usize> = call.tiles.iter().map(|t| t.kind()).collect();
        kinds.sort_unstable();
        // called on an end of the run: the tile beyond the other end is forbidden too
        if k == kinds[0] && kinds[2] % 9 < 8 {
            bits |= 1 << (kinds[2] + 1);
        } else if k == kinds[2] && kinds[0] % 9 > 0 {
            bits |= 1 << (kinds[0] - 1);
        }
    }
    bits
}

/// The call options another seat has on a discard.
fn call_options(table: &Table, seat: u8, discarder: u8, tile: TileId) -> Vec<Action> {
    let mut out = Vec::new();
    if table.wall_left == 0 || matches!(table.riichi[seat as usize], RiichiState::Accepted { .. }) {
        return out;
    }
    let red = table.rules.red_fives;
    let hand: Vec<Tile> = table.hand_tiles(seat);
    let k = tile.kind();
    let mut same: Vec<Tile> = hand.iter().copied().filter(|t| t.kind() == k).collect();
    same.sort_by_key(|t| !t.is_red());
    // pon options: distinct pairs of tiles (red + plain differs from plain + plain)
    let mut pons: Vec<[Tile; 2]> = Vec::new();
    for i in 0..same.len() {
        for j in i + 1..same.len() {
            let p = [same[i], same[j]];
            if !pons.contains(&p) {
                pons.push(p);
            }
        }
    }
    out.extend(pons.into_iter().map(Action::Pon));
    if same.len() == 3 && table.kans < 4 {
        out.push(Action::Daiminkan);
    }
    if (discarder + 1) % 4 == seat && k < 27 {
        let n = k % 9;
        let find = |kind: usize| -> Vec<Tile> {
            let mut v: Vec<Tile> = hand.iter().copied().filter(|t| t.kind() == kind).collect();
            v.sort_by_key(|t| !t.is_red());
            v.dedup();
            v
        };
        for start in n.saturating_sub(2)..=n.min(6) {
            let base = k - n + start;
            let others: Vec<usize> = (base..base + 3).filter(|&x| x != k).collect();
            for a in find(others[0]) {
                for b in find(others[1]) {
                    out.push(Action::Chi([a, b]));
                }
            }
        }
    }
    let _ = red;
    out
}

impl Observer for DecisionRecorder {
    fn round_end(&mut self, _table: &Table, _result: &super::RoundResult) {
        // Nothing carries over into the next round.
        self.pending_discard = None;
        self.pending_calls.clear();
        self.kuikae = None;
        self.prev = None;
    }

    fn before_event(&mut self, table: &Table, index: usize, event: &Event) {
        // A player dropping out or coming back is not a game action: it neither answers a
        // pending call nor breaks a draw-then-discard sequence.
        if is_connection(event) {
            return;
        }
        // Resolve call opportunities on the previous discard at the next action. The acceptance
        // of a riichi and a new dora indicator come between a discard and a call in the records.
        let pending_stays = matches!(event, Event::Riichi { step: 2, .. } | Event::NewDora { .. });
        if pending_stays {
            return;
        }
        if let Some((discarder, tile, _di, snapshot)) = self.pending_discard.take() {
            let pending = std::mem::take(&mut self.pending_calls);
            let taken_by_ron = matches!(event, Event::Agari(a) if a.who != discarder);
            let caller = match event {
                Event::Call { who, call } if call.called == Some(tile) => Some((*who, call.clone())),
                _ => None,
            };
            if !taken_by_ron {
                for (seat, mut options) in pending {
                    let chosen = match &caller {
                        Some((who, call)) if *who == seat => {
                            let red = table.rules.red_fives;
                            let mine: Vec<Tile> =
                                call.tiles.iter().filter(|&&id| id != tile).map(|id| id.tile(red)).collect();
                            let act = match call.kind {
                                MeldKind::Chi => {
                                    let mut m = [mine[0], mine[1]];
                                    m.sort_by_key(|t| (t.kind(), !t.is_red()));
                                    Action::Chi(m)
                                }
                                MeldKind::Pon => {
                                    let mut m = [mine[0], mine[1]];
                                    m.sort_by_key(|t| !t.is_red());
                                    Action::Pon(m)
                                }
                                _ => Action::Daiminkan,
                            };
                            options.iter().position(|o| *o == act)
                        }
                        // A pon or kan by someone else takes priority over this seat's chi.
                        Some((who, call)) if call.kind != MeldKind::Chi && *who != seat => {
                            if options.iter().all(|o| matches!(o, Action::Chi(_))) {
                                continue;
                            }
                            options.retain(|o| !matches!(o, Action::Chi(_)));
                            None
                        }
                        _ => None,
                    };
                    let listed = chosen.is_some() || !matches!(&caller, Some((who, _)) if *who == seat);
                    options.insert(0, Action::Pass);
                    let chosen = chosen.map_or(0, |c| c + 1);
                    self.decisions.push(Decision {
                        kind: DecisionKind::Call,
                        seat,
                        event_index: index,
                        options,
                        chosen,
                        chosen_listed: listed,
                        offered: Some(tile.tile(table.rules.red_fives)),
                        table: (*snapshot).clone(),
                    });
                }
            }
        }
        match event {
            Event::Riichi { who, step: 1, .. } => {
                self.decisions.push(riichi_decision(table, *who, index, true));
            }
            Event::Discard { who, tile } => {
                let who = *who;
                let in_riichi = matches!(table.riichi[who as usize], RiichiState::Accepted { .. });
                if !in_riichi {
                    let declaring = table.riichi[who as usize] == RiichiState::Declared;
                    let after_draw = matches!(self.prev, Some(Event::Draw { who: w, .. }) if w == who);
                    if !declaring && after_draw && riichi_possible(table, who) {
                        self.decisions.push(riichi_decision(table, who, index, false));
                    }
                    let forbidden = match self.kuikae {
                        Some((seat, bits)) if seat == who => bits,
                        _ => 0,
                    };
                    let red = table.rules.red_fives;
                    let hand = crate::hand::Hand::new(table.hand_tiles(who), Vec::new());
                    let mut options: Vec<Action> = hand
                        .distinct_tiles()
                        .into_iter()
                        .filter(|t| forbidden >> t.kind() & 1 == 0)
                        .filter(|t| !declaring || keeps_tenpai(table, who, *t))
                        .map(Action::Discard)
                        .collect();
                    let chosen_tile = tile.tile(red);
                    let found = options.iter().position(|o| *o == Action::Discard(chosen_tile));
                    let chosen = found.unwrap_or_else(|| {
                        // Record what was done even if our legality rules disagree (kept visible).
                        options.push(Action::Discard(chosen_tile));
                        options.len() - 1
                    });
                    self.decisions.push(Decision {
                        kind: DecisionKind::Discard,
                        seat: who,
                        event_index: index,
                        options,
                        chosen,
                        chosen_listed: found.is_some(),
                        offered: None,
                        table: table.clone(),
                    });
                }
                self.kuikae = None;
            }
            _ => {}
        }
    }

    fn after_event(&mut self, table: &Table, index: usize, event: &Event) {
        if is_connection(event) {
            return;
        }
        match event {
            Event::Discard { who, tile } => {
                let pending: Vec<(u8, Vec<Action>)> = (1..4)
                    .map(|d| (who + d) % 4)
                    .map(|seat| (seat, call_options(table, seat, *who, *tile)))
                    .filter(|(_, o)| !o.is_empty())
                    .collect();
                if !pending.is_empty() {
                    // The snapshot is the table after the discard: what the callers saw.
                    self.pending_discard = Some((*who, *tile, index, Box::new(table.clone())));
                    self.pending_calls = pending;
                }
            }
            Event::Call { who, call } if matches!(call.kind, MeldKind::Chi | MeldKind::Pon) => {
                self.kuikae = Some((*who, kuikae_forbidden(call)));
            }
            _ => {}
        }
        self.prev = Some(event.clone());
    }
}

fn is_connection(event: &Event) -> bool {
    matches!(event, Event::Disconnect { .. } | Event::Reconnect { .. })
}

fn keeps_tenpai(table: &Table, who: u8, discard: Tile) -> bool {
    let mut c = table.hand_counts(who);
    c[discard.kind()] -= 1;
    crate::hand::shanten::min_shanten(&c) <= 0
}

fn riichi_possible(table: &Table, who: u8) -> bool {
    table.is_closed(who)
        && table.riichi[who as usize] == RiichiState::None
        && table.scores[who as usize] >= 1000
        && table.wall_left >= 4
        && crate::hand::shanten::min_shanten(&table.hand_counts(who)) <= 0
}

fn riichi_decision(table: &Table, who: u8, index: usize, declared: bool) -> Decision {
    Decision {
        kind: DecisionKind::Riichi,
        seat: who,
        event_index: index,
        options: vec![Action::Dama, Action::Riichi],
        chosen: usize::from(declared),
        chosen_listed: true,
        offered: None,
        table: table.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{replay_game, NoWinCheck};

    /// Counts, independently of the recorder, what the record did.
    #[derive(Default)]
    struct Truth {
        discards_not_in_riichi: usize,
        calls: usize,
        riichi: usize,
        rec: DecisionRecorder,
        decisions: Vec<Decision>,
    }

    impl Observer for Truth {
        fn before_event(&mut self, table: &Table, index: usize, event: &Event) {
            match event {
                Event::Discard { who, .. }
                    if !matches!(table.riichi[*who as usize], RiichiState::Accepted { .. }) =>
                {
                    self.discards_not_in_riichi += 1
                }
                Event::Call { call, .. } if call.called.is_some() && call.kind != MeldKind::Kakan => {
                    self.calls += 1
                }
                Event::Riichi { step: 1, .. } => self.riichi += 1,
                _ => {}
            }
            self.rec.before_event(table, index, event);
        }
        fn after_event(&mut self, table: &Table, index: usize, event: &Event) {
            self.rec.after_event(table, index, event);
        }
        fn round_end(&mut self, table: &Table, result: &super::super::RoundResult) {
            self.rec.round_end(table, result);
            self.decisions.append(&mut self.rec.take());
        }
    }

    /// On real games: every discard not forced by riichi is exactly one discard decision whose
    /// chosen tile is among the derived options; every chi/pon/daiminkan is a call decision that
    /// chose it; every riichi declaration is a riichi decision that chose riichi.
    #[test]
    fn every_recorded_action_is_a_listed_option() {
        let Some(files) = crate::testdata::tenhou_files(&[".mjlog"]) else { return };
        let mut checked = 0;
        for path in files.iter().step_by(25) {
            let bytes = std::fs::read(path).unwrap();
            let game = crate::log::source::parse_game(&path.display().to_string(), &bytes).unwrap();
            let mut t = Truth::default();
            if replay_game(&game, &mut t, &mut NoWinCheck).is_err() {
                continue; // known-bad fixtures are covered by the check test
            }
            let by = |k: DecisionKind| t.decisions.iter().filter(move |d| d.kind == k);
            assert_eq!(by(DecisionKind::Discard).count(), t.discards_not_in_riichi, "{}", path.display());
            let taken = by(DecisionKind::Call).filter(|d| d.options[d.chosen] != Action::Pass).count();
            assert_eq!(taken, t.calls, "{}", path.display());
            let declared = by(DecisionKind::Riichi).filter(|d| d.options[d.chosen] == Action::Riichi).count();
            assert_eq!(declared, t.riichi, "{}", path.display());
            for d in &t.decisions {
                assert!(
                    d.chosen_listed,
                    "{}: {:?} chose {:?} not in {:?}",
                    path.display(),
                    d.kind,
                    d.options[d.chosen],
                    d.options
                );
                let mut labels: Vec<String> = d.options.iter().map(Action::label).collect();
                labels.sort();
                labels.dedup();
                assert_eq!(labels.len(), d.options.len(), "duplicate options {:?}", d.options);
            }
            checked += 1;
        }
        assert!(checked > 150, "{checked} games checked");
    }
}
