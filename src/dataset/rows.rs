//! One game into rows: the game, its rounds, its decisions and every option of every decision
//! with its feature vector.
//!
//! Feature rows for the decision kinds:
//! - discard: the catalog's features of "discard this tile" from the 14-tile hand;
//! - call: each option as the hand it leads to. `pass` is scored as taking the offered tile and
//!   throwing it straight back (the hand stays as it is); `chi` / `pon` as the hand after the call
//!   and its best discard (lowest shanten, then most ukeire); `daiminkan` as `pass` plus the kan
//!   flag, since the replacement draw is unknown;
//! - riichi: both options share the features of the hand after its best tenpai-keeping discard.
//!
//! Action columns ([`ACTION_COLUMNS`]) follow the catalog's columns. They mark what kind of
//! action an option is and cross it with the situation, so one linear model per decision kind can
//! weigh, say, riichi against dama by wait size and turn.

use crate::dataset::skip::{Group, Skip};
use crate::features::{catalog, catalog_width, DecisionFeatures, View};
use crate::hand::shanten::min_shanten;
use crate::hand::waits::ukeire;
use crate::hand::{Meld, MeldKind};
use crate::log::Game;
use crate::replay::decision::{Action, Decision, DecisionKind, DecisionRecorder};
use crate::replay::table::{RiichiState, Table};
use crate::replay::{replay_game, NoWinCheck, Observer, RoundResult};
use crate::tile::{format_mpsz, Counts, Tile};

use crate::replay::view::view_of;

/// Option columns after the catalog's features: (name, meaning).
pub const ACTION_COLUMNS: [(&str, &str); 26] = [
    ("ev", "expected hand value after the discard (電脳麻将's 12/72/216 recursion), 0 at 3+ shanten"),
    ("log_ev", "ln(1 + ev), 0 at 3+ shanten"),
    ("ev_defined", "1 when the hand after the discard is at shanten 2 or better (ev is defined)"),
    (
        "discard_class",
        "discard order class of the max-ukeire bot: 0 guest wind, 1 yakuhai, 2 1/9, 3 2/8, 4 3/7, 5 4/6, 6 5, 7 dora",
    ),
    (
        "vis_paijia",
        "isolated-tile value of the discarded tile (kobalab's paijia: unseen copies of it and its neighbours, dora doubled, wind / dragon / flush hand factors)",
    ),
    ("vis_tsumogiri", "1 when the option discards the tile just drawn"),
    ("vis_unseen", "copies of the discarded kind the player has not seen (not held, not visible), 0-3"),
    ("act_riichi", "1 for the riichi option of a riichi decision"),
    ("act_pass", "1 for declining a call"),
    ("act_call", "1 for chi, pon or daiminkan"),
    ("act_kan", "1 for daiminkan"),
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
    ("call_x_turn", "call option x the player's draws so far"),
];

/// Width of an option row: catalog features then action columns.
pub fn option_width() -> usize {
    catalog_width() + ACTION_COLUMNS.len()
}

/// A decision's context, one row of `decisions`.
#[derive(Clone, Debug)]
pub struct DecisionRow {
    pub round: u8,
    pub round_wind: u8,
    pub round_number: u8,
    pub honba: u8,
    pub sticks: u8,
    pub seat: u8,
    pub dealer: u8,
    pub turn: u8,
    pub wall_left: u8,
    pub kind: DecisionKind,
    pub chosen: String,
    pub n_options: u16,
    pub scores: [i32; 4],
    /// Placement 1..=4 of the seat by current scores.
    pub placement: u8,
    /// Riichi state of the opponents at relative seats 1, 2, 3.
    pub opp_riichi: [bool; 3],
    pub dora_indicators: String,
    /// Min shanten before the decision (of the 14-tile hand for discards and riichi, the
    /// 13-tile hand for calls).
    pub shanten: i8,
    pub offered: String,
    /// The deciding player's hand before the decision (concealed tiles in mpsz, then melds),
    /// as `haifu nanikiru` reads it.
    pub hand: String,
}

/// One option: its label, whether it was chosen, and its row of `option_width()` values.
#[derive(Clone, Debug)]
pub struct OptionRow {
    pub label: String,
    pub chosen: bool,
}

/// Every row a game yields.
#[derive(Clone, Debug, Default)]
pub struct GameRows {
    pub rounds: Vec<RoundRow>,
    pub decisions: Vec<DecisionRow>,
    /// Options of decision i are `options[option_ptr[i]..option_ptr[i + 1]]`.
    pub option_ptr: Vec<u32>,
    pub options: Vec<OptionRow>,
    /// `options.len() * option_width()` values, row-major.
    pub values: Vec<f32>,
}

/// One round's outcome, one row of `rounds`.
#[derive(Clone, Debug)]
pub struct RoundRow {
    pub round: u8,
    pub honba: u8,
    pub sticks: u8,
    pub dealer: u8,
    pub result: String,
    pub winners: String,
    pub deltas: [i32; 4],
}

struct RoundCollector {
    rounds: Vec<RoundRow>,
    decisions: DecisionRecorder,
    done: Vec<Decision>,
}

impl Observer for RoundCollector {
    fn before_event(&mut self, table: &Table, index: usize, event: &crate::log::Event) {
        self.decisions.before_event(table, index, event);
    }
    fn after_event(&mut self, table: &Table, index: usize, event: &crate::log::Event) {
        self.decisions.after_event(table, index, event);
    }
    fn round_end(&mut self, table: &Table, result: &RoundResult) {
        self.decisions.round_end(table, result);
        self.done.append(&mut self.decisions.take());
        let (result, winners, deltas) = match result {
            RoundResult::Wins(w) => {
                let mut d = [0; 4];
                for a in w {
                    for p in 0..4 {
                        d[p] += a.deltas[p];
                    }
                }
                let kind = if w[0].who == w[0].from_who { "tsumo" } else { "ron" };
                (kind.to_string(), w.iter().map(|a| a.who.to_string()).collect::<Vec<_>>().join(","), d)
            }
            RoundResult::Draw(d) => (format!("{:?}", d.kind).to_lowercase(), String::new(), d.deltas),
        };
        self.rounds.push(RoundRow {
            round: table.start.round,
            honba: table.start.honba,
            sticks: table.start.sticks,
            dealer: table.start.dealer,
            result,
            winners,
            deltas,
        });
    }
}

fn placement(scores: &[i32; 4], seat: u8) -> u8 {
    crate::util::placements(scores)[seat as usize]
}

/// The discard with the lowest shanten, then the most ukeire (kind order breaks ties).
fn best_discard(view: &View, keep_tenpai: bool) -> Option<Tile> {
    let mut counts = [0u8; 34];
    view.hand.iter().for_each(|t| counts[t.kind()] += 1);
    let mut best: Option<(i8, u32, Tile)> = None;
    let mut tiles = view.hand.clone();
    tiles.sort_by_key(|t| (t.kind(), !t.is_red()));
    tiles.dedup();
    for t in tiles {
        let mut after: Counts = counts;
        after[t.kind()] -= 1;
        let u = ukeire(&after, &view.visible);
        if keep_tenpai && u.shanten > 0 {
            continue;
        }
        if best.is_none_or(|(s, n, _)| (u.shanten, std::cmp::Reverse(u.count)) < (s, std::cmp::Reverse(n))) {
            best = Some((u.shanten, u.count, t));
        }
    }
    best.map(|(_, _, t)| t)
}

/// The extra columns of a discard option after the catalog's: the max-ukeire discard class and
/// the expected value (where the hand after the discard is at shanten 2 or better; left at 0
/// without a search, as `--skip ev` asks). Shared by ingest and the `linear` evaluator so
/// training and use see the same values.
pub fn discard_extras(
    pos: &crate::rank::position::Position,
    tile: Tile,
    row: &mut [f32],
    shanten_col: usize,
    ev: Option<&mut crate::rank::expected_value::EvSearch>,
    paijia: &crate::rank::paijia::Paijia,
) {
    set(row, "discard_class", crate::rank::max_ukeire::discard_class(pos, tile) as f32);
    set(row, "vis_paijia", paijia.value(tile) as f32);
    set(row, "vis_tsumogiri", f32::from(u8::from(pos.drawn == Some(tile))));
    set(row, "vis_unseen", f32::from(paijia.unseen(tile.kind())));
    let Some(ev) = ev else { return };
    if row[shanten_col] <= 2.0 {
        let v = ev.discard_value(tile).unwrap_or(0.0).max(0.0);
        set(row, "ev", v as f32);
        set(row, "log_ev", v.ln_1p() as f32);
        set(row, "ev_defined", 1.0);
    }
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

/// Which red fives (m, p, s) are publicly visible: in a river, a meld or among the indicators.
fn visible_reds(t: &Table) -> [bool; 3] {
    let red = t.rules.red_fives;
    let mut out = [false; 3];
    let mut mark = |id: crate::tile::TileId| {
        let tile = id.tile(red);
        if tile.is_red() {
            out[tile.suit()] = true;
        }
    };
    for p in 0..4 {
        t.rivers[p].iter().filter(|r| !r.called).for_each(|r| mark(r.tile));
        t.melds[p].iter().flat_map(|m| m.tiles.iter()).for_each(|&id| mark(id));
    }
    t.dora_indicators.iter().for_each(|&id| mark(id));
    out
}

fn remove_tiles(hand: &[Tile], take: &[Tile]) -> Option<Vec<Tile>> {
    let mut h = hand.to_vec();
    for t in take {
        let i = h.iter().position(|x| x == t)?;
        h.swap_remove(i);
    }
    Some(h)
}

/// The features of a decision's view, without the groups `skip` leaves out.
fn features(view: &View, skip: Skip) -> Result<DecisionFeatures, String> {
    let f = DecisionFeatures::new(view).map_err(|e| e.to_string())?;
    Ok(if skip.has(Group::Ukeire2) { f.without_second_order() } else { f })
}

/// Feature row of "discard `tile`" from `view` into `out` (catalog width).
fn discard_row(view: &View, tile: Tile, out: &mut [f32], skip: Skip) -> Result<(), String> {
    features(view, skip)?.fill(tile, out).map_err(|e| e.to_string())
}

fn set(row: &mut [f32], name: &str, v: f32) {
    let i = ACTION_COLUMNS.iter().position(|(n, _)| *n == name).expect("action column");
    row[catalog_width() + i] = v;
}

fn dora_value(view: &View) -> f32 {
    let ind = &view.dora_indicators;
    view.hand
        .iter()
        .map(|t| {
            ind.iter().filter(|i| crate::tile::dora_from_indicator(i.kind()) == t.kind()).count()
                + usize::from(t.is_red())
        })
        .sum::<usize>() as f32
}

/// Rows of one decision appended to `out`; the columns of the groups `skip` leaves out stay 0.
fn decision_rows(d: &Decision, out: &mut GameRows, skip: Skip) -> Result<(), String> {
    let t = &d.table;
    let who = d.seat;
    let w = option_width();
    let base = out.values.len();
    let n = d.options.len();
    out.values.resize(base + n * w, 0.0);
    let hand = t.hand_tiles(who);
    let n_riichi = (1..4).filter(|r| t.riichi[((who + r) % 4) as usize] != RiichiState::None).count();
    match d.kind {
        DecisionKind::Discard => {
            let view = view_of(t, who, hand);
            let f = features(&view, skip)?;
            let ep = ev_position(t, &view, who);
            let pos = &ep.pos;
            let shanten_col = catalog().iter().position(|c| c.name == "shanten_min").expect("shanten_min");
            let mut ev = ep.search();
            let paijia = ev.paijia();
            for (i, o) in d.options.iter().enumerate() {
                let Action::Discard(tile) = o else { return Err(format!("discard decision with {o:?}")) };
                let r = &mut out.values[base + i * w..base + (i + 1) * w];
                f.fill(*tile, &mut r[..catalog_width()]).map_err(|e| e.to_string())?;
                let search = (!skip.has(Group::Ev)).then_some(&mut ev);
                discard_extras(pos, *tile, r, shanten_col, search, &paijia);
            }
        }
        DecisionKind::Riichi => {
            let view = view_of(t, who, hand);
            let tile = best_discard(&view, true).ok_or("riichi decision without a tenpai discard")?;
            let mut row = vec![0.0; w];
            discard_row(&view, tile, &mut row[..catalog_width()], skip)?;
            let mut after = [0u8; 34];
            view.hand.iter().for_each(|x| after[x.kind()] += 1);
            after[tile.kind()] -= 1;
            let u = ukeire(&after, &view.visible);
            let waits = u.count as f32;
            let place = crate::util::placements(&t.start.scores)[who as usize];
            let last_round = t.start.round + 1 >= if t.rules.hanchan { 8 } else { 4 };
            let open_opp = view
                .opponents
                .iter()
                .filter(|o| {
                    !o.in_riichi()
                        && o.melds.iter().filter(|m| m.kind != crate::hand::MeldKind::Ankan).count() >= 2
                })
                .count();
            let value = riichi_value(&view, tile);
            for (i, o) in d.options.iter().enumerate() {
                let r = &mut out.values[base + i * w..base + (i + 1) * w];
                r.copy_from_slice(&row);
                if *o == Action::Riichi {
                    set(r, "riichi_x_dama_points", value.dama_points);
                    set(r, "riichi_x_riichi_points", value.riichi_points);
                    set(r, "riichi_x_dama_no_yaku", f32::from(u8::from(value.dama_no_yaku)));
                    set(r, "riichi_x_dama_mangan", value.dama_mangan);
                    set(r, "act_riichi", 1.0);
                    set(r, "riichi_x_ukeire", waits);
                    set(r, "riichi_x_turn", view.turn as f32);
                    set(r, "riichi_x_dora", dora_value(&view));
                    set(r, "riichi_x_opp_riichi", n_riichi as f32);
                    set(r, "riichi_x_wait_kinds", u.kinds.count_ones() as f32);
                    set(r, "riichi_x_wall_left", view.wall_left as f32);
                    set(r, "riichi_x_dealer", f32::from(u8::from(t.start.dealer == who)));
                    set(r, "riichi_x_place", place as f32);
                    set(r, "riichi_x_last_round", f32::from(u8::from(last_round)));
                    set(r, "riichi_x_open_opp", open_opp as f32);
                }
            }
        }
        DecisionKind::Call => {
            let offered = d.offered.ok_or("call decision without the offered tile")?;
            let mut with_offer = hand.clone();
            with_offer.push(offered);
            let pass_view = view_of(t, who, with_offer.clone());
            let mut pass_row = vec![0.0; w];
            discard_row(&pass_view, offered, &mut pass_row[..catalog_width()], skip)?;
            for (i, o) in d.options.iter().enumerate() {
                let r = &mut out.values[base + i * w..base + (i + 1) * w];
                match o {
                    Action::Pass => {
                        r.copy_from_slice(&pass_row);
                        set(r, "act_pass", 1.0);
                    }
                    Action::Daiminkan => {
                        r.copy_from_slice(&pass_row);
                        set(r, "act_call", 1.0);
                        set(r, "act_kan", 1.0);
                        set(r, "call_x_turn", pass_view.turn as f32);
                    }
                    Action::Chi(pair) | Action::Pon(pair) => {
                        let rest = remove_tiles(&hand, pair).ok_or("call tiles not in hand")?;
                        let kind = if matches!(o, Action::Chi(_)) { MeldKind::Chi } else { MeldKind::Pon };
                        let meld = Meld::new(kind, &[pair[0], pair[1], offered], Some(offered), 0);
                        let mut view = view_of(t, who, rest);
                        view.melds.push(meld);
                        // The offered tile is already visible in the discarder's river; the two
                        // tiles from the hand become visible in the meld.
                        for m in pair {
                            view.visible[m.kind()] += 1;
                        }
                        if let Some(tile) = best_discard(&view, false) {
                            discard_row(&view, tile, &mut r[..catalog_width()], skip)?;
                        }
                        set(r, "act_call", 1.0);
                        set(r, "call_x_turn", view.turn as f32);
                    }
                    other => return Err(format!("call decision with {other:?}")),
                }
            }
        }
        DecisionKind::Agari | DecisionKind::Kan => {
            return Err("agari/kan decisions are not extracted yet".into())
        }
    }
    for (i, o) in d.options.iter().enumerate() {
        out.options.push(OptionRow { label: o.label(), chosen: i == d.chosen });
    }
    out.option_ptr.push(out.options.len() as u32);
    let red = t.rules.red_fives;
    let shanten = match d.kind {
        DecisionKind::Call => min_shanten(&t.hand_counts(who)),
        _ => min_shanten(&t.hand_counts(who)),
    };
    out.decisions.push(DecisionRow {
        round: t.start.round,
        round_wind: t.start.round / 4,
        round_number: t.start.round % 4 + 1,
        honba: t.start.honba,
        sticks: t.sticks,
        seat: who,
        dealer: t.start.dealer,
        turn: t.draws[who as usize].min(255) as u8,
        wall_left: t.wall_left,
        kind: d.kind,
        chosen: d.options[d.chosen].label(),
        n_options: n as u16,
        scores: t.scores,
        placement: placement(&t.scores, who),
        opp_riichi: [1u8, 2, 3].map(|r| t.riichi[((who + r) % 4) as usize] != RiichiState::None),
        dora_indicators: format_mpsz(&t.dora_indicators.iter().map(|x| x.tile(red)).collect::<Vec<_>>()),
        shanten,
        offered: d.offered.map(|x| x.to_string()).unwrap_or_default(),
        hand: crate::hand::Hand::new(t.hand_tiles(who), t.hand_melds(who)).to_string(),
    });
    Ok(())
}

/// A discard decision as the expected-value evaluator sees it.
#[derive(Clone, Debug)]
pub struct EvPosition {
    pub pos: crate::rank::position::Position,
    /// The table plays with red fives, and which of them (m, p, s) are publicly visible.
    pub red_fives: bool,
    pub visible_reds: [bool; 3],
    /// Some seat (the player included) has declared riichi.
    pub riichi_on_table: bool,
}

impl EvPosition {
    /// A fresh search over this position (empty memo).
    pub fn search(&self) -> crate::rank::expected_value::EvSearch<'_> {
        crate::rank::expected_value::EvSearch::new(&self.pos).with_reds(self.red_fives, self.visible_reds)
    }
}

fn ev_position(t: &Table, view: &View, who: u8) -> EvPosition {
    let mut pos = crate::rank::position::Position::new(
        crate::hand::Hand::new(view.hand.clone(), view.melds.clone()),
        view.dora_indicators.clone(),
        view.round_wind,
        view.seat_wind,
    );
    pos.visible = view.visible;
    pos.drawn = t.last_draw[who as usize].map(|id| id.tile(t.rules.red_fives));
    let riichi_on_table = t.riichi.iter().any(|r| *r != RiichiState::None);
    EvPosition { pos, red_fives: t.rules.red_fives, visible_reds: visible_reds(t), riichi_on_table }
}

/// The discard decisions of a game as expected-value positions (what ingest evaluates), in
/// game order; for benchmarks and studies on real positions.
pub fn discard_positions(game: &Game) -> Result<Vec<EvPosition>, String> {
    let mut c = RoundCollector { rounds: Vec::new(), decisions: DecisionRecorder::new(), done: Vec::new() };
    replay_game(game, &mut c, &mut NoWinCheck).map_err(|e| format!("replay: {e}"))?;
    Ok(c.done
        .iter()
        .filter(|d| d.kind == DecisionKind::Discard)
        .map(|d| ev_position(&d.table, &view_of(&d.table, d.seat, d.table.hand_tiles(d.seat)), d.seat))
        .collect())
}

/// Replays a game and builds all its rows.
pub fn game_rows(game: &Game) -> Result<GameRows, String> {
    game_rows_with(game, Skip::NONE)
}

/// [`game_rows`] without computing the column groups `skip` leaves out (they stay 0 in the
/// rows; ingest then leaves them out of the table).
pub fn game_rows_with(game: &Game, skip: Skip) -> Result<GameRows, String> {
    let mut c = RoundCollector { rounds: Vec::new(), decisions: DecisionRecorder::new(), done: Vec::new() };
    replay_game(game, &mut c, &mut NoWinCheck).map_err(|e| format!("replay: {e}"))?;
    let mut out = GameRows { rounds: c.rounds, option_ptr: vec![0], ..Default::default() };
    for d in &c.done {
        decision_rows(d, &mut out, skip)
            .map_err(|e| format!("decision at event {} (seat {}): {e}", d.event_index, d.seat))?;
    }
    Ok(out)
}

/// Names of all option feature columns in order.
pub fn feature_names() -> Vec<&'static str> {
    catalog().iter().map(|f| f.name).chain(ACTION_COLUMNS.iter().map(|(n, _)| *n)).collect()
}

/// The option feature columns as a markdown table (name, family, meaning), for docs/schema.md.
pub fn features_markdown() -> String {
    let mut rows: Vec<Vec<String>> = catalog()
        .iter()
        .map(|f| vec![format!("`{}`", f.name), f.family.name().to_string(), f.meaning.to_string()])
        .collect();
    rows.extend(ACTION_COLUMNS.iter().map(|(n, m)| vec![format!("`{n}`"), "action".into(), m.to_string()]));
    crate::util::markdown::table(&["column", "family", "meaning"], &rows)
}

#[cfg(test)]
mod tests {
    /// docs/schema.md lists every option feature column with its meaning (regenerate with
    /// `haifu schema > docs/schema-features.md` when the catalog changes).
    #[test]
    fn schema_doc_lists_every_feature() {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/schema.md")).unwrap();
        let missing: Vec<&str> =
            super::feature_names().into_iter().filter(|n| !doc.contains(&format!("`{n}`"))).collect();
        assert!(missing.is_empty(), "docs/schema.md does not list {missing:?}");
    }
}

#[cfg(test)]
mod value_tests {
    use super::*;
    use crate::features::view::tests_support::{tile, view};
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

#[cfg(test)]
mod extras_tests {
    use super::*;
    use crate::hand::Hand;
    use crate::rank::position::Position;
    use crate::tile::{parse_mpsz, EAST};

    fn get(row: &[f32], name: &str) -> f32 {
        row[catalog_width() + ACTION_COLUMNS.iter().position(|(n, _)| *n == name).unwrap()]
    }

    /// The visibility columns: the drawn tile is the tsumogiri option, unseen copies leave out
    /// the held and the visible ones, and paijia is the tie-break's value of the tile.
    #[test]
    fn visibility_columns_of_a_discard() {
        let t = |s: &str| parse_mpsz(s).unwrap()[0];
        let mut pos =
            Position::new(Hand::parse("123m456p789s1155z7z").unwrap(), vec![t("3z")], EAST, EAST + 1);
        pos.visible[t("7z").kind()] += 2;
        pos.drawn = Some(t("7z"));
        let mut ev = crate::rank::expected_value::EvSearch::new(&pos);
        let paijia = ev.paijia();
        let shanten_col = catalog().iter().position(|c| c.name == "shanten_min").unwrap();
        let mut row = vec![0f32; option_width()];
        discard_extras(&pos, t("7z"), &mut row, shanten_col, Some(&mut ev), &paijia);
        assert_eq!(get(&row, "vis_tsumogiri"), 1.0);
        assert_eq!(get(&row, "vis_unseen"), 1.0);
        assert_eq!(get(&row, "vis_paijia"), paijia.value(t("7z")) as f32);
        discard_extras(&pos, t("1z"), &mut row, shanten_col, Some(&mut ev), &paijia);
        assert_eq!(get(&row, "vis_tsumogiri"), 0.0);
        // 3z is the indicator: 1z has 2 held, none visible.
        assert_eq!(get(&row, "vis_unseen"), 2.0);
        assert!(paijia.value(t("7z")) < paijia.value(t("1z")), "a dragon with one copy left is worth less");
    }
}
