//! Published figures to check ours against: kobalab's statistics of the 2016 Tenhou houou
//! hanchan games with red fives (159,798 games, 1,710,645 rounds; "天鳳統計(1) 〜 基礎情報と和了役・
//! 流局理由", blog.kobalab.net, 2018-01-13). His counting rules are ours: a double ron is two wins
//! and one deal-in, and a riichi whose declaring discard is ronned counts as a riichi.
//!
//! Where a figure can be read two ways the table shows both of ours: his 副露率 (.344) divides a
//! count of calls by player-rounds, which is either rounds with a call (`call_rate`) or calls
//! (`calls_per_round`); his 流局 (277,057 of 1,710,645 rounds) is every draw (`any_draw_rate`).

use super::metrics::{get, Metric};
use super::players::PlayerStats;
use crate::util::markdown::{pct, table};

/// (our figure, kobalab's 2016 houou value, what his number is).
pub const KOBALAB_2016: [(&str, f64, &str); 8] = [
    ("win_rate", 0.211, "和了率: 1,442,983 wins / player-rounds"),
    ("deal_in_rate", 0.125, "放銃率: 853,832 deal-ins / player-rounds"),
    ("riichi_rate", 0.170, "立直率: 1,166,027 riichi / player-rounds"),
    ("call_rate", 0.344, "副露率: 2,356,214 / player-rounds, read as rounds with a call"),
    ("calls_per_round", 0.344, "副露率 read as calls per player-round"),
    ("any_draw_rate", 0.162, "流局率: 277,057 draws / rounds (every draw)"),
    ("draw_rate", 0.162, "流局率 read as exhaustive draws only"),
    ("avg_win_points", 5647.0, "平均打点: 8,148,454,300 points / wins"),
];

/// kobalab's 2016 share of wins with each yaku (和了出現率, Tenhou yaku id, share). Dora rows
/// are left out: he counts dora tiles, not wins with dora.
pub const KOBALAB_2016_YAKU: [(u8, f64); 26] = [
    (0, 0.2418),
    (1, 0.3889),
    (2, 0.0732),
    (3, 0.0002),
    (4, 0.0025),
    (5, 0.0045),
    (6, 0.0043),
    (7, 0.1974),
    (8, 0.2273),
    (9, 0.0382),
    (21, 0.0020),
    (22, 0.0266),
    (23, 0.0085),
    (24, 0.0149),
    (25, 0.0380),
    (26, 0.0003),
    (27, 0.0000),
    (28, 0.0161),
    (29, 0.0063),
    (30, 0.0008),
    (31, 0.0003),
    (32, 0.0004),
    (33, 0.0029),
    (34, 0.0434),
    (35, 0.0052),
    (39, 0.0002),
];

/// Whether `anchor` lies inside our 95% interval (`None` without one).
pub fn inside(m: &Metric, anchor: f64) -> Option<bool> {
    m.ci.map(|(lo, hi)| (lo..=hi).contains(&anchor))
}

/// The cross-check table: each anchor next to our figure on `houou`, its interval and n.
pub fn markdown(houou: &PlayerStats) -> String {
    let rows: Vec<Vec<String>> = KOBALAB_2016
        .iter()
        .filter_map(|&(name, anchor, what)| {
            let m = get(houou, name)?;
            let shown_anchor =
                if m.name == "avg_win_points" { format!("{anchor:.0}") } else { format!("{anchor:.3}") };
            let ours = if m.name == "avg_win_points" {
                format!("{:.0}", m.value)
            } else {
                format!("{:.3}", m.value)
            };
            let gap = m.value - anchor;
            let verdict = match (inside(&m, anchor), m.name == "avg_win_points") {
                (Some(true), _) => "inside".to_string(),
                (Some(false), true) => format!("outside ({gap:+.0})"),
                (Some(false), false) => format!("outside ({gap:+.3})"),
                (None, _) => "no interval".to_string(),
            };
            let ci = match m.ci {
                Some((lo, hi)) if m.name == "avg_win_points" => format!("{lo:.0}–{hi:.0}"),
                Some((lo, hi)) => format!("{lo:.3}–{hi:.3}"),
                None => "-".into(),
            };
            Some(vec![
                format!("`{name}`"),
                shown_anchor,
                ours,
                ci,
                m.n.to_string(),
                verdict,
                what.to_string(),
            ])
        })
        .collect();
    table(&["figure", "kobalab 2016", "houou here", "95% CI", "n", "anchor vs interval", "his figure"], &rows)
}

/// Yaku shares of wins next to kobalab's 2016 figures.
pub fn yaku_markdown(houou: &PlayerStats) -> String {
    let wins = houou.win_points.n.max(1);
    let rows: Vec<Vec<String>> = KOBALAB_2016_YAKU
        .iter()
        .map(|&(id, anchor)| {
            let hits = houou.yaku.0.get(id as usize).copied().unwrap_or(0);
            let r = crate::util::Rate { hits, n: wins };
            let (lo, hi) = r.ci95();
            let name = crate::score::yaku::YAKU[id as usize];
            vec![
                format!("{} {}", name.1, name.2),
                pct(anchor),
                crate::util::markdown::pct_ci(r.value(), lo, hi),
                hits.to_string(),
                if (lo..=hi).contains(&anchor) {
                    "inside".into()
                } else {
                    format!("{:+.2} pt", (r.value() - anchor) * 100.0)
                },
            ]
        })
        .collect();
    table(&["yaku", "kobalab 2016", "houou here (95% CI)", "wins with it", "anchor vs interval"], &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_name_real_figures() {
        let names: Vec<&str> =
            super::super::metrics::metrics(&PlayerStats::default()).iter().map(|m| m.name).collect();
        for (name, _, _) in KOBALAB_2016 {
            assert!(names.contains(&name), "{name}");
        }
        // kobalab's published counts give his rates.
        let per_player_round = 1_710_645.0 * 4.0;
        assert!((1_442_983.0 / per_player_round - 0.211f64).abs() < 5e-4);
        assert!((853_832.0 / per_player_round - 0.125f64).abs() < 5e-4);
        assert!((277_057.0 / 1_710_645.0 - 0.162f64).abs() < 5e-4);
        assert!((8_148_454_300.0 / 1_442_983.0 - 5647.0f64).abs() < 1.0);
    }
}
