//! 電脳麻将's shanten toward a hand with a yaku (closed, yakuhai, tanyao, toitoi, flushes) and
//! the score of a hand at 3+ shanten built on it ([`EvSearch::far`]).

use super::ranking::{Far, NO_YAKU};
use super::state::{St, CHI, CLOSED_KAN, PON};
use super::EvSearch;
use crate::tile::{is_honor, Counts, Kind, KINDS};

impl EvSearch<'_> {
    /// The 3+ shanten score of the module doc.
    ///
    /// Which draws lower x is asked of each form of [`Self::yaku_shanten`] apart
    /// ([`YakuForms`]): a draw lowers a form by at most one, so only the forms at x can go
    /// below it, and only through kinds they use. That is a few shanten queries per hand
    /// instead of every form for each of the 34 kinds, with the same result (the test
    /// `far_equals_the_form_by_form_definition` checks it on real hands).
    pub(super) fn far(&self, h: &St) -> f64 {
        self.far_parts(h).score()
    }

    /// The two terms of [`Self::far`]: the yaku-aware shanten x and the weighted ukeire W.
    pub(super) fn far_parts(&self, h: &St) -> Far {
        let melds = &h.melds[..h.nm];
        let forms = YakuForms::new(self, &h.c, melds);
        let x = forms.best;
        if x >= NO_YAKU {
            return Far { yaku_shanten: NO_YAKU, weighted_ukeire: 0 };
        }
        let held = h.all();
        let lowering = if forms.plain_at_best() { plain_lowering(&h.c, melds.len()) } else { 0 };
        let mut w = 0u32;
        for k in (0..KINDS).filter(|&k| h.c[k] < 4) {
            let n = self.unseen_kind(&held, k);
            if n == 0 || !forms.lowered_by(self, &h.c, melds, k, lowering) {
                continue;
            }
            // A call counts when it lowers the yaku-aware shanten: pon from any seat, chi from the
            // left only (電脳麻将's weights 4 and 2).
            let after_call = |c: &Counts, ty: u16, first: Kind| {
                let mut m = [0u16; 4];
                m[..melds.len()].copy_from_slice(melds);
                m[melds.len()] = ty << 7 | first as u16;
                yaku_shanten_below(self, c, &m[..melds.len() + 1], x)
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
        Far { yaku_shanten: x, weighted_ukeire: w }
    }

    /// The yakuhai kinds: the round wind, the seat wind and the dragons.
    pub(super) fn roles(&self) -> [Kind; 5] {
        [self.pos.round_wind, self.pos.seat_wind, 31, 32, 33]
    }

    /// The yakuhai form of [`Self::yaku_shanten`] on its own, with the facts it rests on.
    pub(super) fn yakuhai_form(&self, c: &Counts, melds: &[u16]) -> YakuhaiForm {
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
    pub(super) fn yaku_shanten(&self, c: &Counts, melds: &[u16]) -> i8 {
        YakuForms::new(self, c, melds).best
    }
}

/// The yakuhai form of [`EvSearch::yaku_shanten`]: a yakuhai set held or melded (then the plain
/// shanten), or else a yakuhai pair with a copy unseen (one more than the plain shanten after
/// calling it), or no yakuhai in reach.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum YakuhaiForm {
    Set(i8),
    Back(Kind, i8),
    None,
}

impl YakuhaiForm {
    pub(super) fn value(self) -> i8 {
        match self {
            YakuhaiForm::Set(v) | YakuhaiForm::Back(_, v) => v,
            YakuhaiForm::None => NO_YAKU,
        }
    }
}

/// Each form of [`EvSearch::yaku_shanten`] of one hand (`None`: the melds rule it out) and their
/// least, `best`.
pub(super) struct YakuForms {
    pub(super) closed: Option<i8>,
    pub(super) yakuhai: YakuhaiForm,
    pub(super) tanyao: Option<i8>,
    pub(super) toitoi: Option<i8>,
    pub(super) flush: [Option<i8>; 3],
    pub(super) best: i8,
}

/// Which forms of [`EvSearch::yaku_shanten`] the melds leave open (in [`St`]'s encoding).
struct OpenForms {
    closed: bool,
    tanyao: bool,
    toitoi: bool,
    flush: [bool; 3],
}

impl OpenForms {
    fn new(ev: &EvSearch, melds: &[u16]) -> OpenForms {
        let ty = |m: u16| m >> 7;
        let first = |m: u16| (m & 63) as usize;
        let closed = melds.iter().all(|&m| ty(m) == CLOSED_KAN);
        let terminal_meld = melds.iter().any(|&m| {
            let k = first(m);
            k >= 27 || if ty(m) == CHI { k % 9 == 0 || k % 9 == 6 } else { k % 9 == 0 || k % 9 == 8 }
        });
        OpenForms {
            closed,
            tanyao: (closed || ev.rules.kuitan) && !terminal_meld,
            toitoi: melds.iter().all(|&m| ty(m) != CHI),
            flush: [0, 1, 2].map(|suit| melds.iter().all(|&m| first(m) >= 27 || first(m) / 9 == suit)),
        }
    }
}

/// Whether [`EvSearch::yaku_shanten`] of `c` with `melds` is below `x`: the same forms, asked one
/// at a time, cheapest first, stopping at the first below `x` (the least is below `x` exactly
/// when one of them is). Why: 電脳麻将's weighted ukeire asks it of the hand after each pon and
/// chi of every kind that lowers x, where one form usually answers.
pub(super) fn yaku_shanten_below(ev: &EvSearch, c: &Counts, melds: &[u16], x: i8) -> bool {
    let nm = melds.len();
    let open = OpenForms::new(ev, melds);
    let below = (open.toitoi && toitoi_shanten(c, nm) < x)
        || ev.yakuhai_form(c, melds).value() < x
        || (open.closed && plain_shanten(c, nm) < x)
        || (open.tanyao && plain_shanten(&tanyao_counts(c), nm) < x)
        || (0..3).any(|suit| open.flush[suit] && plain_shanten(&flush_counts(c, suit), nm) < x);
    debug_assert_eq!(below, ev.yaku_shanten(c, melds) < x, "{c:?} {melds:?}");
    below
}

impl YakuForms {
    pub(super) fn new(ev: &EvSearch, c: &Counts, melds: &[u16]) -> YakuForms {
        let nm = melds.len();
        let open = OpenForms::new(ev, melds);
        let mut forms = YakuForms {
            closed: open.closed.then(|| plain_shanten(c, nm)),
            yakuhai: ev.yakuhai_form(c, melds),
            tanyao: open.tanyao.then(|| plain_shanten(&tanyao_counts(c), nm)),
            toitoi: open.toitoi.then(|| toitoi_shanten(c, nm)),
            flush: [0, 1, 2].map(|suit| open.flush[suit].then(|| plain_shanten(&flush_counts(c, suit), nm))),
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
    ///
    /// `lowering` is [`plain_lowering`] of the hand when [`Self::plain_at_best`] (the closed and
    /// yakuhai-set forms are then the plain shanten at x, and they go below x exactly by those
    /// kinds), else unused.
    pub(super) fn lowered_by(
        &self,
        ev: &EvSearch,
        c: &Counts,
        melds: &[u16],
        k: Kind,
        lowering: u64,
    ) -> bool {
        let x = self.best;
        let nm = melds.len();
        let mut c2 = *c;
        c2[k] += 1;
        let plain_lowers = || {
            debug_assert_eq!(lowering >> k & 1 == 1, plain_shanten(&c2, nm) < x, "{c:?} + {k}");
            lowering >> k & 1 == 1
        };
        if self.closed == Some(x) && plain_lowers() {
            return true;
        }
        if ev.roles().contains(&k) {
            if ev.yakuhai_form(&c2, melds).value() < x {
                return true;
            }
        } else {
            match self.yakuhai {
                YakuhaiForm::Set(v) if v == x && plain_lowers() => return true,
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

impl YakuForms {
    /// Whether a form that is the plain shanten of the whole hand (closed, or yakuhai with a set)
    /// is at `best`: then [`Self::lowered_by`] reads [`plain_lowering`].
    pub(super) fn plain_at_best(&self) -> bool {
        self.closed == Some(self.best) || self.yakuhai == YakuhaiForm::Set(self.best)
    }
}

/// The kinds held fewer than 4 times whose draw lowers [`plain_shanten`] of `c` (with `melds`
/// melds made), in one pass: the standard form's from the replacement tables' necessary kinds
/// (a draw lowers it by one or not at all), chiitoitsu's and kokushi's by their formulas per
/// kind. Why: the 3+ weighted ukeire asks this of every kind of every option, and the plain
/// shanten of each hand one draw away was most of its cost (test `plain_lowering_is_per_kind`).
pub(super) fn plain_lowering(c: &Counts, melds: usize) -> u64 {
    let Some((number, need)) =
        4usize.checked_sub(melds).and_then(|m| crate::hand::replacement::standard_necessary(c, m).ok())
    else {
        // Not a concealed part the tables take: one plain shanten per kind.
        let p = plain_shanten(c, melds);
        return (0..KINDS).filter(|&k| c[k] < 4).fold(0, |acc, k| {
            let mut c2 = *c;
            c2[k] += 1;
            acc | u64::from(plain_shanten(&c2, melds) < p) << k
        });
    };
    let standard = number as i8 - 1;
    if melds > 0 {
        return need;
    }
    let forms = |c: &Counts| (chiitoitsu_mj(c), kokushi_mj(c));
    let (ch, ko) = forms(c);
    let p = standard.min(ch).min(ko);
    let mut out = 0u64;
    for k in (0..KINDS).filter(|&k| c[k] < 4) {
        let std_k = standard - i8::from(need >> k & 1 == 1);
        let mut c2 = *c;
        c2[k] += 1;
        let (ch, ko) = forms(&c2);
        out |= u64::from(std_k.min(ch).min(ko) < p) << k;
    }
    out
}

/// A 2-8 tile.
pub(super) fn is_tanyao_kind(k: Kind) -> bool {
    k < 27 && k % 9 != 0 && k % 9 != 8
}

/// The 2-8 tiles of `c` (the tanyao form's tiles).
pub(super) fn tanyao_counts(c: &Counts) -> Counts {
    let mut c2 = *c;
    for k in (0..KINDS).filter(|&k| !is_tanyao_kind(k)) {
        c2[k] = 0;
    }
    c2
}

/// The tiles of `c` of one suit and the honours (a flush form's tiles).
pub(super) fn flush_counts(c: &Counts, suit: usize) -> Counts {
    let mut c2 = *c;
    for k in (0..27).filter(|k| k / 9 != suit) {
        c2[k] = 0;
    }
    c2
}

/// The toitoi form: 8 - 2 sets - pairs, sets (melds included) and pairs at most 5 in all.
pub(super) fn toitoi_shanten(c: &Counts, nm: usize) -> i8 {
    let kezi = nm as i8 + c.iter().filter(|&&x| x >= 3).count() as i8;
    let mut duizi = c.iter().filter(|&&x| x == 2).count() as i8;
    if kezi + duizi > 5 {
        duizi = 5 - kezi;
    }
    8 - 2 * kezi - duizi
}

/// majiang-core's `xiangting` of concealed counts that may be short of tiles (its forms reduced
/// to one suit, or to the 2-8 tiles): the standard form with `melds` made, and for a hand
/// without melds seven pairs and thirteen orphans by its formulas.
///
/// Cached per thread: the yaku forms of a position's options reduce many hands to the same
/// counts (a flush form ignores every discard outside its suit), so most queries repeat.
pub(super) fn plain_shanten(c: &Counts, melds: usize) -> i8 {
    // Bit 120 marks a used key (an empty slot holds key 0); melds sit above the 102 count bits.
    let key = crate::hand::memo::pack(c) | (melds as u128) << 104 | 1 << 120;
    let hash = crate::hand::memo::mix(key as u64, (key >> 64) as u64);
    PLAIN.with(|m| {
        let mut m = m.borrow_mut();
        m.get(key, hash).unwrap_or_else(|| {
            let v = plain_shanten_uncached(c, melds);
            m.put(key, hash, v);
            v
        })
    })
}

thread_local! {
    /// [`plain_shanten`]'s cache: 2^12 slots of 32 bytes.
    static PLAIN: std::cell::RefCell<crate::hand::memo::Direct<u128, i8>> =
        std::cell::RefCell::new(crate::hand::memo::Direct::new(12));
}

fn plain_shanten_uncached(c: &Counts, melds: usize) -> i8 {
    let best = crate::hand::shanten::standard(c, melds);
    if melds == 0 {
        best.min(chiitoitsu_mj(c)).min(kokushi_mj(c))
    } else {
        best
    }
}

/// majiang-core's seven pairs shanten of a hand without melds.
fn chiitoitsu_mj(c: &Counts) -> i8 {
    let pairs = c.iter().filter(|&&x| x >= 2).count().min(7) as i8;
    let singles = c.iter().filter(|&&x| x == 1).count() as i8;
    13 - 2 * pairs - singles.min(7 - pairs)
}

/// majiang-core's thirteen orphans shanten of a hand without melds.
fn kokushi_mj(c: &Counts) -> i8 {
    let orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
    let kinds = orphans.iter().filter(|&&k| c[k] >= 1).count() as i8;
    let pair = orphans.iter().any(|&k| c[k] >= 2);
    if pair {
        12 - kinds
    } else {
        13 - kinds
    }
}

/// The pairs of other kinds (a, b) held in `c` that make a run with kind k (suited).
pub(super) fn chi_pairs(c: &Counts, k: Kind) -> impl Iterator<Item = (Kind, Kind)> + '_ {
    let n = k % 9;
    (n.saturating_sub(2)..=n.min(6)).filter(move |_| !is_honor(k)).filter_map(move |start| {
        let first = k - n + start;
        let mut others = (first..first + 3).filter(|&x| x != k);
        let (a, b) = (others.next().unwrap_or(k), others.next().unwrap_or(k));
        (c[a] > 0 && c[b] > 0).then_some((a, b))
    })
}
