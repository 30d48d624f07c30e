//! Wall (kabe), early-outside and push/fold studies, collected in the same replay pass as the
//! player statistics ([`StudyCollector`] is a replay [`Observer`]) and written as tables.
//!
//! Why these three: they are the folk rules of defence (a wall makes a two-sided wait less
//! likely to win; an early discard next to the wait looks like a trap; a player far from tenpai
//! should fold against a riichi). Measuring them on real games says how much each is worth and
//! checks that the safety features (`features::safety`, whose classifier is reused here, not
//! rewritten) measure something real.
//!
//! 1. **Kabe.** A riichi whose wait kinds are exactly {1, 4} or {6, 9} of one suit, held as the
//!    two-sided 23 / 78 shape ([`edge_wait`]: the shanpon 11 + 44 is left out). At the moment the riichi is accepted, count the publicly visible copies
//!    (rivers without called tiles, melds with them, dora indicators: [`Table::public_counts`],
//!    never the riichi player's concealed hand) of each inner kind (2 and 3, or 7 and 8) and take
//!    the larger: buckets 0-4. 3 is a one-chance, 4 a no-chance; the riichi player holds one of
//!    each inner kind, so 4 cannot happen for a real two-sided wait (the bucket stays empty). The
//!    rate is the riichi player's win rate in that round (ron or tsumo). Also by the riichi
//!    player's draws at acceptance (1-6, 7-12, 13+).
//! 2. **Early outside.** Same riichi and rate, split by whether the suji partner of the outer
//!    wait (7 for a 1-4 wait, 3 for a 6-9 wait) is among the riichi player's first 6 discards
//!    (the riichi tile included when it is one of them). And for every discard made while an
//!    opponent's riichi is accepted (by anyone but that opponent, riichi players included), its
//!    [`SafetyClass`] against the riichi opponents (the most dangerous one when several) with its
//!    deal-in rate: the discard was ronned by an opponent in riichi.
//! 3. **Push / fold.** Every discard by a player not in (accepted) riichi while an opponent's riichi
//!    is accepted: the push rate is the share of discards that are neither genbutsu nor suji
//!    (class one-chance, no-chance or none against the most dangerous riichi), by the player's
//!    minimum shanten before the discard (the 14-tile hand: -1 = complete, 0 = tenpai, ..., 4+) and
//!    by their draws so far. A riichi declaration's own discard counts (it is not accepted yet).

use super::early_five::{five_timing, near_five, riichi_entries, EarlyFive, EARLY_LABELS};
use crate::dataset::columns::{Columns, Values};
use crate::features::safety::{safety_against, OpponentSafety};
use crate::hand::shanten::{min_shanten, necessary_kinds, standard_with, Shape};
use crate::log::event::Event;
use crate::replay::table::{RiichiState, Table};
use crate::replay::view::view_of;
use crate::replay::{Observer, RoundResult};
use crate::tile::{Counts, Kind};
use crate::util::markdown::{pct, pct_ci, table};
use crate::util::Rate;

/// The class of a discard against riichi, in the order the study checks them (first match).
/// Ordered by danger, safest first, so `max` over opponents is the most dangerous: a no-chance
/// (no two-sided wait possible) ranks safer than a one-chance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SafetyClass {
    Genbutsu,
    Suji,
    NoChance,
    OneChance,
    None,
}

impl SafetyClass {
    pub const ALL: [SafetyClass; 5] = [
        SafetyClass::Genbutsu,
        SafetyClass::Suji,
        SafetyClass::OneChance,
        SafetyClass::NoChance,
        SafetyClass::None,
    ];

    pub fn name(self) -> &'static str {
        match self {
            SafetyClass::Genbutsu => "genbutsu",
            SafetyClass::Suji => "suji",
            SafetyClass::OneChance => "one-chance",
            SafetyClass::NoChance => "no-chance",
            SafetyClass::None => "none",
        }
    }

    /// First matching class: genbutsu, suji, one-chance, no-chance, none (the last two never
    /// both hold: one-chance means "not no-chance" in the classifier).
    pub fn of(s: &OpponentSafety) -> SafetyClass {
        if s.genbutsu {
            SafetyClass::Genbutsu
        } else if s.suji {
            SafetyClass::Suji
        } else if s.one_chance {
            SafetyClass::OneChance
        } else if s.no_chance {
            SafetyClass::NoChance
        } else {
            SafetyClass::None
        }
    }

    fn index(self) -> usize {
        SafetyClass::ALL.iter().position(|&c| c == self).unwrap_or(4)
    }

    /// A push: neither genbutsu nor suji.
    pub fn is_push(self) -> bool {
        !matches!(self, SafetyClass::Genbutsu | SafetyClass::Suji)
    }
}

/// Labels of the turn buckets (a player's draws so far; 0 draws, after an early call, counts in
/// the first bucket).
pub const TURN_LABELS: [&str; 3] = ["1-6", "7-12", "13+"];
/// Labels of the shanten buckets (-1 = a complete 14-tile hand).
pub const SHANTEN_LABELS: [&str; 6] = ["-1", "0", "1", "2", "3", "4+"];

/// Turn bucket of a number of draws.
pub fn turn_bucket(draws: u16) -> usize {
    match draws {
        0..=6 => 0,
        7..=12 => 1,
        _ => 2,
    }
}

/// Shanten bucket of a minimum shanten.
pub fn shanten_bucket(shanten: i8) -> usize {
    (shanten.max(-1) + 1).min(5) as usize
}

/// A two-sided wait on the outer kinds 1-4 or 6-9 of one suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeWait {
    /// The two inner kinds held (2 and 3, or 7 and 8).
    pub inner: [Kind; 2],
    /// The suji partner of the wait's middle kind: 7 for a 1-4 wait, 3 for a 6-9 wait.
    pub partner: Kind,
}

/// The edge wait of a tenpai hand: its wait kinds (bit k = kind k) are exactly {1, 4} or {6, 9}
/// of one suit AND the two inner kinds form the two-sided shape, i.e. the concealed `counts`
/// (with `melds` melds besides) less one of each inner kind are complete. The second condition
/// drops the shanpon 11 + 44, whose waits are also {1, 4} but which holds no 2 or 3 (its wall
/// count could reach 4 and would blur the study).
pub fn edge_wait(counts: &Counts, melds: usize, waits: u64) -> Option<EdgeWait> {
    let w = (0..3).find_map(|suit| {
        let b = suit * 9;
        if waits == (1 << b) | (1 << (b + 3)) {
            Some(EdgeWait { inner: [b + 1, b + 2], partner: b + 6 })
        } else if waits == (1 << (b + 5)) | (1 << (b + 8)) {
            Some(EdgeWait { inner: [b + 6, b + 7], partner: b + 2 })
        } else {
            None
        }
    })?;
    let mut rest = *counts;
    for k in w.inner {
        rest[k] = rest[k].checked_sub(1)?;
    }
    // The removed pair of inner tiles stands in for the group the winning tile completes.
    (standard_with(&rest, melds + 1, Shape::Standard) == Some(-1)).then_some(w)
}

/// Every count of the four studies. Rates: `hits` over `n`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Studies {
    /// Win rate of every accepted riichi (reference).
    pub riichi_all: Rate,
    /// Win rate of edge-wait riichi by the larger visible count of the inner kinds, 0..=4.
    pub kabe: [Rate; 5],
    /// Win rate of edge-wait riichi by turn bucket.
    pub kabe_turn: [Rate; 3],
    /// Win rate of edge-wait riichi: [partner not among the first 6 discards, partner among them].
    pub early_partner: [Rate; 2],
    /// Discards while an opponent's riichi is accepted, by [`SafetyClass`] (in `ALL` order);
    /// hits = deal-ins to a riichi opponent.
    pub classes: [Rate; 5],
    /// Push rate of non-riichi players facing a riichi, by shanten bucket.
    pub push_shanten: [Rate; 6],
    /// Push rate by turn bucket.
    pub push_turn: [Rate; 3],
    /// Study 4: the early 5.
    pub early_five: EarlyFive,
}

/// The sum of rates (their hits and their n).
pub fn sum(rates: &[Rate]) -> Rate {
    rates.iter().fold(Rate::default(), |a, r| Rate { hits: a.hits + r.hits, n: a.n + r.n })
}

/// `a += b`, rate by rate.
fn add_rates<const N: usize>(a: &mut [Rate; N], b: &[Rate; N]) {
    for (x, y) in a.iter_mut().zip(b) {
        x.hits += y.hits;
        x.n += y.n;
    }
}

impl Studies {
    /// Adds another set of counts (another game).
    pub fn merge(&mut self, o: &Studies) {
        self.riichi_all = sum(&[self.riichi_all, o.riichi_all]);
        add_rates(&mut self.kabe, &o.kabe);
        add_rates(&mut self.kabe_turn, &o.kabe_turn);
        add_rates(&mut self.early_partner, &o.early_partner);
        add_rates(&mut self.classes, &o.classes);
        add_rates(&mut self.push_shanten, &o.push_shanten);
        add_rates(&mut self.push_turn, &o.push_turn);
        self.early_five.merge(&o.early_five);
    }
}

/// A riichi of the current round, waiting for the round's result.
#[derive(Clone, Copy, Debug)]
struct RiichiRecord {
    who: u8,
    /// (kabe bucket, turn bucket, partner discarded early) for an edge wait.
    edge: Option<(usize, usize, bool)>,
    /// Study 4 entries of this riichi: [distance - 1][early 5] counts.
    five: [[u8; 3]; 3],
}

/// A discard near a 5 made against one riichi player (study 4), waiting for the round's end.
#[derive(Clone, Copy, Debug)]
struct FiveDiscard {
    riichi: u8,
    number: usize,
    distance: usize,
    timing: u8,
    dealt_in: bool,
}

/// A discard made against a riichi, waiting to know whether it was ronned.
#[derive(Clone, Copy, Debug)]
struct DiscardRecord {
    who: u8,
    class: SafetyClass,
    /// `table.discards.len()` right after this discard: it identifies the discard.
    number: usize,
    dealt_in: bool,
}

/// The studies' replay observer: one per game (or per batch of games replayed in order).
#[derive(Default)]
pub struct StudyCollector {
    pub studies: Studies,
    riichis: Vec<RiichiRecord>,
    discards: Vec<DiscardRecord>,
    fives: Vec<FiveDiscard>,
}

/// When the riichi player `seat` threw each suit's 5 ([`five_timing`]), counting only discards
/// up to the declaring one (later ones are forced tsumogiri, not a choice).
fn riichi_five_timing(table: &Table, seat: u8) -> [u8; 3] {
    let river = &table.rivers[seat as usize];
    let upto = match table.riichi[seat as usize] {
        RiichiState::Accepted { river_index, .. } => river_index + 1,
        _ => river.len(),
    };
    five_timing(river[..upto.min(river.len())].iter().map(|r| r.tile.kind()))
}

fn accepted(table: &Table, seat: u8) -> bool {
    matches!(table.riichi[seat as usize], RiichiState::Accepted { .. })
}

impl StudyCollector {
    fn riichi_accepted(&mut self, table: &Table, who: u8) {
        let counts = table.hand_counts(who);
        let (shanten, waits) = necessary_kinds(&counts);
        let melds = table.melds[who as usize].len();
        let mut five = [[0u8; 3]; 3];
        if shanten == 0 {
            for (d, timing) in riichi_entries(waits, riichi_five_timing(table, who)) {
                five[d - 1][timing] += 1;
            }
        }
        let edge = (shanten == 0).then(|| edge_wait(&counts, melds, waits)).flatten().map(|w| {
            let public = table.public_counts();
            let kabe = public[w.inner[0]].max(public[w.inner[1]]).min(4) as usize;
            let early = table.rivers[who as usize].iter().take(6).any(|r| r.tile.kind() == w.partner);
            (kabe, turn_bucket(table.draws[who as usize]), early)
        });
        self.riichis.push(RiichiRecord { who, edge, five });
    }

    fn discard(&mut self, table: &Table, who: u8, kind: Kind) {
        // (the view's opponent slot, the seat): at three players nobody sits across.
        let against: Vec<(usize, u8)> = crate::replay::view::opponent_seats(table.rules.players, who)
            .into_iter()
            .enumerate()
            .filter_map(|(slot, seat)| seat.filter(|&s| accepted(table, s)).map(|s| (slot, s)))
            .collect();
        if against.is_empty() {
            return;
        }
        let view = view_of(table, who, table.hand_tiles(who));
        let safety = safety_against(&view, kind);
        let class = against
            .iter()
            .filter_map(|&(slot, _)| safety[slot])
            .map(|s| SafetyClass::of(&s))
            .max()
            .unwrap_or(SafetyClass::None);
        let number = table.discards.len() + 1;
        self.discards.push(DiscardRecord { who, class, number, dealt_in: false });
        if let Some((suit, distance)) = near_five(kind) {
            for &(slot, seat) in &against {
                let genbutsu = safety[slot].is_some_and(|s| s.genbutsu);
                if !genbutsu {
                    let timing = riichi_five_timing(table, seat)[suit];
                    self.fives.push(FiveDiscard { riichi: seat, number, distance, timing, dealt_in: false });
                }
            }
        }
        if !accepted(table, who) {
            let shanten = min_shanten(&table.hand_counts(who));
            let push = class.is_push();
            self.studies.push_shanten[shanten_bucket(shanten)].add(push);
            self.studies.push_turn[turn_bucket(table.draws[who as usize])].add(push);
        }
    }
}

impl Observer for StudyCollector {
    fn before_event(&mut self, table: &Table, _index: usize, event: &Event) {
        match event {
            Event::Discard { who, tile } => self.discard(table, *who, tile.kind()),
            Event::Agari(a) if a.who != a.from_who && accepted(table, a.who) => {
                let ronned = table.last_discard.is_some_and(|(s, _)| s == a.from_who);
                if let Some(d) = self.discards.last_mut() {
                    if ronned && d.who == a.from_who && d.number == table.discards.len() {
                        d.dealt_in = true;
                    }
                }
                for f in self.fives.iter_mut().rev().take_while(|f| f.number == table.discards.len()) {
                    if ronned && f.riichi == a.who {
                        f.dealt_in = true;
                    }
                }
            }
            _ => {}
        }
    }

    fn after_event(&mut self, table: &Table, _index: usize, event: &Event) {
        if let Event::Riichi { who, step: 2, .. } = event {
            self.riichi_accepted(table, *who);
        }
    }

    fn round_end(&mut self, _table: &Table, result: &RoundResult) {
        let won = |who: u8| matches!(result, RoundResult::Wins(w) if w.iter().any(|a| a.who == who));
        let s = &mut self.studies;
        for r in self.riichis.drain(..) {
            let w = won(r.who);
            s.riichi_all.add(w);
            for (d, counts) in r.five.iter().enumerate() {
                for (early, &n) in counts.iter().enumerate() {
                    for _ in 0..n {
                        s.early_five.riichi_win[d][early].add(w);
                    }
                }
            }
            if let Some((kabe, turn, early)) = r.edge {
                s.kabe[kabe].add(w);
                s.kabe_turn[turn].add(w);
                s.early_partner[usize::from(early)].add(w);
            }
        }
        for d in self.discards.drain(..) {
            s.classes[d.class.index()].add(d.dealt_in);
        }
        for f in self.fives.drain(..) {
            s.early_five.deal_in[f.distance - 1][f.timing as usize].add(f.dealt_in);
        }
    }
}

/// One row of a study table.
#[derive(Clone, Debug, PartialEq)]
pub struct StudyRow {
    /// What the rows of this group are split by ("inner_visible", "riichi_turn", ...).
    pub dimension: &'static str,
    pub bucket: String,
    /// What the rate is ("riichi win rate", "deal-in rate", "push rate").
    pub measure: &'static str,
    pub rate: Rate,
    /// `rate.n` over the dimension's total n.
    pub share: f64,
}

fn group(dimension: &'static str, measure: &'static str, labels: &[&str], rates: &[Rate]) -> Vec<StudyRow> {
    let total: u64 = rates.iter().map(|r| r.n).sum();
    labels
        .iter()
        .zip(rates)
        .map(|(l, r)| StudyRow {
            dimension,
            bucket: (*l).to_string(),
            measure,
            rate: *r,
            share: if total == 0 { f64::NAN } else { r.n as f64 / total as f64 },
        })
        .collect()
}

const WIN: &str = "riichi win rate";
/// Labels of the kabe buckets.
pub const KABE_LABELS: [&str; 5] = ["0", "1", "2", "3 (one-chance)", "4 (no-chance)"];

/// Study 1: edge-wait riichi win rate by visible inner copies and by turn; all riichi for reference.
pub fn kabe_rows(s: &Studies) -> Vec<StudyRow> {
    let mut rows = group("all_riichi", WIN, &["all"], &[s.riichi_all]);
    rows.extend(group("edge_wait_riichi", WIN, &["1-4 / 6-9"], &[sum(&s.kabe)]));
    rows.extend(group("inner_visible", WIN, &KABE_LABELS, &s.kabe));
    rows.extend(group("riichi_turn", WIN, &TURN_LABELS, &s.kabe_turn));
    rows
}

/// Study 2: suji partner discarded early, and the classes of discards against riichi.
pub fn early_outside_rows(s: &Studies) -> Vec<StudyRow> {
    let mut rows = group("partner_in_first_6", WIN, &["no", "yes"], &s.early_partner);
    let names: Vec<&str> = SafetyClass::ALL.iter().map(|c| c.name()).collect();
    rows.extend(group("discard_class", "deal-in rate", &names, &s.classes));
    rows
}

/// Study 3: push rate facing riichi by shanten and by turn.
pub fn push_fold_rows(s: &Studies) -> Vec<StudyRow> {
    let mut rows = group("shanten", "push rate", &SHANTEN_LABELS, &s.push_shanten);
    rows.extend(group("turn", "push rate", &TURN_LABELS, &s.push_turn));
    rows
}

/// Study 4: riichi win rate and deal-in rate near a 5, by the riichi player's early 5.
pub fn early_five_rows(s: &Studies) -> Vec<StudyRow> {
    const WAIT: [&str; 3] = ["riichi_wait_4/6", "riichi_wait_3/7", "riichi_wait_2/8"];
    const TILE: [&str; 3] = ["discard_4/6", "discard_3/7", "discard_2/8"];
    let mut rows = Vec::new();
    for d in 0..3 {
        rows.extend(group(WAIT[d], WIN, &EARLY_LABELS, &s.early_five.riichi_win[d]));
    }
    for d in 0..3 {
        rows.extend(group(TILE[d], "deal-in rate", &EARLY_LABELS, &s.early_five.deal_in[d]));
    }
    rows
}

/// Column form of study rows (parquet and CSV).
pub fn columns(rows: &[StudyRow]) -> Columns {
    let f = |g: &dyn Fn(&StudyRow) -> f64| Values::F64(rows.iter().map(g).collect());
    let mut c = Columns::new();
    c.push("dimension", Values::Str(rows.iter().map(|r| r.dimension.to_string()).collect()));
    c.push("bucket", Values::Str(rows.iter().map(|r| r.bucket.clone()).collect()));
    c.push("measure", Values::Str(rows.iter().map(|r| r.measure.to_string()).collect()));
    c.push("n", Values::U64(rows.iter().map(|r| r.rate.n).collect()));
    c.push("hits", Values::U64(rows.iter().map(|r| r.rate.hits).collect()));
    c.push("rate", f(&|r| r.rate.value()));
    c.push("ci_lo", f(&|r| r.rate.ci95().0));
    c.push("ci_hi", f(&|r| r.rate.ci95().1));
    c.push("share", f(&|r| r.share));
    c
}

/// Markdown table of study rows.
pub fn markdown(rows: &[StudyRow]) -> String {
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let (lo, hi) = r.rate.ci95();
            vec![
                r.dimension.to_string(),
                r.bucket.clone(),
                r.measure.to_string(),
                r.rate.n.to_string(),
                r.rate.hits.to_string(),
                pct_ci(r.rate.value(), lo, hi),
                pct(r.share),
            ]
        })
        .collect();
    table(&["split", "bucket", "measure", "n", "hits", "rate (95% CI)", "share of n"], &body)
}

/// The kabe table for `haifu stats --json`: bucket label -> {rate, n, hits}.
pub fn kabe_json(s: &Studies) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for (label, r) in KABE_LABELS.iter().zip(&s.kabe) {
        let rate = r.value();
        m.insert(
            label.split(' ').next().unwrap_or(label).to_string(),
            serde_json::json!({ "rate": rate.is_finite().then_some(rate), "n": r.n, "hits": r.hits }),
        );
    }
    serde_json::json!({ "kabe": m })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::hand::meld::MeldKind;
    use crate::stats::test_games::{exhaustive_draw, pon_then_tsumo, riichi_23m_wins, riichi_78s_loses};
    use crate::tile::counts_of;

    pub(crate) fn studies(game: &crate::log::event::Game) -> Studies {
        crate::stats::analyse(game).expect("hand-made game replays").1
    }
    fn r(hits: u64, n: u64) -> Rate {
        Rate { hits, n }
    }
    fn z<const N: usize>() -> [Rate; N] {
        [Rate::default(); N]
    }

    #[test]
    fn edge_waits_need_the_two_sided_shape() {
        let c = |s: &str| counts_of(&parse_mpsz(s).unwrap());
        use crate::tile::parse_mpsz;
        let bits = |ks: &[Kind]| ks.iter().fold(0u64, |a, &k| a | 1 << k);
        // 23m + complete rest: waits 1m 4m.
        let w = edge_wait(&c("23m456789p234s55z"), 0, bits(&[0, 3])).unwrap();
        assert_eq!(w, EdgeWait { inner: [1, 2], partner: 6 });
        // 78p: waits 6p 9p, partner 3p.
        let w = edge_wait(&c("123456m78p234s55z"), 0, bits(&[14, 17])).unwrap();
        assert_eq!(w, EdgeWait { inner: [15, 16], partner: 11 });
        // Shanpon 11m + 44m also waits on 1m 4m, but holds no 23m.
        assert_eq!(edge_wait(&c("11m44m456789p234s"), 0, bits(&[0, 3])), None);
        // Nobetan 1234m waits on 1m 4m as tanki, not two-sided.
        assert_eq!(edge_wait(&c("1234m456789p234s"), 0, bits(&[0, 3])), None);
        // Other wait sets.
        assert_eq!(edge_wait(&c("34m456789p234s55z"), 0, bits(&[1, 4])), None);
    }

    #[test]
    fn riichi_on_23m_with_three_visible_3m_wins() {
        let s = studies(&riichi_23m_wins());
        let mut kabe = z::<5>();
        kabe[3] = r(1, 1);
        assert_eq!(s.kabe, kabe);
        assert_eq!(s.riichi_all, r(1, 1));
        assert_eq!(s.kabe_turn, [r(1, 1), r(0, 0), r(0, 0)]);
        // 7m was the dealer's first discard.
        assert_eq!(s.early_partner, [r(0, 0), r(1, 1)]);
        // One discard against the riichi: seat 1's 1m, one-chance, ronned.
        let mut classes = z::<5>();
        classes[SafetyClass::OneChance.index()] = r(1, 1);
        assert_eq!(s.classes, classes);
        assert_eq!(SafetyClass::ALL[2], SafetyClass::OneChance);
        // Seat 1 was tenpai (shanten 0) on its second draw and pushed.
        let mut push = z::<6>();
        push[1] = r(1, 1);
        assert_eq!(s.push_shanten, push);
        assert_eq!(s.push_turn, [r(1, 1), r(0, 0), r(0, 0)]);
        let rows = kabe_rows(&s);
        let b3 = rows.iter().find(|x| x.dimension == "inner_visible" && x.bucket.starts_with('3')).unwrap();
        assert_eq!((b3.rate, b3.share), (r(1, 1), 1.0));
    }

    #[test]
    fn riichi_on_78s_with_no_wall_loses_and_genbutsu_ron_is_not_a_deal_in() {
        let s = studies(&riichi_78s_loses());
        let mut kabe = z::<5>();
        kabe[0] = r(0, 1);
        assert_eq!(s.kabe, kabe);
        assert_eq!(s.riichi_all, r(0, 1));
        assert_eq!(s.kabe_turn, [r(0, 1), r(0, 0), r(0, 0)]);
        assert_eq!(s.early_partner, [r(0, 1), r(0, 0)]);
        // 2z is genbutsu; the ron came from seat 2, who is not in riichi.
        let mut classes = z::<5>();
        classes[0] = r(0, 1);
        assert_eq!(s.classes, classes);
        // Seat 1: two-shanten, folded (genbutsu), first draw.
        let mut push = z::<6>();
        push[3] = r(0, 1);
        assert_eq!(s.push_shanten, push);
        assert_eq!(s.push_turn, [r(0, 1), r(0, 0), r(0, 0)]);
    }

    #[test]
    fn games_without_riichi_add_nothing_and_counts_merge() {
        assert_eq!(studies(&pon_then_tsumo()), Studies::default());
        assert_eq!(studies(&exhaustive_draw()), Studies::default());
        let mut all = Studies::default();
        for g in [riichi_23m_wins(), riichi_78s_loses(), pon_then_tsumo(), exhaustive_draw()] {
            all.merge(&studies(&g));
        }
        assert_eq!(all.kabe, [r(0, 1), r(0, 0), r(0, 0), r(1, 1), r(0, 0)]);
        assert_eq!(all.riichi_all, r(1, 2));
        assert_eq!(all.early_partner, [r(0, 1), r(1, 1)]);
        let json = kabe_json(&all);
        assert_eq!(json["kabe"]["3"]["n"], 1);
        assert_eq!(json["kabe"]["3"]["rate"], 1.0);
        assert_eq!(json["kabe"]["0"]["rate"], 0.0);
        assert!(json["kabe"]["4"]["rate"].is_null());
        // Shares within a dimension.
        let rows = kabe_rows(&all);
        let b0 = rows.iter().find(|x| x.dimension == "inner_visible" && x.bucket == "0").unwrap();
        assert_eq!(b0.share, 0.5);
    }

    /// Denominators over real games, checked against counts taken straight from the events (no
    /// table, no classifier): every accepted riichi is counted once, every discard made while
    /// another seat's riichi stands is classified once, and the push study sees exactly those
    /// by players not in riichi themselves.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn denominators_add_up_on_real_games() {
        let mut files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        files.truncate(40);
        let batch = crate::batch::load_all(&files);
        assert_eq!(batch.games.len(), files.len(), "{:?}", batch.errors);
        let (mut total, mut riichi, mut against, mut by_free, mut edge_candidates) =
            (Studies::default(), 0u64, 0u64, 0u64, 0u64);
        for game in &batch.games {
            let Ok((_, s)) = crate::stats::analyse(game) else { continue };
            total.merge(&s);
            for round in &game.rounds {
                let mut accepted = [false; 4];
                let mut hands: Vec<Counts> = round
                    .start
                    .hands
                    .iter()
                    .map(|h| {
                        let mut c = [0u8; 34];
                        h.iter().for_each(|t| c[t.kind()] += 1);
                        c
                    })
                    .collect();
                for e in &round.events {
                    match e {
                        Event::Riichi { who, step: 2, .. } => {
                            riichi += 1;
                            accepted[*who as usize] = true;
                            // Brute-force waits: kinds that complete the hand.
                            let h = hands[*who as usize];
                            let waits: Vec<Kind> = (0..34)
                                .filter(|&k| {
                                    let mut x = h;
                                    x[k] += 1;
                                    x[k] <= 4 && min_shanten(&x) == -1
                                })
                                .collect();
                            let edge = (0..3)
                                .any(|s| waits == [s * 9, s * 9 + 3] || waits == [s * 9 + 5, s * 9 + 8]);
                            edge_candidates += u64::from(edge);
                        }
                        Event::Draw { who, tile } => hands[*who as usize][tile.kind()] += 1,
                        Event::Discard { who, tile } => {
                            hands[*who as usize][tile.kind()] -= 1;
                            if (0..4).any(|p| p != *who as usize && accepted[p]) {
                                against += 1;
                                by_free += u64::from(!accepted[*who as usize]);
                            }
                        }
                        Event::Call { who, call } => {
                            let from_hand: Vec<_> = match call.kind {
                                MeldKind::Kakan => call.added.into_iter().collect(),
                                _ => call.tiles.iter().copied().filter(|&t| Some(t) != call.called).collect(),
                            };
                            for t in from_hand {
                                hands[*who as usize][t.kind()] -= 1;
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        let n = |rates: &[Rate]| sum(rates).n;
        assert!(riichi > 20, "{riichi} riichi in {} files", files.len());
        assert_eq!(total.riichi_all.n, riichi);
        let edge = n(&total.kabe);
        assert!(edge > 0 && edge <= edge_candidates, "{edge} of {edge_candidates}");
        assert_eq!(n(&total.kabe_turn), edge);
        assert_eq!(n(&total.early_partner), edge);
        assert_eq!(total.kabe[4].n, 0, "a two-sided wait cannot have 4 inner copies visible");
        assert_eq!(n(&total.classes), against);
        assert_eq!(n(&total.push_shanten), by_free);
        assert_eq!(n(&total.push_turn), by_free);
        assert!(sum(&total.classes).hits <= sum(&total.kabe).n + riichi);
        assert_eq!(total.classes[0].hits, 0, "a genbutsu discard cannot be ronned by that riichi player");
    }
}
