//! Statistics tables: the same rows as parquet, CSV and markdown.

use super::players::PlayerStats;
use crate::dataset::columns::{Columns, Values};
use crate::util::markdown::{pct, pct_ci};

/// One row label and its statistics.
pub struct Row<'a> {
    pub group: String,
    pub stats: &'a PlayerStats,
}

/// Column-oriented form of player statistics rows; `key` names the label column.
pub fn columns(key: &str, rows: &[Row]) -> Columns {
    let f = |g: &dyn Fn(&PlayerStats) -> f64| Values::F64(rows.iter().map(|r| g(r.stats)).collect());
    let u = |g: &dyn Fn(&PlayerStats) -> u64| Values::U64(rows.iter().map(|r| g(r.stats)).collect());
    let mut c = Columns::new();
    c.push(key, Values::Str(rows.iter().map(|r| r.group.clone()).collect()));
    c.push("games", u(&|s| s.games));
    c.push("rounds", u(&|s| s.rounds));
    for (i, name) in ["first_rate", "second_rate", "third_rate", "fourth_rate"].iter().enumerate() {
        c.push(name, f(&|s| s.placement_rates()[i]));
    }
    c.push("avg_placement", f(&|s| s.avg_placement.value()));
    c.push("win_rate", f(&|s| s.win.value()));
    c.push("deal_in_rate", f(&|s| s.deal_in.value()));
    c.push("tsumo_lost_rate", f(&|s| s.tsumo_lost.value()));
    c.push("lateral_rate", f(&|s| s.lateral.value()));
    c.push("draw_rate", f(&|s| s.exhaustive_draw.value()));
    c.push("tenpai_at_draw_rate", f(&|s| s.tenpai_at_draw.value()));
    c.push("exhaustive_draws", u(&|s| s.tenpai_at_draw.n));
    c.push("riichi_rate", f(&|s| s.riichi.value()));
    c.push("call_rate", f(&|s| s.call.value()));
    c.push("avg_win_points", f(&|s| s.win_points.value()));
    c.push("wins", u(&|s| s.win_points.n));
    c.push("avg_deal_in_points", f(&|s| s.deal_in_points.value()));
    c.push("deal_ins", u(&|s| s.deal_in_points.n));
    c.push("avg_score_change", f(&|s| s.score_change.value()));
    c
}

/// CSV text of a [`Columns`] (RFC 4180 quoting for text cells).
pub fn csv(cols: &Columns) -> String {
    let mut out = cols.names.join(",");
    out.push('\n');
    for i in 0..cols.height() {
        let cells: Vec<String> = cols
            .values
            .iter()
            .map(|v| match v {
                Values::Str(s) => {
                    let t = &s[i];
                    if t.contains([',', '"', '\n']) {
                        format!("\"{}\"", t.replace('"', "\"\""))
                    } else {
                        t.clone()
                    }
                }
                Values::F64(x) => fmt_f(x[i]),
                Values::F32(x) => fmt_f(x[i] as f64),
                Values::U64(x) => x[i].to_string(),
                Values::U32(x) => x[i].to_string(),
                Values::U16(x) => x[i].to_string(),
                Values::U8(x) => x[i].to_string(),
                Values::I32(x) => x[i].to_string(),
                Values::I16(x) => x[i].to_string(),
                Values::I8(x) => x[i].to_string(),
                Values::Bool(x) => x[i].to_string(),
            })
            .collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

fn fmt_f(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.6}")
    } else {
        String::new()
    }
}

/// Markdown table of the headline figures of each row, rates with 95% intervals.
pub fn markdown(key: &str, rows: &[Row]) -> String {
    let header = [
        key,
        "games",
        "rounds",
        "1st",
        "2nd",
        "3rd",
        "4th",
        "avg place",
        "win",
        "deal-in",
        "tsumo lost",
        "lateral",
        "draw",
        "tenpai@draw",
        "riichi",
        "call",
        "avg win",
        "avg deal-in",
        "avg Δscore",
    ];
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let s = r.stats;
            let ci = |x: &crate::util::Rate| {
                let (lo, hi) = x.ci95();
                pct_ci(x.value(), lo, hi)
            };
            let p = s.placement_rates();
            vec![
                r.group.clone(),
                s.games.to_string(),
                s.rounds.to_string(),
                pct(p[0]),
                pct(p[1]),
                pct(p[2]),
                pct(p[3]),
                format!("{:.3}", s.avg_placement.value()),
                ci(&s.win),
                ci(&s.deal_in),
                pct(s.tsumo_lost.value()),
                pct(s.lateral.value()),
                pct(s.exhaustive_draw.value()),
                format!("{} (n={})", pct(s.tenpai_at_draw.value()), s.tenpai_at_draw.n),
                ci(&s.riichi),
                ci(&s.call),
                format!("{:.0}", s.win_points.value()),
                format!("{:.0}", s.deal_in_points.value()),
                format!("{:+.0}", s.score_change.value()),
            ]
        })
        .collect();
    crate::util::markdown::table(&header, &body)
}
