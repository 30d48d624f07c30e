//! Hand-made one-round games for the statistics tests, built directly as [`Game`] values so that
//! every figure they produce can be counted by hand. Each builder's doc says what happens.

use crate::hand::meld::MeldKind;
use crate::log::event::{Agari, Call, DrawKind, Event, Game, Player, Round, RoundDraw, RoundStart, Rules};
use crate::score::Limit;
use crate::tile::{parse_mpsz, TileId};

/// Hands out tile ids: the next unused copy of each kind, so no id repeats within a round.
pub struct Deal {
    next: [u8; 34],
}

impl Default for Deal {
    fn default() -> Deal {
        Deal { next: [0; 34] }
    }
}

impl Deal {
    pub fn one(&mut self, mpsz: &str) -> TileId {
        let v = self.many(mpsz);
        assert_eq!(v.len(), 1, "{mpsz}");
        v[0]
    }

    pub fn many(&mut self, mpsz: &str) -> Vec<TileId> {
        parse_mpsz(mpsz)
            .unwrap()
            .into_iter()
            .map(|t| {
                let k = t.kind();
                let copy = self.next[k];
                assert!(copy < 4, "a fifth copy of {t} in {mpsz}");
                self.next[k] += 1;
                TileId::new((k * 4) as u32 + copy as u32).unwrap()
            })
            .collect()
    }
}

/// Ippan hanchan without red fives (GO type 0x0B).
pub fn rules() -> Rules {
    Rules::tenhou(4, true, false)
}

fn game(id: &str, indicator: TileId, hands: [Vec<TileId>; 4], events: Vec<Event>) -> Game {
    Game {
        id: id.into(),
        rules: rules(),
        players: ["A", "B", "C", "D"].map(|n| Player { name: n.into(), ..Player::default() }),
        rounds: vec![Round {
            start: RoundStart {
                round: 0,
                honba: 0,
                sticks: 0,
                dice: [1, 1],
                dora_indicator: indicator,
                scores: [25_000; 4],
                dealer: 0,
                hands,
            },
            events,
        }],
        final_scores: None,
        final_results: None,
    }
}

fn draw(who: u8, tile: TileId) -> Event {
    Event::Draw { who, tile }
}
fn discard(who: u8, tile: TileId) -> Event {
    Event::Discard { who, tile }
}
fn riichi(who: u8, step: u8) -> Event {
    Event::Riichi { who, step, scores: None }
}

fn agari(who: u8, from_who: u8, win_tile: TileId, points: i32, before: [i32; 4], deltas: [i32; 4]) -> Event {
    Event::Agari(Box::new(Agari {
        who,
        from_who,
        pao_who: None,
        honba: 0,
        sticks: 0,
        hand: vec![],
        melds: vec![],
        win_tile,
        fu: 30,
        points,
        limit: Limit::None,
        yaku: vec![(1, 1)],
        yakuman: vec![],
        dora_indicators: vec![],
        ura_indicators: vec![],
        kita: vec![],
        scores_before: before,
        deltas,
    }))
}

/// Game A. Dealer (seat 0) riichi on 23m (waits 1m-4m exactly) after its second draw; at the
/// acceptance 2m is visible once (seat 1's river) and 3m three times (the dora indicator and the
/// rivers of seats 2 and 3): kabe bucket 3. Its first discard was 7m, the suji partner of 4m:
/// early partner = yes. Seat 1 then holds 1m 123p 456p 789p 11s 57s (tenpai after 1m: shanten 0,
/// its second draw) and discards 1m, a one-chance against seat 0 (3m seen 3 times, not 4), and
/// seat 0 rons it for 2000 (+1000 stick).
pub fn riichi_23m_wins() -> Game {
    let mut d = Deal::default();
    let indicator = d.one("3m");
    let hands = [
        d.many("23m456789p234s55z"),
        d.many("12m123456789p11s"),
        d.many("345689m1112226z"),
        d.many("345689m3334446z"),
    ];
    let (m7, s5, z7a, z7b, s9, s7) =
        (d.one("7m"), d.one("5s"), d.one("7z"), d.one("7z"), d.one("9s"), d.one("7s"));
    let m2 = hands[1][1];
    let m1 = hands[1][0];
    let m3a = hands[2][0];
    let m3b = hands[3][0];
    let events = vec![
        draw(0, m7),
        discard(0, m7),
        draw(1, s5),
        discard(1, m2),
        draw(2, z7a),
        discard(2, m3a),
        draw(3, z7b),
        discard(3, m3b),
        draw(0, s9),
        riichi(0, 1),
        discard(0, s9),
        riichi(0, 2),
        draw(1, s7),
        discard(1, m1),
        agari(0, 1, m1, 2000, [24_000, 25_000, 25_000, 25_000], [3000, -2000, 0, 0]),
    ];
    game("A", indicator, hands, events)
}

/// Game B. Dealer riichi on its first discard (2z) with 78s (waits 6s-9s exactly), no 7s or 8s
/// visible (bucket 0), partner 3s not discarded; the riichi does not win. Seat 1 draws 9s and
/// holds 2z 234m 567m 24p 68p 35s 9s (two-shanten) and discards 2z, genbutsu against seat 0;
/// seat 2 (not in riichi) rons it for 1000: no deal-in to a riichi player.
pub fn riichi_78s_loses() -> Game {
    let mut d = Deal::default();
    let indicator = d.one("9m");
    let hands = [
        d.many("123456m123p78s11z"),
        d.many("234567m2468p35s2z"),
        d.many("111222444s2266z"),
        d.many("3334445556677z"),
    ];
    let (z2, s9) = (d.one("2z"), d.one("9s"));
    let z2_seat1 = hands[1][12];
    let events = vec![
        draw(0, z2),
        riichi(0, 1),
        discard(0, z2),
        riichi(0, 2),
        draw(1, s9),
        discard(1, z2_seat1),
        agari(2, 1, z2_seat1, 1000, [24_000, 25_000, 25_000, 25_000], [0, -1000, 2000, 0]),
    ];
    game("B", indicator, hands, events)
}

/// Game C. Seat 2 pons seat 0's first discard (1z), discards 1s (tanki on 9m left), and after
/// one go-around draws 9m and wins by tsumo: 1100 in all (the dealer pays 500, the others 300).
/// No riichi.
pub fn pon_then_tsumo() -> Game {
    let mut d = Deal::default();
    let indicator = d.one("9p");
    let hands = [
        d.many("1z123m456m789m112p"),
        d.many("2345678p234567s"),
        d.many("11z234567s345p9m1s"),
        d.many("3334445556667z"),
    ];
    let z1 = hands[0][0];
    let (x0, x3, y0, y1, win) = (d.one("8s"), d.one("7z"), d.one("9s"), d.one("8m"), d.one("9m"));
    let pon = Call {
        kind: MeldKind::Pon,
        tiles: vec![hands[2][0], hands[2][1], z1],
        called: Some(z1),
        from: 2,
        added: None,
    };
    let s1 = hands[2][12];
    let events = vec![
        draw(0, x0),
        discard(0, z1),
        Event::Call { who: 2, call: pon },
        discard(2, s1),
        draw(3, x3),
        discard(3, x3),
        draw(0, y0),
        discard(0, y0),
        draw(1, y1),
        discard(1, y1),
        draw(2, win),
        agari(2, 2, win, 1100, [25_000; 4], [-500, -300, 1100, -300]),
    ];
    game("C", indicator, hands, events)
}

/// Game D. Seventy tsumogiri draws (the whole live wall) and an exhaustive draw with only the
/// dealer tenpai (+3000, the others -1000 each). No riichi, no call.
pub fn exhaustive_draw() -> Game {
    let ids: Vec<TileId> = (0..136).map(|i| TileId::new(i).unwrap()).collect();
    let hands = [0, 1, 2, 3].map(|s: usize| ids[s * 13..s * 13 + 13].to_vec());
    let indicator = ids[52];
    let mut events = Vec::new();
    for (i, &t) in ids[53..123].iter().enumerate() {
        let who = (i % 4) as u8;
        events.push(draw(who, t));
        events.push(discard(who, t));
    }
    events.push(Event::Ryuukyoku(Box::new(RoundDraw {
        kind: DrawKind::Exhaustive,
        honba: 0,
        sticks: 0,
        scores_before: [25_000; 4],
        deltas: [3000, -1000, -1000, -1000],
        shown: [Some(hands[0].clone()), None, None, None],
    })));
    game("D", indicator, hands, events)
}
