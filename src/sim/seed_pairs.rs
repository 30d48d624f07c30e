//! Seed 003's kabe simulation ("3m 3枚切れのときにマンズの14m待ちとソーズの14s待ち") as the smallest
//! paired self-play experiment: the same wait with and without the kabe, everything else equal.
//!
//! For each pair, one random wall is arranged so that the dealer (seat 0) is dealt [`HAND`]
//! (23m 456p 789p 678s 99s: waits exactly 1m and 4m). Then:
//! - **kabe**: the three other 3m are moved to the replacement-tile slots of the dead wall (the
//!   seed bots never kan, so those tiles never come into play: for every opponent 3m is gone);
//! - **no kabe**: the same wall with those three 3m swapped with three 3s, so 3s is gone instead
//!   (a wall elsewhere) and every 3m is in play.
//!
//! The two walls differ only in where three 3m and three 3s sit; all four seats are the seed bot
//! (`boten`). A pair counts when the dealer declares riichi on its first discard waiting on
//! exactly 1m-4m in both walls (the first draw is the same tile in both unless it is one of the
//! swapped ones). The outcome is the dealer's win (ron or tsumo). The bots never read a river,
//! so this measures the kabe's mechanical part only: the opponents cannot hold 23m / 34m / 33m
//! shapes, so their 1m and 4m are less useful to them. Differences from the seed's simulation:
//! the seed's model made opponents read the wall through cut-rate parameters, and its 3m were
//! discarded (visible); here they are out of play, unseen (the bots' ukeire still counts them as
//! drawable, a small second-order difference).
//!
//! The same machinery gives the seed's 序盤外側 and 序盤5切り comparisons ([`run_early`]): one wall
//! played three times, the dealer's first draw (thrown at once with its riichi) a 3m, a 5m or a
//! guest wind, the other two parked in unused replacement slots. 3m against the wind is the early
//! outside tile (1m lies outside the early 3m), 5m against the wind the early 5, 3m against 5m the
//! seed's own swap. The seed compared 3s thrown on turn 1 with 3s thrown on turn 7 (so that the
//! visible tiles match); with a riichi on turn 1 the control is a tile that tells nothing instead.

use rayon::prelude::*;

use super::boten;
use super::bots::Bot;
use super::engine::{play_round_on, GameSpec};
use super::wall::{mix, Wall, DEAD_WALL};
use crate::hand::shanten::necessary_kinds;
use crate::log::event::{Event, Player, Round};
use crate::tile::{parse_mpsz, Kind, TileId};
use crate::util::paired::Paired;

/// The dealer's 13 tiles: 23m + 456p + 789p + 678s + 99s, waiting on 1m and 4m.
pub const HAND: &str = "23m456p789p678s99s";
const M3: Kind = 2;
const S3: Kind = 20;
const WAITS: u64 = 1 << 0 | 1 << 3;

/// Wall positions of the dealer's 13 tiles in the deal order (4, 4, 4, then 1; seat 0 first).
fn dealer_positions() -> Vec<usize> {
    (0..3).flat_map(|r| r * 16..r * 16 + 4).chain([48]).collect()
}

/// Moves a tile of `kind` from a position not yet `fixed` to `slot`, and fixes `slot`.
fn place(t: &mut [TileId; 136], fixed: &mut [bool; 136], slot: usize, kind: Kind) -> Option<()> {
    let j = (0..136).find(|&j| !fixed[j] && t[j].kind() == kind)?;
    t.swap(slot, j);
    fixed[slot] = true;
    Some(())
}

/// The wall shuffled from `seed` with [`HAND`] moved to the dealer's positions: the wall, its
/// tiles after the moves, and the positions fixed so far (the paired walls build on it).
fn dealt(seed: u64) -> Option<(Wall, [TileId; 136], [bool; 136])> {
    let base = Wall::new(seed);
    let mut t: [TileId; 136] = base.tiles().try_into().expect("a four-player wall");
    let mut fixed = [false; 136];
    let kinds: Vec<Kind> = parse_mpsz(HAND).ok()?.iter().map(|x| x.kind()).collect();
    for (pos, &k) in dealer_positions().iter().zip(&kinds) {
        place(&mut t, &mut fixed, *pos, k)?;
    }
    Some((base, t, fixed))
}

/// The (kabe, no kabe) walls of pair `index`.
pub fn walls(seed: u64, index: u64) -> Option<(Wall, Wall)> {
    let (base, mut t, mut fixed) = dealt(mix(&[seed, index, 0x5EED]))?;
    let rinshan = 136 - DEAD_WALL;
    for slot in rinshan..rinshan + 3 {
        place(&mut t, &mut fixed, slot, M3)?;
    }
    let kabe = t;
    for slot in rinshan..rinshan + 3 {
        let j = (0..136).find(|&j| !fixed[j] && t[j].kind() == S3)?;
        t.swap(slot, j);
        fixed[j] = true;
    }
    Some((Wall::from_tiles(kabe, base.dice), Wall::from_tiles(t, base.dice)))
}

/// Whether the dealer declared riichi on its first discard waiting on exactly 1m-4m: then
/// (won, won by its 6th draw).
pub fn dealer_outcome(round: &Round) -> Option<(bool, bool)> {
    let mut hand = [0u8; 34];
    round.start.hands[0].iter().for_each(|t| hand[t.kind()] += 1);
    let mut riichi = false;
    for e in &round.events {
        match e {
            Event::Draw { who: 0, tile } => hand[tile.kind()] += 1,
            Event::Riichi { who: 0, step: 1, .. } => riichi = true,
            Event::Discard { who: 0, tile } => {
                hand[tile.kind()] -= 1;
                let (shanten, waits) = necessary_kinds(&hand);
                if !(riichi && shanten == 0 && waits == WAITS) {
                    return None;
                }
                break;
            }
            Event::Agari(_) => return None,
            _ => {}
        }
    }
    let mut draws = 0;
    for e in &round.events {
        match e {
            Event::Draw { who: 0, .. } => draws += 1,
            Event::Agari(a) if a.who == 0 => return Some((true, draws <= 6)),
            _ => {}
        }
    }
    Some((false, false))
}

/// The three walls of early-tile triple `index`: the dealer holds [`HAND`] and its first draw
/// (wall position 52) is a 3m, a 5m or a 4z (a guest wind for the East dealer in the East
/// round); the other two sit in the first two replacement slots, never drawn by the seed bot.
pub fn early_walls(seed: u64, index: u64) -> Option<[Wall; 3]> {
    let (base, mut t, mut fixed) = dealt(mix(&[seed, index, 0xEA21]))?;
    let slots = [52, 136 - DEAD_WALL, 136 - DEAD_WALL + 1];
    for (slot, kind) in slots.into_iter().zip(EARLY) {
        place(&mut t, &mut fixed, slot, kind)?;
    }
    let arm = |first: usize| {
        let mut w = t;
        w.swap(slots[0], slots[first]);
        Wall::from_tiles(w, base.dice)
    };
    Some([arm(0), arm(1), arm(2)])
}

/// The dealer's first draws of the triples: 3m, 5m, 4z.
const EARLY: [Kind; 3] = [M3, 4, 30];

/// Plays `triples` early-tile triples and adds their comparisons to `out`.
pub fn run_early(seed: u64, triples: u64, out: &mut Paired) {
    let bot = boten::bot();
    let p = |n: &str| Player { name: n.into(), dan: None, rate: None, sex: None };
    let outcomes: Vec<Option<[(bool, bool); 3]>> = (0..triples)
        .into_par_iter()
        .map(|i| {
            let walls = early_walls(seed, i)?;
            let spec = GameSpec {
                id: format!("early-{i}"),
                seed: mix(&[seed, i, 1]),
                hanchan: false,
                seats: 4,
                players: [p("a"), p("b"), p("c"), p("d")],
            };
            let bots: [&dyn Bot; 4] = [&bot, &bot, &bot, &bot];
            let mut r = [(false, false); 3];
            for (slot, wall) in r.iter_mut().zip(walls) {
                *slot = dealer_outcome(&play_round_on(&spec, wall, bots).ok()?)?;
            }
            Some(r)
        })
        .collect();
    out.triples = triples;
    for [three, five, wind] in outcomes.into_iter().flatten() {
        out.outside.0.add(three.0, wind.0);
        out.outside.1.add(three.1, wind.1);
        out.five.0.add(five.0, wind.0);
        out.five.1.add(five.1, wind.1);
        out.swap.0.add(three.0, five.0);
        out.swap.1.add(three.1, five.1);
    }
}

/// Plays `pairs` pairs (in parallel, deterministic for a seed) and counts the outcomes.
pub fn run(seed: u64, pairs: u64) -> Paired {
    let bot = boten::bot();
    let p = |n: &str| Player { name: n.into(), dan: None, rate: None, sex: None };
    type Outcome = ((bool, bool), (bool, bool));
    let outcomes: Vec<Option<Outcome>> = (0..pairs)
        .into_par_iter()
        .map(|i| {
            let (kabe, free) = walls(seed, i)?;
            let spec = GameSpec {
                id: format!("pair-{i}"),
                seed: mix(&[seed, i]),
                hanchan: false,
                seats: 4,
                players: [p("a"), p("b"), p("c"), p("d")],
            };
            let bots: [&dyn Bot; 4] = [&bot, &bot, &bot, &bot];
            let a = dealer_outcome(&play_round_on(&spec, kabe, bots).ok()?)?;
            let b = dealer_outcome(&play_round_on(&spec, free, bots).ok()?)?;
            Some((a, b))
        })
        .collect();
    let mut out = Paired { pairs, ..Paired::default() };
    for (a, b) in outcomes.into_iter().flatten() {
        out.win.add(a.0, b.0);
        out.early.add(a.1, b.1);
    }
    run_early(seed, pairs, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two walls: the dealer holds HAND in both; the kabe wall has 3m in three replacement
    /// slots, the other 3s there, and they differ in exactly six positions (3m <-> 3s).
    #[test]
    fn walls_differ_only_by_the_swapped_threes() {
        let (a, b) = walls(7, 3).expect("arrangeable");
        let (ta, tb) = (a.tiles(), b.tiles());
        let r = 136 - DEAD_WALL;
        assert!((r..r + 3).all(|i| ta[i].kind() == M3 && tb[i].kind() == S3));
        let diff: Vec<usize> = (0..136).filter(|&i| ta[i] != tb[i]).collect();
        assert_eq!(diff.len(), 6, "{diff:?}");
        let mut dealt: Vec<Kind> = dealer_positions().iter().map(|&i| ta[i].kind()).collect();
        dealt.sort_unstable();
        let mut want: Vec<Kind> = parse_mpsz(HAND).unwrap().iter().map(|x| x.kind()).collect();
        want.sort_unstable();
        assert_eq!(dealt, want);
        // Played: a round on each wall deals HAND to the dealer.
        let bot = boten::bot();
        let spec = GameSpec {
            id: "t".into(),
            seed: 1,
            hanchan: false,
            seats: 4,
            players: std::array::from_fn(|_| Player { name: "x".into(), dan: None, rate: None, sex: None }),
        };
        let round = play_round_on(&spec, a, [&bot, &bot, &bot, &bot]).unwrap();
        let mut h: Vec<Kind> = round.start.hands[0].iter().map(|t| t.kind()).collect();
        h.sort_unstable();
        assert_eq!(h, want);
    }

    /// The early-tile walls differ only in three positions (the first draw and two replacement
    /// slots), and each dealer throws its first draw with riichi on 1m-4m unless it won first.
    #[test]
    fn early_walls_permute_three_tiles_and_the_dealer_throws_it() {
        let walls = early_walls(5, 2).expect("arrangeable");
        let t: Vec<&[TileId]> = walls.iter().map(|w| w.tiles()).collect();
        let slots = [52, 136 - DEAD_WALL, 136 - DEAD_WALL + 1];
        for (x, y) in [(0, 1), (0, 2), (1, 2)] {
            let diff: Vec<usize> = (0..136).filter(|&i| t[x][i] != t[y][i]).collect();
            assert!(diff.len() >= 2 && diff.iter().all(|i| slots.contains(i)), "{diff:?}");
        }
        let bot = boten::bot();
        let spec = GameSpec {
            id: "e".into(),
            seed: 2,
            hanchan: false,
            seats: 4,
            players: std::array::from_fn(|_| Player { name: "x".into(), dan: None, rate: None, sex: None }),
        };
        for (wall, kind) in walls.into_iter().zip(EARLY) {
            let round = play_round_on(&spec, wall, [&bot, &bot, &bot, &bot]).unwrap();
            let first = round.events.iter().find_map(|e| match e {
                Event::Discard { who: 0, tile } => Some(tile.kind()),
                _ => None,
            });
            assert_eq!(first, Some(kind));
            assert!(dealer_outcome(&round).is_some());
        }
    }
}
