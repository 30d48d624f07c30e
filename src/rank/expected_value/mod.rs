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
//! Ranking ([`rank`], in [`ranking`]): each discard gets the value 電脳麻将 gives it when it
//! chooses ([`EvSearch::options`], a [`ranking::Valuation`]): the searched value of the 13-tile
//! hand left by a discard that keeps shanten ≤ 2, the shanten-back value of a raising discard
//! that passed the gate, the 3+ terms (yaku-aware shanten and weighted ukeire); nothing else is
//! searched. Unvalued shanten-raising discards score `-(shanten + 1) + ukeire / 1000`, below every
//! valued one. [`ranking::pick_order`] then orders them; ties (equal score to 1e-6 points) are
//! broken as 電脳麻将 breaks them: the lower isolated-tile value ([`Paijia`]) goes first, then the
//! drawn tile, then the later kind ([`ranking::tie_key`]). Ingest stores the valuations in the
//! `value` columns, and a dataset's `ev` evaluator orders them with the same function.
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
//! Every 13-tile sub-hand is memoised per position (key: concealed counts, reds, melds, and the
//! search flags), so a sub-hand reached along several paths is searched once; a 14-tile sub-hand
//! is not (its discards' 13-tile values are, see `value14`). Use one [`EvSearch`] per position to
//! share the memo between its options.

pub mod ranking;
mod search;
mod state;
#[cfg(test)]
pub(crate) mod tests;
mod yaku_forms;

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::paijia::Paijia;
use super::RankedDiscard;
use crate::hand::shanten::{kinds_of, min_shanten};
use crate::hand::Hand;
use crate::replay::view::View;
use crate::score::{ScoreRules, WinInput};
use crate::tile::{Counts, Tile};
use crate::util::IntHasher;
use search::win_context;
use state::St;

/// Divisors of the draw sum at shanten 0, 1, 2: 12, 12 × 6, 12 × 6 × 3 (電脳麻将's `width`).
pub const WIDTH: [f64; 3] = [12.0, 72.0, 216.0];

/// A shanten-raising discard is searched only when its ukeire is at least this many times the
/// ukeire of the best normal discard.
pub const BACK_UKEIRE_RATIO: u32 = 6;

/// Expected value of a 13- or 14-tile hand in a position's context (dora, winds, visible
/// tiles). `hand` should be the position's hand or that hand after one discard: the position's
/// hand counts as seen (each of its tiles is either still held or in the river).
/// At 3+ shanten the result is the negative ranking score of the module doc, so take logs only
/// where shanten ≤ 2.
pub fn hand_value(pos: &View, hand: &Hand) -> f64 {
    EvSearch::new(pos).value(hand)
}

/// Ranks every distinct discard of the position's 14-tile hand, best first.
pub fn rank(pos: &View) -> Vec<RankedDiscard> {
    EvSearch::new(pos).rank()
}

/// The search state of one position: its fixed context and the memo.
pub struct EvSearch<'p> {
    pos: &'p View,
    /// The seat's hand (concealed tiles and melds), built once from the view.
    hand: Hand,
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
}

/// A memo map whose capacity grew past this many entries (one rare, huge search) is freed
/// rather than pooled, so the pool never holds more than [`MEMO_POOL_MAPS`] × ~1.5 MB per thread:
/// a pooled map keeps its capacity, so a few huge maps would otherwise stay for the whole run and
/// swell the peak memory of a long ingest.
const POOLED_MEMO_MAX: usize = 1 << 15;

/// Emptied memo maps kept per thread ([`MEMO_POOL`]).
const MEMO_POOL_MAPS: usize = 4;

impl Drop for EvSearch<'_> {
    fn drop(&mut self) {
        let mut memo = std::mem::take(&mut self.memo);
        if memo.capacity() > POOLED_MEMO_MAX {
            return;
        }
        memo.clear();
        MEMO_POOL.with(|p| {
            let mut p = p.borrow_mut();
            if p.len() < MEMO_POOL_MAPS {
                p.push(memo);
            }
        });
    }
}

impl<'p> EvSearch<'p> {
    /// A search over `pos`, assuming red fives are in play and none is visible outside the hand
    /// whatever the view says ([`EvSearch::with_reds`] and [`EvSearch::with_view_reds`] change
    /// that): the bots and the `linear` evaluator have always searched so.
    pub fn new(pos: &'p View) -> Self {
        let hand = pos.full_hand();
        let st = St::from_hand(&hand);
        let (root, root_red) = st.all();
        // `visible` counts the hand's own melds, which `root` (every tile the hand holds) counts
        // too: keep them once.
        let mut vis = pos.visible;
        for t in pos.melds.iter().flat_map(|m| m.tiles()) {
            vis[t.kind()] = vis[t.kind()].saturating_sub(1);
        }
        EvSearch {
            pos,
            hand,
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

    /// The view's own red-five rule and visible reds ([`View::red_fives`],
    /// [`View::visible_reds`]): how ingest searches a recorded decision.
    pub fn with_view_reds(self) -> Self {
        let (in_play, visible) = (self.pos.red_fives, self.pos.visible_reds);
        self.with_reds(in_play, visible)
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
        let after = self.hand.without(tile)?;
        Some(self.value(&after))
    }
}

/// The scoring input of a win in `pos`: its winds and dora; tiles, melds and riichi are filled
/// per win by [`EvSearch::win_points`].
fn win_input(pos: &View) -> WinInput {
    let mut input = WinInput::new(Vec::with_capacity(14), Vec::with_capacity(4), Tile::from_kind(0));
    input.round_wind = pos.round_wind;
    input.seat_wind = pos.seat_wind;
    input.dora_indicators = pos.dora_indicators.clone();
    input
}

impl EvSearch<'_> {
    /// 電脳麻将's shanten toward a hand with a yaku ([`Self::yaku_shanten`]) of any hand of the
    /// position (13 or 14 tiles, melds included): `select_fulou`'s test at 3+ shanten (a call is
    /// taken when it lowers it). Added for `rank::calls`; no value of this module changes.
    pub fn yaku_shanten_of(&self, hand: &Hand) -> i8 {
        let h = St::from_hand(hand);
        self.yaku_shanten(&h.c, &h.melds[..h.nm])
    }
}
