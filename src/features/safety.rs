//! Safety of the discarded tile against opponents in riichi.
//!
//! Columns: three global ones (`safety_any_riichi`, `safety_riichi_count`, `safety_genbutsu_all`),
//! then one block of [`BLOCK`] columns for the most dangerous riichi opponent (`safety_worst_*`)
//! and one per relative seat (`safety_opp1_*` next, `opp2` across, `opp3` previous). A block of an
//! opponent not in riichi is all zero, and with nobody in riichi every safety column is 0: the
//! fit can only weigh safety through decisions where someone is in riichi.
//!
//! Definitions, for the discarded kind `k` against a riichi opponent `j`:
//! - safe set of `j`: every kind in j's river (called-away tiles included: furiten counts them)
//!   plus every kind anyone discarded after j's riichi tile (`Opponent::riichi_passed`: j let it
//!   pass, so j cannot ron it any more).
//! - `genbutsu`: `k` in the safe set.
//! - `suji` (not genbutsu, suited, number n): every suji partner is in the safe set. Partners are
//!   n-3 and n+3 where they exist: 1-3 have only n+3, 7-9 only n-3, 4-6 both. (A ryanmen wait on
//!   n is always on n and n±3, so a safe partner rules out the ryanmen on that side.)
//! - `half_suji` (4-6, not genbutsu): exactly one of the two partners is safe.
//! - `musuji_19/28/37/456` (suited, not genbutsu, not suji, not half-suji): by number class.
//! - `no_chance` (suited, not genbutsu): every two-sided shape that waits on `k` (n+1 n+2 when
//!   n <= 6, n-2 n-1 when n >= 4) has a kind whose 4 copies are all seen by the player (visible
//!   tiles and own hand): no ryanmen can deal in, only kanchan/shanpon/tanki/penchan.
//!   `one_chance`: not no-chance, and every such shape has a kind with at least 3 copies seen.
//! - `honor` (not genbutsu), `honor_unseen`: copies of the honor not seen by the player (the
//!   discarded copy counts as seen), 0-3; 0 means nobody can wait on it.
//! - `early_outside` (suited, not genbutsu): j discarded, among its first 6 discards and before
//!   the riichi tile, a tile of the same suit with number m such that `k` is on its outer side
//!   within two steps: m <= 5 and n in {m-1, m-2}, or m >= 5 and n in {m+1, m+2}. An early
//!   discard of m makes the shapes around its outside less likely to have been kept.
//! - `dora`: dora value of the tile (indicators + red); `dora_adjacent`: not dora, one or two
//!   steps from a dora kind in the same suit.
//! - `turns_since_riichi`: j's discards after the riichi tile. `dealer`: j is the dealer.
//! - `danger_est`: a hand-set rough deal-in percentage (genbutsu 0; suji 19/28/37/456 = 2/4/5/5;
//!   half-suji 8; musuji 19/28/37/456 = 6/8/9/12; honors by unseen copies 3/2/1/0 = 7/4/2/0;
//!   no-chance x0.3, one-chance x0.7, early-outside x0.8). It only orders the opponents to pick
//!   the worst one (ties: the lowest relative seat); it is also a column so the fit can use or
//!   ignore it.

use std::sync::OnceLock;

use super::column::Cols;
use super::facts::{After, Facts};
use crate::rank::safety::{genbutsu, side_shapes, suji, KindSet, Suji};
use crate::replay::view::View;
use crate::tile::Kind;

const BLOCK_NAMES: [(&str, &str); 17] = [
    ("genbutsu", "the tile is in the opponent's river or passed by anyone since their riichi"),
    ("suji", "not genbutsu; every suji partner (n-3 / n+3) is genbutsu"),
    ("half_suji", "not genbutsu; a 4-6 with exactly one suji partner genbutsu"),
    ("no_chance", "not genbutsu; every two-sided shape waiting on it has a kind with 4 copies seen"),
    ("one_chance", "not genbutsu or no-chance; every two-sided shape waiting on it has a kind with 3+ seen"),
    ("honor", "not genbutsu; an honor"),
    ("honor_unseen", "not genbutsu honor: copies the player has not seen, 0-3"),
    ("musuji_19", "not genbutsu, suji or half-suji; a 1 or 9"),
    ("musuji_28", "not genbutsu, suji or half-suji; a 2 or 8"),
    ("musuji_37", "not genbutsu, suji or half-suji; a 3 or 7"),
    ("musuji_456", "not genbutsu, suji or half-suji; a 4, 5 or 6"),
    ("early_outside", "not genbutsu; on the outer side (1-2 steps) of a tile the opponent discarded early"),
    ("dora", "dora value of the tile (indicators + red), when someone is in riichi"),
    ("dora_adjacent", "not dora; one or two steps from a dora kind in the same suit"),
    ("turns_since_riichi", "the opponent's discards after their riichi tile"),
    ("dealer", "the opponent is the dealer"),
    ("danger_est", "hand-set rough deal-in percentage (see the module doc); picks the worst opponent"),
];

/// Columns per opponent block.
pub const BLOCK: usize = BLOCK_NAMES.len();

pub(crate) fn columns() -> Vec<(&'static str, &'static str)> {
    static COLUMNS: OnceLock<Vec<(&'static str, &'static str)>> = OnceLock::new();
    COLUMNS
        .get_or_init(|| {
            let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
            let mut v: Vec<(&'static str, &'static str)> = vec![
                ("safety_any_riichi", "some opponent is in riichi"),
                ("safety_riichi_count", "opponents in riichi"),
                (
                    "safety_genbutsu_all",
                    "someone is in riichi and the tile is genbutsu against every riichi opponent",
                ),
            ];
            for (who, label) in [
                ("worst", "the riichi opponent with the highest danger_est"),
                ("opp1", "the next player (if in riichi)"),
                ("opp2", "the player across (if in riichi)"),
                ("opp3", "the previous player (if in riichi)"),
            ] {
                for (n, m) in BLOCK_NAMES {
                    v.push((leak(format!("safety_{who}_{n}")), leak(format!("vs {label}: {m}"))));
                }
            }
            v
        })
        .clone()
}

/// Per-decision facts about one opponent.
#[derive(Clone, Copy, Debug, Default)]
struct Opp {
    riichi: bool,
    safe: KindSet,
    early: KindSet,
    turns: u16,
    dealer: bool,
}

/// Per-decision safety context.
#[derive(Clone, Debug, Default)]
pub(crate) struct SafetyPrep {
    opps: [Opp; 3],
    riichi_count: u8,
}

impl SafetyPrep {
    pub(crate) fn new(view: &View) -> SafetyPrep {
        let mut p = SafetyPrep::default();
        for (o, v) in p.opps.iter_mut().zip(&view.opponents) {
            let Some(at) = v.riichi_at else { continue };
            o.riichi = true;
            o.dealer = v.is_dealer;
            o.turns = v.river.len().saturating_sub(at + 1) as u16;
            o.safe = genbutsu(v);
            o.early = v.river.iter().take(6.min(at)).map(|r| r.tile.kind()).collect();
            p.riichi_count += 1;
        }
        p
    }
}

fn early_outside(early: KindSet, k: Kind) -> bool {
    let n = (k % 9) as isize + 1;
    let base = k - k % 9;
    (1..=9isize).any(|m| {
        early.contains(base + m as usize - 1)
            && ((m <= 5 && (n == m - 1 || n == m - 2)) || (m >= 5 && (n == m + 1 || n == m + 2)))
    })
}

/// One opponent's block of [`BLOCK`] columns, as typed values; the default is the all-zero block
/// of an opponent not in riichi.
#[derive(Clone, Copy, Debug, Default)]
struct Block {
    genbutsu: bool,
    suji: bool,
    half_suji: bool,
    no_chance: bool,
    one_chance: bool,
    honor: bool,
    honor_unseen: u8,
    /// By number class: 1-9, 2-8, 3-7, 4-6.
    musuji: [bool; 4],
    early_outside: bool,
    dora: f32,
    dora_adjacent: bool,
    turns_since_riichi: u16,
    dealer: bool,
    danger_est: f32,
}

impl Block {
    /// Writes the block as `safety_{who}_*`, in [`BLOCK_NAMES`]' order (checked by name).
    fn write(&self, who: &str, cols: &mut Cols) {
        let mut flag = |name: &str, b: bool| cols.put_in(who, name, f32::from(u8::from(b)));
        flag("genbutsu", self.genbutsu);
        flag("suji", self.suji);
        flag("half_suji", self.half_suji);
        flag("no_chance", self.no_chance);
        flag("one_chance", self.one_chance);
        flag("honor", self.honor);
        cols.put_in(who, "honor_unseen", f32::from(self.honor_unseen));
        for (name, &b) in ["musuji_19", "musuji_28", "musuji_37", "musuji_456"].into_iter().zip(&self.musuji)
        {
            cols.put_in(who, name, f32::from(u8::from(b)));
        }
        cols.put_in(who, "early_outside", f32::from(u8::from(self.early_outside)));
        cols.put_in(who, "dora", self.dora);
        cols.put_in(who, "dora_adjacent", f32::from(u8::from(self.dora_adjacent)));
        cols.put_in(who, "turns_since_riichi", f32::from(self.turns_since_riichi));
        cols.put_in(who, "dealer", f32::from(u8::from(self.dealer)));
        cols.put_in(who, "danger_est", self.danger_est);
    }
}

/// Whether kind `k` is one or two steps from a dora kind of the same suit.
fn near_dora(ctx: &Facts, k: Kind) -> bool {
    let (p, base) = (k % 9, k - k % 9);
    (1..=2).any(|d| [p.wrapping_sub(d), p + d].iter().any(|&q| q < 9 && ctx.dora[base + q] > 0))
}

/// The block of discarding kind `k` against riichi opponent `o` (see the module doc).
fn block(ctx: &Facts, o: &Opp, k: Kind, dora_value: f32) -> Block {
    let mut b = Block {
        genbutsu: o.safe.contains(k),
        dora: dora_value,
        dora_adjacent: dora_value == 0.0 && k < 27 && near_dora(ctx, k),
        turns_since_riichi: o.turns,
        dealer: o.dealer,
        ..Block::default()
    };
    if b.genbutsu {
        return b;
    }
    let Some(class_of_suji) = suji(o.safe, k) else {
        let unseen = 4 - ctx.seen[k];
        b.honor = true;
        b.honor_unseen = unseen;
        b.danger_est = [0.0, 2.0, 4.0, 7.0][unseen.min(3) as usize];
        return b;
    };
    let class = match k % 9 + 1 {
        1 | 9 => 0,
        2 | 8 => 1,
        3 | 7 => 2,
        _ => 3,
    };
    let mut d = match class_of_suji {
        Suji::Full => {
            b.suji = true;
            [2.0, 4.0, 5.0, 5.0][class]
        }
        Suji::Half => {
            b.half_suji = true;
            8.0
        }
        Suji::None => {
            b.musuji[class] = true;
            [6.0, 8.0, 9.0, 12.0][class]
        }
    };
    // Kabe: every ryanmen waiting on k holds a kind with all (no-chance) or 3 (one-chance) seen.
    let blocked = |need: u8| {
        side_shapes(k).filter(|s| !s.penchan).all(|s| s.tiles.iter().any(|&x| ctx.seen[x] >= need))
    };
    if blocked(4) {
        b.no_chance = true;
        d *= 0.3;
    } else if blocked(3) {
        b.one_chance = true;
        d *= 0.7;
    }
    if early_outside(o.early, k) {
        b.early_outside = true;
        d *= 0.8;
    }
    b.danger_est = d;
    b
}

/// The classes of one discard against one riichi opponent, by the definitions of the module doc
/// (the same code that fills the feature block), for studies outside the feature rows.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OpponentSafety {
    pub genbutsu: bool,
    pub suji: bool,
    pub half_suji: bool,
    pub no_chance: bool,
    pub one_chance: bool,
    pub early_outside: bool,
    /// The hand-set danger estimate (`danger_est`, dora ignored).
    pub danger_est: f32,
}

/// Safety of discarding kind `k` against each opponent of `view` (relative seats 1, 2, 3 at
/// indices 0, 1, 2) that is in riichi; `None` for an opponent not in riichi. `view.hand` is the
/// deciding player's hand before the discard: its tiles count as seen for kabe.
pub fn safety_against(view: &View, k: Kind) -> [Option<OpponentSafety>; 3] {
    let prep = SafetyPrep::new(view);
    if prep.riichi_count == 0 {
        return [None; 3];
    }
    let ctx = Facts::new(view);
    prep.opps.map(|o| {
        if !o.riichi {
            return None;
        }
        let b = block(&ctx, &o, k, 0.0);
        Some(OpponentSafety {
            genbutsu: b.genbutsu,
            suji: b.suji,
            half_suji: b.half_suji,
            no_chance: b.no_chance,
            one_chance: b.one_chance,
            early_outside: b.early_outside,
            danger_est: b.danger_est,
        })
    })
}

pub(crate) fn fill(ctx: &Facts, prep: &SafetyPrep, a: &After, cols: &mut Cols) {
    let k = a.discard.kind();
    let dora_value = (ctx.dora[k] + u8::from(a.discard.is_red())) as f32;
    let blocks: [Option<Block>; 3] = prep.opps.map(|o| o.riichi.then(|| block(ctx, &o, k, dora_value)));
    // The worst opponent: the highest danger estimate, the lowest relative seat among equals.
    let mut worst: Option<Block> = None;
    for b in blocks.iter().flatten() {
        if worst.is_none_or(|w| b.danger_est > w.danger_est) {
            worst = Some(*b);
        }
    }
    let any = prep.riichi_count > 0;
    cols.flag("safety_any_riichi", any);
    cols.put("safety_riichi_count", f32::from(prep.riichi_count));
    cols.flag("safety_genbutsu_all", any && blocks.iter().flatten().all(|b| b.genbutsu));
    worst.unwrap_or_default().write("worst", cols);
    for (who, b) in ["opp1", "opp2", "opp3"].into_iter().zip(blocks) {
        b.unwrap_or_default().write(who, cols);
    }
}

#[cfg(test)]
mod tests {
    use crate::features::catalog::catalog_width;
    use crate::features::facts::tests_support::{get, river, tile, view};
    use crate::features::DecisionFeatures;
    use crate::replay::view::View;

    /// Hand 123456m 789p 159s 1z 7z; opponent across (opp2) in riichi. Their river in order:
    /// 9m 2p 1z 8s 4s 3z 5p (riichi on 5p, index 6), then 6m. After the riichi somebody passed 7p.
    fn setup() -> View {
        let mut v = view("123456m789p159s17z", "", 27, 28);
        v.opponents[1].river = river("9m2p1z8s4s3z5p6m");
        v.opponents[1].riichi_at = Some(6);
        v.opponents[1].is_dealer = true;
        v.opponents[1].riichi_passed[15] = 1; // 7p
        v.visible[15] += 1;
        for t in &v.opponents[1].river {
            v.visible[t.tile.kind()] += 1;
        }
        v
    }

    fn row(d: &DecisionFeatures, t: &str) -> Vec<f32> {
        let mut r = vec![f32::NAN; catalog_width()];
        d.fill(tile(t), &mut r).unwrap();
        r
    }

    #[test]
    fn no_riichi_means_zero() {
        let v = view("123456m789p159s17z", "", 27, 28);
        let d = DecisionFeatures::new(&v).unwrap();
        let r = row(&d, "9s");
        let range = crate::features::catalog::family_range(crate::features::column::Family::Safety);
        assert!(r[range].iter().all(|&x| x == 0.0));
    }

    #[test]
    fn genbutsu_suji_and_blocks() {
        let v = setup();
        let d = DecisionFeatures::new(&v).unwrap();
        // 1z is in their river: genbutsu, danger 0.
        let r = row(&d, "1z");
        assert_eq!(get(&r, "safety_any_riichi"), 1.0);
        assert_eq!(get(&r, "safety_riichi_count"), 1.0);
        assert_eq!(get(&r, "safety_opp2_genbutsu"), 1.0);
        assert_eq!(get(&r, "safety_worst_genbutsu"), 1.0);
        assert_eq!(get(&r, "safety_genbutsu_all"), 1.0);
        assert_eq!(get(&r, "safety_opp1_genbutsu"), 0.0);
        assert_eq!(get(&r, "safety_worst_dealer"), 1.0);
        // one discard (6m) after the riichi tile
        assert_eq!(get(&r, "safety_worst_turns_since_riichi"), 1.0);
        // 1s: partner 4s is in the river -> suji (a 1-3 has only the n+3 partner).
        let r = row(&d, "1s");
        assert_eq!(get(&r, "safety_worst_suji"), 1.0);
        assert_eq!(get(&r, "safety_worst_genbutsu"), 0.0);
        assert_eq!(get(&r, "safety_worst_danger_est"), 2.0);
        // 5s: partners 2s and 8s; 8s safe, 2s not -> half-suji.
        let r = row(&d, "5s");
        assert_eq!(get(&r, "safety_worst_half_suji"), 1.0);
        assert_eq!(get(&r, "safety_worst_suji"), 0.0);
        // 4m: partners 1m and 7m, neither safe -> musuji 456. 4m is not on the outer side of the
        // early 9m (the outer side of 9 is beyond 9).
        let r = row(&d, "4m");
        assert_eq!(get(&r, "safety_worst_musuji_456"), 1.0);
        assert_eq!(get(&r, "safety_worst_early_outside"), 0.0);
        assert_eq!(get(&r, "safety_worst_danger_est"), 12.0);
        // 9p: partner 6p not safe -> musuji 19. 7p passed after riichi is genbutsu (checked
        // below). Early 5p? 5p is the riichi tile itself (index 6), not before it, so not early.
        let r = row(&d, "9p");
        assert_eq!(get(&r, "safety_worst_musuji_19"), 1.0);
        assert_eq!(get(&r, "safety_worst_early_outside"), 0.0);
        let r = row(&d, "7p");
        assert_eq!(get(&r, "safety_worst_genbutsu"), 1.0);
        // 7z red dragon: not in the river; seen: the one in hand only -> 3 unseen.
        let r = row(&d, "7z");
        assert_eq!(get(&r, "safety_worst_honor"), 1.0);
        assert_eq!(get(&r, "safety_worst_honor_unseen"), 3.0);
        assert_eq!(get(&r, "safety_worst_danger_est"), 7.0);
    }

    #[test]
    fn early_outside_and_kabe() {
        // Opponent 1 in riichi, river 4p 3s 1z 2z 9s (riichi on 9s, index 4).
        // Kabe through visible counts: all four 3m seen, three 4m seen.
        let mut v = view("1256m789p1159s17z2z", "", 27, 28);
        v.opponents[0].river = river("4p3s1z2z9s");
        v.opponents[0].riichi_at = Some(4);
        v.visible[2] = 4; // all 3m seen
        v.visible[3] = 3; // three 4m seen
        for t in &v.opponents[0].river {
            v.visible[t.tile.kind()] += 1;
        }
        let d = DecisionFeatures::new(&v).unwrap();
        // 2m: the only two-sided shape waiting on 2m is 34m (waits 2m-5m); 3m is dead -> no-chance.
        let r = row(&d, "2m");
        assert_eq!(get(&r, "safety_worst_no_chance"), 1.0);
        assert_eq!(get(&r, "safety_opp1_no_chance"), 1.0);
        // 2m is musuji 28 (partner 5m not safe): danger 8 * 0.3.
        assert!((get(&r, "safety_worst_danger_est") - 2.4).abs() < 1e-5);
        // 5m: shapes 67m (6m: own hand 1, seen 1) and 34m (3m dead) -> not all dead; one-chance
        // needs every shape thin: 67m has 6m seen 1, 7m seen 0 -> not one-chance.
        let r = row(&d, "5m");
        assert_eq!(get(&r, "safety_worst_no_chance"), 0.0);
        assert_eq!(get(&r, "safety_worst_one_chance"), 0.0);
        let r = row(&d, "1m");
        // 1m: shape 23m (3m dead) -> no-chance.
        assert_eq!(get(&r, "safety_worst_no_chance"), 1.0);
        // 1s: early 3s (m = 3) -> outer 2s, 1s: early outside. Suji? partner 4s not safe.
        let r = row(&d, "1s");
        assert_eq!(get(&r, "safety_worst_early_outside"), 1.0);
        assert_eq!(get(&r, "safety_worst_musuji_19"), 1.0);
        // 5s: partners 2s, 8s not safe; early 3s: outer side is 2s/1s only -> no.
        let r = row(&d, "5s");
        assert_eq!(get(&r, "safety_worst_early_outside"), 0.0);
        // 9s is genbutsu (the riichi tile). 2z in the river: genbutsu.
        assert_eq!(get(&row(&d, "9s"), "safety_worst_genbutsu"), 1.0);
        assert_eq!(get(&row(&d, "2z"), "safety_worst_genbutsu"), 1.0);
    }
}
