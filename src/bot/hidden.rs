//! A seat's table from an mjai stream that hides the other hands.
//!
//! The replay's [`Table`] proves every move by tile ids and needs four hands. A bot's stream
//! shows its own tiles and everything public, but the other seats' hands and draws are `?`. So
//! the table deals those seats stand-ins (unseen ids) and marks them hidden; when the stream
//! shows one of their tiles (a discard, a call, a kan), or a tile a stand-in happens to occupy
//! (the bot's own draw, a dora indicator), the stand-ins are swapped ([`Table::swap_hidden`]) so
//! that the table agrees with everything shown. The bot then decides from the table through the
//! same code as self-play ([`crate::sim::bots`]), which reads only its own hand and the public
//! state, so stand-ins never reach a decision.
//!
//! At a three-player table ([`Rules::players`] 3) only seats 0-2 are dealt, and every stand-in
//! comes from the 108-tile set ([`Rules::has_kind`]): a stand-in 2m-8m would make the table
//! refuse the round, and one missing from the set's count would let the wall run short.

use crate::log::event::{Call, Event, RoundStart, Rules};
use crate::log::mjai::error::MjaiError;
use crate::log::mjai::tiles::{ids_of, parse_tile, Ids};
use crate::replay::table::{Table, TableError};
use crate::tile::TileId;

/// What can go wrong while following the stream.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HiddenError {
    #[error(transparent)]
    Tile(#[from] MjaiError),
    #[error(transparent)]
    Table(#[from] TableError),
    #[error("no {0} left: all four copies are already on the table")]
    NoCopyLeft(String),
    #[error("seat {seat} has no {tile} in hand")]
    NotInHand { seat: u8, tile: String },
    #[error("the bot's own hand shows a hidden tile \"?\"")]
    OwnTileHidden,
}

/// An id showing the tile `name` (for an answer that only needs the name).
pub fn name_id(name: &str, red_fives: bool) -> Option<TileId> {
    ids_of(name, red_fives).ok()?.first().copied()
}

/// The ids of the rules' tile set, from the top down.
fn in_set(rules: &Rules) -> impl Iterator<Item = TileId> + '_ {
    (0..136u32).rev().map(|i| TileId::new(i).expect("< 136")).filter(|id| rules.has_kind(id.kind()))
}

/// The table of one round as seat `seat` follows it.
#[derive(Clone, Debug)]
pub struct HiddenTable {
    pub table: Table,
    pub seat: u8,
}

impl HiddenTable {
    /// Deals the round: the seat's 13 named tiles, 13 stand-ins to every other seated player.
    pub fn deal(
        rules: Rules,
        mut start: RoundStart,
        seat: u8,
        own: &[String],
        dora_marker: &str,
    ) -> Result<HiddenTable, HiddenError> {
        // The seat's tiles and the indicator get ids as the mjai reader gives them.
        let mut ids = Ids::new(rules.red_fives());
        let mut take = |name: &str| -> Result<TileId, HiddenError> {
            if name == "?" {
                return Err(HiddenError::OwnTileHidden);
            }
            Ok(ids.take(name)?)
        };
        start.dora_indicator = take(dora_marker)?;
        let hand = own.iter().map(|n| take(n)).collect::<Result<Vec<_>, _>>()?;
        let used = |id: &TileId| *id == start.dora_indicator || hand.contains(id);
        // Stand-ins from the top ids down: the seat's own tiles and early indicators, named
        // from the bottom of each kind, then rarely need a swap.
        let free: Vec<TileId> = in_set(&rules).filter(|id| !used(id)).collect();
        let mut free = free.into_iter();
        for s in 0..4u8 {
            start.hands[s as usize] = match s {
                s if s == seat => hand.clone(),
                s if s < rules.players => free.by_ref().take(13).collect(),
                _ => Vec::new(),
            };
        }
        let mut table = Table::new(rules, &start)?;
        for s in rules.seats() {
            table.hidden[s as usize] = s != seat;
        }
        Ok(HiddenTable { table, seat })
    }

    fn any_unseen(&self) -> Option<TileId> {
        in_set(&self.table.rules).find(|&id| !self.table.is_seen(id))
    }

    /// A stand-in for a hidden draw.
    pub fn stand_in(&self) -> Result<TileId, HiddenError> {
        self.any_unseen().ok_or_else(|| HiddenError::NoCopyLeft("?".into()))
    }

    /// An unseen id for a tile the wall shows (the seat's own draw, a dora indicator): a stand-in
    /// that holds the only free copy gives it up first.
    pub fn from_wall(&mut self, name: &str) -> Result<TileId, HiddenError> {
        let cands = ids_of(name, self.table.rules.red_fives())?;
        if let Some(&id) = cands.iter().find(|&&id| !self.table.is_seen(id)) {
            return Ok(id);
        }
        for &c in &cands {
            if let Some(holder) = self.hidden_holder(c) {
                let spare = self.any_unseen().ok_or_else(|| HiddenError::NoCopyLeft(name.into()))?;
                if self.table.swap_hidden(holder, c, spare) {
                    return Ok(c);
                }
            }
        }
        Err(HiddenError::NoCopyLeft(name.to_string()))
    }

    fn hidden_holder(&self, id: TileId) -> Option<u8> {
        self.table
            .rules
            .seats()
            .find(|&s| self.table.hidden[s as usize] && self.table.hands[s as usize].contains(&id))
    }

    /// The id of a tile seat `who` shows from its hand (a discard, a call's consumed tile, a
    /// kan). `drawn`: the tile it just drew (a tsumogiri), else a tile other than the drawn one
    /// where the hand allows. A hidden hand is made to hold it.
    pub fn from_hand(&mut self, who: u8, name: &str, drawn: bool) -> Result<TileId, HiddenError> {
        self.shown_from_hand(who, name, drawn, &[])
    }

    /// The ids of several tiles seat `who` shows at once (a call's consumed tiles, a kan).
    pub fn many_from_hand(&mut self, who: u8, names: &[String]) -> Result<Vec<TileId>, HiddenError> {
        let mut ids = Vec::with_capacity(names.len());
        for n in names {
            let id = self.shown_from_hand(who, n, false, &ids)?;
            ids.push(id);
        }
        Ok(ids)
    }

    fn shown_from_hand(
        &mut self,
        who: u8,
        name: &str,
        drawn: bool,
        taken: &[TileId],
    ) -> Result<TileId, HiddenError> {
        let w = who as usize;
        let cands = ids_of(name, self.table.rules.red_fives())?;
        let last = self.table.last_draw[w];
        if drawn {
            if let Some(d) = last.filter(|d| cands.contains(d)) {
                return Ok(d);
            }
        }
        let held: Vec<TileId> =
            self.table.hands[w].iter().copied().filter(|x| cands.contains(x) && !taken.contains(x)).collect();
        let other_than_drawn = held.iter().copied().find(|&x| Some(x) != last);
        let missing = || HiddenError::NotInHand { seat: who, tile: name.to_string() };
        if !self.table.hidden[w] {
            return other_than_drawn.or(held.first().copied()).ok_or_else(missing);
        }
        let id = if drawn {
            // Which stand-in was drawn is unknown; the shown tile was.
            let id = match held.first() {
                Some(&id) => id,
                None => self.bring_into(who, &cands, None, taken).ok_or_else(missing)?,
            };
            self.table.last_draw[w] = Some(id);
            id
        } else {
            let id = match other_than_drawn {
                Some(id) => id,
                None => {
                    self.bring_into(who, &cands, last, taken).or(held.first().copied()).ok_or_else(missing)?
                }
            };
            // The drawn stand-in is the only copy the hand can show, yet the tile is not the one
            // drawn: which stand-in was drawn is unknown, so another one was. Else the river
            // would read this hand-cut as a tsumogiri (the river reading and danger columns read
            // the flag).
            if last == Some(id) {
                let other = self.table.hands[w].iter().copied().find(|&x| x != id && !taken.contains(&x));
                self.table.last_draw[w] = other.or(last);
            }
            id
        };
        Ok(id)
    }

    /// Puts one of `cands` into hidden seat `who`'s hand in place of a stand-in other than
    /// `keep`: from the unseen tiles, else from another hidden hand.
    fn bring_into(
        &mut self,
        who: u8,
        cands: &[TileId],
        keep: Option<TileId>,
        taken: &[TileId],
    ) -> Option<TileId> {
        let w = who as usize;
        let free = |x: &TileId| !taken.contains(x);
        let hand = &self.table.hands[w];
        let out = hand
            .iter()
            .copied()
            .filter(free)
            .find(|&x| Some(x) != keep)
            .or(hand.iter().copied().find(free))?;
        if let Some(&c) = cands.iter().find(|&&c| !self.table.is_seen(c)) {
            return self.table.swap_hidden(who, out, c).then_some(c);
        }
        for &c in cands {
            let Some(other) = self.hidden_holder(c).filter(|&o| o != who) else { continue };
            let o = other as usize;
            let i = self.table.hands[w].iter().position(|&x| x == out)?;
            let j = self.table.hands[o].iter().position(|&x| x == c)?;
            self.table.hands[w][i] = c;
            self.table.hands[o][j] = out;
            if self.table.last_draw[o] == Some(c) {
                self.table.last_draw[o] = Some(out);
            }
            return Some(c);
        }
        None
    }

    /// The pon seat `who` adds `name` to, as the added kan it becomes.
    pub fn kakan(&mut self, who: u8, name: &str) -> Result<Call, HiddenError> {
        let (kind, _) = parse_tile(name)?;
        let pon = self.table.melds[who as usize]
            .iter()
            .find(|m| m.kind == crate::hand::meld::MeldKind::Pon && m.tiles[0].kind() == kind)
            .cloned()
            .ok_or_else(|| MjaiError::NoPon { seat: who, tile: name.to_string() })?;
        let added = self.from_hand(who, name, false)?;
        let mut tiles = pon.tiles.clone();
        tiles.push(added);
        Ok(Call {
            kind: crate::hand::meld::MeldKind::Kakan,
            tiles,
            called: pon.called,
            from: pon.from,
            added: Some(added),
        })
    }

    pub fn apply(&mut self, event: &Event) -> Result<(), HiddenError> {
        Ok(self.table.apply(event)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hidden seat's draw is a stand-in; when the seat then cuts from its hand the one kind
    /// the drawn stand-in happens to be, and every other copy of that kind is in sight, the table
    /// can only show the stand-in itself. The river must still read a hand-cut, as the stream
    /// says (the river reading and danger columns read the flag).
    #[test]
    fn a_hand_cut_of_the_drawn_stand_ins_kind_stays_a_hand_cut() {
        let rules = Rules::tenhou(4, true, false);
        let start = RoundStart {
            round: 0,
            honba: 0,
            sticks: 0,
            dice: [1, 1],
            dora_indicator: TileId::new(0).unwrap(),
            scores: [25000; 4],
            dealer: 1,
            hands: Default::default(),
        };
        // Three 6s in sight (our hand, named from the bottom: ids 92-94) and one chun above the
        // fourth (id 95): the 39 stand-ins dealt from the top down end just above id 95, so the
        // next stand-in drawn is the last 6s.
        let own: Vec<String> = ["6s", "6s", "6s", "C", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"]
            .map(String::from)
            .to_vec();
        let mut t = HiddenTable::deal(rules, start.clone(), 0, &own, "1p").unwrap();
        let drawn = t.stand_in().unwrap();
        assert_eq!(drawn.kind(), 23, "the drawn stand-in is the last 6s ({drawn:?})");
        t.apply(&Event::Draw { who: 1, tile: drawn }).unwrap();
        let cut = t.from_hand(1, "6s", false).unwrap();
        assert_eq!(cut, drawn, "the only 6s seat 1 can show is the drawn stand-in");
        t.apply(&Event::Discard { who: 1, tile: cut }).unwrap();
        let river = t.table.rivers[1].last().unwrap();
        assert_eq!(river.tile, cut);
        assert!(!river.tsumogiri, "the stream said hand-cut; the river says tsumogiri");

        // The same draw cut as a tsumogiri stays one.
        let mut t = HiddenTable::deal(rules, start, 0, &own, "1p").unwrap();
        let drawn = t.stand_in().unwrap();
        t.apply(&Event::Draw { who: 1, tile: drawn }).unwrap();
        let cut = t.from_hand(1, "6s", true).unwrap();
        t.apply(&Event::Discard { who: 1, tile: cut }).unwrap();
        assert!(t.table.rivers[1].last().unwrap().tsumogiri);
    }
}
