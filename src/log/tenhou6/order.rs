//! The event order of a tenhou.net/6 round, found by playing the turns back (see the parent
//! module): a search over "this take is a call on that discard" or "the next seat draws", which
//! falls back when the rest of the round cannot be played out.

use super::codes::*;
use super::error::Tenhou6Error;
use crate::hand::meld::MeldKind;
use crate::log::event::*;
use crate::tile::TileId;

pub(super) struct Ctx<'a> {
    pub(super) data: &'a RoundData,
    pub(super) dora_ids: &'a [TileId],
    pub(super) red_fives: bool,
    /// Seats at the table (3 or 4): play passes from seat to seat among these.
    pub(super) players: usize,
}

/// The table as the turns are played back.
#[derive(Clone)]
pub(super) struct Sim {
    pub(super) ids: Ids,
    pub(super) hands: [Vec<TileId>; 4],
    pub(super) melds: [Vec<Call>; 4],
    /// Norths each seat has set aside (three players).
    pub(super) kita: [Vec<TileId>; 4],
    pub(super) take_at: [usize; 4],
    pub(super) give_at: [usize; 4],
    pub(super) events: Vec<Event>,
    pub(super) last_draw: [Option<TileId>; 4],
    /// The last tile given up (discard, or the added tile of a kakan, or a closed kan's tile):
    /// what a ron takes.
    pub(super) last_given: Option<(u8, TileId)>,
    /// A riichi whose discard has not been passed yet (step 2 is emitted when play moves on).
    pub(super) riichi_pending: Option<u8>,
    pub(super) riichi_paid: [bool; 4],
    pub(super) dora_shown: usize,
    /// Kan doras announced but not yet shown (open and added kans show theirs at the discard).
    pub(super) dora_pending: usize,
    pub(super) last_actor: u8,
}

impl Sim {
    pub(super) fn next_take<'a>(&self, ctx: &'a Ctx, s: usize) -> Option<&'a Take> {
        ctx.data.takes[s].get(self.take_at[s])
    }

    pub(super) fn next_give<'a>(&self, ctx: &'a Ctx, s: usize) -> Option<&'a Give> {
        ctx.data.gives[s].get(self.give_at[s])
    }

    /// Removes a tile of this code from a hand, preferring not to take `avoid` (the drawn tile:
    /// a discard by code rather than 60 came from the hand).
    pub(super) fn remove(
        &mut self,
        ctx: &Ctx,
        s: usize,
        code: Code,
        avoid: Option<TileId>,
    ) -> Result<TileId, Tenhou6Error> {
        let hand = &mut self.hands[s];
        let matches = |id: &TileId| Code::of_id(*id, ctx.red_fives) == code;
        let pos = hand
            .iter()
            .position(|id| matches(id) && Some(*id) != avoid)
            .or_else(|| hand.iter().position(matches))
            .ok_or(Tenhou6Error::NotHeld { seat: s, code: code.0.into() })?;
        Ok(hand.swap_remove(pos))
    }

    pub(super) fn scores_now(&self, ctx: &Ctx) -> [i32; 4] {
        let mut s = ctx.data.start.scores;
        for (i, paid) in self.riichi_paid.iter().enumerate() {
            if *paid {
                s[i] -= 1000;
            }
        }
        s
    }

    /// Play moved on past a riichi discard: the riichi stands and its stick is paid.
    pub(super) fn accept_riichi(&mut self, ctx: &Ctx) {
        if let Some(who) = self.riichi_pending.take() {
            self.riichi_paid[who as usize] = true;
            let scores = Some(self.scores_now(ctx));
            self.events.push(Event::Riichi { who, step: 2, scores });
        }
    }

    pub(super) fn show_doras(&mut self, ctx: &Ctx) {
        while self.dora_pending > 0 {
            self.dora_pending -= 1;
            if let Some(&indicator) = ctx.dora_ids.get(self.dora_shown) {
                self.dora_shown += 1;
                self.events.push(Event::NewDora { indicator });
            }
        }
    }
}

/// A dead end of the event-order search: how far it got (events placed) and why it stopped.
pub(super) struct Stuck {
    pub(super) events: usize,
    pub(super) error: Tenhou6Error,
}

pub(super) fn stuck(st: &Sim, error: Tenhou6Error) -> Stuck {
    Stuck { events: st.events.len(), error }
}

/// Of two dead ends, the one that got further.
pub(super) fn deeper(a: Option<Stuck>, b: Stuck) -> Stuck {
    match a {
        Some(a) if a.events >= b.events => a,
        _ => b,
    }
}

/// Plays the round from `actor`'s turn; `draw` says whether the turn starts with a wall draw
/// (false after a chi or pon). Returns the table at the end of the round. A discard someone may
/// call forks the search ([`after_discard`]); otherwise play goes round in this loop.
pub(super) fn play(
    ctx: &Ctx,
    mut st: Sim,
    mut actor: usize,
    mut draw: bool,
    budget: &mut usize,
) -> Result<Sim, Stuck> {
    loop {
        *budget = budget.checked_sub(1).ok_or_else(|| stuck(&st, Tenhou6Error::Budget))?;
        if draw && !wall_draw(ctx, &mut st, actor)? {
            return check_done(ctx, st);
        }
        let drawn = if draw { st.last_draw[actor] } else { None };
        let give = match st.next_give(ctx, actor) {
            None => return check_done(ctx, st),
            Some(g) => g.clone(),
        };
        st.give_at[actor] += 1;
        match give {
            Give::Nothing => return Err(stuck(&st, Tenhou6Error::StrayZero(actor))),
            Give::Kakan { added } => {
                kakan(ctx, &mut st, actor, added)?;
                draw = true;
            }
            Give::Ankan { tiles } => {
                ankan(ctx, &mut st, actor, &tiles)?;
                draw = true;
            }
            Give::Kita => {
                kita(ctx, &mut st, actor)?;
                draw = true;
            }
            Give::Discard { code, riichi } => {
                let tile = discard(ctx, &mut st, actor, code, riichi, drawn)?;
                let callers = callers_of(ctx, &st, actor, tile);
                if callers.is_empty() {
                    actor = (actor + 1) % ctx.players;
                    draw = true;
                    continue;
                }
                return after_discard(ctx, st, actor, tile, callers, budget);
            }
        }
    }
}

/// `actor` draws its next take from the wall (paying a pending riichi first). False when it has
/// no take left, i.e. the round is over; an error when its next take is a call instead.
fn wall_draw(ctx: &Ctx, st: &mut Sim, actor: usize) -> Result<bool, Stuck> {
    match st.next_take(ctx, actor) {
        None => Ok(false),
        Some(Take::Tile(code)) => {
            st.accept_riichi(ctx);
            let tile = st.ids.take(*code).map_err(|e| stuck(st, e))?;
            st.take_at[actor] += 1;
            st.hands[actor].push(tile);
            st.last_draw[actor] = Some(tile);
            st.last_actor = actor as u8;
            st.events.push(Event::Draw { who: actor as u8, tile });
            Ok(true)
        }
        Some(Take::Call { .. }) => Err(stuck(st, Tenhou6Error::DrawIsCall(actor))),
    }
}

/// `actor` adds `added` to its pon (kakan). The doras of earlier kans show now; this kan's shows
/// at the next discard, and the added tile is what a robbing ron (chankan) takes.
fn kakan(ctx: &Ctx, st: &mut Sim, actor: usize, added: Code) -> Result<(), Stuck> {
    let who = actor as u8;
    let tile = st.remove(ctx, actor, added, None).map_err(|e| stuck(st, e))?;
    let pos = st.melds[actor]
        .iter()
        .position(|m| m.kind == MeldKind::Pon && m.tiles[0].kind() == added.kind())
        .ok_or_else(|| stuck(st, Tenhou6Error::NoPon(actor)))?;
    let pon = st.melds[actor][pos].clone();
    let mut tiles = pon.tiles.clone();
    tiles.push(tile);
    let call = Call { kind: MeldKind::Kakan, tiles, called: pon.called, from: pon.from, added: Some(tile) };
    st.melds[actor][pos] = call.clone();
    st.events.push(Event::Call { who, call });
    st.show_doras(ctx);
    st.dora_pending += 1;
    st.last_given = Some((who, tile));
    Ok(())
}

/// `actor` declares a closed kan of `tiles`; its dora shows at once (after the call).
fn ankan(ctx: &Ctx, st: &mut Sim, actor: usize, tiles: &[Code]) -> Result<(), Stuck> {
    let who = actor as u8;
    let mut ids = Vec::with_capacity(4);
    for c in tiles {
        ids.push(st.remove(ctx, actor, *c, None).map_err(|e| stuck(st, e))?);
    }
    ids.sort();
    let call = Call { kind: MeldKind::Ankan, tiles: ids.clone(), called: None, from: 0, added: None };
    st.melds[actor].push(call.clone());
    st.events.push(Event::Call { who, call });
    st.dora_pending += 1;
    st.show_doras(ctx);
    st.last_given = Some((who, ids[0]));
    Ok(())
}

/// `actor` sets a north aside (`"f44"`); its next take is the replacement draw. The pending
/// doras of an open kan show right after it, as the mjlogs show them (docs/sanma.md), and the
/// north is what a robbing ron takes.
fn kita(ctx: &Ctx, st: &mut Sim, actor: usize) -> Result<(), Stuck> {
    let who = actor as u8;
    let tile = st.remove(ctx, actor, Code(44), None).map_err(|e| stuck(st, e))?;
    st.kita[actor].push(tile);
    st.events.push(Event::Kita { who, tile });
    st.show_doras(ctx);
    st.last_given = Some((who, tile));
    Ok(())
}

/// `actor` discards: the drawn tile itself when `code` is None (Tenhou's 60), else a tile of
/// `code` from the hand (not the drawn one if it can help it). A riichi declaration goes before
/// the discard, and pending kan doras show before it too. Returns the tile discarded.
fn discard(
    ctx: &Ctx,
    st: &mut Sim,
    actor: usize,
    code: Option<Code>,
    riichi: bool,
    drawn: Option<TileId>,
) -> Result<TileId, Stuck> {
    let who = actor as u8;
    let tile = match code {
        None => {
            let t = drawn.ok_or_else(|| stuck(st, Tenhou6Error::DrawnAfterCall(actor)))?;
            let pos = st.hands[actor]
                .iter()
                .position(|&x| x == t)
                .ok_or_else(|| stuck(st, Tenhou6Error::DrawnNotInHand))?;
            st.hands[actor].swap_remove(pos)
        }
        Some(c) => st.remove(ctx, actor, c, drawn).map_err(|e| stuck(st, e))?,
    };
    if riichi {
        st.events.push(Event::Riichi { who, step: 1, scores: None });
        st.riichi_pending = Some(who);
    }
    st.show_doras(ctx);
    st.events.push(Event::Discard { who, tile });
    st.last_given = Some((who, tile));
    Ok(tile)
}

/// Seats whose next take is a call on `actor`'s discard `tile` (a chi only from the next seat),
/// pon and kan before chi: the order the search tries them in.
fn callers_of(ctx: &Ctx, st: &Sim, actor: usize, tile: TileId) -> Vec<usize> {
    let code = Code::of_id(tile, ctx.red_fives);
    let mut callers: Vec<usize> = Vec::new();
    for off in 1..ctx.players {
        let s = (actor + off) % ctx.players;
        if let Some(Take::Call { kind, from, called, .. }) = st.next_take(ctx, s) {
            let from_actor = discarder(s, *from, ctx.players) == Some(actor);
            if from_actor && *called == code && (*kind != MeldKind::Chi || off == 1) {
                callers.push(s);
            }
        }
    }
    callers.sort_by_key(|&s| matches!(st.next_take(ctx, s), Some(Take::Call { kind: MeldKind::Chi, .. })));
    callers
}

/// The seat a call of seat `s` took its tile from, by the call string's `from` (1 = next seat,
/// 2 = across, 3 = previous). At four players, and at three in the four-seat geometry of
/// Tenhou's mjlogs and of tensoul (an empty seat 3 between seats 2 and 0: seat 0 calling seat 2
/// is "across", docs/sanma.md), the seat `from` places after `s`; at three players a `from`
/// landing on the empty seat is read in three-seat order instead (3 = previous, 1 = next), the
/// two readings never naming different seats. `None` when it names no seat at the table.
pub(super) fn discarder(s: usize, from: u8, players: usize) -> Option<usize> {
    let four = (s + usize::from(from)) % 4;
    if four < players {
        return Some(four);
    }
    match from {
        1 => Some((s + 1) % players),
        3 => Some((s + players - 1) % players),
        _ => None,
    }
}

/// The fork after a discard `callers` may call: try each call in turn on a copy of the table,
/// then the next seat drawing. The first branch that plays out to the end wins.
fn after_discard(
    ctx: &Ctx,
    st: Sim,
    actor: usize,
    tile: TileId,
    callers: Vec<usize>,
    budget: &mut usize,
) -> Result<Sim, Stuck> {
    let mut deepest: Option<Stuck> = None;
    for s in callers {
        let mut branch = st.clone();
        let outcome = match apply_call(ctx, &mut branch, s, tile) {
            Ok(draw_next) => play(ctx, branch, s, draw_next, budget),
            Err(e) => Err(stuck(&branch, e)),
        };
        match outcome {
            Ok(done) => return Ok(done),
            Err(e) => deepest = Some(deeper(deepest, e)),
        }
        if *budget == 0 {
            break;
        }
    }
    // Nobody called: the next seat draws. If that cannot finish either, report the
    // failure that got furthest into the round (the most telling one).
    let next = (actor + 1) % ctx.players;
    play(ctx, st, next, true, budget).map_err(|e| deeper(deepest, e))
}

/// Seat `s` calls `tile`; returns whether it then draws (open kan) or discards straight away.
pub(super) fn apply_call(ctx: &Ctx, st: &mut Sim, s: usize, tile: TileId) -> Result<bool, Tenhou6Error> {
    let Some(Take::Call { kind, own, .. }) = st.next_take(ctx, s).cloned() else {
        return Err(Tenhou6Error::NoCall);
    };
    // The event's `from` in the four-seat geometry the replay and the mjlog use, whichever
    // geometry the record wrote (see [`discarder`]).
    let giver = st.last_given.map_or(s, |(g, _)| usize::from(g));
    let from = ((giver + 4 - s) % 4) as u8;
    st.accept_riichi(ctx);
    st.take_at[s] += 1;
    let mut tiles = vec![tile];
    for c in &own {
        tiles.push(st.remove(ctx, s, *c, None)?);
    }
    tiles.sort();
    let call = Call { kind, tiles, called: Some(tile), from, added: None };
    st.melds[s].push(call.clone());
    st.events.push(Event::Call { who: s as u8, call });
    st.last_draw[s] = None;
    st.last_actor = s as u8;
    if kind == MeldKind::Daiminkan {
        // Tenhou leaves the 0 out when the kan's replacement draw ends the round (a rinshan
        // win): the seat's gives end here.
        match st.next_give(ctx, s) {
            Some(Give::Nothing) => st.give_at[s] += 1,
            None => {}
            _ => return Err(Tenhou6Error::KanWithoutZero(s)),
        }
        st.dora_pending += 1;
        return Ok(true);
    }
    Ok(false)
}

/// The round is over when a seat cannot act: every list must be used up.
pub(super) fn check_done(ctx: &Ctx, st: Sim) -> Result<Sim, Stuck> {
    for s in 0..4 {
        let (t, g) = (ctx.data.takes[s].len(), ctx.data.gives[s].len());
        if st.take_at[s] != t || st.give_at[s] != g {
            let (take, give) = (st.take_at[s], st.give_at[s]);
            return Err(stuck(&st, Tenhou6Error::Unfinished { seat: s, take, takes: t, give, gives: g }));
        }
    }
    Ok(st)
}
