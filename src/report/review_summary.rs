//! `haifu review PATH... --player NAME --summary DIR`: one player over an archive, from the pages
//! of a review batch ([`super::review_batch`]): one row per game (date, table, placement, the
//! figures of [`Agreement`]), the player's totals with 95% intervals, a plot of the match rate and
//! the bad-move rate over the games, an HTML index linking each game's page, the JSON, and the
//! rows as CSV and parquet.
//!
//! **Variants.** Four-player and three-player (sanma) games are different games judged by
//! different models, so the totals are per variant: `totals` over the four-player games,
//! `totals_three_player` over the three-player ones; no average mixes them. The rows list every
//! game with its `seats`.
//!
//! **Intervals.** The match rate and the bad-move rate are shares of decisions: Wilson score
//! intervals over the decisions. The similarity and the points lost are means of per-decision
//! values whose spread the counts do not keep; their intervals are a bootstrap by game
//! ([`BOOTSTRAP`] resamples of the games with replacement, the ratio of sums each time, the 2.5th
//! and 97.5th percentiles, a fixed seed so the same games give the same bytes). Resampling whole
//! games keeps the decisions of one game together, so it is the more honest of the two when a
//! game's decisions are alike; the rate intervals treat decisions as independent.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::error::{ReportError, Result};
use super::review::{Agreement, SCHEMA_VERSION};
use super::review_html::{bar, esc, pct, IndexEntry, CSS};
use crate::util::{write_atomic, Rate};

/// Bootstrap resamples of the games for the similarity and points-lost intervals.
pub const BOOTSTRAP: usize = 2000;

/// Games per point of the trend plot's moving line.
pub const WINDOW: usize = 20;

/// A figure with its 95% interval (`lo`, `hi` NaN, `null` in JSON, for a bootstrap over one
/// game), its denominator (`n`: decisions, or games for a bootstrap)
/// and how the interval was made (`wilson` or `bootstrap by game`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Interval {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
    pub n: usize,
    pub method: &'static str,
}

/// One game of the player: a row of `games.csv` and of the index.
#[derive(Clone, Debug, Serialize)]
pub struct GameRow {
    pub date: Option<String>,
    pub id: String,
    /// The game's page, relative to the summary folder.
    pub page: String,
    pub table: String,
    pub seat: u8,
    pub placement: Option<u8>,
    pub final_score: Option<i32>,
    pub decisions: usize,
    pub match_rate: f64,
    /// `None` when the weights carry no calibration (the same for similarity).
    pub bad_move_rate: Option<f64>,
    pub bad_moves: usize,
    pub similarity: Option<f64>,
    /// `None` when no decision of the game has a defined points lost.
    pub points_lost: Option<f64>,
    /// Seats at the table: 4, or 3 (sanma).
    pub seats: u8,
}

/// The player's totals over the games of one variant: the figures over all their decisions
/// there, with intervals.
#[derive(Clone, Debug, Serialize)]
pub struct Totals {
    /// The variant: 4 seats, or 3 (sanma).
    pub seats: u8,
    /// The games of that variant.
    pub games: usize,
    pub match_rate: Interval,
    pub bad_move_rate: Option<Interval>,
    pub similarity: Option<Interval>,
    pub points_lost: Option<Interval>,
    /// Games finished 1st .. 4th (games with a result; 1st .. 3rd at three players, the fourth
    /// entry 0).
    pub placements: [usize; 4],
    /// The summed counts, all decisions and by kind.
    pub agreement: Agreement,
    pub discard: Agreement,
    pub riichi: Agreement,
    pub call: Agreement,
    /// The north decisions (three players only).
    pub kita: Agreement,
}

/// The `summary.json` document.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerSummary {
    pub schema_version: u32,
    pub haifu_version: String,
    pub player: String,
    pub games: usize,
    /// Over the four-player games (no game: counts 0, figures null).
    pub totals: Totals,
    /// Over the three-player games, when the player has any.
    pub totals_three_player: Option<Totals>,
    /// Games in date order (then id; games without a date last).
    pub rows: Vec<GameRow>,
    /// Records that could not be reviewed (file, error).
    pub errors: Vec<(String, String)>,
}

/// The player's summary over the batch's `entries`, whose pages are in `pages` (a folder);
/// links are made relative to `dir`, where the summary goes.
pub fn summarize(
    player: &str,
    entries: &[IndexEntry],
    errors: &[(String, String)],
    pages: &Path,
    dir: &Path,
) -> PlayerSummary {
    let mut order: Vec<&IndexEntry> = entries.iter().collect();
    order.sort_by(|a, b| (a.date.is_none(), &a.date, &a.id).cmp(&(b.date.is_none(), &b.date, &b.id)));
    let prefix = relative(dir, pages);
    let rows: Vec<GameRow> = order.iter().map(|e| row(e, &prefix)).collect();
    let of = |seats: u8| -> Vec<&IndexEntry> { order.iter().copied().filter(|e| e.seats == seats).collect() };
    let three = of(3);
    let totals = totals_of(&of(4), 4);
    let totals_three_player = (!three.is_empty()).then(|| totals_of(&three, 3));
    PlayerSummary {
        schema_version: SCHEMA_VERSION,
        haifu_version: env!("CARGO_PKG_VERSION").to_string(),
        player: player.to_string(),
        games: rows.len(),
        totals,
        totals_three_player,
        rows,
        errors: errors.to_vec(),
    }
}

/// The totals of the games of one variant (`seats`).
fn totals_of(order: &[&IndexEntry], seats: u8) -> Totals {
    let sum = |f: fn(&IndexEntry) -> &Agreement| {
        order.iter().fold(Agreement::default(), |mut a, e| {
            a.merge(f(e));
            a
        })
    };
    let all = sum(|e| &e.agreement);
    let mut placements = [0usize; 4];
    for e in order {
        if let Some(p) = e.placement.filter(|p| (1..=seats).contains(p)) {
            placements[p as usize - 1] += 1;
        }
    }
    let wilson = |hits: usize, n: usize| {
        let r = Rate { hits: hits as u64, n: n as u64 };
        let (lo, hi) = r.ci95();
        Interval { value: r.value(), lo, hi, n, method: "wilson" }
    };
    let games: Vec<&Agreement> = order.iter().map(|e| &e.agreement).collect();
    Totals {
        seats,
        games: order.len(),
        match_rate: wilson(all.top1, all.decisions),
        bad_move_rate: (all.with_probability > 0).then(|| wilson(all.bad_moves, all.with_probability)),
        similarity: (all.with_probability > 0)
            .then(|| bootstrap(&games, |a| (a.similarity_sum, a.with_probability))),
        points_lost: (all.with_points > 0).then(|| bootstrap(&games, |a| (a.points_lost_sum, a.with_points))),
        placements,
        agreement: all,
        discard: sum(|e| &e.discard),
        riichi: sum(|e| &e.riichi),
        call: sum(|e| &e.call),
        kita: sum(|e| &e.kita),
    }
}

fn row(e: &IndexEntry, prefix: &str) -> GameRow {
    let a = &e.agreement;
    let calibrated = a.with_probability > 0;
    GameRow {
        date: e.date.clone(),
        id: e.id.clone(),
        page: format!("{prefix}{}", e.page),
        table: e.table.clone(),
        seat: e.seat,
        placement: e.placement,
        final_score: e.final_score,
        decisions: a.decisions,
        match_rate: a.match_rate,
        bad_move_rate: calibrated.then_some(a.bad_move_rate),
        bad_moves: a.bad_moves,
        similarity: calibrated.then_some(a.similarity),
        points_lost: (a.with_points > 0).then_some(a.points_lost),
        seats: e.seats,
    }
}

/// The ratio of sums `Σ x / Σ n` over `games` (`part` gives a game's x and n), with a 95%
/// percentile interval from [`BOOTSTRAP`] resamples of the games (fixed seed).
fn bootstrap(games: &[&Agreement], part: fn(&Agreement) -> (f64, usize)) -> Interval {
    let parts: Vec<(f64, usize)> = games.iter().map(|a| part(a)).collect();
    let ratio = |x: f64, n: usize| if n == 0 { f64::NAN } else { x / n as f64 };
    let (x, n) = parts.iter().fold((0.0, 0), |a, p| (a.0 + p.0, a.1 + p.1));
    let mut state = 0x55u64;
    let mut stats: Vec<f64> = (0..BOOTSTRAP)
        .map(|_| {
            let (mut sx, mut sn) = (0.0, 0usize);
            for _ in 0..parts.len() {
                let (px, pn) = parts[(splitmix(&mut state) % parts.len() as u64) as usize];
                sx += px;
                sn += pn;
            }
            ratio(sx, sn)
        })
        .filter(|v| v.is_finite())
        .collect();
    stats.sort_by(f64::total_cmp);
    // One game resamples to itself: no interval.
    let at = |q: f64| match parts.len() {
        0 | 1 => f64::NAN,
        _ => stats.get(((stats.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(f64::NAN),
    };
    Interval { value: ratio(x, n), lo: at(0.025), hi: at(0.975), n: parts.len(), method: "bootstrap by game" }
}

/// splitmix64: a small, seeded generator, so the intervals are the same from run to run.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The path prefix (ending in `/`, or empty) that leads from folder `from` to folder `to`, for
/// links; both must exist. Falls back to `to` as an absolute `file://` URL when the two share no
/// root.
fn relative(from: &Path, to: &Path) -> String {
    let (Ok(a), Ok(b)) = (from.canonicalize(), to.canonicalize()) else {
        return format!("{}/", to.display());
    };
    let (ac, bc): (Vec<_>, Vec<_>) = (a.components().collect(), b.components().collect());
    let common = ac.iter().zip(&bc).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return format!("file://{}/", b.display());
    }
    let mut p = PathBuf::new();
    for _ in common..ac.len() {
        p.push("..");
    }
    for c in &bc[common..] {
        p.push(c);
    }
    let s = p.to_string_lossy().replace('\\', "/");
    if s.is_empty() {
        s
    } else {
        s + "/"
    }
}

/// Writes the summary into `dir`: `index.html`, `summary.json`, `games.csv`, `games.parquet`
/// (with the `parquet` feature) and `trend.png`; each file whole or not at all.
pub fn write(s: &PlayerSummary, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|source| ReportError::Create { path: dir.to_path_buf(), source })?;
    trend_plot(s, &s.totals, &dir.join("trend.png"))?;
    if let Some(t) = &s.totals_three_player {
        trend_plot(s, t, &dir.join(TREND_THREE))?;
    }
    write_atomic(&dir.join("summary.json"), serde_json::to_string_pretty(s)? + "\n")?;
    write_atomic(&dir.join("games.csv"), csv(&s.rows))?;
    #[cfg(feature = "parquet")]
    {
        let cols = columns(&s.rows);
        let path = dir.join("games.parquet");
        let table =
            |e: polars::prelude::PolarsError| ReportError::Table { path: path.clone(), error: e.to_string() };
        let mut sink = crate::dataset::parquet::ParquetSink::create(&path)?;
        sink.write(&cols).map_err(table)?;
        sink.finish(&cols).map_err(table)?;
    }
    write_atomic(&dir.join("index.html"), page(s))?;
    Ok(())
}

/// The trend plot of the three-player games (`trend.png` is the four-player games').
pub const TREND_THREE: &str = "trend-three-player.png";

const CSV_HEADER: &str = "date,id,page,table,seat,placement,final_score,decisions,match_rate,bad_move_rate,bad_moves,similarity,points_lost,seats";

/// The rows as CSV (empty cells where a figure is not defined).
pub fn csv(rows: &[GameRow]) -> String {
    let opt = |x: Option<f64>| x.map(|v| v.to_string()).unwrap_or_default();
    let quote = |s: &str| {
        if s.contains([',', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    for r in rows {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.date.as_deref().unwrap_or(""),
            quote(&r.id),
            quote(&r.page),
            r.table,
            r.seat,
            r.placement.map(|p| p.to_string()).unwrap_or_default(),
            r.final_score.map(|p| p.to_string()).unwrap_or_default(),
            r.decisions,
            r.match_rate,
            opt(r.bad_move_rate),
            r.bad_moves,
            opt(r.similarity),
            opt(r.points_lost),
            r.seats,
        );
    }
    out
}

#[cfg(feature = "parquet")]
fn columns(rows: &[GameRow]) -> crate::dataset::columns::Columns {
    use crate::dataset::columns::{Columns, Values};
    let mut c = Columns::new();
    let text = |f: fn(&GameRow) -> String| Values::Str(rows.iter().map(f).collect());
    let num = |f: fn(&GameRow) -> f64| Values::F64(rows.iter().map(f).collect());
    c.push("date", text(|r| r.date.clone().unwrap_or_default()));
    c.push("id", text(|r| r.id.clone()));
    c.push("page", text(|r| r.page.clone()));
    c.push("table", text(|r| r.table.clone()));
    c.push("seat", Values::U8(rows.iter().map(|r| r.seat).collect()));
    c.push("placement", Values::U8(rows.iter().map(|r| r.placement.unwrap_or(0)).collect()));
    c.push("decisions", Values::U32(rows.iter().map(|r| r.decisions as u32).collect()));
    c.push("match_rate", num(|r| r.match_rate));
    c.push("bad_move_rate", num(|r| r.bad_move_rate.unwrap_or(f64::NAN)));
    c.push("bad_moves", Values::U32(rows.iter().map(|r| r.bad_moves as u32).collect()));
    c.push("similarity", num(|r| r.similarity.unwrap_or(f64::NAN)));
    c.push("points_lost", num(|r| r.points_lost.unwrap_or(f64::NAN)));
    c.push("seats", Values::U8(rows.iter().map(|r| r.seats).collect()));
    c
}

/// Match rate and bad-move rate per game of the variant of `t`, and over its last [`WINDOW`]
/// games (pooled counts: never over both variants).
fn trend_plot(s: &PlayerSummary, t: &Totals, path: &Path) -> Result<()> {
    use crate::util::plots::{lines, Line};
    let rows: Vec<&GameRow> = s.rows.iter().filter(|r| r.seats == t.seats).collect();
    let x = |i: usize| (i + 1) as f64;
    let pooled = |i: usize, f: fn(&GameRow) -> Option<(f64, usize)>| {
        let from = (i + 1).saturating_sub(WINDOW);
        let (h, n) =
            rows[from..=i].iter().copied().filter_map(f).fold((0.0, 0), |a, (h, n)| (a.0 + h, a.1 + n));
        (n > 0).then(|| h / n as f64)
    };
    let matched = |r: &GameRow| Some((r.match_rate * r.decisions as f64, r.decisions));
    let bad = |r: &GameRow| r.bad_move_rate.map(|b| (b * r.decisions as f64, r.decisions));
    let mut ls = vec![
        Line {
            name: "match rate, per game".into(),
            points: rows.iter().enumerate().map(|(i, r)| (x(i), r.match_rate)).collect(),
        },
        Line {
            name: format!("match rate, last {WINDOW} games"),
            points: (0..rows.len()).filter_map(|i| pooled(i, matched).map(|v| (x(i), v))).collect(),
        },
    ];
    if t.bad_move_rate.is_some() {
        ls.push(Line {
            name: "bad-move rate, per game".into(),
            points: rows.iter().enumerate().filter_map(|(i, r)| r.bad_move_rate.map(|b| (x(i), b))).collect(),
        });
        ls.push(Line {
            name: format!("bad-move rate, last {WINDOW} games"),
            points: (0..rows.len()).filter_map(|i| pooled(i, bad).map(|v| (x(i), v))).collect(),
        });
    }
    let variant = if t.seats == 3 { "three-player " } else { "" };
    let title = format!("{}: agreement with linear over {} {variant}games", s.player, rows.len());
    lines(path, &title, "game (in date order)", "rate", &ls).map_err(|e| ReportError::Plot(e.to_string()))
}

/// The totals of one variant: a heading when `titled` (both variants, or three players), the
/// figures with their intervals, the same by decision kind, and its trend plot `plot`.
fn totals_section(h: &mut String, t: &Totals, plot: &str, titled: bool) {
    let (id, what) = if t.seats == 3 {
        ("totals-three-player", "Three-player games")
    } else {
        ("totals", "Four-player games")
    };
    let heading = if titled { format!("{what} ({})", t.games) } else { "Totals".into() };
    let _ = writeln!(h, "<h2 id=\"{id}\">{heading}</h2>");
    let places = t.placements.iter().take(usize::from(t.seats)).map(usize::to_string).collect::<Vec<_>>();
    let _ = writeln!(
        h,
        "<p class=\"muted\">{} games · {} decisions · placements {}</p>",
        t.games,
        t.agreement.decisions,
        places.join(" / ")
    );
    h.push_str("<table class=\"summary totals\"><tr><th class=\"l\">figure</th><th>value (95% interval)</th><th>n</th><th class=\"l\">interval</th></tr>\n");
    let figures = [
        ("match rate", Some(t.match_rate.clone()), true, 1),
        ("bad-move rate", t.bad_move_rate.clone(), true, 1),
        ("similarity", t.similarity.clone(), false, 3),
        ("points lost / decision", t.points_lost.clone(), false, 1),
    ];
    for (name, i, as_pct, decimals) in figures {
        let n = i.as_ref().map(|i| i.n.to_string()).unwrap_or_default();
        let method = i.as_ref().map(|i| i.method).unwrap_or("");
        let _ = writeln!(
            h,
            "<tr><td class=\"l\">{name}</td><td>{}</td><td>{n}</td><td class=\"l\">{method}</td></tr>",
            interval_cell(&i, as_pct, decimals)
        );
    }
    h.push_str(
        "</table>\n<p class=\"muted\">n: decisions for a Wilson interval, games for a bootstrap by game. \
                Wilson intervals treat decisions as independent.</p>\n",
    );
    h.push_str("<table class=\"summary\"><tr><th class=\"l\">decisions</th><th>n</th><th>match rate</th><th>bad-move rate</th><th>similarity</th><th>points lost</th></tr>\n");
    let mut kinds =
        vec![("all", &t.agreement), ("discards", &t.discard), ("riichi", &t.riichi), ("calls", &t.call)];
    if t.seats == 3 {
        kinds.push(("norths (kita)", &t.kita));
    }
    for (name, a) in kinds {
        let cal = a.with_probability > 0;
        let _ = writeln!(
            h,
            "<tr><td class=\"l\">{name}</td><td>{}</td><td class=\"bar\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            a.decisions,
            bar(a.match_rate),
            if cal { format!("{} ({})", pct1(a.bad_move_rate), a.bad_moves) } else { "–".into() },
            if cal { format!("{:.3}", a.similarity) } else { "–".into() },
            if a.with_points > 0 { format!("{:.0}", a.points_lost) } else { "–".into() },
        );
    }
    let _ = writeln!(
        h,
        "</table>\n<p><img src=\"{plot}\" alt=\"match rate and bad-move rate over the games\" width=\"900\"></p>"
    );
}

/// A figure and its interval: as a percentage, or with `decimals` places; `– (one game)` for a
/// bootstrap over a single game.
fn interval_cell(i: &Option<Interval>, as_pct: bool, decimals: usize) -> String {
    match i {
        Some(i) if !i.lo.is_finite() => format!("{:.decimals$} (no interval: one game)", i.value),
        Some(i) if as_pct => format!("{} ({}–{})", pct1(i.value), pct1(i.lo), pct1(i.hi)),
        Some(i) => format!("{:.decimals$} ({:.decimals$}–{:.decimals$})", i.value, i.lo, i.hi),
        None => "–".into(),
    }
}

fn pct1(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The summary's HTML: per variant the totals with intervals, by kind and the plot; then one
/// linked row per game.
pub fn page(s: &PlayerSummary) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>haifu review: {} over {} games</title>\
         <style>{CSS}</style></head><body>\n<h1>{} over {} games</h1>\n",
        esc(&s.player),
        s.games,
        esc(&s.player),
        s.games
    );
    let first = s.rows.iter().find_map(|r| r.date.clone()).unwrap_or_else(|| "–".into());
    let last = s.rows.iter().rev().find_map(|r| r.date.clone()).unwrap_or_else(|| "–".into());
    let _ = writeln!(h, "<p class=\"muted\">{first} to {last} · haifu {}</p>", esc(&s.haifu_version));
    let three = s.totals_three_player.as_ref();
    if three.is_some() {
        h.push_str(
            "<p>Four-player and three-player games are different games judged by different models: \
             each variant has its own totals, and no figure averages over both.</p>\n",
        );
    }
    // A player with three-player games only has no four-player section.
    if s.totals.games > 0 || three.is_none() {
        totals_section(&mut h, &s.totals, "trend.png", three.is_some());
    }
    if let Some(t) = three {
        totals_section(&mut h, t, TREND_THREE, true);
    }
    h.push_str("<h2 id=\"games\">Games</h2>\n<table class=\"summary games\"><tr><th class=\"l\">date</th><th class=\"l\">game</th><th class=\"l\">table</th><th>players</th><th>seat</th><th>place</th><th>decisions</th><th>match rate</th><th>bad-move rate</th><th>similarity</th><th>points lost</th></tr>\n");
    for r in &s.rows {
        let _ = writeln!(
            h,
            "<tr><td class=\"l\">{}</td><td class=\"l\"><a href=\"{}\">{}</a></td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"bar\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            r.date.as_deref().unwrap_or("–"),
            esc(&r.page),
            esc(&r.id),
            esc(&r.table),
            r.seats,
            r.seat,
            r.placement.map(|p| p.to_string()).unwrap_or_else(|| "–".into()),
            r.decisions,
            bar(r.match_rate),
            r.bad_move_rate.map(|b| format!("{} ({})", pct(b), r.bad_moves)).unwrap_or_else(|| "–".into()),
            r.similarity.map(|v| format!("{v:.3}")).unwrap_or_else(|| "–".into()),
            r.points_lost.map(|v| format!("{v:.0}")).unwrap_or_else(|| "–".into()),
        );
    }
    h.push_str("</table>\n");
    if !s.errors.is_empty() {
        h.push_str("<h2>Not reviewed</h2><ul>\n");
        for (f, e) in &s.errors {
            let _ = writeln!(h, "<li>{}: {}</li>", esc(f), esc(e));
        }
        h.push_str("</ul>\n");
    }
    h.push_str("</body></html>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agreement(decisions: usize, top1: usize, with_p: usize, bad: usize, sim: f64) -> Agreement {
        let mut a = Agreement {
            decisions,
            top1,
            top3: top1,
            with_probability: with_p,
            bad_moves: bad,
            similarity_sum: sim,
            ..Agreement::default()
        };
        a.merge(&Agreement::default());
        a
    }

    fn entry(id: &str, date: Option<&str>, a: Agreement, placement: u8) -> IndexEntry {
        IndexEntry {
            source: format!("{id}.mjlog"),
            id: id.into(),
            page: format!("{id}.html"),
            player: "P".into(),
            seat: 1,
            placement: Some(placement),
            final_score: Some(30000),
            date: date.map(str::to_string),
            table: "houou".into(),
            decisions: a.decisions,
            top1: a.top1,
            top3: a.top3,
            agreement: a,
            discard: a,
            riichi: Agreement::default(),
            call: Agreement::default(),
            kita: Agreement::default(),
            seats: 4,
        }
    }

    /// Totals are the sums of the games; the rates' intervals are Wilson's over the decisions, the
    /// similarity's a bootstrap by game that brackets the value and is the same on every run; rows
    /// go in date order; links lead from the summary folder to the pages.
    #[test]
    fn totals_intervals_order_and_links() {
        let dir = tempfile::tempdir().unwrap();
        let (sum_dir, pages) = (dir.path().join("s"), dir.path().join("pages"));
        std::fs::create_dir_all(&sum_dir).unwrap();
        std::fs::create_dir_all(&pages).unwrap();
        let entries = vec![
            entry("b", Some("2020-02-01"), agreement(100, 80, 100, 5, 90.0), 1),
            entry("a", Some("2020-01-01"), agreement(50, 30, 50, 10, 35.0), 4),
            entry("c", Some("2021-01-01"), agreement(80, 60, 80, 2, 70.0), 2),
            entry("0", None, agreement(1, 1, 1, 0, 1.0), 2),
        ];
        let s = summarize("P", &entries, &[], &pages, &sum_dir);
        assert_eq!(s.rows.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["a", "b", "c", "0"]);
        assert_eq!(s.rows[0].page, "../pages/a.html");
        let t = &s.totals;
        assert_eq!((t.agreement.decisions, t.agreement.top1, t.agreement.bad_moves), (231, 171, 17));
        assert_eq!(t.placements, [1, 2, 0, 1]);
        let (lo, hi) = Rate { hits: 171, n: 231 }.ci95();
        assert_eq!((t.match_rate.value, t.match_rate.lo, t.match_rate.hi), (171.0 / 231.0, lo, hi));
        let bad = t.bad_move_rate.as_ref().unwrap();
        assert_eq!((bad.value, bad.n, bad.method), (17.0 / 231.0, 231, "wilson"));
        // A ratio of sums over resampled games lies between the games' own ratios (0.7 .. 1.0).
        let sim = t.similarity.as_ref().unwrap();
        assert_eq!((sim.value, sim.n, sim.method), (196.0 / 231.0, 4, "bootstrap by game"));
        assert!(sim.lo < sim.value && sim.value < sim.hi && sim.lo >= 0.7 && sim.hi <= 1.0, "{sim:?}");
        assert!(t.points_lost.is_none(), "no game has points lost");
        let again = summarize("P", &entries, &[], &pages, &sum_dir);
        assert_eq!(again.totals.similarity, s.totals.similarity, "the bootstrap is seeded");
        // A game without a calibrated model has no bad-move rate, and neither has the total.
        let plain = vec![entry("x", None, agreement(10, 5, 0, 0, 0.0), 3)];
        let p = summarize("P", &plain, &[], &pages, &sum_dir);
        assert!(p.totals.bad_move_rate.is_none() && p.rows[0].bad_move_rate.is_none());
        // One game: the bootstrap gives no interval.
        let one = summarize("P", &entries[..1], &[], &pages, &sum_dir);
        let sim = one.totals.similarity.as_ref().unwrap();
        assert!(sim.value == 0.9 && sim.lo.is_nan() && sim.hi.is_nan(), "{sim:?}");
        assert!(page(&one).contains("0.900 (no interval: one game)"));
        assert_eq!(relative(&pages, &pages), "");
        std::fs::create_dir_all(sum_dir.join("games")).unwrap();
        assert_eq!(relative(&sum_dir, &sum_dir.join("games")), "games/");
    }

    /// A summary written to a folder: every file is there, the CSV has one line per game, the
    /// JSON reads back, and the page links every game and carries the totals.
    #[test]
    fn writes_every_file() {
        let dir = tempfile::tempdir().unwrap();
        let entries = vec![
            entry("g1", Some("2020-01-01"), agreement(100, 80, 100, 5, 90.0), 1),
            entry("g2", Some("2020-01-02"), agreement(90, 60, 90, 9, 70.0), 3),
        ];
        let out = dir.path().join("sum");
        std::fs::create_dir_all(&out).unwrap();
        let s = summarize("P", &entries, &[("bad.mjlog".into(), "no".into())], &out, &out);
        write(&s, &out).unwrap();
        let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
        assert_eq!(csv.lines().count(), 3);
        assert!(csv
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("2020-01-01,g1,g1.html,houou,1,1,30000,100,0.8,0.05,5,0.9,,4"));
        let j: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
        assert_eq!(j["games"], 2);
        assert_eq!(j["totals"]["match_rate"]["method"], "wilson");
        let html = std::fs::read_to_string(out.join("index.html")).unwrap();
        assert!(html.contains("href=\"g1.html\"") && html.contains("href=\"g2.html\""));
        assert!(html.contains("class=\"summary totals\"") && html.contains("bad.mjlog"));
        assert_eq!(&std::fs::read(out.join("trend.png")).unwrap()[..4], b"\x89PNG");
        #[cfg(feature = "parquet")]
        {
            let df = crate::dataset::parquet::read(&out.join("games.parquet")).unwrap();
            assert_eq!(df.height(), 2);
        }
    }

    /// On real shared records: a player's batch and summary agree game by game with the pages'
    /// own JSON, every link leads to a page that exists, and the totals are the games' sums.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn a_real_players_summary_links_their_pages() {
        use crate::model::judges::Models;
        use crate::report::review::Who;
        let mut files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        files.truncate(4);
        let first = crate::log::source::parse_game("g", &std::fs::read(&files[0]).unwrap()).unwrap();
        let name = first.players[2].name.clone();
        let models = Models::load(None).expect("shipped weights");
        let dir = tempfile::tempdir().unwrap();
        let (pages, json, sum) = (dir.path().join("pages"), dir.path().join("json"), dir.path().join("sum"));
        let who = Who::Player(name.clone());
        let report =
            crate::report::review_batch::review_batch(&files, &who, &models, &pages, Some(&json), Some(1))
                .unwrap();
        assert!(!report.entries.is_empty() && report.errors.is_empty(), "{:?}", report.errors);
        let s = summarize(&name, &report.entries, &[], &pages, &sum);
        write(&s, &sum).unwrap();
        assert_eq!(s.games, report.entries.len());
        let mut decisions = 0;
        for r in &s.rows {
            assert!(sum.join(&r.page).is_file(), "{} does not lead to a page", r.page);
            let stem = r.page.rsplit('/').next().unwrap().trim_end_matches(".html");
            let page: serde_json::Value =
                serde_json::from_slice(&std::fs::read(json.join(format!("{stem}.json"))).unwrap()).unwrap();
            assert_eq!(page["summary"]["game"]["decisions"], r.decisions);
            assert_eq!(page["summary"]["game"]["match_rate"], r.match_rate);
            assert_eq!(page["game"]["date"].as_str(), r.date.as_deref());
            assert_eq!(page["player"], name.as_str());
            decisions += r.decisions;
        }
        assert_eq!(s.totals.agreement.decisions, decisions);
        assert!(decisions > 50, "{decisions}");
    }
}
