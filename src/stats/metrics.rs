//! The figures of a group: every rate, average and derived value `haifu stats` reports, each with
//! its stable snake_case name (the `--json` key and the parquet column), its denominator, a 95%
//! Wilson interval where it is a rate, and its definition (the README's glossary). One list, so
//! the JSON, the tables and the README cannot disagree.

use super::players::PlayerStats;
use crate::util::markdown::{pct, pct_ci, table};
use crate::util::{Mean, Rate};

/// How a figure is computed and shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// hits / n, shown as a percentage with its interval.
    Rate,
    /// An average of points, shown whole.
    Points,
    /// Another average (turns, placements), shown with decimals.
    Mean,
    /// A figure derived from several counts (no interval).
    Value,
    /// A plain count.
    Count,
}

/// One figure of one group.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    pub name: &'static str,
    /// The README section it belongs to.
    pub section: &'static str,
    pub form: Form,
    pub value: f64,
    /// The denominator: player-rounds, wins, riichi, games...
    pub n: u64,
    /// Wilson 95% interval of a rate.
    pub ci: Option<(f64, f64)>,
    pub definition: &'static str,
}

impl Metric {
    /// The value as the README shows it.
    pub fn show(&self) -> String {
        if !self.value.is_finite() {
            return "-".into();
        }
        match (self.form, self.ci) {
            (Form::Rate, Some((lo, hi))) => pct_ci(self.value, lo, hi),
            (Form::Rate, None) => pct(self.value),
            (Form::Points, Some((lo, hi))) => format!("{:.0} ({lo:.0}–{hi:.0})", self.value),
            (Form::Points, None) => format!("{:.0}", self.value),
            (Form::Mean, _) | (Form::Value, _) => format!("{:.3}", self.value),
            (Form::Count, _) => format!("{}", self.value as u64),
        }
    }
}

/// Tenhou's stable dan (安定段位) at houou: the dan at which these placement rates keep the rank
/// points level. A hanchan moves +90 / +45 / 0 / -(30 + 15 x dan), so the dan solves
/// 90 p1 + 45 p2 = (30 + 15 dan) p4: dan = (6 p1 + 3 p2) / p4 - 2. East-only games move two
/// thirds of each, which gives the same dan.
pub fn stable_dan(placements: &[u64; 4]) -> f64 {
    let [p1, p2, _, p4] = placements.map(|c| c as f64);
    if p4 == 0.0 {
        f64::NAN
    } else {
        (6.0 * p1 + 3.0 * p2) / p4 - 2.0
    }
}

/// The normal 95% interval of a mean from its sum and its sum of squares.
pub fn mean_ci95(m: &Mean, sq: &Mean) -> Option<(f64, f64)> {
    if m.n < 2 {
        return None;
    }
    let n = m.n as f64;
    let mean = m.sum / n;
    let var = ((sq.sum - n * mean * mean) / (n - 1.0)).max(0.0);
    let half = 1.959_963_984_540_054 * (var / n).sqrt();
    Some((mean - half, mean + half))
}

/// Every figure of a group of four-player games ([`metrics_of`] at four).
pub fn metrics(s: &PlayerStats) -> Vec<Metric> {
    metrics_of(s, 4)
}

/// Every figure of a group of `players`-seat games, in report order: one function per README
/// section, called in the order of the sections. At three players the placements are 1st..3rd,
/// Tenhou's uma/oka result stands where the four-player houou rank points and stable dan stand
/// (both are four-player formulas), and a nukidora section follows the dealer's.
pub fn metrics_of(s: &PlayerStats, players: u8) -> Vec<Metric> {
    let mut out = Vec::new();
    if players == 3 {
        three_player_results(s, &mut out);
    } else {
        game_results(s, &mut out);
    }
    rounds(s, &mut out);
    wins(s, &mut out);
    riichi(s, &mut out);
    calls(s, &mut out);
    deal_ins(s, &mut out);
    dealer(s, &mut out);
    if players == 3 {
        nukidora(s, &mut out);
    }
    out
}

/// Push a rate with its Wilson interval (none when the denominator is zero).
fn rate(
    out: &mut Vec<Metric>,
    section: &'static str,
    name: &'static str,
    r: &Rate,
    definition: &'static str,
) {
    out.push(Metric {
        name,
        section,
        form: Form::Rate,
        value: r.value(),
        n: r.n,
        ci: (r.n > 0).then(|| r.ci95()),
        definition,
    })
}

/// Push an average, shown in `form`, without an interval.
fn mean(
    out: &mut Vec<Metric>,
    section: &'static str,
    name: &'static str,
    form: Form,
    m: &Mean,
    definition: &'static str,
) {
    out.push(Metric { name, section, form, value: m.value(), n: m.n, ci: None, definition })
}

/// Push a count or a derived value over `n`, without an interval.
fn value(
    out: &mut Vec<Metric>,
    section: &'static str,
    name: &'static str,
    form: Form,
    value: f64,
    n: u64,
    definition: &'static str,
) {
    out.push(Metric { name, section, form, value, n, ci: None, definition })
}

/// The "Game results" figures: the placements and what they are worth in rank points.
fn game_results(s: &PlayerStats, out: &mut Vec<Metric>) {
    let per_game = |hits: u64| Rate { hits, n: s.games };
    let section = "Game results";
    value(
        out,
        section,
        "games",
        Form::Count,
        s.games as f64,
        s.games,
        "Player-games (a game counts once per seat).",
    );
    let names = ["first_rate", "second_rate", "third_rate", "fourth_rate"];
    let defs = [
        "Games finished 1st, per player-game (ties broken by seat, as Tenhou does).",
        "Games finished 2nd, per player-game.",
        "Games finished 3rd, per player-game.",
        "Games finished 4th, per player-game.",
    ];
    for i in 0..4 {
        rate(out, section, names[i], &per_game(s.placements[i]), defs[i]);
    }
    mean(
        out,
        section,
        "avg_placement",
        Form::Mean,
        &s.avg_placement,
        "Average final placement, per player-game.",
    );
    rate(
        out,
        section,
        "bust_rate",
        &s.bust,
        "Games ended with the player's score below zero (tobi), per player-game.",
    );
    mean(
        out,
        section,
        "avg_rank_points",
        Form::Mean,
        &s.rank_points,
        "Tenhou houou rank points per game at 7-dan: +90 / +45 / 0 / -135 in a hanchan, two thirds in an East-only game.",
    );
    value(
        out,
        section,
        "stable_dan",
        Form::Value,
        stable_dan(&s.placements),
        s.games,
        "Tenhou stable dan (安定段位) at houou: (6 x 1st rate + 3 x 2nd rate) / 4th rate - 2, the dan at which these placements keep the rank points level. A player's figure: a group of whole games (a table level, everything) has every placement at 25% and so 7.0.",
    );
}

/// The "Game results" figures of three-player games: three placements, and Tenhou's result
/// (uma +20 / 0 / -20, return 40,000, the oka of 15 to the top) as the records state it.
fn three_player_results(s: &PlayerStats, out: &mut Vec<Metric>) {
    let per_game = |hits: u64| Rate { hits, n: s.games };
    let section = "Game results";
    value(
        out,
        section,
        "games",
        Form::Count,
        s.games as f64,
        s.games,
        "Player-games (a game counts once per seat: three at a three-player table).",
    );
    let places = [
        ("first_rate", "Games finished 1st, per player-game (ties broken by seat, as Tenhou does)."),
        ("second_rate", "Games finished 2nd, per player-game."),
        ("third_rate", "Games finished 3rd (last at three players), per player-game."),
    ];
    for (i, (name, def)) in places.into_iter().enumerate() {
        rate(out, section, name, &per_game(s.placements[i]), def);
    }
    mean(
        out,
        section,
        "avg_placement",
        Form::Mean,
        &s.avg_placement,
        "Average final placement (1-3), per player-game.",
    );
    rate(
        out,
        section,
        "bust_rate",
        &s.bust,
        "Games ended with the player's score below zero (tobi), per player-game.",
    );
    mean(
        out,
        section,
        "avg_game_points",
        Form::Mean,
        &s.game_points,
        "Tenhou's result per player-game as the record states it: score / 1000 - 40 + uma (+20 / 0 / -20), the oka of 15 to the top (35,000 start, 40,000 return).",
    );
}

/// The "Nukidora" figures of three-player games: the norths set aside (抜きドラ), what they were
/// worth in the wins, and the rons on a set-aside north.
fn nukidora(s: &PlayerStats, out: &mut Vec<Metric>) {
    let section = "Nukidora";
    mean(
        out,
        section,
        "kita_per_round",
        Form::Mean,
        &s.kita,
        "Norths the player set aside (抜きドラ), per player-round.",
    );
    let player_games = s.games + s.partial_games;
    value(
        out,
        section,
        "kita_per_game",
        Form::Value,
        s.kita.sum / player_games.max(1) as f64,
        player_games,
        "Norths the player set aside, per player-game (partial records included).",
    );
    mean(
        out,
        section,
        "avg_win_kita",
        Form::Mean,
        &s.win_kita,
        "Set-aside norths in the winner's hand (each a dora, counted in Tenhou's ドラ), per win.",
    );
    rate(
        out,
        section,
        "kita_ron_rate",
        &s.kita_ron,
        "Wins by ron on a north the loser had just set aside (no 槍槓), per win.",
    );
    rate(
        out,
        section,
        "kita_deal_in_rate",
        &s.kita_deal_in,
        "Deal-ins by setting a north aside (ronned on the set-aside north), per deal-in.",
    );
}

/// The "Rounds" figures: how each player-round ended for the player, and how often they
/// riichi or call.
fn rounds(s: &PlayerStats, out: &mut Vec<Metric>) {
    let section = "Rounds";
    value(
        out,
        section,
        "rounds",
        Form::Count,
        s.rounds as f64,
        s.rounds,
        "Player-rounds (a round counts once per seat).",
    );
    rate(
        out,
        section,
        "win_rate",
        &s.win,
        "Rounds the player won, per player-round (both winners of a double ron win).",
    );
    rate(
        out,
        section,
        "deal_in_rate",
        &s.deal_in,
        "Rounds the player dealt in, per player-round (a double ron is one deal-in).",
    );
    rate(
        out,
        section,
        "tsumo_lost_rate",
        &s.tsumo_lost,
        "Rounds another player won by tsumo, per player-round.",
    );
    rate(
        out,
        section,
        "lateral_rate",
        &s.lateral,
        "Rounds won by ron between two other players, per player-round.",
    );
    rate(
        out,
        section,
        "draw_rate",
        &s.exhaustive_draw,
        "Rounds ended by an exhaustive draw (the wall ran out), per player-round.",
    );
    rate(
        out,
        section,
        "any_draw_rate",
        &s.any_draw,
        "Rounds ended by any draw, exhaustive or abortive (nine terminals, four riichi, four winds, four kans, triple ron, nagashi), per player-round.",
    );
    rate(
        out,
        section,
        "tenpai_at_draw_rate",
        &s.tenpai_at_draw,
        "Tenpai (hand shown) at an exhaustive draw, per exhaustive draw.",
    );
    rate(
        out,
        section,
        "riichi_rate",
        &s.riichi,
        "Rounds the player declared riichi, per player-round; a declaration whose discard was ronned counts.",
    );
    rate(
        out,
        section,
        "call_rate",
        &s.call,
        "Rounds with at least one chi, pon or open kan, per player-round; a closed kan is not a call.",
    );
    value(
        out,
        section,
        "calls_per_round",
        Form::Value,
        s.calls.sum / s.rounds.max(1) as f64,
        s.rounds,
        "Chi, pon and open kans per player-round (an added kan upgrades its pon and adds none).",
    );
    mean(
        out,
        section,
        "avg_score_change",
        Form::Points,
        &s.score_change,
        "Score change per player-round, payments and sticks included.",
    );
}

/// The "Wins" figures: the value, speed and manner of the player's wins.
fn wins(s: &PlayerStats, out: &mut Vec<Metric>) {
    let section = "Wins";
    out.push(Metric {
        name: "avg_win_points",
        section,
        form: Form::Points,
        value: s.win_points.value(),
        n: s.win_points.n,
        ci: mean_ci95(&s.win_points, &s.win_points_sq),
        definition:
            "Hand value per win: Tenhou's points, without honba and riichi sticks (95% interval from the \
                     sample variance).",
    });
    rate(out, section, "tsumo_rate", &s.tsumo, "Wins by tsumo, per win.");
    rate(
        out,
        section,
        "dama_rate",
        &s.dama(),
        "Closed wins without riichi, per closed win (no chi, pon or open kan).",
    );
    let wins = [
        ("avg_win_points_dealer", &s.win_points_dealer, "Hand value per win as dealer."),
        ("avg_win_points_non_dealer", &s.win_points_non_dealer, "Hand value per win as non-dealer."),
        ("avg_win_points_riichi", &s.win_points_riichi, "Hand value per riichi win."),
        ("avg_win_points_open", &s.win_points_open, "Hand value per open win (a chi, pon or open kan)."),
        ("avg_win_points_dama", &s.win_points_dama, "Hand value per closed win without riichi."),
    ];
    for (name, m, def) in wins {
        mean(out, section, name, Form::Points, m, def);
    }
    mean(
        out,
        section,
        "avg_win_turn",
        Form::Mean,
        &s.win_turn,
        "The winner's draws when they won (a tsumo counts its winning draw), per win.",
    );
    rate(out, section, "yakuman_rate", &s.yakuman, "Wins with a yakuman, per win.");
}

/// The "Riichi" figures: what became of the player's riichi.
fn riichi(s: &PlayerStats, out: &mut Vec<Metric>) {
    let section = "Riichi";
    let riichi: [(&str, &Rate, &str); 8] = [
        ("riichi_win_rate", &s.riichi_win, "Riichi rounds the riichi player won, per riichi."),
        (
            "riichi_deal_in_rate",
            &s.riichi_deal_in,
            "Riichi rounds the riichi player dealt in, per riichi; a deal-in on the declaring discard counts.",
        ),
        ("riichi_draw_rate", &s.riichi_draw, "Riichi rounds that ended in an exhaustive draw, per riichi."),
        ("first_riichi_rate", &s.first_riichi, "Riichi declared before any other riichi that round (先制), per riichi."),
        ("chase_riichi_rate", &s.chase_riichi(), "Riichi declared after another player's riichi (追っかけ), per riichi."),
        ("chased_riichi_rate", &s.chased_riichi, "Riichi after which another player declared riichi (追っかけられ), per riichi."),
        (
            "good_wait_riichi_rate",
            &s.good_wait_riichi,
            "Riichi waiting on two or more tile kinds (良形), counted from the hand after the declaring discard, per riichi.",
        ),
        ("ippatsu_rate", &s.ippatsu, "Riichi wins with ippatsu, per riichi win."),
    ];
    for (name, r, def) in riichi {
        rate(out, section, name, r, def);
    }
    rate(out, section, "ura_rate", &s.ura, "Riichi wins with at least one ura dora, per riichi win.");
    mean(
        out,
        section,
        "avg_riichi_turn",
        Form::Mean,
        &s.riichi_turn,
        "The player's draws when declaring riichi, per riichi.",
    );
    mean(
        out,
        section,
        "riichi_balance",
        Form::Points,
        &s.riichi_balance,
        "Score change of the round per riichi (収支: the stick, wins, deal-ins and draw payments).",
    );
}

/// The "Calls" figures: what became of the rounds in which the player called.
fn calls(s: &PlayerStats, out: &mut Vec<Metric>) {
    let section = "Calls";
    rate(
        out,
        section,
        "call_win_rate",
        &s.call_win,
        "Rounds with a call the player won, per round with a call.",
    );
    rate(
        out,
        section,
        "call_deal_in_rate",
        &s.call_deal_in,
        "Rounds with a call the player dealt in, per round with a call.",
    );
    rate(
        out,
        section,
        "call_draw_rate",
        &s.call_draw,
        "Rounds with a call that ended in an exhaustive draw, per round with a call.",
    );
    mean(out, section, "avg_calls", Form::Mean, &s.calls, "Chi, pon and open kans per round with a call.");
    mean(
        out,
        section,
        "avg_call_win_points",
        Form::Points,
        &s.win_points_open,
        "Hand value per win with an open hand (the same wins as `avg_win_points_open`).",
    );
}

/// The "Deal-ins" figures: what the player dealt into.
fn deal_ins(s: &PlayerStats, out: &mut Vec<Metric>) {
    let section = "Deal-ins";
    mean(
        out,
        section,
        "avg_deal_in_points",
        Form::Points,
        &s.deal_in_points,
        "Hand value dealt in per deal-in, without honba and sticks (both wins of a double ron).",
    );
    rate(
        out,
        section,
        "deal_in_to_riichi_rate",
        &s.deal_in_to_riichi,
        "Wins dealt into whose winner was in riichi, per win dealt into.",
    );
    rate(
        out,
        section,
        "deal_in_to_open_rate",
        &s.deal_in_to_open,
        "Wins dealt into whose winner had called, per win dealt into.",
    );
    rate(
        out,
        section,
        "deal_in_to_dama_rate",
        &s.deal_in_to_dama,
        "Wins dealt into whose winner was closed without riichi, per win dealt into.",
    );
}

/// The "Dealer" figures: the player's rounds as dealer.
fn dealer(s: &PlayerStats, out: &mut Vec<Metric>) {
    let section = "Dealer";
    rate(
        out,
        section,
        "dealer_win_rate",
        &s.dealer_win,
        "Rounds as dealer the player won, per dealer round.",
    );
}

/// The figure called `name` (four players).
pub fn get(s: &PlayerStats, name: &str) -> Option<Metric> {
    metrics(s).into_iter().find(|m| m.name == name)
}

/// `--json` form of a group of four-player games ([`json_of`] at four).
pub fn json(s: &PlayerStats) -> serde_json::Value {
    json_of(s, 4)
}

/// `--json` form of a group of `players`-seat games: `{name: value}` with NaN as null, plus `n`
/// and `ci95` maps by name; `placement_rates` has `players` entries.
pub fn json_of(s: &PlayerStats, players: u8) -> serde_json::Value {
    let ms = metrics_of(s, players);
    let num = |v: f64| v.is_finite().then_some(v);
    let mut m = serde_json::Map::new();
    let mut n = serde_json::Map::new();
    let mut ci = serde_json::Map::new();
    for x in &ms {
        let v = match x.form {
            Form::Count => serde_json::json!(x.value as u64),
            _ => serde_json::json!(num(x.value)),
        };
        m.insert(x.name.into(), v);
        n.insert(x.name.into(), serde_json::json!(x.n));
        if let Some((lo, hi)) = x.ci {
            ci.insert(x.name.into(), serde_json::json!([num(lo), num(hi)]));
        }
    }
    m.insert("placement_rates".into(), serde_json::json!(s.placement_rates_of(players)));
    m.insert("n".into(), n.into());
    m.insert("ci95".into(), ci.into());
    m.into()
}

/// The README's figure table: one row per figure, a value and an n column per group of
/// `players`-seat games.
pub fn markdown(groups: &[(&str, &PlayerStats)], players: u8) -> String {
    let per_group: Vec<Vec<Metric>> = groups.iter().map(|(_, s)| metrics_of(s, players)).collect();
    let mut header = vec!["section", "figure"];
    for (name, _) in groups {
        header.push(name);
        header.push("n");
    }
    let rows: Vec<Vec<String>> = (0..per_group.first().map_or(0, Vec::len))
        .map(|i| {
            let first = &per_group[0][i];
            let mut row = vec![first.section.to_string(), format!("`{}`", first.name)];
            for ms in &per_group {
                row.push(ms[i].show());
                row.push(ms[i].n.to_string());
            }
            row
        })
        .collect();
    table(&header, &rows)
}

/// The README's glossary: each figure's definition, of `players`-seat games.
pub fn glossary(players: u8) -> String {
    let rows: Vec<Vec<String>> = metrics_of(&PlayerStats::default(), players)
        .into_iter()
        .map(|m| vec![format!("`{}`", m.name), m.section.to_string(), m.definition.to_string()])
        .collect();
    table(&["figure", "section", "definition"], &rows)
}
