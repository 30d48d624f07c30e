//! The danger models' inputs: what the deciding seat sees of one opponent ([`opponent_inputs`]),
//! and of one kind against that opponent ([`kind_inputs`]), as named f32 columns
//! ([`OPPONENT_COLUMNS`], [`KIND_COLUMNS`]).
//!
//! The same functions build the training rows (`examples/danger_rows.rs`) and the rows the
//! served models score (`features::danger`), from the seat's [`View`] only, so training equals use.
//! They read the public table: the opponent's river in order with tedashi / tsumogiri, its
//! riichi tile and turn, its melds, the dora, the copies seen, and the safety facts of
//! `rank::safety` (genbutsu, suji, kabe). The labels they are fitted on are not here: they come
//! from the concealed hands, `replay::waits`.

use crate::hand::meld::Meld;
use crate::rank::danger::absolute_against;
use crate::rank::safety::{genbutsu, river_kinds, seen_counts, side_shapes, suji, Suji};
use crate::replay::view::View;
use crate::tile::{is_honor, kind_number, kind_suit, Counts, Kind, EAST, KINDS};

use super::facts::dora_table;

/// The columns of [`opponent_inputs`]: (name, meaning).
pub const OPPONENT_COLUMNS: [(&str, &str); 24] = [
    ("turn", "the deciding seat's draws this round"),
    ("wall_left", "draws left in the live wall"),
    ("opp_discards", "the opponent's discards (called-away ones included)"),
    ("opp_tedashi", "of them, discards from the hand (not the tile just drawn)"),
    ("opp_tedashi_last3", "hand discards among the opponent's last 3 discards"),
    ("opp_tedashi_last6", "hand discards among the opponent's last 6 discards"),
    ("opp_tsumogiri_run", "drawn tiles discarded in a row at the end of the river"),
    ("opp_riichi", "the opponent has declared riichi"),
    ("opp_riichi_at", "the riichi tile's place in the river, from 1 (0: no riichi)"),
    ("opp_since_riichi", "the opponent's discards after its riichi tile"),
    ("opp_riichi_tsumogiri", "the riichi tile was the tile just drawn"),
    ("opp_melds", "the opponent's melds (closed kans included)"),
    ("opp_open_melds", "chi, pon and open kans"),
    ("opp_meld_yakuhai", "pons and kans of a kind that is yakuhai for the opponent"),
    ("opp_meld_dora", "dora shown in the opponent's melds (indicators and red fives)"),
    ("opp_meld_suits", "suits among the opponent's suited melds"),
    ("opp_meld_honors", "the opponent's melds of honours"),
    ("opp_dealer", "the opponent is the dealer"),
    ("opp_score_gap", "the opponent's score minus the deciding seat's, in thousands"),
    ("opp_early_yaochu", "terminals and honours among the opponent's first 6 discards"),
    ("opp_called_away", "the opponent's discards another seat called"),
    ("others_riichi", "other opponents in riichi"),
    ("dora_count", "dora indicators shown"),
    ("self_riichi", "the deciding seat is in riichi"),
];

/// The columns of [`kind_inputs`]: (name, meaning).
pub const KIND_COLUMNS: [(&str, &str); 26] = [
    ("k_honor", "the kind is an honour"),
    ("k_number", "its number 1-9 (0 for an honour)"),
    ("k_edge", "steps to the nearer end of the suit: 0 for a 1/9 ... 4 for a 5 (0 for an honour)"),
    ("k_yakuhai", "an honour that is yakuhai for the opponent (dragons, the round wind, its seat wind)"),
    ("k_genbutsu", "in the opponent's river, or passed by anyone since its riichi"),
    ("k_in_river", "in the opponent's own river"),
    (
        "k_suji",
        "suited, not genbutsu: 2 every suji partner genbutsu, 1 one of two, 0 none (-1 honour or genbutsu)",
    ),
    ("k_unseen", "copies the deciding seat has not seen"),
    ("k_held", "copies in the deciding seat's concealed hand"),
    ("k_no_chance", "suited: every two-sided shape waiting on it has a kind with 4 copies seen"),
    ("k_one_chance", "suited, not no-chance: every such shape has a kind with 3+ copies seen"),
    ("k_dora", "dora the kind is worth by the indicators"),
    ("k_dora_near", "not dora; one or two steps from a dora kind of the same suit"),
    (
        "k_early_outside",
        "suited: 1-2 steps on the outer side of a tile among the opponent's first 6 discards",
    ),
    ("k_riichi_dist", "steps from the riichi tile when of the same suit (-1: other suit, honour, no riichi)"),
    (
        "k_last_tedashi_dist",
        "steps from the opponent's last hand discard when of the same suit (-1 otherwise)",
    ),
    ("k_suit_discards", "the opponent's discards of the kind's suit (honours for an honour)"),
    ("k_suit_late", "of those, among the opponent's last 6 discards"),
    ("k_suit_melds", "the opponent's melds of the kind's suit (honours for an honour)"),
    ("k_other_suit_melds", "the opponent's melds of another suit"),
    ("k_shape_score", "電脳麻将 1.0.13's absolute danger score of the kind against the opponent"),
    ("k_near_river", "kinds one or two steps away in the same suit that are in the opponent's river"),
    ("k_discarded_after_riichi", "copies anyone discarded after the opponent's riichi"),
    ("k_visible", "copies visible on the table (rivers, melds, indicators)"),
    ("k_first_seen_at", "the opponent discarded it at this place in its river, from 1 (0: never)"),
    ("k_meld_kind", "the opponent has a pon or kan of the kind"),
];

/// Opponent `r` (0 next, 1 across, 2 previous) as the deciding seat sees it: [`OPPONENT_COLUMNS`].
pub fn opponent_inputs(view: &View, r: usize) -> [f32; OPPONENT_COLUMNS.len()] {
    let o = &view.opponents[r];
    let n = o.river.len();
    let tedashi = |from: usize| o.river[from..].iter().filter(|d| !d.tsumogiri).count() as f32;
    let run = o.river.iter().rev().take_while(|d| d.tsumogiri).count();
    let dora = dora_table(&view.dora_indicators, view.players());
    let yakuhai = yakuhai_for(view, r);
    let meld_dora: u32 = o
        .melds
        .iter()
        .flat_map(|m| m.tiles().iter())
        .map(|t| u32::from(dora[t.kind()]) + u32::from(t.is_red()))
        .sum();
    let suits = (0..3).filter(|&s| o.melds.iter().any(|m| meld_suit(m) == s)).count();
    let sb = &view.scoreboard;
    let seat = (sb.seat as usize + seat_offset(view, r)) % usize::from(view.players().max(1));
    let gap = (sb.scores[seat % 4] - sb.scores[sb.seat as usize % 4]) as f32 / 1000.0;
    let others = view.opponents.iter().enumerate().filter(|(i, x)| *i != r && x.in_riichi()).count();
    [
        f32::from(view.turn),
        f32::from(view.wall_left),
        n as f32,
        tedashi(0),
        tedashi(n.saturating_sub(3)),
        tedashi(n.saturating_sub(6)),
        run as f32,
        flag(o.in_riichi()),
        o.riichi_at.map_or(0.0, |a| (a + 1) as f32),
        o.riichi_at.map_or(0.0, |a| n.saturating_sub(a + 1) as f32),
        flag(o.riichi_at.is_some_and(|a| o.river.get(a).is_some_and(|d| d.tsumogiri))),
        o.melds.len() as f32,
        o.melds.iter().filter(|m| m.is_open()).count() as f32,
        o.melds.iter().filter(|m| !m.is_run() && yakuhai[m.first_kind()]).count() as f32,
        meld_dora as f32,
        suits as f32,
        o.melds.iter().filter(|m| meld_suit(m) == 3).count() as f32,
        flag(o.is_dealer),
        gap,
        o.river.iter().take(6).filter(|d| is_yaochu_kind(d.tile.kind())).count() as f32,
        o.river.iter().filter(|d| d.called).count() as f32,
        others as f32,
        view.dora_indicators.len() as f32,
        flag(view.riichi),
    ]
}

/// Kind `k` against opponent `r` as the deciding seat sees it: [`KIND_COLUMNS`]. `seen` is
/// [`seen_counts`] of the view (computed once per decision by the caller).
pub fn kind_inputs(view: &View, seen: &Counts, r: usize, k: Kind) -> [f32; KIND_COLUMNS.len()] {
    let o = &view.opponents[r];
    let honor = is_honor(k);
    let number = if honor { 0 } else { kind_number(k) as i32 };
    let gen = genbutsu(o);
    let river = river_kinds(o);
    let suji_class = match (gen.contains(k), suji(gen, k)) {
        (false, Some(Suji::Full)) => 2.0,
        (false, Some(Suji::Half)) => 1.0,
        (false, Some(Suji::None)) => 0.0,
        _ => -1.0,
    };
    let blocked = |need: u8| {
        !honor && side_shapes(k).filter(|s| !s.penchan).all(|s| s.tiles.iter().any(|&x| seen[x] >= need))
    };
    let no_chance = blocked(4);
    let dora = dora_table(&view.dora_indicators, view.players());
    let near_dora = !honor && dora[k] == 0 && same_suit_within(k, 2).any(|q| q != k && dora[q] > 0);
    let early: Vec<Kind> = o.river.iter().take(6).map(|d| d.tile.kind()).collect();
    let early_outside = !honor
        && early.iter().any(|&e| {
            kind_suit(e) == kind_suit(k) && !is_honor(e) && {
                let m = kind_number(e) as i32;
                (m <= 5 && (number == m - 1 || number == m - 2))
                    || (m >= 5 && (number == m + 1 || number == m + 2))
            }
        });
    let dist = |t: Option<Kind>| -> f32 {
        match t {
            Some(t) if !honor && !is_honor(t) && kind_suit(t) == kind_suit(k) => {
                (kind_number(t) as i32 - number).abs() as f32
            }
            _ => -1.0,
        }
    };
    let riichi_tile = o.riichi_at.and_then(|a| o.river.get(a)).map(|d| d.tile.kind());
    let last_tedashi = o.river.iter().rev().find(|d| !d.tsumogiri).map(|d| d.tile.kind());
    let suit = if honor { 3 } else { kind_suit(k) };
    let of_suit = |q: Kind| if is_honor(q) { 3 } else { kind_suit(q) } == suit;
    let n = o.river.len();
    let held = view.hand_counts();
    let unseen: Counts = seen.map(|s| 4 - s.min(4));
    let near_river =
        if honor { 0 } else { same_suit_within(k, 2).filter(|&q| q != k && river.contains(q)).count() };
    [
        flag(honor),
        number as f32,
        if honor { 0.0 } else { (number - 1).min(9 - number) as f32 },
        flag(honor && yakuhai_for(view, r)[k]),
        flag(gen.contains(k)),
        flag(river.contains(k)),
        suji_class,
        f32::from(unseen[k]),
        f32::from(held[k]),
        flag(no_chance),
        flag(!no_chance && blocked(3)),
        f32::from(dora[k]),
        flag(near_dora),
        flag(early_outside),
        dist(riichi_tile),
        dist(last_tedashi),
        o.river.iter().filter(|d| of_suit(d.tile.kind())).count() as f32,
        o.river[n.saturating_sub(6)..].iter().filter(|d| of_suit(d.tile.kind())).count() as f32,
        o.melds.iter().filter(|m| meld_suit(m) == suit).count() as f32,
        o.melds.iter().filter(|m| meld_suit(m) != suit && meld_suit(m) < 3).count() as f32,
        absolute_against(gen, &unseen, &held, k) as f32,
        near_river as f32,
        f32::from(o.riichi_passed[k]),
        f32::from(view.visible[k]),
        o.river.iter().position(|d| d.tile.kind() == k).map_or(0.0, |i| (i + 1) as f32),
        flag(o.melds.iter().any(|m| !m.is_run() && m.first_kind() == k)),
    ]
}

/// [`seen_counts`], re-exported for the callers of [`kind_inputs`].
pub fn seen(view: &View) -> Counts {
    seen_counts(view)
}

/// The names of the deal-in and points models' rows: the opponent's columns, then the kind's.
pub fn deal_in_names() -> Vec<&'static str> {
    OPPONENT_COLUMNS.iter().chain(KIND_COLUMNS.iter()).map(|c| c.0).collect()
}

/// The names of the tenpai model's rows: the opponent's columns.
pub fn tenpai_names() -> Vec<&'static str> {
    OPPONENT_COLUMNS.iter().map(|c| c.0).collect()
}

fn flag(b: bool) -> f32 {
    f32::from(u8::from(b))
}

fn is_yaochu_kind(k: Kind) -> bool {
    crate::tile::is_yaochu(k)
}

/// Seats from the deciding seat to opponent `r`, around the table (at three players the
/// opponent across is empty, and the previous seat is two away).
fn seat_offset(view: &View, r: usize) -> usize {
    if view.players() == 3 && r == 2 {
        2
    } else {
        r + 1
    }
}

/// Kinds that are yakuhai for opponent `r`: the dragons, the round wind and its seat wind.
fn yakuhai_for(view: &View, r: usize) -> [bool; KINDS] {
    let mut y = [false; KINDS];
    for x in y.iter_mut().skip(31) {
        *x = true;
    }
    y[view.round_wind] = true;
    let players = usize::from(view.players().max(1));
    let own = view.seat_wind.saturating_sub(EAST);
    y[EAST + (own + seat_offset(view, r)) % players] = true;
    y
}

/// The suit of a meld (3 for honours).
fn meld_suit(m: &Meld) -> usize {
    let k = m.first_kind();
    if is_honor(k) {
        3
    } else {
        kind_suit(k)
    }
}

/// The kinds of `k`'s suit within `d` steps of it (itself included); none for an honour.
fn same_suit_within(k: Kind, d: i32) -> impl Iterator<Item = Kind> {
    let suited = !is_honor(k);
    let base = k - k % 9;
    let n = (k % 9) as i32;
    (-d..=d).filter_map(move |s| {
        let m = n + s;
        (suited && (0..9).contains(&m)).then(|| base + m as usize)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::view::{Opponent, SeenDiscard};
    use crate::tile::parse_mpsz;

    fn tiles(s: &str) -> Vec<crate::tile::Tile> {
        parse_mpsz(s).unwrap()
    }

    fn view_with(river: &str, riichi_at: Option<usize>) -> View {
        let hand = crate::hand::Hand::new(tiles("123m456p789s1122z3z"), vec![]);
        let mut v = View::bare(hand, tiles("1m"), EAST, EAST);
        let discards: Vec<SeenDiscard> = tiles(river)
            .into_iter()
            .enumerate()
            .map(|(i, tile)| SeenDiscard { tile, tsumogiri: i % 2 == 1, called: false })
            .collect();
        for d in &discards {
            v.visible[d.tile.kind()] += 1;
        }
        v.opponents[0] = Opponent { river: discards, riichi_at, ..Opponent::default() };
        v
    }

    fn get(names: &[(&str, &str)], row: &[f32], name: &str) -> f32 {
        row[names.iter().position(|c| c.0 == name).unwrap()]
    }

    /// The river's counts, worked out by hand: 6 discards, every second one tsumogiri, the riichi
    /// on the fifth (index 4, a hand discard), one discard after it.
    #[test]
    fn opponent_columns_of_a_hand_made_river() {
        let v = view_with("1z9m2p5s4m7p", Some(4));
        let row = opponent_inputs(&v, 0);
        let g = |n| get(&OPPONENT_COLUMNS, &row, n);
        assert_eq!(g("opp_discards"), 6.0);
        assert_eq!(g("opp_tedashi"), 3.0);
        assert_eq!(g("opp_tedashi_last3"), 1.0);
        assert_eq!(g("opp_tsumogiri_run"), 1.0);
        assert_eq!((g("opp_riichi"), g("opp_riichi_at"), g("opp_since_riichi")), (1.0, 5.0, 1.0));
        assert_eq!(g("opp_riichi_tsumogiri"), 0.0);
        // 1z and 9m among the first six
        assert_eq!(g("opp_early_yaochu"), 2.0);
    }

    /// Kind columns against that river: 1m is suji of the genbutsu 4m; 7m is suji of 4m too;
    /// 5m is musuji (2m and 8m are not out); 4m itself is genbutsu.
    #[test]
    fn kind_columns_of_a_hand_made_river() {
        let v = view_with("1z9m2p5s4m7p", Some(4));
        let seen = seen(&v);
        let k = |s: &str| tiles(s)[0].kind();
        let row = |s: &str| kind_inputs(&v, &seen, 0, k(s));
        let g = |s: &str, n: &str| get(&KIND_COLUMNS, &row(s), n);
        assert_eq!(g("4m", "k_genbutsu"), 1.0);
        assert_eq!(g("4m", "k_suji"), -1.0);
        assert_eq!(g("1m", "k_suji"), 2.0);
        assert_eq!(g("7m", "k_suji"), 2.0);
        assert_eq!(g("5m", "k_suji"), 0.0);
        assert_eq!(g("1m", "k_edge"), 0.0);
        assert_eq!(g("5m", "k_edge"), 4.0);
        // the riichi tile is 4m: 6m is two steps away, 3p another suit
        assert_eq!(g("6m", "k_riichi_dist"), 2.0);
        assert_eq!(g("3p", "k_riichi_dist"), -1.0);
        // the last hand discard is 4m (7p was drawn and discarded)
        assert_eq!(g("3m", "k_last_tedashi_dist"), 1.0);
        // 9m was discarded second; 2z (South) is the next seat's own wind when we are East
        assert_eq!(g("9m", "k_first_seen_at"), 2.0);
        assert_eq!(g("2z", "k_yakuhai"), 1.0);
        assert_eq!(g("3z", "k_yakuhai"), 0.0);
        // dora: indicator 1m makes 2m dora; 3m and 4m are near it
        assert_eq!(g("2m", "k_dora"), 1.0);
        assert_eq!(g("3m", "k_dora_near"), 1.0);
        assert_eq!(g("2m", "k_dora_near"), 0.0);
    }
}
