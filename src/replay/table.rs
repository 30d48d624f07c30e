//! The table state machine: applies a round's events one by one and validates each step.
//!
//! The table knows what every player may legally do next (who draws, who discards, which tiles are
//! in which hand), so a record that breaks the rules, or a reader that mis-decodes it, shows up as a
//! [`ReplayError`] at the first event that does not fit, with the round and event index.

use crate::hand::meld::{Meld, MeldKind};
use crate::log::event::{Call, Event, RoundStart, Rules, MAX_SEATS};
use crate::tile::{Counts, Tile, TileId, KINDS};

/// One discarded tile in a river.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RiverTile {
    pub tile: TileId,
    /// Discarded straight after drawing it.
    pub tsumogiri: bool,
    /// Taken by another player's call (it then sits in their meld, not in this river).
    pub called: bool,
    /// The tile that declared riichi.
    pub riichi: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RiichiState {
    #[default]
    None,
    /// Declared, the declaring discard not yet passed.
    Declared,
    /// Accepted: the stick is paid. `river_index` is the declaring discard's place in the river.
    Accepted { river_index: usize, double: bool },
}

/// What the record must do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Draw(u8),
    Discard(u8),
}

/// The state of one round in progress, as every seat's public and private information.
#[derive(Clone, Debug)]
pub struct Table {
    pub rules: Rules,
    pub start: RoundStart,
    pub scores: [i32; 4],
    pub sticks: u8,
    pub hands: [Vec<TileId>; 4],
    pub melds: [Vec<Call>; 4],
    pub rivers: [Vec<RiverTile>; 4],
    pub riichi: [RiichiState; 4],
    pub ippatsu: [bool; 4],
    pub dora_indicators: Vec<TileId>,
    /// Draws left in the live wall.
    pub wall_left: u8,
    /// Number of draws each player has made this round.
    pub draws: [u16; 4],
    /// The last tile each player drew, while it is still the last thing they did.
    pub last_draw: [Option<TileId>; 4],
    /// The last discard and who made it, while it can still be called or ronned.
    pub last_discard: Option<(u8, TileId)>,
    /// A kakan just declared (who, tile added): it can be robbed (chankan).
    pub last_kakan: Option<(u8, TileId)>,
    /// A north just set aside (who, tile): another seat waiting on 北 may ron it.
    pub last_kita: Option<(u8, TileId)>,
    /// Norths each seat has set aside this round (three players).
    pub kita: [Vec<TileId>; 4],
    /// Ippatsu chances as they were before the last call: a robbed kan (chankan) never happened,
    /// so a riichi player who robs it keeps ippatsu.
    pub ippatsu_before_call: [bool; 4],
    /// Whether the next draw of this player is a replacement draw after a kan.
    pub rinshan: [bool; 4],
    /// Every discard of the round in table order (seat, tile): what passed after a riichi.
    pub discards: Vec<(u8, TileId)>,
    /// Any call (including closed kans) so far this round: ends the first go-around.
    pub any_call: bool,
    pub kans: u8,
    /// Kinds each seat may not discard right now (kuikae after its chi or pon, as a bit set over
    /// kinds; see [`super::kuikae::kuikae_mask`]). Cleared by the seat's next discard.
    pub kuikae: [u64; 4],
    /// Seats whose concealed tiles are stand-ins, not the real ones: an mjai bot's opponents
    /// ([`crate::bot`]), whose hands the stream hides. The one check that needs a hidden hand's
    /// real tiles (tenpai at a riichi declaration) is left to the table that knows them.
    pub hidden: [bool; 4],
    seen: [bool; 136],
    expect: Expect,
}

/// What went wrong, without the position (the caller adds round and event index).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("tile id {0} appears twice in the round")]
    DuplicateTile(u8),
    #[error("seat {who} {action} out of turn (expected {expected})")]
    OutOfTurn { who: u8, action: &'static str, expected: String },
    #[error("seat {who} discards {tile} which is not in their hand")]
    NotInHand { who: u8, tile: String },
    #[error("seat {who} draws but the live wall is empty")]
    WallEmpty { who: u8 },
    #[error("seat {who} is in riichi and discards {tile}, not the drawn tile")]
    RiichiChangedHand { who: u8, tile: String },
    #[error("call by seat {who}: {reason}")]
    BadCall { who: u8, reason: String },
    #[error("riichi by seat {who}: {reason}")]
    BadRiichi { who: u8, reason: String },
    #[error("seat {who} is dealt {count} tiles, not {want}")]
    BadDeal { who: u8, count: usize, want: usize },
    #[error("tile {tile} is not in this table's set (three players play without 2m-8m)")]
    NotInSet { tile: String },
    #[error("north set aside by seat {who}: {reason}")]
    BadKita { who: u8, reason: String },
}

fn tile_name(id: TileId, rules: &Rules) -> String {
    format!("{} (id {})", id.tile(rules.red_fives()), id.get())
}

impl Table {
    /// A table at the start of a round, with the dealt hands checked for repeated ids.
    pub fn new(rules: Rules, start: &RoundStart) -> Result<Table, TableError> {
        let mut t = Table {
            rules,
            start: start.clone(),
            scores: start.scores,
            sticks: start.sticks,
            hands: start.hands.clone(),
            melds: Default::default(),
            rivers: Default::default(),
            riichi: [RiichiState::None; 4],
            ippatsu: [false; 4],
            dora_indicators: vec![start.dora_indicator],
            wall_left: rules.live_wall(),
            draws: [0; 4],
            last_draw: [None; 4],
            last_discard: None,
            last_kakan: None,
            last_kita: None,
            kita: Default::default(),
            ippatsu_before_call: [false; 4],
            rinshan: [false; 4],
            discards: Vec::new(),
            any_call: false,
            kans: 0,
            kuikae: [0; 4],
            hidden: [false; 4],
            seen: [false; 136],
            expect: Expect::Draw(start.dealer),
        };
        t.see(start.dora_indicator)?;
        for who in 0..MAX_SEATS as u8 {
            let n = start.hands[who as usize].len();
            let want = if who < rules.players { 13 } else { 0 };
            if n != want {
                return Err(TableError::BadDeal { who, count: n, want });
            }
            for &id in &start.hands[who as usize] {
                t.see(id)?;
            }
        }
        Ok(t)
    }

    fn see(&mut self, id: TileId) -> Result<(), TableError> {
        if !self.rules.has_kind(id.kind()) {
            return Err(TableError::NotInSet { tile: tile_name(id, &self.rules) });
        }
        let slot = &mut self.seen[id.get() as usize];
        if *slot {
            return Err(TableError::DuplicateTile(id.get()));
        }
        *slot = true;
        Ok(())
    }

    /// Whether a tile id is on the table (dealt, drawn or shown as an indicator).
    pub fn is_seen(&self, id: TileId) -> bool {
        self.seen[id.get() as usize]
    }

    /// Replaces the stand-in `out` in hidden seat `who`'s hand by the unseen tile `into`
    /// (`out` goes back to the unseen tiles). A hidden hand holds stand-ins, so when the stream
    /// shows one of its tiles, or a tile the stand-ins happen to use, the table swaps them and
    /// stays consistent with everything shown. `false` (and no change) when `who` is not
    /// hidden, `out` is not in that hand or `into` is already on the table.
    pub fn swap_hidden(&mut self, who: u8, out: TileId, into: TileId) -> bool {
        let w = who as usize;
        let Some(i) = self.hands[w].iter().position(|&x| x == out) else { return false };
        if !self.hidden[w] || self.is_seen(into) {
            return false;
        }
        self.hands[w][i] = into;
        self.seen[out.get() as usize] = false;
        self.seen[into.get() as usize] = true;
        if self.last_draw[w] == Some(out) {
            self.last_draw[w] = Some(into);
        }
        true
    }

    fn tile(&self, id: TileId) -> Tile {
        id.tile(self.rules.red_fives())
    }

    /// Concealed tiles of a seat as tiles (red fives kept).
    pub fn hand_tiles(&self, who: u8) -> Vec<Tile> {
        self.hands[who as usize].iter().map(|&id| self.tile(id)).collect()
    }

    /// Concealed counts of a seat.
    pub fn hand_counts(&self, who: u8) -> Counts {
        let mut c = [0u8; KINDS];
        for id in &self.hands[who as usize] {
            c[id.kind()] += 1;
        }
        c
    }

    /// A seat's melds as [`Meld`]s.
    pub fn hand_melds(&self, who: u8) -> Vec<Meld> {
        self.melds[who as usize].iter().map(|c| call_to_meld(c, self.rules.red_fives())).collect()
    }

    /// The seat's hand is closed (no open meld).
    pub fn is_closed(&self, who: u8) -> bool {
        self.melds[who as usize].iter().all(|c| c.kind == MeldKind::Ankan)
    }

    /// Seat wind kind of a seat (27 = East for the dealer, then South, West, North around the
    /// table's seats).
    pub fn seat_wind(&self, who: u8) -> usize {
        crate::log::rules::seat_wind(self.rules.players, who, self.start.dealer)
    }

    /// Round wind kind.
    pub fn round_wind(&self) -> usize {
        27 + (self.start.round / 4) as usize % 4
    }

    /// Tiles every seat can see: all rivers (including called tiles, which sit in melds), all
    /// melds, the norths set aside and the dora indicators. Counts by kind.
    pub fn public_counts(&self) -> Counts {
        let mut c = [0u8; KINDS];
        for p in self.rules.seats().map(usize::from) {
            for r in &self.rivers[p] {
                if !r.called {
                    c[r.tile.kind()] += 1;
                }
            }
            for m in &self.melds[p] {
                for id in &m.tiles {
                    c[id.kind()] += 1;
                }
            }
            for id in &self.kita[p] {
                c[id.kind()] += 1;
            }
        }
        for d in &self.dora_indicators {
            c[d.kind()] += 1;
        }
        c
    }

    /// Whether it is still the uninterrupted first go-around for `who` (no call yet, no discard by them).
    pub fn first_turn(&self, who: u8) -> bool {
        !self.any_call && self.rivers[who as usize].is_empty()
    }

    fn expect_turn(&self, want: Expect, action: &'static str) -> Result<(), TableError> {
        if self.expect != want {
            let who = match want {
                Expect::Draw(w) | Expect::Discard(w) => w,
            };
            return Err(TableError::OutOfTurn { who, action, expected: format!("{:?}", self.expect) });
        }
        Ok(())
    }

    fn take_from_hand(&mut self, who: u8, id: TileId) -> bool {
        let hand = &mut self.hands[who as usize];
        match hand.iter().position(|&x| x == id) {
            Some(i) => {
                hand.swap_remove(i);
                true
            }
            None => false,
        }
    }

    /// Applies one event. Wins and draws end the round; the caller handles them (they do not
    /// change the table beyond what [`Table::settle`] does).
    pub fn apply(&mut self, event: &Event) -> Result<(), TableError> {
        match *event {
            Event::Draw { who, tile } => {
                self.expect_turn(Expect::Draw(who), "draws")?;
                if self.wall_left == 0 {
                    return Err(TableError::WallEmpty { who });
                }
                self.see(tile)?;
                self.wall_left -= 1;
                self.draws[who as usize] += 1;
                self.hands[who as usize].push(tile);
                self.last_draw = [None; 4];
                self.last_draw[who as usize] = Some(tile);
                self.last_discard = None;
                self.last_kakan = None;
                self.last_kita = None;
                self.expect = Expect::Discard(who);
            }
            Event::Discard { who, tile } => {
                self.expect_turn(Expect::Discard(who), "discards")?;
                let in_riichi = matches!(self.riichi[who as usize], RiichiState::Accepted { .. });
                let drawn = self.last_draw[who as usize];
                if in_riichi && drawn != Some(tile) {
                    return Err(TableError::RiichiChangedHand { who, tile: tile_name(tile, &self.rules) });
                }
                if !self.take_from_hand(who, tile) {
                    return Err(TableError::NotInHand { who, tile: tile_name(tile, &self.rules) });
                }
                let declaring = self.riichi[who as usize] == RiichiState::Declared;
                self.rivers[who as usize].push(RiverTile {
                    tile,
                    tsumogiri: drawn == Some(tile),
                    called: false,
                    riichi: declaring,
                });
                // A player's own discard ends their ippatsu chance (unless this is the riichi tile).
                if !declaring {
                    self.ippatsu[who as usize] = false;
                }
                self.last_draw = [None; 4];
                self.rinshan = [false; 4];
                self.last_discard = Some((who, tile));
                self.discards.push((who, tile));
                self.kuikae[who as usize] = 0;
                self.last_kakan = None;
                self.last_kita = None;
                self.expect = Expect::Draw((who + 1) % self.rules.players);
            }
            Event::Call { who, ref call } => {
                self.apply_call(who, call)?;
                self.kuikae[who as usize] = super::kuikae::kuikae_mask(call);
            }
            Event::Riichi { who, step, scores } => self.apply_riichi(who, step, scores)?,
            Event::Kita { who, tile } => self.apply_kita(who, tile)?,
            Event::NewDora { indicator } => {
                self.see(indicator)?;
                self.dora_indicators.push(indicator);
            }
            Event::Agari(_) | Event::Ryuukyoku(_) | Event::Disconnect { .. } | Event::Reconnect { .. } => {}
        }
        Ok(())
    }

    fn apply_riichi(&mut self, who: u8, step: u8, scores: Option<[i32; 4]>) -> Result<(), TableError> {
        let bad = |reason: &str| TableError::BadRiichi { who, reason: reason.to_string() };
        match step {
            1 => {
                self.expect_turn(Expect::Discard(who), "declares riichi")?;
                if self.riichi[who as usize] != RiichiState::None {
                    return Err(bad("already in riichi"));
                }
                if !self.is_closed(who) {
                    return Err(bad("the hand is open"));
                }
                if self.scores[who as usize] < 1000 {
                    return Err(bad("fewer than 1000 points"));
                }
                let counts = self.hand_counts(who);
                if !self.hidden[who as usize] && crate::hand::shanten::min_shanten(&counts) > 0 {
                    return Err(bad("the hand is not tenpai"));
                }
                self.riichi[who as usize] = RiichiState::Declared;
            }
            2 => {
                if self.riichi[who as usize] != RiichiState::Declared {
                    return Err(bad("accepted without a declaration"));
                }
                let river_index = self.rivers[who as usize]
                    .len()
                    .checked_sub(1)
                    .ok_or_else(|| bad("accepted before the declaration tile was discarded"))?;
                let double = river_index == 0 && !self.any_call;
                self.riichi[who as usize] = RiichiState::Accepted { river_index, double };
                self.ippatsu[who as usize] = true;
                self.scores[who as usize] -= 1000;
                self.sticks = self.sticks.checked_add(1).ok_or_else(|| bad("more than 255 riichi sticks"))?;
                if let Some(s) = scores {
                    if s != self.scores {
                        return Err(bad(&format!(
                            "scores after the stick {s:?}, replay has {:?}",
                            self.scores
                        )));
                    }
                }
            }
            _ => return Err(bad(&format!("unknown step {step}"))),
        }
        Ok(())
    }

    /// A north set aside: the seat's own turn, a north from its hand, a tile left to replace it,
    /// and then the replacement draw. It cancels every ippatsu, except for a seat that robs it
    /// (as a kan robbed by chankan never happened), and makes the next draw a rinshan. It is not
    /// a call (the hand stays closed), but like one it ends the first go-around (`any_call`):
    /// Tenhou then scores 立直, not 両立直 (docs/sanma.md).
    fn apply_kita(&mut self, who: u8, tile: TileId) -> Result<(), TableError> {
        let bad = |reason: &str| TableError::BadKita { who, reason: reason.to_string() };
        self.expect_turn(Expect::Discard(who), "sets a north aside")?;
        if !self.rules.nukidora {
            return Err(bad("these rules set no north aside (three players only)"));
        }
        if tile.kind() != crate::tile::NORTH {
            return Err(bad(&format!("{} is not a north", tile_name(tile, &self.rules))));
        }
        if self.wall_left == 0 {
            return Err(bad("no tile is left to replace it"));
        }
        if !self.take_from_hand(who, tile) {
            return Err(bad(&format!("{} is not in the hand", tile_name(tile, &self.rules))));
        }
        self.kita[who as usize].push(tile);
        self.last_kita = Some((who, tile));
        self.any_call = true;
        self.rinshan[who as usize] = true;
        self.ippatsu_before_call = self.ippatsu;
        self.ippatsu = [false; 4];
        self.last_draw = [None; 4];
        self.expect = Expect::Draw(who);
        Ok(())
    }

    fn apply_call(&mut self, who: u8, call: &Call) -> Result<(), TableError> {
        let bad = |reason: String| TableError::BadCall { who, reason };
        let want_len = if call.kind.is_kan() { 4 } else { 3 };
        if call.tiles.len() != want_len {
            return Err(bad(format!("{:?} with {} tiles", call.kind, call.tiles.len())));
        }
        let kinds: Vec<usize> = call.tiles.iter().map(|t| t.kind()).collect();
        let same = kinds.iter().all(|&k| k == kinds[0]);
        let mut sorted = kinds.clone();
        sorted.sort_unstable();
        let run =
            sorted[0] < 27 && sorted[0] % 9 <= 6 && sorted[1] == sorted[0] + 1 && sorted[2] == sorted[0] + 2;
        match call.kind {
            MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan => {
                let Some((from_seat, discard)) = self.last_discard else {
                    return Err(bad("no discard to call".into()));
                };
                if from_seat == who {
                    return Err(bad("calls their own discard".into()));
                }
                let rel = (from_seat + 4 - who) % 4;
                if call.from != rel {
                    return Err(bad(format!(
                        "recorded from relative seat {}, discard was by seat {from_seat}",
                        call.from
                    )));
                }
                if call.called != Some(discard) {
                    return Err(bad("the called tile is not the last discard".into()));
                }
                if call.kind == MeldKind::Chi && self.rules.players == 3 {
                    return Err(bad("no chi at three players".into()));
                }
                if call.kind == MeldKind::Chi && (rel != 3 || !run) {
                    return Err(bad("chi must be a run taken from the previous player".into()));
                }
                if call.kind != MeldKind::Chi && !same {
                    return Err(bad("pon/kan tiles differ".into()));
                }
                if matches!(self.riichi[who as usize], RiichiState::Accepted { .. }) {
                    return Err(bad("caller is in riichi".into()));
                }
                for &id in call.tiles.iter().filter(|&&id| id != discard) {
                    if !self.take_from_hand(who, id) {
                        return Err(bad(format!("tile {} not in hand", tile_name(id, &self.rules))));
                    }
                }
                if let Some(r) = self.rivers[from_seat as usize].last_mut() {
                    r.called = true;
                }
                self.last_discard = None;
                self.expect =
                    if call.kind == MeldKind::Daiminkan { Expect::Draw(who) } else { Expect::Discard(who) };
                if call.kind == MeldKind::Daiminkan {
                    self.kans += 1;
                    self.rinshan[who as usize] = true;
                }
                self.melds[who as usize].push(call.clone());
            }
            MeldKind::Ankan => {
                self.expect_turn(Expect::Discard(who), "declares a closed kan")?;
                if !same {
                    return Err(bad("closed kan tiles differ".into()));
                }
                for &id in &call.tiles {
                    if !self.take_from_hand(who, id) {
                        return Err(bad(format!("tile {} not in hand", tile_name(id, &self.rules))));
                    }
                }
                self.kans += 1;
                self.rinshan[who as usize] = true;
                self.expect = Expect::Draw(who);
                self.melds[who as usize].push(call.clone());
            }
            MeldKind::Kakan => {
                self.expect_turn(Expect::Discard(who), "declares an added kan")?;
                let Some(added) = call.added else {
                    return Err(bad("added kan without the added tile".into()));
                };
                if !same {
                    return Err(bad("added kan tiles differ".into()));
                }
                let kind = kinds[0];
                let Some(i) = self.melds[who as usize]
                    .iter()
                    .position(|m| m.kind == MeldKind::Pon && m.tiles[0].kind() == kind)
                else {
                    return Err(bad("no pon to add to".into()));
                };
                if !self.take_from_hand(who, added) {
                    return Err(bad(format!("tile {} not in hand", tile_name(added, &self.rules))));
                }
                self.melds[who as usize][i] = call.clone();
                self.kans += 1;
                self.rinshan[who as usize] = true;
                self.last_kakan = Some((who, added));
                self.expect = Expect::Draw(who);
            }
        }
        self.any_call = true;
        self.ippatsu_before_call = self.ippatsu;
        self.ippatsu = [false; 4];
        self.last_draw = [None; 4];
        Ok(())
    }

    /// Applies a round result's score changes.
    pub fn settle(&mut self, deltas: &[i32; 4], sticks_taken: bool) {
        for (s, d) in self.scores.iter_mut().zip(deltas) {
            *s = s.saturating_add(*d);
        }
        if sticks_taken {
            self.sticks = 0;
        }
    }
}

/// A recorded call as a hand [`Meld`].
pub fn call_to_meld(call: &Call, red_fives: bool) -> Meld {
    let tiles: Vec<Tile> = call.tiles.iter().map(|id| id.tile(red_fives)).collect();
    Meld::new(call.kind, &tiles, call.called.map(|c| c.tile(red_fives)), call.from)
}
