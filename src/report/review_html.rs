//! The HTML of `haifu review`: one static, self-contained page per game (inline CSS and a few
//! lines of inline JS, no network assets) and an index page over a batch.
//!
//! Tiles are drawn as small CSS boxes (the number and the suit letter, honors as E S W N and
//! Wh G R, red fives in red) so the page reads the same without a mahjong font; every hand also
//! carries its mpsz text (as `haifu nanikiru` reads it) and every tile its Unicode glyph as a
//! tooltip. Each decision is one `<section class="decision">` with `data-kind`, `data-human`
//! (the player's choice) and `data-linear` (the model's pick); the options table marks each row
//! with `data-option`. `make review-check` and the tests count and read these attributes.

use std::fmt::Write;

use super::review::{Agreement, DecisionReview, GameReview, OptionReview};
use crate::tile::parse_mpsz;

pub(crate) const CSS: &str = r#"
body{font-family:"DejaVu Sans","Noto Sans CJK JP","IPAGothic",system-ui,sans-serif;margin:1.2em auto;max-width:1100px;color:#222;background:#fafaf7;line-height:1.35}
h1{font-size:1.4em;margin:.2em 0} h2{font-size:1.15em;margin:1.4em 0 .4em;border-bottom:2px solid #999;padding-bottom:.1em}
table{border-collapse:collapse;margin:.3em 0} td,th{border:1px solid #ccc;padding:.15em .45em;text-align:right;font-size:.92em}
th{background:#eee} td.l,th.l{text-align:left}
.t{display:inline-block;min-width:1.25em;padding:.05em .12em;margin:0 1px;border:1px solid #888;border-radius:3px;background:#fff;text-align:center;font-weight:bold;font-size:1.05em;box-shadow:1px 1px 0 #bbb;vertical-align:middle}
.t small{font-size:.62em;font-weight:normal;margin-left:1px}
.t.m{color:#9b1c1c}.t.p{color:#1d4ed8}.t.s{color:#15803d}.t.z{color:#333}.t.red{background:#fde2e2;color:#d00;border-color:#d00}
.t.drawn{margin-left:.6em}.t.dora{background:#fff7d6}
.meld{margin-left:.7em;padding:1px 2px;border-radius:3px;background:#e5e7eb}
.decision{border:1px solid #ccc;border-left:6px solid #16a34a;border-radius:4px;padding:.45em .7em;margin:.6em 0;background:#fff}
.decision.disagree{border-left-color:#dc2626}
.head{font-weight:bold} .muted{color:#666;font-size:.88em}
.mpsz{font-family:"DejaVu Sans Mono",monospace;font-size:.85em;color:#555}
tr.chosen td{background:#dbeafe} tr.pick td{font-weight:bold} tr.chosen.pick td{background:#dcfce7}
.why{margin:.3em 0;padding:.3em .5em;background:#fef3c7;border-radius:3px}
.pos{color:#15803d}.neg{color:#b91c1c}
.riichi{color:#b91c1c;font-weight:bold}
.summary td.bar{text-align:left;min-width:9em}
.bar span{display:inline-block;height:.8em;background:#16a34a;vertical-align:middle}
#filter{position:sticky;top:0;background:#fafaf7;padding:.4em 0;border-bottom:1px solid #ccc;z-index:2}
body.only-dis .decision.agree{display:none}
body.only-bad .decision:not(.bad){display:none}
.decision.bad .head{border-left:4px solid #b91c1c;padding-left:.3em}
.badge{color:#fff;background:#b91c1c;border-radius:3px;padding:0 .3em;font-size:90%}
tr.more{display:none} body.all-opts tr.more{display:table-row} body.all-opts .hidden-note{display:none}
.lbl{font-family:"DejaVu Sans Mono",monospace}
"#;

/// Options shown per decision unless \"show every option\" is ticked (the player's choice always).
const SHOWN: usize = 5;

const JS: &str = r#"
function onlyDis(on){document.body.classList.toggle('only-dis',on);}
function severity(v){document.body.classList.toggle('only-dis',v==='disagreements');document.body.classList.toggle('only-bad',v==='bad');}
function allOpts(on){document.body.classList.toggle('all-opts',on);}
window.addEventListener('DOMContentLoaded',function(){var c=document.getElementById('severity');if(!c){return;}if(location.hash==='#only-disagreements'){c.value='disagreements';}if(location.hash==='#bad-moves'){c.value='bad';}severity(c.value);});
"#;

/// Escapes text for HTML.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// The Unicode mahjong glyph of a tile in mpsz (`1m` 🀇, `7z` 🀄).
fn glyph(suit: char, n: u32) -> char {
    let cp = match suit {
        'm' => 0x1F007 + n - 1,
        's' => 0x1F010 + n - 1,
        'p' => 0x1F019 + n - 1,
        _ => [0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004][(n as usize - 1).min(6)],
    };
    char::from_u32(cp).unwrap_or('?')
}

/// One tile (mpsz) as a CSS box; `extra` adds classes.
fn tile(mpsz: &str, extra: &str) -> String {
    let mut c = mpsz.chars();
    let (Some(d), Some(suit)) = (c.next(), c.next()) else { return esc(mpsz) };
    let Some(n) = d.to_digit(10) else { return esc(mpsz) };
    let red = n == 0;
    let num = if red { 5 } else { n };
    let face = if suit == 'z' {
        ["E", "S", "W", "N", "Wh", "G", "R"].get(num as usize - 1).copied().unwrap_or("?").to_string()
    } else {
        format!("{num}<small>{suit}</small>")
    };
    let cls = format!(
        "t {suit}{}{}{extra}",
        if red { " red" } else { "" },
        if extra.is_empty() { "" } else { " " }
    );
    format!("<span class=\"{}\" title=\"{} {}\">{face}</span>", cls.trim(), esc(mpsz), glyph(suit, num))
}

/// A run of tiles written in mpsz (`123m5z`) as boxes.
fn tiles(mpsz: &str, extra: &str) -> String {
    match parse_mpsz(mpsz) {
        Ok(ts) => ts.iter().map(|t| tile(&t.to_string(), extra)).collect(),
        Err(_) => esc(mpsz),
    }
}

/// An option label drawn: a tile for discards, else the action with its tiles.
fn option_label(label: &str) -> String {
    if let Some((act, t)) = label.split_once('_') {
        format!("{act} {}", tiles(t, ""))
    } else if parse_mpsz(label).is_ok_and(|v| v.len() == 1) {
        tile(label, "")
    } else {
        esc(label)
    }
}

pub(crate) fn pct(x: f64) -> String {
    format!("{:.0}%", 100.0 * x)
}

pub(crate) fn bar(x: f64) -> String {
    format!("<span style=\"width:{:.1}em\"></span> {}", 6.0 * x, pct(x))
}

fn seat_name(r: &GameReview, seat: u8) -> String {
    r.game.players.get(seat as usize).map(|p| p.name.clone()).unwrap_or_default()
}

/// The page of one game.
pub fn page(r: &GameReview) -> String {
    let mut h = String::new();
    let title = format!("{} — {} (seat {})", r.game.id, r.player, r.seat);
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>haifu review: {}</title>\
         <style>{CSS}</style><script>{JS}</script></head><body>\n",
        esc(&title)
    );
    let _ = writeln!(h, "<h1>Review: {}</h1>", esc(&title));
    if r.game.seats == 3 {
        h.push_str(
            "<p class=\"variant\">A three-player (sanma) game: three seats, no chi, norths set aside; \
             every decision is judged by the three-player models (the north decisions by the north's).</p>\n",
        );
    }
    let _ = writeln!(
        h,
        "<p class=\"muted\">{} · haifu {} · review schema {} · weights: {}</p>",
        esc(&r.game.source),
        esc(&r.haifu_version),
        r.schema_version,
        esc(&r.weights.join(", "))
    );

    // The game's result.
    h.push_str("<h2 id=\"result\">Result</h2>\n<table><tr><th>seat</th><th class=\"l\">player</th><th>final score</th><th>result</th><th>place</th></tr>\n");
    for p in &r.game.players {
        let me = if p.seat == r.seat { " style=\"font-weight:bold\"" } else { "" };
        let _ = writeln!(
            h,
            "<tr{me}><td>{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            p.seat,
            esc(&p.name),
            p.final_score.map(|s| s.to_string()).unwrap_or_else(|| "–".into()),
            p.final_result.map(|s| format!("{s:+.1}")).unwrap_or_else(|| "–".into()),
            p.placement.map(|s| s.to_string()).unwrap_or_else(|| "–".into()),
        );
    }
    h.push_str("</table>\n");

    summary(&mut h, r);
    let _ = writeln!(
        h,
        "<div id=\"filter\"><label>show <select id=\"severity\" onchange=\"severity(this.value)\">\
         <option value=\"all\">every decision</option><option value=\"disagreements\">disagreements with the judge</option>\
         <option value=\"bad\">bad moves only</option></select></label> \
         <label><input type=\"checkbox\" id=\"all-opts\" onchange=\"allOpts(this.checked)\"> show every option \
         (otherwise the best {SHOWN} and the player's choice)</label></div>"
    );

    for (i, round) in r.rounds.iter().enumerate() {
        let dealer = seat_name(r, round.dealer);
        let _ = writeln!(
            h,
            "<h2 id=\"r{i}\">{} <span class=\"muted\">dealer {} · {} · {} decisions, top-1 {}</span></h2>",
            esc(&round.name),
            esc(&dealer),
            esc(&round.result_text),
            round.agreement.decisions,
            if round.agreement.decisions > 0 { pct(round.agreement.top1_rate()) } else { "–".into() }
        );
        for d in &round.decisions {
            decision(&mut h, r, &round.short, d);
        }
    }
    h.push_str("</body></html>\n");
    h
}

/// The agreement summary: the figures players read by decision kind, top-1 / top-3 per round,
/// the bad moves as a jump list and the largest disagreements.
fn summary(h: &mut String, r: &GameReview) {
    // Agreement summary: the figures players read, then top-1 / top-3.
    let s = &r.summary;
    let _ = write!(
        h,
        "<h2 id=\"summary\">Agreement with {}</h2>\n<table class=\"summary\"><tr><th class=\"l\">decisions</th>\
         <th>n</th><th>match rate</th><th>bad-move rate</th><th>similarity</th><th>points lost / decision</th><th>top-3</th></tr>\n",
        esc(&crate::model::judges::judges_text(&r.judges))
    );
    let mut kinds =
        vec![("game", &s.game), ("discards", &s.discard), ("riichi", &s.riichi), ("calls", &s.call)];
    if r.game.seats == 3 {
        kinds.push(("norths (kita)", &s.kita));
    }
    for (name, a) in kinds {
        let calibrated = a.with_probability > 0;
        let _ = writeln!(
            h,
            "<tr><td class=\"l\">{name}</td><td>{}</td><td class=\"bar\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"bar\">{}</td></tr>",
            a.decisions,
            bar(a.match_rate),
            if calibrated { format!("{} ({})", pct(a.bad_move_rate), a.bad_moves) } else { "–".into() },
            if calibrated { format!("{:.3}", a.similarity) } else { "–".into() },
            if a.with_points > 0 { format!("{:.0} ({} decisions)", a.points_lost, a.with_points) } else { "–".into() },
            bar(a.top3_rate())
        );
    }
    h.push_str(
        "</table>\n<p class=\"muted\">match rate: the player's choice is the judge's first; bad move: the judge gives the \
         choice a calibrated probability under the bad-move threshold; similarity: mean of p(choice) / p(the judge's first); \
         points lost: 電脳麻将's expected value of the best option minus the choice's, where it is defined.</p>\n",
    );
    let bad: Vec<(&str, &DecisionReview)> = r
        .rounds
        .iter()
        .flat_map(|round| round.decisions.iter().map(move |d| (round.short.as_str(), d)))
        .filter(|(_, d)| d.bad_move == Some(true))
        .collect();
    if !bad.is_empty() {
        h.push_str("<h2 id=\"bad-moves-list\">Bad moves</h2>\n<ol>\n");
        for (round, d) in &bad {
            let _ = writeln!(
                h,
                "<li><a href=\"#{}\">{} turn {} ({})</a>: played {} ({}), {} {}</li>",
                d.id,
                esc(round),
                d.turn,
                d.kind.name(),
                option_label(&d.human),
                d.probability.map(|p| format!("{:.1}%", 100.0 * p)).unwrap_or_default(),
                d.judged_by,
                option_label(judge_pick(d))
            );
        }
        h.push_str("</ol>\n");
    }
    h.push_str("<table class=\"summary\"><tr><th class=\"l\">round</th><th class=\"l\">result</th><th>decisions</th><th>top-1</th><th>top-3</th></tr>\n");
    for (i, round) in r.rounds.iter().enumerate() {
        let a = &round.agreement;
        let _ = writeln!(
            h,
            "<tr><td class=\"l\"><a href=\"#r{i}\">{}</a></td><td class=\"l\">{}</td><td>{}</td><td class=\"bar\">{}</td><td class=\"bar\">{}</td></tr>",
            esc(&round.short),
            esc(&round.result_text),
            a.decisions,
            if a.decisions > 0 { bar(a.top1_rate()) } else { "–".into() },
            if a.decisions > 0 { bar(a.top3_rate()) } else { "–".into() },
        );
    }
    h.push_str("</table>\n");
    if !s.largest_disagreements.is_empty() {
        h.push_str("<h2 id=\"largest\">Largest disagreements</h2>\n<ol>\n");
        for d in &s.largest_disagreements {
            let _ = writeln!(
                h,
                "<li><a href=\"#{}\">{} turn {} ({})</a>: played {}, linear {} (margin {:.2})</li>",
                d.id,
                esc(&d.round),
                d.turn,
                d.kind.name(),
                option_label(&d.human),
                option_label(&d.linear),
                d.margin
            );
        }
        h.push_str("</ol>\n");
    }
}

/// The first choice of the model that judged `d` (`judged_by`).
fn judge_pick(d: &DecisionReview) -> &str {
    match &d.trees {
        Some(t) if d.judged_by == "trees" => &t.pick,
        _ => &d.linear,
    }
}

fn decision(h: &mut String, r: &GameReview, round: &str, d: &DecisionReview) {
    let agree = d.matched;
    let _ = writeln!(
        h,
        "<section class=\"decision {}{}\" id=\"{}\" data-kind=\"{}\" data-human=\"{}\" data-linear=\"{}\">",
        if agree { "agree" } else { "disagree" },
        if d.bad_move == Some(true) { " bad" } else { "" },
        d.id,
        d.kind.name(),
        esc(&d.human),
        esc(&d.linear)
    );
    let what = match d.kind.name() {
        "call" => format!(
            "call? {} from {}",
            d.offered.as_deref().map(|t| tile(t, "")).unwrap_or_default(),
            esc(&d.offered_by.map(|s| seat_name(r, s)).unwrap_or_default())
        ),
        "riichi" => "riichi or dama?".into(),
        _ => "discard".into(),
    };
    let scores = d.scores.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" / ");
    let _ = writeln!(
        h,
        "<div class=\"head\"><a href=\"#{}\">{} turn {}</a> · {what} <span class=\"muted\">· wall {} · scores {scores}</span></div>",
        d.id,
        esc(round),
        d.turn,
        d.wall_left
    );
    // The hand.
    let mut hand = d.concealed.iter().map(|t| tile(t, "")).collect::<String>();
    if let Some(t) = &d.drawn {
        hand.push_str(&tile(t, "drawn"));
    }
    for m in &d.melds {
        let _ = write!(hand, "<span class=\"meld\">{}</span>", tiles(m, ""));
    }
    let dora = d.dora_indicators.iter().map(|t| tile(t, "dora")).collect::<String>();
    let _ = writeln!(
        h,
        "<div>{hand} <span class=\"muted\">dora indicator</span> {dora} <span class=\"mpsz\">{}</span></div>",
        esc(&d.hand)
    );
    for p in &d.riichi {
        let _ = writeln!(
            h,
            "<div><span class=\"riichi\">RIICHI</span> {} ({}, seat {}) <span class=\"mpsz\">river {}</span></div>",
            esc(&p.name),
            p.relative,
            p.seat,
            esc(&p.river)
        );
    }
    let _ = writeln!(
        h,
        "<div>played <b>{}</b> · linear {} · the player's choice ranks {} of {}{}</div>",
        option_label(&d.human),
        option_label(&d.linear),
        d.human_rank,
        d.options.len(),
        if agree { String::new() } else { format!(" (margin {:.2})", d.margin) }
    );
    let mut figures = Vec::new();
    if let Some(p) = d.probability {
        figures.push(format!("p(choice) {:.1}% by {}", 100.0 * p, d.judged_by));
    }
    if d.bad_move == Some(true) {
        figures.push("<span class=\"badge\">bad move</span>".to_string());
    }
    if let Some(l) = d.points_lost.filter(|&l| l > 0.0) {
        figures.push(format!("points lost {l:.0}"));
    }
    if !figures.is_empty() {
        let _ = writeln!(h, "<div>{}</div>", figures.join(" · "));
    }
    if let Some(n) = &d.danger {
        let _ = writeln!(h, "<div class=\"why danger\">{}</div>", esc(&n.text));
    }
    options_table(h, d);
    if let Some(e) = &d.explanation {
        let _ = writeln!(h, "<div class=\"why\">{}</div>", esc(&e.text));
        let _ = writeln!(
            h,
            "<div class=\"muted\">the {} largest of {} feature differences, weight × (player − pick); \
             positive favours the player's choice</div>",
            e.contributions.len(),
            e.features_differing
        );
        h.push_str("<table><tr><th class=\"l\">feature (player's choice vs linear's pick)</th><th>player</th><th>linear's pick</th><th>contribution</th><th class=\"l\">meaning</th></tr>\n");
        for c in &e.contributions {
            let cls = if c.contribution >= 0.0 { "pos" } else { "neg" };
            let _ = writeln!(
                h,
                "<tr><td class=\"l lbl\">{}</td><td>{}</td><td>{}</td><td class=\"{cls}\">{:+.3}</td><td class=\"l\">{}</td></tr>",
                esc(&c.feature),
                c.human_value,
                c.linear_value,
                c.contribution,
                esc(&c.meaning)
            );
        }
        h.push_str("</table>\n");
    }
    if let Some(t) = &d.trees {
        trees_block(h, d, t);
    }
    h.push_str("</section>\n");
}

/// The trees evaluator's pick and, where it differs from the player, the exact contributions
/// (TreeSHAP) of the largest features and of each family to the gap.
fn trees_block(h: &mut String, d: &DecisionReview, t: &crate::report::review::TreesReview) {
    let _ = writeln!(
        h,
        "<div class=\"trees\">trees: <b>{}</b>{} · the player's choice ranks {} of {}{}</div>",
        option_label(&t.pick),
        t.probabilities.as_ref().map(|p| format!(" ({:.1}%)", 100.0 * p[0])).unwrap_or_default(),
        t.human_rank,
        t.order.len(),
        if t.matched { String::new() } else { format!(" (gap {:+.3})", t.gap) }
    );
    if t.matched {
        return;
    }
    let families: Vec<String> = t.families.iter().map(|(f, v)| format!("{} {v:+.3}", esc(f))).collect();
    let _ = writeln!(
        h,
        "<div class=\"muted\">why (exact contributions to score(played {}) − score(trees' {}), summing to the gap): {}</div>",
        option_label(&d.human),
        option_label(&t.pick),
        families.join(" · ")
    );
    h.push_str("<table class=\"trees-why\"><tr><th class=\"l\">feature</th><th class=\"l\">family</th><th>player</th><th>trees' pick</th><th>contribution</th></tr>\n");
    for c in &t.contributions {
        let cls = if c.contribution >= 0.0 { "pos" } else { "neg" };
        let _ = writeln!(
            h,
            "<tr><td class=\"l lbl\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td class=\"{cls}\">{:+.3}</td></tr>",
            esc(&c.feature),
            c.family,
            c.a_value,
            c.b_value,
            c.contribution
        );
    }
    h.push_str("</table>\n");
}

fn options_table(h: &mut String, d: &DecisionReview) {
    // The danger family's columns, where the rows hold it (discards).
    let staked = d.options.iter().any(|o| o.stake.is_some());
    h.push_str("<table class=\"options\"><tr><th>#</th><th class=\"l\">option</th><th>linear</th><th>p (linear)</th><th>ev</th><th>ukeire</th><th>shanten</th>");
    if staked {
        h.push_str("<th title=\"P(deals in), by the danger models\">deal-in</th><th title=\"expected points lost to a deal-in\">loss</th><th title=\"ev less the expected loss\">at stake</th>");
    }
    for p in &d.riichi {
        let _ = write!(h, "<th class=\"l\">vs {}</th>", esc(&p.name));
    }
    h.push_str("</tr>\n");
    let hidden = d.options.iter().filter(|o| o.linear_rank > SHOWN && !o.chosen).count();
    for o in &d.options {
        let mut cls = Vec::new();
        if o.linear_rank > SHOWN && !o.chosen {
            cls.push("more");
        }
        if o.chosen {
            cls.push("chosen");
        }
        if o.linear_rank == 1 {
            cls.push("pick");
        }
        let _ = write!(
            h,
            "<tr class=\"{}\" data-option=\"{}\"><td>{}</td><td class=\"l\">{}{}</td><td>{:.2}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
            cls.join(" "),
            esc(&o.label),
            o.linear_rank,
            option_label(&o.label),
            if o.chosen { " ◀ played" } else { "" },
            o.linear_score,
            o.probability.map(|p| format!("{:.1}%", 100.0 * p)).unwrap_or_else(|| "–".into()),
            o.ev.map(|v| format!("{v:.0}")).unwrap_or_else(|| "–".into()),
            o.ukeire,
            o.shanten,
        );
        if staked {
            stake_cells(h, o.stake.as_ref());
        }
        safety_cells(h, d, o);
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
    if hidden > 0 {
        let _ = writeln!(
            h,
            "<div class=\"muted hidden-note\">{hidden} more options (show every option at the top)</div>"
        );
    }
}

fn stake_cells(h: &mut String, s: Option<&crate::model::stake::Stake>) {
    match s {
        Some(s) => {
            let stake = s.at_stake.map(|v| format!("{v:.0}")).unwrap_or_else(|| "–".into());
            let _ = write!(h, "<td>{:.1}%</td><td>{:.0}</td><td>{stake}</td>", 100.0 * s.dealin, s.loss);
        }
        None => h.push_str("<td></td><td></td><td></td>"),
    }
}

fn safety_cells(h: &mut String, d: &DecisionReview, o: &OptionReview) {
    for p in &d.riichi {
        match o.safety.iter().find(|s| s.seat == p.seat) {
            Some(s) => {
                let kabe = s.kabe.as_deref().map(|k| format!(", {k}")).unwrap_or_default();
                let _ = write!(
                    h,
                    "<td class=\"l\">{}{kabe} <span class=\"muted\">{:.1}</span></td>",
                    s.class, s.danger
                );
            }
            None => h.push_str("<td></td>"),
        }
    }
}

/// One line of the batch index (and one row of a player's summary).
#[derive(Clone, Debug, serde::Serialize)]
pub struct IndexEntry {
    pub source: String,
    pub id: String,
    /// The page's file name in the batch folder.
    pub page: String,
    pub player: String,
    pub seat: u8,
    pub placement: Option<u8>,
    /// The player's final score, when the game ended.
    pub final_score: Option<i32>,
    /// As in [`super::review::GameInfo`].
    pub date: Option<String>,
    pub table: String,
    pub decisions: usize,
    pub top1: usize,
    pub top3: usize,
    /// The game's agreement, all decisions and by kind.
    pub agreement: Agreement,
    pub discard: Agreement,
    pub riichi: Agreement,
    pub call: Agreement,
    /// The north decisions of a three-player game (empty at four).
    pub kita: Agreement,
    /// Seats at the game's table: 4, or 3 (sanma).
    pub seats: u8,
}

/// The index page of a batch.
pub fn index(entries: &[IndexEntry], errors: &[(String, String)]) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>haifu review: {} games</title><style>{CSS}</style></head><body>\n<h1>haifu review: {} games</h1>\n",
        entries.len(),
        entries.len()
    );
    // One line per variant: four- and three-player games are judged by different models, and
    // no rate averages over both. A batch of one variant reads as before.
    let both = entries.iter().any(|e| e.seats == 3) && entries.iter().any(|e| e.seats != 3);
    for (three, what) in [(false, "four-player games: "), (true, "three-player games: ")] {
        let of: Vec<&IndexEntry> = entries.iter().filter(|e| (e.seats == 3) == three).collect();
        // An empty batch reads as before: one line of 0 decisions.
        if of.is_empty() && (three || !entries.is_empty()) {
            continue;
        }
        let (n, t1, t3) = of.iter().fold((0, 0, 0), |a, e| (a.0 + e.decisions, a.1 + e.top1, a.2 + e.top3));
        let rate = |x: usize| if n > 0 { pct(x as f64 / n as f64) } else { "–".into() };
        let label = if both || three { what } else { "" };
        let _ = writeln!(
            h,
            "<p>{label}{n} decisions; <code>linear</code> agrees top-1 {}, top-3 {}.</p>",
            rate(t1),
            rate(t3)
        );
    }
    h.push_str("<table class=\"summary\"><tr><th class=\"l\">game</th><th class=\"l\">player</th><th>seat</th><th>place</th><th>decisions</th><th>top-1</th><th>top-3</th></tr>\n");
    for e in entries {
        let r1 = e.top1 as f64 / e.decisions.max(1) as f64;
        let r3 = e.top3 as f64 / e.decisions.max(1) as f64;
        let _ = writeln!(
            h,
            "<tr><td class=\"l\"><a href=\"{}\">{}</a></td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"bar\">{}</td><td class=\"bar\">{}</td></tr>",
            esc(&e.page),
            esc(&e.id),
            esc(&e.player),
            e.seat,
            e.placement.map(|p| p.to_string()).unwrap_or_else(|| "–".into()),
            e.decisions,
            bar(r1),
            bar(r3)
        );
    }
    h.push_str("</table>\n");
    if !errors.is_empty() {
        h.push_str("<h2>Not reviewed</h2><ul>\n");
        for (f, e) in errors {
            let _ = writeln!(h, "<li>{}: {}</li>", esc(f), esc(e));
        }
        h.push_str("</ul>\n");
    }
    h.push_str("</body></html>\n");
    h
}
