//! The game engine under Tenhou rules (red fives, open tanyao, hanchan or tonpuu), four players or
//! three (Tenhou's sanma: docs/sanma.md; the seats, the wall and the payments come from the rules).
//!
//! The engine produces the same typed [`Event`]s a reader produces and applies each one to the
//! replay's [`Table`] before recording it, so the rules the replay validates (turn order, tiles in
//! hand, call shapes, riichi conditions, the wall count) are not written twice: an engine bug
//! shows up as a [`TableError`] at once. Wins are scored by the same code that re-scores real
//! records ([`crate::replay::check::win_input`] + [`score_with`] + [`payments`]). The engine adds
//! what a record never has to prove: the options each seat had (furiten, kuikae, kan limits,
//! riichi conditions), the abortive draws and the game's end.
//!
//! Rules, where Tenhou leaves a choice or we do:
//! - Furiten: permanent (a wait in the own river), temporary (a winning tile passed since the
//!   own last discard) and riichi furiten (a winning tile passed after riichi). A tile that
//!   completes the shape without a yaku also counts as passed.
//! - Kuikae: after chi or pon, neither the called kind nor the other end of a chi's run (suji)
//!   may be discarded; a call that would leave no legal discard is not offered.
//! - Riichi: closed hand, tenpai after the discard, 1000 points, 4+ tiles left in the wall.
//!   A closed kan in riichi only with the drawn tile and when it keeps the waits unchanged.
//! - Kans: at most four; none on the last tile (haitei / houtei). Kan dora: a closed kan shows
//!   its indicator at once; an open or added kan shows it at the next discard or kan (Tenhou's
//!   order in the records), so a rinshan win after an open kan does not see it.
//! - Double ron as Tenhou (honba and sticks to the first winner in turn order); triple ron is an
//!   abortive draw. Pao (sekinin barai) for daisangen and daisuushii.
//! - Abortive draws: kyuushu kyuuhai (the bot chooses), four winds, four riichi, four kans by
//!   more than one player (after the discard that follows the fourth kan).
//! - Not played: nagashi mangan (rare: 10 in 52,000 real rounds; left out for simplicity), and
//!   Tenhou's chankan on a closed kan for kokushi (the replay has no such chankan either).
//! - Exhaustive draw: a seat is tenpai when its hand waits on a kind it does not hold all four
//!   of; noten payments 1,000 from each other seat's share (3,000 at four, 2,000 at three).
//! - End of game and `owari`: the replay's rule ([`crate::replay::ending`]): a bust; from the
//!   last round on, a passed deal leaving someone at 30,000, or the dealer's win or tenpai
//!   leaving the dealer first with 30,000 (agari-yame, tenpai-yame); sudden death to W4 (S4 in
//!   tonpuu). Results with one decimal, as Tenhou has written them since 2023.

use crate::hand::meld::MeldKind;

use crate::log::event::{Agari, Call, DrawKind, Event, Game, Player, Round, RoundDraw, RoundStart, Rules};
use crate::replay::check::win_input;
use crate::replay::round_name;
use crate::replay::rules;
use crate::replay::table::{RiichiState, Table, TableError};
use crate::score::points::{payments, Payers};
use crate::score::{score_with, yaku};
use crate::tile::{Kind, TileId, KINDS};

use super::bots::{Bot, CallAction, Seat, TurnAction};
use super::wall::{mix, Rng, Wall};
use crate::log::mjlog::write::{encode_meld, EncodeError};
use crate::replay::rules::{
    draw_after_discard, turn_options, unscored_win, wait_kinds, CallOptions, TurnOptions,
};

/// The start, the end rule and the result are the replay's ([`crate::replay::ending`]): the
/// engine ends its games where a record of them must end.
pub use crate::replay::ending::{final_results, game_over, RoundEnd};

/// An engine failure, placed in the game. Each kind is a bug (in the engine or a bot), never
/// a consequence of the seed: the engine is deterministic and every legal game finishes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, round {round}, event {event}: {kind}")]
pub struct EngineError {
    pub game: String,
    pub round: String,
    pub event: usize,
    pub kind: EngineErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineErrorKind {
    #[error("the replay table rejected the engine's event: {0}")]
    Table(#[from] TableError),
    #[error("bot at seat {who} chose an option it was not offered: {detail}")]
    Bot { who: u8, detail: String },
    #[error("wall: {0}")]
    Wall(&'static str),
    #[error(transparent)]
    Encode(#[from] EncodeError),
    #[error("scoring: {0}")]
    Score(String),
    #[error("scoring: {0}")]
    WinInput(#[from] crate::replay::check::WinInputError),
    #[error("the game did not end within {0} rounds")]
    TooLong(usize),
}

/// What to play: the rules and the seed of the walls.
#[derive(Clone, Debug)]
pub struct GameSpec {
    pub id: String,
    /// Seed of the wall set: round `i` of the game (its i-th INIT) uses wall `mix(seed, i)`, so
    /// games with the same seed and different seatings see the same walls in the same order.
    pub seed: u64,
    pub hanchan: bool,
    pub players: [Player; 4],
    /// Seats at the table: 4, or 3 (Tenhou's sanma; the fourth player and bot are not used).
    pub seats: u8,
}

impl GameSpec {
    /// Tenhou's rules for the seat count ([`Rules::tenhou`]): red fives and open tanyao on, the
    /// ippan table, written as lobby 0.
    pub fn rules(&self) -> Rules {
        Rules { lobby: Some(0), ..Rules::tenhou(self.seats, self.hanchan, true) }
    }
}

/// Rounds after which a runaway game is stopped as an engine bug (a real hanchan has < 30).
const MAX_ROUNDS: usize = 400;

/// Plays one game with `bots[seat]` at each seat.
pub fn play_game(spec: &GameSpec, bots: [&dyn Bot; 4]) -> Result<Game, EngineError> {
    let rules = spec.rules();
    let mut rng = Rng::new(mix(&[spec.seed, 0xB075]));
    let mut rounds: Vec<Round> = Vec::new();
    let (mut round, mut honba, mut sticks) = (0u8, 0u8, 0u8);
    let mut scores = rules.start_scores();
    loop {
        let index = rounds.len();
        if index >= MAX_ROUNDS {
            return Err(EngineError {
                game: spec.id.clone(),
                round: round_name(round, honba),
                event: 0,
                kind: EngineErrorKind::TooLong(MAX_ROUNDS),
            });
        }
        let dealer = rules.dealer_of(round);
        let mut wall = Wall::for_rules(mix(&[spec.seed, index as u64]), &rules);
        let hands = wall.deal(dealer, rules.players);
        let start = RoundStart {
            round,
            honba,
            sticks,
            dice: wall.dice,
            dora_indicator: wall.first_indicator(),
            scores,
            dealer,
            hands,
        };
        let mut play = RoundPlay::new(rules, &start, wall, &mut rng, bots).map_err(|kind| EngineError {
            game: spec.id.clone(),
            round: round_name(round, honba),
            event: 0,
            kind,
        })?;
        let played = play.play();
        let outcome = played.map_err(|kind| EngineError {
            game: spec.id.clone(),
            round: round_name(round, honba),
            event: play.events.len(),
            kind,
        })?;
        scores = play.table.scores;
        sticks = play.table.sticks;
        rounds.push(Round { start, events: play.events });
        let (stays, dealer_won, dealer_tenpai) = match &outcome {
            Outcome::Wins(w) => {
                let won = w.contains(&dealer);
                (won, won, false)
            }
            Outcome::Draw { kind, dealer_tenpai } => {
                let tenpai = *kind == DrawKind::Exhaustive && *dealer_tenpai;
                (*kind != DrawKind::Exhaustive || *dealer_tenpai, false, tenpai)
            }
        };
        honba = match outcome {
            Outcome::Wins(_) if !dealer_won => 0,
            _ => honba.saturating_add(1),
        };
        let after = RoundEnd { round, stays, dealer_won, dealer_tenpai, scores };
        if game_over(&after, &rules, spec.hanchan) {
            let (final_scores, results) = final_results(&scores, sticks, &rules);
            return Ok(Game {
                id: spec.id.clone(),
                rules,
                players: spec.players.clone(),
                rounds,
                final_scores: Some(final_scores),
                final_results: Some(results),
            });
        }
        if !stays {
            round = rules.next_round(round);
        }
    }
}

/// How a round ended, for the game's transition.
enum Outcome {
    /// The winners.
    Wins(Vec<u8>),
    Draw {
        kind: DrawKind,
        dealer_tenpai: bool,
    },
}

/// What the current seat does next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    Draw,
    Rinshan,
    /// After chi / pon: discard without drawing.
    Discard,
}

/// One East-1 round (dealer at seat 0, the starting score each) on a wall the caller arranged:
/// the paired experiments of [`super::seed_pairs`]. Same rules and bots as [`play_game`].
pub fn play_round_on(spec: &GameSpec, mut wall: Wall, bots: [&dyn Bot; 4]) -> Result<Round, EngineError> {
    let rules = spec.rules();
    let mut rng = Rng::new(mix(&[spec.seed, 0xB075]));
    let hands = wall.deal(0, rules.players);
    let start = RoundStart {
        round: 0,
        honba: 0,
        sticks: 0,
        dice: wall.dice,
        dora_indicator: wall.first_indicator(),
        scores: rules.start_scores(),
        dealer: 0,
        hands,
    };
    let fail =
        |event: usize, kind| EngineError { game: spec.id.clone(), round: round_name(0, 0), event, kind };
    let mut play = RoundPlay::new(rules, &start, wall, &mut rng, bots).map_err(|k| fail(0, k))?;
    let played = play.play();
    played.map_err(|k| fail(play.events.len(), k))?;
    Ok(Round { start, events: play.events })
}

struct RoundPlay<'a> {
    rules: Rules,
    table: Table,
    events: Vec<Event>,
    wall: Wall,
    rng: &'a mut Rng,
    bots: [&'a dyn Bot; 4],
    /// Open / added kan indicators not shown yet.
    pending_dora: u8,
    temp_furiten: [bool; 4],
    riichi_furiten: [bool; 4],
    /// Winning kinds of each 13-tile hand (bits), kept from the seat's last discard.
    waits: [u64; 4],
    /// Kinds each seat has discarded this round (bits).
    discarded: [u64; 4],
    /// Who fed the third dragon set / fourth wind set (pao), per seat.
    pao_dragon: [Option<u8>; 4],
    pao_wind: [Option<u8>; 4],
}

fn bit(k: Kind) -> u64 {
    1u64 << k
}

impl<'a> RoundPlay<'a> {
    fn new(
        rules: Rules,
        start: &RoundStart,
        wall: Wall,
        rng: &'a mut Rng,
        bots: [&'a dyn Bot; 4],
    ) -> Result<RoundPlay<'a>, EngineErrorKind> {
        let table = Table::new(rules, start)?;
        let mut p = RoundPlay {
            rules,
            table,
            events: Vec::new(),
            wall,
            rng,
            bots,
            pending_dora: 0,
            temp_furiten: [false; 4],
            riichi_furiten: [false; 4],
            waits: [0; 4],
            discarded: [0; 4],
            pao_dragon: [None; 4],
            pao_wind: [None; 4],
        };
        for who in rules.seats() {
            p.waits[who as usize] = wait_kinds(&p.table, who);
        }
        Ok(p)
    }

    fn emit(&mut self, ev: Event) -> Result<(), EngineErrorKind> {
        self.table.apply(&ev)?;
        self.events.push(ev);
        Ok(())
    }

    fn ask_turn(&mut self, who: u8, options: &TurnOptions) -> TurnAction {
        let random = self.rng.next_u64();
        let seat = Seat { table: &self.table, who, random };
        self.bots[who as usize].turn(&seat, options)
    }

    fn ask_call(&mut self, who: u8, options: &CallOptions) -> CallAction {
        let random = self.rng.next_u64();
        let seat = Seat { table: &self.table, who, random };
        self.bots[who as usize].call(&seat, options)
    }

    fn furiten(&self, who: u8) -> bool {
        let w = who as usize;
        self.temp_furiten[w] || self.riichi_furiten[w] || self.waits[w] & self.discarded[w] != 0
    }

    fn flush_dora(&mut self) -> Result<(), EngineErrorKind> {
        while self.pending_dora > 0 {
            self.pending_dora -= 1;
            let indicator = self.wall.reveal().ok_or(EngineErrorKind::Wall("no kan dora indicator left"))?;
            self.emit(Event::NewDora { indicator })?;
        }
        Ok(())
    }

    /// A canonical call: what a reader decodes from its `m` bits, so the in-memory game equals
    /// the written one.
    fn canonical(call: Call) -> Result<Call, EngineErrorKind> {
        let m = encode_meld(&call)?;
        crate::log::mjlog::decode_meld(m)
            .map_err(|_| EngineErrorKind::Score(format!("m={m} does not decode")))
    }

    /// The win of `who` on `tile` from `from` (== who for tsumo), scored as the replay re-scores
    /// it; `None` without a yaku. The table must stand right after the draw / discard / kakan.
    fn score(
        &self,
        who: u8,
        from: u8,
        tile: TileId,
        second_ron: bool,
    ) -> Result<Option<Agari>, EngineErrorKind> {
        let t = &self.table;
        let riichi = matches!(t.riichi[who as usize], RiichiState::Accepted { .. });
        let ura = if riichi { self.wall.ura() } else { Vec::new() };
        let mut a = unscored_win(t, who, from, tile, second_ron, ura);
        let input = win_input(t, &a, second_ron)?;
        let Some(win) = score_with(&input, &self.rules.score_rules()) else { return Ok(None) };
        let pao = if win.yakuman.contains(&yaku::DAISANGEN) {
            self.pao_dragon[who as usize]
        } else if win.yakuman.contains(&yaku::DAISUUSHII) {
            self.pao_wind[who as usize]
        } else {
            None
        };
        let ron_from = (from != who).then_some(from);
        a.deltas = payments(
            &win,
            &Payers { winner: who, dealer: t.start.dealer, ron_from, pao, players: t.rules.players },
            input.honba,
            input.sticks,
        );
        a.pao_who = pao;
        a.fu = win.fu as u32;
        a.points = win.base_points as i32;
        a.limit = win.limit;
        a.yaku = win.yaku.clone();
        // Tenhou lists ura dora with 0 han on a riichi hand without ura.
        if riichi && win.yakuman.is_empty() && !a.yaku.iter().any(|&(id, _)| id == yaku::URA_DORA) {
            a.yaku.push((yaku::URA_DORA, 0));
        }
        a.yakuman = win.yakuman.clone();
        Ok(Some(a))
    }

    /// Records the wins (in the order given: nearest the discarder first) and settles them.
    fn finish_wins(&mut self, winners: &[(u8, u8, TileId)]) -> Result<Outcome, EngineErrorKind> {
        for (i, &(who, from, tile)) in winners.iter().enumerate() {
            let a = self
                .score(who, from, tile, i > 0)?
                .ok_or_else(|| EngineErrorKind::Score(format!("seat {who}'s win lost its yaku")))?;
            self.table.settle(&a.deltas, true);
            self.events.push(Event::Agari(Box::new(a)));
        }
        Ok(Outcome::Wins(winners.iter().map(|w| w.0).collect()))
    }

    fn finish_draw(
        &mut self,
        kind: DrawKind,
        deltas: [i32; 4],
        mut shown: [Option<Vec<TileId>>; 4],
    ) -> Result<Outcome, EngineErrorKind> {
        // Tenhou shows hands sorted.
        for h in shown.iter_mut().flatten() {
            h.sort_unstable();
        }
        let dealer = self.table.start.dealer as usize;
        let dealer_tenpai = shown[dealer].is_some();
        let d = RoundDraw {
            kind,
            honba: self.table.start.honba,
            sticks: self.table.sticks,
            scores_before: self.table.scores,
            deltas,
            shown,
        };
        self.table.settle(&deltas, false);
        self.events.push(Event::Ryuukyoku(Box::new(d)));
        Ok(Outcome::Draw { kind, dealer_tenpai })
    }

    /// Tenpai at an exhaustive draw: a wait on some kind the seat does not hold all four of.
    fn tenpai(&self, who: u8) -> bool {
        let mut own = self.table.hand_counts(who);
        for m in &self.table.melds[who as usize] {
            for id in &m.tiles {
                own[id.kind()] += 1;
            }
        }
        let w = wait_kinds(&self.table, who);
        (0..KINDS).any(|k| w & bit(k) != 0 && own[k] < 4)
    }

    fn exhaustive(&mut self) -> Result<Outcome, EngineErrorKind> {
        let seats = i32::from(self.rules.players);
        let tenpai: [bool; 4] = std::array::from_fn(|p| (p as i32) < seats && self.tenpai(p as u8));
        let n = tenpai.iter().filter(|&&t| t).count() as i32;
        let mut deltas = [0; 4];
        // The noten pool: 1,000 from each other seat's share (3,000 at four, 2,000 at three).
        let pool = 1000 * (seats - 1);
        if (1..seats).contains(&n) {
            for p in 0..seats as usize {
                deltas[p] = if tenpai[p] { pool / n } else { -pool / (seats - n) };
            }
        }
        let shown = std::array::from_fn(|p| tenpai[p].then(|| self.table.hands[p].clone()));
        self.finish_draw(DrawKind::Exhaustive, deltas, shown)
    }

    fn play(&mut self) -> Result<Outcome, EngineErrorKind> {
        let mut p = self.table.start.dealer;
        let mut next = Next::Draw;
        loop {
            let drawn = match next {
                Next::Draw => {
                    let tile = self.wall.draw().ok_or(EngineErrorKind::Wall("live wall exhausted"))?;
                    self.emit(Event::Draw { who: p, tile })?;
                    Some(tile)
                }
                Next::Rinshan => {
                    let tile =
                        self.wall.draw_rinshan().ok_or(EngineErrorKind::Wall("no replacement tile"))?;
                    self.emit(Event::Draw { who: p, tile })?;
                    Some(tile)
                }
                Next::Discard => None,
            };
            let options = self.turn_options(p, drawn, next == Next::Draw);
            let action = self.ask_turn(p, &options);
            let bad = |detail: String| EngineErrorKind::Bot { who: p, detail };
            let (tile, riichi) = match action {
                TurnAction::Tsumo if options.tsumo => {
                    let tile = drawn.ok_or_else(|| bad("tsumo without a draw".into()))?;
                    return self.finish_wins(&[(p, p, tile)]);
                }
                TurnAction::Kyuushu if options.kyuushu => {
                    let mut shown: [Option<Vec<TileId>>; 4] = Default::default();
                    shown[p as usize] = Some(self.table.hands[p as usize].clone());
                    return self.finish_draw(DrawKind::Yao9, [0; 4], shown);
                }
                TurnAction::Ankan(k) if options.ankan.contains(&k) => {
                    let tiles: Vec<TileId> =
                        self.table.hands[p as usize].iter().copied().filter(|t| t.kind() == k).collect();
                    let call = Self::canonical(Call {
                        kind: MeldKind::Ankan,
                        tiles,
                        called: None,
                        from: 0,
                        added: None,
                    })?;
                    self.emit(Event::Call { who: p, call })?;
                    self.flush_dora()?;
                    self.pending_dora = 1;
                    self.flush_dora()?;
                    next = Next::Rinshan;
                    continue;
                }
                TurnAction::Kakan(k) if options.kakan.contains(&k) => {
                    if let Some(outcome) = self.kakan(p, k)? {
                        return Ok(outcome);
                    }
                    next = Next::Rinshan;
                    continue;
                }
                TurnAction::Kita(north) if options.kita == Some(north) => {
                    // Tenhou shows a pending kan indicator at the set-aside, as at a discard.
                    self.flush_dora()?;
                    self.emit(Event::Kita { who: p, tile: north })?;
                    if let Some(outcome) = self.offer_ron(p, north, true)? {
                        return Ok(outcome);
                    }
                    next = Next::Rinshan;
                    continue;
                }
                TurnAction::Riichi(t) if options.riichi.contains(&t) => (t, true),
                TurnAction::Discard(t) if options.discards.contains(&t) => (t, false),
                other => return Err(bad(format!("{other:?} with options {options:?}"))),
            };
            if riichi {
                self.emit(Event::Riichi { who: p, step: 1, scores: None })?;
            }
            self.flush_dora()?;
            self.emit(Event::Discard { who: p, tile })?;
            let w = p as usize;
            self.temp_furiten[w] = false;
            self.discarded[w] |= bit(tile.kind());
            self.waits[w] = wait_kinds(&self.table, p);

            // Ron.
            if let Some(outcome) = self.offer_ron(p, tile, false)? {
                return Ok(outcome);
            }
            if riichi {
                let mut s = self.table.scores;
                s[w] -= 1000;
                self.emit(Event::Riichi { who: p, step: 2, scores: Some(s) })?;
                if self.table.riichi.iter().all(|r| matches!(r, RiichiState::Accepted { .. })) {
                    let shown = std::array::from_fn(|q| Some(self.table.hands[q].clone()));
                    return self.finish_draw(DrawKind::Reach4, [0; 4], shown);
                }
            }
            if let Some(kind) = draw_after_discard(&self.table) {
                return self.finish_draw(kind, [0; 4], Default::default());
            }
            if self.table.wall_left == 0 {
                return self.exhaustive();
            }
            // Calls.
            match self.offer_calls(p, tile)? {
                Some((q, kan)) => {
                    p = q;
                    next = if kan { Next::Rinshan } else { Next::Discard };
                }
                None => {
                    p = (p + 1) % self.rules.players;
                    next = Next::Draw;
                }
            }
        }
    }

    /// Added kan: declared, robbed (chankan) or completed. `Some` when the round ended.
    fn kakan(&mut self, p: u8, k: Kind) -> Result<Option<Outcome>, EngineErrorKind> {
        let w = p as usize;
        let Some(pon) =
            self.table.melds[w].iter().find(|m| m.kind == MeldKind::Pon && m.tiles[0].kind() == k)
        else {
            return Err(EngineErrorKind::Bot { who: p, detail: format!("no pon of kind {k}") });
        };
        let added = self.table.hands[w].iter().copied().find(|t| t.kind() == k);
        let Some(added) = added else {
            return Err(EngineErrorKind::Bot { who: p, detail: format!("no tile of kind {k} to add") });
        };
        let mut tiles = pon.tiles.clone();
        tiles.push(added);
        let call = Self::canonical(Call {
            kind: MeldKind::Kakan,
            tiles,
            called: pon.called,
            from: pon.from,
            added: Some(added),
        })?;
        self.emit(Event::Call { who: p, call })?;
        self.flush_dora()?;
        if let Some(outcome) = self.offer_ron(p, added, true)? {
            return Ok(Some(outcome));
        }
        self.pending_dora += 1;
        Ok(None)
    }

    /// Offers ron on `tile` from `from` to the other seats (chankan when `chankan`). Seats that
    /// could win and pass become furiten. Returns the round's outcome when someone wins.
    fn offer_ron(
        &mut self,
        from: u8,
        tile: TileId,
        chankan: bool,
    ) -> Result<Option<Outcome>, EngineErrorKind> {
        let mut winners = Vec::new();
        let n = self.rules.players;
        for i in 1..n {
            let q = (from + i) % n;
            let qi = q as usize;
            if self.waits[qi] & bit(tile.kind()) == 0 {
                continue;
            }
            let can = !self.furiten(q) && self.score(q, from, tile, false)?.is_some();
            let took = if can {
                let options = CallOptions { tile: Some((from, tile)), ron: true, ..Default::default() };
                match self.ask_call(q, &options) {
                    CallAction::Ron => true,
                    CallAction::Pass => false,
                    other => {
                        let detail = format!("{other:?} on {} (chankan {chankan})", tile.get());
                        return Err(EngineErrorKind::Bot { who: q, detail });
                    }
                }
            } else {
                false
            };
            if took {
                winners.push((q, from, tile));
            } else {
                self.temp_furiten[qi] = true;
                if matches!(self.table.riichi[qi], RiichiState::Accepted { .. }) {
                    self.riichi_furiten[qi] = true;
                }
            }
        }
        match winners.len() {
            0 => Ok(None),
            3 => {
                let mut shown: [Option<Vec<TileId>>; 4] = Default::default();
                for &(q, _, _) in &winners {
                    shown[q as usize] = Some(self.table.hands[q as usize].clone());
                }
                Ok(Some(self.finish_draw(DrawKind::Ron3, [0; 4], shown)?))
            }
            _ => Ok(Some(self.finish_wins(&winners)?)),
        }
    }

    /// Offers pon / open kan / chi on a discard that nobody ronned. Returns the caller and
    /// whether it was a kan.
    fn offer_calls(&mut self, from: u8, tile: TileId) -> Result<Option<(u8, bool)>, EngineErrorKind> {
        let mut choices: Vec<(u8, CallAction, CallOptions)> = Vec::new();
        let n = self.rules.players;
        for i in 1..n {
            let q = (from + i) % n;
            let options = self.call_options(q, from, tile);
            if !options.any() {
                continue;
            }
            let action = self.ask_call(q, &options);
            choices.push((q, action, options));
        }
        // Pon and kan before chi; only one seat can pon or kan a given discard.
        let pick = choices
            .iter()
            .find(|(_, a, _)| matches!(a, CallAction::Pon(_) | CallAction::Daiminkan))
            .or_else(|| choices.iter().find(|(_, a, _)| matches!(a, CallAction::Chi(_))));
        let Some((q, action, options)) = pick.cloned() else {
            for (q, a, _) in &choices {
                if *a != CallAction::Pass {
                    return Err(EngineErrorKind::Bot { who: *q, detail: format!("{a:?} not offered") });
                }
            }
            return Ok(None);
        };
        let rel = (from + 4 - q) % 4;
        let bad = |detail: String| EngineErrorKind::Bot { who: q, detail };
        let (kind, tiles) = match action {
            CallAction::Pon(pair) if options.pon.contains(&pair) => {
                (MeldKind::Pon, vec![tile, pair[0], pair[1]])
            }
            CallAction::Chi(pair) if options.chi.contains(&pair) => {
                (MeldKind::Chi, vec![tile, pair[0], pair[1]])
            }
            CallAction::Daiminkan if options.daiminkan => {
                let mut t = vec![tile];
                t.extend(self.table.hands[q as usize].iter().copied().filter(|t| t.kind() == tile.kind()));
                (MeldKind::Daiminkan, t)
            }
            other => return Err(bad(format!("{other:?} with options {options:?}"))),
        };
        let call = Self::canonical(Call { kind, tiles, called: Some(tile), from: rel, added: None })?;
        let qi = q as usize;
        self.emit(Event::Call { who: q, call })?;
        self.temp_furiten[qi] = false;
        if kind != MeldKind::Chi {
            self.set_pao(q, from, tile.kind());
        }
        if kind == MeldKind::Daiminkan {
            self.pending_dora += 1;
        }
        Ok(Some((q, kind == MeldKind::Daiminkan)))
    }

    /// Sekinin barai: the seat that fed the third dragon set or the fourth wind set.
    fn set_pao(&mut self, q: u8, from: u8, kind: Kind) {
        let sets = |range: std::ops::Range<Kind>| {
            self.table.melds[q as usize]
                .iter()
                .filter(|m| m.kind != MeldKind::Chi && range.contains(&m.tiles[0].kind()))
                .count()
        };
        if kind >= 31 && sets(31..34) == 3 {
            self.pao_dragon[q as usize] = Some(from);
        }
        if (27..31).contains(&kind) && sets(27..31) == 4 {
            self.pao_wind[q as usize] = Some(from);
        }
    }

    /// Chi / pon / open kan by the shared rules (ron is offered separately, by `offer_ron`).
    fn call_options(&self, q: u8, from: u8, tile: TileId) -> CallOptions {
        rules::call_options(&self.table, q, from, tile)
    }

    /// The shared rules' turn options, plus tsumo (which needs the scorer: a yaku).
    fn turn_options(&self, p: u8, drawn: Option<TileId>, live_draw: bool) -> TurnOptions {
        turn_options(&self.table, p, drawn, live_draw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::bots::Bot;

    /// Wins whenever it can, pons whenever it can, otherwise discards the first legal tile.
    struct PonAll;

    impl Bot for PonAll {
        fn name(&self) -> &str {
            "pon-all"
        }
        fn turn(&self, _: &Seat, o: &TurnOptions) -> TurnAction {
            if o.tsumo {
                TurnAction::Tsumo
            } else {
                TurnAction::Discard(o.discards[0])
            }
        }
        fn call(&self, _: &Seat, o: &CallOptions) -> CallAction {
            match (o.ron, o.pon.first()) {
                (true, _) => CallAction::Ron,
                (false, Some(&p)) => CallAction::Pon(p),
                _ => CallAction::Pass,
            }
        }
    }

    fn ids(v: &[u32]) -> Vec<TileId> {
        v.iter().map(|&i| TileId::new(i).unwrap()).collect()
    }

    /// Seat 1 pons all three dragons from seat 0, then rons seat 2 for daisangen: seat 0 is
    /// liable (pao) and pays half; the written record reads back and re-scores to the same.
    #[test]
    fn pao_for_the_third_dragon_set() {
        let rules = Rules { lobby: Some(0), ..Rules::tenhou(4, true, true) };
        let start = RoundStart {
            round: 0,
            honba: 0,
            sticks: 0,
            dice: [0, 0],
            dora_indicator: TileId::new(3).unwrap(),
            scores: [rules.start_score; 4],
            dealer: 0,
            hands: [
                ids(&[124, 128, 132, 13, 17, 21, 25, 29, 33, 61, 65, 69, 73]),
                ids(&[125, 126, 129, 130, 133, 134, 0, 4, 8, 48, 53, 56, 104]),
                ids(&[1, 5, 9, 37, 41, 45, 77, 81, 85, 108, 112, 116, 120]),
                ids(&[2, 6, 10, 38, 42, 46, 78, 82, 86, 109, 113, 117, 121]),
            ],
        };
        let mut rng = Rng::new(0);
        let bot = PonAll;
        let mut play =
            RoundPlay::new(rules, &start, Wall::new(0), &mut rng, [&bot, &bot, &bot, &bot]).unwrap();
        let id = |i: u32| TileId::new(i).unwrap();
        let step = |play: &mut RoundPlay, who: u8, draw: Option<u32>, discard: u32| {
            if let Some(d) = draw {
                play.emit(Event::Draw { who, tile: id(d) }).unwrap();
            }
            play.emit(Event::Discard { who, tile: id(discard) }).unwrap();
            play.waits[who as usize] = wait_kinds(&play.table, who);
        };
        for (dragon, draws, seat1_discard) in
            [(124, [14, 15, 18], 104), (128, [19, 22, 23], 48), (132, [26, 0, 0], 56)]
        {
            step(&mut play, 0, Some(draws[0]), dragon);
            assert_eq!(play.offer_calls(0, id(dragon)).unwrap(), Some((1, false)));
            step(&mut play, 1, None, seat1_discard);
            if dragon != 132 {
                step(&mut play, 2, Some(draws[1]), draws[1]);
                step(&mut play, 3, Some(draws[2]), draws[2]);
            }
        }
        assert_eq!(play.pao_dragon[1], Some(0));
        // Seat 1 waits on 5p alone (tanki); seat 2 draws and discards the red 5p.
        step(&mut play, 2, Some(52), 52);
        let outcome = play.offer_ron(2, id(52), false).unwrap();
        assert!(matches!(outcome, Some(Outcome::Wins(ref w)) if w == &[1]));
        let Some(Event::Agari(a)) = play.events.last() else { panic!("no win") };
        assert_eq!(a.yakuman, vec![yaku::DAISANGEN]);
        assert_eq!(a.pao_who, Some(0));
        // Non-dealer yakuman ron 32,000: half from the discarder, half from the liable seat.
        assert_eq!(a.deltas, [-16_000, 32_000, -16_000, 0]);

        let game = Game {
            id: "pao".into(),
            rules,
            players: Default::default(),
            rounds: vec![Round { start, events: play.events.clone() }],
            final_scores: None,
            final_results: None,
        };
        let xml = crate::log::mjlog::write::write_mjlog(&game, "pao").unwrap();
        assert!(xml.contains("paoWho=\"0\""), "{xml}");
        let back = crate::log::mjlog::parse_mjlog("pao", xml.as_bytes()).unwrap();
        let mut rescore = crate::replay::check::Rescore::default();
        let s = crate::replay::replay_game(&back, &mut (), &mut rescore).unwrap();
        assert_eq!((s.agari, s.mismatches.len()), (1, 0), "{:?}", s.mismatches);
    }

    #[test]
    fn kuikae_suji() {
        let id = |k: u32| TileId::new(k * 4).unwrap();
        // chi 3m with 4m5m (run 345, called at the low end): 3m and 6m forbidden.
        let call = Call {
            kind: MeldKind::Chi,
            tiles: vec![id(2), id(3), id(4)],
            called: Some(id(2)),
            from: 3,
            added: None,
        };
        assert_eq!(crate::replay::kuikae::kuikae_mask(&call), bit(2) | bit(5));
        // chi 5m with 3m4m (called at the high end): 5m and 2m.
        let call = Call {
            kind: MeldKind::Chi,
            tiles: vec![id(2), id(3), id(4)],
            called: Some(id(4)),
            from: 3,
            added: None,
        };
        assert_eq!(crate::replay::kuikae::kuikae_mask(&call), bit(4) | bit(1));
        // chi 7m with 8m9m: no 10m, only 7m.
        let call = Call {
            kind: MeldKind::Chi,
            tiles: vec![id(6), id(7), id(8)],
            called: Some(id(6)),
            from: 3,
            added: None,
        };
        assert_eq!(crate::replay::kuikae::kuikae_mask(&call), bit(6));
        // kanchan: only the called kind.
        let call = Call {
            kind: MeldKind::Chi,
            tiles: vec![id(2), id(3), id(4)],
            called: Some(id(3)),
            from: 3,
            added: None,
        };
        assert_eq!(crate::replay::kuikae::kuikae_mask(&call), bit(3));
    }
}
