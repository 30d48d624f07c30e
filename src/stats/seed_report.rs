//! `reports/seed_studies.md`: seed 003's wait studies with the seed's definitions, each beside
//! the seed's own figure and today's definition, over the shared corpus and over the seed bot's
//! self-play; and (a fragment written by `haifu eval`) seed 004's yaku function's held-out top-1.
//! `haifu stats PATHS --seed-studies --out FILE`, `make seed-studies`.

use super::early_five::EARLY_LABELS;
use super::seed_studies::{diff_ci, standardised, SeedTables, TURN_LABELS, WHEN_LABELS};
use super::studies::{Studies, KABE_LABELS};
use crate::util::markdown::{pct, pct_ci, table};
use crate::util::Rate;

pub use crate::util::paired::{PairTally, Paired};

/// The early-tile triples beside the seed's simulations (sections 2 and 3).
pub fn early_pairs_section(p: &Paired) -> String {
    let row = |name: &str, outcome: &str, t: &PairTally| {
        let (d, lo, hi) = t.diff();
        vec![
            name.to_string(),
            outcome.to_string(),
            rate(t.kabe),
            rate(t.free),
            format!("{:+.1} pts ({:+.1} to {:+.1})", d * 100.0, lo * 100.0, hi * 100.0),
        ]
    };
    let mut rows = Vec::new();
    for (name, seed, (w, e)) in [
        ("序盤外側: 3m vs a guest wind", "+5 pts", &p.outside),
        ("序盤5切り: 5m vs a guest wind", "-", &p.five),
        ("the seed's swap: 3m vs 5m", "1 pt", &p.swap),
    ] {
        let mut a = row(name, "wins the round", w);
        a.push(seed.to_string());
        let mut b = row(name, "wins by its 6th draw", e);
        b.push(String::new());
        rows.push(a);
        rows.push(b);
    }
    format!(
        "### Paired self-play: the same 1m-4m riichi with an early 3m, an early 5m or neither\n\n\
         `sim::seed_pairs::run_early`: {} arranged walls, each played three times, the dealer's first draw \
         (its riichi tile on turn 1) a 3m, a 5m or a guest wind (sections 2 and 3 in self-play) (4z) while the other two wait unused in the \
         dead wall: the three walls differ by three positions only. Counted: the triples where the dealer \
         riichis on 1m-4m at its first discard in all three ({}).\n\n{}\n",
        p.triples,
        p.outside.0.kabe.n,
        table(
            &[
                "comparison (first tile vs second)",
                "dealer's outcome",
                "first",
                "second",
                "paired difference",
                "seed"
            ],
            &rows
        )
    )
}

/// The paired self-play kabe experiment beside the seed's simulation.
pub fn paired_section(p: &Paired) -> String {
    let row = |name: &str, t: &PairTally| {
        let (d, lo, hi) = t.diff();
        vec![
            name.to_string(),
            rate(t.kabe),
            rate(t.free),
            format!("{:+.1} pts ({:+.1} to {:+.1})", d * 100.0, lo * 100.0, hi * 100.0),
            format!("{} / {}", t.kabe_only, t.free_only),
        ]
    };
    format!(
        "### Paired self-play: the same 1m-4m wait with and without the kabe\n\n\
         `src/sim/seed_pairs.rs` (its doc gives the design): {} arranged walls, 4 × `boten`; counted pairs \
         (the dealer riichis on 1m-4m at its first discard in both walls): {}. The seed's simulation: \
         +10 pts, then +8 pts.\n\n{}\n",
        p.pairs,
        p.win.kabe.n,
        table(
            &[
                "dealer's outcome",
                "three 3m out of play (kabe on the wait)",
                "three 3s out of play instead (no kabe)",
                "paired difference (95% CI)",
                "discordant pairs (kabe only / no kabe only)",
            ],
            &[row("wins the round", &p.win), row("wins by its 6th draw", &p.early)]
        ),
    )
}

/// One population's records, counted.
pub struct Population<'a> {
    /// "shared corpus (all tables)", "seed bot self-play", ...
    pub name: &'a str,
    pub files: usize,
    pub tables: SeedTables,
}

/// "52.1% (50.0-54.2), n = 2,000".
fn rate(r: Rate) -> String {
    let (lo, hi) = r.ci95();
    format!("{} n={}", pct_ci(r.value(), lo, hi), r.n)
}

/// "+5.1 pts (+2.0 to +8.2)": a − b in percentage points with its 95% interval.
fn diff(a: Rate, b: Rate) -> String {
    if a.n == 0 || b.n == 0 {
        return "- (an empty bucket)".into();
    }
    let (d, lo, hi) = diff_ci(a, b);
    format!("{:+.1} pts ({:+.1} to {:+.1})", d * 100.0, lo * 100.0, hi * 100.0)
}

fn mean(sum: u64, n: u64) -> String {
    if n == 0 {
        "-".into()
    } else {
        format!("{:.2}", sum as f64 / n as f64)
    }
}

const KABE_SEED: &[(&str, &str)] = &[
    ("measured, 0 vs 2 inner discarded", "about +5 pts (\"0枚と2枚だと和了率5%くらいの違い\")"),
    ("measured, 3 (one-chance)", "under 100 cases, \"凸凹でよくわかんない\""),
    ("simulated, one-chance 14m vs 14s, cut rate by tiles seen", "+10 pts"),
    ("simulated, the same by tiles discarded (the seed's final)", "+8 pts"),
];

/// Study 1 (kabe): the seed's figures, ours, and the data that explains the gap with today's.
pub fn kabe_section(pops: &[Population]) -> String {
    let mut s = String::from("## 1. Kabe (壁)\n\n");
    s.push_str(
        "Seed: riichi waits 1-4 / 6-9 held as 23 / 78 with all 8 wait tiles live, by the larger number of \
         the inner tiles (2 and 3, or 7 and 8) discarded on the table, by turn. Win rate = the riichi \
         player wins the round (ron or tsumo).\n\n",
    );
    let seed: Vec<Vec<String>> = KABE_SEED.iter().map(|(a, b)| vec![a.to_string(), b.to_string()]).collect();
    s.push_str(&table(&["the seed's figure", "value"], &seed));
    for p in pops {
        let t = &p.tables;
        s.push_str(&format!("\n### {} ({} files read)\n\n", p.name, p.files));
        let rows: Vec<Vec<String>> = (0..4)
            .map(|k| {
                vec![
                    KABE_LABELS[k].to_string(),
                    rate(t.kabe[k]),
                    diff(t.kabe[k], t.kabe[0]),
                    pct(t.kabe_standardised(k)),
                    rate(t.today_kabe[k]),
                    pct(standardised(&t.today_turn, k, 0..4)),
                    pct(t.visible_live[k].n as f64 / t.today_kabe[k].n as f64),
                ]
            })
            .collect();
        s.push_str(&table(
            &[
                "inner tiles",
                "seed definition: discarded, live 8 (95% CI, n)",
                "vs 0",
                "same, turn-standardised",
                "today's Study 1: visible, any edge wait",
                "same, turn-standardised",
                "today's: share live 8",
            ],
            &rows,
        ));
        s.push_str(&format!(
            "\nToday's bucket 4 (no-chance): {}. All edge waits: {}; live 8: {}; not live: {}.\n\n",
            rate(t.today_kabe[4]),
            rate(t.edge_all),
            rate(t.live),
            rate(t.not_live)
        ));
        s.push_str(&kabe_decomposition(t));
        s.push_str(&kabe_explain(t));
        s.push_str(&kabe_turn_table(t));
    }
    s
}

/// The two definition changes one at a time: count (visible / discarded) × filter (any / live 8).
fn kabe_decomposition(t: &SeedTables) -> String {
    let row = |name: &str, z: Rate, three: Rate| vec![name.to_string(), rate(z), rate(three), diff(three, z)];
    let rows = vec![
        row("visible (rivers + melds + dora), any edge wait [today]", t.today_kabe[0], t.today_kabe[3]),
        row("visible, live 8 only", t.visible_live[0], t.visible_live[3]),
        row("discarded, any edge wait", t.discarded_all[0], t.discarded_all[3]),
        row("discarded, live 8 only [seed]", t.kabe[0], t.kabe[3]),
    ];
    format!(
        "The two changes of definition one at a time (bucket 0 against bucket 3):\n\n{}\n",
        table(&["definition", "0", "3", "3 vs 0"], &rows)
    )
}

/// Per discarded-inner bucket: what else differs between the buckets.
fn kabe_explain(t: &SeedTables) -> String {
    let rows: Vec<Vec<String>> = (0..4)
        .map(|k| {
            let n = t.kabe[k].n;
            let ron = Rate { hits: t.kabe_ron[k].hits, n: t.kabe[k].hits };
            vec![
                KABE_LABELS[k].to_string(),
                n.to_string(),
                mean(t.kabe_turn_sum[k], n),
                pct(t.kabe_dealer_sum[k] as f64 / n as f64),
                mean(t.kabe_opp_sum[k], n),
                pct(ron.value()),
                rate(t.kabe_dealer[k][1]),
                rate(t.kabe_dealer[k][0]),
            ]
        })
        .collect();
    format!(
        "What else differs between the buckets (live 8, seed definition):\n\n{}\n",
        table(
            &[
                "inner discarded",
                "n",
                "mean riichi turn",
                "dealer share",
                "wait tiles in opponents' hands (of 8)",
                "ron share of wins",
                "dealer win rate",
                "non-dealer win rate",
            ],
            &rows
        )
    )
}

/// The seed's turn table: win rate by inner discarded × riichi turn.
fn kabe_turn_table(t: &SeedTables) -> String {
    let rows: Vec<Vec<String>> = (0..4)
        .map(|k| {
            let mut r = vec![KABE_LABELS[k].to_string()];
            r.extend((0..4).map(|b| rate(t.kabe_turn[k][b])));
            r
        })
        .collect();
    let mut header = vec!["inner discarded \\ riichi turn"];
    header.extend(TURN_LABELS);
    format!("By turn (the seed's table):\n\n{}\n", table(&header, &rows))
}

/// Studies 2 and 4 rebuilt: when the riichi player threw the wait's 3 / the suit's 5.
pub fn early_section(pops: &[Population], today: &Studies) -> String {
    let mut s = String::from("## 2. 序盤外側 (early outside tile)\n\n");
    s.push_str(
        "Seed: measured about +8 pts (an earlier post whose definition is not in the seed); simulated \
         +5 pts: 3s thrown on turn 1 against turn 7, \"early\" judged on the discards up to turns 3 and 6. \
         Ours: the same live-8 edge waits, by when the riichi player first threw the wait's 3 (3 for a \
         1-4 wait, 7 for a 6-9 wait: the tile whose outside holds the outer wait).\n\n",
    );
    for p in pops {
        let t = &p.tables;
        s.push_str(&format!("### {} ({} files read)\n\n", p.name, p.files));
        s.push_str(&when_table(&t.outside, &t.outside_turn_sum, &t.outside_cells));
        s.push_str(&format!(
            "\nBy turn 3 vs turn 7 or later (the seed's simulated comparison): {}. Today's Study 2 on the \
             same edge waits (suji partner of the middle wait among the first 6 discards, no live filter): \
             yes {} / no {}, {}.\n\n",
            diff(t.outside[0], t.outside[2]),
            rate(t.today_partner[1]),
            rate(t.today_partner[0]),
            diff(t.today_partner[1], t.today_partner[0])
        ));
        s.push_str("Broader: when the riichi player first threw either inner tile (2 or 3; 7 or 8):\n\n");
        s.push_str(&when_table(&t.outside_inner, &t.outside_inner_turn_sum, &t.outside_inner_cells));
        s.push_str(&format!(
            "\nBy turn 3 vs turn 7 or later: {}.\n\n",
            diff(t.outside_inner[0], t.outside_inner[2])
        ));
    }
    s.push_str("## 3. 序盤5切り (early 5)\n\n");
    s.push_str(
        "Seed: simulated 1 pt (the early 3s of Study 2 changed to a 5s); never measured. Ours: the same \
         live-8 edge waits, by when the riichi player first threw the wait suit's 5.\n\n",
    );
    for p in pops {
        let t = &p.tables;
        s.push_str(&format!("### {} ({} files read)\n\n", p.name, p.files));
        s.push_str(&when_table(&t.five, &t.five_turn_sum, &t.five_cells));
        s.push_str(&format!(
            "\n5 by turn 3 vs turn 7 or later: {}; 5 by turn 3 vs the wait's 3 by turn 3 (the seed's swap): {}.\n\n",
            diff(t.five[0], t.five[2]),
            diff(t.five[0], t.outside[0])
        ));
    }
    s.push_str(&today_five(today));
    s
}

fn when_table(r: &[Rate; 4], turn_sum: &[u64; 4], cells: &[[Rate; 4]; 4]) -> String {
    let rows: Vec<Vec<String>> = (0..4)
        .map(|b| {
            let late = super::studies::sum(&cells[b][1..]);
            vec![
                WHEN_LABELS[b].to_string(),
                rate(r[b]),
                diff(r[b], r[2]),
                mean(turn_sum[b], r[b].n),
                rate(late),
                pct(standardised(cells, b, 1..4)),
            ]
        })
        .collect();
    table(
        &[
            "thrown",
            "win rate (95% CI, n)",
            "vs turn 7 or later",
            "mean riichi turn",
            "riichi at turn 7+ only",
            "same, turn-standardised",
        ],
        &rows,
    )
}

/// Today's Study 4 win-rate rows (every riichi whose waits reach 4/6, 3/7 or 2/8).
fn today_five(today: &Studies) -> String {
    const WAIT: [&str; 3] = ["waits on 4/6", "waits on 3/7", "waits on 2/8"];
    let rows: Vec<Vec<String>> = (0..3)
        .map(|d| {
            let mut r = vec![WAIT[d].to_string()];
            r.extend((0..3).map(|e| rate(today.early_five.riichi_win[d][e])));
            r
        })
        .collect();
    let mut header = vec!["today's Study 4 (shared corpus): riichi"];
    header.extend(EARLY_LABELS);
    format!(
        "Today's Study 4, kept as the second row (5 among the first 6 discards):\n\n{}\n",
        table(&header, &rows)
    )
}

/// The whole report: a header, the bot, the three studies over each population, the yaku
/// evaluators' held-out top-1 (`haifu eval --json` output, when given), and the notes.
pub fn render(
    pops: &[Population],
    paired: Option<&Paired>,
    today: &Studies,
    yaku: Option<&serde_json::Value>,
) -> String {
    let mut s = String::from(HEADER);
    s.push_str(&kabe_section(pops));
    if let Some(p) = paired {
        s.push_str(&paired_section(p));
    }
    s.push_str(&early_section(pops, today));
    if let Some(p) = paired {
        s.push_str(&early_pairs_section(p));
    }
    if let Some(y) = yaku {
        s.push_str(&yaku_section(y));
    }
    s.push_str(NOTES);
    s
}

/// "38.3% (37.8-38.8)": a top-1 share over `n` decisions with its 95% normal interval (top-1
/// counts ties at random in expectation, so it is a share, not a count of hits).
fn share_ci(p: f64, n: f64) -> String {
    let half = 1.96 * (p * (1.0 - p) / n).sqrt();
    pct_ci(p, p - half, p + half)
}

/// Seed 004: today's `yaku` and the seed's `yaku-seed` (and `ukeire` for scale) on the held-out
/// houou decisions, overall and by shanten, from `haifu eval --json`.
pub fn yaku_section(eval: &serde_json::Value) -> String {
    const SHANTEN: [&str; 5] = ["-1", "0", "1", "2", "3+"];
    let n = eval["decisions"].as_f64().unwrap_or(f64::NAN);
    let mut rows = Vec::new();
    for name in ["yaku", "yaku-seed", "ukeire"] {
        let e = &eval["evaluators"][name];
        if e.is_null() {
            continue;
        }
        let f = |v: &serde_json::Value| v.as_f64().unwrap_or(f64::NAN);
        let mut r = vec![name.to_string(), share_ci(f(&e["top1"]), n), pct(f(&e["top3"]))];
        for k in SHANTEN {
            let b = &e["by_shanten"][k];
            r.push(format!("{} (n={})", pct(f(&b["top1"])), b["decisions"]));
        }
        rows.push(r);
    }
    let mut header = vec!["evaluator", "top-1 (95% CI)", "top-3"];
    header.extend(SHANTEN.iter().map(|k| match *k {
        "-1" => "shanten -1",
        "0" => "shanten 0",
        "1" => "shanten 1",
        "2" => "shanten 2",
        _ => "shanten 3+",
    }));
    format!(
        "## 4. The yaku evaluation function (seed 004)\n\n\
         Held-out houou discards: the test split (seed 1) of an ingest of the whole shared corpus at \
         today's columns (`SEED_CORPUS`, default `out/corpus` as `make weights` writes it), human seats, {n} \
         decisions: the decisions `reports/README.md` scores (same count). \
         Before = today's `yaku` (one cut per suit, the best single family, a riichi family); after = \
         `yaku-seed` (`src/rank/yaku_seed/`: every cut, the seed's 15 + 2 + 1 combinations summed, 平和 \
         純チャン 混老頭 三暗刻 小三元 of their own, no riichi). The seed gives no accuracy figure of its own: \
         雀-X's function was a component of its AI, never scored against human picks, so there is no seed \
         figure to set beside these.\n\n{}\n{}",
        table(&header, &rows),
        vector_table()
    )
}

/// vec(Y) and Han(Y) of every yaku of `yaku-seed`, from the code (the reasons are beside each
/// vector in `src/rank/yaku_seed/vectors.rs`).
fn vector_table() -> String {
    use crate::rank::melds21::CLASS_NAMES;
    use crate::rank::yaku_seed::vectors::{han, vector, ALL, OFF_SUIT};
    let mut header = vec!["yaku", "han closed / open"];
    header.extend(CLASS_NAMES);
    let mut rows: Vec<Vec<String>> = ALL
        .iter()
        .map(|&y| {
            let mut r = vec![format!("{y:?}"), format!("{} / {}", han(y, true), han(y, false))];
            r.extend(vector(y).iter().map(|w| format!("{w}")));
            r
        })
        .collect();
    let mut off = vec!["flush, off-suit half".to_string(), "-".to_string()];
    off.extend(OFF_SUIT.iter().map(|w| format!("{w}")));
    rows.push(off);
    format!(
        "vec(Y) by class (飜牌 and ドラ take their han from the hand: one per yakuhai pair or set, one per \
         dora; the reason for every number is written beside it in `src/rank/yaku_seed/vectors.rs`):\n\n{}\n",
        table(&header, &rows)
    )
}

/// The closing notes: what the tables say, with the figures quoted from them (same corpus, same
/// seeds: `make seed-studies` gives the same numbers; rewrite this text if the data change).
const NOTES: &str = "## Notes: every disagreement, explained with the data above\n\n\
**Kabe, logs.** With the seed's definition the raw rates fall with the kabe (70.0% at 0 inner tiles \
discarded, n=413, to 61.5% at 2, n=104: -8.4 pts, -18.8 to +1.9), the opposite of the seed's +5 pts. \
The cause is the riichi turn: discarded inner tiles pile up as the round goes on (mean riichi turn \
6.0 at 0, 9.0 at 2, 10.7 at 3) and the win rate falls steeply with the turn (79% at turns 1-6 to 23% \
at 13+ in bucket 0). Re-weighted to one turn mix the rates are 64.5%, 68.0%, 66.3%, 69.3%: +1.8 pts \
at 2 and +4.8 at 3, the seed's direction and size, though our live-8 sample (851 riichi, 15 \
one-chances; the seed too had under 100) cannot rule out zero. The dealer is not the confounder \
(dealer share 27-34% in every bucket, no trend). The ron share of wins rises with the kabe (47% at 0 \
to 55% at 2, 60% at 3): the wait tiles are released more, the mechanism the seed assumed.\n\n\
**Why today's Study 1 found the opposite (61.2% → 51.5%).** Three differences, measured one at a time \
in the decomposition table: counting visible copies (melds, dora indicators) instead of discards \
changes little (-9.7 vs -7.9 pts on all edge waits, -3.6 vs -3.3 on live ones); the live-8 filter \
matters (waits with a wait tile already visible win 55.9% against 67.6% for live ones, and the live \
share falls from 22% at 0 visible inner tiles to 6% at 3: a walled suit is a suit whose tiles have been \
thrown, the wait tiles among them); and the turn matters most: today's own definition, turn-\
standardised, reads 55.0%, 57.2%, 60.1%, 66.0% (+11 pts at one-chance). Study 1's drop is the turn \
and the dead waits, not the wall.\n\n\
**Kabe, self-play.** The seed's bot never reads a river. Observed over its 6,000 hanchan the split \
looks like the logs (raw -13.4 pts at 3) and is flat once re-weighted by turn (79.2%, 78.3%, 78.5% at \
0-2): with no reader the observational split shows only the turn. The paired walls isolate what a \
kabe does without any reading: with 3m out of play the opponents cannot use 1m / 4m, so they let \
them go sooner: the dealer wins by its 6th draw 81.0% against 73.6% (+7.4 pts, +7.0 to +7.9), and \
wins the round +1.3 pts more (95.9% vs 94.6%; a turn-1 riichi against bots that never fold wins \
almost always, so the round's win rate has little room). The seed simulated +10 then +8 pts with \
opponents that read the wall by assumption; the mechanical part alone is of that size for the \
speed of the win, and small for the round's outcome.\n\n\
**序盤外側.** The seed's own definition (the wait's 3 thrown by turn 3) is rare: 8 riichi in the whole \
corpus (all won), 1 at houou. The broader version (either inner tile by turn 3) gives +26.7 pts raw \
over \"turn 7 or later\", but that comparison is confounded by construction (a tile first thrown on \
turn 7+ means a riichi on turn 7+: mean riichi turn 10.4 against 5.6); among riichi from turn 7 on \
the gap is 70.0% (n=10) vs 60.8% (n=74), about +9 pts with a wide interval, near the seed's +8 \
measured and +5 simulated. The self-play shows how much of a raw split is confounding alone: bots \
that read nothing still show +19 / +24 pts raw. The paired walls give the seed bot's own answer: \
the same turn-1 riichi on 1m-4m wins +0.5 pts (+0.4 to +0.6) more with a 3m as its riichi tile than \
with a guest wind, +0.9 pts by the 6th draw: a non-reading opponent only counts one more 3m as seen, \
so the mechanical part is a tenth of the seed's simulated +5 pts; the rest of the seed's figure is \
its model's assumed reading. Today's Study 2 (suji partner among the first 6 \
discards, no live filter) is a different question and finds +2.2 pts (-2.3 to +6.7).\n\n\
**序盤5切り.** The seed simulated 1 pt and never measured it. In the logs the live-8 sample is small and \
mixed: 5 thrown by turn 3 wins 57.1% (n=35), after turn 7 47.8% (n=46), never 69.0% (n=703); among \
riichi from turn 7 on, 27.3% (n=11) vs 47.8% (n=46). Self-play, turn-standardised: 73.2% vs 73.8% \
(by turn 3 vs 7+), the nothing a non-reading bot should show; the paired walls: an early 5m \
against a guest wind +0.3 pts (+0.2 to +0.4), and the seed's swap (3m rather than 5m thrown) +0.2 \
pts (+0.1 to +0.3) for the round, +0.6 by the 6th draw, against the seed's 1 pt (whose direction \
the text does not state). Today's Study 4 (every riichi \
whose waits reach 4/6, 3/7, 2/8; 5 among the first 6 discards) has the larger sample: waits on 4/6 \
win 58.8% (n=931) with an early 5 against 51.7% with none, the opposite sign to the folk \
warning, and again partly the turn (an early 5 is a fast hand's discard).\n\n\
**Yaku evaluation function.** Today's `yaku` 36.0% → the seed's `yaku-seed` 38.3% top-1 on the \
held-out houou discards (+2.3 pts; both on the same 32,835 decisions, the intervals shown are \
unpaired and so conservative). It gains at 1, 2 and 3+ shanten (+2.1, +3.7, +2.3 pts), where \
summing compatible yaku over the best cut keeps value tiles today's single best family threw; it \
loses 1.0 pt at tenpai (59.8% vs 60.8%), where the pick is about the wait, which neither formula \
sees. Both stay far below `ukeire` (53.3%): the seed's function is the yaku term of 雀-X's \
evaluation, meant to sit beside a speed term, not to choose discards alone. Fitting vec(Y) to \
expert picks (the issue's stretch) is not done.\n";

const HEADER: &str = "# Seeds 003 and 004 rebuilt, beside the seeds' own figures\n\n\
Issue 40. Regenerate with `make seed-studies` (the shared corpus, the seed bot's self-play, the held-out \
yaku evaluation; a few minutes on 2 cores). Every rate has its 95% Wilson interval and its count; every \
difference its 95% normal-approximation interval. Definitions: `src/stats/seed_studies.rs`; today's \
studies (kept in `reports/stats/README.md`): `src/stats/studies.rs`.\n\n\
**The seed bot** (`--bots boten`, `src/sim/boten.rs`): seed 003's 棒テン・即リー・全ツッパ: the max-ukeire \
discard (unseen effective tiles, ties guest wind → yakuhai → 19 → 28 → 37 → 46 → 5 → dora: today's \
`ukeire` evaluator already is this order), never calls or kans, riichi at once, never folds. Today's \
`ukeire` bot differs only by its yakuhai pons, kans and kyuushu.\n\n";

/// `reports/seed_studies.md`: the seed studies over real logs (`paths`, with today's studies
/// beside them), over the seed bot's self-play logs (`sim`, when given), and the yaku fragment.
pub fn report(
    paths: &[std::path::PathBuf],
    sim: &[std::path::PathBuf],
    paired: Option<&Paired>,
    yaku: Option<&serde_json::Value>,
    jobs: Option<usize>,
) -> String {
    use super::seed_studies::collect;
    let (files, records) = collect(paths, jobs);
    let mut pops = vec![
        Population { name: "shared corpus, all tables", files, tables: SeedTables::of(&records, false) },
        Population { name: "shared corpus, houou only", files, tables: SeedTables::of(&records, true) },
    ];
    if !sim.is_empty() {
        let (files, records) = collect(sim, jobs);
        pops.push(Population { name: "seed bot self-play", files, tables: SeedTables::of(&records, false) });
    }
    let today = super::compute(paths, jobs).studies;
    render(&pops, paired, &today, yaku)
}
