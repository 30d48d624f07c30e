//! The search of [`EvSearch`]: the value of 13- and 14-tile hands at shanten ≤ 2 over the draws
//! and calls that lower shanten, the shanten-back futures, and the per-thread leaf cache of
//! tenpai hands' wins.

use super::state::{five_bit, St};
use super::{EvSearch, WIDTH};
use crate::hand::shanten::{kinds_of, DiscardQueries, DrawBase};
use crate::replay::view::View;
use crate::score::{base_points_with, ScoreRules};
use crate::tile::{is_honor, Counts, Kind, Tile, KINDS};

thread_local! {
    /// 13-tile hands: shanten, necessary kinds and the points of their wins (see
    /// [`EvSearch::leaf`]); like wins, independent of the visible tiles.
    static LEAVES: std::cell::RefCell<crate::hand::memo::Direct<(u128, u64, u64), Leaf>> =
        std::cell::RefCell::new(crate::hand::memo::Direct::new(LEAF_CACHE_BITS));
}

/// Winning tiles whose points a leaf entry holds (more: the points are not cached there).
pub(super) const LEAF_WINS: usize = 5;

/// Slots of the per-thread leaf cache (2^14 x 64 bytes = 1 MiB per thread, half the core's L2).
/// A lookup that misses the core's caches stalls the search, so fewer slots win until the lost
/// hits cost more: against 2^15, median CPU of `scripts/compare_ingest.sh` (40 games, ABBA) was
/// 1.021-1.028x with 2^14, 0.978x with 2^13 and 0.946x with 2^17.
pub(super) const LEAF_CACHE_BITS: u32 = 14;

/// A leaf cache entry: `need` holds the necessary kinds (bits 0..34), "points valid" (bit 55)
/// and shanten + 1 (bits 56..); `points` the tsumo points of the winning tiles.
#[derive(Clone, Copy, Default)]
pub(super) struct Leaf {
    pub(super) need: u64,
    pub(super) points: [u32; LEAF_WINS],
}

/// The context word of the leaf cache (see [`EvSearch::win_ctx`]); bit 63 is always set so no key
/// is the empty slot's.
pub(super) fn win_context(pos: &View, rules: &ScoreRules) -> Option<u64> {
    if pos.dora_indicators.len() > 5 || pos.round_wind >= 64 || pos.seat_wind >= 64 {
        return None;
    }
    let mut w = 1u64 << 63
        | u64::from(rules.kuitan)
        | u64::from(rules.double_yakuman) << 1
        | u64::from(rules.kazoe_yakuman) << 2
        | u64::from(rules.kiriage_mangan) << 3
        | (pos.round_wind as u64) << 4
        | (pos.seat_wind as u64) << 10
        | (pos.dora_indicators.len() as u64) << 16;
    for (i, d) in pos.dora_indicators.iter().enumerate() {
        w |= (d.kind() as u64) << (19 + 6 * i);
    }
    Some(w)
}

impl EvSearch<'_> {
    /// Value of a 13-tile (3n+1) hand at shanten ≤ 2. `back` is 0, or 1 + the kind discarded by
    /// a shanten-raising root discard (then a hand that needs that kind is worth 0, no calls).
    pub(super) fn value13(&mut self, h: &St, back: u8) -> f64 {
        self.value13_given(h, back, || h.necessary())
    }

    /// [`Self::value13`] where `necessary` answers [`St::necessary`] of `h` (asked only when no
    /// cache holds the hand): the hand's parent one discard away answers it from the suits it
    /// already looked up ([`DiscardQueries`]).
    fn value13_given(&mut self, h: &St, back: u8, necessary: impl FnOnce() -> (i8, u64)) -> f64 {
        let key = h.key(back as u64);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let (s, need, points) = self.leaf(h, necessary);
        let held = h.all();
        let v = if back != 0 && need >> (back - 1) & 1 == 1 {
            0.0
        } else if s == 0 {
            let mut sum = 0.0;
            let mut i = 0;
            for k in kinds_of(need) {
                for t in self.variants(k) {
                    let n = self.unseen(&held, t);
                    if n > 0 {
                        let p = match points {
                            Some(p) => p[i] as f64,
                            None => self.win_points(h, t),
                        };
                        sum += n as f64 * p;
                    }
                    i += 1;
                }
            }
            sum / WIDTH[0]
        } else if s <= 2 {
            let mut sum = 0.0;
            let base = DrawBase::new(&h.c);
            for k in kinds_of(need) {
                for t in self.variants(k) {
                    let n = self.unseen(&held, t);
                    if n == 0 {
                        continue;
                    }
                    let mut v = self.value14_from(&h.with(t), back, Some((&base, k / 9)));
                    if back == 0 {
                        v += self.call_term(h, t, s, &base);
                    }
                    sum += n as f64 * v;
                }
            }
            sum / WIDTH[s as usize]
        } else {
            self.far(h)
        };
        self.memo.insert(key, v);
        v
    }

    /// Value of a 14-tile (3n+2) hand at shanten 0..=2: the best discard that keeps shanten.
    ///
    /// Not memoised: a repeat costs a cached xiangting query and one memo hit per kept discard,
    /// while a memo entry per 14-tile node grows the map the whole search probes, so the memo
    /// would cost more than it saves.
    pub(super) fn value14(&mut self, h: &St, back: u8) -> f64 {
        self.value14_from(h, back, None)
    }

    /// [`Self::value14`] of `h`, which is `base`'s hand plus one tile of suit `suit` when `from`
    /// is `Some((base, suit))` (its xiangting misses then look up one suit instead of four:
    /// [`DrawBase`]), as `from` of [`Self::after_call`].
    fn value14_from(&mut self, h: &St, back: u8, from: Option<(&DrawBase, usize)>) -> f64 {
        let mut q = match from {
            Some((base, suit)) => DiscardQueries::near(base, &h.c, h.packed, suit),
            None => DiscardQueries::with_packed(&h.c, h.packed),
        };
        let (_, keep) = q.unnecessary();
        let mut best = 0.0f64;
        for d in kinds_of(keep) {
            if h.c[d] > 0 {
                let v = self.value13_given(&h.without(h.discard_tile(d)), back, || q.necessary_without(d));
                best = best.max(v);
            }
        }
        best
    }

    /// The call part of tile t's term in a 13-tile hand at shanten `s` ≥ 1; `base` is `h`'s
    /// (a call changes one suit of it).
    pub(super) fn call_term(&mut self, h: &St, t: Tile, s: i8, base: &DrawBase) -> f64 {
        let k = t.kind();
        let from = (base, k / 9);
        let mut pon = 0.0f64;
        if h.c[k] >= 2 {
            h.for_each_pon(t, |after| pon = pon.max(self.after_call(after, s, &[k], from)));
        }
        let mut chi = 0.0f64;
        if !is_honor(k) {
            h.for_each_chi(t, |after, forbidden| chi = chi.max(self.after_call(after, s, forbidden, from)));
        }
        if pon > chi {
            3.0 * pon
        } else {
            2.0 * pon + chi
        }
    }

    /// Value of the hand right after a call (3n+2 concealed tiles): 0 unless the call lowered
    /// shanten below `s`, else the best discard that keeps the new shanten and is not kuikae.
    ///
    /// Not memoised: a hand after a call is almost never reached twice in one search (6,882,323
    /// calls and 14,733 repeats over 20 shared games), so a memo entry would only cost a hash
    /// insert and grow the map; the hands after its discards are memoised by [`Self::value13`].
    ///
    /// `from`: the hand before the call and the called suit, the only suit in which the two
    /// hands' concealed tiles differ.
    pub(super) fn after_call(&mut self, h: &St, s: i8, forbidden: &[Kind], from: (&DrawBase, usize)) -> f64 {
        let mut q = DiscardQueries::near(from.0, &h.c, h.packed, from.1);
        let (r, keep) = q.unnecessary();
        let mut best = 0.0f64;
        if r < s {
            for d in kinds_of(keep) {
                if h.c[d] > 0 && !forbidden.contains(&d) {
                    let v = self.value13_given(&h.without(h.discard_tile(d)), 0, || q.necessary_without(d));
                    best = best.max(v);
                }
            }
        }
        best
    }

    /// Value of a shanten-raising root discard of kind `back` leaving `h` (13 tiles, shanten ≤ 2):
    /// draws of `back` are skipped and futures worth `min` or less count as 0.
    pub(super) fn back_value(&mut self, h: &St, back: Kind, min: f64) -> f64 {
        let (s, need) = h.necessary();
        let held = h.all();
        let mut sum = 0.0;
        for k in kinds_of(need).filter(|&k| k != back) {
            for t in self.variants(k) {
                let n = self.unseen(&held, t);
                if n == 0 {
                    continue;
                }
                let v = if s == 0 { self.win_points(h, t) } else { self.value14(&h.with(t), back as u8 + 1) };
                if v > min {
                    sum += n as f64 * v;
                }
            }
        }
        sum / WIDTH[s as usize]
    }

    /// A complete root hand: the tsumo score, the best over which of its tiles was drawn
    /// (a hand's value: which tile the view says was drawn plays no part).
    pub(super) fn complete_value(&self, h: &St) -> f64 {
        let mut best = 0.0f64;
        for k in (0..KINDS).filter(|&k| h.c[k] > 0) {
            let mut variants = vec![Tile::from_kind(k)];
            if h.red & five_bit(k) != 0 {
                variants.push(Tile::red_five(k / 9));
            }
            for t in variants {
                if t.is_red() || h.c[k] > u8::from(h.red & five_bit(k) != 0) {
                    best = best.max(self.win_points(&h.without(t), t));
                }
            }
        }
        best
    }

    /// Shanten and necessary kinds of the 13-tile hand `h` and, when it is tenpai with at most
    /// [`LEAF_WINS`] winning tiles (reds counted apart), the tsumo points of each, in the order
    /// of [`kinds_of`] then [`Self::variants`]. Through the per-thread leaf cache: one lookup
    /// instead of a xiangting query and one win lookup per winning tile.
    /// `necessary` answers [`St::necessary`] of `h` on a miss.
    fn leaf(&self, h: &St, necessary: impl FnOnce() -> (i8, u64)) -> (i8, u64, Option<[u32; LEAF_WINS]>) {
        let Some(ctx) = self.win_ctx else {
            let (s, need) = necessary();
            return (s, need, None);
        };
        let (hand, melds) = h.key(0);
        let key = (hand, melds, ctx | u64::from(self.reds) << 56);
        let hash = crate::hand::memo::mix(hand as u64 ^ key.2.rotate_left(17), (hand >> 64) as u64 ^ melds);
        let decode = |l: Leaf| {
            let s = (l.need >> 56) as i8 - 1;
            (s, l.need & ((1 << 34) - 1), (l.need >> 55 & 1 == 1).then_some(l.points))
        };
        if let Some(l) = LEAVES.with(|c| c.borrow().get(key, hash)) {
            return decode(l);
        }
        let (s, need) = necessary();
        let mut points = [0u32; LEAF_WINS];
        let mut n = 0;
        let mut valid = s == 0;
        if valid {
            'wins: for k in kinds_of(need) {
                for t in self.variants(k) {
                    if n == LEAF_WINS {
                        valid = false;
                        break 'wins;
                    }
                    points[n] = self.win_points(h, t) as u32;
                    n += 1;
                }
            }
        }
        let l = Leaf { need: ((s + 1) as u64) << 56 | u64::from(valid) << 55 | need, points };
        LEAVES.with(|c| c.borrow_mut().put(key, hash, l));
        decode(l)
    }

    /// Tsumo points of the tenpai hand `h` completed by the drawn tile `t`, riichi when closed,
    /// by the scoring engine.
    ///
    /// Not cached by itself: wins are scored when a leaf ([`Self::leaf`]) is new, and a
    /// per-thread cache of wins answered 105,014 of 3,090,941 lookups (3.4%) over the 20 games of
    /// `ev_split`; the leaf cache keeps the points that are asked for again.
    pub(super) fn win_points(&self, h: &St, t: Tile) -> f64 {
        let full = h.with(t);
        let mut input = self.scratch.borrow_mut();
        full.concealed_tiles(&mut input.concealed);
        full.melds_into(&mut input.melds);
        input.win_tile = t;
        input.riichi = full.is_closed();
        base_points_with(&input, &self.rules).map_or(0.0, f64::from)
    }

    /// The tiles of a kind as draws: the plain tile, and the red five when reds are in play.
    pub(super) fn variants(&self, k: Kind) -> impl Iterator<Item = Tile> {
        let red = (self.reds && five_bit(k) != 0).then(|| Tile::red_five(k / 9));
        std::iter::once(Tile::from_kind(k)).chain(red)
    }

    /// Unseen copies of the exact tile `t` for the hypothetical hand `h` (see the module doc).
    /// `held` is [`St::all`] of the hypothetical hand.
    pub(super) fn unseen(&self, held: &(Counts, u8), t: Tile) -> u32 {
        let k = t.kind();
        let (all, all_red) = *held;
        let seen = self.vis[k] + self.root[k].max(all[k]);
        let bit = five_bit(k);
        if !self.reds || bit == 0 {
            return 4u8.saturating_sub(seen) as u32;
        }
        let red_seen = (self.vis_red | self.root_red | all_red) & bit != 0 || seen >= 4;
        if t.is_red() {
            return u32::from(!red_seen);
        }
        let r = |x: u8| u8::from(x & bit != 0);
        let plain_seen = self.vis[k].saturating_sub(r(self.vis_red))
            + (self.root[k] - r(self.root_red)).max(all[k] - r(all_red));
        3u8.saturating_sub(plain_seen) as u32
    }

    /// Unseen copies of a kind, red and plain together.
    pub(super) fn unseen_kind(&self, held: &(Counts, u8), k: Kind) -> u32 {
        self.variants(k).map(|t| self.unseen(held, t)).sum()
    }
}
