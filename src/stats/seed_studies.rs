//! Seed 003's three wait studies with the seed's own definitions, beside today's
//! Study 1, 2 and 4 ([`super::studies`], whose outputs the stats report keeps).
//!
//! One population, the seed's: every accepted riichi whose waits are the two-sided 1-4 or 6-9 of
//! one suit (the 23 / 78 shape, [`edge_wait`]) with **all 8 wait tiles live** (残り8枚: none in
//! the riichi player's hand, on the table, in a meld or as a dora indicator at acceptance, so
//! the riichi player could count 8). Each such riichi is one [`EdgeRiichi`] record; the tables
//! ([`SeedTables`]) are counts over the records, so the same code measures real logs and the seed
//! bot's self-play logs.
//!
//! - **Kabe** (seed): the larger number of the inner kinds (2 and 3, or 7 and 8) **discarded** on
//!   the table (every river tile, called or not; melds and dora indicators do not count), 0..=3
//!   (the riichi player holds one of each inner kind), by turn. Today's Study 1 instead counts
//!   every visible copy and keeps waits that are not live.
//! - **序盤外側** (seed's simulation): when the riichi player threw the wait's 3 (3 for a 1-4 wait,
//!   7 for a 6-9 wait: the tile whose outside, 1-2 or 8-9, holds the outer wait), judged on the
//!   discards up to turn 3 and up to turn 6; the seed compared turn 1 with turn 7.
//! - **序盤5切り** (seed's simulation): the same with the wait suit's 5 instead of the 3.
//!
//! The explanatory columns (turn, dealer, wait tiles held by the opponents, ron or tsumo, table)
//! are there to explain, with data, why the two definitions disagree.

use super::studies::edge_wait;
use crate::hand::shanten::necessary_kinds;
use crate::log::event::{Event, Game, TableLevel};
use crate::replay::table::Table;
use crate::replay::{replay_game, NoWinCheck, Observer, RoundResult};
use crate::tile::Kind;
use crate::util::Rate;

/// One edge-wait riichi (1-4 / 6-9 two-sided), live or not, with what every split needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EdgeRiichi {
    /// The riichi player won the round (ron or tsumo).
    pub won: bool,
    /// ... by ron.
    pub ron: bool,
    /// None of the 8 wait tiles is visible to the riichi player at acceptance.
    pub live8: bool,
    /// Larger count of the two inner kinds among all discards so far (seed's kabe), 0..=3.
    pub discarded_inner: u8,
    /// Larger count of the two inner kinds visible (rivers, melds, dora indicators: Study 1).
    pub visible_inner: u8,
    /// The riichi player's turn: discards made, the declaring one included (巡目).
    pub turn: u8,
    pub dealer: bool,
    /// Turn of the riichi player's first discard of the wait's 3 (or 7), if any before riichi.
    pub three_turn: Option<u8>,
    /// Turn of the riichi player's first discard of the wait suit's 5, if any.
    pub five_turn: Option<u8>,
    /// Turn of the riichi player's first discard of either inner kind (2 or 3, 7 or 8), if any:
    /// the broader 序盤外側 (the outer wait lies outside both).
    pub inner_turn: Option<u8>,
    /// Study 2's split: the suji partner of the middle wait among the first 6 discards.
    pub partner_first6: bool,
    /// Wait tiles (of 8 at most) in the opponents' concealed hands at acceptance (the other seats
    /// of the table: three, or two at three players).
    pub opp_wait_tiles: u8,
    /// The game was played at the houou table.
    pub houou: bool,
}

/// The replay observer: one record per edge-wait riichi, its outcome filled at the round's end.
#[derive(Default)]
pub struct SeedCollector {
    pub records: Vec<EdgeRiichi>,
    /// Records of the current round, with the riichi seat.
    open: Vec<(u8, EdgeRiichi)>,
}

/// Turn (1-based) of `who`'s first discard of kind `k` in its river up to the declaring tile.
fn first_turn_of(table: &Table, who: u8, k: Kind) -> Option<u8> {
    table.rivers[who as usize].iter().position(|r| r.tile.kind() == k).map(|i| (i + 1).min(255) as u8)
}

/// The record of a riichi just accepted, if its wait is an edge wait.
pub fn edge_record(table: &Table, who: u8) -> Option<EdgeRiichi> {
    let counts = table.hand_counts(who);
    let (shanten, waits) = necessary_kinds(&counts);
    if shanten != 0 {
        return None;
    }
    let w = edge_wait(&counts, table.melds[who as usize].len(), waits)?;
    let wait_kinds: Vec<Kind> = (0..34).filter(|&k| waits & (1 << k) != 0).collect();
    let public = table.public_counts();
    let mut discarded = [0u8; 34];
    for (_, t) in &table.discards {
        discarded[t.kind()] += 1;
    }
    // The other seats at the table (two at three players: the empty fourth seat is no opponent).
    let opp_wait_tiles = table
        .rules
        .seats()
        .filter(|&s| s != who)
        .map(|s| table.hand_counts(s))
        .map(|c| wait_kinds.iter().map(|&k| c[k]).sum::<u8>())
        .sum();
    let suit_base = w.inner[0] / 9 * 9;
    // The wait's 3: for inner 2-3 (wait 1-4) the higher inner kind, for 7-8 (wait 6-9) the lower.
    let three = if w.inner[0] % 9 == 1 { w.inner[1] } else { w.inner[0] };
    Some(EdgeRiichi {
        won: false,
        ron: false,
        live8: wait_kinds.iter().all(|&k| public[k] + counts[k] == 0),
        discarded_inner: discarded[w.inner[0]].max(discarded[w.inner[1]]).min(3),
        visible_inner: public[w.inner[0]].max(public[w.inner[1]]).min(4),
        turn: table.rivers[who as usize].len().min(255) as u8,
        dealer: who == table.start.dealer,
        three_turn: first_turn_of(table, who, three),
        five_turn: first_turn_of(table, who, suit_base + 4),
        inner_turn: w.inner.iter().filter_map(|&k| first_turn_of(table, who, k)).min(),
        partner_first6: table.rivers[who as usize].iter().take(6).any(|r| r.tile.kind() == w.partner),
        opp_wait_tiles,
        houou: false,
    })
}

impl Observer for SeedCollector {
    fn after_event(&mut self, table: &Table, _index: usize, event: &Event) {
        if let Event::Riichi { who, step: 2, .. } = event {
            if let Some(r) = edge_record(table, *who) {
                self.open.push((*who, r));
            }
        }
    }

    fn round_end(&mut self, _table: &Table, result: &RoundResult) {
        for (who, mut r) in self.open.drain(..) {
            if let RoundResult::Wins(wins) = result {
                if let Some(a) = wins.iter().find(|a| a.who == who) {
                    r.won = true;
                    r.ron = a.from_who != who;
                }
            }
            self.records.push(r);
        }
    }
}

/// The edge-wait riichi records of one game.
pub fn game_records(game: &Game) -> Result<Vec<EdgeRiichi>, crate::replay::ReplayError> {
    let mut c = SeedCollector::default();
    replay_game(game, &mut c, &mut NoWinCheck)?;
    let houou = game.rules.table == TableLevel::Houou;
    Ok(c.records.into_iter().map(|r| EdgeRiichi { houou, ..r }).collect())
}

/// Labels of the seed's turn table.
pub const TURN_LABELS: [&str; 4] = ["1-6", "7-9", "10-12", "13+"];

/// Turn bucket of the seed's turn table.
pub fn turn_bucket(turn: u8) -> usize {
    match turn {
        0..=6 => 0,
        7..=9 => 1,
        10..=12 => 2,
        _ => 3,
    }
}

/// Labels of the "when was it thrown" split (序盤外側, 序盤5切り).
pub const WHEN_LABELS: [&str; 4] = ["by turn 3", "turns 4-6", "turn 7 or later", "not thrown"];

/// Bucket of a first-discard turn: by turn 3, 4-6, 7+, never.
pub fn when_bucket(turn: Option<u8>) -> usize {
    match turn {
        Some(0..=3) => 0,
        Some(4..=6) => 1,
        Some(_) => 2,
        None => 3,
    }
}

/// Every table of the seed studies, over one set of records.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeedTables {
    /// Edge-wait riichi, live or not (today's population).
    pub edge_all: Rate,
    /// The seed's population (live 8).
    pub live: Rate,
    /// Edge waits that are not live 8.
    pub not_live: Rate,
    /// Seed kabe: live 8, by discarded inner count 0..=3.
    pub kabe: [Rate; 4],
    /// Seed kabe by [discarded inner][turn bucket].
    pub kabe_turn: [[Rate; 4]; 4],
    /// Seed kabe by [discarded inner][dealer].
    pub kabe_dealer: [[Rate; 2]; 4],
    /// Ron wins only (hits = won by ron), live 8, by discarded inner.
    pub kabe_ron: [Rate; 4],
    /// Today's Study 1 on the same records: every edge wait, visible inner 0..=4.
    pub today_kabe: [Rate; 5],
    /// Today's Study 1 by [visible inner][seed turn bucket] (for its turn-standardised rate).
    pub today_turn: [[Rate; 4]; 5],
    /// The two halves of the disagreement: visible count on live waits, discarded on all waits.
    pub visible_live: [Rate; 5],
    pub discarded_all: [Rate; 4],
    /// Per discarded-inner bucket: the sums of turn, dealer, opponents' wait tiles (for means).
    pub kabe_turn_sum: [u64; 4],
    pub kabe_dealer_sum: [u64; 4],
    pub kabe_opp_sum: [u64; 4],
    /// 序盤外側 (seed): live 8, by when the wait's 3 / 7 was thrown.
    pub outside: [Rate; 4],
    /// 序盤外側, broader: live 8, by when either inner kind was thrown.
    pub outside_inner: [Rate; 4],
    /// 序盤5切り (seed): live 8, by when the wait suit's 5 was thrown.
    pub five: [Rate; 4],
    /// Today's Study 2 on the same records: [partner not in first 6, partner in first 6].
    pub today_partner: [Rate; 2],
    /// Mean turn of the riichi by outside / five bucket (sums).
    pub outside_turn_sum: [u64; 4],
    pub five_turn_sum: [u64; 4],
    pub outside_inner_turn_sum: [u64; 4],
    /// The three "when thrown" splits by [when bucket][seed turn bucket], for rates at equal
    /// riichi turns ([`standardised`] over the turn buckets 7+).
    pub outside_cells: [[Rate; 4]; 4],
    pub outside_inner_cells: [[Rate; 4]; 4],
    pub five_cells: [[Rate; 4]; 4],
}

impl SeedTables {
    /// Counts over the records, optionally only the houou ones.
    pub fn of(records: &[EdgeRiichi], houou_only: bool) -> SeedTables {
        let mut t = SeedTables::default();
        for r in records.iter().filter(|r| r.houou || !houou_only) {
            t.add(r);
        }
        t
    }

    fn add(&mut self, r: &EdgeRiichi) {
        let w = r.won;
        self.edge_all.add(w);
        self.today_kabe[r.visible_inner.min(4) as usize].add(w);
        self.today_turn[r.visible_inner.min(4) as usize][turn_bucket(r.turn)].add(w);
        self.discarded_all[r.discarded_inner as usize].add(w);
        self.today_partner[usize::from(r.partner_first6)].add(w);
        if !r.live8 {
            self.not_live.add(w);
            return;
        }
        let k = r.discarded_inner as usize;
        self.live.add(w);
        self.kabe[k].add(w);
        self.kabe_turn[k][turn_bucket(r.turn)].add(w);
        self.kabe_dealer[k][usize::from(r.dealer)].add(w);
        self.kabe_ron[k].add(r.ron);
        self.visible_live[r.visible_inner.min(4) as usize].add(w);
        self.kabe_turn_sum[k] += u64::from(r.turn);
        self.kabe_dealer_sum[k] += u64::from(r.dealer);
        self.kabe_opp_sum[k] += u64::from(r.opp_wait_tiles);
        let (o, f) = (when_bucket(r.three_turn), when_bucket(r.five_turn));
        self.outside[o].add(w);
        self.outside_inner[when_bucket(r.inner_turn)].add(w);
        self.outside_inner_turn_sum[when_bucket(r.inner_turn)] += u64::from(r.turn);
        let t = turn_bucket(r.turn);
        self.outside_cells[o][t].add(w);
        self.outside_inner_cells[when_bucket(r.inner_turn)][t].add(w);
        self.five_cells[f][t].add(w);
        self.five[f].add(w);
        self.outside_turn_sum[o] += u64::from(r.turn);
        self.five_turn_sum[f] += u64::from(r.turn);
    }

    /// The seed kabe win rate of bucket `k` re-weighted to the turn mix of the whole live
    /// population ([`standardised`]).
    pub fn kabe_standardised(&self, k: usize) -> f64 {
        standardised(&self.kabe_turn, k, 0..4)
    }
}

/// Direct standardisation over the turn buckets: the win rate of row `k` of `cells` (rows =
/// a split, columns = turn buckets) re-weighted to the turn mix of all rows together, i.e. what
/// the row's rate would be if its riichi came at the same turns as all the others. Empty cells
/// are left out and the other weights renormalised. Only the turn buckets in `cols` count (the
/// "when thrown" splits compare riichi from turn 7 on, where every bucket can occur).
pub fn standardised<const R: usize>(cells: &[[Rate; 4]; R], k: usize, cols: std::ops::Range<usize>) -> f64 {
    let mut weights = [0u64; 4];
    for row in cells {
        for (w, r) in weights.iter_mut().zip(row) {
            *w += r.n;
        }
    }
    let (mut acc, mut wsum) = (0.0, 0.0);
    for (c, (w, r)) in weights.iter().zip(&cells[k]).enumerate() {
        if r.n > 0 && cols.contains(&c) {
            acc += *w as f64 * r.value();
            wsum += *w as f64;
        }
    }
    if wsum > 0.0 {
        acc / wsum
    } else {
        f64::NAN
    }
}

/// Difference of two rates `a - b` with a 95% normal-approximation interval.
pub fn diff_ci(a: Rate, b: Rate) -> (f64, f64, f64) {
    let (pa, pb) = (a.value(), b.value());
    let se = (pa * (1.0 - pa) / a.n as f64 + pb * (1.0 - pb) / b.n as f64).sqrt();
    let d = pa - pb;
    (d, d - 1.96 * se, d + 1.96 * se)
}

/// Every edge-wait riichi record under `paths` (real or simulated logs) and the files read.
pub fn collect(paths: &[std::path::PathBuf], jobs: Option<usize>) -> (usize, Vec<EdgeRiichi>) {
    let out = crate::batch::run_sharded(paths, jobs, "seed studies", Default::default(), game_records);
    (out.files, out.results.into_iter().flat_map(|(_, r)| r).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::test_games::{exhaustive_draw, riichi_23m_wins, riichi_78s_loses};

    fn r(hits: u64, n: u64) -> Rate {
        Rate { hits, n }
    }

    /// Game A, read off its events by hand: riichi on 23m after 7m and 9s, 2m thrown once and 3m
    /// twice (plus the 3m indicator, visible but not discarded), no 1m or 4m visible; seat 1
    /// holds a 1m, seats 2 and 3 a 4m each; won by ron.
    #[test]
    fn game_a_record_by_hand() {
        let recs = game_records(&riichi_23m_wins()).unwrap();
        let want = EdgeRiichi {
            won: true,
            ron: true,
            live8: true,
            discarded_inner: 2,
            visible_inner: 3,
            turn: 2,
            dealer: true,
            three_turn: None,
            five_turn: None,
            inner_turn: None,
            partner_first6: true,
            opp_wait_tiles: 3,
            houou: false,
        };
        assert_eq!(recs, vec![want]);
        let b = game_records(&riichi_78s_loses()).unwrap();
        assert_eq!(b.len(), 1);
        assert_eq!((b[0].won, b[0].live8, b[0].discarded_inner, b[0].turn), (false, true, 0, 1));
        assert!(game_records(&exhaustive_draw()).unwrap().is_empty());
        let t = SeedTables::of(&[recs[0], b[0]], false);
        assert_eq!(t.kabe, [r(0, 1), r(0, 0), r(1, 1), r(0, 0)]);
        assert_eq!(t.today_kabe, [r(0, 1), r(0, 0), r(0, 0), r(1, 1), r(0, 0)]);
        assert_eq!(t.outside[3], r(1, 2));
        // Houou only: neither hand-made game is one.
        assert_eq!(SeedTables::of(&[recs[0], b[0]], true), SeedTables::default());
    }

    #[test]
    fn standardisation_reweights_to_the_pooled_turn_mix() {
        // Row 0: 10 riichi early (8 won), row 1: 10 late (2 won) + 10 early (5 won).
        let cells = [[r(8, 10), r(0, 0), r(0, 0), r(0, 0)], [r(5, 10), r(2, 10), r(0, 0), r(0, 0)]];
        // Pooled mix: 20 early, 10 late. Row 1: (20 * 0.5 + 10 * 0.2) / 30 = 0.4.
        assert!((standardised(&cells, 1, 0..4) - 0.4).abs() < 1e-12);
        // Row 0 has no late cell: its rate stays 0.8.
        assert!((standardised(&cells, 0, 0..4) - 0.8).abs() < 1e-12);
        // Late columns only: row 1's late cell alone.
        assert!((standardised(&cells, 1, 1..4) - 0.2).abs() < 1e-12);
        assert!(standardised(&cells, 0, 1..4).is_nan());
        let (d, lo, hi) = diff_ci(r(8, 10), r(5, 10));
        assert!((d - 0.3).abs() < 1e-12 && lo < d && d < hi);
    }

    /// Today's Study 1 counted from these records equals the counts of `studies.rs` (two
    /// implementations of one definition), on real games.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn todays_kabe_from_the_records_equals_study_1() {
        let mut files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        files.truncate(60);
        let (_, records) = collect(&files, Some(1));
        let t = SeedTables::of(&records, false);
        let today = crate::stats::compute(&files, Some(1)).studies;
        assert!(t.edge_all.n > 10, "{} edge waits", t.edge_all.n);
        assert_eq!(t.today_kabe, today.kabe);
        assert_eq!(t.today_partner, today.early_partner);
        assert!(t.live.n + t.not_live.n == t.edge_all.n && t.live.n > 0);
    }
}
