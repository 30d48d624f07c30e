//! The replacement number of a concealed hand (shanten + 1: how many tiles it must draw to be
//! complete) with its necessary kinds (draws that lower it) and unnecessary kinds (discards that
//! keep it), over the three forms: four melds and a pair, chiitoitsu and kokushi.
//!
//! The results are those of the `xiangting` crate (Nyanten's method), which the tests use as the
//! oracle; this module exists for speed. Ingest asks millions of these queries per game that no
//! cache answers (the hands after calls inside the expected-value search above all), and the
//! crate spends most of a query in branchy per-kind loops (its chiitoitsu and kokushi passes, its
//! min-plus merge). Here:
//! - every suit pattern's answer is a table entry built once per process ([`Suit`]): for each
//!   target of `m` melds and `p` pairs in that suit, the fewest tiles to draw, the kinds whose draw
//!   lowers that number and the kinds whose discard keeps it, plus the kinds held once, not at
//!   all, and three or four times, that the chiitoitsu and kokushi forms count from;
//! - a query looks up four entries (two table reads each, [`Suit::find`]) and merges them by
//!   min-plus, the slot numbers held as 16 byte lanes so that a merge is ten vector steps
//!   ([`merge`], SSE2 on x86_64); its kinds are the union, over the suits, of each suit's kinds
//!   at the slots some least split uses, found by comparing the suit's numbers with the other
//!   three suits' merge in one vector compare ([`used_lanes`]).
//!
//! Why the per-suit union is exact: a draw of kind k (in suit s) lowers the total by one exactly
//! when some minimal split lowers suit s's part, and a discard keeps the total exactly when some
//! minimal split keeps suit s's part; both follow from a part moving by at most one per tile.
//!
//! Building the tables: over every count vector of a suit (5^9 for numbers, 5^7 for honours),
//! `cover` marks which targets it already contains (a vector contains a target when it contains
//! one of the target exactly, or one of its one-tile-smaller vectors does), and the distance is
//! 0 when covered, else 1 + the least distance over one more tile, filled from the fullest vector
//! down. The tables are built once per process, on first use; entries are ranked in the order
//! of their base-5 code, so the build writes them in sequence.

use std::sync::LazyLock;

use crate::tile::{Counts, ALL_KINDS, YAOCHU_KINDS};

/// Targets of `m` melds (0..=4) and `p` pairs (0..=1), slot `m + 5 p`.
const SLOTS: usize = 10;
/// Slots with `m` < 4, the ones a meld can be added to.
const BELOW_FOUR_MELDS: u16 = 0b01111_01111;
/// Slots without the pair.
const NO_PAIR: u16 = 0b11111;
/// Most tiles in a concealed hand.
const MAX_TILES: usize = 14;

/// Slot numbers as 16 byte lanes, so that a min-plus merge of two parts is a few vector
/// instructions ([`merge`]): slot `m` (no pair) in lane `m`, slot `5 + m` (the pair) in lane
/// [`PAIR_LANE`]` + m`. The lanes between and after hold 255 ([`JUNK`]): the pair lanes start
/// at 9 so that two pairless parts of up to 4 melds each (lanes up to 8) never land on a pair
/// lane, and a 255 lane adds (saturating) to 255, so it never wins a minimum.
type Lanes = [u8; 16];
const PAIR_LANE: usize = 9;
/// 255 in the lanes that hold no slot, 0 in the others (ORed into every merge's result).
const JUNK: Lanes = {
    let mut j = [255u8; 16];
    let mut m = 0;
    while m < 5 {
        j[m] = 0;
        j[PAIR_LANE + m] = 0;
        m += 1;
    }
    j
};

/// The lane of slot `slot` (`m + 5 p`).
#[inline(always)]
const fn lane(slot: usize) -> usize {
    if slot < 5 {
        slot
    } else {
        slot - 5 + PAIR_LANE
    }
}

/// What one suit pattern contributes to a query.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Entry {
    /// Fewest tiles to draw so the suit holds each slot's target, by [`lane`].
    number: Lanes,
    /// Kinds (bit = position in the suit) whose draw lowers `number`, per slot.
    need: [u16; SLOTS],
    /// Kinds held whose discard keeps `number`, per slot.
    unneed: [u16; SLOTS],
    /// Kinds held once, kinds not held, kinds held three or four times (the chiitoitsu and
    /// kokushi forms count kinds and pairs from these).
    single: u16,
    absent: u16,
    over: u16,
}

/// The entries of every pattern with at most [`MAX_TILES`] tiles of a suit of `len` kinds, ranked
/// in the order of their base-5 code (last kind most significant, as [`patterns`]).
struct Suit {
    entries: Vec<Entry>,
    /// [`rank`] in two lookups ([`Suit::find`]): `high[code]`, by the base-5 code of the last
    /// [`HIGH`] kinds, is their part of the rank, plus their tile count << 24; `low[n * 5^l +
    /// code]`, by those `n` tiles and the code of the first `l` kinds, is the rest of the rank
    /// plus the whole tile count << 24. [`NO_RANK`] where the pattern has more than 14 tiles.
    high: Vec<u32>,
    low: Vec<u32>,
}

/// Kinds of a suit whose part of the rank [`Suit::high`] holds (the last four).
const HIGH: usize = 4;
/// A [`Suit::high`] or [`Suit::low`] entry of a pattern of more than [`MAX_TILES`] tiles.
const NO_RANK: u32 = u32::MAX;

struct Tables {
    numbers: Suit,
    honors: Suit,
}

static TABLES: LazyLock<Tables> =
    LazyLock::new(|| Tables { numbers: Suit::build(9, true), honors: Suit::build(7, false) });

impl Suit {
    fn build(len: usize, runs: bool) -> Suit {
        let pow: Vec<usize> = (0..len).map(|k| 5usize.pow(k as u32)).collect();
        let patterns = patterns(len);
        let dist = distances(&patterns, runs, &pow);
        let offset = rank_offsets(len);
        let mut entries = vec![Entry::default(); count_patterns(len, MAX_TILES) as usize];
        for (code, digits) in patterns.iter().enumerate() {
            let digits = &digits[..len];
            if digits.iter().map(|&c| c as usize).sum::<usize>() > MAX_TILES {
                continue;
            }
            let rank = rank(&offset, digits).expect("a pattern within the limits has a rank");
            entries[rank.0 as usize] = entry(&dist, code, digits, &pow);
        }
        let (high, low) = rank_parts(&offset, len);
        Suit { entries, high, low }
    }

    /// The entry of `h` and its tile count; `None` for a count above 4 or more than 14 tiles.
    ///
    /// [`rank`] read from two tables rather than summed kind by kind: every xiangting query
    /// looks up one to four suits, millions of times per game.
    /// `LEN` is the suit's length (9, or 7 for the honours): a constant, so that the loops over
    /// the counts unroll.
    #[inline(always)]
    fn find<const LEN: usize>(&self, h: &[u8; LEN]) -> Option<(&Entry, usize)> {
        // A count above 4 sets a bit from 8 up once 3 is added (the others stay below 8).
        if h.iter().fold(0u32, |a, &c| a | (c as u32 + 3)) > 7 {
            return None;
        }
        let code = |d: &[u8]| d.iter().rev().fold(0usize, |a, &c| a * 5 + c as usize);
        let l = LEN - HIGH;
        let hi = self.high[code(&h[l..])];
        if hi == NO_RANK {
            return None;
        }
        let lo = self.low[(hi >> 24) as usize * 5usize.pow(l as u32) + code(&h[..l])];
        if lo == NO_RANK {
            return None;
        }
        Some((&self.entries[(hi.wrapping_add(lo) & 0xFF_FFFF) as usize], (lo >> 24) as usize))
    }
}

/// The `LEN` counts of `counts` from kind `start` on.
#[inline(always)]
fn suit_counts<const LEN: usize>(counts: &[u8], start: usize) -> &[u8; LEN] {
    counts[start..start + LEN].try_into().expect("a suit's counts")
}

/// [`Suit::high`] and [`Suit::low`] of a suit of `len` kinds: [`rank`]'s sum over the last
/// [`HIGH`] kinds, then over the others from each tile count the last ones may hold.
fn rank_parts(offset: &[[[u32; 5]; MAX_TILES + 1]], len: usize) -> (Vec<u32>, Vec<u32>) {
    let l = len - HIGH;
    // `rank`'s loop over the kinds `digits` (first kind first) from `n` tiles on, the `j`-th
    // kind from the last taking `offset[j0 + j]`.
    let part = |digits: &[u8], j0: usize, mut n: usize| {
        let mut r = 0u32;
        for (j, &c) in digits.iter().rev().enumerate() {
            if n > MAX_TILES {
                return NO_RANK;
            }
            r += offset[j0 + j][n][c as usize];
            n += c as usize;
        }
        if n > MAX_TILES {
            NO_RANK
        } else {
            r | (n as u32) << 24
        }
    };
    let digits = |code: usize, k: usize| -> Vec<u8> {
        (0..k).map(|i| (code / 5usize.pow(i as u32) % 5) as u8).collect()
    };
    let high = (0..5usize.pow(HIGH as u32)).map(|code| part(&digits(code, HIGH), 0, 0)).collect();
    let size = 5usize.pow(l as u32);
    let low = (0..(MAX_TILES + 1) * size).map(|i| part(&digits(i % size, l), HIGH, i / size)).collect();
    (high, low)
}

/// Rank of `h` among the patterns with at most [`MAX_TILES`] tiles, and its tile count.
#[inline]
fn rank(offset: &[[[u32; 5]; MAX_TILES + 1]], h: &[u8]) -> Option<(u32, usize)> {
    let mut n = 0usize;
    let mut r = 0u32;
    for (off, &c) in offset.iter().zip(h.iter().rev()) {
        if c > 4 || n > MAX_TILES {
            return None;
        }
        r += off[n][c as usize];
        n += c as usize;
    }
    (n <= MAX_TILES).then_some((r, n))
}

/// Patterns of `len` counts (0..=4 each) with at most `budget` tiles.
fn count_patterns(len: usize, budget: usize) -> u32 {
    let mut w = vec![1u32; budget + 1];
    for _ in 0..len {
        w = (0..=budget).map(|b| (0..=b.min(4)).map(|c| w[b - c]).sum()).collect();
    }
    w[budget]
}

fn rank_offsets(len: usize) -> Vec<[[u32; 5]; MAX_TILES + 1]> {
    (0..len)
        .map(|i| {
            let mut off = [[0u32; 5]; MAX_TILES + 1];
            for (n, row) in off.iter_mut().enumerate() {
                for c in 1..5 {
                    let before = c - 1;
                    row[c] = row[c - 1]
                        + if n + before <= MAX_TILES {
                            count_patterns(len - i - 1, MAX_TILES - n - before)
                        } else {
                            0
                        };
                }
            }
            off
        })
        .collect()
}

/// Every count vector of `len` kinds (0..=4 each) in the order of its base-5 code, kind 0 the
/// lowest digit, so that one more tile of kind k is 5^k further on.
fn patterns(len: usize) -> Vec<[u8; 9]> {
    let size = 5usize.pow(len as u32);
    let mut out = Vec::with_capacity(size);
    let mut d = [0u8; 9];
    for _ in 0..size {
        out.push(d);
        // The next code: add one to the lowest digit, carrying.
        for x in d.iter_mut().take(len) {
            if *x < 4 {
                *x += 1;
                break;
            }
            *x = 0;
        }
    }
    out
}

/// Per slot, the fewest tiles to draw so a suit pattern (indexed by its base-5 code, see
/// [`patterns`]) contains the slot's target, over every pattern.
fn distances(patterns: &[[u8; 9]], runs: bool, pow: &[usize]) -> Vec<[u8; 16]> {
    let (size, len) = (patterns.len(), pow.len());
    // exact[code]: slots the pattern is exactly made of; cover[code]: slots it contains.
    let mut exact = vec![0u16; size];
    let mut cover = vec![0u16; size];
    exact[0] = 1;
    cover[0] = 1;
    for code in 1..size {
        let h = &patterns[code];
        // The lowest kind held must start a group: a pair, a set or a run.
        let i = (0..len).find(|&k| h[k] > 0).expect("code > 0 holds a tile");
        let c = h[i];
        let mut ex = 0u16;
        if c >= 2 {
            ex |= (exact[code - 2 * pow[i]] & NO_PAIR) << 5;
        }
        if c >= 3 {
            ex |= (exact[code - 3 * pow[i]] & BELOW_FOUR_MELDS) << 1;
        }
        if runs && i + 2 < len && h[i + 1] > 0 && h[i + 2] > 0 {
            ex |= (exact[code - pow[i] - pow[i + 1] - pow[i + 2]] & BELOW_FOUR_MELDS) << 1;
        }
        exact[code] = ex;
        cover[code] = (0..len).filter(|&k| h[k] > 0).fold(ex, |acc, k| acc | cover[code - pow[k]]);
    }
    // Rows of 16 (6 unused) so that the min over a row is one vector instruction.
    let mut dist = vec![[0u8; 16]; size];
    for code in (0..size).rev() {
        let h = &patterns[code];
        let mut best = [u8::MAX; 16];
        for k in 0..len {
            if h[k] < 4 {
                let up = &dist[code + pow[k]];
                for s in 0..16 {
                    best[s] = best[s].min(up[s]);
                }
            }
        }
        let cov = cover[code];
        let row = &mut dist[code];
        for s in 0..16 {
            // The unused lanes stay 0.
            row[s] = if s >= SLOTS || cov >> s & 1 == 1 { 0 } else { best[s].saturating_add(1) };
        }
    }
    dist
}

fn entry(dist: &[[u8; 16]], code: usize, h: &[u8], pow: &[usize]) -> Entry {
    let d = &dist[code];
    let mut number = JUNK;
    (0..SLOTS).for_each(|s| number[lane(s)] = d[s]);
    let mut e = Entry { number, ..Entry::default() };
    // Whole rows at a time (16 lanes), so the compiler can use vector compares.
    let (mut need, mut unneed) = ([0u16; 16], [0u16; 16]);
    for (k, &c) in h.iter().enumerate() {
        let bit = 1u16 << k;
        match c {
            0 => e.absent |= bit,
            1 => e.single |= bit,
            2 => {}
            _ => e.over |= bit,
        }
        if c < 4 {
            let up = &dist[code + pow[k]];
            for s in 0..16 {
                need[s] |= u16::from(d[s] > 0 && up[s] + 1 == d[s]) << k;
            }
        }
        if c > 0 {
            let down = &dist[code - pow[k]];
            for s in 0..16 {
                unneed[s] |= u16::from(down[s] == d[s]) << k;
            }
        }
    }
    e.need = std::array::from_fn(|s| need[s]);
    e.unneed = std::array::from_fn(|s| unneed[s]);
    e
}

/// Which kinds a query returns beside the number.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kinds {
    /// None: the replacement number alone.
    None,
    /// Necessary kinds (draws that lower the number).
    Necessary,
    /// Unnecessary kinds (discards that keep the number).
    Unnecessary,
}

/// A concealed hand that has no replacement number: more than 4 of a kind, more than 14 tiles,
/// or a multiple of 3 tiles.
#[derive(Debug, PartialEq, Eq)]
pub struct InvalidHand;

/// Min with the union on ties, without a branch: how the forms' answers are combined.
#[inline(always)]
fn take(best: &mut u8, mask: &mut u64, n: u8, m: u64) {
    let keep = if n > *best { *mask } else { 0 };
    let add = if n <= *best { m } else { 0 };
    let tie = if n == *best { *mask } else { 0 };
    *mask = keep | add | tie;
    *best = (*best).min(n);
}

#[inline(always)]
fn suit_kinds(e: &Entry, which: Kinds) -> &[u16; SLOTS] {
    match which {
        Kinds::Unnecessary => &e.unneed,
        _ => &e.need,
    }
}

/// Min-plus merge of two parts' slot numbers ([`Lanes`]): each slot of the result is the least
/// sum over the splits of its melds and pair between the two parts. One step per slot of `x`:
/// `y` shifted up to that slot (255 shifted in), plus `x`'s number there, kept where smaller.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn merge(x: &Lanes, y: &Lanes) -> Lanes {
    use std::arch::x86_64::*;
    let mut out = [0u8; 16];
    // SAFETY: SSE2 is part of every x86_64 target; the unaligned loads and the store are of
    // 16-byte arrays.
    unsafe {
        let yv = _mm_loadu_si128(y.as_ptr().cast());
        let ones = _mm_set1_epi8(-1);
        let mut acc = ones;
        macro_rules! step {
            ($($s:literal)*) => {$(
                let shifted = _mm_or_si128(_mm_slli_si128::<$s>(yv), _mm_srli_si128::<{ 16 - $s }>(ones));
                acc = _mm_min_epu8(acc, _mm_adds_epu8(shifted, _mm_set1_epi8(x[$s] as i8)));
            )*};
        }
        step!(0 1 2 3 4 9 10 11 12 13);
        acc = _mm_or_si128(acc, _mm_loadu_si128(JUNK.as_ptr().cast()));
        _mm_storeu_si128(out.as_mut_ptr().cast(), acc);
    }
    out
}

/// [`merge`] on other targets, and its reference in the tests: slot by slot.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn merge_by_slot(x: &Lanes, y: &Lanes) -> Lanes {
    let mut out = [255u8; 16];
    for (m1, p1, m2, p2) in
        (0..25usize).flat_map(|i| [(i / 5, 0, i % 5, 0), (i / 5, 1, i % 5, 0), (i / 5, 0, i % 5, 1)])
    {
        if m1 + m2 <= 4 {
            let (a, b, c) = (lane(m1 + 5 * p1), lane(m2 + 5 * p2), lane(m1 + m2 + 5 * (p1 + p2)));
            out[c] = out[c].min(x[a].saturating_add(y[b]));
        }
    }
    out
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn merge(x: &Lanes, y: &Lanes) -> Lanes {
    merge_by_slot(x, y)
}

/// Lanes that hold a slot (0..=4 and [`PAIR_LANE`]..=13), as a [`used_lanes`] mask.
const SLOT_LANES: u16 = 0b0011_1110_0001_1111;

/// The lanes `a` of a part with numbers `x` that some least split of the target `N` melds and
/// the pair uses, given `others`, the merge of every other part, and `best`, the target's least
/// number: `x[a] + others[target - a] == best`. A lane of the part reaches the least number
/// exactly when the rest can make up the target's remainder at the least cost, so these are the
/// lanes whose kinds the whole hand's answer unites (a mask over lanes).
///
/// On x86_64: `others` reversed (lane l to 13 - l, so `target - a` lines up with `a`), shifted
/// down to the target, added to `x` and compared with `best` in one go.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn used_lanes<const N: usize>(x: &Lanes, others: &Lanes, best: u8) -> u16 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of every x86_64 target; the loads are of 16-byte arrays.
    unsafe {
        let o = _mm_loadu_si128(others.as_ptr().cast());
        // Byte l to 15 - l: dwords reversed, then the words in each, then the bytes in each.
        let o = _mm_shuffle_epi32::<0x1B>(o);
        let o = _mm_shufflehi_epi16::<0xB1>(_mm_shufflelo_epi16::<0xB1>(o));
        let o = _mm_or_si128(_mm_slli_epi16::<8>(o), _mm_srli_epi16::<8>(o));
        // Lane l now holds others[15 - l]; lane a must hold others[9 + N - a]: down by 6 - N,
        // 255 shifted in.
        let ones = _mm_set1_epi8(-1);
        let o = match N {
            0 => _mm_or_si128(_mm_srli_si128::<6>(o), _mm_slli_si128::<10>(ones)),
            1 => _mm_or_si128(_mm_srli_si128::<5>(o), _mm_slli_si128::<11>(ones)),
            2 => _mm_or_si128(_mm_srli_si128::<4>(o), _mm_slli_si128::<12>(ones)),
            3 => _mm_or_si128(_mm_srli_si128::<3>(o), _mm_slli_si128::<13>(ones)),
            _ => _mm_or_si128(_mm_srli_si128::<2>(o), _mm_slli_si128::<14>(ones)),
        };
        let sum = _mm_adds_epu8(_mm_loadu_si128(x.as_ptr().cast()), o);
        let hit = _mm_movemask_epi8(_mm_cmpeq_epi8(sum, _mm_set1_epi8(best as i8)));
        hit as u16 & SLOT_LANES
    }
}

/// [`used_lanes`] on other targets, and its reference in the tests: lane by lane.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn used_lanes_by_slot<const N: usize>(x: &Lanes, others: &Lanes, best: u8) -> u16 {
    let mut used = 0u16;
    for m in 0..=N {
        for (a, rest) in [(m, PAIR_LANE + N - m), (PAIR_LANE + m, N - m)] {
            used |= u16::from(x[a].saturating_add(others[rest]) == best) << a;
        }
    }
    used
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn used_lanes<const N: usize>(x: &Lanes, others: &Lanes, best: u8) -> u16 {
    used_lanes_by_slot::<N>(x, others, best)
}

/// The union of a part's kinds (by slot) over the lanes `used`.
#[inline(always)]
fn lane_kinds(kinds: &[u16; SLOTS], used: u16) -> u64 {
    let mut out = 0u64;
    let mut rest = used;
    while rest != 0 {
        let l = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out |= kinds[if l < 5 { l } else { l - (PAIR_LANE - 5) }] as u64;
    }
    out
}

/// The four-melds-and-a-pair form: slot `N` melds + pair of the merge of all four suits. The
/// numbers first (suits m + p, and s + honours), then the kinds: each suit's kinds at the lanes
/// some least split uses ([`used_lanes`]).
#[inline(always)]
fn standard<const N: usize>(e: [&Entry; 4], which: Kinds) -> (u8, u64) {
    let mp = merge(&e[0].number, &e[1].number);
    let sz = merge(&e[2].number, &e[3].number);
    standard_merged::<N>(e, &mp, &sz, which)
}

/// [`standard`] with the two pairs' numbers merged already (`mp` of suits m + p, `sz` of s +
/// honours), so a caller that changes one suit merges only its pair again.
#[inline(always)]
fn standard_merged<const N: usize>(e: [&Entry; 4], mp: &Lanes, sz: &Lanes, which: Kinds) -> (u8, u64) {
    let best = least::<N>(mp, sz);
    if which == Kinds::None {
        return (best, 0);
    }
    // Each suit against the other three merged: which of its lanes a least split uses.
    let others = others(e, mp, sz);
    let mut kinds = 0u64;
    for (i, (x, o)) in e.iter().zip(&others).enumerate() {
        kinds |= lane_kinds(suit_kinds(x, which), used_lanes::<N>(&x.number, o, best)) << (9 * i);
    }
    (best, kinds)
}

/// The least number of the target of `N` melds and the pair, from the merged pairs of suits
/// (`mp` of m + p, `sz` of s + honours).
#[inline(always)]
fn least<const N: usize>(mp: &Lanes, sz: &Lanes) -> u8 {
    let mut best = u8::MAX;
    for i in 0..=N {
        best = best.min(mp[PAIR_LANE + i] + sz[N - i]).min(mp[i] + sz[PAIR_LANE + N - i]);
    }
    best
}

/// For each suit of entries `e`, the other three suits' numbers merged (`mp` and `sz` as in
/// [`least`]).
#[inline(always)]
fn others(e: [&Entry; 4], mp: &Lanes, sz: &Lanes) -> [Lanes; 4] {
    [merge(&e[1].number, sz), merge(&e[0].number, sz), merge(mp, &e[3].number), merge(mp, &e[2].number)]
}

/// A suit mask (bit = position) at its place among the 34 kinds.
#[inline(always)]
fn spread(e: [&Entry; 4], f: impl Fn(&Entry) -> u16) -> u64 {
    f(e[0]) as u64 | (f(e[1]) as u64) << 9 | (f(e[2]) as u64) << 18 | (f(e[3]) as u64) << 27
}

/// Chiitoitsu (seven pairs, four of a kind one pair), as the `xiangting` crate counts it.
#[inline(always)]
fn chiitoitsu(e: [&Entry; 4], which: Kinds) -> (u8, u64) {
    let absent = spread(e, |x| x.absent);
    let single = spread(e, |x| x.single);
    let kinds = (ALL_KINDS & !absent).count_ones() as u8;
    let pairs = kinds - single.count_ones() as u8;
    let number = 7 - pairs + 7u8.saturating_sub(kinds);
    let mask = match which {
        Kinds::None => 0,
        Kinds::Necessary if kinds < 7 => single | absent,
        Kinds::Necessary => single,
        Kinds::Unnecessary if kinds > 7 => spread(e, |x| x.over) | single,
        Kinds::Unnecessary => spread(e, |x| x.over),
    };
    (number, mask)
}

/// Kokushi (one of each terminal and honour plus a pair of one), as the `xiangting` crate counts it.
#[inline(always)]
fn kokushi(e: [&Entry; 4], which: Kinds) -> (u8, u64) {
    let absent = spread(e, |x| x.absent) & ALL_KINDS;
    let single = spread(e, |x| x.single);
    let held = ALL_KINDS & !absent;
    let yaochu = held & YAOCHU_KINDS;
    let doubled = yaochu & !single;
    let number = 14 - yaochu.count_ones() as u8 - u8::from(doubled != 0);
    let mask = match which {
        Kinds::None => 0,
        Kinds::Necessary if doubled != 0 => absent & YAOCHU_KINDS,
        Kinds::Necessary => (absent | single) & YAOCHU_KINDS,
        Kinds::Unnecessary => {
            let over = spread(e, |x| x.over) & YAOCHU_KINDS;
            let discards = over | (held & !YAOCHU_KINDS);
            if doubled.count_ones() >= 2 {
                discards | (doubled & !over)
            } else {
                discards
            }
        }
    };
    (number, mask)
}

/// The replacement number of concealed `counts` (3n+1 or 3n+2 tiles, at most 14) over the three
/// forms, with the kinds `which` asks for: on a tie between forms, the union of their kinds.
pub fn query(counts: &Counts, which: Kinds) -> Result<(u8, u64), InvalidHand> {
    let (e, tiles) = entries(counts)?;
    if tiles % 3 == 0 {
        return Err(InvalidHand);
    }
    let n = tiles / 3;
    let standard = match n {
        0 => standard::<0>(e, which),
        1 => standard::<1>(e, which),
        2 => standard::<2>(e, which),
        3 => standard::<3>(e, which),
        _ => standard::<4>(e, which),
    };
    Ok(with_other_forms(e, n, standard, which))
}

/// The fewest tiles to draw so concealed `counts` (any number of tiles up to 14, at most 4 of a
/// kind) contain `melds` melds and a pair: the standard form alone, whatever the hand's size.
///
/// Why: 電脳麻将's yaku-aware shanten asks the standard form of hands cut down to one suit or to
/// the 2-8 tiles, which are short of tiles, millions of times per game; the per-suit tables
/// answer it with four lookups and one min-plus merge instead of [`super::shanten`]'s per-suit
/// DP behind a hash map. Both count the same thing (the fewest tiles missing from the nearest
/// target, at most 4 copies of a kind in it), so the results are equal (test
/// `standard_tables_equal_the_dp` in [`super::shanten`]).
pub fn standard_number(counts: &Counts, melds: usize) -> Result<u8, InvalidHand> {
    let (e, _) = entries(counts)?;
    let which = Kinds::None;
    Ok(match melds {
        0 => standard::<0>(e, which).0,
        1 => standard::<1>(e, which).0,
        2 => standard::<2>(e, which).0,
        3 => standard::<3>(e, which).0,
        4 => standard::<4>(e, which).0,
        _ => return Err(InvalidHand),
    })
}

/// [`standard_number`] with the kinds whose draw lowers it (held fewer than 4 times).
pub fn standard_necessary(counts: &Counts, melds: usize) -> Result<(u8, u64), InvalidHand> {
    let (e, _) = entries(counts)?;
    let which = Kinds::Necessary;
    Ok(match melds {
        0 => standard::<0>(e, which),
        1 => standard::<1>(e, which),
        2 => standard::<2>(e, which),
        3 => standard::<3>(e, which),
        4 => standard::<4>(e, which),
        _ => return Err(InvalidHand),
    })
}

/// The four suits' entries of concealed `counts` and its tile count (at most [`MAX_TILES`]).
#[inline(always)]
fn entries(counts: &Counts) -> Result<([&'static Entry; 4], usize), InvalidHand> {
    let (e, suit_tiles) = suit_entries(counts)?;
    let tiles = suit_tiles.iter().sum();
    if tiles > MAX_TILES {
        return Err(InvalidHand);
    }
    Ok((e, tiles))
}

/// The four suits' entries of `counts` and the tiles of each suit.
#[inline(always)]
fn suit_entries(counts: &Counts) -> Result<([&'static Entry; 4], [usize; 4]), InvalidHand> {
    let (m, nm) = suit_entry(counts, 0)?;
    let (p, np) = suit_entry(counts, 1)?;
    let (s, ns) = suit_entry(counts, 2)?;
    let (z, nz) = suit_entry(counts, 3)?;
    Ok(([m, p, s, z], [nm, np, ns, nz]))
}

/// The four-melds-and-a-pair answer of a hand of `n` melds' worth of tiles combined with the
/// chiitoitsu and kokushi answers (only a hand of 13 or 14 concealed tiles can take those forms).
#[inline(always)]
fn with_other_forms(e: [&Entry; 4], n: usize, standard: (u8, u64), which: Kinds) -> (u8, u64) {
    let (mut best, mut kinds) = standard;
    if n == 4 {
        for (number, k) in [chiitoitsu(e, which), kokushi(e, which)] {
            take(&mut best, &mut kinds, number, k);
        }
    }
    (best, if which == Kinds::None { 0 } else { kinds })
}

/// A 3n+2-tile hand held as its four suit entries and its two merged pairs of suits, so that the
/// hand one discard away is queried by looking up one suit and merging one pair instead of four
/// and two. Second-order ukeire asks for the necessary kinds after every discard that keeps a
/// hand's shanten, several per hand, and most of them miss every cache.
pub struct Discards {
    counts: Counts,
    e: [&'static Entry; 4],
    /// Slot numbers of suits m + p and of s + honours merged.
    mp: Lanes,
    sz: Lanes,
    /// Melds' worth of tiles of the hand and of the hand after a discard: `tiles / 3` and
    /// `(tiles - 1) / 3` are the same for 3n+2 tiles.
    n: usize,
}

/// What [`Discards::necessary_without_remembering`] keeps between the queries of one hand: per
/// suit, the answers after the last [`SEEN`] discards of that suit whose slot numbers differed
/// ([`Seen`]), the first `min(len, SEEN)` of them filled. Kept apart from [`Discards`]: the
/// expected-value search builds hundreds of thousands of those per game and asks most of them
/// about one or two discards, too few for a memory to pay for carrying it.
#[derive(Default)]
pub struct DiscardMemory {
    seen: [[Seen; SEEN]; 4],
    len: [u8; 4],
}

impl DiscardMemory {
    /// Forgets every answer, for another hand: only the counts are reset. A suit's answers are
    /// read only below its count, so the stale ones are never seen and zeroing them would be pure
    /// cost, paid once per drawn hand.
    pub fn clear(&mut self) {
        self.len = [0; 4];
    }
}

/// Discards of one suit whose answers a [`DiscardMemory`] keeps: a suit holds few kinds a query
/// asks to discard, so three cover most of them.
const SEEN: usize = 3;

/// What the standard form's answer after a discard of suit σ rests on besides that suit's
/// `need` kinds: the suit's slot numbers after the discard, the least number, the suit's lanes
/// some least split uses, and the other three suits' kinds.
///
/// Why: two discards of one suit often leave the same slot numbers (either of two isolated
/// tiles, say). The other suits are the same too, so every merge, the least number and every
/// suit's used lanes are the same, and only suit σ's `need` kinds at those lanes must be read
/// again (no merge). Over 40 corpus games a third of second-order ukeire's
/// queries repeated an earlier discard's numbers this way (10,639,608 queries, 3,499,686 repeats).
#[derive(Clone, Copy, Default)]
struct Seen {
    number: Lanes,
    best: u8,
    used: u16,
    others: u64,
}

/// The entry of suit `suit` (0..=3) of `counts`, and its tile count.
#[inline(always)]
fn suit_entry(counts: &Counts, suit: usize) -> Result<(&'static Entry, usize), InvalidHand> {
    let t: &'static Tables = &TABLES;
    if suit == 3 {
        t.honors.find::<7>(suit_counts(counts, 27))
    } else {
        t.numbers.find::<9>(suit_counts(counts, 9 * suit))
    }
    .ok_or(InvalidHand)
}

/// A hand held as its four suit entries and two merged pairs of suits, so that the 3n+2 hands
/// that differ from it in one suit become [`Discards`] with one suit looked up and one pair
/// merged ([`Discards::near`]) instead of four and two: the expected-value search and
/// second-order ukeire ask about every draw that lowers a hand's shanten and every call of it,
/// and most of those hands miss every cache.
pub struct Draws {
    e: [&'static Entry; 4],
    mp: Lanes,
    sz: Lanes,
    suit_tiles: [usize; 4],
    tiles: usize,
}

impl Draws {
    /// `counts`: a concealed hand of at most 14 tiles.
    pub fn new(counts: &Counts) -> Result<Draws, InvalidHand> {
        let (e, suit_tiles) = suit_entries(counts)?;
        let tiles = suit_tiles.iter().sum();
        if tiles > MAX_TILES {
            return Err(InvalidHand);
        }
        // All slots are merged: the queries read only the slots their hand's size asks for.
        let mp = merge(&e[0].number, &e[1].number);
        let sz = merge(&e[2].number, &e[3].number);
        Ok(Draws { e, mp, sz, suit_tiles, tiles })
    }
}

impl Discards {
    /// `counts` must be a concealed hand of 3n+2 tiles (at most 14).
    pub fn new(counts: &Counts) -> Result<Discards, InvalidHand> {
        let Draws { e, mp, sz, tiles, .. } = Draws::new(counts)?;
        if tiles % 3 != 2 {
            return Err(InvalidHand);
        }
        Ok(Discards::of(*counts, e, mp, sz, tiles))
    }

    fn of(counts: Counts, e: [&'static Entry; 4], mp: Lanes, sz: Lanes, tiles: usize) -> Discards {
        Discards { counts, e, mp, sz, n: (tiles - 1) / 3 }
    }

    /// The [`Discards`] of `counts`, a 3n+2 hand that differs from `base`'s hand in suit `suit`
    /// alone (one tile drawn, or the two tiles of a call taken out): that suit looked up and its
    /// pair of suits merged, the other three entries and pair taken from `base`.
    pub fn near(base: &Draws, counts: &Counts, suit: usize) -> Result<Discards, InvalidHand> {
        if suit > 3 {
            return Err(InvalidHand);
        }
        let (entry, n) = suit_entry(counts, suit)?;
        let tiles = base.tiles - base.suit_tiles[suit] + n;
        if tiles > MAX_TILES || tiles % 3 != 2 {
            return Err(InvalidHand);
        }
        let mut e = base.e;
        e[suit] = entry;
        let (mp, sz) = if suit < 2 {
            (merge(&e[0].number, &e[1].number), base.sz)
        } else {
            (base.mp, merge(&e[2].number, &e[3].number))
        };
        Ok(Discards::of(*counts, e, mp, sz, tiles))
    }

    /// `query(hand, Kinds::Unnecessary)` of the hand itself, from the entries and merged pairs
    /// already built: second-order ukeire asks it of every hand it then asks `necessary_without`
    /// of, so a miss of both builds the suits once.
    pub fn unnecessary(&self) -> (u8, u64) {
        self.answer(self.e, None, Kinds::Unnecessary)
    }

    /// `query(hand - one tile of kind d, Kinds::Necessary)`, for a kind `d` the hand holds.
    pub fn necessary_without(&self, d: usize) -> Result<(u8, u64), InvalidHand> {
        let (e, suit) = self.without(d)?;
        Ok(self.answer(e, Some(suit), Kinds::Necessary))
    }

    /// [`Self::necessary_without`], remembering in `memory` what the standard form's answer
    /// rests on ([`Seen`]) for the next discards of the same suit: second-order ukeire asks this
    /// of every kept discard of every hand one effective draw away. `memory` must serve this
    /// hand alone ([`DiscardMemory::clear`] it for another).
    pub fn necessary_without_remembering(
        &self,
        d: usize,
        memory: &mut DiscardMemory,
    ) -> Result<(u8, u64), InvalidHand> {
        let (e, suit) = self.without(d)?;
        let standard = match self.n {
            0 => self.standard_without::<0>(e, suit, memory),
            1 => self.standard_without::<1>(e, suit, memory),
            2 => self.standard_without::<2>(e, suit, memory),
            3 => self.standard_without::<3>(e, suit, memory),
            _ => self.standard_without::<4>(e, suit, memory),
        };
        Ok(with_other_forms(e, self.n, standard, Kinds::Necessary))
    }

    /// The entries of the hand less one tile of kind `d` (which it must hold), and `d`'s suit.
    #[inline(always)]
    fn without(&self, d: usize) -> Result<([&'static Entry; 4], usize), InvalidHand> {
        if d >= crate::tile::KINDS || self.counts[d] == 0 {
            return Err(InvalidHand);
        }
        let suit = d / 9;
        let mut less = self.counts;
        less[d] -= 1;
        let (entry, _) = suit_entry(&less, suit)?;
        let mut e = self.e;
        e[suit] = entry;
        Ok((e, suit))
    }

    /// [`standard`]'s necessary kinds of entries `e`, this hand's but for suit `suit`: from a
    /// [`Seen`] of the suit with the same slot numbers when `memory` has one, else as
    /// [`standard_merged`] computes them (its pair of suits merged again), remembered.
    #[inline(always)]
    fn standard_without<const N: usize>(
        &self,
        e: [&Entry; 4],
        suit: usize,
        memory: &mut DiscardMemory,
    ) -> (u8, u64) {
        let x = &e[suit];
        let filled = memory.len[suit] as usize;
        if let Some(s) = memory.seen[suit][..filled.min(SEEN)].iter().find(|s| s.number == x.number) {
            return (s.best, lane_kinds(&x.need, s.used) << (9 * suit) | s.others);
        }
        let (mp, sz) = if suit < 2 {
            (merge(&e[0].number, &e[1].number), self.sz)
        } else {
            (self.mp, merge(&e[2].number, &e[3].number))
        };
        let best = least::<N>(&mp, &sz);
        let rest = others(e, &mp, &sz);
        let (mut used, mut others) = (0u16, 0u64);
        for (i, (y, o)) in e.iter().zip(&rest).enumerate() {
            let lanes = used_lanes::<N>(&y.number, o, best);
            if i == suit {
                used = lanes;
            } else {
                others |= lane_kinds(&y.need, lanes) << (9 * i);
            }
        }
        // The oldest of a full suit's answers gives way (a count past 255 starts the suit over).
        memory.seen[suit][filled % SEEN] = Seen { number: x.number, best, used, others };
        memory.len[suit] = (filled + 1) as u8;
        (best, lane_kinds(&x.need, used) << (9 * suit) | others)
    }

    /// The answer of entries `e` with [`Self::n`] melds' worth of tiles, all forms: the hand's own when
    /// `changed` is `None`, else that of a hand whose suit `changed` differs from this one's.
    #[inline(always)]
    fn answer(&self, e: [&Entry; 4], changed: Option<usize>, which: Kinds) -> (u8, u64) {
        let standard = match self.n {
            0 => self.standard_with::<0>(e, changed, which),
            1 => self.standard_with::<1>(e, changed, which),
            2 => self.standard_with::<2>(e, changed, which),
            3 => self.standard_with::<3>(e, changed, which),
            _ => self.standard_with::<4>(e, changed, which),
        };
        with_other_forms(e, self.n, standard, which)
    }

    /// [`standard`] of entries `e`: only the pair of suit `changed` (if any) is merged again.
    #[inline(always)]
    fn standard_with<const N: usize>(
        &self,
        e: [&Entry; 4],
        changed: Option<usize>,
        which: Kinds,
    ) -> (u8, u64) {
        match changed {
            None => standard_merged::<N>(e, &self.mp, &self.sz, which),
            Some(0 | 1) => standard_merged::<N>(e, &merge(&e[0].number, &e[1].number), &self.sz, which),
            Some(_) => standard_merged::<N>(e, &self.mp, &merge(&e[2].number, &e[3].number), which),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::xorshift_step;
    use crate::tile::KINDS;
    use crate::tile::{counts_of, parse_mpsz};
    use xiangting::PlayerCount::Four;

    fn oracle(c: &Counts, which: Kinds) -> (u8, u64) {
        match which {
            Kinds::None => (xiangting::calculate_replacement_number(c, Four).unwrap(), 0),
            Kinds::Necessary => xiangting::calculate_necessary_tiles(c, Four).unwrap(),
            Kinds::Unnecessary => xiangting::calculate_unnecessary_tiles(c, Four).unwrap(),
        }
    }

    const ALL_QUERIES: [Kinds; 3] = [Kinds::None, Kinds::Necessary, Kinds::Unnecessary];

    #[test]
    fn ranks_number_every_pattern_once() {
        let t = &*TABLES;
        for (suit, len) in [(&t.numbers, 9usize), (&t.honors, 7)] {
            let mut seen = vec![false; suit.entries.len()];
            let offset = rank_offsets(len);
            let mut h = vec![0u8; len];
            for code in 0..5usize.pow(len as u32) {
                let mut x = code;
                for c in h.iter_mut().rev() {
                    *c = (x % 5) as u8;
                    x /= 5;
                }
                let found = match len {
                    9 => suit.find::<9>(suit_counts(&h, 0)),
                    _ => suit.find::<7>(suit_counts(&h, 0)),
                };
                let found = found.map(|(e, n)| ((e as *const Entry).addr(), n));
                let ranked =
                    rank(&offset, &h).map(|(r, n)| ((&suit.entries[r as usize] as *const Entry).addr(), n));
                assert_eq!(found, ranked, "{h:?}");
                match rank(&offset, &h) {
                    Some((r, n)) => {
                        assert!(n <= MAX_TILES);
                        assert!(!seen[r as usize], "rank {r} twice");
                        seen[r as usize] = true;
                    }
                    None => assert!(h.iter().map(|&c| c as usize).sum::<usize>() > MAX_TILES),
                }
            }
            assert!(seen.iter().all(|&s| s), "a rank with no pattern");
        }
        // 405,350 number-suit patterns of at most 14 tiles (the count the `xiangting` tables hold).
        assert_eq!(t.numbers.entries.len(), 405_350);
    }

    /// The vector merge equals the slot-by-slot one on random slot numbers (0..=40, beyond any
    /// real suit's; junk lanes 255), so every slot lands where it belongs and no junk lane leaks.
    #[test]
    fn merge_equals_merge_by_slot() {
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..20_000 {
            let mut v = [JUNK; 2];
            for x in v.iter_mut() {
                for s in 0..SLOTS {
                    x[lane(s)] = (xorshift_step(&mut seed) % 41) as u8;
                }
            }
            let (x, y) = (v[0], v[1]);
            assert_eq!(merge(&x, &y), merge_by_slot(&x, &y), "{x:?} {y:?}");
            assert_eq!(merge(&x, &y).map(|n| n == 255), JUNK.map(|j| j == 255));
        }
    }

    /// The vector test of the lanes a least split uses equals the lane-by-lane one, for every
    /// target size, on random numbers and least numbers that often tie.
    #[test]
    fn used_lanes_equal_used_lanes_by_slot() {
        fn check<const N: usize>(seed: &mut u64) {
            let mut v = [JUNK; 2];
            for x in v.iter_mut() {
                for s in 0..SLOTS {
                    x[lane(s)] = (xorshift_step(seed) % 6) as u8;
                }
            }
            let best = (xorshift_step(seed) % 8) as u8;
            let (x, o) = (v[0], v[1]);
            assert_eq!(
                used_lanes::<N>(&x, &o, best),
                used_lanes_by_slot::<N>(&x, &o, best),
                "{N} {x:?} {o:?} {best}"
            );
        }
        let mut seed = 0x0DDB_A11C_0FFE_E123u64;
        for _ in 0..20_000 {
            check::<0>(&mut seed);
            check::<1>(&mut seed);
            check::<2>(&mut seed);
            check::<3>(&mut seed);
            check::<4>(&mut seed);
        }
    }

    #[test]
    fn hand_worked_examples() {
        let q = |s: &str, w| query(&counts_of(&parse_mpsz(s).unwrap()), w).unwrap();
        // Tenpai on 1z (tanki) and complete.
        assert_eq!(q("123m456p789s1122z", Kinds::Necessary), (1, 1 << 27 | 1 << 28));
        assert_eq!(q("123m456p789s11222z", Kinds::None).0, 0);
        // 13 orphans waiting on all 13.
        assert_eq!(q("19m19p19s1234567z", Kinds::Necessary), (1, YAOCHU_KINDS));
        // Five pairs among six kinds with four 1z: three short as chiitoitsu (7 - 5 pairs + 1
        // kind missing) and as four melds (111z, and three of the four pairs must become sets).
        assert_eq!(q("1188m288p55s1111z", Kinds::None).0, 3);
        // Four of a kind: the fifth copy cannot be waited on.
        assert_eq!(q("1111m234p567s789s", Kinds::None).0, 2);
        // Three melds called: 1234m waits on 1m or 4m. 12234m is one tile short (22 + 234m),
        // and stays so when it lets go of 1m, 2m or 4m (2234m, 1234m, 1223m) but not of 3m
        // (1224m is two short).
        assert_eq!(q("1234m", Kinds::Necessary), (1, 0b1001));
        assert_eq!(q("12234m", Kinds::Unnecessary), (1, 0b1011));
        assert_eq!(query(&[5; KINDS], Kinds::None), Err(InvalidHand));
        // More than 4 of a kind anywhere in a suit, whatever the count.
        for (k, c) in [(0, 5), (4, 7), (8, 8), (3, 13), (6, 255)] {
            let mut h = [0u8; 9];
            h[k] = c;
            assert!(TABLES.numbers.find::<9>(&h).is_none(), "{h:?}");
            assert!(TABLES.honors.find::<7>(suit_counts(&h, 0)).is_none() || k >= 7, "{h:?}");
        }
        assert_eq!(query(&counts_of(&parse_mpsz("123m456p789s").unwrap()), Kinds::None), Err(InvalidHand));
    }

    /// Checks `d`, the [`Discards`] of `c`, against the oracle: the hand's unnecessary kinds and
    /// the necessary kinds after each discard (a kind not held is refused). Returns the number
    /// of discards checked.
    /// Every discard is asked both ways: plainly, and remembering in one [`DiscardMemory`]
    /// forward, then backward and forward again (the answers it keeps per suit must be those of
    /// their own discards, in any order, on a repeat, and once a suit's slots are reused).
    fn check_discards(d: Discards, c: &Counts, memory: &mut DiscardMemory) -> usize {
        assert_eq!(d.unnecessary(), oracle(c, Kinds::Unnecessary), "{c:?}");
        let mut checked = 0;
        memory.clear();
        for (pass, k) in (0..KINDS)
            .map(|k| (0, k))
            .chain((0..KINDS).rev().map(|k| (1, k)))
            .chain((0..KINDS).map(|k| (2, k)))
        {
            let mut less = *c;
            if less[k] == 0 {
                assert_eq!(d.necessary_without(k), Err(InvalidHand));
                assert_eq!(d.necessary_without_remembering(k, memory), Err(InvalidHand));
                continue;
            }
            less[k] -= 1;
            let want = oracle(&less, Kinds::Necessary);
            if pass == 0 {
                assert_eq!(d.necessary_without(k).unwrap(), want, "{c:?} - {k}");
            }
            assert_eq!(d.necessary_without_remembering(k, memory).unwrap(), want, "{c:?} - {k}, pass {pass}");
            checked += 1;
        }
        checked
    }

    /// The hand one discard away, queried through [`Discards`], is the hand queried whole: for
    /// every held kind of random 3n+2 hands of every size and kind of draw (a wrong suit index,
    /// a stale pair merge or a missing chiitoitsu / kokushi form shows here).
    #[test]
    fn discards_equal_whole_queries() {
        let mut seed = 0x5EED_D15C_A4D5_u64;
        let mut checked = 0;
        // One memory for every hand, cleared between them, as second-order ukeire uses it.
        let mut memory = DiscardMemory::default();
        for round in 0..3000 {
            let draw = [Draw::Uniform, Draw::Clumped, Draw::Pairs][round % 3];
            let tiles = [14, 14, 11, 8, 5, 2][round % 6];
            let c = random_hand(&mut seed, tiles, draw);
            checked += check_discards(Discards::new(&c).unwrap(), &c, &mut memory);
        }
        assert!(checked > 10_000, "{checked}");
        let mut thirteen = [0u8; KINDS];
        thirteen[..13].fill(1);
        assert!(Discards::new(&thirteen).is_err(), "a 3n+1 hand has no discards to query");
    }

    /// A hand one draw or one call away from a base hand, queried through [`Discards::near`], is
    /// the hand queried whole: random 3n+1 base hands of every size, each with every kind drawn
    /// and every pair of same-suit tiles taken out (a call), and every discard of each.
    #[test]
    fn near_discards_equal_whole_ones() {
        let mut seed = 0x0EA5_D2A3_u64;
        let mut checked = 0;
        let mut memory = DiscardMemory::default();
        for round in 0..600 {
            let draw = [Draw::Uniform, Draw::Clumped, Draw::Pairs][round % 3];
            let base = random_hand(&mut seed, [13, 10, 7, 4][round % 4], draw);
            let draws = Draws::new(&base).unwrap();
            let mut near: Vec<(Counts, usize)> = Vec::new();
            for t in (0..KINDS).filter(|&t| base[t] < 4) {
                let mut c = base;
                c[t] += 1;
                near.push((c, t / 9));
            }
            for a in (0..KINDS).filter(|&a| base[a] > 0) {
                for b in (a..KINDS).filter(|&b| b / 9 == a / 9 && base[b] > u8::from(a == b)) {
                    let mut c = base;
                    c[a] -= 1;
                    c[b] -= 1;
                    near.push((c, a / 9));
                }
            }
            for (c, suit) in near {
                checked += check_discards(Discards::near(&draws, &c, suit).unwrap(), &c, &mut memory);
            }
        }
        assert!(checked > 100_000, "{checked}");
        let base = random_hand(&mut 7, 13, Draw::Uniform);
        let draws = Draws::new(&base).unwrap();
        assert_eq!(Discards::near(&draws, &base, 0).err(), Some(InvalidHand), "a 3n+1 hand has no discards");
    }

    /// How a random hand's tiles are drawn.
    #[derive(Clone, Copy, PartialEq)]
    enum Draw {
        /// Each tile any kind.
        Uniform,
        /// Most tiles near the last one, so runs, pairs and sets (and so ties between splits
        /// and forms) are common.
        Clumped,
        /// Two or more copies of a kind at a time, so chiitoitsu and kokushi often decide.
        Pairs,
    }

    /// A random hand of `tiles` tiles.
    fn random_hand(seed: &mut u64, tiles: usize, draw: Draw) -> Counts {
        let mut c = [0u8; KINDS];
        let mut n = 0;
        let mut last = (xorshift_step(seed) % KINDS as u64) as usize;
        while n < tiles {
            let r = xorshift_step(seed);
            if draw == Draw::Pairs {
                // Mostly terminals and honours, so kokushi is in play too.
                let k = if r % 3 == 0 {
                    (r >> 8) as usize % KINDS
                } else {
                    [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33][(r >> 8) as usize % 13]
                };
                let copies = (1 + (r >> 20) % 4).min(4 - c[k] as u64).min((tiles - n) as u64) as u8;
                c[k] += copies;
                n += copies as usize;
                continue;
            }
            let k = if draw == Draw::Clumped && r % 4 != 0 {
                (last as i64 + (r >> 8) as i64 % 5 - 2).clamp(0, KINDS as i64 - 1) as usize
            } else {
                (r >> 8) as usize % KINDS
            };
            if c[k] < 4 {
                c[k] += 1;
                n += 1;
                last = k;
            }
        }
        c
    }

    /// Same numbers and kinds as the `xiangting` crate on random hands of every size (1 to 14
    /// tiles, closed and after calls), uniform, clumped and in pairs, 3 x 300,000 queries.
    #[test]
    fn agrees_with_xiangting_on_random_hands() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        for i in 0..300_000 {
            let tiles = [13, 14, 13, 14, 10, 11, 7, 8, 4, 5, 1, 2][i % 12];
            let c = random_hand(&mut seed, tiles, [Draw::Uniform, Draw::Clumped, Draw::Pairs][i % 3]);
            for w in ALL_QUERIES {
                assert_eq!(query(&c, w), Ok(oracle(&c, w)), "{} {}", crate::tile::format_counts(&c), w as u8);
                checked += 1;
            }
        }
        assert_eq!(checked, 900_000);
    }

    /// Same as the crate on the 40,000 kobalab golden hands (14 tiles, and 13 after dropping
    /// each hand's last tile).
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn agrees_with_xiangting_on_kobalab_hands() {
        let hands = crate::testdata::need_kobalab_hands();
        let mut checked = 0;
        for (tiles, _) in hands {
            let full = counts_of(&tiles);
            let mut short = full;
            short[tiles[13].kind()] -= 1;
            for c in [full, short] {
                for w in ALL_QUERIES {
                    assert_eq!(query(&c, w), Ok(oracle(&c, w)), "{}", crate::tile::format_counts(&c));
                }
                checked += 1;
            }
        }
        assert_eq!(checked, 80_000);
    }
}
