//! Statistics tables: the same rows as parquet, CSV and markdown.

use super::metrics::{metrics_of, Form, Metric};
use super::players::PlayerStats;
use crate::dataset::columns::{Columns, Values};
use crate::util::markdown::{pct, pct_ci};

/// One row label and its statistics.
pub struct Row<'a> {
    pub group: String,
    pub stats: &'a PlayerStats,
}

/// Column-oriented form of player statistics rows; `key` names the label column. Every figure of
/// [`metrics`] is a column under its JSON name, with `NAME_n` (its denominator) and, for rates,
/// `NAME_lo` / `NAME_hi` (the 95% interval); the figures of `players`-seat games
/// ([`metrics_of`]).
pub fn columns(key: &str, rows: &[Row], players: u8) -> Columns {
    let per_row: Vec<Vec<Metric>> = rows.iter().map(|r| metrics_of(r.stats, players)).collect();
    let template = metrics_of(&PlayerStats::default(), players);
    let mut c = Columns::new();
    c.push(key, Values::Str(rows.iter().map(|r| r.group.clone()).collect()));
    for (i, m) in template.iter().enumerate() {
        let f = |g: &dyn Fn(&Metric) -> f64| Values::F64(per_row.iter().map(|ms| g(&ms[i])).collect());
        if m.form == Form::Count {
            c.push(m.name, Values::U64(per_row.iter().map(|ms| ms[i].value as u64).collect()));
            continue;
        }
        c.push(m.name, f(&|x| x.value));
        c.push(&format!("{}_n", m.name), Values::U64(per_row.iter().map(|ms| ms[i].n).collect()));
        if m.form == Form::Rate {
            c.push(&format!("{}_lo", m.name), f(&|x| x.ci.map_or(f64::NAN, |c| c.0)));
            c.push(&format!("{}_hi", m.name), f(&|x| x.ci.map_or(f64::NAN, |c| c.1)));
        }
    }
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

/// Markdown table of the headline figures of each row, rates with 95% intervals. At three
/// players: three placements, and Tenhou's uma/oka result where the four-player stable dan
/// stands.
pub fn markdown(key: &str, rows: &[Row], players: u8) -> String {
    // Units once: a table's row counts each game once per seat (40 games at four seats are 160
    // player-games), so the columns say so rather than "games".
    let three = players == 3;
    let places: &[&str] = if three { &["1st", "2nd", "3rd"] } else { &["1st", "2nd", "3rd", "4th"] };
    let mut header = vec![key, "player-games", "player-rounds"];
    header.extend_from_slice(places);
    header.extend_from_slice(&[
        "avg place",
        if three { "avg result" } else { "stable dan" },
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
    ]);
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let s = r.stats;
            let ci = |x: &crate::util::Rate| {
                let (lo, hi) = x.ci95();
                pct_ci(x.value(), lo, hi)
            };
            let mut row = vec![r.group.clone(), s.games.to_string(), s.rounds.to_string()];
            row.extend(s.placement_rates_of(players).into_iter().map(pct));
            row.extend([
                format!("{:.3}", s.avg_placement.value()),
                if three {
                    format!("{:+.1}", s.game_points.value())
                } else {
                    format!("{:.2}", super::metrics::stable_dan(&s.placements))
                },
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
            ]);
            row
        })
        .collect();
    crate::util::markdown::table(&header, &body)
}

/// The yaku table: one row per group and yaku id seen in its wins, with the group's wins.
pub fn yaku_columns(groups: &[(&str, &Row)]) -> Columns {
    let (mut scope, mut group, mut id, mut name, mut with, mut wins, mut share) =
        (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
    for (sc, row) in groups {
        let n = row.stats.win_points.n;
        for (i, &hits) in row.stats.yaku.0.iter().enumerate().filter(|(_, &h)| h > 0) {
            scope.push(sc.to_string());
            group.push(row.group.clone());
            id.push(i as u8);
            name.push(crate::score::yaku::YAKU[i].1.to_string());
            with.push(hits);
            wins.push(n);
            share.push(hits as f64 / n.max(1) as f64);
        }
    }
    let mut c = Columns::new();
    c.push("scope", Values::Str(scope));
    c.push("group", Values::Str(group));
    c.push("yaku_id", Values::U8(id));
    c.push("yaku", Values::Str(name));
    c.push("wins_with", Values::U64(with));
    c.push("wins", Values::U64(wins));
    c.push("share", Values::F64(share));
    c
}

/// Markdown of a group's yaku: every yaku seen, its wins and share of wins with a 95% interval.
pub fn yaku_markdown(s: &PlayerStats) -> String {
    let n = s.win_points.n;
    let rows: Vec<Vec<String>> = s
        .yaku
        .0
        .iter()
        .enumerate()
        .filter(|(_, &h)| h > 0)
        .map(|(i, &hits)| {
            let r = crate::util::Rate { hits, n };
            let (lo, hi) = r.ci95();
            let (_, romaji, ja) = crate::score::yaku::YAKU[i];
            let kind = if (37..=51).contains(&i) { "yakuman" } else { "" };
            vec![
                i.to_string(),
                format!("{romaji} {ja}"),
                kind.to_string(),
                hits.to_string(),
                pct_ci(r.value(), lo, hi),
            ]
        })
        .collect();
    crate::util::markdown::table(&["id", "yaku", "", "wins with it", "share of wins"], &rows)
}
