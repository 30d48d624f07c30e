//! Seed 003's bot, exactly: 棒テン・即リー・全ツッパ (nisi5028, 麻雀AI製作その5).
//!
//! The seed's rules, one by one, and where each lives:
//! - the discard keeps the shanten and maximises the unseen first-order effective tiles (own hand
//!   and the table subtracted), ties broken guest wind → yakuhai → 1/9 → 2/8 → 3/7 → 4/6 → 5 →
//!   dora: exactly the `ukeire` evaluator ([`crate::rank::max_ukeire`]), so the bot uses it;
//! - 手役は全く見ない: no chi, no pon, no kan (open or closed), no kyuushu (the seed's game had none
//!   of them when the bot was written: 暗槓もまだできていない);
//! - 聴牌したら即リーチ: riichi on the first tenpai with a closed hand (always closed: it never
//!   calls), the tenpai discard the evaluator ranks best;
//! - 全ツッパ: the same discard rule whatever the opponents do (the `ukeire` evaluator never looks
//!   at danger), and it wins (ron or tsumo) whenever it may.
//!
//! Today's `ukeire` bot differs only in its calls: it pons yakuhai pairs, kans, and declares
//! kyuushu. The policy switch itself is [`super::bots::Policy::Boten`] in the bots module (two match arms).

use super::bots::{parse_bot, EvalBot, BOTEN};

/// The bot's name on the command line (`--bots boten`).
pub const NAME: &str = BOTEN;

/// The seed 003 bot (`parse_bot("boten")`).
pub fn bot() -> EvalBot {
    parse_bot(NAME).expect("boten is a known bot")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::event::{Event, Player};
    use crate::rank::Evaluator;
    use crate::sim::bots::{Bot, Policy};
    use crate::sim::engine::{play_game, GameSpec};

    fn game(seed: u64, bots: [&EvalBot; 4]) -> crate::log::event::Game {
        let p = |n: &str| Player { name: n.into(), dan: None, rate: None, sex: None };
        let spec = GameSpec {
            id: format!("boten-{seed}"),
            seed,
            hanchan: false,
            players: bots.map(|b| p(&b.name)),
            seats: 4,
        };
        let refs: [&dyn Bot; 4] = bots.map(|b| b as &dyn Bot);
        play_game(&spec, refs).expect("the engine plays the seed bot")
    }

    /// Over several games: the seed bot never calls or kans and does declare riichi; the ukeire
    /// bot on the same walls does call (the variant changes something).
    #[test]
    fn never_calls_and_riichis_at_once_while_ukeire_calls() {
        let b = parse_bot(NAME).expect("a known bot");
        assert_eq!((b.ranker.evaluator(), b.policy), (Evaluator::Ukeire, Policy::Boten));
        let u = parse_bot("ukeire").unwrap();
        let (mut riichi, mut ukeire_calls) = (0, 0);
        for seed in 0..6 {
            for round in &game(seed, [&b, &b, &b, &b]).rounds {
                for e in &round.events {
                    assert!(!matches!(e, Event::Call { .. }), "seed {seed}: the seed bot called: {e:?}");
                    riichi += usize::from(matches!(e, Event::Riichi { step: 1, .. }));
                }
            }
            let g = game(seed, [&u, &u, &u, &u]);
            ukeire_calls +=
                g.rounds.iter().flat_map(|r| &r.events).filter(|e| matches!(e, Event::Call { .. })).count();
        }
        assert!(riichi > 10, "{riichi} riichi in 6 tonpuu");
        assert!(ukeire_calls > 0, "the ukeire bot made no call on the same walls");
    }
}
