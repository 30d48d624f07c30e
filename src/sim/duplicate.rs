//! The duplicate format: each wall set is played once per seat (four times, three at a
//! three-player table) with the bots rotated through the seats, so every bot meets the same walls
//! from every seat and the luck of the deal cancels out of the comparison.
//!
//! A "wall set" is the sequence of walls of one game: round `i` of a game (its i-th INIT,
//! whatever its wind and honba) uses wall `mix(set seed, i)`. Games of one set diverge once the
//! players act differently, but they draw from the same sequence of walls.

use super::wall::mix;

/// Who sits where in one game and which walls it plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seating {
    /// `bots[seat]` = index into the bot list.
    pub bots: [usize; 4],
    /// Seed of the game's wall set.
    pub wall_seed: u64,
    /// Wall set number (equal for the four games of a duplicate set).
    pub set: usize,
}

/// The seating of game `index` at a table of `players` seats. With `duplicate`, games
/// nk..nk+n-1 (n = players) share wall set k and game nk+r seats bot `(seat + r) % n` at each
/// seat; without it, every game has its own walls and the bots sit in list order.
pub fn seating(seed: u64, index: usize, duplicate: bool, players: u8) -> Seating {
    let n = usize::from(players);
    if duplicate {
        let (set, r) = (index / n, index % n);
        Seating { bots: std::array::from_fn(|s| (s + r) % n), wall_seed: mix(&[seed, set as u64]), set }
    } else {
        Seating { bots: [0, 1, 2, 3], wall_seed: mix(&[seed, index as u64]), set: index }
    }
}

/// Games to play for `requested`: a whole number of duplicate sets when `duplicate`.
pub fn game_count(requested: usize, duplicate: bool, players: u8) -> usize {
    let n = usize::from(players);
    if duplicate {
        requested.div_ceil(n) * n
    } else {
        requested
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bot_sits_at_each_seat_once_per_set() {
        for set in 0..3 {
            let games: Vec<Seating> = (0..4).map(|r| seating(9, set * 4 + r, true, 4)).collect();
            assert!(games.iter().all(|g| g.wall_seed == games[0].wall_seed && g.set == set));
            for seat in 0..4 {
                let mut at: Vec<usize> = games.iter().map(|g| g.bots[seat]).collect();
                at.sort_unstable();
                assert_eq!(at, [0, 1, 2, 3]);
            }
        }
        assert_ne!(seating(9, 0, true, 4).wall_seed, seating(9, 4, true, 4).wall_seed);
        assert_ne!(seating(9, 0, false, 4).wall_seed, seating(9, 1, false, 4).wall_seed);
        assert_eq!(game_count(5, true, 4), 8);
        assert_eq!(game_count(5, false, 4), 5);
        // Three players: sets of three games, each bot once at each of the three seats.
        assert_eq!(game_count(5, true, 3), 6);
        let three: Vec<Seating> = (0..3).map(|r| seating(9, 3 + r, true, 3)).collect();
        for seat in 0..3 {
            let mut at: Vec<usize> = three.iter().map(|g| g.bots[seat]).collect();
            at.sort_unstable();
            assert_eq!(at, [0, 1, 2]);
        }
        assert!(three.iter().all(|g| g.set == 1 && g.wall_seed == three[0].wall_seed));
    }
}
