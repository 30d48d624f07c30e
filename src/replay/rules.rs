//! What a seat may do, under Tenhou's rules: one derivation for the decision recorder (which
//! options a recorded player had), the self-play engine (what a bot may do) and the mjai bot
//! (what a player at a live table may answer).
//!
//! All three read the same [`Table`], so a recorded option, an engine option and a bot's option
//! can never disagree. Wins: [`has_win`] scores a hand as the engine offers a win (a yaku, ura
//! dora unknown), and [`turn_options`] offers tsumo by it; ron and furiten need the engine's
//! (or the bot's) memory of each seat's waits ([`wait_kinds`]), so they ask there. A record shows
//! a win, it never has to offer one. Abortive draws after a discard: [`draw_after_discard`].
//!
//! Tenhou's rules here:
//! - Kuikae: after a chi or pon, the called kind may not be discarded, nor the kind that extends
//!   a chi's run from its other end (suji kuikae). A call that would leave the caller no legal
//!   discard is not offered (Tenhou greys it out).
//! - Riichi: a closed hand, not yet in riichi, 1000 points, at least 4 tiles left in the live
//!   wall, and a discard that leaves the hand tenpai. On the declaration turn only those discards
//!   are legal.
//! - In riichi: the drawn tile is the only discard; a closed kan only of the drawn tile's kind
//!   and only when it leaves the waits as they were.
//! - Kans: at most four, none on the last tile. Kyuushu kyuuhai: nine kinds of terminals and
//!   honors on the first, uninterrupted draw.
//! - Three players (docs/sanma.md): no chi; on its own turn a seat may set a north aside
//!   ([`kita_allowed`]) while a tile is left to replace it; in riichi only the north just drawn.

use crate::hand::meld::MeldKind;
use crate::hand::shanten::{min_shanten, necessary_kinds};
use crate::log::event::{Agari, DrawKind};
use crate::score::score_with;
use crate::tile::{is_yaochu, Counts, Kind, TileId, KINDS};

use super::check::win_input;
use super::table::{RiichiState, Table};

/// What a seat may do on its own turn (after a draw, or after a chi / pon with only discards).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnOptions {
    /// The drawn tile completes a hand with a yaku ([`has_win`]).
    pub tsumo: bool,
    /// Nine kinds of terminals and honors on the first uninterrupted draw.
    pub kyuushu: bool,
    pub ankan: Vec<Kind>,
    pub kakan: Vec<Kind>,
    /// Discards that may declare riichi (empty when riichi is not allowed).
    pub riichi: Vec<TileId>,
    /// Legal discards (kuikae removed; only the drawn tile in riichi).
    pub discards: Vec<TileId>,
    /// The north that may be set aside now ([`kita_allowed`]).
    pub kita: Option<TileId>,
}

/// What a seat may do with another seat's discard (or an added kan, for chankan: ron only).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallOptions {
    /// The tile on offer and the absolute seat it came from.
    pub tile: Option<(u8, TileId)>,
    /// Filled by the engine (a win needs the scorer and the furiten memory).
    pub ron: bool,
    /// The two hand tiles of each possible pon.
    pub pon: Vec<[TileId; 2]>,
    pub daiminkan: bool,
    /// The two hand tiles of each possible chi.
    pub chi: Vec<[TileId; 2]>,
}

impl CallOptions {
    pub fn any(&self) -> bool {
        self.ron || !self.pon.is_empty() || self.daiminkan || !self.chi.is_empty()
    }
}

fn bit(k: Kind) -> u64 {
    1u64 << k
}

/// The chi, pon and open kan seat `seat` may make on `tile` discarded by `from` (ron is left to
/// the caller). Nothing while the wall is empty or the seat is in riichi.
pub fn call_options(table: &Table, seat: u8, from: u8, tile: TileId) -> CallOptions {
    let mut o = CallOptions { tile: Some((from, tile)), ..Default::default() };
    if table.wall_left == 0 || table.riichi[seat as usize] != RiichiState::None {
        return o;
    }
    let red = table.rules.red_fives();
    let hand = &table.hands[seat as usize];
    let k = tile.kind();
    let same: Vec<TileId> = hand.iter().copied().filter(|x| x.kind() == k).collect();
    let counts = table.hand_counts(seat);
    let has_discard_after = |used: &[Kind], forbidden: u64| {
        let mut c = counts;
        for &u in used {
            c[u] -= 1;
        }
        (0..KINDS).any(|x| c[x] > 0 && forbidden & bit(x) == 0)
    };
    if same.len() >= 2 && has_discard_after(&[k, k], bit(k)) {
        o.pon = distinct_pairs(&same, &same, red, true);
    }
    if same.len() == 3 && table.kans < 4 {
        o.daiminkan = true;
    }
    if table.rules.players == 4 && seat == (from + 1) % 4 && k < 27 {
        let n = k % 9;
        for lo in n.saturating_sub(2)..=n.min(6) {
            let base = k - n + lo;
            let others: Vec<Kind> = (base..base + 3).filter(|&x| x != k).collect();
            if others.iter().any(|&x| counts[x] == 0) {
                continue;
            }
            let mut forbidden = bit(k);
            if base == k && n + 3 <= 8 {
                forbidden |= bit(k + 3);
            }
            if base + 2 == k && n >= 3 {
                forbidden |= bit(k - 3);
            }
            if !has_discard_after(&others, forbidden) {
                continue;
            }
            let a: Vec<TileId> = hand.iter().copied().filter(|x| x.kind() == others[0]).collect();
            let b: Vec<TileId> = hand.iter().copied().filter(|x| x.kind() == others[1]).collect();
            o.chi.extend(distinct_pairs(&a, &b, red, false));
        }
    }
    o
}

/// Whether seat `seat` may declare riichi with some discard now (before choosing the discard).
pub fn riichi_allowed(table: &Table, seat: u8) -> bool {
    let w = seat as usize;
    table.riichi[w] == RiichiState::None
        && table.is_closed(seat)
        && table.scores[w] >= 1000
        && table.wall_left >= 4
}

/// Kinds whose discard leaves the 3n+2 hand `counts` tenpai, as a bit set.
fn tenpai_discard_kinds(counts: &Counts) -> u64 {
    let mut c = *counts;
    let mut ok = 0u64;
    for k in 0..KINDS {
        if c[k] == 0 {
            continue;
        }
        c[k] -= 1;
        if min_shanten(&c) <= 0 {
            ok |= bit(k);
        }
        c[k] += 1;
    }
    ok
}

/// The options of seat `seat` on its own turn. `drawn` is the tile just drawn (`None` after a
/// chi or pon), `live_draw` whether it came from the live wall (not a replacement draw after a
/// kan). Tsumo is offered when the drawn tile completes the hand with a yaku ([`has_win`]).
pub fn turn_options(table: &Table, seat: u8, drawn: Option<TileId>, live_draw: bool) -> TurnOptions {
    let w = seat as usize;
    let counts = table.hand_counts(seat);
    let accepted = matches!(table.riichi[w], RiichiState::Accepted { .. });
    let mut o = TurnOptions::default();
    if let Some(tile) = drawn {
        o.kyuushu = live_draw
            && table.first_turn(seat)
            && (0..KINDS).filter(|&k| is_yaochu(k) && counts[k] > 0).count() >= 9;
        if table.kans < 4 && table.wall_left > 0 {
            for k in 0..KINDS {
                if counts[k] == 4 && (!accepted || riichi_kan_keeps_waits(&counts, k, tile)) {
                    o.ankan.push(k);
                }
                if counts[k] >= 1
                    && !accepted
                    && table.melds[w].iter().any(|m| m.kind == MeldKind::Pon && m.tiles[0].kind() == k)
                {
                    o.kakan.push(k);
                }
            }
        }
        if riichi_allowed(table, seat) {
            let ok = tenpai_discard_kinds(&counts);
            o.riichi = table.hands[w].iter().copied().filter(|id| ok & bit(id.kind()) != 0).collect();
        }
    }
    o.discards = discards(table, seat, drawn);
    // A north is set aside after the seat's own draw only, never after its chi or pon (6,547 of
    // 6,547 set-asides in the records follow a draw, docs/sanma.md).
    o.kita = drawn.and_then(|_| kita_allowed(table, seat));
    if let Some(tile) = drawn {
        o.tsumo = min_shanten(&counts) < 0 && has_win(table, seat, seat, tile);
    }
    o
}

/// The north seat `seat` may set aside on its turn (抜きドラ, three players): one from its hand
/// while the live wall holds a tile to replace it, or in riichi only the north just drawn (a
/// north of the waiting hand stays). `None` when it may not.
pub fn kita_allowed(table: &Table, seat: u8) -> Option<TileId> {
    let w = seat as usize;
    if !table.rules.nukidora || table.wall_left == 0 {
        return None;
    }
    let north = |id: &TileId| id.kind() == crate::tile::NORTH;
    match table.riichi[w] {
        RiichiState::Accepted { .. } => table.last_draw[w].filter(north),
        _ => table.hands[w].iter().copied().find(north),
    }
}

/// Legal discards of seat `seat` on its turn: only the drawn tile in riichi; right after a
/// riichi declaration only those that keep the hand tenpai; otherwise the hand minus kuikae.
pub fn discards(table: &Table, seat: u8, drawn: Option<TileId>) -> Vec<TileId> {
    let w = seat as usize;
    match table.riichi[w] {
        RiichiState::Accepted { .. } => drawn.into_iter().collect(),
        RiichiState::Declared => {
            let ok = tenpai_discard_kinds(&table.hand_counts(seat));
            table.hands[w].iter().copied().filter(|id| ok & bit(id.kind()) != 0).collect()
        }
        RiichiState::None => {
            table.hands[w].iter().copied().filter(|id| table.kuikae[w] & bit(id.kind()) == 0).collect()
        }
    }
}

/// In riichi, a closed kan of the drawn tile's kind that leaves the waits as they were.
fn riichi_kan_keeps_waits(counts: &Counts, k: Kind, drawn: TileId) -> bool {
    if drawn.kind() != k {
        return false;
    }
    let mut before = *counts;
    before[k] -= 1;
    let mut after = before;
    after[k] -= 3;
    let (sb, wb) = necessary_kinds(&before);
    let (sa, wa) = necessary_kinds(&after);
    sb == 0 && sa == 0 && wb == wa
}

/// Pairs (a, b) of ids from two lists, one per distinct pair of tiles (a red five and a plain
/// five are different tiles; two plain fives are the same). For pon, `one_list`: `a` and `b`
/// are the same list and each unordered pair counts once.
fn distinct_pairs(a: &[TileId], b: &[TileId], red: bool, one_list: bool) -> Vec<[TileId; 2]> {
    let mut out: Vec<[TileId; 2]> = Vec::new();
    let mut seen = Vec::new();
    for &x in a {
        for &y in b {
            if x == y || (one_list && x > y) {
                continue;
            }
            let mut key = [x.tile(red), y.tile(red)];
            key.sort();
            if !seen.contains(&key) {
                seen.push(key);
                out.push([x, y]);
            }
        }
    }
    // In tile order, not the order the tiles came into the hand: a player choosing between
    // equal calls then chooses the same whichever ids the hand holds (an mjai bot's table, which
    // names its own ids, asks exactly what the engine asks).
    out.sort_by_key(|p| {
        let mut key = [p[0].tile(red), p[1].tile(red)];
        key.sort();
        key
    });
    out
}

/// The win of `who` on `tile` from `from` (== who for tsumo) as a record states it before
/// scoring: hand, melds, indicators, sticks. The table must stand right after the draw, discard
/// or added kan.
pub fn unscored_win(t: &Table, who: u8, from: u8, tile: TileId, second_ron: bool, ura: Vec<TileId>) -> Agari {
    let mut hand = t.hands[who as usize].clone();
    if from != who {
        hand.push(tile);
    }
    hand.sort_unstable();
    Agari {
        who,
        from_who: from,
        pao_who: None,
        honba: t.start.honba,
        sticks: if second_ron { 0 } else { t.sticks },
        hand,
        melds: t.melds[who as usize].clone(),
        win_tile: tile,
        fu: 0,
        points: 0,
        limit: crate::score::Limit::None,
        yaku: Vec::new(),
        yakuman: Vec::new(),
        dora_indicators: t.dora_indicators.clone(),
        ura_indicators: ura,
        kita: t.kita[who as usize].clone(),
        scores_before: t.scores,
        deltas: [0; 4],
    }
}

/// Whether `who` may win on `tile` from `from` (== who for tsumo): the hand is complete and has
/// a yaku, as the engine offers a win (furiten is the caller's). Ura dora do not decide it, so
/// a seat that does not know them (an mjai bot) decides as the engine does.
pub fn has_win(t: &Table, who: u8, from: u8, tile: TileId) -> bool {
    let a = unscored_win(t, who, from, tile, false, Vec::new());
    win_input(t, &a, false).is_ok_and(|input| score_with(&input, &t.rules.score_rules()).is_some())
}

/// Winning kinds of seat `who`'s 13-tile (3n+1) hand, as bits (0 when not tenpai): what its
/// furiten is judged against.
pub fn wait_kinds(t: &Table, who: u8) -> u64 {
    let (sh, kinds) = necessary_kinds(&t.hand_counts(who));
    if sh == 0 {
        kinds
    } else {
        0
    }
}

/// After a discard: the abortive draw that ends the round instead of the discard being offered
/// for calls, four equal winds on the uninterrupted first go-around or a fourth kan made by more
/// than one seat (the fourth riichi is judged where its stick is paid). The engine and an mjai bot
/// ([`crate::bot`]) judge it here.
pub fn draw_after_discard(t: &Table) -> Option<DrawKind> {
    let d = &t.discards;
    // Four winds need four players (none at three, docs/sanma.md).
    let four_winds = t.rules.players == 4
        && !t.any_call
        && d.len() == 4
        && (27..31).contains(&d[0].1.kind())
        && d.iter().all(|(_, x)| x.kind() == d[0].1.kind());
    let kans_of = |s: usize| t.melds[s].iter().filter(|m| m.kind.is_kan()).count();
    if four_winds {
        Some(DrawKind::Kaze4)
    } else if t.kans >= 4 && !t.rules.seats().any(|s| kans_of(usize::from(s)) == 4) {
        Some(DrawKind::Kan4)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::event::Call;
    use crate::replay::kuikae::kuikae_mask;

    fn call(kind: MeldKind, ids: &[u32], called: u32) -> Call {
        let tiles: Vec<TileId> = ids.iter().map(|&i| TileId::new(i).unwrap()).collect();
        Call { kind, tiles, called: Some(TileId::new(called).unwrap()), from: 3, added: None }
    }

    #[test]
    fn kuikae_same_kind_and_suji() {
        // chi 3m on 45m (ids: 3m = kind 2 -> 8, 4m -> 12, 5m -> 16): 3m and 6m are forbidden.
        assert_eq!(kuikae_mask(&call(MeldKind::Chi, &[8, 12, 17], 8)), bit(2) | bit(5));
        // chi 6m on 45m: 6m and 3m.
        assert_eq!(kuikae_mask(&call(MeldKind::Chi, &[12, 17, 20], 20)), bit(5) | bit(2));
        // chi 7m on 89m called at the low end: 7m only (no 10m).
        assert_eq!(kuikae_mask(&call(MeldKind::Chi, &[24, 28, 32], 24)), bit(6));
        // kanchan chi 4m on 35m: 4m only.
        assert_eq!(kuikae_mask(&call(MeldKind::Chi, &[8, 12, 16], 12)), bit(3));
        // pon: the kind only; a kan: nothing.
        assert_eq!(kuikae_mask(&call(MeldKind::Pon, &[0, 1, 2], 2)), bit(0));
        assert_eq!(kuikae_mask(&call(MeldKind::Daiminkan, &[0, 1, 2, 3], 3)), 0);
    }
}
