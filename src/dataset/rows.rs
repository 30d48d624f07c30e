//! One game into rows: the game, its rounds, its decisions and every option of every decision
//! with its feature vector.
//!
//! Every column of an option row belongs to a family of the catalog
//! ([`crate::features::catalog`]), and every option row is built by
//! [`crate::features::option_rows`] from the seat's view, which also says from which hand each
//! option of each decision kind is scored. This module replays the game, turns each decision
//! into that view and its [`Choice`], and collects the game's tables.

use crate::dataset::skip::{Group, Skip};
use crate::features::catalog::{catalog, catalog_width};
use crate::features::option_rows::{self, Choice};
use crate::features::riichi_trade::Standing;
use crate::features::FeatureError;
use crate::hand::shanten::min_shanten;
use crate::log::event::Game;
use crate::replay::decision::{Action, Decision, DecisionKind, Recording, RoundSink};
use crate::replay::table::{RiichiState, Table};
use crate::replay::view::{opponent_seats, view_of, View};
use crate::replay::waits::{opponent_waits, OpponentWaits};
use crate::replay::{replay_game, NoWinCheck, Observer, ReplayError, RoundResult};
use crate::tile::{format_mpsz, Tile};

/// Why a game yields no rows. The messages name the decision (event index and seat) a row
/// could not be built for.
#[derive(Debug, thiserror::Error)]
pub enum RowsError {
    // The causes are sources, not part of the message: an error chain printed cause by cause
    // (`batch::error_text`, the binary's `{:#}`) shows each once.
    #[error("replay")]
    Replay(#[from] ReplayError),
    #[error("decision at event {event} (seat {seat})")]
    Decision { event: usize, seat: u8, source: Box<RowsError> },
    #[error(transparent)]
    Features(#[from] FeatureError),
    #[error("{} decision with {option}", kind.name())]
    UnexpectedOption { kind: DecisionKind, option: String },
    #[error("call decision without the offered tile")]
    NoOfferedTile,
    #[error("kita decision without a north the seat may set aside")]
    NoNorth,
    #[error("agari/kan decisions are not extracted yet")]
    NotExtracted,
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
    /// Placement 1..=players of the seat by current scores.
    pub placement: u8,
    /// Seats at the table (3 or 4).
    pub players: u8,
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

impl DecisionRow {
    /// The round and the scores as the deciding seat stands ([`crate::replay::view::view_of`]'s).
    pub fn scoreboard(&self) -> crate::replay::view::Scoreboard {
        crate::replay::view::Scoreboard {
            round: self.round,
            honba: self.honba,
            sticks: self.sticks,
            scores: self.scores,
            seat: self.seat,
            players: self.players,
        }
    }
}

/// One option: its label, whether it was chosen, and its row of `catalog_width()` values.
#[derive(Clone, Debug)]
pub struct OptionRow {
    pub label: String,
    pub chosen: bool,
}

/// One opponent's waits at a discard decision: a row of the `waits` table, the danger model's
/// labels ([`crate::replay::waits`]).
#[derive(Clone, Debug)]
pub struct WaitRow {
    /// Index of the decision in [`GameRows::decisions`].
    pub decision: u32,
    /// The opponent's relative seat: 1 next, 2 across, 3 previous.
    pub opponent: u8,
    pub waits: OpponentWaits,
}

/// Every row a game yields.
#[derive(Clone, Debug, Default)]
pub struct GameRows {
    pub rounds: Vec<RoundRow>,
    pub decisions: Vec<DecisionRow>,
    /// Options of decision i are `options[option_ptr[i]..option_ptr[i + 1]]`.
    pub option_ptr: Vec<u32>,
    pub options: Vec<OptionRow>,
    /// `options.len() * catalog_width()` values, row-major.
    pub values: Vec<f32>,
    /// The record holds a whole game ([`crate::replay::ending`]).
    pub complete: bool,
    /// Each opponent's waits at each discard decision, in decision order then relative seat.
    pub waits: Vec<WaitRow>,
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

/// Each round's row and every decision, in order.
#[derive(Default)]
struct RoundCollector {
    rounds: Vec<RoundRow>,
    done: Vec<Decision>,
}

impl RoundCollector {
    /// Replays `game` and collects its rounds and decisions; the replay's summary with them.
    fn of(game: &Game) -> Result<(RoundCollector, crate::replay::GameSummary), RowsError> {
        let mut c = Recording::new(RoundCollector::default());
        let summary = replay_game(game, &mut c, &mut NoWinCheck)?;
        Ok((c.sink, summary))
    }
}

impl RoundSink for RoundCollector {
    fn round(&mut self, table: &Table, result: &RoundResult, mut decisions: Vec<Decision>) {
        self.done.append(&mut decisions);
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

fn placement(scores: &[i32; 4], seat: u8, players: u8) -> u8 {
    crate::util::placements_of(scores, players)[seat as usize]
}

/// Whether each opponent (relative seats 1, 2, 3; [`opponent_seats`]) has declared riichi.
fn opponents_in_riichi(t: &Table, who: u8) -> [bool; 3] {
    opponent_seats(t.rules.players, who).map(|s| s.is_some_and(|s| t.riichi[s as usize] != RiichiState::None))
}

/// Rows of one decision appended to `out`; the columns of the groups `skip` leaves out stay 0.
fn decision_rows(d: &Decision, out: &mut GameRows, skip: Skip) -> Result<(), RowsError> {
    let w = catalog_width();
    let base = out.values.len();
    out.values.resize(base + d.options.len() * w, 0.0);
    let rows = &mut out.values[base..];
    match d.kind {
        DecisionKind::Discard => discard_rows(d, rows, skip)?,
        DecisionKind::Riichi => riichi_rows(d, rows, skip)?,
        DecisionKind::Call => call_rows(d, rows, skip)?,
        DecisionKind::Kita => kita_rows(d, rows, skip)?,
        DecisionKind::Agari | DecisionKind::Kan => return Err(RowsError::NotExtracted),
    }
    for (i, o) in d.options.iter().enumerate() {
        out.options.push(OptionRow { label: o.label(), chosen: i == d.chosen });
    }
    if d.kind == DecisionKind::Discard {
        let decision = out.decisions.len() as u32;
        for (r, w) in opponent_waits(&d.table, d.seat).into_iter().enumerate() {
            if let Some(waits) = w {
                out.waits.push(WaitRow { decision, opponent: r as u8 + 1, waits });
            }
        }
    }
    out.option_ptr.push(out.options.len() as u32);
    out.decisions.push(decision_row(d));
    Ok(())
}

/// The option rows of one recorded decision (`d.options.len() * catalog_width()` values, in
/// option order), exactly as [`game_rows_with`] builds them, without the column groups `skip`
/// leaves out (they stay 0): for passes that score decisions as they replay, such as
/// `haifu stats --agreement`.
pub fn decision_values(d: &Decision, skip: Skip) -> Result<Vec<f32>, RowsError> {
    let mut rows = vec![0.0; d.options.len() * catalog_width()];
    let at = |e: RowsError| RowsError::Decision { event: d.event_index, seat: d.seat, source: Box::new(e) };
    match d.kind {
        DecisionKind::Discard => discard_rows(d, &mut rows, skip).map_err(at)?,
        DecisionKind::Riichi => riichi_rows(d, &mut rows, skip).map_err(at)?,
        DecisionKind::Call => call_rows(d, &mut rows, skip).map_err(at)?,
        DecisionKind::Kita => kita_rows(d, &mut rows, skip).map_err(at)?,
        DecisionKind::Agari | DecisionKind::Kan => return Err(at(RowsError::NotExtracted)),
    }
    Ok(rows)
}

/// A discard decision: the hand families of each discard, then its value and visibility.
fn discard_rows(d: &Decision, rows: &mut [f32], skip: Skip) -> Result<(), RowsError> {
    let (t, who) = (&d.table, d.seat);
    let view = view_of(t, who, t.hand_tiles(who));
    let mut legal = Vec::with_capacity(d.options.len());
    for o in &d.options {
        let Action::Discard(tile) = o else { return Err(unexpected(d.kind, o)) };
        legal.push(*tile);
    }
    Ok(option_rows::option_rows(&view, Choice::Discard(&legal), skip, rows)?)
}

/// The option rows of a bare discard position, every distinct discard in
/// [`crate::hand::Hand::distinct_tiles`] order, exactly as ingest fills a recorded decision's
/// (the value family from `ev`, configured by the caller): for checking the dataset path on
/// positions that are not in a game, such as 電脳麻将's golden picks.
pub fn position_rows(
    view: &View,
    ev: &mut crate::rank::expected_value::EvSearch,
) -> Result<Vec<(Tile, Vec<f32>)>, RowsError> {
    let tiles = view.full_hand().distinct_tiles();
    let mut rows = vec![0.0; tiles.len() * catalog_width()];
    option_rows::discard_rows_valued_by(view, &tiles, ev, Skip::NONE, &mut rows)?;
    Ok(tiles.into_iter().zip(rows.chunks_exact(catalog_width()).map(<[f32]>::to_vec)).collect())
}

/// A live discard decision: the seat whose turn it is at the end of a record that stops there
/// (a bot's game so far), its options and their rows as ingest builds a recorded decision's.
#[derive(Clone, Debug)]
pub struct PendingRows {
    /// The deciding player's hand (as the `decisions` table's `hand`).
    pub hand: String,
    /// The options' labels, as the options table's `option` column
    /// ([`crate::replay::decision::Action::label`]).
    pub options: Vec<String>,
    /// One catalog row per option, the columns of the groups `skip` leaves out at 0.
    pub values: Vec<f32>,
}

/// Why a record's end is not a discard decision of the seat asked about.
#[derive(Debug, thiserror::Error)]
pub enum PendingError {
    #[error(transparent)]
    Rows(#[from] RowsError),
    #[error("the record holds no round")]
    NoRound,
    #[error("the record's last round has ended: no decision is pending")]
    RoundEnded,
    #[error("seat {seat} has no {kind} decision to make at the end of the record")]
    NotPending { seat: u8, kind: &'static str },
}

/// Keeps the table after the last event of the last round.
struct LastTable {
    rounds_left: usize,
    last_event: usize,
    table: Option<Table>,
}

impl Observer for LastTable {
    fn after_event(&mut self, table: &Table, index: usize, _event: &crate::log::event::Event) {
        if self.rounds_left == 1 && index == self.last_event {
            self.table = Some(table.clone());
        }
    }
    fn round_end(&mut self, _table: &Table, _result: &RoundResult) {
        self.rounds_left = self.rounds_left.saturating_sub(1);
    }
}

/// The decision of `kind` that `seat` faces at the end of `game`, a record whose last round stops
/// there: a discard (after its draw, call or riichi declaration), a riichi (right after its draw,
/// riichi possible) or a call (right after another seat's discard). The options and rows are the
/// ones ingest would write for that decision had the record gone on
/// ([`crate::replay::decision`]'s options, [`option_rows::option_rows`]).
pub fn pending_decision(
    game: &Game,
    seat: u8,
    kind: DecisionKind,
    skip: Skip,
) -> Result<PendingRows, PendingError> {
    let table = last_table(game)?;
    let none = || PendingError::NotPending { seat, kind: kind.name() };
    if seat > 3 {
        return Err(none());
    }
    let hand = crate::hand::Hand::new(table.hand_tiles(seat), table.hand_melds(seat)).to_string();
    let d = match kind {
        DecisionKind::Discard => {
            if table.hand_tiles(seat).len() + 3 * table.hand_melds(seat).len() != 14 {
                return Err(none());
            }
            let options = crate::replay::decision::discard_options(&table, seat);
            let view = view_of(&table, seat, table.hand_tiles(seat));
            let mut values = vec![0.0; options.len() * catalog_width()];
            option_rows::option_rows(&view, Choice::Discard(&options), skip, &mut values)
                .map_err(RowsError::from)?;
            let options = options.iter().map(|t| t.to_string()).collect();
            return Ok(PendingRows { hand, options, values });
        }
        DecisionKind::Riichi => crate::replay::decision::pending_riichi(&table, seat).ok_or_else(none)?,
        DecisionKind::Call => crate::replay::decision::pending_call(&table, seat).ok_or_else(none)?,
        _ => return Err(none()),
    };
    let mut values = vec![0.0; d.options.len() * catalog_width()];
    match kind {
        DecisionKind::Riichi => riichi_rows(&d, &mut values, skip)?,
        _ => call_rows(&d, &mut values, skip)?,
    }
    Ok(PendingRows { hand, options: d.options.iter().map(|a| a.label()).collect(), values })
}

/// The table after the last event of `game`, whose last round has no result.
fn last_table(game: &Game) -> Result<Table, PendingError> {
    let last = game.rounds.last().ok_or(PendingError::NoRound)?;
    let mut o = LastTable {
        rounds_left: game.rounds.len(),
        last_event: last.events.len().wrapping_sub(1),
        table: None,
    };
    match replay_game(game, &mut o, &mut NoWinCheck) {
        Ok(_) => return Err(PendingError::RoundEnded),
        Err(e)
            if e.round + 1 == game.rounds.len()
                && matches!(e.error, crate::replay::ReplayErrorKind::NoResult) => {}
        Err(e) => return Err(RowsError::Replay(e).into()),
    }
    o.table.ok_or(PendingError::NoRound)
}

/// A riichi decision ([`option_rows::option_rows`]), with the standing the table knows.
fn riichi_rows(d: &Decision, rows: &mut [f32], skip: Skip) -> Result<(), RowsError> {
    let (t, who) = (&d.table, d.seat);
    let view = view_of(t, who, t.hand_tiles(who));
    let standing = Standing {
        opp_riichi: opponents_in_riichi(t, who).iter().filter(|&&r| r).count() as u8,
        dealer: t.start.dealer == who,
        place: placement(&t.start.scores, who, t.rules.players),
        last_round: t.start.round >= t.rules.last_rounds(t.rules.hanchan).0,
    };
    Ok(option_rows::option_rows(&view, Choice::Riichi { options: &d.options, standing }, skip, rows)?)
}

/// A call decision ([`option_rows::option_rows`]): the seat's concealed hand and the tile on offer.
fn call_rows(d: &Decision, rows: &mut [f32], skip: Skip) -> Result<(), RowsError> {
    let (t, who) = (&d.table, d.seat);
    let offered = d.offered.ok_or(RowsError::NoOfferedTile)?;
    let view = view_of(t, who, t.hand_tiles(who));
    Ok(option_rows::option_rows(&view, Choice::Call { offered, options: &d.options }, skip, rows)?)
}

/// A kita decision ([`option_rows::option_rows`]): the north the seat may set aside.
fn kita_rows(d: &Decision, rows: &mut [f32], skip: Skip) -> Result<(), RowsError> {
    let (t, who) = (&d.table, d.seat);
    let north = crate::replay::rules::kita_allowed(t, who).ok_or(RowsError::NoNorth)?;
    let view = view_of(t, who, t.hand_tiles(who));
    let north = north.tile(t.rules.red_fives());
    Ok(option_rows::option_rows(&view, Choice::Kita { north, options: &d.options }, skip, rows)?)
}

fn unexpected(kind: DecisionKind, option: &Action) -> RowsError {
    RowsError::UnexpectedOption { kind, option: format!("{option:?}") }
}

/// The `decisions` table's row of a recorded decision.
pub fn decision_row(d: &Decision) -> DecisionRow {
    let (t, who) = (&d.table, d.seat);
    let red = t.rules.red_fives();
    DecisionRow {
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
        n_options: d.options.len() as u16,
        scores: t.scores,
        placement: placement(&t.scores, who, t.rules.players),
        players: t.rules.players,
        opp_riichi: opponents_in_riichi(t, who),
        dora_indicators: format_mpsz(&t.dora_indicators.iter().map(|x| x.tile(red)).collect::<Vec<_>>()),
        shanten: min_shanten(&t.hand_counts(who)),
        offered: d.offered.map(|x| x.to_string()).unwrap_or_default(),
        hand: crate::hand::Hand::new(t.hand_tiles(who), t.hand_melds(who)).to_string(),
    }
}

/// The seat's view at each discard decision of a game (what ingest evaluates), in game order;
/// for benchmarks and studies on real positions.
pub fn discard_positions(game: &Game) -> Result<Vec<View>, RowsError> {
    let (c, _) = RoundCollector::of(game)?;
    Ok(c.done
        .iter()
        .filter(|d| d.kind == DecisionKind::Discard)
        .map(|d| view_of(&d.table, d.seat, d.table.hand_tiles(d.seat)))
        .collect())
}

/// Replays a game and builds all its rows.
pub fn game_rows(game: &Game) -> Result<GameRows, RowsError> {
    game_rows_with(game, Skip::NONE)
}

/// [`game_rows`] without computing the column groups `skip` leaves out (they stay 0 in the
/// rows; ingest then leaves them out of the table).
pub fn game_rows_with(game: &Game, skip: Skip) -> Result<GameRows, RowsError> {
    let (c, summary) = RoundCollector::of(game)?;
    let mut out = GameRows {
        rounds: c.rounds,
        option_ptr: vec![0],
        complete: summary.complete(),
        ..Default::default()
    };
    for d in &c.done {
        decision_rows(d, &mut out, skip).map_err(|e| RowsError::Decision {
            event: d.event_index,
            seat: d.seat,
            source: Box::new(e),
        })?;
    }
    Ok(out)
}

/// The option feature columns as a markdown table (name, family, meaning), for docs/schema.md.
pub fn features_markdown() -> String {
    let rows: Vec<Vec<String>> = catalog()
        .iter()
        .map(|f| {
            vec![format!("`{}`", f.name), f.family.name().to_string(), held_by(f.name), f.meaning.to_string()]
        })
        .collect();
    crate::util::markdown::table(&["column", "family", "in a default ingest", "meaning"], &rows)
}

/// Whether a default `haifu ingest` writes column `name`, and the flag that changes it.
fn held_by(name: &str) -> String {
    match Group::ALL.into_iter().find(|g| g.columns().contains(&name)) {
        None => "yes".to_string(),
        Some(g) if g.by_default() => format!("yes (`--skip {}` leaves out)", g.name()),
        Some(g) => format!("no (`--with {}` adds)", g.name()),
    }
}

#[cfg(test)]
mod tests {
    /// A real three-player record with bits flipped at random, as the fuzz targets mutate one
    /// (fuzz/seeds hold a three-player game for each reader): parsing, replaying and building
    /// every decision's rows never panics, whatever the flips did to the seats, the norths or
    /// the deal. Most flips break the record (an error), some leave a game that replays.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn flipped_sanma_records_never_panic_the_replay_or_the_rows() {
        let path = crate::testdata::need_file("tenhou/sanma/2020010100gm-00b9-0000-18a1410f.mjlog");
        let base = std::fs::read(path).unwrap();
        let mut next = crate::testdata::xorshift(0x5a4a_3b2c_1d0e_f1a2);
        let (mut replayed, mut refused) = (0, 0);
        for _ in 0..120 {
            let mut b = base.clone();
            for _ in 0..1 + next() % 3 {
                let i = (next() % b.len() as u64) as usize;
                b[i] ^= 1 << (next() % 8);
            }
            let Ok(game) = crate::log::source::parse_game("flip", &b) else {
                refused += 1;
                continue;
            };
            match super::game_rows(&game) {
                Ok(_) => replayed += 1,
                Err(_) => refused += 1,
            }
        }
        assert!(replayed > 10 && refused > 10, "replayed {replayed}, refused {refused}");
    }

    use super::{decision_values, discard_positions, game_rows, RoundCollector, Skip};
    use crate::features::catalog::catalog_width;
    use crate::features::option_rows::every_discard;

    /// Training = use: for every discard decision of corpus games, the rows `linear` scores
    /// for the seat's view ([`every_discard`], what `Linear::rows` returns and `nanikiru`,
    /// `review` and the bots serve) are bit-equal to the
    /// rows ingest wrote for the same options, red fives in sight included. A decision whose legal
    /// discards are fewer than the hand's distinct tiles (kuikae after a call) is valued among
    /// those legal ones by ingest, so it is compared on the decisions where the two sets agree,
    /// and the test asserts that those are nearly all of them. 24 games spread over the corpus
    /// by default; `HAIFU_SERVED_GAMES=200` for a longer run.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn served_rows_are_the_datasets_rows() {
        let files =
            crate::testdata::tenhou_files(&[".mjlog"]).expect("../shared/data/tenhou holds .mjlog records");
        let (mut compared, mut restricted, mut red_in_sight) = (0, 0, 0);
        let games: usize =
            std::env::var("HAIFU_SERVED_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(24);
        for path in files.iter().step_by((files.len() / games).max(1)).take(games) {
            let game = crate::log::source::parse_game("g", &std::fs::read(path).unwrap()).unwrap();
            let rows = game_rows(&game).unwrap();
            let views = discard_positions(&game).unwrap();
            let discards: Vec<usize> =
                (0..rows.decisions.len()).filter(|&i| rows.decisions[i].kind.name() == "discard").collect();
            assert_eq!(discards.len(), views.len(), "{}", path.display());
            for (&d, view) in discards.iter().zip(&views) {
                let (a, b) = (rows.option_ptr[d] as usize, rows.option_ptr[d + 1] as usize);
                let served = every_discard(view).unwrap();
                if served.len() != b - a {
                    restricted += 1;
                    continue;
                }
                red_in_sight += usize::from(view.visible_reds.iter().any(|&r| r));
                for o in a..b {
                    let label = &rows.options[o].label;
                    let (_, row) =
                        served.iter().find(|(t, _)| &t.to_string() == label).expect("a legal discard");
                    let want = &rows.values[o * catalog_width()..(o + 1) * catalog_width()];
                    let same = row.iter().zip(want).all(|(x, y)| x.to_bits() == y.to_bits());
                    assert!(same, "{} decision {d} option {label}: served row differs", path.display());
                }
                compared += 1;
            }
        }
        assert!(
            compared > 1000 && restricted * 20 < compared,
            "{compared} compared, {restricted} restricted"
        );
        assert!(red_in_sight > 50, "only {red_in_sight} decisions with a red five in sight");
    }

    /// One decision's rows built alone ([`decision_values`], what `stats --agreement` scores) are
    /// the rows of the same decision in the whole game's tables, bit for bit, on real games.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn one_decisions_rows_are_the_games_rows() {
        let mut files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        files.truncate(2);
        for path in &files {
            let game = crate::log::source::parse_game("g", &std::fs::read(path).unwrap()).unwrap();
            let rows = game_rows(&game).unwrap();
            let (c, _) = RoundCollector::of(&game).unwrap();
            assert_eq!(c.done.len(), rows.decisions.len(), "{}", path.display());
            assert!(c.done.len() > 100, "{}", path.display());
            let w = catalog_width();
            for (i, d) in c.done.iter().enumerate() {
                let (a, b) = (rows.option_ptr[i] as usize * w, rows.option_ptr[i + 1] as usize * w);
                let alone = decision_values(d, Skip::NONE).unwrap();
                let same = alone.len() == b - a
                    && alone.iter().zip(&rows.values[a..b]).all(|(x, y)| x.to_bits() == y.to_bits());
                assert!(same, "{} decision {i}: rows differ", path.display());
            }
        }
    }

    /// The riichi and call models read the danger family (issue 69): on real games, when the
    /// player stays dama, a riichi decision's rows hold the following discard's tenpai
    /// probabilities and the deal-in probability of one of its options (the same position; after
    /// a declaration the models read the player's own riichi, so the discard's differ); every
    /// riichi and call option holds the tenpai probabilities (they were 0 before, as on a kita).
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn riichi_and_call_rows_hold_the_danger_family() {
        use crate::features::catalog::index_of;
        let at = |n: &str| index_of(n).unwrap();
        let (dealin, tenpai) = (at("danger_dealin"), [at("danger_tenpai_next"), at("danger_tenpai_prev")]);
        let mut files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        files.truncate(6);
        let w = catalog_width();
        let (mut riichi, mut dama, mut calls) = (0, 0, 0);
        for path in &files {
            let game = crate::log::source::parse_game("g", &std::fs::read(path).unwrap()).unwrap();
            let rows = game_rows(&game).unwrap();
            let row = |o: usize| &rows.values[o * w..(o + 1) * w];
            let options = |d: usize| rows.option_ptr[d] as usize..rows.option_ptr[d + 1] as usize;
            for d in 0..rows.decisions.len() {
                match rows.decisions[d].kind.name() {
                    "riichi" => {
                        let next = (d + 1..rows.decisions.len())
                            .find(|&n| rows.decisions[n].seat == rows.decisions[d].seat)
                            .filter(|&n| rows.decisions[n].kind.name() == "discard")
                            .expect("a riichi decision is followed by its seat's discard");
                        let first = row(options(next).start);
                        let dama_here = rows.decisions[d].chosen == "dama";
                        for o in options(d) {
                            for t in tenpai {
                                if dama_here {
                                    assert_eq!(row(o)[t], first[t], "{} decision {d}", path.display());
                                }
                                assert!(row(o)[t] > 0.0, "{} decision {d}", path.display());
                            }
                            let p = row(o)[dealin];
                            assert!(p > 0.0, "{} decision {d}", path.display());
                            if dama_here {
                                let found = options(next).any(|n| row(n)[dealin] == p);
                                assert!(found, "{} decision {d}", path.display());
                            }
                        }
                        riichi += 1;
                        dama += usize::from(dama_here);
                    }
                    "call" => {
                        for o in options(d) {
                            assert!(
                                tenpai.iter().all(|&t| row(o)[t] > 0.0),
                                "{} decision {d}",
                                path.display()
                            );
                        }
                        calls += 1;
                    }
                    _ => {}
                }
            }
        }
        assert!(
            riichi > 10 && dama > 3 && calls > 100,
            "{riichi} riichi ({dama} dama), {calls} call decisions"
        );
    }

    /// A decision's error names its place, then its cause, each once in the chain that batch
    /// errors and `{:#}` print (the cause is a source, not also part of the message).
    #[test]
    fn row_errors_print_each_cause_once() {
        let e = super::RowsError::Decision {
            event: 3,
            seat: 1,
            source: Box::new(super::RowsError::NoOfferedTile),
        };
        let text = crate::batch::error_text(&e);
        assert_eq!(text, "decision at event 3 (seat 1): call decision without the offered tile");
    }

    /// docs/schema.md holds the catalog's table of option columns as `haifu schema` prints it
    /// (regenerate that part of the page with `haifu schema` when the catalog changes).
    #[test]
    fn schema_doc_holds_the_catalog_table() {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/schema.md")).unwrap();
        assert!(doc.contains(&super::features_markdown()), "docs/schema.md is not the catalog's table");
        let missing: Vec<&str> = crate::features::catalog::names()
            .into_iter()
            .filter(|n| !doc.contains(&format!("`{n}`")))
            .collect();
        assert!(missing.is_empty(), "docs/schema.md does not list {missing:?}");
    }
}
