//! Bots: a discard evaluator ([`Evaluator`]) plus simple rules for wins, calls, riichi and
//! kans. The engine offers each seat only legal options ([`TurnOptions`], [`CallOptions`]) and
//! checks the answer, so a bot never needs to know the rules, only to choose.
//!
//! Policies:
//! - [`Policy::Standard`] (the bot named after its evaluator, e.g. `ukeire`): wins whenever it
//!   can; declares kyuushu kyuuhai whenever it can; riichi at once when tenpai with a closed hand
//!   (the tenpai discard the evaluator ranks best); pushes (only `ev` folds, see below); pon only a
//!   yakuhai pair (dragons, seat wind, round wind), no chi, no open kan (the `ev` bot: chi, pon
//!   and open kan by value as 電脳麻将 calls, [`crate::rank::calls`]); a closed kan when it
//!   does not raise shanten and the seat is not in riichi; an added kan whenever possible.
//! - [`Policy::Majiang`] (`majiang-0400`, `majiang-0401`, `majiang-0402`): 電脳麻将 as kobalab's
//!   players of seed 000's table (改善前, 改善(1), 改善(2)): every win; kyuushu at 4+ shanten; the
//!   discard by `ev` with that player's push/fold against riichi ([`MajiangRule`], danger levels of
//!   [`crate::rank::danger`]); riichi whenever the discard allows it; chi / pon / open kan by value
//!   ([`crate::rank::calls`], the players' riichi conditions); closed and added kans by value
//!   ([`crate::rank::calls::select_kan`]).
//! - [`Policy::Boten`] (`boten`): seed 003's 棒テン・即リー・全ツッパ bot, the `ukeire` evaluator
//!   (the seed's max-ukeire order) with [`crate::sim::boten`]'s rules: never calls or kans.
//! - [`Policy::Fitted`] (`fitted`): every modelled decision by the shipped models
//!   ([`super::fitted`]): discards by the trees, riichi by the riichi model, calls by the call
//!   model; wins, kyuushu and kans as the standard policy.
//! - [`Policy::Random`] (`random`): a uniformly random legal action at every question, as
//!   RiichiEnv's `RandomAgent` plays: the baseline of the arena's line-ups (docs/bot.md).
//! - [`Policy::Stress`] (`stress`): for engine tests, not a player model. Calls every legal
//!   chi / pon / open kan half of the time, every kan, riichi at once, kyuushu half of the time:
//!   it drives the engine through every rule path (kuikae, chankan, four kans, pao...).
//!
//! Every evaluator name is a bot (`ukeire`, `ev`, `yaku`, `linear`), resolved through clap's
//! `ValueEnum`. The `ev` bot re-ranks its discards with the push/fold layer
//! ([`crate::rank::push_fold`]) when an opponent's riichi is accepted: weak hands fold, good hands
//! push only safe tiles, excellent hands push anything. The `linear` bot loads the shipped weights
//! once and scores with the seat's full table view (rivers, riichi), as ingest does, so its safety
//! features let it fold on its own. Riichi, calls and kans follow the policy.

use clap::ValueEnum;

use crate::eval::Ranker;
use crate::hand::shanten::min_shanten;
use crate::rank::calls::{select_call, select_kan, CallCandidate, CallRule, OwnKan};
use crate::rank::push_fold::{majiang_choice, MajiangRule};
use crate::rank::Evaluator;
use crate::replay::rules::{CallOptions, TurnOptions};
use crate::replay::table::{RiichiState, Table};
use crate::replay::view::{view_of, View};
use crate::tile::{Kind, TileId};

/// A seat's choice on its own turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnAction {
    Tsumo,
    Kyuushu,
    Ankan(Kind),
    Kakan(Kind),
    /// Declare riichi with this discard.
    Riichi(TileId),
    Discard(TileId),
    /// Set this north aside (three players; [`TurnOptions::kita`]).
    Kita(TileId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallAction {
    Pass,
    Ron,
    Pon([TileId; 2]),
    Daiminkan,
    Chi([TileId; 2]),
}

/// One seat's view when deciding. Bots read only their own hand and public information from
/// the table (the table holds every hand; the engine trusts its bots not to look).
pub struct Seat<'a> {
    pub table: &'a Table,
    pub who: u8,
    /// A random number the engine draws for this decision (from the game's seed), for bots that
    /// randomise; deterministic for a given seed.
    pub random: u64,
}

impl Seat<'_> {
    /// What the seat sees, built as ingest builds it ([`view_of`]).
    pub fn view(&self) -> View {
        view_of(self.table, self.who, self.table.hand_tiles(self.who))
    }

    pub fn in_riichi(&self) -> bool {
        self.table.riichi[self.who as usize] != RiichiState::None
    }
}

/// A player. `Sync` so one bot serves many games in parallel; decisions take `&self` and must
/// depend only on their arguments, which keeps games deterministic for a seed.
pub trait Bot: Sync {
    fn name(&self) -> &str;
    fn turn(&self, seat: &Seat, options: &TurnOptions) -> TurnAction;
    fn call(&self, seat: &Seat, options: &CallOptions) -> CallAction;
}

/// Call / riichi / kan rules around the evaluator (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Standard,
    Stress,
    /// A uniformly random legal action ([`RANDOM`]).
    Random,
    /// 電脳麻将 as a player, one of kobalab's players 0400 / 0401 / 0402 ([`MajiangRule`]):
    /// discards by `ev` with that player's push/fold, calls by value ([`crate::rank::calls`]).
    Majiang(MajiangRule),
    Boten,
    /// The shipped models decide ([`super::fitted`]): discards by the ranker, riichi and calls by
    /// [`EvalBot::fitted`]'s models.
    Fitted,
}

/// A bot = an evaluator for discards + a policy for everything else.
#[derive(Clone, Debug)]
pub struct EvalBot {
    pub name: String,
    pub policy: Policy,
    /// The evaluator made ready once (`linear`'s weights loaded once per run, shared by clones).
    pub ranker: Ranker,
    /// The evaluator at a three-player table, where it differs: `linear` with the three-player
    /// weights (`sanma.json` beside the weights, or the shipped ones).
    pub three: Option<Ranker>,
    /// The riichi and call models of the `fitted` player ([`Policy::Fitted`]).
    pub fitted: Option<std::sync::Arc<super::fitted::FittedModels>>,
}

/// Seed 003's bot ([`super::boten`]): the `ukeire` evaluator under [`Policy::Boten`].
pub const BOTEN: &str = "boten";

/// The player of every decision by the shipped models ([`Policy::Fitted`], [`super::fitted`]).
pub const FITTED: &str = "fitted";

/// The random baseline ([`Policy::Random`]).
pub const RANDOM: &str = "random";

/// Unknown bot name, or a bot whose evaluator cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown bot {name:?} (known: {known})")]
pub struct UnknownBot {
    pub name: String,
    pub known: String,
}

/// Bot names: every evaluator name (standard policy), and `stress`.
pub fn bot_names() -> Vec<String> {
    let mut v: Vec<String> = Evaluator::value_variants()
        .iter()
        .filter_map(|e| e.to_possible_value().map(|p| p.get_name().to_string()))
        .collect();
    v.push("stress".into());
    v.extend(MAJIANG_BOTS.iter().map(|(n, _)| n.to_string()));
    v.push(BOTEN.into());
    v.push(RANDOM.into());
    v.push(FITTED.into());
    v
}

/// The 電脳麻将 players of seed 000's table, by majiang-ai's player numbers: 改善前 (0400),
/// 改善(1) (0401), 改善(2) (0402, the seed's rule).
pub const MAJIANG_BOTS: [(&str, MajiangRule); 3] = [
    ("majiang-0400", MajiangRule::Before),
    ("majiang-0401", MajiangRule::Improved1),
    ("majiang-0402", MajiangRule::Improved2),
];

/// Whether the player named `name` plays at a three-player table. 電脳麻将's players
/// (`majiang-0400`..`0402`) and `ev` decide by 電脳麻将's expected value, a four-player search
/// (its wall, payments and opponents are four-player ones), and `trees` ranks with a model
/// fitted on four-player games: run at three they would give a four-player judgement, so the
/// mjai bot and self-play refuse them there, as `haifu eval` refuses them on 3-player decisions.
/// The others rank with the hand and the 108-tile set as seen (`linear` with its three-player
/// weights).
pub fn plays_three(name: &str) -> bool {
    let four_only = MAJIANG_BOTS.iter().any(|(n, _)| *n == name)
        || [Evaluator::Ev, Evaluator::Trees].iter().any(|e| e.name() == name)
        || name == FITTED;
    !four_only
}

/// A bot by name: an evaluator name gives that evaluator with the standard policy.
pub fn parse_bot(name: &str) -> Result<EvalBot, UnknownBot> {
    parse_bot_with(name, None)
}

/// [`parse_bot`] with the `linear` bot's weights file (`None`: the shipped one).
pub fn parse_bot_with(name: &str, weights: Option<&std::path::Path>) -> Result<EvalBot, UnknownBot> {
    let name = name.trim();
    if let Some(&(_, rule)) = MAJIANG_BOTS.iter().find(|(n, _)| *n == name) {
        return Ok(EvalBot {
            name: name.into(),
            policy: Policy::Majiang(rule),
            ranker: Ranker::Plain(Evaluator::Ev),
            three: None,
            fitted: None,
        });
    }
    if name == "stress" {
        return Ok(EvalBot {
            name: name.into(),
            policy: Policy::Stress,
            ranker: Ranker::Plain(Evaluator::Ukeire),
            three: None,
            fitted: None,
        });
    }
    if name == RANDOM {
        return Ok(EvalBot {
            name: name.into(),
            policy: Policy::Random,
            ranker: Ranker::Plain(Evaluator::Ukeire),
            three: None,
            fitted: None,
        });
    }
    if name == FITTED {
        let fail = |e: super::fitted::FittedError| UnknownBot {
            name: name.into(),
            known: format!("{} ({FITTED}: {e:#})", bot_names().join(", ")),
        };
        let (ranker, models) = super::fitted::load(weights).map_err(fail)?;
        return Ok(EvalBot {
            name: name.into(),
            policy: Policy::Fitted,
            ranker,
            three: None,
            fitted: Some(std::sync::Arc::new(models)),
        });
    }
    if name == BOTEN {
        return Ok(EvalBot {
            name: name.into(),
            policy: Policy::Boten,
            ranker: Ranker::Plain(Evaluator::Ukeire),
            three: None,
            fitted: None,
        });
    }
    match Evaluator::from_str(name, true) {
        Ok(evaluator) => {
            let fail = |e: crate::eval::error::EvalError| UnknownBot {
                name: name.into(),
                known: format!("{} ({}: {e:#})", bot_names().join(", "), evaluator.name()),
            };
            let ranker = Ranker::new(evaluator, weights).map_err(fail)?;
            let three = match evaluator {
                Evaluator::Linear => {
                    let beside = weights.and_then(|w| w.parent()).map(|d| d.join("sanma.json"));
                    let path = beside
                        .filter(|p| p.exists())
                        .unwrap_or_else(crate::model::weights::default_sanma_path);
                    Some(Ranker::new(evaluator, Some(&path)).map_err(fail)?)
                }
                _ => None,
            };
            Ok(EvalBot { name: name.into(), policy: Policy::Standard, ranker, three, fitted: None })
        }
        Err(_) => Err(UnknownBot { name: name.into(), known: bot_names().join(", ") }),
    }
}

impl EvalBot {
    /// The evaluator's best option among `allowed` ids (a Tile ranked by the evaluator maps to
    /// the first allowed id showing that tile, red fives kept apart).
    fn best_of(&self, seat: &Seat, allowed: &[TileId]) -> Option<TileId> {
        let red = seat.table.rules.red_fives();
        let mut view = seat.view();
        // The bots have always ranked without knowing which tile was just drawn (the `ev`
        // tie-break and the `vis_tsumogiri` column then see none): kept so self-play stays
        // byte-identical; giving it to them is a value change of its own.
        view.drawn = None;
        let ranker = match (&self.three, seat.table.rules.players) {
            (Some(three), 3) => three,
            _ => &self.ranker,
        };
        let mut ranked = ranker.rank(&view).unwrap_or_default();
        // The ev bot plays 電脳麻将's push/fold by hand value against a riichi.
        if self.ranker.evaluator() == Evaluator::Ev {
            ranked = crate::rank::push_fold::push_fold(
                &view,
                ranked,
                &crate::rank::push_fold::Thresholds::default(),
            );
        }
        ranked
            .iter()
            .find_map(|r| allowed.iter().copied().find(|id| id.tile(red) == r.tile))
            .or_else(|| allowed.first().copied())
    }

    /// Whether to declare riichi when some discard allows it: at once, except for the `fitted`
    /// player, whose riichi model decides.
    fn declares_riichi(&self, seat: &Seat) -> bool {
        match (&self.policy, &self.fitted) {
            (Policy::Fitted, Some(m)) => m.riichi(seat.table, seat.who),
            _ => true,
        }
    }

    /// The `fitted` player's answer to a discard it may call (ron is taken before): the call
    /// model's pick.
    fn fitted_call(&self, seat: &Seat, o: &CallOptions) -> CallAction {
        use crate::replay::decision::Action;
        let Some(m) = &self.fitted else { return CallAction::Pass };
        match m.call(seat.table, seat.who, o) {
            Some((Action::Pon(_), Some(ids))) => CallAction::Pon(ids),
            Some((Action::Chi(_), Some(ids))) => CallAction::Chi(ids),
            Some((Action::Daiminkan, _)) => CallAction::Daiminkan,
            _ => CallAction::Pass,
        }
    }

    /// A closed kan that does not raise shanten (compared with the best discard now).
    fn good_ankan(seat: &Seat, kinds: &[Kind]) -> Option<Kind> {
        let counts = seat.table.hand_counts(seat.who);
        let now = min_shanten(&counts);
        kinds.iter().copied().find(|&k| {
            let mut c = counts;
            c[k] -= 4;
            min_shanten(&c) <= now
        })
    }
}

impl Bot for EvalBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn turn(&self, seat: &Seat, o: &TurnOptions) -> TurnAction {
        let coin = seat.random & 1 == 0;
        if o.tsumo {
            return TurnAction::Tsumo;
        }
        if self.policy == Policy::Random {
            return random_turn(seat, o);
        }
        // A north set aside is a dora and a free draw: every policy but the random one takes it
        // (Houou players set aside 6,547 of the 7,977 norths they could, docs/sanma.md).
        if let Some(north) = o.kita {
            return TurnAction::Kita(north);
        }
        if let Policy::Majiang(rule) = self.policy {
            return majiang_turn(seat, o, rule);
        }
        match self.policy {
            Policy::Boten => {}
            Policy::Standard | Policy::Fitted => {
                if o.kyuushu {
                    return TurnAction::Kyuushu;
                }
                if let Some(&k) = o.kakan.first() {
                    return TurnAction::Kakan(k);
                }
                if !seat.in_riichi() {
                    if let Some(k) = Self::good_ankan(seat, &o.ankan) {
                        return TurnAction::Ankan(k);
                    }
                }
            }
            Policy::Majiang(_) | Policy::Random => unreachable!("handled above"),
            Policy::Stress => {
                if o.kyuushu && coin {
                    return TurnAction::Kyuushu;
                }
                if let Some(&k) = o.kakan.first() {
                    return TurnAction::Kakan(k);
                }
                if let Some(&k) = o.ankan.first() {
                    return TurnAction::Ankan(k);
                }
            }
        }
        if !o.riichi.is_empty() && self.declares_riichi(seat) {
            if let Some(t) = self.best_of(seat, &o.riichi) {
                return TurnAction::Riichi(t);
            }
        }
        match self.best_of(seat, &o.discards) {
            Some(t) => TurnAction::Discard(t),
            // No discard offered cannot happen on a legal turn; tsumogiri keeps the engine going
            // and the engine rejects it if it is illegal.
            None => TurnAction::Discard(seat.table.hands[seat.who as usize][0]),
        }
    }

    fn call(&self, seat: &Seat, o: &CallOptions) -> CallAction {
        if self.policy == Policy::Random {
            return random_call(seat, o);
        }
        if o.ron {
            return CallAction::Ron;
        }
        if let Policy::Majiang(_) = self.policy {
            return majiang_call(seat, o);
        }
        match self.policy {
            Policy::Boten => CallAction::Pass,
            Policy::Fitted => self.fitted_call(seat, o),
            // The `ev` bot is 電脳麻将's discard evaluator, so it calls as 電脳麻将 does.
            Policy::Standard if self.ranker.evaluator() == Evaluator::Ev => majiang_call(seat, o),
            Policy::Standard => {
                let Some((_, tile)) = o.tile else { return CallAction::Pass };
                let pair = seat.table.hand_counts(seat.who)[tile.kind()] == 2;
                match o.pon.first() {
                    Some(&p) if pair && seat.view().is_yakuhai(tile.kind()) => CallAction::Pon(p),
                    _ => CallAction::Pass,
                }
            }
            Policy::Majiang(_) | Policy::Random => CallAction::Pass,
            Policy::Stress => {
                let r = seat.random;
                if r % 2 == 0 {
                    return CallAction::Pass;
                }
                if o.daiminkan && r % 3 == 0 {
                    return CallAction::Daiminkan;
                }
                if let Some(&p) = o.pon.first() {
                    return CallAction::Pon(p);
                }
                if !o.chi.is_empty() {
                    return CallAction::Chi(o.chi[(r / 7) as usize % o.chi.len()]);
                }
                if o.daiminkan {
                    return CallAction::Daiminkan;
                }
                CallAction::Pass
            }
        }
    }
}

/// One of the turn's legal actions, uniformly at random. A discard or riichi counts once per
/// tile held, as RiichiEnv's `RandomAgent` lists them (two copies: twice as likely).
fn random_turn(seat: &Seat, o: &TurnOptions) -> TurnAction {
    let mut all: Vec<TurnAction> = Vec::new();
    if o.tsumo {
        all.push(TurnAction::Tsumo);
    }
    if o.kyuushu {
        all.push(TurnAction::Kyuushu);
    }
    all.extend(o.ankan.iter().map(|&k| TurnAction::Ankan(k)));
    all.extend(o.kakan.iter().map(|&k| TurnAction::Kakan(k)));
    all.extend(o.riichi.iter().map(|&t| TurnAction::Riichi(t)));
    all.extend(o.kita.map(TurnAction::Kita));
    all.extend(o.discards.iter().map(|&t| TurnAction::Discard(t)));
    match all.len() {
        0 => TurnAction::Discard(seat.table.hands[seat.who as usize][0]),
        n => all[(seat.random % n as u64) as usize],
    }
}

/// One of the call's legal answers (passing included), uniformly at random.
fn random_call(seat: &Seat, o: &CallOptions) -> CallAction {
    let mut all = vec![CallAction::Pass];
    if o.ron {
        all.push(CallAction::Ron);
    }
    all.extend(o.pon.iter().map(|&p| CallAction::Pon(p)));
    if o.daiminkan {
        all.push(CallAction::Daiminkan);
    }
    all.extend(o.chi.iter().map(|&p| CallAction::Chi(p)));
    all[(seat.random % all.len() as u64) as usize]
}

/// A 電脳麻将 player's turn (the tsumo is taken before): kyuushu kyuuhai at 4+ shanten; a kan by
/// value ([`select_kan`]); the discard by [`majiang_choice`] under `rule`; riichi whenever the
/// chosen discard allows it.
fn majiang_turn(seat: &Seat, o: &TurnOptions, rule: MajiangRule) -> TurnAction {
    let red = seat.table.rules.red_fives();
    let view = seat.view();
    let shanten = min_shanten(&view.hand_counts());
    if o.kyuushu && shanten >= 4 {
        return TurnAction::Kyuushu;
    }
    let mut kans: Vec<OwnKan> = o.ankan.iter().map(|&k| OwnKan::Closed(k)).collect();
    let hand = &view.hand;
    kans.extend(
        o.kakan.iter().filter_map(|&k| hand.iter().find(|t| t.kind() == k).map(|&t| OwnKan::Added(t))),
    );
    if let Some(i) = select_kan(&view, &kans) {
        return match kans[i] {
            OwnKan::Closed(k) => TurnAction::Ankan(k),
            OwnKan::Added(t) => TurnAction::Kakan(t.kind()),
        };
    }
    let legal: Vec<crate::tile::Tile> = o.discards.iter().map(|id| id.tile(red)).collect();
    let pick = majiang_choice(&view, &legal, rule)
        .and_then(|t| o.discards.iter().copied().find(|id| id.tile(red) == t))
        .unwrap_or(o.discards[0]);
    if o.riichi.contains(&pick) {
        TurnAction::Riichi(pick)
    } else {
        TurnAction::Discard(pick)
    }
}

/// A 電脳麻将 player's answer to a discard (ron is taken before): the offered open kan, pons and
/// chis as [`CallCandidate`]s, chosen by [`select_call`] with the conditions of players 0400 to
/// 0402 against a riichi.
fn majiang_call(seat: &Seat, o: &CallOptions) -> CallAction {
    use crate::hand::meld::{Meld, MeldKind};
    let Some((from, offered)) = o.tile else { return CallAction::Pass };
    let red = seat.table.rules.red_fives();
    let rel = (from + 4 - seat.who) % 4;
    let tile = offered.tile(red);
    let candidate = |kind: MeldKind, ids: &[TileId]| {
        let from_hand: Vec<crate::tile::Tile> = ids.iter().map(|id| id.tile(red)).collect();
        let mut all = from_hand.clone();
        all.push(tile);
        CallCandidate {
            meld: Meld::new(kind, &all, Some(tile), if kind == MeldKind::Chi { 3 } else { rel }),
            from_hand,
        }
    };
    let mut actions = Vec::new();
    let mut cands = Vec::new();
    if o.daiminkan {
        let ids: Vec<TileId> =
            seat.table.hands[seat.who as usize].iter().copied().filter(|t| t.kind() == tile.kind()).collect();
        cands.push(candidate(MeldKind::Daiminkan, &ids));
        actions.push(CallAction::Daiminkan);
    }
    for p in &o.pon {
        cands.push(candidate(MeldKind::Pon, p));
        actions.push(CallAction::Pon(*p));
    }
    for c in &o.chi {
        cands.push(candidate(MeldKind::Chi, c));
        actions.push(CallAction::Chi(*c));
    }
    let mut view = seat.view();
    view.drawn = None;
    match select_call(&view, &cands, CallRule::Legacy) {
        Some(i) => actions[i],
        None => CallAction::Pass,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluator_names_are_bot_names() {
        let b = parse_bot("ukeire").unwrap();
        assert_eq!((b.ranker.evaluator(), b.policy), (Evaluator::Ukeire, Policy::Standard));
        assert_eq!(parse_bot("stress").unwrap().policy, Policy::Stress);
        let e = parse_bot("nobody").unwrap_err();
        assert!(e.to_string().contains("ukeire"), "{e}");
        assert!(bot_names().contains(&"ukeire".to_string()));
    }
}
