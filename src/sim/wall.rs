//! A deterministic wall from a seed: the 136 tiles (108 at three players) shuffled, the deal,
//! the live wall, the dead wall's replacement tiles and its dora / ura indicators.
//!
//! Our own small PRNG (xoshiro256** seeded through splitmix64) keeps the walls identical across
//! platforms and crate versions, which the duplicate format depends on: the same seed must give
//! the same walls in every rotation and in every future build.

use crate::log::event::Rules;
use crate::tile::TileId;

/// splitmix64: turns any seed (even 0 or consecutive ones) into well-mixed 64-bit values.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Mixes several numbers into one seed (seed, wall-set index, round index ...).
pub fn mix(parts: &[u64]) -> u64 {
    let mut s = 0x5EED_u64;
    for &p in parts {
        s ^= p;
        s = splitmix64(&mut s);
    }
    s
}

/// xoshiro256**: fast, good statistical quality, four words of state.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut sm = seed;
        Rng { s: [splitmix64(&mut sm), splitmix64(&mut sm), splitmix64(&mut sm), splitmix64(&mut sm)] }
    }

    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in `0..n` (n > 0), by Lemire's multiply-and-reject, so no modulo bias.
    pub fn below(&mut self, n: u64) -> u64 {
        loop {
            let m = (self.next_u64() as u128) * (n as u128);
            let low = m as u64;
            if low >= n.wrapping_neg() % n {
                return (m >> 64) as u64;
            }
        }
    }

    /// A uniform value in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Tiles in the dead wall.
pub const DEAD_WALL: usize = 14;

/// One round's wall. `tiles[..len - 14]` is the live part in draw order (the deal takes the
/// first 13 a seat), `tiles[len - 14..]` the dead wall: four replacement tiles, then the five
/// dora indicators each followed by its ura indicator. At three players up to eight replacement
/// draws (four kans, four norths set aside) can be made: past the dead wall's four they come off
/// the live wall's far end, which the table's count of live draws already left unused (every
/// replacement draw shortens the live wall, docs/sanma.md).
#[derive(Clone, Debug)]
pub struct Wall {
    tiles: Vec<TileId>,
    /// Next live tile to draw.
    next: usize,
    /// Replacement tiles drawn so far (one per kan).
    rinshan: usize,
    /// Dora indicators revealed so far (1 at the start).
    revealed: usize,
    pub dice: [u8; 2],
}

impl Wall {
    /// Shuffles the 136 ids with Fisher-Yates from `seed`; the dice come from the same stream.
    pub fn new(seed: u64) -> Wall {
        Wall::of_set(seed, |_| true)
    }

    /// [`Wall::new`] over the tiles the `rules` play with ([`Rules::has_kind`]): the 108 of the
    /// three-player set (2m-8m out) at three.
    pub fn for_rules(seed: u64, rules: &Rules) -> Wall {
        Wall::of_set(seed, |id| rules.has_kind(id.kind()))
    }

    /// The ids `keep` keeps, shuffled with Fisher-Yates from `seed`; the dice from the same stream.
    fn of_set(seed: u64, keep: impl Fn(TileId) -> bool) -> Wall {
        let mut rng = Rng::new(seed);
        let mut tiles: Vec<TileId> =
            (0..136).map(|i| TileId::new(i).expect("id < 136")).filter(|&id| keep(id)).collect();
        for i in (1..tiles.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            tiles.swap(i, j);
        }
        let dice = [rng.below(6) as u8, rng.below(6) as u8];
        Wall { tiles, next: 0, rinshan: 0, revealed: 1, dice }
    }

    /// A wall in a given order (the paired experiments of `sim::seed_pairs` arrange their own).
    pub fn from_tiles(tiles: [TileId; 136], dice: [u8; 2]) -> Wall {
        Wall { tiles: tiles.to_vec(), next: 0, rinshan: 0, revealed: 1, dice }
    }

    /// The ids in wall order.
    pub fn tiles(&self) -> &[TileId] {
        &self.tiles
    }

    /// Deals 13 tiles to each of `players` seats in Tenhou's order (4, 4, 4, then 1 each),
    /// starting with the dealer.
    pub fn deal(&mut self, dealer: u8, players: u8) -> [Vec<TileId>; 4] {
        let mut hands: [Vec<TileId>; 4] = Default::default();
        for round in 0..4 {
            let take = if round < 3 { 4 } else { 1 };
            for k in 0..players {
                let seat = ((dealer + k) % players) as usize;
                for _ in 0..take {
                    hands[seat].push(self.tiles[self.next]);
                    self.next += 1;
                }
            }
        }
        hands
    }

    /// The next live tile. The caller keeps the draw count within the live wall (the replay
    /// table's `wall_left` says when it is empty); `None` past the end is a caller bug.
    pub fn draw(&mut self) -> Option<TileId> {
        let t = self.tiles.get(self.next).copied().filter(|_| self.next < self.tiles.len() - DEAD_WALL);
        self.next += 1;
        t
    }

    /// The next replacement tile after a kan or a north set aside: the dead wall's four, then
    /// (three players) four more off the live wall's far end.
    pub fn draw_rinshan(&mut self) -> Option<TileId> {
        let live_end = self.tiles.len() - DEAD_WALL;
        let t = match self.rinshan {
            r @ 0..4 => self.tiles[live_end + r],
            r @ 4..8 if self.tiles.len() == 108 => self.tiles[live_end - 1 - (r - 4)],
            _ => return None,
        };
        self.rinshan += 1;
        Some(t)
    }

    fn indicator(&self, i: usize, ura: bool) -> TileId {
        self.tiles[self.tiles.len() - DEAD_WALL + 4 + 2 * i + usize::from(ura)]
    }

    /// The first dora indicator.
    pub fn first_indicator(&self) -> TileId {
        self.indicator(0, false)
    }

    /// Reveals the next kan dora indicator (at most four).
    pub fn reveal(&mut self) -> Option<TileId> {
        if self.revealed >= 5 {
            return None;
        }
        let t = self.indicator(self.revealed, false);
        self.revealed += 1;
        Some(t)
    }

    /// Ura indicators under the revealed dora indicators.
    pub fn ura(&self) -> Vec<TileId> {
        (0..self.revealed).map(|i| self.indicator(i, true)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wall_holds_every_tile_once_and_repeats_for_a_seed() {
        let w = Wall::new(42);
        let mut ids: Vec<u8> = w.tiles.iter().map(|t| t.get()).collect();
        ids.sort_unstable();
        assert_eq!(ids, (0..136).collect::<Vec<u8>>());
        assert_eq!(Wall::new(42).tiles, w.tiles);
        assert_ne!(Wall::new(43).tiles, w.tiles);
    }

    #[test]
    fn deal_draws_and_dead_wall_do_not_overlap() {
        let mut w = Wall::new(7);
        let hands = w.deal(2, 4);
        let mut seen = std::collections::HashSet::new();
        for h in &hands {
            assert_eq!(h.len(), 13);
            seen.extend(h.iter().map(|t| t.get()));
        }
        let mut live = 0;
        while let Some(t) = w.draw() {
            assert!(seen.insert(t.get()));
            live += 1;
        }
        // 136 - 14 dead - 52 dealt = 70 draws (kans shorten it through the table's count).
        assert_eq!(live, 70);
        seen.insert(w.first_indicator().get());
        for _ in 0..4 {
            assert!(seen.insert(w.draw_rinshan().unwrap().get()));
            assert!(seen.insert(w.reveal().unwrap().get()));
        }
        assert!(w.draw_rinshan().is_none() && w.reveal().is_none());
        for u in w.ura() {
            assert!(seen.insert(u.get()));
        }
        assert_eq!(seen.len(), 136);
    }

    /// Three players: the 108-tile set, 55 live draws, and eight replacement draws that never
    /// meet the live draws the table allows (55 less one per replacement).
    #[test]
    fn the_three_player_wall() {
        let mut w = Wall::for_rules(7, &Rules::tenhou(3, true, true));
        let mut ids: Vec<u8> = w.tiles.iter().map(|t| t.get()).collect();
        ids.sort_unstable();
        assert_eq!(ids.len(), 108);
        assert!(ids.iter().all(|&i| !(4..32).contains(&i)), "no 2m-8m");
        let hands = w.deal(1, 3);
        assert_eq!(hands.each_ref().map(|h| h.len()), [13, 13, 13, 0]);
        let mut seen: std::collections::HashSet<u8> = hands.iter().flatten().map(|t| t.get()).collect();
        let replacements: Vec<u8> = (0..8).map(|_| w.draw_rinshan().unwrap().get()).collect();
        assert!(w.draw_rinshan().is_none());
        for _ in 0..55 - 8 {
            assert!(seen.insert(w.draw().unwrap().get()));
        }
        for r in replacements {
            assert!(seen.insert(r), "a replacement tile was also drawn");
        }
        let four = Rules::tenhou(4, true, true);
        assert_eq!(Wall::for_rules(7, &four).tiles, Wall::new(7).tiles, "four players: the wall as it was");
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut r = Rng::new(1);
        let mut c = [0u32; 6];
        for _ in 0..60_000 {
            c[r.below(6) as usize] += 1;
        }
        assert!(c.iter().all(|&n| (9_400..10_600).contains(&n)), "{c:?}");
    }
}
