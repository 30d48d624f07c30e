//! Shanten: how many tile exchanges a hand is from tenpai.
//!
//! Two engines, each where it is strongest:
//! - [`min_shanten`], [`necessary_kinds`] and [`unnecessary_kinds`] answer from
//!   [`super::replacement`]'s per-suit tables (the minimum over all three forms, the `xiangting`
//!   crate's results) through a per-thread cache. This is the hot path: features and evaluators
//!   call it for every option of every decision.
//! - [`standard_with`] is our own exact "distance" DP: the fewest tiles to add so the hand contains a
//!   target of `4 - melds` melds plus a pair, with at most 4 copies of any tile in the target. It
//!   works per suit and combines the suits by min-plus convolution. Its value is that the allowed
//!   groups are a parameter ([`Shape`]): the same code gives the plain standard form, tanyao-only,
//!   one-suit (flush) shanten, chanta-only and toitoi-only shanten that the yaku features need.
//!   Per-suit results are memoised per thread, so repeated suit patterns cost one hash lookup.
//!   The plain standard form of a valid hand is answered from the replacement tables instead
//!   (same number: 電脳麻将's yaku-aware shanten asks it of millions of short hands per game).
//!
//! Shanten of a complete hand is -1; a 13-tile tenpai hand is 0.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::tile::{is_yaochu, Counts, Kind, KINDS};
use crate::util::IntHasher;

/// Which groups a target hand may use: the plain standard form or a yaku-restricted one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Any runs, sets and pair.
    Standard,
    /// Only 2-8 tiles (tanyao).
    Tanyao,
    /// Only tiles of one suit (0 m, 1 p, 2 s) plus honors (honitsu).
    HalfFlush(u8),
    /// Only tiles of one suit (chinitsu).
    FullFlush(u8),
    /// Every group holds a terminal or honor (chanta / junchan shapes).
    Chanta,
    /// Only sets and the pair, no runs (toitoi).
    Toitoi,
}

/// Per-suit rule: which positions may start a run, hold a set, hold the pair.
#[derive(Clone, Copy)]
struct SuitRule {
    runs: u16,
    sets: u16,
    pairs: u16,
}

const ALL9: u16 = 0x1ff;
const NONE: SuitRule = SuitRule { runs: 0, sets: 0, pairs: 0 };

impl Shape {
    /// The rule for suit `s` (0..=2), and whether honors may be used.
    fn suit_rule(self, s: usize) -> SuitRule {
        match self {
            Shape::Standard => SuitRule { runs: 0x7f, sets: ALL9, pairs: ALL9 },
            Shape::Tanyao => SuitRule { runs: 0b0111110, sets: 0x0fe, pairs: 0x0fe },
            Shape::HalfFlush(x) | Shape::FullFlush(x) if x as usize != s => NONE,
            Shape::HalfFlush(_) | Shape::FullFlush(_) => Shape::Standard.suit_rule(s),
            Shape::Chanta => SuitRule { runs: 0b1000001, sets: 0x101, pairs: 0x101 },
            Shape::Toitoi => SuitRule { runs: 0, sets: ALL9, pairs: ALL9 },
        }
    }

    fn honors_allowed(self) -> bool {
        !matches!(self, Shape::Tanyao | Shape::FullFlush(_))
    }
}

/// `dist[m][p]`: fewest tiles to add so a group of tiles contains exactly `m` melds and `p` pairs.
type Dist = [[u8; 2]; 5];
const INF: u8 = 99;

/// Exact per-suit distance by a DP over positions. State: runs started at i-2 (still need tile i),
/// runs started at i-1 (need i and i+1), melds so far, pair so far.
fn suit_dist(h: &[u8], rule: SuitRule) -> Dist {
    // dp[a][b][m][p]
    let mut dp = [[[[INF; 2]; 5]; 5]; 5];
    dp[0][0][0][0] = 0;
    for (i, &hi) in h.iter().enumerate() {
        let mut next = [[[[INF; 2]; 5]; 5]; 5];
        let bit = 1u16 << i;
        let max_c = if rule.runs & bit != 0 { 4 } else { 0 };
        let max_s = u8::from(rule.sets & bit != 0);
        let pair_ok = rule.pairs & bit != 0;
        for a in 0..5usize {
            for b in 0..5usize {
                for m in 0..5usize {
                    for p in 0..2usize {
                        let cur = dp[a][b][m][p];
                        if cur >= INF {
                            continue;
                        }
                        for c in 0..=max_c.min(4 - m) {
                            for s in 0..=max_s {
                                let m2 = m + c + s as usize;
                                if m2 > 4 {
                                    continue;
                                }
                                for q in 0..=u8::from(pair_ok && p == 0) {
                                    let need = (a + b + c) as u8 + 3 * s + 2 * q;
                                    if need > 4 {
                                        continue;
                                    }
                                    let cost = cur + need.saturating_sub(hi);
                                    let slot = &mut next[b][c][m2][p + q as usize];
                                    if cost < *slot {
                                        *slot = cost;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        dp = next;
    }
    let mut out = [[INF; 2]; 5];
    for (m, row) in out.iter_mut().enumerate() {
        for (p, v) in row.iter_mut().enumerate() {
            *v = dp[0][0][m][p];
        }
    }
    out
}

/// Honors only form sets and pairs, each kind on its own.
///
/// The distances depend only on how many kinds are held once, twice, three and four times (the
/// kinds play the same part, and the DP below takes the best over every assignment of groups to
/// kinds), so they are read from a table of those four numbers built once per process: every
/// shape's every suit query asks for the honours, and the DP costs hundreds of steps.
fn honor_dist(h: &[u8], allowed: bool) -> Dist {
    if !allowed {
        let mut out = [[INF; 2]; 5];
        out[0][0] = 0;
        return out;
    }
    match honor_class(h) {
        Some(i) => HONOR_DISTS[i],
        None => honor_dist_dp(h),
    }
}

/// The index of [`HONOR_DISTS`] of the 7 honour counts `h`: kinds held 1, 2, 3, 4 times, 3 bits
/// each (the rest are not held); `None` for more than 4 of a kind or not 7 kinds.
fn honor_class(h: &[u8]) -> Option<usize> {
    if h.len() != 7 {
        return None;
    }
    let mut n = [0usize; 5];
    for &c in h {
        *n.get_mut(c as usize)? += 1;
    }
    (n.iter().all(|&x| x < 8)).then(|| n[1] | n[2] << 3 | n[3] << 6 | n[4] << 9)
}

/// [`honor_dist_dp`] of every class of [`honor_class`] (a representative of each: kinds in
/// order holding 4, then 3, 2 and 1, then none up to 7 kinds).
static HONOR_DISTS: std::sync::LazyLock<Vec<Dist>> = std::sync::LazyLock::new(|| {
    (0..1usize << 12)
        .map(|i| {
            let mut h = Vec::new();
            for (count, shift) in [(4u8, 9), (3, 6), (2, 3), (1, 0)] {
                h.extend(std::iter::repeat_n(count, i >> shift & 7));
            }
            // The kinds not held count too (a set or pair of them is drawn whole).
            h.resize(h.len().max(7), 0);
            honor_dist_dp(&h)
        })
        .collect()
});

/// [`honor_dist`] by its DP, kind by kind.
fn honor_dist_dp(h: &[u8]) -> Dist {
    let mut out = [[INF; 2]; 5];
    out[0][0] = 0;
    for &hi in h {
        let mut next = out;
        for m in 0..5 {
            for p in 0..2 {
                let cur = out[m][p];
                if cur >= INF {
                    continue;
                }
                if m < 4 {
                    let v = cur + 3u8.saturating_sub(hi);
                    next[m + 1][p] = next[m + 1][p].min(v);
                }
                if p == 0 {
                    let v = cur + 2u8.saturating_sub(hi);
                    next[m][1] = next[m][1].min(v);
                }
            }
        }
        out = next;
    }
    out
}

fn combine(x: &Dist, y: &Dist) -> Dist {
    let mut out = [[INF; 2]; 5];
    for m1 in 0..5 {
        for p1 in 0..2 {
            let a = x[m1][p1];
            if a >= INF {
                continue;
            }
            for m2 in 0..5 - m1 {
                for p2 in 0..2 - p1 {
                    let b = y[m2][p2];
                    let slot = &mut out[m1 + m2][p1 + p2];
                    *slot = (*slot).min(a.saturating_add(b));
                }
            }
        }
    }
    out
}

thread_local! {
    static SUIT_MEMO: RefCell<HashMap<u64, Dist, std::hash::BuildHasherDefault<IntHasher>>> =
        RefCell::new(HashMap::default());
}

fn suit_code(h: &[u8]) -> u32 {
    h.iter().fold(0u32, |acc, &c| acc * 5 + c as u32)
}

fn suit_dist_memo(h: &[u8], shape: Shape, suit: usize) -> Dist {
    let rule = shape.suit_rule(suit);
    if rule.runs == 0 && rule.sets == 0 && rule.pairs == 0 {
        let mut out = [[INF; 2]; 5];
        out[0][0] = 0;
        return out;
    }
    // The key is the pattern plus the rule bits, so shapes that share a suit rule share entries.
    let key =
        suit_code(h) as u64 | (rule.runs as u64) << 21 | (rule.sets as u64) << 28 | (rule.pairs as u64) << 37;
    SUIT_MEMO.with(|memo| {
        if let Some(d) = memo.borrow().get(&key) {
            return *d;
        }
        let d = suit_dist(h, rule);
        memo.borrow_mut().insert(key, d);
        d
    })
}

/// Shanten of the standard form (or a restricted [`Shape`]) for the concealed `counts` of a hand
/// with `melds` melds already made. `None` when no target exists (e.g. tanyao with too few
/// usable tile slots cannot happen, but a shape can exclude every group).
///
/// The plain standard form of a valid concealed part is answered from [`super::replacement`]'s
/// per-suit tables (the same number, faster); restricted shapes and anything the tables refuse
/// go through the DP.
pub fn standard_with(counts: &Counts, melds: usize, shape: Shape) -> Option<i8> {
    if shape == Shape::Standard && melds <= 4 {
        if let Ok(n) = super::replacement::standard_number(counts, 4 - melds) {
            return Some(n as i8 - 1);
        }
    }
    dp_standard_with(counts, melds, shape)
}

/// [`standard_with`] by the per-suit DP, for every shape.
fn dp_standard_with(counts: &Counts, melds: usize, shape: Shape) -> Option<i8> {
    let mut total = suit_of(counts, shape, 0);
    for i in 1..4 {
        total = combine(&total, &suit_of(counts, shape, i));
    }
    shanten_of(&total, melds)
}

/// The shanten a hand's combined distances give with `melds` melds made: the distance to the
/// remaining melds and a pair, less one; `None` when no target exists.
fn shanten_of(total: &Dist, melds: usize) -> Option<i8> {
    let d = total[4usize.checked_sub(melds)?][1];
    (d < INF).then(|| d as i8 - 1)
}

/// [`standard_with`] for the hands one discard away from a base hand, sharing the suits the
/// discard leaves alone.
///
/// Why: the yaku features ask ten shapes of every option of a decision, and an option differs
/// from the hand before the discard in one suit only. Built once per decision and shape, the
/// base keeps each suit's distances and, per suit, the combination of the other three, so an
/// option costs one suit lookup and one combination instead of four and three. The result is
/// [`standard_with`]'s exactly: the min-plus combination is associative and commutative on the
/// finite distances, and any sum at or above `INF` reads as no target in either order (test
/// `shape_base_equals_standard_with`).
#[derive(Clone, Debug)]
pub struct ShapeBase {
    shape: Shape,
    /// The combination of the three suits other than suit i (honours are suit 3).
    others: [Dist; 4],
}

impl ShapeBase {
    pub fn new(counts: &Counts, shape: Shape) -> ShapeBase {
        let d: [Dist; 4] = std::array::from_fn(|i| suit_of(counts, shape, i));
        // The pairs m + p and s + honours combined once each: 6 combinations instead of 8.
        let (front, back) = (combine(&d[0], &d[1]), combine(&d[2], &d[3]));
        let others =
            [combine(&d[1], &back), combine(&d[0], &back), combine(&front, &d[3]), combine(&front, &d[2])];
        ShapeBase { shape, others }
    }

    /// [`standard_with`] of `counts`, which must equal the base hand outside the suit of `kind`.
    /// Only the one slot of the combination that [`shanten_of`] reads is combined.
    pub fn with_suit_changed(&self, counts: &Counts, kind: Kind, melds: usize) -> Option<i8> {
        let i = (kind / 9).min(3);
        let need = 4usize.checked_sub(melds)?;
        let (x, y) = (&self.others[i], &suit_of(counts, self.shape, i));
        // `combine`'s slot [need][1], term by term in its order.
        let mut d = INF;
        for m1 in 0..=need {
            for p1 in 0..2 {
                let a = x[m1][p1];
                if a < INF {
                    d = d.min(a.saturating_add(y[need - m1][1 - p1]));
                }
            }
        }
        (d < INF).then(|| d as i8 - 1)
    }
}

/// The distances of suit `i` of `counts` (3: the honours) under `shape`.
fn suit_of(counts: &Counts, shape: Shape, i: usize) -> Dist {
    if i < 3 {
        suit_dist_memo(&counts[i * 9..i * 9 + 9], shape, i)
    } else {
        honor_dist(&counts[27..34], shape.honors_allowed())
    }
}

/// Standard-form shanten (our DP, no restriction).
pub fn standard(counts: &Counts, melds: usize) -> i8 {
    standard_with(counts, melds, Shape::Standard).expect("the standard form always has a target")
}

/// Chiitoitsu shanten, Tenhou's way: four of a kind is one pair, not two.
/// Only for closed hands of 13 or 14 tiles; `None` otherwise.
pub fn chiitoitsu(counts: &Counts) -> Option<i8> {
    let n: u32 = counts.iter().map(|&c| c as u32).sum();
    if n < 13 {
        return None;
    }
    let pairs = counts.iter().filter(|&&c| c >= 2).count() as i8;
    let kinds = counts.iter().filter(|&&c| c >= 1).count() as i8;
    Some(6 - pairs + (7 - kinds).max(0))
}

/// Kokushi musou shanten; only for closed hands of 13 or 14 tiles.
pub fn kokushi(counts: &Counts) -> Option<i8> {
    let n: u32 = counts.iter().map(|&c| c as u32).sum();
    if n < 13 {
        return None;
    }
    let yao = (0..KINDS).filter(|&k| is_yaochu(k));
    let kinds = yao.clone().filter(|&k| counts[k] > 0).count() as i8;
    let pair = yao.clone().any(|k| counts[k] >= 2);
    Some(13 - kinds - i8::from(pair))
}

/// Minimum shanten over all forms, by [`super::replacement`]. `counts` must be a valid
/// concealed part (3n+1 or 3n+2 tiles, at most 14, at most 4 of a kind).
/// Cached per thread (see [`super::memo`]).
#[inline]
pub fn min_shanten(counts: &Counts) -> i8 {
    cached(counts, Query::Shanten).0
}

/// The kinds that lower the minimum shanten of a 3n+1-tile hand when drawn, as a bit set over
/// kinds (bit k = kind k), together with that shanten. Cached per thread.
#[inline]
pub fn necessary_kinds(counts: &Counts) -> (i8, u64) {
    cached(counts, Query::Necessary)
}

/// The minimum shanten of a 3n+2-tile hand and the kinds whose discard keeps it, as a bit set
/// over kinds (xiangting's unnecessary tiles). Cached per thread.
#[inline]
pub fn unnecessary_kinds(counts: &Counts) -> (i8, u64) {
    cached(counts, Query::Unnecessary)
}

#[derive(Clone, Copy)]
enum Query {
    Shanten = 1,
    Necessary = 2,
    Unnecessary = 3,
}

/// Slots of the per-thread xiangting cache (2^14 x 32 bytes = 512 KiB per thread: it stays in
/// the core's L2). Most misses are new hands, so more slots barely raise the hit rate and make
/// every lookup slower, the cache then spilling out of L2 (docs/performance.md has the timings).
const XIANGTING_CACHE_BITS: u32 = 14;

thread_local! {
    static XIANGTING: RefCell<super::memo::Direct<u128, u64>> =
        RefCell::new(super::memo::Direct::new(XIANGTING_CACHE_BITS));
}

/// A xiangting query through the per-thread cache ([`through_cache`]).
fn cached(counts: &Counts, q: Query) -> (i8, u64) {
    cached_packed(counts, super::memo::pack(counts), q)
}

/// [`necessary_kinds`] of counts whose [`super::memo::pack`] the caller keeps at hand (the
/// expected-value search keeps every hand packed), so the query skips packing 34 counts.
#[inline]
pub fn necessary_kinds_packed(counts: &Counts, packed: u128) -> (i8, u64) {
    cached_packed(counts, packed, Query::Necessary)
}

/// [`unnecessary_kinds`] with the counts' [`super::memo::pack`] given, as
/// [`necessary_kinds_packed`].
#[inline]
pub fn unnecessary_kinds_packed(counts: &Counts, packed: u128) -> (i8, u64) {
    cached_packed(counts, packed, Query::Unnecessary)
}

/// The xiangting questions second-order ukeire asks of a 3n+2 hand: its [`unnecessary_kinds`],
/// then the [`necessary_kinds`] of the hands one discard away. The same answers through the same
/// cache, but the misses share one [`Discards`] of the hand, built at the first miss: the hand's
/// own query merges the suits it keeps, and a hand one discard away changes one suit, so it looks
/// up that suit and merges one pair instead of querying a new hand from scratch.
///
/// [`Discards`]: super::replacement::Discards
pub struct DiscardQueries<'c> {
    counts: &'c Counts,
    packed: u128,
    whole: Option<super::replacement::Discards>,
    /// A hand that differs from this one in one suit, and the suit, when the caller has it (the
    /// hand before a draw or a call): a miss then builds
    /// [`Discards`](super::replacement::Discards) from that hand's suits.
    from: Option<(&'c DrawBase<'c>, usize)>,
}

/// A hand whose neighbours (one tile drawn, or a call's two tiles taken out) are queried as
/// [`DiscardQueries::near`]: its [`Draws`](super::replacement::Draws) are built at the first miss
/// of any of them, so a search that finds every neighbour in the cache builds nothing.
pub struct DrawBase<'c> {
    counts: &'c Counts,
    draws: std::cell::OnceCell<super::replacement::Draws>,
}

impl<'c> DrawBase<'c> {
    /// `counts` must be a concealed hand of at most 14 tiles.
    pub fn new(counts: &'c Counts) -> Self {
        DrawBase { counts, draws: std::cell::OnceCell::new() }
    }

    fn draws(&self) -> &super::replacement::Draws {
        self.draws.get_or_init(|| {
            super::replacement::Draws::new(self.counts).unwrap_or_else(|_| invalid(self.counts))
        })
    }
}

impl<'c> DiscardQueries<'c> {
    /// `counts` must be a concealed hand of 3n+2 tiles (at most 14).
    pub fn new(counts: &'c Counts) -> Self {
        Self::with_packed(counts, super::memo::pack(counts))
    }

    /// [`Self::new`] of counts whose [`super::memo::pack`] the caller keeps at hand.
    pub fn with_packed(counts: &'c Counts, packed: u128) -> Self {
        debug_assert_eq!(packed, super::memo::pack(counts), "packed counts out of step");
        DiscardQueries { counts, packed, whole: None, from: None }
    }

    /// [`Self::with_packed`] of `counts`, a hand that differs from `base`'s in suit `suit`
    /// (0..=3) alone.
    pub fn near(base: &'c DrawBase<'c>, counts: &'c Counts, packed: u128, suit: usize) -> Self {
        debug_assert!(
            (0..KINDS).all(|k| k / 9 == suit || base.counts[k] == counts[k]),
            "hands differ outside suit {suit}"
        );
        DiscardQueries { counts, packed, whole: None, from: Some((base, suit)) }
    }

    /// The hand's [`Discards`](super::replacement::Discards), built at the first miss (from the
    /// hand one draw or call before when there is one: the same entries, fewer lookups).
    fn whole<'w>(
        whole: &'w mut Option<super::replacement::Discards>,
        counts: &Counts,
        from: Option<(&DrawBase, usize)>,
    ) -> &'w super::replacement::Discards {
        whole.get_or_insert_with(|| {
            let built = match from {
                Some((base, suit)) => super::replacement::Discards::near(base.draws(), counts, suit),
                None => super::replacement::Discards::new(counts),
            };
            built.unwrap_or_else(|_| invalid(counts))
        })
    }

    /// [`unnecessary_kinds`] of the hand.
    pub fn unnecessary(&mut self) -> (i8, u64) {
        let (counts, whole, from) = (self.counts, &mut self.whole, self.from);
        through_cache(self.packed, Query::Unnecessary, || Self::whole(whole, counts, from).unnecessary())
    }

    /// Starts loading the cache slot of [`Self::necessary_without`]`(d)` (see
    /// [`super::memo::Direct::prefetch`]).
    #[inline]
    pub fn prefetch_necessary_without(&self, d: Kind) {
        prefetch(self.packed.wrapping_sub(super::memo::unit(d)), Query::Necessary);
    }

    /// Starts loading the cache slot of [`Self::unnecessary`] of the hand packed as `packed`.
    #[inline]
    pub fn prefetch_unnecessary(packed: u128) {
        prefetch(packed, Query::Unnecessary);
    }

    /// [`Self::necessary_without`], a miss answered through `memory`, which must serve this
    /// hand alone ([`super::replacement::Discards::necessary_without_remembering`]).
    pub fn necessary_without_remembering(
        &mut self,
        d: Kind,
        memory: &mut super::replacement::DiscardMemory,
    ) -> (i8, u64) {
        self.necessary_through_cache(d, |w| w.necessary_without_remembering(d, memory))
    }

    /// [`necessary_kinds`] of the hand less one tile of kind `d`, which it must hold.
    pub fn necessary_without(&mut self, d: Kind) -> (i8, u64) {
        self.necessary_through_cache(d, |w| w.necessary_without(d))
    }

    /// The necessary kinds of the hand less one tile of kind `d` (which it must hold) through
    /// the per-thread cache, a miss answered by `ask` of the hand's
    /// [`Discards`](super::replacement::Discards).
    #[inline(always)]
    fn necessary_through_cache(
        &mut self,
        d: Kind,
        ask: impl FnOnce(&super::replacement::Discards) -> Result<(u8, u64), super::replacement::InvalidHand>,
    ) -> (i8, u64) {
        let (counts, whole, from) = (self.counts, &mut self.whole, self.from);
        if counts[d] == 0 {
            invalid(counts);
        }
        through_cache(self.packed - super::memo::unit(d), Query::Necessary, || {
            ask(Self::whole(whole, counts, from)).unwrap_or_else(|_| invalid(counts))
        })
    }
}

#[cold]
fn invalid(counts: &Counts) -> ! {
    panic!("invalid concealed hand {}", crate::tile::format_counts(counts))
}

#[inline]
fn cached_packed(counts: &Counts, packed: u128, q: Query) -> (i8, u64) {
    debug_assert_eq!(packed, super::memo::pack(counts), "packed counts out of step");
    through_cache(packed, q, || replacement_query(counts, q))
}

/// The per-thread cache's key and hash of query `q` of the hand packed as `packed`.
#[inline(always)]
fn key_of(packed: u128, q: Query) -> (u128, u64) {
    let key = packed | (q as u128) << 104;
    (key, super::memo::mix(key as u64, (key >> 64) as u64))
}

/// Starts loading the per-thread cache slot of query `q` of the hand packed as `packed`.
#[inline]
fn prefetch(packed: u128, q: Query) {
    let (_, hash) = key_of(packed, q);
    XIANGTING.with(|c| c.borrow().prefetch(hash));
}

/// Query `q` of the hand packed as `packed` through the per-thread cache: key = packed counts +
/// query, value = kinds (34 bits) and the replacement number (bits 56..); a miss asks `miss` for
/// the replacement number and kinds. Returns the shanten (replacement number - 1) and the kinds.
#[inline(always)]
fn through_cache(packed: u128, q: Query, miss: impl FnOnce() -> (u8, u64)) -> (i8, u64) {
    let (key, hash) = key_of(packed, q);
    let v = XIANGTING.with(|c| {
        let mut c = c.borrow_mut();
        c.get(key, hash).unwrap_or_else(|| {
            let (r, flags) = miss();
            let v = (r as u64) << 56 | flags;
            c.put(key, hash, v);
            v
        })
    });
    ((v >> 56) as i8 - 1, v & ((1 << 56) - 1))
}

/// A cache miss: the query answered by [`super::replacement`].
fn replacement_query(counts: &Counts, q: Query) -> (u8, u64) {
    use super::replacement::{query, Kinds};
    let which = match q {
        Query::Shanten => Kinds::None,
        Query::Necessary => Kinds::Necessary,
        Query::Unnecessary => Kinds::Unnecessary,
    };
    query(counts, which).unwrap_or_else(|_| invalid(counts))
}

/// Shanten by form, and the minimum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ShantenAll {
    pub shanten: i8,
    pub standard: i8,
    pub chiitoitsu: Option<i8>,
    pub kokushi: Option<i8>,
}

/// Shanten of every form for concealed `counts` with `melds` melds.
pub fn shanten_all(counts: &Counts, melds: usize) -> ShantenAll {
    let standard = standard(counts, melds);
    let (chiitoitsu, kokushi) = if melds == 0 { (chiitoitsu(counts), kokushi(counts)) } else { (None, None) };
    let shanten = [Some(standard), chiitoitsu, kokushi].into_iter().flatten().min().unwrap_or(standard);
    ShantenAll { shanten, standard, chiitoitsu, kokushi }
}

/// Kinds in a bit set (bits 0..34), in order. One step per kind in the set, not per kind that
/// exists: the search loops run over sets of a few kinds millions of times.
pub fn kinds_of(flags: u64) -> impl Iterator<Item = Kind> {
    let mut rest = flags & crate::tile::ALL_KINDS;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let k = rest.trailing_zeros() as Kind;
            rest &= rest - 1;
            k
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{counts_of, parse_mpsz};

    fn c(s: &str) -> Counts {
        counts_of(&parse_mpsz(s).unwrap())
    }

    /// [`XIANGTING_CACHE_BITS`]' doc: 2^14 slots of 32 bytes (a u128 key and a u64 answer), 512 KiB
    /// per thread.
    #[test]
    fn xiangting_cache_is_512_kib() {
        let slot = std::mem::size_of::<(u128, u64)>();
        assert_eq!((1usize << XIANGTING_CACHE_BITS, slot), (1 << 14, 32));
        assert_eq!((1usize << XIANGTING_CACHE_BITS) * slot, 512 * 1024);
    }

    #[test]
    fn basic_forms() {
        assert_eq!(standard(&c("123m456p789s1122z"), 0), 0);
        assert_eq!(standard(&c("123m456p789s11222z"), 0), -1);
        assert_eq!(chiitoitsu(&c("1188m288p55s1177z")), Some(0));
        assert_eq!(kokushi(&c("19m19p19s1234567z")), Some(0));
        // Four of a kind is not two pairs for chiitoitsu.
        assert_eq!(chiitoitsu(&c("1111m2288p55s1177z")), Some(1));
        // The fifth copy cannot be waited on: 1111m + 234p... is not tenpai on 1m.
        assert_eq!(standard(&c("1111m234p567s789s"), 0), 1);
    }

    /// A random hand of `tiles` tiles drawn so that runs, pairs and sets are common: each tile
    /// is a random kind one time in three, else within two kinds after the last.
    fn clumped_hand(next: &mut impl FnMut() -> u64, tiles: usize) -> Counts {
        let mut c = [0u8; KINDS];
        let mut n = 0;
        let mut k = (next() % KINDS as u64) as usize;
        while n < tiles {
            if next() % 3 == 0 {
                k = (next() % KINDS as u64) as usize;
            } else {
                k = (k + (next() % 3) as usize) % KINDS;
            }
            if c[k] < 4 {
                c[k] += 1;
                n += 1;
            }
        }
        c
    }

    /// The hand's own unnecessary kinds and the necessary kinds after each of a random set of its
    /// discards, asked cold (a miss answered from the hand's suits) and again warm (from the
    /// cache), are the `xiangting` crate's. Half the hands ask their own question first, so either
    /// kind of question can be the miss that builds the suits.
    #[test]
    fn discard_queries_equal_the_oracle() {
        let mut next = crate::testdata::xorshift(0xD15C_A4D5_0000_0001u64);
        let mut checked = 0;
        for _ in 0..400 {
            let melds = (next() % 5) as usize;
            let tiles = 14 - 3 * melds;
            let c = clumped_hand(&mut next, tiles);
            let discards = next() & crate::tile::ALL_KINDS;
            let ask_whole = next() % 2 == 0;
            for pass in ["cold", "warm"] {
                let mut q = DiscardQueries::new(&c);
                if ask_whole {
                    let (r, want) =
                        xiangting::calculate_unnecessary_tiles(&c, xiangting::PlayerCount::Four).unwrap();
                    assert_eq!(q.unnecessary(), (r as i8 - 1, want), "{pass}: {c:?}");
                }
                for d in kinds_of(discards).filter(|&d| c[d] > 0) {
                    let mut less = c;
                    less[d] -= 1;
                    let (r, want) =
                        xiangting::calculate_necessary_tiles(&less, xiangting::PlayerCount::Four).unwrap();
                    assert_eq!(q.necessary_without(d), (r as i8 - 1, want), "{pass}: {c:?} minus {d}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 2_000, "{checked}");
    }

    #[test]
    fn with_melds() {
        // 1 meld: 10 or 11 concealed tiles.
        assert_eq!(standard(&c("123m456p78s11z"), 1), 0);
        assert_eq!(standard(&c("123m456p789s11z"), 1), -1);
        // 4 melds: a single wait.
        assert_eq!(standard(&c("5z"), 4), 0);
        assert_eq!(standard(&c("55z"), 4), -1);
        assert_eq!(standard(&c("19m"), 4), 0);
        assert_eq!(standard(&c("1z9m"), 4), 0);
        // 3 melds, 4 concealed tiles.
        assert_eq!(standard(&c("1245m"), 3), 1);
        assert_eq!(standard(&c("1223m"), 3), 0);
        let all = shanten_all(&c("123m456p78s11z"), 1);
        assert_eq!((all.shanten, all.chiitoitsu, all.kokushi), (0, None, None));
        assert_eq!(min_shanten(&c("123m456p78s11z")), 0);
    }

    #[test]
    fn restricted_shapes() {
        let h = c("123m456p789s1122z");
        assert_eq!(standard_with(&h, 0, Shape::Standard), Some(0));
        // tanyao: 456p only usable meld group; needs 3 melds + pair from nothing else.
        assert!(standard_with(&h, 0, Shape::Tanyao).unwrap() > 0);
        let flush = c("12345678m111z22z");
        assert_eq!(standard_with(&flush, 0, Shape::HalfFlush(0)), Some(0));
        // Only the 8 man tiles count: at least 6 must be added (123 456 789m + 111m + 99m needs 6).
        assert_eq!(standard_with(&flush, 0, Shape::FullFlush(0)), Some(5));
        // A pinzu flush can only use 111z and 22z: 9 of 14 tiles are missing.
        assert_eq!(standard_with(&flush, 0, Shape::HalfFlush(1)), Some(8));
        assert_eq!(standard_with(&c("111m999p111s2233z"), 0, Shape::Toitoi), Some(0));
        assert_eq!(standard_with(&c("123m789p123s1122z"), 0, Shape::Chanta), Some(0));
        assert_eq!(standard_with(&c("234m789p123s1122z"), 0, Shape::Chanta), Some(1));
    }

    /// The per-suit tables' standard form ([`standard_with`] of [`Shape::Standard`]) equals the
    /// DP's on hands of every size from 0 to 14 tiles and every meld count, random and clumped,
    /// and on every honour pattern alone.
    #[test]
    fn standard_tables_equal_the_dp() {
        let mut next = crate::testdata::xorshift(0x5EED_7AB1_E5D0_0001u64);
        let mut checked = 0;
        for i in 0..40_000 {
            let tiles = (next() % 15) as usize;
            let c = if i % 2 == 0 {
                clumped_hand(&mut next, tiles)
            } else {
                crate::testdata::uniform_counts(&mut next, tiles)
            };
            for melds in 0..=4 {
                let want = dp_standard_with(&c, melds, Shape::Standard);
                assert_eq!(standard_with(&c, melds, Shape::Standard), want, "{c:?} {melds} melds");
                checked += 1;
            }
        }
        for code in 0..5u32.pow(7) {
            let mut c = [0u8; KINDS];
            let mut x = code;
            for k in 27..KINDS {
                c[k] = (x % 5) as u8;
                x /= 5;
            }
            if c.iter().map(|&x| x as usize).sum::<usize>() > 14 {
                continue;
            }
            for melds in 0..=4 {
                assert_eq!(
                    standard_with(&c, melds, Shape::Standard),
                    dp_standard_with(&c, melds, Shape::Standard)
                );
                checked += 1;
            }
        }
        assert!(checked > 300_000, "{checked}");
    }

    /// The honours' distances read from the class table equal the DP's on every pattern of 7
    /// honour counts, with honours allowed or not.
    #[test]
    fn honor_table_equals_the_dp() {
        for code in 0..5u32.pow(7) {
            let h: Vec<u8> = (0..7).map(|k| (code / 5u32.pow(k) % 5) as u8).collect();
            assert_eq!(honor_dist(&h, true), honor_dist_dp(&h), "{h:?}");
            let none = honor_dist(&h, false);
            assert_eq!(none[0][0], 0);
            assert!(none.iter().flatten().filter(|&&d| d < INF).count() == 1);
        }
    }

    /// [`ShapeBase`] gives [`standard_with`]'s answer for every one-tile discard of random
    /// hands, under every shape and meld count.
    #[test]
    fn shape_base_equals_standard_with() {
        let mut next = crate::testdata::xorshift(0x9e37_79b9_7f4a_7c15u64);
        let shapes = [
            Shape::Standard,
            Shape::Tanyao,
            Shape::HalfFlush(0),
            Shape::HalfFlush(2),
            Shape::FullFlush(1),
            Shape::Chanta,
            Shape::Toitoi,
        ];
        let mut checked = 0;
        for _ in 0..600 {
            let melds = (next() % 5) as usize;
            let tiles = 14 - 3 * melds;
            let c = clumped_hand(&mut next, tiles);
            for shape in shapes {
                let base = ShapeBase::new(&c, shape);
                for d in (0..KINDS).filter(|&d| c[d] > 0) {
                    let mut after = c;
                    after[d] -= 1;
                    assert_eq!(
                        base.with_suit_changed(&after, d, melds),
                        standard_with(&after, melds, shape),
                        "{shape:?} {c:?} minus {d}, {melds} melds"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 20_000, "{checked}");
    }

    #[test]
    fn kinds_of_lists_the_set_bits_below_34_in_order() {
        let mut next = crate::testdata::xorshift(0x9E37_79B9_7F4A_7C15u64);
        for flags in [0, 1, 1 << 33, (1 << 34) - 1, u64::MAX, 0b1011 << 30] {
            let want: Vec<Kind> = (0..KINDS).filter(|&k| flags >> k & 1 == 1).collect();
            assert_eq!(kinds_of(flags).collect::<Vec<_>>(), want, "{flags:#x}");
        }
        for _ in 0..10_000 {
            let x = next();
            let want: Vec<Kind> = (0..KINDS).filter(|&k| x >> k & 1 == 1).collect();
            assert_eq!(kinds_of(x).collect::<Vec<_>>(), want);
        }
    }

    #[test]
    fn necessary_tiles_match_brute_force() {
        let h = c("1234m567p88s1234z");
        let (s, flags) = necessary_kinds(&h);
        assert_eq!(s, min_shanten(&h));
        for k in 0..KINDS {
            let mut h2 = h;
            if h2[k] == 4 {
                continue;
            }
            h2[k] += 1;
            // 14 tiles: shanten after the best discard equals min_shanten of the 14-tile hand.
            let lowers = min_shanten(&h2) < s;
            assert_eq!(lowers, flags >> k & 1 == 1, "kind {k}");
        }
    }

    /// All 40,000 kobalab golden vectors: x = [standard, kokushi, chiitoitsu].
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn kobalab_golden_vectors() {
        let hands = crate::testdata::need_kobalab_hands();
        let mut checked = 0;
        let mut bad = Vec::new();
        for (tiles, want) in hands {
            let h = counts_of(&tiles);
            let all = shanten_all(&h, 0);
            let got = [all.standard, all.kokushi.unwrap(), all.chiitoitsu.unwrap()];
            let min = *want.iter().min().unwrap();
            // the replacement tables must give the same minimum
            if got != want || all.shanten != min || min_shanten(&h) != min {
                bad.push(format!(
                    "{}: want {want:?} got {got:?} min {}",
                    crate::tile::format_mpsz(&tiles),
                    min_shanten(&h)
                ));
            }
            checked += 1;
        }
        assert_eq!(checked, 40_000);
        assert!(bad.is_empty(), "{} mismatches, first: {:?}", bad.len(), &bad[..bad.len().min(5)]);
    }
}
