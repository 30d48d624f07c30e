//! Decisions: every point in a game where a player chose among legal actions, with all the
//! alternatives they had and the one they took.
//!
//! The [`DecisionRecorder`] watches the replay as an [`Observer`]. Which options existed is derived
//! from the table state by the shared rules ([`super::rules`], the same the self-play engine
//! offers its bots), never from the record; the record only says which option was chosen. Kinds:
//! - `Discard`: after a draw or a chi/pon, each distinct tile (a red five apart from plain fives),
//!   minus kuikae-forbidden tiles; when riichi was just declared, only the discards that keep tenpai.
//!   No decision while in riichi (the drawn tile must go).
//! - `Riichi`: the hand could declare riichi (closed, tenpai after some discard, 1000 points, at least
//!   4 tiles in the wall); chosen `riichi` or `dama`.
//! - `Call`: a discard another player could chi, pon or daiminkan (not a call that would leave no
//!   legal discard after kuikae: Tenhou does not offer it); chosen the call or `pass`. Skipped
//!   when a higher-priority action by someone else took the tile (ron, or a pon over a chi), because
//!   the record cannot say what the player would have done.
//! - `Kita` (three players): right after its own draw the seat holds a north it may set aside
//!   ([`rules::kita_allowed`]); chosen `kita` when it does, `keep` when it discards instead (the
//!   discard is then a decision of its own, after this one).

use super::table::{RiichiState, Table};
use super::{rules, Observer};
use crate::hand::meld::MeldKind;
use crate::log::event::Event;
use crate::tile::{format_mpsz, Tile, TileId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DecisionKind {
    Discard,
    Riichi,
    Call,
    Agari,
    Kan,
    Kita,
}

impl DecisionKind {
    pub fn name(self) -> &'static str {
        match self {
            DecisionKind::Discard => "discard",
            DecisionKind::Riichi => "riichi",
            DecisionKind::Call => "call",
            DecisionKind::Agari => "agari",
            DecisionKind::Kan => "kan",
            DecisionKind::Kita => "kita",
        }
    }

    /// The kind of a [`DecisionKind::name`].
    pub fn from_name(name: &str) -> Option<DecisionKind> {
        use DecisionKind::*;
        [Discard, Riichi, Call, Agari, Kan, Kita].into_iter().find(|k| k.name() == name)
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
    /// Set a north aside (three players).
    Kita,
    /// Keep the north (three players): discard something instead.
    Keep,
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
            Action::Kita => "kita".into(),
            Action::Keep => "keep".into(),
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

/// What a collector does with each round's decisions: the table and the result at the round's
/// end, and the decisions the round held, in order ([`Recording`]).
pub trait RoundSink {
    fn round(&mut self, table: &Table, result: &super::RoundResult, decisions: Vec<Decision>);
}

/// The recording observer: a [`DecisionRecorder`] that hands each round's decisions to its sink
/// when the round ends. The ingest rows, the review and the agreement statistics each collect
/// through one, so none of them repeats the recorder's plumbing.
pub struct Recording<S> {
    recorder: DecisionRecorder,
    pub sink: S,
}

impl<S: RoundSink> Recording<S> {
    pub fn new(sink: S) -> Recording<S> {
        Recording { recorder: DecisionRecorder::new(), sink }
    }
}

impl<S: RoundSink> Observer for Recording<S> {
    fn before_event(&mut self, table: &Table, index: usize, event: &Event) {
        self.recorder.before_event(table, index, event);
    }
    fn after_event(&mut self, table: &Table, index: usize, event: &Event) {
        self.recorder.after_event(table, index, event);
    }
    fn round_end(&mut self, table: &Table, result: &super::RoundResult) {
        self.recorder.round_end(table, result);
        let decisions = self.recorder.take();
        self.sink.round(table, result, decisions);
    }
}

/// The chi / pon / open kan options of `seat` on `tile`, by the shared rules
/// ([`rules::call_options`]), as actions on tiles: one per distinct pair of hand tiles (a red
/// five apart from a plain one), pons before the open kan before chis, red fives first, chis by
/// their lowest kind.
fn call_options(table: &Table, seat: u8, discarder: u8, tile: TileId) -> Vec<Action> {
    call_actions(&rules::call_options(table, seat, discarder, tile), table.rules.red_fives())
}

/// The calls of `o` as a decision lists them: each distinct pon (red five first), the open kan,
/// each distinct chi; a hand's two copies of a tile give one option, so the options are what a
/// player tells apart, not the ids the rules found.
pub fn call_actions(o: &rules::CallOptions, red: bool) -> Vec<Action> {
    let mut pons: Vec<[Tile; 2]> = o.pon.iter().map(|p| red_first(p, red)).collect();
    pons.sort_by_key(|m| (!m[0].is_red(), !m[1].is_red()));
    pons.dedup();
    let mut chis: Vec<[Tile; 2]> = o.chi.iter().map(|p| red_first(p, red)).collect();
    chis.sort_by_key(|m| (m[0].kind(), !m[0].is_red(), !m[1].is_red()));
    chis.dedup();
    let mut out: Vec<Action> = pons.into_iter().map(Action::Pon).collect();
    if o.daiminkan {
        out.push(Action::Daiminkan);
    }
    out.extend(chis.into_iter().map(Action::Chi));
    out
}

/// The two hand tiles of a call, as an option names them: by kind, a red five first.
fn red_first(p: &[TileId; 2], red: bool) -> [Tile; 2] {
    let mut m = [p[0].tile(red), p[1].tile(red)];
    m.sort_by_key(|t| (t.kind(), !t.is_red()));
    m
}

/// The hand tiles (ids) of `o` that make the listed call `action` (a chi or a pon of
/// [`call_actions`]): how a player that chose among the listed options answers the engine.
pub fn call_ids(o: &rules::CallOptions, red: bool, action: &Action) -> Option<[TileId; 2]> {
    let (listed, tiles) = match action {
        Action::Pon(t) => (&o.pon, t),
        Action::Chi(t) => (&o.chi, t),
        _ => return None,
    };
    listed.iter().copied().find(|p| red_first(p, red) == *tiles)
}

impl Observer for DecisionRecorder {
    fn round_end(&mut self, _table: &Table, _result: &super::RoundResult) {
        // Nothing carries over into the next round.
        self.pending_discard = None;
        self.pending_calls.clear();
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
                            let red = table.rules.red_fives();
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
                        offered: Some(tile.tile(table.rules.red_fives())),
                        table: (*snapshot).clone(),
                    });
                }
            }
        }
        match event {
            Event::Riichi { who, step: 1, .. } => {
                self.decisions.push(riichi_decision(table, *who, index, true));
            }
            Event::Kita { who, .. } => self.decisions.push(kita_decision(table, *who, index, true)),
            Event::Discard { who, tile } => {
                let who = *who;
                let after_draw = matches!(self.prev, Some(Event::Draw { who: w, .. }) if w == who);
                let declaring = table.riichi[who as usize] == RiichiState::Declared;
                // A north may be set aside right after the seat's own draw (never after its chi or
                // pon, nor once riichi is declared): the discard then kept it.
                if after_draw && !declaring && rules::kita_allowed(table, who).is_some() {
                    self.decisions.push(kita_decision(table, who, index, false));
                }
                let in_riichi = matches!(table.riichi[who as usize], RiichiState::Accepted { .. });
                if !in_riichi {
                    if !declaring && after_draw && riichi_possible(table, who) {
                        self.decisions.push(riichi_decision(table, who, index, false));
                    }
                    let red = table.rules.red_fives();
                    let mut options: Vec<Action> =
                        discard_options(table, who).into_iter().map(Action::Discard).collect();
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
            }
            _ => {}
        }
    }

    fn after_event(&mut self, table: &Table, index: usize, event: &Event) {
        if is_connection(event) {
            return;
        }
        if let Event::Discard { who, tile } = event {
            let n = table.rules.players;
            let pending: Vec<(u8, Vec<Action>)> = (1..n)
                .map(|d| (who + d) % n)
                .map(|seat| (seat, call_options(table, seat, *who, *tile)))
                .filter(|(_, o)| !o.is_empty())
                .collect();
            if !pending.is_empty() {
                // The snapshot is the table after the discard: what the callers saw.
                self.pending_discard = Some((*who, *tile, index, Box::new(table.clone())));
                self.pending_calls = pending;
            }
        }
        self.prev = Some(event.clone());
    }
}

/// The discards `who` may make at `table` (a red five apart from a plain one), in
/// [`crate::hand::Hand::distinct_tiles`] order: a discard decision's options.
pub fn discard_options(table: &Table, who: u8) -> Vec<Tile> {
    let red = table.rules.red_fives();
    let legal = rules::discards(table, who, table.last_draw[who as usize]);
    let hand = crate::hand::Hand::new(table.hand_tiles(who), Vec::new());
    hand.distinct_tiles().into_iter().filter(|t| legal.iter().any(|id| id.tile(red) == *t)).collect()
}

/// The riichi decision (dama or riichi) `who` faces at `table` right after its draw, when riichi
/// is possible, as the recorder records it had the record gone on.
pub fn pending_riichi(table: &Table, who: u8) -> Option<Decision> {
    let drew = table.last_draw[who as usize].is_some();
    let free = table.riichi[who as usize] == RiichiState::None;
    (drew && free && riichi_possible(table, who)).then(|| riichi_decision(table, who, 0, false))
}

/// The call decision `seat` faces at `table` right after another seat's discard (pass, chi, pon,
/// open kan), as the recorder records it had the record gone on; `None` without a call to make.
pub fn pending_call(table: &Table, seat: u8) -> Option<Decision> {
    let (discarder, tile) = table.last_discard?;
    if discarder == seat {
        return None;
    }
    call_decision(table, seat, &rules::call_options(table, seat, discarder, tile))
}

/// The call decision `seat` faces at `table` when offered the calls `o` (pass first, then
/// [`call_actions`]): what a live player decides among, listed as the recorder lists a recorded
/// one; `None` without a call to make.
pub fn call_decision(table: &Table, seat: u8, o: &rules::CallOptions) -> Option<Decision> {
    let (_, tile) = o.tile?;
    let mut options = call_actions(o, table.rules.red_fives());
    if options.is_empty() {
        return None;
    }
    options.insert(0, Action::Pass);
    Some(Decision {
        kind: DecisionKind::Call,
        seat,
        event_index: 0,
        options,
        chosen: 0,
        chosen_listed: true,
        offered: Some(tile.tile(table.rules.red_fives())),
        table: table.clone(),
    })
}

fn is_connection(event: &Event) -> bool {
    matches!(event, Event::Disconnect { .. } | Event::Reconnect { .. })
}

fn riichi_possible(table: &Table, who: u8) -> bool {
    rules::riichi_allowed(table, who) && crate::hand::shanten::min_shanten(&table.hand_counts(who)) <= 0
}

/// The north decision of `who` (set aside or keep; `kita`: it set one aside).
fn kita_decision(table: &Table, who: u8, index: usize, kita: bool) -> Decision {
    yes_or_no(table, who, index, DecisionKind::Kita, [Action::Keep, Action::Kita], kita)
}

fn riichi_decision(table: &Table, who: u8, index: usize, declared: bool) -> Decision {
    yes_or_no(table, who, index, DecisionKind::Riichi, [Action::Dama, Action::Riichi], declared)
}

/// A decision of two options, the "no" first (`yes`: the second was taken).
fn yes_or_no(
    table: &Table,
    who: u8,
    index: usize,
    kind: DecisionKind,
    options: [Action; 2],
    yes: bool,
) -> Decision {
    Decision {
        kind,
        seat: who,
        event_index: index,
        options: options.to_vec(),
        chosen: usize::from(yes),
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
        kita: usize,
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
                Event::Kita { .. } => self.kita += 1,
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

    /// On every real game of the shared corpus: every discard not forced by riichi is exactly one
    /// discard decision whose chosen tile is among the options the shared rules derive; every
    /// chi/pon/daiminkan is a call decision that chose it (so no recorded call left its caller
    /// without a legal discard: Tenhou's kuikae rule as [`rules`] states it); every riichi
    /// declaration is a riichi decision that chose riichi; at three players (the sanma games)
    /// every north set aside is a kita decision that chose it, and no chi is ever offered.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn every_recorded_action_is_legal_by_the_rules() {
        use rayon::prelude::*;
        let mut files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        files.extend(crate::testdata::need_sanma_files());
        let results: Vec<Result<bool, crate::batch::BoxError>> = files
            .par_iter()
            .map(|path| -> Result<bool, crate::batch::BoxError> {
                let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
                let game = crate::log::source::parse_game(&path.display().to_string(), &bytes)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                let mut t = Truth::default();
                if replay_game(&game, &mut t, &mut NoWinCheck).is_err() {
                    return Ok(false); // known-bad fixtures are covered by the check test
                }
                let by = |k: DecisionKind| t.decisions.iter().filter(move |d| d.kind == k);
                let p = path.display();
                let discards = by(DecisionKind::Discard).count();
                if discards != t.discards_not_in_riichi {
                    return Err(format!(
                        "{p}: {discards} discard decisions, {} discards",
                        t.discards_not_in_riichi
                    )
                    .into());
                }
                let taken = by(DecisionKind::Call).filter(|d| d.options[d.chosen] != Action::Pass).count();
                if taken != t.calls {
                    return Err(format!("{p}: {taken} call decisions taken, {} calls", t.calls).into());
                }
                let declared =
                    by(DecisionKind::Riichi).filter(|d| d.options[d.chosen] == Action::Riichi).count();
                if declared != t.riichi {
                    return Err(format!("{p}: {declared} riichi decisions taken, {} riichi", t.riichi).into());
                }
                let set_aside =
                    by(DecisionKind::Kita).filter(|d| d.options[d.chosen] == Action::Kita).count();
                if set_aside != t.kita {
                    return Err(format!("{p}: {set_aside} kita decisions taken, {} set aside", t.kita).into());
                }
                for d in &t.decisions {
                    if game.rules.players == 3 && d.options.iter().any(|o| matches!(o, Action::Chi(_))) {
                        return Err(format!("{p}: chi offered at three players: {:?}", d.options).into());
                    }
                    if !d.chosen_listed {
                        return Err(format!(
                            "{p}: {:?} chose {:?} not in {:?}",
                            d.kind, d.options[d.chosen], d.options
                        )
                        .into());
                    }
                    let mut labels: Vec<String> = d.options.iter().map(Action::label).collect();
                    labels.sort();
                    labels.dedup();
                    if labels.len() != d.options.len() {
                        return Err(format!("{p}: duplicate options {:?}", d.options).into());
                    }
                }
                Ok(true)
            })
            .collect();
        let failures: Vec<String> =
            results.iter().filter_map(|r| r.as_ref().err().map(|e| e.to_string())).collect();
        assert!(
            failures.is_empty(),
            "{} games break the rules:\n{}",
            failures.len(),
            failures.iter().take(10).map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
        );
        let checked = results.iter().filter(|r| matches!(r, Ok(true))).count();
        assert!(checked > 4000 + 279, "{checked} games checked");
    }
}
