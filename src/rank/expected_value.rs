//! The expected-value evaluator of 電脳麻将 (kobalab's majiang-ai): a hand is worth the points
//! it can win, weighted by how many of the tiles it needs are still unseen.
//!
//! Definitions (all values in points, the winner's tsumo total without honba or sticks):
//! - **Complete hand** (14 tiles, shanten -1): the scoring engine's tsumo score, riichi added when
//!   the hand is closed; no ippatsu, ura dora, honba or sticks. No yaku → 0.
//! - **13-tile hand at shanten s ∈ {0, 1, 2}**: Σ over the tiles t whose draw lowers shanten of
//!   unseen(t) × value(hand + t), divided by [`WIDTH`]`[s]` = 12, 72 or 216. A red five is its own
//!   tile: it is unseen only if no red of that suit is held or known to be visible, and the plain
//!   fives then have 3 copies. While not yet tenpai (s ≥ 1) the term of t also gets the value of
//!   calling t, pon from any of the three other seats and chi only from the left:
//!   `3 × pon` when pon is worth more than chi, else `2 × pon + chi` (the 電脳麻将 weighting). A
//!   call counts only when it lowers shanten; after it the hand must discard (kuikae is
//!   forbidden as on Tenhou). The yaku check of an open hand is exact rather than a heuristic:
//!   every completion is scored by the engine and a completion without yaku is worth 0, so a
//!   call that cannot reach a yaku is worth 0.
//! - **14-tile hand** (3n+2 concealed tiles): the best value over the discards that keep its
//!   shanten (a red five is discarded only when no plain five of its kind is held: the red can
//!   only add value).
//! - **Unseen copies** of a tile for a hypothetical hand H reached from the position's hand R:
//!   `4 - visible - max(R, H)` per kind (melds included). Tiles of R that H no longer holds were
//!   discarded, so they stay seen; tiles H holds beyond R were drawn. This makes the count a
//!   function of H alone (for a fixed position), which is what lets the memo key be the hand.
//! - **Shanten going back** (シャンテン戻し), root only: at shanten ≤ 1 a discard that raises
//!   shanten is considered when its ukeire is at least [`BACK_UKEIRE_RATIO`] times that of the
//!   best normal discard (電脳麻将's gate, which also keeps the search cheap). Its value sums only
//!   the futures (draws) whose value exceeds twice the best normal discard's; re-drawing the tile
//!   just discarded is skipped, and deeper in that search any hand that needs the discarded kind
//!   again is worth 0 (it would be furiten), and calls are not considered. A back discard that
//!   fails the gate is ranked below every normal discard.
//! - **3+ shanten**: no search; with x = 電脳麻将's shanten toward a hand with a yaku
//!   ([`EvSearch::yaku_shanten`]), a weighted ukeire W = Σ over the kinds k whose draw lowers x of
//!   unseen(k) × w(k), w = 4 when a pon of k lowers x (the tile can come from any seat or the
//!   wall), 2 when a chi does (left seat or the wall), else 1. W ≤ 34 × 4 × 4 = 544, so the score
//!   `W / 1000 - x` lies in (-x, -x + 0.544]: always below every hand at lower shanten (those
//!   score ≥ -x + 1, or ≥ 0 with a searched value). With no yaku in reach the score is -99.
//!
//! Ranking ([`rank`]): score = the value of the 13-tile hand left by the discard (higher is
//! better). Discards that raise shanten and are not searched score `-(shanten + 1) + ukeire / 1000`
//! (at shanten ≤ 2) or the 3+ formula, below every normal discard. Ties (equal score to 1e-6
//! points) are broken as 電脳麻将 breaks them: the lower isolated-tile value ([`Paijia`]) goes
//! first, then the drawn tile, then the later kind ([`tie_key`]).
//!
//! Verified against the reference implementation: on 233 real hands in three table contexts,
//! all 728 option values and the values of all 233 picks (8 of them shanten-back discards) agree
//! with `@kobalab/majiang-ai` 1.0.13 exactly, when scored under majiang-core's rules (it counts
//! suuankou tanki and the other "double" yakuman forms twice; we score under Tenhou's rules by
//! default, [`EvSearch::with_rules`]); and on 2,502 real positions at shanten 0 to 4+ every pick
//! agrees (`majiang_picks`). Known differences from the reference: its danger logic against
//! riichi is replaced by [`super::push_fold`]; kans are not searched (neither does the
//! reference's value).
//!
//! Every 13- and 14-tile sub-hand is memoised per position (key: concealed counts, reds, melds,
//! and the search flags), so a sub-hand reached along several paths is searched once. Use one
//! [`EvSearch`] per position to share the memo between its options.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::paijia::Paijia;
use super::position::{Position, RankedDiscard};
use crate::hand::shanten::{kinds_of, min_shanten};
use crate::hand::{Hand, Meld, MeldKind};
use crate::score::{base_points_with, ScoreRules, WinInput};
use crate::tile::{is_honor, Counts, Kind, Tile, KINDS};
use crate::util::IntHasher;

/// Divisors of the draw sum at shanten 0, 1, 2: 12, 12 × 6, 12 × 6 × 3 (電脳麻将's `width`).
pub const WIDTH: [f64; 3] = [12.0, 72.0, 216.0];

/// A shanten-raising discard is searched only when its ukeire is at least this many times the
/// ukeire of the best normal discard.
pub const BACK_UKEIRE_RATIO: u32 = 6;

/// Two scores closer than this (in points) are a tie, broken by [`tie_key`].
const TIE_EPS: f64 = 1e-6;

/// Expected value of a 13- or 14-tile hand in a position's context (dora, winds, visible
/// tiles). `hand` should be the position's hand or that hand after one discard: the position's
/// hand counts as seen (each of its tiles is either still held or in the river).
/// At 3+ shanten the result is the negative ranking score of the module doc, so take logs only
/// where shanten ≤ 2.
pub fn hand_value(pos: &Position, hand: &Hand) -> f64 {
    EvSearch::new(pos).value(hand)
}

/// Ranks every distinct discard of the position's 14-tile hand, best first.
pub fn rank(pos: &Position) -> Vec<RankedDiscard> {
    EvSearch::new(pos).rank()
}

/// The search state of one position: its fixed context and the memo.
pub struct EvSearch<'p> {
    pos: &'p Position,
    /// Kinds visible outside the hand (the position's `visible`).
    vis: Counts,
    /// Bit s: the red five of suit s is known to be visible.
    vis_red: u8,
    /// The position's hand, melds included, by kind; and its reds.
    root: Counts,
    root_red: u8,
    /// The game plays with one red five per suit (Tenhou's default).
    reds: bool,
    rules: ScoreRules,
    memo: Memo,
    /// The scoring context of a win as a key word for the per-thread leaf cache (winds, dora
    /// indicators, rules); `None` when it does not fit one word (then leaves are not cached).
    win_ctx: Option<u64>,
    /// The scoring engine's input, winds and dora set once: [`Self::win_points`] refills its
    /// tiles and melds in place, so the millions of scorings of a corpus allocate nothing.
    scratch: std::cell::RefCell<WinInput>,
}

type Memo = HashMap<(u128, u64), f64, BuildHasherDefault<IntHasher>>;

thread_local! {
    /// Emptied memo maps kept for the next search on this thread (their capacity is reused).
    static MEMO_POOL: std::cell::RefCell<Vec<Memo>> = const { std::cell::RefCell::new(Vec::new()) };
    /// 13-tile hands: shanten, necessary kinds and the points of their wins (see
    /// [`EvSearch::leaf`]); like wins, independent of the visible tiles.
    static LEAVES: std::cell::RefCell<crate::hand::memo::Direct<(u128, u64, u64), Leaf>> =
        std::cell::RefCell::new(crate::hand::memo::Direct::new(LEAF_CACHE_BITS));
}

/// Winning tiles whose points a leaf entry holds (more: the points are not cached there).
const LEAF_WINS: usize = 5;

/// Slots of the per-thread leaf cache (2^14 x 64 bytes = 1 MiB per thread, half the core's L2).
/// A lookup that misses the core's caches stalls the search, so fewer slots win until the lost
/// hits cost more: against 2^15, median CPU of `scripts/compare_ingest.sh` (40 games, ABBA) was
/// 1.021-1.028x with 2^14, 0.978x with 2^13 and 0.946x with 2^17.
const LEAF_CACHE_BITS: u32 = 14;

/// A leaf cache entry: `need` holds the necessary kinds (bits 0..34), "points valid" (bit 55)
/// and shanten + 1 (bits 56..); `points` the tsumo points of the winning tiles.
#[derive(Clone, Copy, Default)]
struct Leaf {
    need: u64,
    points: [u32; LEAF_WINS],
}

/// The context word of the leaf cache (see [`EvSearch::win_ctx`]); bit 63 is always set so no key
/// is the empty slot's.
fn win_context(pos: &Position, rules: &ScoreRules) -> Option<u64> {
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

impl Drop for EvSearch<'_> {
    fn drop(&mut self) {
        let mut memo = std::mem::take(&mut self.memo);
        memo.clear();
        MEMO_POOL.with(|p| {
            let mut p = p.borrow_mut();
            if p.len() < 4 {
                p.push(memo);
            }
        });
    }
}

impl<'p> EvSearch<'p> {
    /// A search over `pos`, assuming red fives are in play and none is visible outside the hand
    /// ([`Position`] does not say; see [`EvSearch::with_reds`]).
    pub fn new(pos: &'p Position) -> Self {
        let st = St::from_hand(&pos.hand);
        let (root, root_red) = st.all();
        // `visible` counts the hand's own melds, which `root` (every tile the hand holds) counts
        // too: keep them once.
        let mut vis = pos.visible;
        for t in pos.hand.melds.iter().flat_map(|m| m.tiles()) {
            vis[t.kind()] = vis[t.kind()].saturating_sub(1);
        }
        EvSearch {
            pos,
            vis,
            vis_red: 0,
            root,
            root_red,
            reds: true,
            rules: ScoreRules::TENHOU,
            memo: MEMO_POOL.with(|p| p.borrow_mut().pop()).unwrap_or_default(),
            win_ctx: win_context(pos, &ScoreRules::TENHOU),
            scratch: std::cell::RefCell::new(win_input(pos)),
        }
    }

    /// Sets whether the game has red fives and which of them are visible outside the hand.
    pub fn with_reds(mut self, in_play: bool, visible: [bool; 3]) -> Self {
        self.reds = in_play;
        self.vis_red = visible.iter().enumerate().map(|(s, &v)| u8::from(v) << s).sum();
        self.memo.clear();
        self
    }

    /// Scores wins under other rules than Tenhou's (for example without open tanyao).
    pub fn with_rules(mut self, rules: ScoreRules) -> Self {
        self.rules = rules;
        self.win_ctx = win_context(self.pos, &rules);
        self.memo.clear();
        self
    }

    /// The isolated-tile values of the position's tiles under this search's red-five settings
    /// (the tie-break of [`Self::rank`], also a feature column of its own).
    pub fn paijia(&self) -> Paijia {
        Paijia::new(self.pos, self.reds, [0, 1, 2].map(|s| self.vis_red >> s & 1 == 1))
    }

    /// Number of memoised sub-hands (for tests and benches).
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// See [`hand_value`].
    pub fn value(&mut self, hand: &Hand) -> f64 {
        let h = St::from_hand(hand);
        if h.tiles() % 3 == 1 {
            let s = min_shanten(&h.c);
            return if s <= 2 { self.value13(&h, 0) } else { self.far(&h) };
        }
        let s = min_shanten(&h.c);
        match s {
            -1 => self.complete_value(&h),
            0..=2 => self.value14(&h, 0),
            _ => {
                let (_, keep) = h.unnecessary();
                kinds_of(keep)
                    .filter(|&d| h.c[d] > 0)
                    .map(|d| self.far(&h.without(h.discard_tile(d))))
                    .fold(f64::NEG_INFINITY, f64::max)
            }
        }
    }

    /// Value of the position's hand after discarding `tile` (the exact tile, red or not); `None`
    /// when the hand does not hold it. This is the per-option feature: call it for every option
    /// on one `EvSearch` so the options share the memo.
    pub fn discard_value(&mut self, tile: Tile) -> Option<f64> {
        let after = self.pos.hand.without(tile)?;
        Some(self.value(&after))
    }

    /// See [`rank`].
    pub fn rank(&mut self) -> Vec<RankedDiscard> {
        let h = St::from_hand(&self.pos.hand);
        let s = min_shanten(&h.c);
        let paijia = self.paijia();
        struct Opt {
            tile: Tile,
            after: St,
            shanten: i8,
            ukeire: u32,
            score: f64,
            tie: f64,
        }
        let mut opts: Vec<Opt> = self
            .pos
            .hand
            .distinct_tiles()
            .into_iter()
            .map(|tile| {
                let after = h.without(tile);
                let (shanten, need) = after.necessary();
                let held = after.all();
                let ukeire = kinds_of(need).map(|k| self.unseen_kind(&held, k)).sum();
                let tie = tie_key(&paijia, self.pos.drawn, tile);
                Opt { tile, after, shanten, ukeire, score: 0.0, tie }
            })
            .collect();
        // Normal discards (shanten kept) first: their best value and ukeire gate the others.
        for o in opts.iter_mut().filter(|o| o.shanten == s) {
            o.score = if s <= 2 { self.value13(&o.after, 0) } else { self.far(&o.after) };
        }
        let best_normal =
            opts.iter().filter(|o| o.shanten == s).min_by(|a, b| order(a.score, a.tie, b.score, b.tie));
        let (best_value, best_ukeire) = best_normal.map_or((0.0, 0), |o| (o.score.max(0.0), o.ukeire));
        for o in opts.iter_mut().filter(|o| o.shanten != s) {
            o.score = if o.shanten >= 3 {
                self.far(&o.after)
            } else if s <= 1 && o.ukeire >= BACK_UKEIRE_RATIO * best_ukeire {
                self.back_value(&o.after, o.tile.kind(), 2.0 * best_value)
            } else {
                -(o.shanten as f64 + 1.0) + o.ukeire as f64 / 1000.0
            };
        }
        // At 3+ shanten 電脳麻将 only weighs the discards that keep its yaku-aware shanten at the
        // hand's shanten; when none does, it takes the first tile in its tie order.
        if s >= 3 && opts.iter().all(|o| o.score < -(s as f64) - 1e-9) {
            opts.iter_mut().for_each(|o| o.score = -(NO_YAKU as f64));
        }
        opts.sort_by(|a, b| order(a.score, a.tie, b.score, b.tie).then(a.tile.cmp(&b.tile)));
        opts.into_iter()
            .map(|o| RankedDiscard { tile: o.tile, score: o.score, shanten: o.shanten, ukeire: o.ukeire })
            .collect()
    }

    /// Value of a 13-tile (3n+1) hand at shanten ≤ 2. `back` is 0, or 1 + the kind discarded by
    /// a shanten-raising root discard (then a hand that needs that kind is worth 0, no calls).
    fn value13(&mut self, h: &St, back: u8) -> f64 {
        let key = h.key(back as u64);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let (s, need, points) = self.leaf(h);
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
            for k in kinds_of(need) {
                for t in self.variants(k) {
                    let n = self.unseen(&held, t);
                    if n == 0 {
                        continue;
                    }
                    let mut v = self.value14(&h.with(t), back);
                    if back == 0 {
                        v += self.call_term(h, t, s);
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
    fn value14(&mut self, h: &St, back: u8) -> f64 {
        let key = h.key(back as u64);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let (_, keep) = h.unnecessary();
        let mut best = 0.0f64;
        for d in kinds_of(keep) {
            if h.c[d] > 0 {
                best = best.max(self.value13(&h.without(h.discard_tile(d)), back));
            }
        }
        self.memo.insert(key, best);
        best
    }

    /// The call part of tile t's term in a 13-tile hand at shanten `s` ≥ 1.
    fn call_term(&mut self, h: &St, t: Tile, s: i8) -> f64 {
        let k = t.kind();
        let mut pon = 0.0f64;
        if h.c[k] >= 2 {
            h.for_each_pon(t, |after| pon = pon.max(self.after_call(after, s, &[k])));
        }
        let mut chi = 0.0f64;
        if !is_honor(k) {
            h.for_each_chi(t, |after, forbidden| chi = chi.max(self.after_call(after, s, forbidden)));
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
    fn after_call(&mut self, h: &St, s: i8, forbidden: &[Kind]) -> f64 {
        let (r, keep) = h.unnecessary();
        let mut best = 0.0f64;
        if r < s {
            for d in kinds_of(keep) {
                if h.c[d] > 0 && !forbidden.contains(&d) {
                    best = best.max(self.value13(&h.without(h.discard_tile(d)), 0));
                }
            }
        }
        best
    }

    /// Value of a shanten-raising root discard of kind `back` leaving `h` (13 tiles, shanten ≤ 2):
    /// draws of `back` are skipped and futures worth `min` or less count as 0.
    fn back_value(&mut self, h: &St, back: Kind, min: f64) -> f64 {
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

    /// The 3+ shanten score of the module doc.
    ///
    /// Which draws lower x is asked of each form of [`Self::yaku_shanten`] apart
    /// ([`YakuForms`]): a draw lowers a form by at most one, so only the forms at x can go
    /// below it, and only through kinds they use. That is a few shanten queries per hand
    /// instead of every form for each of the 34 kinds, with the same result (the test
    /// `far_equals_the_form_by_form_definition` checks it on real hands).
    fn far(&self, h: &St) -> f64 {
        let melds = &h.melds[..h.nm];
        let forms = YakuForms::new(self, &h.c, melds);
        let x = forms.best;
        if x >= NO_YAKU {
            return -(NO_YAKU as f64);
        }
        let held = h.all();
        let mut w = 0u32;
        for k in (0..KINDS).filter(|&k| h.c[k] < 4) {
            let n = self.unseen_kind(&held, k);
            if n == 0 || !forms.lowered_by(self, &h.c, melds, k) {
                continue;
            }
            // A call counts when it lowers the yaku-aware shanten: pon from any seat, chi from the
            // left only (電脳麻将's weights 4 and 2).
            let after_call = |c: &Counts, ty: u16, first: Kind| {
                let mut m = [0u16; 4];
                m[..melds.len()].copy_from_slice(melds);
                m[melds.len()] = ty << 7 | first as u16;
                self.yaku_shanten(c, &m[..melds.len() + 1]) < x
            };
            let pon = x > 0 && h.c[k] >= 2 && {
                let mut c = h.c;
                c[k] -= 2;
                after_call(&c, PON, k)
            };
            let chi = x > 0
                && !pon
                && chi_pairs(&h.c, k).any(|(a, b)| {
                    let mut c = h.c;
                    c[a] -= 1;
                    c[b] -= 1;
                    after_call(&c, CHI, a.min(b).min(k))
                });
            w += n * if pon {
                4
            } else if chi {
                2
            } else {
                1
            };
        }
        w as f64 / 1000.0 - x as f64
    }

    /// The yakuhai kinds: the round wind, the seat wind and the dragons.
    fn roles(&self) -> [Kind; 5] {
        [self.pos.round_wind, self.pos.seat_wind, 31, 32, 33]
    }

    /// The yakuhai form of [`Self::yaku_shanten`] on its own, with the facts it rests on.
    fn yakuhai_form(&self, c: &Counts, melds: &[u16]) -> YakuhaiForm {
        let nm = melds.len();
        let mut sets = 0;
        let mut back = None;
        for k in self.roles() {
            if c[k] >= 3 {
                sets += 1;
            } else if c[k] == 2 && self.unseen_kind(&(self.root, self.root_red), k) > 0 {
                back = Some(k);
            }
            sets += melds.iter().filter(|&&m| m >> 7 != CHI && (m & 63) as usize == k).count();
        }
        if sets > 0 {
            YakuhaiForm::Set(plain_shanten(c, nm))
        } else if let Some(k) = back {
            let mut c2 = *c;
            c2[k] -= 2;
            YakuhaiForm::Back(k, plain_shanten(&c2, nm + 1).saturating_add(1))
        } else {
            YakuhaiForm::None
        }
    }

    /// 電脳麻将's shanten toward a hand with a yaku (its `xiangting`), the least over: closed
    /// (the plain shanten), yakuhai (plain when a yakuhai set is held or melded; with a yakuhai
    /// pair of which a copy is unseen, one more than the plain shanten after calling it),
    /// tanyao (the plain shanten of the 2-8 tiles; no terminal or honour meld, and open only
    /// with kuitan), toitoi (8 - 2 sets - pairs, sets and pairs at most 5; no chi) and a flush
    /// of each suit (the plain shanten of that suit and the honours; melds of it only).
    /// [`NO_YAKU`] when none is possible. `melds` in [`St`]'s encoding.
    fn yaku_shanten(&self, c: &Counts, melds: &[u16]) -> i8 {
        YakuForms::new(self, c, melds).best
    }

    /// A complete root hand: the tsumo score, the best over which of its tiles was drawn
    /// ([`Position`] does not record the drawn tile).
    fn complete_value(&self, h: &St) -> f64 {
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
    fn leaf(&self, h: &St) -> (i8, u64, Option<[u32; LEAF_WINS]>) {
        let Some(ctx) = self.win_ctx else {
            let (s, need) = h.necessary();
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
        let (s, need) = h.necessary();
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
    fn win_points(&self, h: &St, t: Tile) -> f64 {
        let full = h.with(t);
        let mut input = self.scratch.borrow_mut();
        full.concealed_tiles(&mut input.concealed);
        full.melds_into(&mut input.melds);
        input.win_tile = t;
        input.riichi = full.is_closed();
        base_points_with(&input, &self.rules).map_or(0.0, f64::from)
    }

    /// The tiles of a kind as draws: the plain tile, and the red five when reds are in play.
    fn variants(&self, k: Kind) -> impl Iterator<Item = Tile> {
        let red = (self.reds && five_bit(k) != 0).then(|| Tile::red_five(k / 9));
        std::iter::once(Tile::from_kind(k)).chain(red)
    }

    /// Unseen copies of the exact tile `t` for the hypothetical hand `h` (see the module doc).
    /// `held` is [`St::all`] of the hypothetical hand.
    fn unseen(&self, held: &(Counts, u8), t: Tile) -> u32 {
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
    fn unseen_kind(&self, held: &(Counts, u8), k: Kind) -> u32 {
        self.variants(k).map(|t| self.unseen(held, t)).sum()
    }
}

/// The tie-break key of a discard: 電脳麻将 tries the discards in order of [`Paijia`] and keeps
/// the first of equal values; among equal paijia it tries the drawn tile first (its tsumogiri),
/// then the hand from the last kind back (honours before suits, 9 before 1, a plain 5 before
/// the red one). Lower = preferred.
fn tie_key(paijia: &Paijia, drawn: Option<Tile>, tile: Tile) -> f64 {
    let place =
        if drawn == Some(tile) { 0 } else { 1 + 2 * (KINDS - 1 - tile.kind()) + usize::from(tile.is_red()) };
    paijia.value(tile) * 128.0 + place as f64
}

/// Ordering of two options, best first: higher score, then (within [`TIE_EPS`]) the lower
/// [`tie_key`].
fn order(sa: f64, ta: f64, sb: f64, tb: f64) -> std::cmp::Ordering {
    let q = |s: f64| (s / TIE_EPS).round() as i64;
    q(sb).cmp(&q(sa)).then(ta.total_cmp(&tb))
}

/// The yakuhai form of [`EvSearch::yaku_shanten`]: a yakuhai set held or melded (then the plain
/// shanten), or else a yakuhai pair with a copy unseen (one more than the plain shanten after
/// calling it), or no yakuhai in reach.
#[derive(Clone, Copy, Debug, PartialEq)]
enum YakuhaiForm {
    Set(i8),
    Back(Kind, i8),
    None,
}

impl YakuhaiForm {
    fn value(self) -> i8 {
        match self {
            YakuhaiForm::Set(v) | YakuhaiForm::Back(_, v) => v,
            YakuhaiForm::None => NO_YAKU,
        }
    }
}

/// Each form of [`EvSearch::yaku_shanten`] of one hand (`None`: the melds rule it out) and their
/// least, `best`.
struct YakuForms {
    closed: Option<i8>,
    yakuhai: YakuhaiForm,
    tanyao: Option<i8>,
    toitoi: Option<i8>,
    flush: [Option<i8>; 3],
    best: i8,
}

impl YakuForms {
    fn new(ev: &EvSearch, c: &Counts, melds: &[u16]) -> YakuForms {
        let nm = melds.len();
        let ty = |m: u16| m >> 7;
        let first = |m: u16| (m & 63) as usize;
        let closed = melds.iter().all(|&m| ty(m) == CLOSED_KAN);
        let terminal_meld = melds.iter().any(|&m| {
            let k = first(m);
            k >= 27 || if ty(m) == CHI { k % 9 == 0 || k % 9 == 6 } else { k % 9 == 0 || k % 9 == 8 }
        });
        let tanyao_ok = (closed || ev.rules.kuitan) && !terminal_meld;
        let mut forms = YakuForms {
            closed: closed.then(|| plain_shanten(c, nm)),
            yakuhai: ev.yakuhai_form(c, melds),
            tanyao: tanyao_ok.then(|| plain_shanten(&tanyao_counts(c), nm)),
            toitoi: melds.iter().all(|&m| ty(m) != CHI).then(|| toitoi_shanten(c, nm)),
            flush: [0, 1, 2].map(|suit| {
                melds
                    .iter()
                    .all(|&m| first(m) >= 27 || first(m) / 9 == suit)
                    .then(|| plain_shanten(&flush_counts(c, suit), nm))
            }),
            best: NO_YAKU,
        };
        forms.best = [forms.closed, Some(forms.yakuhai.value()), forms.tanyao, forms.toitoi]
            .into_iter()
            .chain(forms.flush)
            .flatten()
            .fold(NO_YAKU, i8::min);
        forms
    }

    /// Whether drawing kind k (held fewer than 4 times) takes the hand below `best`. A draw
    /// lowers each form's shanten by at most one, so only the forms at `best` can, and only by
    /// a kind they use; the yakuhai form is recomputed when k is a yakuhai kind (the draw can
    /// make its set or its pair).
    fn lowered_by(&self, ev: &EvSearch, c: &Counts, melds: &[u16], k: Kind) -> bool {
        let x = self.best;
        let nm = melds.len();
        let mut c2 = *c;
        c2[k] += 1;
        let plain = std::cell::OnceCell::new();
        let plain = || *plain.get_or_init(|| plain_shanten(&c2, nm));
        if self.closed == Some(x) && plain() < x {
            return true;
        }
        if ev.roles().contains(&k) {
            if ev.yakuhai_form(&c2, melds).value() < x {
                return true;
            }
        } else {
            match self.yakuhai {
                YakuhaiForm::Set(v) if v == x && plain() < x => return true,
                YakuhaiForm::Back(b, v) if v == x => {
                    let mut c3 = c2;
                    c3[b] -= 2;
                    if plain_shanten(&c3, nm + 1).saturating_add(1) < x {
                        return true;
                    }
                }
                _ => {}
            }
        }
        if self.tanyao == Some(x) && is_tanyao_kind(k) && plain_shanten(&tanyao_counts(&c2), nm) < x {
            return true;
        }
        if self.toitoi.is_some() && toitoi_shanten(&c2, nm) < x {
            return true;
        }
        (0..3).any(|suit| {
            self.flush[suit] == Some(x)
                && (k >= 27 || k / 9 == suit)
                && plain_shanten(&flush_counts(&c2, suit), nm) < x
        })
    }
}

/// A 2-8 tile.
fn is_tanyao_kind(k: Kind) -> bool {
    k < 27 && k % 9 != 0 && k % 9 != 8
}

/// The 2-8 tiles of `c` (the tanyao form's tiles).
fn tanyao_counts(c: &Counts) -> Counts {
    let mut c2 = *c;
    for k in (0..KINDS).filter(|&k| !is_tanyao_kind(k)) {
        c2[k] = 0;
    }
    c2
}

/// The tiles of `c` of one suit and the honours (a flush form's tiles).
fn flush_counts(c: &Counts, suit: usize) -> Counts {
    let mut c2 = *c;
    for k in (0..27).filter(|k| k / 9 != suit) {
        c2[k] = 0;
    }
    c2
}

/// The toitoi form: 8 - 2 sets - pairs, sets (melds included) and pairs at most 5 in all.
fn toitoi_shanten(c: &Counts, nm: usize) -> i8 {
    let kezi = nm as i8 + c.iter().filter(|&&x| x >= 3).count() as i8;
    let mut duizi = c.iter().filter(|&&x| x == 2).count() as i8;
    if kezi + duizi > 5 {
        duizi = 5 - kezi;
    }
    8 - 2 * kezi - duizi
}

/// [`EvSearch::yaku_shanten`] of a hand with no way to a yaku.
const NO_YAKU: i8 = 99;

/// majiang-core's `xiangting` of concealed counts that may be short of tiles (its forms reduced
/// to one suit, or to the 2-8 tiles): the standard form with `melds` made, and for a hand
/// without melds seven pairs and thirteen orphans by its formulas.
fn plain_shanten(c: &Counts, melds: usize) -> i8 {
    let mut best = crate::hand::shanten::standard(c, melds);
    if melds == 0 {
        let pairs = c.iter().filter(|&&x| x >= 2).count().min(7) as i8;
        let singles = c.iter().filter(|&&x| x == 1).count() as i8;
        best = best.min(13 - 2 * pairs - singles.min(7 - pairs));
        let orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
        let kinds = orphans.iter().filter(|&&k| c[k] >= 1).count() as i8;
        let pair = orphans.iter().any(|&k| c[k] >= 2);
        best = best.min(if pair { 12 - kinds } else { 13 - kinds });
    }
    best
}

/// Bit s when kind k is the five of suit s, else 0. A table: the search asks it for every kind
/// of every hand it refills for scoring, and a lookup is cheaper than the division.
#[inline]
fn five_bit(k: Kind) -> u8 {
    FIVE_BITS[k]
}

const FIVE_BITS: [u8; KINDS] = {
    let mut t = [0u8; KINDS];
    t[4] = 1;
    t[13] = 2;
    t[22] = 4;
    t
};

/// The pairs of other kinds (a, b) held in `c` that make a run with kind k (suited).
fn chi_pairs(c: &Counts, k: Kind) -> impl Iterator<Item = (Kind, Kind)> + '_ {
    let n = k % 9;
    (n.saturating_sub(2)..=n.min(6)).filter(move |_| !is_honor(k)).filter_map(move |start| {
        let first = k - n + start;
        let mut others = (first..first + 3).filter(|&x| x != k);
        let (a, b) = (others.next().unwrap_or(k), others.next().unwrap_or(k));
        (c[a] > 0 && c[b] > 0).then_some((a, b))
    })
}

/// Meld codes: type << 7 | red << 6 | first kind.
const CHI: u16 = 1;
const PON: u16 = 2;
const OPEN_KAN: u16 = 3;
const CLOSED_KAN: u16 = 4;

/// A hand as the search sees it: concealed counts with a red flag per suit, melds encoded as
/// small integers (sorted, so the order they were made in does not split the memo).
#[derive(Clone, Copy, Debug)]
struct St {
    c: Counts,
    red: u8,
    melds: [u16; 4],
    nm: usize,
    /// `c` packed 3 bits per kind, kept in step with `c` so the memo key costs nothing.
    packed: u128,
}

impl St {
    fn from_hand(hand: &Hand) -> St {
        let mut c = [0u8; KINDS];
        let mut red = 0;
        for t in &hand.tiles {
            c[t.kind()] += 1;
            if t.is_red() {
                red |= five_bit(t.kind());
            }
        }
        let packed = crate::hand::memo::pack(&c);
        let mut st = St { c, red, melds: [0; 4], nm: 0, packed };
        for m in hand.melds.iter().take(4) {
            let ty = match m.kind {
                MeldKind::Chi => CHI,
                MeldKind::Pon => PON,
                MeldKind::Daiminkan | MeldKind::Kakan => OPEN_KAN,
                MeldKind::Ankan => CLOSED_KAN,
            };
            st.add_meld(ty, m.first_kind(), m.tiles().iter().any(|t| t.is_red()));
        }
        st
    }

    fn add_meld(&mut self, ty: u16, first: Kind, red: bool) {
        self.melds[self.nm] = ty << 7 | u16::from(red) << 6 | first as u16;
        self.nm += 1;
        self.melds[..self.nm].sort_unstable();
    }

    /// Shanten of the 3n+2 concealed counts and the kinds whose discard keeps it
    /// ([`crate::hand::shanten::unnecessary_kinds`]), through the packed key `St` keeps.
    fn unnecessary(&self) -> (i8, u64) {
        crate::hand::shanten::unnecessary_kinds_packed(&self.c, self.packed)
    }

    /// [`crate::hand::shanten::necessary_kinds`] of the concealed counts, through the packed
    /// key `St` keeps.
    fn necessary(&self) -> (i8, u64) {
        crate::hand::shanten::necessary_kinds_packed(&self.c, self.packed)
    }

    fn tiles(&self) -> usize {
        self.c.iter().map(|&x| x as usize).sum()
    }

    fn is_closed(&self) -> bool {
        self.melds[..self.nm].iter().all(|m| m >> 7 == CLOSED_KAN)
    }

    fn key(&self, tag: u64) -> (u128, u64) {
        let b = self.melds.iter().fold(tag, |b, &m| b << 10 | m as u64);
        (self.packed | (self.red as u128) << 102, b)
    }

    fn add(&mut self, k: Kind, n: u8) {
        self.c[k] += n;
        self.packed += (n as u128) << (3 * k);
    }

    fn remove(&mut self, k: Kind, n: u8) {
        self.c[k] -= n;
        self.packed -= (n as u128) << (3 * k);
    }

    /// Counts and reds of the whole hand, melds included.
    fn all(&self) -> (Counts, u8) {
        let mut c = self.c;
        let mut red = self.red;
        for &m in &self.melds[..self.nm] {
            let (ty, first) = (m >> 7, (m & 63) as usize);
            if m >> 6 & 1 == 1 {
                red |= 1 << (first / 9);
            }
            match ty {
                CHI => (first..first + 3).for_each(|k| c[k] += 1),
                PON => c[first] += 3,
                _ => c[first] += 4,
            }
        }
        (c, red)
    }

    fn with(&self, t: Tile) -> St {
        let mut h = *self;
        h.add(t.kind(), 1);
        if t.is_red() {
            h.red |= five_bit(t.kind());
        }
        h
    }

    fn without(&self, t: Tile) -> St {
        let mut h = *self;
        h.remove(t.kind(), 1);
        if t.is_red() {
            h.red &= !five_bit(t.kind());
        }
        h
    }

    /// The tile to discard for kind d: a plain copy when one is held, else the red five.
    fn discard_tile(&self, d: Kind) -> Tile {
        let red_held = self.red & five_bit(d) != 0;
        if red_held && self.c[d] == 1 {
            Tile::red_five(d / 9)
        } else {
            Tile::from_kind(d)
        }
    }

    fn plain_count(&self, k: Kind) -> u8 {
        self.c[k] - u8::from(self.red & five_bit(k) != 0)
    }

    /// Calls `f` with each hand after a pon of `t` (up to two: using the held red five, or two
    /// plain ones). A visitor rather than an array of hands: the search makes millions of calls
    /// and most of them have one or no pon, so no unused hand is built or copied.
    fn for_each_pon(&self, t: Tile, mut f: impl FnMut(&St)) {
        let k = t.kind();
        let red_held = self.red & five_bit(k) != 0;
        if red_held && self.plain_count(k) >= 1 {
            let mut h = *self;
            h.remove(k, 2);
            h.red &= !five_bit(k);
            h.add_meld(PON, k, true);
            f(&h);
        }
        if self.plain_count(k) >= 2 {
            let mut h = *self;
            h.remove(k, 2);
            h.add_meld(PON, k, t.is_red());
            f(&h);
        }
    }

    /// Calls `f` with each hand after a chi of `t` and its kuikae-forbidden discards (the
    /// called kind, and the other end of a two-sided wait): at most 6, three runs, each with or
    /// without a held red five.
    fn for_each_chi(&self, t: Tile, mut f: impl FnMut(&St, &[Kind])) {
        let k = t.kind();
        let n = k % 9;
        for start in n.saturating_sub(2)..=n.min(6) {
            let first = k - n + start;
            let mut others = [k; 2];
            for (i, x) in (first..first + 3).filter(|&x| x != k).enumerate() {
                others[i] = x;
            }
            if others.iter().any(|&x| self.c[x] == 0) {
                continue;
            }
            let mut forbidden = [k; 2];
            let mut nf = 1;
            if first == k && n <= 5 {
                forbidden[nf] = k + 3;
                nf += 1;
            }
            if first + 2 == k && n >= 3 {
                forbidden[nf] = k - 3;
                nf += 1;
            }
            // A held red five among the two tiles can go into the meld or stay in the hand.
            let five = others.iter().copied().find(|&x| self.red & five_bit(x) != 0);
            let (choices, nc): ([bool; 2], usize) = match five {
                Some(f) if self.plain_count(f) >= 1 => ([false, true], 2),
                Some(_) => ([true, true], 1),
                None => ([false, false], 1),
            };
            for &use_red in &choices[..nc] {
                let mut h = *self;
                for &x in &others {
                    h.remove(x, 1);
                }
                if use_red {
                    h.red &= !five.map_or(0, five_bit);
                }
                h.add_meld(CHI, first, use_red || t.is_red());
                f(&h, &forbidden[..nf]);
            }
        }
    }

    /// The concealed tiles into `out` (emptied first), a red five after the plain ones.
    fn concealed_tiles(&self, out: &mut Vec<Tile>) {
        out.clear();
        for k in 0..KINDS {
            for _ in 0..self.plain_count(k) {
                out.push(Tile::from_kind(k));
            }
            if self.red & five_bit(k) != 0 {
                out.push(Tile::red_five(k / 9));
            }
        }
    }

    /// The melds as the scoring engine's [`Meld`]s into `out` (emptied first).
    fn melds_into(&self, out: &mut Vec<Meld>) {
        out.clear();
        for &m in &self.melds[..self.nm] {
            let (ty, first, red) = (m >> 7, (m & 63) as usize, m >> 6 & 1 == 1);
            let (kind, kinds, len): (MeldKind, [Kind; 4], usize) = match ty {
                CHI => (MeldKind::Chi, [first, first + 1, first + 2, 0], 3),
                PON => (MeldKind::Pon, [first; 4], 3),
                OPEN_KAN => (MeldKind::Daiminkan, [first; 4], 4),
                _ => (MeldKind::Ankan, [first; 4], 4),
            };
            let mut red_left = red;
            let tiles = kinds.map(|k| {
                if red_left && five_bit(k) != 0 {
                    red_left = false;
                    Tile::red_five(k / 9)
                } else {
                    Tile::from_kind(k)
                }
            });
            let called = (kind != MeldKind::Ankan).then_some(tiles[0]);
            out.push(Meld::new(kind, &tiles[..len], called, if called.is_some() { 3 } else { 0 }));
        }
    }
}

/// The scoring input of a win in `pos`: its winds and dora; tiles, melds and riichi are filled
/// per win by [`EvSearch::win_points`].
fn win_input(pos: &Position) -> WinInput {
    let mut input = WinInput::new(Vec::with_capacity(14), Vec::with_capacity(4), Tile::from_kind(0));
    input.round_wind = pos.round_wind;
    input.seat_wind = pos.seat_wind;
    input.dora_indicators = pos.dora_indicators.clone();
    input
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::score;
    use crate::tile::{parse_mpsz, EAST};

    const SOUTH: Kind = EAST + 1;

    /// A position for `hand` (13 or 14 tiles) in East round, South seat (not the dealer), no dora,
    /// with `visible` as (tile, copies) pairs.
    fn pos(hand: &str, visible: &[(&str, u8)]) -> Position {
        let mut p = Position::new(Hand::parse(hand).unwrap(), vec![], EAST, SOUTH);
        for &(t, n) in visible {
            p.visible[parse_mpsz(t).unwrap()[0].kind()] += n;
        }
        p
    }

    fn value(p: &Position) -> f64 {
        hand_value(p, &p.hand)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn five_bit_marks_the_three_fives() {
        for k in 0..KINDS {
            let want = if k < 27 && k % 9 == 4 { 1 << (k / 9) } else { 0 };
            assert_eq!(five_bit(k), want, "kind {k}");
        }
    }

    #[test]
    fn complete_hand_is_the_tsumo_score_with_riichi() {
        // 123m 456p 789s 234s 55s, South seat. Best reading: the 2s drawn into 34s (two-sided):
        // riichi + menzen tsumo + pinfu = 3 han 20 fu, non-dealer tsumo 700/1300 = 2700.
        let p = pos("123m456p789s23455s", &[]);
        assert_eq!(value(&p), 2700.0);
        let tiles = parse_mpsz("123m456p789s23455s").unwrap();
        let mut input = WinInput::new(tiles, vec![], parse_mpsz("2s").unwrap()[0]);
        input.seat_wind = SOUTH;
        input.riichi = true;
        assert_eq!(score(&input).unwrap().base_points, 2700);
    }

    #[test]
    fn tenpai_single_wait_is_copies_times_points_over_12() {
        // 234m 456p 789s 13p 55s waits on 2p only (kanchan). Tsumo: riichi + tsumo, 20 + 2 tsumo
        // + 2 kanchan = 24 → 30 fu, 2 han: 500/1000 = 2000. Four 2p unseen: 4 × 2000 / 12.
        let p = pos("234m456p789s13p55s", &[]);
        assert!(close(value(&p), 4.0 * 2000.0 / 12.0), "{}", value(&p));
        // One 2p in a river: 3 copies left.
        let p = pos("234m456p789s13p55s", &[("2p", 1)]);
        assert!(close(value(&p), 3.0 * 2000.0 / 12.0), "{}", value(&p));
    }

    #[test]
    fn red_five_is_its_own_tile() {
        // 234m 46m 678p 789s 55s waits on 5m (kanchan): plain 5m = 2 han 30 fu = 2000 (three
        // copies), the red 5m adds aka: 3 han 30 fu = 1000/2000 = 4000 (one copy).
        let p = pos("23446m678p789s55s", &[]);
        assert!(close(value(&p), (3.0 * 2000.0 + 4000.0) / 12.0), "{}", value(&p));
        // The red 5m is in a river: only the three plain ones are left.
        let mut p = pos("23446m678p789s55s", &[("5m", 1)]);
        let v = EvSearch::new(&p).with_reds(true, [true, false, false]).value(&p.hand.clone());
        assert!(close(v, 3.0 * 2000.0 / 12.0), "{v}");
        // Without red fives all four 5m are plain.
        p.visible = [0; KINDS];
        let v = EvSearch::new(&p).with_reds(false, [false; 3]).value(&p.hand.clone());
        assert!(close(v, 4.0 * 2000.0 / 12.0), "{v}");
    }

    /// Visible tiles for the 1- and 2-shanten hands below: three 5z and three 6z are out, so
    /// those tiles are dead and only 1z (East, the round wind) and 2z (South, the seat wind)
    /// can still be drawn.
    const DEAD_DRAGONS: [(&str, u8); 2] = [("5z", 3), ("6z", 3)];

    /// C = 123m456p789s 11z 2z 5z (1-shanten), derived by hand:
    /// - draw 1z (2 unseen): 111z 2z 5z, discard 5z → 2z tanki (3 unseen). Tsumo 2z: riichi,
    ///   tsumo, East = 3 han; 20 + 2 tsumo + 8 closed honor set + 2 seat-wind pair + 2 tanki =
    ///   34 → 40 fu: 1300/2600 = 5200. Tenpai value 3 × 5200 / 12 = 1300.
    ///   Pon 1z instead: open 2z tanki; East 1 han; 20 + 2 + 4 + 2 + 2 = 30 fu: 300/500 = 1100,
    ///   value 3 × 1100 / 12 = 275; pon beats chi (none), so the call adds 3 × 275 = 825.
    ///   Term: 2 × (1300 + 825) = 4250.
    /// - draw 2z (3 unseen): 11z 22z 5z, discard 5z → shanpon 1z/2z, 2 unseen each, each tsumo
    ///   3 han 40 fu = 5200: value (2 + 2) × 5200 / 12; term 3 × that = 5200.
    /// - value (4250 + 5200) / 72.
    const C_VALUE: f64 = 9450.0 / 72.0;

    #[test]
    fn one_shanten_divides_by_72_and_counts_pon_three_times() {
        let p = pos("123m456p789s115z2z", &DEAD_DRAGONS);
        assert!(close(value(&p), C_VALUE), "{} vs {}", value(&p), C_VALUE);
    }

    #[test]
    fn two_shanten_divides_by_216() {
        // B = 123m456p789s 1z 2z 5z 6z. Draw 1z (3 unseen): the best discard keeps 11z 2z and a
        // dead dragon, a hand worth C_VALUE (the same counts as C; 11z 5z 6z is worth 0). No pon
        // (one 1z held). Draw 2z (3 unseen): by the 1z/2z symmetry (both one-han winds, the
        // same fu) also C_VALUE. Value: (3 + 3) × C_VALUE / 216.
        let p = pos("123m456p789s1256z", &DEAD_DRAGONS);
        assert!(close(value(&p), 6.0 * C_VALUE / 216.0), "{} vs {}", value(&p), 6.0 * C_VALUE / 216.0);
    }

    #[test]
    fn all_dead_futures_are_worth_zero() {
        // 123m456p789s 1z 3z 5z 6z with every useful tile but 1z out: 1z leads only to tanki
        // waits on dead tiles.
        let p = pos("123m456p789s1356z", &[("3z", 3), ("5z", 3), ("6z", 3)]);
        assert_eq!(value(&p), 0.0);
    }

    #[test]
    fn shanten_back_when_the_normal_wait_is_dead() {
        // 123m456p789s 11z 22z 5z, tenpai after 5z, but both 1z and 2z are out (2 visible each):
        // the normal discard is worth 0. Back: discard 1z, leaving 1-shanten 1z 22z 5z.
        // Drawing 5z (3 unseen) → 1z 22z 55z,
        // discard 1z → shanpon 2z (dead) / 5z (2 unseen): riichi, tsumo, haku, 20 + 2 + 8 + 2
        // seat-wind pair = 32 → 40 fu, 3 han = 5200; tenpai value 2 × 5200 / 12. Future value
        // exceeds 2 × 0, so it counts: 3 × (2 × 5200 / 12) / 72. Discarding 2z is symmetric
        // (11z pair is the round wind: the same 2 fu). The gate passes (6 × 0 ukeire). The tie
        // goes as in 電脳麻将: both winds have paijia 0 (no copy unseen), so the later kind, 2z.
        let p = pos("123m456p789s11225z", &[("1z", 2), ("2z", 2)]);
        let r = rank(&p);
        let want = 3.0 * (2.0 * 5200.0 / 12.0) / 72.0;
        assert_eq!(r[0].tile.to_string(), "2z", "{r:?}");
        assert!(close(r[0].score, want) && close(r[1].score, want), "{r:?}");
        let normal = r.iter().find(|o| o.tile.to_string() == "5z").unwrap();
        assert_eq!((r[0].shanten, normal.shanten, normal.score), (1, 0, 0.0), "{r:?}");
    }

    #[test]
    fn shanten_back_needs_six_times_the_ukeire() {
        // The same hand with one 2z visible: the shanpon keeps one 2z (4 - 1 - 2 held), so the
        // normal discard 5z has ukeire 1 and value 1 × 5200 / 12. Discarding 1z leaves ukeire
        // 0 (1z) + 1 (2z) + 3 (5z) = 4 < 6 × 1: not searched, scored -(1 + 1) + 4 / 1000.
        let p = pos("123m456p789s11225z", &[("1z", 2), ("2z", 1)]);
        let r = rank(&p);
        assert_eq!(r[0].tile.to_string(), "5z", "{r:?}");
        assert!(close(r[0].score, 5200.0 / 12.0), "{r:?}");
        let back = r.iter().find(|o| o.tile.to_string() == "1z").unwrap();
        assert_eq!((back.ukeire, back.shanten), (4, 1));
        assert!(close(back.score, -2.0 + 0.004), "{r:?}");
    }

    #[test]
    fn ties_go_to_the_least_useful_tile() {
        // 123m 456p 789s 234s + 1p 9p: either discard leaves a terminal tanki, 3 unseen, tsumo
        // riichi + tsumo 30 fu (20 + 2 + 2 → 30) = 2000: value 3 × 2000 / 12 = 500 both. With
        // three 2p visible, 1p's paijia is u(1p) + 2 min(u(2p), u(3p)) = 3 + 2 = 5 and 9p's is
        // 3 + 2 min(u(7p), u(8p)) = 3 + 8 = 11: 1p goes first.
        let p = pos("123m456p789s234s19p", &[("2p", 3)]);
        let paijia = Paijia::new(&p, true, [false; 3]);
        assert_eq!(paijia.value(parse_mpsz("1p").unwrap()[0]), 5.0);
        assert_eq!(paijia.value(parse_mpsz("9p").unwrap()[0]), 11.0);
        let r = rank(&p);
        let top: Vec<String> = r.iter().take(2).map(|o| o.tile.to_string()).collect();
        assert_eq!(top, ["1p", "9p"], "{r:?}");
        assert!(close(r[0].score, 500.0) && close(r[1].score, 500.0), "{r:?}");
    }

    #[test]
    fn discard_value_is_the_value_after_the_discard() {
        // 5m discard of the kanchan hand: tenpai on 2p, 4 unseen (nothing visible) × 2000 / 12.
        let p = pos("234m456p789s13p55s5m", &[]);
        let mut search = EvSearch::new(&p);
        let v = search.discard_value(parse_mpsz("5m").unwrap()[0]).unwrap();
        assert!(close(v, 4.0 * 2000.0 / 12.0), "{v}");
        assert_eq!(search.discard_value(parse_mpsz("9m").unwrap()[0]), None);
    }

    #[test]
    fn unnecessary_tiles_keep_shanten() {
        // xiangting's unnecessary tiles of a 3n+2 hand are exactly the kinds whose discard keeps
        // the minimum shanten: checked against discarding each kind.
        for h in ["1234m567p88s12345z", "123m456p789s11225z", "19m19p19s1234567z1m", "123m456p78s115z"] {
            let c = crate::tile::counts_of(&parse_mpsz(h).unwrap());
            let (s, keep) = crate::hand::shanten::unnecessary_kinds(&c);
            assert_eq!(s, min_shanten(&c), "{h}");
            for k in (0..KINDS).filter(|&k| c[k] > 0) {
                let mut d = c;
                d[k] -= 1;
                assert_eq!(keep >> k & 1 == 1, min_shanten(&d) == s, "{h} kind {k}");
            }
        }
    }
}

/// Real hands: kobalab's 14-tile shanten vectors, as positions in East round, South seat,
/// nothing visible. Only hands at minimum shanten `lo..=hi`.
#[cfg(test)]
pub(crate) fn kobalab_positions(lo: i8, hi: i8, limit: usize) -> Vec<Position> {
    let Some(dir) = crate::testdata::shared_file("kobalab") else { return Vec::new() };
    #[derive(serde::Deserialize)]
    struct Case {
        q: Vec<String>,
        x: [i8; 3],
    }
    let mut out = Vec::new();
    for i in 1..=4 {
        let text = std::fs::read_to_string(dir.join(format!("xiangting_{i}.json"))).unwrap();
        let cases: Vec<Case> = serde_json::from_str(&text).unwrap();
        for c in cases {
            let min = *c.x.iter().min().unwrap();
            if !(lo..=hi).contains(&min) {
                continue;
            }
            let tiles = c.q.iter().map(|t| crate::tile::parse_majiang(t).unwrap()[0]).collect();
            out.push(Position::new(
                Hand::new(tiles, vec![]),
                vec![],
                crate::tile::EAST,
                crate::tile::EAST + 1,
            ));
            if out.len() == limit {
                return out;
            }
        }
    }
    out
}

#[cfg(test)]
mod real_data {
    use super::*;

    /// Rankings of real 1- and 2-shanten hands keep the module's tiers: scores never increase
    /// down the list, searched options score ≥ 0, options at 3+ shanten score in
    /// (-shanten, -shanten + 0.544], and the top option never has a higher shanten than needed
    /// unless it is a searched shanten-back discard.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn tiers_hold_on_kobalab_hands() {
        let positions = kobalab_positions(0, 3, 300);
        if positions.is_empty() {
            return;
        }
        for p in &positions {
            let s = min_shanten(&p.hand.counts());
            let r = rank(p);
            assert_eq!(r.len(), p.hand.distinct_tiles().len());
            for w in r.windows(2) {
                assert!(w[0].score >= w[1].score - TIE_EPS, "{}: {r:?}", p.hand);
            }
            for o in &r {
                if o.shanten >= 3 {
                    let sh = o.shanten as f64;
                    assert!(o.score > -sh && o.score <= -sh + 0.544, "{}: {o:?}", p.hand);
                } else if o.shanten == s {
                    assert!(o.score >= 0.0, "{}: {o:?}", p.hand);
                }
            }
            assert!(r[0].shanten == s || (s <= 1 && r[0].score >= 0.0), "{}: {r:?}", p.hand);
        }
    }

    /// Debug-build timing of `rank` on real 1- and 2-shanten hands; run with
    /// `cargo test --lib expected_value::real_data::timing -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn timing() {
        for s in [1, 2] {
            let positions = kobalab_positions(s, s, 200);
            let mut memo = 0;
            let mut times: Vec<f64> = positions
                .iter()
                .map(|p| {
                    let t = std::time::Instant::now();
                    let mut search = EvSearch::new(p);
                    std::hint::black_box(search.rank());
                    memo += search.memo_len();
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            times.sort_by(f64::total_cmp);
            let n = times.len();
            let mean = times.iter().sum::<f64>() / n as f64;
            println!(
                "shanten {s}: {n} positions, mean {mean:.3} ms, median {:.3} ms, p99 {:.3} ms, max {:.3} ms, \
                 {} memo entries per position",
                times[n / 2],
                times[(n * 99 / 100).min(n - 1)],
                times[n - 1],
                memo / n
            );
        }
    }
}

/// Golden values from the reference implementation, kobalab's `@kobalab/majiang-ai` 1.0.13 (MIT
/// License, Copyright (c) 2021 Satoshi Kobayashi), computed by its own `eval_shoupai` (every
/// discard that keeps shanten) and its `select_dapai` logic (the pick's value, shanten back
/// included) on 233 kobalab hands at shanten 0, 1 and 2 in three table contexts (8 picks are
/// shanten-back discards, 77 hands hold red fives). testdata/README.md says how it was made.
#[cfg(test)]
mod majiang_ai {
    use super::*;
    use crate::tile::{parse_majiang, EAST};

    #[derive(serde::Deserialize)]
    struct Opt {
        discard: String,
        ev: f64,
    }
    #[derive(serde::Deserialize)]
    struct Case {
        q: String,
        variant: u8,
        options: Vec<Opt>,
        pick_ev: f64,
    }

    /// Variant 0: East round, South seat, no dora, nothing visible. Variant 1: South round,
    /// East seat (dealer), dora indicator 4s, visible 5z 5z 7p and the red 5m. Variant 2: as 0,
    /// the hand holding red fives.
    fn position(q: &str, variant: u8) -> (Position, [bool; 3]) {
        let hand = Hand::new(parse_majiang(q).unwrap(), vec![]);
        if variant != 1 {
            return (Position::new(hand, vec![], EAST, EAST + 1), [false; 3]);
        }
        let mut p = Position::new(hand, parse_majiang("s4").unwrap(), EAST + 1, EAST);
        for t in parse_majiang("z55p7m0").unwrap() {
            p.visible[t.kind()] += 1;
        }
        (p, [true, false, false])
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-6 * b.abs().max(1.0)
    }

    #[test]
    fn values_and_picks_match_majiang_ai() {
        let text = include_str!("testdata/majiang_ai_ev.json");
        let cases: Vec<Case> = serde_json::from_str(text).unwrap();
        assert_eq!(cases.len(), 233);
        let mut bad = Vec::new();
        let mut options = 0;
        for c in &cases {
            let (p, reds) = position(&c.q, c.variant);
            // majiang-core counts suuankou tanki and the other "double" forms twice.
            let mut search = EvSearch::new(&p).with_reds(true, reds).with_rules(ScoreRules::MAJIANG);
            for o in &c.options {
                let t = parse_majiang(&o.discard).unwrap()[0];
                let v = search.value(&p.hand.without(t).unwrap());
                options += 1;
                if !close(v, o.ev) {
                    bad.push(format!("{} v{} -{}: ours {v} theirs {}", p.hand, c.variant, o.discard, o.ev));
                }
            }
            let r = search.rank();
            if !close(r[0].score, c.pick_ev) {
                bad.push(format!("{} v{} pick: ours {:?} theirs {}", p.hand, c.variant, r[0], c.pick_ev));
            }
        }
        assert_eq!(options, 728);
        assert!(bad.is_empty(), "{} of {options} differ: {:#?}", bad.len(), &bad[..bad.len().min(10)]);
    }
}

/// Golden picks of 電脳麻将 on real positions: 2,502 discard decisions after a draw from shared
/// games, with nobody in riichi (500 per shanten 0, 1, 2, 3, 4+), each with the pick of
/// `@kobalab/majiang-ai` 1.0.13's `select_dapai` (MIT License, Copyright (c) 2021 Satoshi
/// Kobayashi), the paijia of every candidate and the value of every shanten-keeping discard.
/// Made by `scripts/majiang_golden.sh` (examples/majiang_positions.rs, then
/// scripts/majiang_golden.js).
#[cfg(test)]
mod majiang_picks {
    use super::*;
    use crate::hand::majiang;
    use crate::tile::{parse_majiang, EAST};
    use std::collections::BTreeMap;

    #[derive(serde::Deserialize)]
    struct Candidate {
        paijia: f64,
        ev: Option<f64>,
    }

    #[derive(serde::Deserialize)]
    struct Golden {
        id: String,
        shoupai: String,
        zhuangfeng: usize,
        menfeng: usize,
        baopai: Vec<String>,
        red: bool,
        paishu: BTreeMap<String, Vec<u8>>,
        shanten: i8,
        pick: String,
        candidates: BTreeMap<String, Candidate>,
    }

    struct Case {
        pos: Position,
        red: bool,
        visible_reds: [bool; 3],
        g: Golden,
    }

    fn cases() -> Vec<Case> {
        let text = include_str!("testdata/majiang_ai_picks.jsonl");
        text.lines()
            .map(|line| {
                let g: Golden = serde_json::from_str(line).unwrap();
                let (hand, drawn) = majiang::parse(&g.shoupai).unwrap();
                let dora: Vec<Tile> = g.baopai.iter().map(|p| parse_majiang(p).unwrap()[0]).collect();
                let mut pos = Position::new(hand, dora, EAST + g.zhuangfeng, EAST + g.menfeng);
                pos.drawn = drawn;
                // Everything the player does not hold and majiang-ai does not count as unseen is
                // visible (own melds included, as in ingest).
                let concealed = pos.hand.counts();
                for (s, suit) in ["m", "p", "s", "z"].iter().enumerate() {
                    let u = &g.paishu[*suit];
                    for n in 1..u.len() {
                        let k = s * 9 + n - 1;
                        pos.visible[k] = 4 - u[n] - concealed[k];
                    }
                }
                let held_red = |s: usize| pos.hand.tiles.iter().any(|t| t.is_red() && t.suit() == s);
                let visible_reds =
                    [0, 1, 2].map(|s| g.red && g.paishu[["m", "p", "s"][s]][0] == 0 && !held_red(s));
                Case { pos, red: g.red, visible_reds, g }
            })
            .collect()
    }

    fn name(t: Tile) -> String {
        let s = ['m', 'p', 's', 'z'][t.suit()];
        format!("{s}{}", if t.is_red() { 0 } else { t.number() })
    }

    #[test]
    fn paijia_matches_majiang_ai() {
        let mut bad = Vec::new();
        let mut n = 0;
        for c in cases() {
            let p = Paijia::new(&c.pos, c.red, c.visible_reds);
            for (tile, cand) in &c.g.candidates {
                let t = parse_majiang(tile).unwrap()[0];
                n += 1;
                if p.value(t) != cand.paijia {
                    bad.push(format!(
                        "{} {} {tile}: ours {} theirs {}",
                        c.g.id,
                        c.g.shoupai,
                        p.value(t),
                        cand.paijia
                    ));
                }
            }
        }
        assert!(n > 20_000, "{n} candidates");
        assert!(bad.is_empty(), "{} of {n} differ: {:#?}", bad.len(), &bad[..bad.len().min(10)]);
    }

    #[test]
    fn picks_match_majiang_ai() {
        let cases = cases();
        assert_eq!(cases.len(), 2502);
        let mut bad: BTreeMap<i8, Vec<String>> = BTreeMap::new();
        for c in &cases {
            let r =
                EvSearch::new(&c.pos).with_reds(c.red, c.visible_reds).with_rules(ScoreRules::MAJIANG).rank();
            let ours = name(r[0].tile);
            if ours != c.g.pick {
                let theirs_ev = c.g.candidates.get(&c.g.pick).and_then(|x| x.ev);
                let ours_ev = c.g.candidates.get(&ours).and_then(|x| x.ev);
                bad.entry(c.g.shanten).or_default().push(format!(
                    "{} {} ours {ours} ({:.3}; theirs for it {ours_ev:?}) theirs {} ({theirs_ev:?})",
                    c.g.id, c.g.shoupai, r[0].score, c.g.pick
                ));
            }
        }
        let summary: Vec<(i8, usize)> = bad.iter().map(|(s, v)| (*s, v.len())).collect();
        let first: Vec<&String> = bad.values().flat_map(|v| v.iter().take(4)).collect();
        assert!(bad.is_empty(), "differing picks by shanten {summary:?}: {first:#?}");
    }
}

/// [`EvSearch::far`] against its definition: the form-by-form shortcut gives the same score as
/// trying every form for every draw (the code before the shortcut, kept here as the oracle).
#[cfg(test)]
mod far_oracle {
    use super::*;
    use crate::hand::majiang;
    use crate::tile::{parse_majiang, EAST};

    /// The yaku-aware shanten by its definition, every form written out.
    fn yaku_shanten_ref(ev: &EvSearch, c: &Counts, melds: &[u16]) -> i8 {
        let nm = melds.len();
        let ty = |m: u16| m >> 7;
        let first = |m: u16| (m & 63) as usize;
        let closed = melds.iter().all(|&m| ty(m) == CLOSED_KAN);
        let mut best = NO_YAKU;
        if closed {
            best = best.min(plain_shanten(c, nm));
        }
        let roles = [ev.pos.round_wind, ev.pos.seat_wind, 31, 32, 33];
        let mut sets = 0;
        let mut back = None;
        for &k in &roles {
            if c[k] >= 3 {
                sets += 1;
            } else if c[k] == 2 && ev.unseen_kind(&(ev.root, ev.root_red), k) > 0 {
                back = Some(k);
            }
            sets += melds.iter().filter(|&&m| ty(m) != CHI && first(m) == k).count();
        }
        if sets > 0 {
            best = best.min(plain_shanten(c, nm));
        } else if let Some(k) = back {
            let mut c2 = *c;
            c2[k] -= 2;
            best = best.min(plain_shanten(&c2, nm + 1).saturating_add(1));
        }
        let terminal_meld = melds.iter().any(|&m| {
            let k = first(m);
            k >= 27 || if ty(m) == CHI { k % 9 == 0 || k % 9 == 6 } else { k % 9 == 0 || k % 9 == 8 }
        });
        if (closed || ev.rules.kuitan) && !terminal_meld {
            let mut c2 = *c;
            for k in 0..KINDS {
                if k >= 27 || k % 9 == 0 || k % 9 == 8 {
                    c2[k] = 0;
                }
            }
            best = best.min(plain_shanten(&c2, nm));
        }
        if melds.iter().all(|&m| ty(m) != CHI) {
            let kezi = nm as i8 + c.iter().filter(|&&x| x >= 3).count() as i8;
            let mut duizi = c.iter().filter(|&&x| x == 2).count() as i8;
            if kezi + duizi > 5 {
                duizi = 5 - kezi;
            }
            best = best.min(8 - 2 * kezi - duizi);
        }
        for suit in 0..3 {
            if melds.iter().all(|&m| first(m) >= 27 || first(m) / 9 == suit) {
                let mut c2 = *c;
                for k in (0..27).filter(|k| k / 9 != suit) {
                    c2[k] = 0;
                }
                best = best.min(plain_shanten(&c2, nm));
            }
        }
        best
    }

    /// The 3+ shanten score by its definition: every kind's draw tried on every form.
    fn far_ref(ev: &EvSearch, h: &St) -> f64 {
        let melds = &h.melds[..h.nm];
        let x = yaku_shanten_ref(ev, &h.c, melds);
        if x >= NO_YAKU {
            return -(NO_YAKU as f64);
        }
        let held = h.all();
        let mut w = 0u32;
        for k in (0..KINDS).filter(|&k| h.c[k] < 4) {
            let mut c = h.c;
            c[k] += 1;
            if yaku_shanten_ref(ev, &c, melds) >= x {
                continue;
            }
            let n = ev.unseen_kind(&held, k);
            if n == 0 {
                continue;
            }
            let after_call = |c: &Counts, ty: u16, first: Kind| {
                let mut m = [0u16; 4];
                m[..melds.len()].copy_from_slice(melds);
                m[melds.len()] = ty << 7 | first as u16;
                yaku_shanten_ref(ev, c, &m[..melds.len() + 1]) < x
            };
            let pon = x > 0 && h.c[k] >= 2 && {
                let mut c = h.c;
                c[k] -= 2;
                after_call(&c, PON, k)
            };
            let chi = x > 0
                && !pon
                && chi_pairs(&h.c, k).any(|(a, b)| {
                    let mut c = h.c;
                    c[a] -= 1;
                    c[b] -= 1;
                    after_call(&c, CHI, a.min(b).min(k))
                });
            w += n * if pon {
                4
            } else if chi {
                2
            } else {
                1
            };
        }
        w as f64 / 1000.0 - x as f64
    }

    /// Every golden position (real hands, open ones among them, shanten 0 to 6, every seat and
    /// round wind): each 13-tile hand after a discard, and every 97th of that hand with one
    /// drawable kind swapped for one of its tiles, under Tenhou's rules and, for open hands,
    /// without open tanyao too.
    #[test]
    fn far_equals_the_form_by_form_definition() {
        let text = include_str!("testdata/majiang_ai_picks.jsonl");
        let (mut n, mut bad) = (0, Vec::new());
        for line in text.lines() {
            let g: serde_json::Value = serde_json::from_str(line).unwrap();
            let (hand, _) = majiang::parse(g["shoupai"].as_str().unwrap()).unwrap();
            let dora: Vec<Tile> = g["baopai"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| parse_majiang(p.as_str().unwrap()).unwrap()[0])
                .collect();
            let wind = |f: &str| EAST + g[f].as_u64().unwrap() as usize;
            let pos = Position::new(hand, dora, wind("zhuangfeng"), wind("menfeng"));
            let rules: &[bool] = if pos.hand.melds.is_empty() { &[true] } else { &[true, false] };
            for &kuitan in rules {
                let ev = EvSearch::new(&pos).with_rules(ScoreRules { kuitan, ..ScoreRules::TENHOU });
                let h14 = St::from_hand(&pos.hand);
                for d in (0..KINDS).filter(|&d| h14.c[d] > 0) {
                    let h = h14.without(h14.discard_tile(d));
                    let mut hands = vec![h];
                    for k in (0..KINDS).filter(|&k| h.c[k] < 4 && k != d) {
                        for e in (0..KINDS).filter(|&e| h.c[e] > 0 && e != k) {
                            hands.push(h.with(Tile::from_kind(k)).without(h.discard_tile(e)));
                        }
                    }
                    for h in hands.iter().step_by(97) {
                        n += 1;
                        let (a, b) = (ev.far(h), far_ref(&ev, h));
                        if a.to_bits() != b.to_bits() && bad.len() < 10 {
                            bad.push(format!("{} kuitan {kuitan}: {:?} far {a} reference {b}", g["id"], h.c));
                        }
                    }
                }
            }
        }
        assert!(n > 40_000, "{n} hands");
        assert!(bad.is_empty(), "{} hands differ, e.g. {bad:#?}", bad.len());
    }
}
