//! Scoring a finished hand under Tenhou rules: yaku, fu, points and payments.
//!
//! Rules (Tenhou, [`ScoreRules::TENHOU`]): red fives, open tanyao (a rule switch for the lobbies
//! without it), no kiriage mangan, kazoe yakuman at 13+ han, several yakuman add up, but the
//! "double" forms (suuankou tanki, junsei chuuren, kokushi 13-wait, daisuushii) count as one
//! yakuman each: the shared Tenhou records show `yakuman="41"` worth 32000 and
//! `yakuman="49,41,42"` worth 144000 for a dealer. kobalab's majiang-core counts those forms
//! twice ([`ScoreRules::MAJIANG`]); that is the only rule difference its 10,000 golden cases need.
//!
//! Every reading of the hand is scored (each decomposition, each place the winning tile can sit
//! in it, seven pairs, thirteen orphans) and the best one is kept: most points, then most han,
//! then most fu, as Tenhou does. Yaku are reported by Tenhou id ([`yaku`]).
//!
//! Verified by two tests over real data: `golden` (all 10,000 kobalab cases agree) and
//! `replay::check` (every win of the shared 4-player Tenhou games replayed and re-scored from the
//! table state; all agree except in three bot-written fixture logs, listed there with the reason).
//!
//! ```
//! use haifu::score::{score, yaku, WinInput};
//! use haifu::tile::{parse_mpsz, EAST};
//! // Pinfu tsumo by South: 123m 456p 789s 23+4s 55s, 20 fu 2 han = 400/700.
//! let tiles = parse_mpsz("123m456p789s23455s").unwrap();
//! let win = parse_mpsz("4s").unwrap()[0];
//! let mut input = WinInput::new(tiles, vec![], win);
//! input.seat_wind = EAST + 1;
//! let s = score(&input).unwrap();
//! assert_eq!(s.yaku, vec![(yaku::MENZEN_TSUMO, 1), (yaku::PINFU, 1)]);
//! assert_eq!((s.fu, s.han, s.base_points), (20, 2, 1500));
//! ```

pub mod fu;
pub mod points;
pub mod yaku;

use crate::hand::decompose::{for_each_decomposition, is_chiitoitsu, is_kokushi, Group, GroupKind};
use crate::hand::meld::{Meld, MeldKind};
use crate::tile::{
    counts_of, dora_from_indicator_at, Counts, Kind, Tile, EAST, HONOR_KINDS, NORTH, TERMINAL_KINDS,
    YAOCHU_KINDS,
};
use yaku::YakuSet;

/// Limit hand class, Tenhou's `ten` third field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Limit {
    None,
    Mangan,
    Haneman,
    Baiman,
    Sanbaiman,
    Yakuman,
}

impl Limit {
    pub fn from_tenhou(v: u32) -> Option<Limit> {
        Some(match v {
            0 => Limit::None,
            1 => Limit::Mangan,
            2 => Limit::Haneman,
            3 => Limit::Baiman,
            4 => Limit::Sanbaiman,
            5 => Limit::Yakuman,
            _ => return None,
        })
    }
}

/// Rule switches that change scores between rule sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreRules {
    /// Open tanyao counts (Tenhou's default lobbies; GO type bit 0x04 turns it off).
    pub kuitan: bool,
    /// Suuankou tanki, junsei chuuren, kokushi 13-wait and daisuushii count as two yakuman.
    pub double_yakuman: bool,
    /// 13 han or more is a yakuman (otherwise it stays sanbaiman).
    pub kazoe_yakuman: bool,
    /// 4 han 30 fu and 3 han 60 fu are rounded up to mangan. Off in Tenhou's normal lobbies; the
    /// shared data has one special (chip) lobby log that plays with it.
    pub kiriage_mangan: bool,
    /// Seats at the table. At three (Tenhou's sanma) a 1m indicator points at 9m, a tsumo is
    /// paid by the two other seats their four-player shares (tsumo loss), and a honba adds 100
    /// from each payer: 200 to a ron.
    pub players: u8,
}

impl ScoreRules {
    /// Tenhou's rules.
    pub const TENHOU: ScoreRules = ScoreRules {
        kuitan: true,
        double_yakuman: false,
        kazoe_yakuman: true,
        kiriage_mangan: false,
        players: 4,
    };
    /// kobalab's majiang-core defaults (its golden test data).
    pub const MAJIANG: ScoreRules = ScoreRules {
        kuitan: true,
        double_yakuman: true,
        kazoe_yakuman: true,
        kiriage_mangan: false,
        players: 4,
    };
    /// Tenhou's three-player rules.
    pub const TENHOU_SANMA: ScoreRules = ScoreRules { players: 3, ..ScoreRules::TENHOU };
}

impl Default for ScoreRules {
    fn default() -> Self {
        ScoreRules::TENHOU
    }
}

/// Everything about a win that its score depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinInput {
    /// Concealed tiles INCLUDING the winning tile (3n+2 of them).
    pub concealed: Vec<Tile>,
    /// Called and declared melds (a closed kan keeps the hand closed).
    pub melds: Vec<Meld>,
    /// The winning tile (also present in `concealed`).
    pub win_tile: Tile,
    /// Ron (false = tsumo).
    pub ron: bool,
    /// Round wind and seat wind as kinds 27..=30; the seat wind East makes the winner the dealer.
    pub round_wind: Kind,
    pub seat_wind: Kind,
    pub riichi: bool,
    pub double_riichi: bool,
    pub ippatsu: bool,
    pub haitei: bool,
    pub houtei: bool,
    pub rinshan: bool,
    pub chankan: bool,
    pub tenhou: bool,
    pub chiihou: bool,
    pub dora_indicators: Vec<Tile>,
    /// Ura dora indicators; they count only with riichi or double riichi.
    pub ura_indicators: Vec<Tile>,
    /// Norths the winner set aside (抜きドラ, three players): each is one dora, and one more per
    /// indicator pointing at 北 (ura likewise, with riichi), as Tenhou counts them in ドラ (52).
    pub kita: u8,
    pub honba: u8,
    pub sticks: u8,
}

impl WinInput {
    /// A tsumo in East round by the East seat with no flags, dora or sticks; set the rest by field.
    pub fn new(concealed: Vec<Tile>, melds: Vec<Meld>, win_tile: Tile) -> WinInput {
        WinInput {
            concealed,
            melds,
            win_tile,
            ron: false,
            round_wind: EAST,
            seat_wind: EAST,
            riichi: false,
            double_riichi: false,
            ippatsu: false,
            haitei: false,
            houtei: false,
            rinshan: false,
            chankan: false,
            tenhou: false,
            chiihou: false,
            dora_indicators: Vec::new(),
            ura_indicators: Vec::new(),
            kita: 0,
            honba: 0,
            sticks: 0,
        }
    }

    /// The winner is the dealer.
    pub fn is_dealer(&self) -> bool {
        self.seat_wind == EAST
    }
}

/// The score of a win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinScore {
    /// (Tenhou id, han) of the normal yaku, dora 52 / ura 53 / aka 54 included when worth >0 han
    /// (Tenhou also writes `53,0` for a riichi hand without ura; compare without zero entries).
    /// Sorted by id. Empty for a yakuman hand.
    pub yaku: Vec<(u8, u8)>,
    /// Tenhou ids of the yakuman, sorted (double forms have their own ids).
    pub yakuman: Vec<u8>,
    /// Total han including dora; for a yakuman hand 13 x the multiplier.
    pub han: u8,
    /// Fu of the chosen reading, also for yakuman hands as Tenhou records it (25 for seven
    /// pairs, 0 for thirteen orphans).
    pub fu: u8,
    /// Number of yakuman (0 for a normal or counted (kazoe) hand).
    pub yakuman_multiplier: u8,
    pub limit: Limit,
    /// Basic points (fu x 2^(han+2), capped; 8000 per yakuman) from which payments are made.
    pub basic_points: u32,
    /// The hand's value without honba and sticks, Tenhou's `ten` second field: the ron payment,
    /// or the sum of the tsumo payments.
    pub base_points: u32,
}

/// Scores a win under Tenhou rules. `None`: not a complete hand, inconsistent input, or no yaku.
pub fn score(input: &WinInput) -> Option<WinScore> {
    score_with(input, &ScoreRules::TENHOU)
}

/// Wait shape of the winning tile in a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wait {
    Ryanmen,
    Kanchan,
    Penchan,
    Tanki,
    Shanpon,
}

/// One of the four groups of a reading, melds included.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Block {
    pub group: Group,
    pub kan: bool,
    /// Counts as a concealed set (ankou / ankan): not called and not completed by ron.
    pub concealed: bool,
}

/// A standard reading: four groups, a pair, and where the winning tile sits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reading {
    pub blocks: [Block; 4],
    pub pair: Kind,
    pub wait: Wait,
}

/// Facts about the hand that do not depend on the reading, computed once per win.
pub(crate) struct Facts<'a> {
    pub input: &'a WinInput,
    pub rules: ScoreRules,
    pub menzen: bool,
    /// Every tile of the hand by kind, melds included (a kan counts 4).
    pub all: Counts,
    /// Bit s set when suit s (0 m, 1 p, 2 s) appears.
    pub suits: u8,
    pub has_honor: bool,
    pub all_simple: bool,
    pub all_yaochu: bool,
    pub all_terminal: bool,
    pub all_honor: bool,
    pub all_green: bool,
    /// Some(junsei) when the closed hand is a nine gates.
    pub chuuren: Option<bool>,
    pub dora: u8,
    pub ura: u8,
    pub aka: u8,
}

/// A scored reading, before it becomes a [`WinScore`].
#[derive(Clone, Copy)]
struct Candidate {
    yaku: YakuSet,
    han: u8,
    fu: u8,
    multiplier: u8,
    limit: Limit,
    basic: u32,
    total: u32,
}

impl Candidate {
    fn better_than(&self, other: &Candidate) -> bool {
        (self.total, self.han, self.fu) > (other.total, other.han, other.fu)
    }
}

/// [`score`] with explicit rule switches.
pub fn score_with(input: &WinInput, rules: &ScoreRules) -> Option<WinScore> {
    best_of(input, rules).map(|c| {
        let mut yaku = c.yaku.items().to_vec();
        yaku.sort_unstable();
        let mut yakuman = c.yaku.yakuman().to_vec();
        yakuman.sort_unstable();
        if !yakuman.is_empty() {
            yaku.clear();
        }
        WinScore {
            yaku,
            yakuman,
            han: c.han,
            fu: c.fu,
            yakuman_multiplier: c.multiplier,
            limit: c.limit,
            basic_points: c.basic,
            base_points: c.total,
        }
    })
}

/// [`score_with`]'s `base_points` alone: the same best reading, without the yaku lists a
/// [`WinScore`] holds. For callers that score millions of hypothetical wins and read only the
/// points (the expected-value search), where those two allocations per hand showed.
pub fn base_points_with(input: &WinInput, rules: &ScoreRules) -> Option<u32> {
    best_of(input, rules).map(|c| c.total)
}

/// The best reading of a win, `None` when the input is not a complete hand or no reading has
/// a yaku: what [`score_with`] and [`base_points_with`] report from.
fn best_of(input: &WinInput, rules: &ScoreRules) -> Option<Candidate> {
    let (counts, all) = checked_counts(input)?;
    let facts = facts(input, rules, &counts, all);
    // Most open hands the expected-value search completes have no yaku (1,274,421 of the
    // 2,186,002 open hands it scored over 20 shared games): turn those away before reading them.
    if !yaku::may_have_yaku(&facts, &counts) {
        return None;
    }
    best_reading(input, &facts, &counts)
}

/// The highest-scoring reading of a checked hand (`counts`: its concealed part), `None` when no
/// reading has a yaku.
fn best_reading(input: &WinInput, facts: &Facts, counts: &Counts) -> Option<Candidate> {
    let win = input.win_tile.kind();
    let mut best: Option<Candidate> = None;
    let mut keep = |c: Option<Candidate>| {
        if let Some(c) = c {
            if best.as_ref().is_none_or(|b| c.better_than(b)) {
                best = Some(c);
            }
        }
    };

    let mut melds = [Block { group: Group::set(0), kan: false, concealed: false }; 4];
    for (slot, m) in melds.iter_mut().zip(&input.melds) {
        *slot = meld_block(m);
    }
    let n_melds = input.melds.len();
    for_each_decomposition(counts, |d| {
        if d.groups().len() + n_melds != 4 {
            return;
        }
        let mut blocks = melds;
        for (slot, g) in blocks[n_melds..].iter_mut().zip(d.groups()) {
            *slot = Block { group: *g, kan: false, concealed: g.kind == GroupKind::Set };
        }
        if d.pair == win {
            keep(evaluate(&Reading { blocks, pair: d.pair, wait: Wait::Tanki }, facts));
        }
        for i in n_melds..4 {
            let g = blocks[i].group;
            if !g.contains(win) || (i > n_melds && blocks[i - 1].group == g) {
                continue; // identical groups give identical readings
            }
            let mut r = Reading { blocks, pair: d.pair, wait: wait_in(g, win) };
            if g.kind == GroupKind::Set && input.ron {
                r.blocks[i].concealed = false;
            }
            keep(evaluate(&r, facts));
        }
    });
    if n_melds == 0 && is_chiitoitsu(counts) {
        let mut y = YakuSet::default();
        yaku::chiitoitsu(facts, &mut y);
        keep(finish(y, 25, facts));
    }
    if n_melds == 0 && is_kokushi(counts) {
        let mut y = YakuSet::default();
        yaku::kokushi(facts, counts[win] == 2, &mut y);
        keep(finish(y, 0, facts));
    }
    best
}

/// Counts of the concealed part and of the whole hand (melds included), after checking the
/// input is a plausible finished hand.
fn checked_counts(input: &WinInput) -> Option<(Counts, Counts)> {
    if input.melds.len() > 4 || input.concealed.len() + 3 * input.melds.len() != 14 {
        return None;
    }
    let counts = counts_of(&input.concealed);
    if counts[input.win_tile.kind()] == 0 {
        return None;
    }
    let mut all = counts;
    for m in &input.melds {
        for t in m.tiles() {
            all[t.kind()] += 1;
        }
    }
    if all.iter().any(|&c| c > 4) || !is_wind(input.round_wind) || !is_wind(input.seat_wind) {
        return None;
    }
    Some((counts, all))
}

fn is_wind(k: Kind) -> bool {
    (27..=30).contains(&k)
}

fn meld_block(m: &Meld) -> Block {
    let group = if m.kind == MeldKind::Chi { Group::run(m.first_kind()) } else { Group::set(m.first_kind()) };
    Block { group, kan: m.is_kan(), concealed: m.kind == MeldKind::Ankan }
}

/// The wait the winning tile `win` completes in group `g`.
fn wait_in(g: Group, win: Kind) -> Wait {
    match g.kind {
        GroupKind::Set => Wait::Shanpon,
        GroupKind::Run => {
            let pos = win - g.first;
            let n = g.first % 9; // 0 = the run 123
            match pos {
                1 => Wait::Kanchan,
                0 if n == 6 => Wait::Penchan,
                2 if n == 0 => Wait::Penchan,
                _ => Wait::Ryanmen,
            }
        }
    }
}

/// The tiles of ryuuiisou (23468s and hatsu) as a bit set (bit k = kind k), for [`facts`].
const GREEN: u64 = 1 << 19 | 1 << 20 | 1 << 21 | 1 << 23 | 1 << 25 | 1 << 32;

/// The facts of a checked hand: `concealed` and `all` as [`checked_counts`] gives them.
fn facts<'a>(input: &'a WinInput, rules: &ScoreRules, concealed: &Counts, all: Counts) -> Facts<'a> {
    let melded = input.melds.iter().flat_map(|m| m.tiles());
    let aka = input.concealed.iter().chain(melded).filter(|t| t.is_red()).count() as u8;
    // The kinds present as one bit set, so each "all tiles are ..." fact is one mask test
    // (scoring runs millions of times in the expected-value search).
    let present = (0..all.len()).filter(|&k| all[k] > 0).fold(0u64, |m, k| m | 1 << k);
    let only = |mask: u64| present & !mask == 0;
    let suits = (0..3).filter(|s| present >> (9 * s) & 0x1ff != 0).fold(0u8, |m, s| m | 1 << s);
    // Set-aside norths count as norths held for the indicators, and once each on their own.
    let mut with_kita = all;
    with_kita[NORTH] += input.kita;
    let count_dora = |inds: &[Tile]| -> u8 {
        inds.iter().map(|i| with_kita[dora_from_indicator_at(i.kind(), rules.players)]).sum()
    };
    let menzen = input.melds.iter().all(|m| !m.is_open());
    Facts {
        input,
        rules: *rules,
        menzen,
        all,
        suits,
        has_honor: present & HONOR_KINDS != 0,
        all_simple: present & YAOCHU_KINDS == 0,
        all_yaochu: only(YAOCHU_KINDS),
        all_terminal: only(TERMINAL_KINDS),
        all_honor: only(HONOR_KINDS),
        all_green: only(GREEN),
        chuuren: if menzen && input.melds.is_empty() {
            chuuren(concealed, input.win_tile.kind())
        } else {
            None
        },
        dora: count_dora(&input.dora_indicators) + input.kita,
        ura: if input.riichi || input.double_riichi { count_dora(&input.ura_indicators) } else { 0 },
        aka,
    }
}

/// Nine gates: one suit, 1112345678999 plus one more. `Some(true)` when the hand before the
/// winning tile was exactly 1112345678999 (the nine-sided wait, junsei).
fn chuuren(c: &Counts, win: Kind) -> Option<bool> {
    if win >= 27 {
        return None;
    }
    let s = win / 9 * 9;
    if (0..c.len()).any(|k| c[k] > 0 && !(s..s + 9).contains(&k)) {
        return None;
    }
    const BASE: [u8; 9] = [3, 1, 1, 1, 1, 1, 1, 1, 3];
    if (0..9).any(|n| c[s + n] < BASE[n]) {
        return None;
    }
    Some(c[win] - BASE[win - s] == 1)
}

fn evaluate(r: &Reading, f: &Facts) -> Option<Candidate> {
    let (fu, pinfu) = fu::standard(r, f);
    let mut y = YakuSet::default();
    yaku::standard(r, f, pinfu, &mut y);
    finish(y, fu, f)
}

/// Adds dora to a reading's yaku and turns han and fu into points. `None` without a yaku.
fn finish(mut y: YakuSet, fu: u8, f: &Facts) -> Option<Candidate> {
    let dealer = f.input.is_dealer();
    let ron = f.input.ron;
    if !y.yakuman().is_empty() {
        let weight = |id: u8| if f.rules.double_yakuman && yaku::is_double_form(id) { 2 } else { 1 };
        let multiplier: u8 = y.yakuman().iter().map(|&id| weight(id)).sum();
        let basic = 8000 * multiplier as u32;
        return Some(Candidate {
            yaku: y,
            han: 13 * multiplier,
            fu,
            multiplier,
            limit: Limit::Yakuman,
            basic,
            total: points::hand_points(basic, dealer, ron, f.rules.players),
        });
    }
    if y.han() == 0 {
        return None;
    }
    for (id, n) in [(yaku::DORA, f.dora), (yaku::AKA_DORA, f.aka), (yaku::URA_DORA, f.ura)] {
        if n > 0 {
            y.add(id, n);
        }
    }
    let han = y.han();
    let (basic, limit) = points::basic_points(han, fu, &f.rules);
    Some(Candidate {
        yaku: y,
        han,
        fu,
        multiplier: 0,
        limit,
        basic,
        total: points::hand_points(basic, dealer, ron, f.rules.players),
    })
}

#[cfg(test)]
mod golden;
#[cfg(test)]
#[cfg(test)]
mod tests;
