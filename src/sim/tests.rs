//! End-to-end tests of the engine: games written as mjlog, read back by the real reader,
//! replayed and re-scored.

use super::bots::{parse_bot, Bot, EvalBot};
use super::engine::{play_game, GameSpec};
use crate::log::event::{DrawKind, Event, Game, Player};
use crate::log::mjlog::write::write_mjlog;
use crate::replay::check::Rescore;
use crate::replay::replay_game;

fn players(names: [&str; 4]) -> [Player; 4] {
    names.map(|n| Player { name: n.into(), dan: Some(0), rate: Some(1500.0), sex: Some("C".into()) })
}

fn play(seed: u64, hanchan: bool, bots: &[EvalBot; 4]) -> Game {
    let spec = GameSpec {
        id: format!("sim-{seed}"),
        seed,
        hanchan,
        seats: 4,
        players: players([&bots[0].name, &bots[1].name, &bots[2].name, &bots[3].name]),
    };
    let refs: [&dyn Bot; 4] = [&bots[0], &bots[1], &bots[2], &bots[3]];
    play_game(&spec, refs).unwrap_or_else(|e| panic!("{e}"))
}

/// Writes, reads back with the real reader, checks the events survive unchanged, replays with
/// re-scoring. Returns the number of wins re-scored.
fn round_trip(game: &Game) -> usize {
    let xml = write_mjlog(game, "test").unwrap();
    let back = crate::log::source::parse_game(&format!("{}.mjlog", game.id), xml.as_bytes())
        .unwrap_or_else(|e| panic!("{}: {e}", game.id));
    assert_eq!(back.rules, game.rules);
    assert_eq!(back.players, game.players);
    assert_eq!(back.final_scores, game.final_scores);
    assert_eq!(back.final_results, game.final_results);
    assert_eq!(back.rounds.len(), game.rounds.len());
    for (ri, (a, b)) in back.rounds.iter().zip(&game.rounds).enumerate() {
        assert_eq!(a.start, b.start, "{} round {ri}: start differs after the round trip", game.id);
        assert_eq!(a.events.len(), b.events.len(), "{} round {ri}", game.id);
        for (ei, (x, y)) in a.events.iter().zip(&b.events).enumerate() {
            assert_eq!(x, y, "{} round {ri} event {ei} differs after the round trip", game.id);
        }
    }
    let mut checker = Rescore::default();
    let s = replay_game(&back, &mut (), &mut checker).unwrap_or_else(|e| panic!("{}: {e}", game.id));
    assert!(s.mismatches.is_empty(), "{}: {:?}", game.id, s.mismatches);
    assert_eq!(checker.scored, s.agari);
    // Final scores add up to the start plus nothing (sticks end with the top player).
    assert_eq!(game.final_scores.unwrap().iter().sum::<i32>(), 100_000, "{}", game.id);
    s.agari
}

#[test]
fn twenty_ukeire_hanchan_read_back_with_no_error_and_no_mismatch() {
    let b = parse_bot("ukeire").unwrap();
    let bots = [b.clone(), b.clone(), b.clone(), b];
    let mut wins = 0;
    let mut rounds = 0;
    for seed in 0..20 {
        let g = play(seed, true, &bots);
        // A hanchan has at least 8 rounds unless someone busts.
        assert!(g.rounds.len() >= 8 || g.final_scores.unwrap().iter().any(|&s| s < 0), "{}", g.rounds.len());
        rounds += g.rounds.len();
        wins += round_trip(&g);
    }
    assert!(wins > rounds / 2, "{wins} wins in {rounds} rounds");
}

#[test]
fn same_seed_same_file() {
    let b = parse_bot("ukeire").unwrap();
    let bots = [b.clone(), b.clone(), b.clone(), b];
    let a = write_mjlog(&play(7, false, &bots), "x").unwrap();
    let b2 = write_mjlog(&play(7, false, &bots), "x").unwrap();
    assert_eq!(a, b2);
    let c = write_mjlog(&play(8, false, &bots), "x").unwrap();
    assert_ne!(a, c);
}

/// Counts of event kinds over many games, to prove the rare paths are reached.
#[derive(Default, Debug)]
struct Seen {
    games: usize,
    rounds: usize,
    wins: usize,
    double_ron: usize,
    chankan: usize,
    rinshan_draws: usize,
    ankan: usize,
    kakan: usize,
    daiminkan: usize,
    chi: usize,
    pon: usize,
    riichi: usize,
    pao: usize,
    draws: std::collections::BTreeMap<String, usize>,
}

impl Seen {
    fn add(&mut self, g: &Game) {
        use crate::hand::meld::MeldKind;
        self.games += 1;
        for r in &g.rounds {
            self.rounds += 1;
            let mut prev_agari = false;
            for (i, e) in r.events.iter().enumerate() {
                match e {
                    Event::Agari(a) => {
                        self.wins += 1;
                        self.double_ron += usize::from(prev_agari);
                        self.pao += usize::from(a.pao_who.is_some());
                        let kakan_before = i > 0
                            && matches!(&r.events[i - 1], Event::Call { call, .. } if call.kind == MeldKind::Kakan);
                        let dora_kakan = i > 1
                            && matches!(&r.events[i - 1], Event::NewDora { .. })
                            && matches!(&r.events[i - 2], Event::Call { call, .. } if call.kind == MeldKind::Kakan);
                        self.chankan += usize::from((kakan_before || dora_kakan) && a.who != a.from_who);
                    }
                    Event::Ryuukyoku(d) => *self.draws.entry(format!("{:?}", d.kind)).or_default() += 1,
                    Event::Call { call, .. } => match call.kind {
                        MeldKind::Chi => self.chi += 1,
                        MeldKind::Pon => self.pon += 1,
                        MeldKind::Daiminkan => self.daiminkan += 1,
                        MeldKind::Kakan => self.kakan += 1,
                        MeldKind::Ankan => self.ankan += 1,
                    },
                    Event::Riichi { step: 2, .. } => self.riichi += 1,
                    _ => {}
                }
                prev_agari = matches!(e, Event::Agari(_));
            }
            self.rinshan_draws += r
                .events
                .windows(2)
                .filter(|w| matches!(w[0], Event::Call { ref call, .. } if call.kind.is_kan()))
                .count();
        }
    }
}

/// 200 tonpuu games with stress bots (they call everything) and 40 with ukeire bots: every game
/// reads back and re-scores cleanly, and the rare rule paths are all reached.
#[test]
fn stress_tonpuu_games_reach_every_rule_path() {
    let s = parse_bot("stress").unwrap();
    let u = parse_bot("ukeire").unwrap();
    let mixes = [[s.clone(), s.clone(), s.clone(), s.clone()], [s.clone(), u.clone(), s.clone(), u.clone()]];
    let mut seen = Seen::default();
    for seed in 0..240u64 {
        let bots = &mixes[(seed % 2) as usize];
        let g = play(1000 + seed, false, bots);
        round_trip(&g);
        seen.add(&g);
    }
    eprintln!("{seen:#?}");
    assert!(seen.chi > 100 && seen.pon > 100 && seen.riichi > 100, "{seen:?}");
    assert!(seen.ankan > 0 && seen.kakan > 0 && seen.daiminkan > 0, "{seen:?}");
    assert!(seen.double_ron > 0 && seen.chankan > 0, "{seen:?}");
    let abortive: usize = ["Kan4", "Kaze4", "Reach4", "Ron3"].iter().filter_map(|k| seen.draws.get(*k)).sum();
    assert!(abortive > 0, "{seen:?}");
    for kind in [DrawKind::Exhaustive, DrawKind::Yao9] {
        assert!(seen.draws.contains_key(&format!("{kind:?}")), "{kind:?} never seen: {seen:?}");
    }
}

/// The 電脳麻将 bots play whole hanchan that read back and re-score cleanly, and they call by
/// value: chis happen (the standard policy never chis) and pons other than yakuhai pairs.
#[test]
fn majiang_bots_read_back_and_call_by_value() {
    use crate::hand::meld::MeldKind;
    let names = ["majiang-0402", "majiang-0400", "majiang-0401", "majiang-0400"];
    let bots: [EvalBot; 4] = names.map(|n| parse_bot(n).unwrap());
    let (mut chi, mut plain_pon, mut wins) = (0, 0, 0);
    for seed in 0..2 {
        let game = play(100 + seed, true, &bots);
        wins += round_trip(&game);
        for e in game.rounds.iter().flat_map(|r| &r.events) {
            if let Event::Call { call, .. } = e {
                chi += usize::from(call.kind == MeldKind::Chi);
                plain_pon += usize::from(call.kind == MeldKind::Pon && call.tiles[0].kind() < 27);
            }
        }
    }
    assert!(wins > 0);
    assert!(chi > 0 && plain_pon > 0, "chi {chi}, suited pons {plain_pon}");
}

/// The `ev` bot calls as 電脳麻将 does (rank::calls), not by the standard policy's yakuhai pons:
/// four of them chi and pon suited tiles, and their games read back and re-score.
#[test]
fn ev_bots_call_by_value() {
    use crate::hand::meld::MeldKind;
    let bots: [EvalBot; 4] = ["ev", "ev", "ev", "ev"].map(|n| parse_bot(n).unwrap());
    let game = play(7, true, &bots);
    round_trip(&game);
    let calls: Vec<MeldKind> = game
        .rounds
        .iter()
        .flat_map(|r| &r.events)
        .filter_map(|e| match e {
            Event::Call { call, .. } if call.tiles[0].kind() < 27 => Some(call.kind),
            _ => None,
        })
        .collect();
    assert!(calls.contains(&MeldKind::Chi) && calls.contains(&MeldKind::Pon), "{calls:?}");
}
