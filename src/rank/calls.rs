//! Calls by value, as 電脳麻将 decides them (majiang-ai's `select_fulou`), written from its
//! description and checked against majiang-ai 1.0.13 on real call offers
//! (`testdata/majiang_ai_calls.jsonl`).
//!
//! With the hand before the call at (minimum) shanten n:
//! - **n ≤ 2**: every offered chi, pon and open kan is valued as the hand after the call: the best
//!   [`expected_value`] over its legal discards (no kuikae) that keep its shanten (an open kan
//!   has no discard: its 13-tile value). A call whose hand is at 3+ shanten is not considered. The
//!   call with the highest value is taken when it beats the value of not calling (the 13-tile
//!   value of the hand as it is, its own future calls included) by more than 1e-7. A call
//!   without a yaku in reach is worth 0, so the yaku condition is in the value.
//! - **n ≥ 3**: no value; the first pon, then chi, that lowers the yaku-aware shanten
//!   ([`expected_value::EvSearch::yaku_shanten_of`]) is taken (no kan).
//!
//! Against a riichi ([`CallRule`]): player 0400 to 0402 (the seed's bots) call only at shanten ≤ 1
//! and only into tenpai; 1.0.13 does not call at 3+ shanten, and calls into 1-2 shanten only at a
//! value of 1200 or more, into tenpai only at 500 or more.

use super::expected_value::EvSearch;
use crate::hand::meld::{Meld, MeldKind};
use crate::hand::shanten::min_shanten;
use crate::replay::view::View;
use crate::tile::{Kind, Tile};

/// Which 電脳麻将 player's conditions against a riichi.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallRule {
    /// Players 0201 to 0402: with a riichi on the table, no call at 2+ shanten, and only calls
    /// that reach tenpai.
    Legacy,
    /// Player 0403 onwards (1.0.13): no call at 3+ shanten; a call that leaves the hand short of
    /// tenpai needs a value of 1200, one into tenpai 500.
    Current,
}

/// One call the rules offer: the meld it makes (offered tile included, `from` = the discarder's
/// relative seat) and the concealed tiles it takes.
#[derive(Clone, Debug, PartialEq)]
pub struct CallCandidate {
    pub meld: Meld,
    pub from_hand: Vec<Tile>,
}

impl CallCandidate {
    /// The kinds the hand may not discard right after this call (kuikae, as Tenhou and 電脳麻将:
    /// the called kind, and for a chi called at one end the kind across the run).
    pub fn forbidden(&self) -> Vec<Kind> {
        let Some(called) = self.meld.called else { return vec![] };
        let k = called.kind();
        let mut out = vec![k];
        if self.meld.kind == MeldKind::Chi {
            let low = self.meld.first_kind();
            let n = k % 9;
            if k == low && n < 6 {
                out.push(k + 3);
            } else if k == low + 2 && n > 2 {
                out.push(k - 3);
            }
        }
        out
    }
}

/// The seat's view after making the call: the tiles leave the hand for the new meld (they become
/// visible, the offered tile already was), nothing drawn.
pub fn view_after(pos: &View, c: &CallCandidate) -> View {
    let mut after = pos.clone();
    for t in &c.from_hand {
        if let Some(i) = after.hand.iter().position(|h| h == t) {
            after.hand.remove(i);
            after.visible[t.kind()] += 1;
        }
    }
    after.melds.push(c.meld);
    after.drawn = None;
    after
}

/// The value of the hand after the call (`after`, from [`view_after`]) and its shanten: for a
/// chi or pon the best value over its legal discards that keep its shanten (0 when none); for an
/// open kan its 13-tile value.
pub fn value_after(after: &View, c: &CallCandidate) -> (f64, i8) {
    let x = min_shanten(&after.hand_counts());
    let mut search = EvSearch::new(after).with_view_reds();
    let hand = after.full_hand();
    if c.meld.kind.is_kan() {
        return (if x <= 2 { search.value(&hand) } else { 0.0 }, x);
    }
    let forbidden = c.forbidden();
    let mut best = 0.0f64;
    for d in hand.distinct_tiles() {
        if forbidden.contains(&d.kind()) {
            continue;
        }
        let Some(rest) = hand.without(d) else { continue };
        let mut counts = after.hand_counts();
        counts[d.kind()] -= 1;
        if min_shanten(&counts) > x {
            continue;
        }
        best = best.max(search.value(&rest));
    }
    (best, x)
}

/// 電脳麻将's choice among the offered calls `cands` (pons and kans before chis, as it lists
/// them) for the 13-tile hand of `pos`; `None` = pass. `riichi` = someone at the table has
/// declared riichi.
pub fn select_call(pos: &View, cands: &[CallCandidate], rule: CallRule) -> Option<usize> {
    let n = min_shanten(&pos.hand_counts());
    let riichi = pos.riichi_opponents().next().is_some();
    let too_far = match rule {
        CallRule::Legacy => n > 1,
        CallRule::Current => n >= 3,
    };
    if cands.is_empty() || riichi && too_far {
        return None;
    }
    if n >= 3 {
        let search = EvSearch::new(pos).with_view_reds();
        let now = search.yaku_shanten_of(&pos.full_hand());
        return cands.iter().position(|c| {
            !c.meld.kind.is_kan() && search.yaku_shanten_of(&view_after(pos, c).full_hand()) < now
        });
    }
    let mut max = EvSearch::new(pos).with_view_reds().value(&pos.full_hand());
    let mut pick = None;
    for (i, c) in cands.iter().enumerate() {
        let after = view_after(pos, c);
        if min_shanten(&after.hand_counts()) >= 3 {
            continue;
        }
        let (ev, x) = value_after(&after, c);
        let refused = riichi
            && match rule {
                CallRule::Legacy => x > 0,
                CallRule::Current => x > 0 && ev < 1200.0 || x == 0 && ev < 500.0,
            };
        if !refused && ev - max > 1e-7 {
            max = ev;
            pick = Some(i);
        }
    }
    pick
}

/// A kan on the seat's own turn: a closed kan of a kind (its four tiles) or an added kan (the
/// tile added to its pon).
#[derive(Clone, Debug, PartialEq)]
pub enum OwnKan {
    Closed(Kind),
    Added(Tile),
}

/// The seat's view after its own kan (before the replacement draw): the tiles leave the hand for
/// the kan meld and become visible.
pub fn view_after_kan(pos: &View, kan: &OwnKan) -> View {
    let mut after = pos.clone();
    after.drawn = None;
    match *kan {
        OwnKan::Closed(k) => {
            let tiles: Vec<Tile> = after.hand.iter().copied().filter(|t| t.kind() == k).collect();
            after.hand.retain(|t| t.kind() != k);
            after.visible[k] += tiles.len() as u8;
            after.melds.push(Meld::new(MeldKind::Ankan, &tiles, None, 0));
        }
        OwnKan::Added(t) => {
            if let Some(i) = after.hand.iter().position(|h| *h == t) {
                after.hand.remove(i);
                after.visible[t.kind()] += 1;
            }
            if let Some(m) =
                after.melds.iter_mut().find(|m| m.kind == MeldKind::Pon && m.first_kind() == t.kind())
            {
                let mut tiles = m.tiles().to_vec();
                tiles.push(t);
                *m = Meld::new(MeldKind::Kakan, &tiles, m.called, m.from);
            }
        }
    }
    after
}

/// 電脳麻将's kan on its own turn (`select_gang`) for the 14-tile hand of `pos`: none facing a
/// riichi unless tenpai; at shanten ≤ 2 the last kan whose hand is worth at least the hand now
/// (its 13-tile value against the 14-tile hand's, within 1e-7) and not at 3+ shanten; at 3+
/// shanten the first kan that keeps the yaku-aware shanten. `None` = no kan.
pub fn select_kan(pos: &View, kans: &[OwnKan]) -> Option<usize> {
    let n = min_shanten(&pos.hand_counts());
    if kans.is_empty() || pos.riichi_opponents().next().is_some() && n > 0 {
        return None;
    }
    if n >= 3 {
        let search = EvSearch::new(pos).with_view_reds();
        let now = search.yaku_shanten_of(&pos.full_hand());
        return kans.iter().position(|k| search.yaku_shanten_of(&view_after_kan(pos, k).full_hand()) == now);
    }
    let mut max = EvSearch::new(pos).with_view_reds().value(&pos.full_hand());
    let mut pick = None;
    for (i, k) in kans.iter().enumerate() {
        let after = view_after_kan(pos, k);
        if min_shanten(&after.hand_counts()) >= 3 {
            continue;
        }
        let ev = EvSearch::new(&after).with_view_reds().value(&after.full_hand());
        if ev - max > -1e-7 {
            max = ev;
            pick = Some(i);
        }
    }
    pick
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::Hand;
    use crate::tile::{parse_mpsz, EAST};

    fn tiles(s: &str) -> Vec<Tile> {
        parse_mpsz(s).unwrap()
    }

    fn pon(kind: &str, from: u8) -> CallCandidate {
        let t = tiles(kind);
        CallCandidate {
            meld: Meld::new(MeldKind::Pon, &[t[0], t[0], t[0]], Some(t[0]), from),
            from_hand: vec![t[0], t[0]],
        }
    }

    #[test]
    fn kuikae_kinds() {
        let run = |s: &str, called: &str| {
            let t = tiles(s);
            let c = tiles(called)[0];
            let hand: Vec<Tile> = t.iter().copied().filter(|x| *x != c).collect();
            CallCandidate { meld: Meld::new(MeldKind::Chi, &t, Some(c), 3), from_hand: hand }.forbidden()
        };
        let k = |s: &str| tiles(s)[0].kind();
        assert_eq!(run("345m", "3m"), vec![k("3m"), k("6m")]);
        assert_eq!(run("345m", "5m"), vec![k("5m"), k("2m")]);
        assert_eq!(run("345m", "4m"), vec![k("4m")]);
        assert_eq!(run("789p", "7p"), vec![k("7p")]);
        assert_eq!(pon("5z", 2).forbidden(), vec![k("5z")]);
    }

    /// A dragon pair at 1-shanten: the pon gives a yaku and tenpai, worth more than the closed
    /// hand's riichi-or-call value; with the legacy rule a riichi on the table still allows a
    /// call into tenpai, and the pass is kept when the call is worth nothing (a guest wind pair).
    #[test]
    fn yakuhai_pon_by_value() {
        let pos = View::bare(Hand::new(tiles("234m67p45678s55z1s"), vec![]), vec![], EAST, EAST + 1);
        assert_eq!(pos.hand.len(), 13);
        let c = [pon("5z", 2)];
        assert_eq!(select_call(&pos, &c, CallRule::Current), Some(0));
        // Without the pair's yaku (a guest wind, west for an East round / South seat): 0.
        let pos = View::bare(Hand::new(tiles("234m67p45678s33z1s"), vec![]), vec![], EAST, EAST + 1);
        let after = view_after(&pos, &pon("3z", 2));
        assert_eq!(value_after(&after, &pon("3z", 2)).0, 0.0);
        assert_eq!(select_call(&pos, &[pon("3z", 2)], CallRule::Current), None);
    }

    /// One line of `testdata/majiang_ai_calls.jsonl`.
    #[derive(serde::Deserialize)]
    struct Golden {
        id: String,
        shoupai: String,
        zhuangfeng: usize,
        menfeng: usize,
        baopai: Vec<String>,
        dapai: GoldenDapai,
        lizhi: Vec<usize>,
        visible: Vec<u8>,
        visible_reds: Vec<bool>,
        calls: Vec<GoldenCall>,
        pick: Option<String>,
    }

    #[derive(serde::Deserialize)]
    struct GoldenDapai {
        l: usize,
        p: String,
    }

    #[derive(serde::Deserialize)]
    struct GoldenCall {
        kind: String,
        hand: String,
    }

    fn one(s: &str) -> Tile {
        crate::tile::parse_majiang(s).unwrap()[0]
    }

    /// The offer of a golden line: the seat's view and the offered calls.
    fn golden_offer(g: &Golden) -> (View, Vec<CallCandidate>) {
        use crate::replay::view::{Opponent, SeenDiscard};
        let hand = Hand::parse(&g.shoupai).unwrap();
        let dora = g.baopai.iter().map(|p| one(p)).collect();
        let mut pos = View::bare(hand, dora, EAST + g.zhuangfeng, EAST + g.menfeng);
        pos.visible = std::array::from_fn(|k| g.visible[k]);
        pos.visible_reds = [g.visible_reds[0], g.visible_reds[1], g.visible_reds[2]];
        if !g.lizhi.is_empty() {
            let river = vec![SeenDiscard { tile: one("z1"), tsumogiri: false, called: false }];
            pos.opponents[0] = Opponent { river, riichi_at: Some(0), ..Opponent::default() };
        }
        let offered = one(&g.dapai.p);
        let rel = ((g.dapai.l + 4 - g.menfeng) % 4) as u8;
        let cands = g
            .calls
            .iter()
            .map(|c| {
                let from_hand = tiles(&c.hand);
                let mut all = from_hand.clone();
                all.push(offered);
                let (kind, from) = match c.kind.as_str() {
                    "daiminkan" => (MeldKind::Daiminkan, rel),
                    "pon" => (MeldKind::Pon, rel),
                    _ => (MeldKind::Chi, 3),
                };
                CallCandidate { meld: Meld::new(kind, &all, Some(offered), from), from_hand }
            })
            .collect();
        (pos, cands)
    }

    /// A meld as its suit and sorted digits (red five = 0), majiang's string or ours.
    fn key_of_majiang(m: &str) -> String {
        let mut d: Vec<char> = m[1..].chars().filter(|c| c.is_ascii_digit()).collect();
        d.sort_unstable();
        format!("{}{}", &m[..1], d.into_iter().collect::<String>())
    }

    fn key_of_meld(m: &Meld) -> String {
        let suit = ['m', 'p', 's', 'z'][m.tiles()[0].suit()];
        let mut d: Vec<char> =
            m.tiles().iter().map(|t| char::from(b'0' + if t.is_red() { 0 } else { t.number() })).collect();
        d.sort_unstable();
        format!("{suit}{}", d.into_iter().collect::<String>())
    }

    /// 300 real call offers (60 with a riichi on the table): our choice is majiang-ai 1.0.13's.
    #[test]
    fn golden_offers_match_majiang_ai() {
        let lines: Vec<Golden> = include_str!("testdata/majiang_ai_calls.jsonl")
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 300);
        let mut wrong = Vec::new();
        for g in &lines {
            let (pos, cands) = golden_offer(g);
            let ours = select_call(&pos, &cands, CallRule::Current).map(|i| key_of_meld(&cands[i].meld));
            let theirs = g.pick.as_deref().map(key_of_majiang);
            if ours != theirs {
                wrong.push(format!("{}: ours {ours:?}, majiang-ai {theirs:?}", g.id));
            }
        }
        assert!(wrong.is_empty(), "{} of 300 differ:\n{}", wrong.len(), wrong.join("\n"));
    }

    /// A closed kan of an isolated set keeps the hand's value or raises it (a kan adds fu and
    /// the hand stays tenpai): taken. A kan that breaks a wait (four of the kind used in a run)
    /// loses value: refused.
    #[test]
    fn own_kan_by_value() {
        // 1111m 45m 234p 567s 88s: tenpai on 36m after cutting a 1m; the kan keeps that wait
        // and adds fu.
        let pos = View::bare(Hand::new(tiles("111145m234p56788s"), vec![]), vec![], EAST, EAST + 1);
        let one = tiles("1m")[0].kind();
        assert_eq!(select_kan(&pos, &[OwnKan::Closed(one)]), Some(0));
        // 222 3 4444m 567p 11s 9m: tenpai on 2m / 1s after cutting 9m; the 4m kan leaves 2223m
        // 567p 11s 9m, one step back: refused.
        let pos = View::bare(Hand::new(tiles("22234444m567p11s9m"), vec![]), vec![], EAST, EAST + 1);
        let four = tiles("4m")[0].kind();
        assert_eq!(select_kan(&pos, &[OwnKan::Closed(four)]), None);
    }
}
