//! What the table is: the rules a game is played under, as one plain value.
//!
//! Every reader builds [`Rules`] from what its record states (mjlog's GO type bits, tenhou.net/6's
//! `rule`, mjai's `start_game`, 電脳麻将's paipu); self-play, the bot and Python start from a named
//! preset ([`Rules::preset`]). Everything downstream asks the value (the seat count, the start
//! and return scores, the uma, the scoring options), never a platform's bit field: GO type bits
//! are decoded and encoded here, nowhere else, so a second platform is a second constructor, not
//! a search through the code.

/// Tenhou table level, from the GO `type` bits 0x20 and 0x80.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TableLevel {
    /// 一般
    Ippan,
    /// 上級
    Joukyuu,
    /// 特上
    Tokujou,
    /// 鳳凰
    Houou,
}

impl TableLevel {
    pub fn name(self) -> &'static str {
        match self {
            TableLevel::Ippan => "ippan",
            TableLevel::Joukyuu => "joukyuu",
            TableLevel::Tokujou => "tokujou",
            TableLevel::Houou => "houou",
        }
    }
}

/// The most seats a table has: arrays indexed by seat are this long, and a 3-player game leaves
/// the last entry unused. Loops over seats ask [`Rules::seats`].
pub const MAX_SEATS: usize = 4;

/// The seat wind (a wind kind, 27 = East) of `seat` when `dealer` deals at a table of `players`
/// seats: East for the dealer, then South, West (and North at four) around the seats that play.
/// At three players the winds go round three seats (Tenhou's seat-wind yaku 10..12 match
/// `(who - dealer) mod 3`, docs/sanma.md), so a four-seat `mod 4` would name West where the
/// seat is South. The one definition [`crate::replay::table::Table::seat_wind`] and the
/// `decisions` table's readers share.
pub fn seat_wind(players: u8, seat: u8, dealer: u8) -> usize {
    let n = players.max(1);
    27 + usize::from((seat % n + n - dealer % n) % n)
}

/// The rules a game was played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rules {
    /// Seats at the table: 4, or 3 (sanma).
    pub players: u8,
    /// Hanchan (East + South) rather than tonpuu (East only).
    pub hanchan: bool,
    /// The record states the game's length (mjlog's GO type, tenhou.net/6's `rule`). mjai does
    /// not: its reader guesses `hanchan` from the rounds, and the end rule then accepts either
    /// length ([`crate::replay::ending`]).
    pub length_stated: bool,
    /// Every seat's score at the start (Tenhou: 25,000; 35,000 at three players).
    pub start_score: i32,
    /// The score placements are paid from (返し, "return": 30,000; 40,000 at three players). It
    /// is also the score the last round must see for the game to end. The first place's oka is
    /// `(return - start) × players` ([`Rules::oka`]).
    pub return_score: i32,
    /// Uma in thousands of points by placement, 1st to last (`uma[p - 1]`; entries past the seat
    /// count are 0). The first place's is implied (minus the others' sum, oka included); it is
    /// kept for people.
    pub uma: [i32; MAX_SEATS],
    /// Another uma some records of this table were played with (Tenhou's East-only games of 2008:
    /// 5/−5/−10), accepted when the stated result fits it and not the first.
    pub uma_alt: Option<[i32; MAX_SEATS]>,
    /// Whether the start, return and uma above are the ones the game was played with. A lobby's
    /// own rule (Tenhou's chip, ratio and other rule bits above 0xFF of the GO type) sets its
    /// own, which its record does not spell out: then the start must only give every seat the
    /// same score, the end is the record's own, and only the final scores are compared.
    pub result_known: bool,
    /// Red fives per suit (m, p, s). Tenhou ids hold at most one per suit (copy 0).
    pub red: [u8; 3],
    /// Open tanyao allowed (クイタン).
    pub kuitan: bool,
    /// 4 han 30 fu and 3 han 60 fu are rounded up to mangan (切り上げ満貫).
    pub kiriage_mangan: bool,
    /// Suuankou tanki, junsei chuuren, kokushi 13-wait and daisuushii count as two yakuman.
    pub double_yakuman: bool,
    /// 13 han or more is a yakuman (数え役満).
    pub kazoe_yakuman: bool,
    /// Points one honba adds to a ron: 100 from each other seat's share (300 at four players, 200
    /// at three, where a tsumo's two payers pay 100 each); five times that in one special lobby
    /// of Tenhou's.
    pub honba_points: i32,
    /// A north tile may be set aside as a dora (抜きドラ, three players).
    pub nukidora: bool,
    /// A self-drawn win is paid as at four players, without the missing seat's share (ツモ損).
    pub tsumo_loss: bool,
    /// Tenhou's fast table (速).
    pub fast: bool,
    pub table: TableLevel,
    pub lobby: Option<u32>,
    /// The GO type bits as the record wrote them; for a Tenhou preset (self-play, the bot, an mjai
    /// record) the bits that state it; 0 for rules Tenhou's bits cannot state (majiang). Kept only
    /// so that the writers write them back and the `games` table shows them. Decoded in
    /// [`Rules::from_go_type`] alone.
    pub go_type: u32,
}

/// A preset name that is not one of [`PRESETS`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules {name:?} (known: {})", PRESETS.join(", "))]
pub struct UnknownPreset {
    pub name: String,
}

/// The named presets [`Rules::preset`] knows.
pub const PRESETS: [&str; 7] = [
    "tenhou-4p-hanchan",
    "tenhou-4p-tonpuu",
    "tenhou-4p-hanchan-nored",
    "tenhou-4p-tonpuu-nored",
    "tenhou-3p-hanchan",
    "tenhou-3p-tonpuu",
    "majiang",
];

impl Rules {
    /// A Tenhou table (一般, vs humans) of `players` seats: 25,000 / 30,000 and uma 10-20 at
    /// four players (East-only games also accept 2008's 5-10); 35,000 / 40,000, uma 0-20, north
    /// set aside and tsumo loss at three. Open
    /// tanyao, no double yakuman, kazoe yakuman, no kiriage. The red fives are one per suit
    /// (5p and 5s only at three players: there is no 5m).
    pub fn tenhou(players: u8, hanchan: bool, red: bool) -> Rules {
        let three = players == 3;
        let red = match (red, three) {
            (false, _) => [0; 3],
            (true, false) => [1; 3],
            (true, true) => [0, 1, 1],
        };
        let mut rules = Rules {
            players: if three { 3 } else { 4 },
            hanchan,
            length_stated: true,
            start_score: if three { 35_000 } else { 25_000 },
            return_score: if three { 40_000 } else { 30_000 },
            uma: if three { [20, 0, -20, 0] } else { [20, 10, -10, -20] },
            // Tenhou's East-only games of 2008 were paid 5/−5/−10 (one corpus record, one test
            // log of a reader project).
            uma_alt: (!hanchan && !three).then_some([10, 5, -5, -10]),
            result_known: true,
            red,
            kuitan: true,
            kiriage_mangan: false,
            double_yakuman: false,
            kazoe_yakuman: true,
            honba_points: if three { 200 } else { 300 },
            nukidora: three,
            tsumo_loss: three,
            fast: false,
            table: TableLevel::Ippan,
            lobby: None,
            go_type: 0,
        };
        rules.go_type = rules.tenhou_go_type();
        rules
    }

    /// 電脳麻将's rules: `Majiang.rule()` of `@kobalab/majiang-core`, the rules its self-play and
    /// its paipu records are played on ([docs/paipu.md](../../docs/paipu.md)). Where they differ
    /// from Tenhou's: double yakuman count twice. The table is not Tenhou's, so no GO type.
    pub fn majiang() -> Rules {
        Rules { double_yakuman: true, go_type: 0, ..Rules::tenhou(4, true, true) }
    }

    /// A named preset ([`PRESETS`]).
    pub fn preset(name: &str) -> Result<Rules, UnknownPreset> {
        let name = name.trim();
        let rules = match name {
            "majiang" => Rules::majiang(),
            _ => {
                let mut parts = name.split('-');
                let (Some("tenhou"), Some(p), Some(len), red, None) =
                    (parts.next(), parts.next(), parts.next(), parts.next(), parts.next())
                else {
                    return Err(UnknownPreset { name: name.into() });
                };
                let players = match p {
                    "4p" => 4,
                    "3p" => 3,
                    _ => return Err(UnknownPreset { name: name.into() }),
                };
                let hanchan = match len {
                    "hanchan" => true,
                    "tonpuu" => false,
                    _ => return Err(UnknownPreset { name: name.into() }),
                };
                let red = match red {
                    None => true,
                    Some("nored") if players == 4 => false,
                    _ => return Err(UnknownPreset { name: name.into() }),
                };
                Rules::tenhou(players, hanchan, red)
            }
        };
        Ok(rules)
    }

    /// Decodes Tenhou's GO `type` bits (mjlog's `<GO type=…>`, and what the tenhou.net/6 reader
    /// rebuilds from `rule`): the one place the bits are read.
    pub fn from_go_type(go_type: u32, lobby: Option<u32>) -> Rules {
        let table = match (go_type & 0x20 != 0, go_type & 0x80 != 0) {
            (true, true) => TableLevel::Houou,
            (true, false) => TableLevel::Tokujou,
            (false, true) => TableLevel::Joukyuu,
            (false, false) => TableLevel::Ippan,
        };
        let players = if go_type & 0x10 != 0 { 3 } else { 4 };
        let hanchan = go_type & 0x08 != 0;
        let base = Rules::tenhou(players, hanchan, go_type & 0x02 == 0);
        Rules {
            kuitan: go_type & 0x04 == 0,
            fast: go_type & 0x40 != 0,
            table,
            lobby,
            // Bits above 0xFF (chip, ratio, a lobby's own rule), or a lobby of its own: the start,
            // return and uma are the lobby's. What two of the bits change is inferred from the
            // records that have them (one game each in the shared corpus): 0x200 rounds 4 han 30 fu
            // and 3 han 60 fu up to mangan, 0x400 makes each honba worth 1,500 instead of 300.
            result_known: go_type & !0xFF == 0 && lobby.unwrap_or(0) == 0,
            kiriage_mangan: go_type & 0x200 != 0,
            honba_points: if go_type & 0x400 != 0 { 5 * base.honba_points } else { base.honba_points },
            go_type,
            ..base
        }
    }

    /// The GO type bits that state these rules at Tenhou: the record's own when it had one, else
    /// the encoding of the fields Tenhou's bits can say (vs humans, red fives, open tanyao,
    /// length, players, table, fast).
    pub fn tenhou_go_type(&self) -> u32 {
        if self.go_type != 0 {
            return self.go_type;
        }
        let table = match self.table {
            TableLevel::Ippan => 0,
            TableLevel::Tokujou => 0x20,
            TableLevel::Joukyuu => 0x80,
            TableLevel::Houou => 0xA0,
        };
        0x01 | if self.red_fives() { 0 } else { 0x02 }
            | if self.kuitan { 0 } else { 0x04 }
            | if self.hanchan { 0x08 } else { 0 }
            | if self.players == 3 { 0x10 } else { 0 }
            | table
            | if self.fast { 0x40 } else { 0 }
    }

    /// Whether the game has red fives (Tenhou ids 16, 52 and 88 are then red).
    pub fn red_fives(&self) -> bool {
        self.red != [0; 3]
    }

    /// The seats, in order from the first dealer: `0..players`.
    pub fn seats(&self) -> std::ops::Range<u8> {
        0..self.players
    }

    /// The seat that deals round `round`. A round is numbered `4 × wind + hand` at any seat
    /// count (Tenhou's INIT: East 1 = 0, South 1 = 4, at three players too), and seat `hand`
    /// deals it.
    pub fn dealer_of(&self, round: u8) -> u8 {
        round % 4
    }

    /// The seat that deals after round `round` when the deal passes: the next hand of the wind,
    /// or the next wind's first hand after the last seat has dealt (E3 → S1 at three players).
    pub fn next_round(&self, round: u8) -> u8 {
        if round % 4 + 1 >= self.players {
            (round / 4).saturating_add(1).saturating_mul(4)
        } else {
            round + 1
        }
    }

    /// Tiles in the set: 136, or 108 at three players (2m–8m removed).
    pub fn tile_count(&self) -> u8 {
        if self.players == 3 {
            108
        } else {
            136
        }
    }

    /// Whether tiles of `kind` are in play: every kind at four players; not 2m–8m at three.
    pub fn has_kind(&self, kind: usize) -> bool {
        self.players != 3 || !(1..=7).contains(&kind)
    }

    /// Draws the live wall holds at a round's start: the set less the dead wall (14) and the
    /// dealt hands (70 at four players, 55 at three). Replacement draws after a kan or a north
    /// set aside take from it too.
    pub fn live_wall(&self) -> u8 {
        self.tile_count() - 14 - 13 * self.players
    }

    /// The scores a game starts with: the start score at each seat, 0 at the empty fourth seat of
    /// a three-player table.
    pub fn start_scores(&self) -> [i32; MAX_SEATS] {
        std::array::from_fn(|s| if s < usize::from(self.players) { self.start_score } else { 0 })
    }

    /// The first place's oka in thousands of points: what the seats below the return score
    /// leave on the table.
    pub fn oka(&self) -> i32 {
        (self.return_score - self.start_score) * i32::from(self.players) / 1000
    }

    /// How many standard honba (100 points from each other seat) one honba is worth.
    pub fn honba_factor(&self) -> u8 {
        let standard = 100 * (i32::from(self.players) - 1);
        u8::try_from(self.honba_points / standard.max(1)).unwrap_or(1).max(1)
    }

    /// The last round of the length played (S4 = 7, or E4 = 3 in tonpuu; S3 = 6 at three
    /// players) and the latest a game may go on to in the next wind (W4 = 11, or S4 = 7), for
    /// the end rule. Rounds are numbered as in [`Rules::dealer_of`].
    pub fn last_rounds(&self, hanchan: bool) -> (u8, u8) {
        let winds = if hanchan { 2 } else { 1 };
        let p = self.players;
        ((winds - 1) * 4 + p - 1, winds * 4 + p - 1)
    }

    /// The scoring options of these rules, as the scorer takes them.
    pub fn score_rules(&self) -> crate::score::ScoreRules {
        crate::score::ScoreRules {
            kuitan: self.kuitan,
            double_yakuman: self.double_yakuman,
            kazoe_yakuman: self.kazoe_yakuman,
            kiriage_mangan: self.kiriage_mangan,
            players: self.players,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_type_bits_decode_to_the_table() {
        let r = Rules::from_go_type(0xA9, None);
        assert_eq!(
            (r.players, r.hanchan, r.red_fives(), r.kuitan, r.table),
            (4, true, true, true, TableLevel::Houou)
        );
        assert_eq!((r.start_score, r.return_score, r.uma, r.oka()), (25_000, 30_000, [20, 10, -10, -20], 20));
        assert!(r.result_known && r.uma_alt.is_none());
        let r = Rules::from_go_type(0xE1, None);
        assert!(!r.hanchan && r.fast && r.uma_alt.is_some(), "houou tonpuu fast");
        assert_eq!(
            Rules { fast: false, table: TableLevel::Ippan, go_type: 0x01, ..r },
            Rules::tenhou(4, false, true),
            "a preset is its bits"
        );
        let r = Rules::from_go_type(0x07, None);
        assert!(!r.red_fives() && !r.kuitan);
        let sanma = Rules::from_go_type(0xB9, None);
        assert_eq!(
            (sanma.players, sanma.start_score, sanma.return_score, sanma.oka()),
            (3, 35_000, 40_000, 15)
        );
        assert_eq!(sanma.red, [0, 1, 1]);
        assert!(sanma.nukidora && sanma.tsumo_loss);
        assert_eq!((sanma.honba_points, sanma.honba_factor()), (200, 1), "a ron pays 200 a honba at three");
        let chip = Rules::from_go_type(0x609, Some(0));
        assert!(!chip.result_known && chip.kiriage_mangan && chip.honba_factor() == 5);
        assert!(!Rules::from_go_type(0x09, Some(10011)).result_known, "a lobby's own rule");
    }

    #[test]
    fn presets_encode_back_to_their_bits() {
        assert_eq!(Rules::tenhou(4, true, true).go_type, 0x09, "self-play's GO type");
        assert_eq!(Rules::tenhou(4, false, false).go_type, 0x03);
        assert_eq!(Rules::tenhou(3, true, true).go_type, 0x19);
        for bits in [0x09, 0xA9, 0xE1, 0x0B, 0x89, 0xB9, 0x07] {
            let decoded = Rules::from_go_type(bits, None);
            assert_eq!(Rules { go_type: 0, ..decoded }.tenhou_go_type(), bits, "{bits:#x}");
        }
        for name in PRESETS {
            Rules::preset(name).unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!(Rules::preset("tenhou-3p-hanchan").unwrap().players, 3);
        assert!(Rules::preset("majiang").unwrap().double_yakuman);
        assert_eq!(
            Rules::majiang().score_rules(),
            crate::score::ScoreRules::MAJIANG,
            "the scorer's majiang rules"
        );
        assert_eq!(Rules::tenhou(4, true, true).score_rules(), crate::score::ScoreRules::TENHOU);
        let e = Rules::preset("tenhou-5p-hanchan").unwrap_err().to_string();
        assert!(e.contains("tenhou-5p-hanchan") && e.contains("majiang"), "{e}");
        assert!(Rules::preset("tenhou-3p-hanchan-nored").is_err());
    }

    #[test]
    fn rounds_and_dealers_come_from_the_seat_count() {
        let four = Rules::tenhou(4, true, true);
        assert_eq!((four.last_rounds(true), four.last_rounds(false)), ((7, 11), (3, 7)));
        assert_eq!(four.dealer_of(5), 1);
        let three = Rules::tenhou(3, true, true);
        assert_eq!((three.last_rounds(true), three.last_rounds(false)), ((6, 10), (2, 6)));
        assert_eq!((three.dealer_of(4), three.dealer_of(6)), (0, 2), "South 1, South 3");
        assert_eq!(three.seats().collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!([2, 6, 10].map(|r| three.next_round(r)), [4, 8, 12], "E3, S3, W3 pass to the next wind");
        assert_eq!([3, 7, 1].map(|r| four.next_round(r)), [4, 8, 2]);
        assert_eq!((four.live_wall(), three.live_wall()), (70, 55), "the records' exhaustive draws");
        assert_eq!((four.start_scores(), three.start_scores()), ([25_000; 4], [35_000, 35_000, 35_000, 0]));
        assert!(four.has_kind(4) && !three.has_kind(1) && !three.has_kind(7) && three.has_kind(8));
    }
}
