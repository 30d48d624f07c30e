//! The bot's answers as mjai JSON lines, in the forms Mortal's `libriichi` and mjai.app take:
//! `type` first, then `actor`, tiles by mjai name (red fives `5mr`).

use crate::log::mjai::tiles::tile_name;
use crate::tile::TileId;

/// One answer to the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Nothing to do (or a pass on a discard).
    None,
    Dahai {
        tile: TileId,
        tsumogiri: bool,
    },
    Reach,
    /// A win; `target` is the seat itself for a tsumo.
    Hora {
        target: u8,
        tile: TileId,
    },
    Chi {
        target: u8,
        tile: TileId,
        consumed: [TileId; 2],
    },
    Pon {
        target: u8,
        tile: TileId,
        consumed: [TileId; 2],
    },
    Daiminkan {
        target: u8,
        tile: TileId,
        consumed: [TileId; 3],
    },
    Ankan {
        consumed: [TileId; 4],
    },
    Kakan {
        tile: TileId,
        consumed: [TileId; 3],
    },
    /// Nine terminals and honours (kyuushu kyuuhai).
    Ryukyoku,
    /// A north set aside (three players), RiichiEnv's `kita`; its replacement is the next
    /// `tsumo`.
    Kita {
        tile: TileId,
    },
}

fn names(ids: &[TileId], red: bool) -> String {
    let v: Vec<String> = ids.iter().map(|&id| format!("\"{}\"", tile_name(id, red))).collect();
    format!("[{}]", v.join(","))
}

impl Answer {
    /// The answer as one JSON line (no newline) for seat `actor`.
    pub fn to_json(&self, actor: u8, red: bool) -> String {
        let t = |id: TileId| tile_name(id, red);
        match self {
            Answer::None => "{\"type\":\"none\"}".into(),
            Answer::Dahai { tile, tsumogiri } => {
                format!(
                    "{{\"type\":\"dahai\",\"actor\":{actor},\"pai\":\"{}\",\"tsumogiri\":{tsumogiri}}}",
                    t(*tile)
                )
            }
            Answer::Reach => format!("{{\"type\":\"reach\",\"actor\":{actor}}}"),
            Answer::Hora { target, tile } => {
                format!(
                    "{{\"type\":\"hora\",\"actor\":{actor},\"target\":{target},\"pai\":\"{}\"}}",
                    t(*tile)
                )
            }
            Answer::Chi { target, tile, consumed } => {
                call("chi", actor, *target, t(*tile), &names(consumed, red))
            }
            Answer::Pon { target, tile, consumed } => {
                call("pon", actor, *target, t(*tile), &names(consumed, red))
            }
            Answer::Daiminkan { target, tile, consumed } => {
                call("daiminkan", actor, *target, t(*tile), &names(consumed, red))
            }
            Answer::Ankan { consumed } => {
                format!("{{\"type\":\"ankan\",\"actor\":{actor},\"consumed\":{}}}", names(consumed, red))
            }
            Answer::Kakan { tile, consumed } => format!(
                "{{\"type\":\"kakan\",\"actor\":{actor},\"pai\":\"{}\",\"consumed\":{}}}",
                t(*tile),
                names(consumed, red)
            ),
            Answer::Ryukyoku => format!("{{\"type\":\"ryukyoku\",\"actor\":{actor}}}"),
            Answer::Kita { tile } => {
                format!("{{\"type\":\"kita\",\"actor\":{actor},\"pai\":\"{}\"}}", t(*tile))
            }
        }
    }
}

fn call(kind: &str, actor: u8, target: u8, pai: &str, consumed: &str) -> String {
    format!("{{\"type\":\"{kind}\",\"actor\":{actor},\"target\":{target},\"pai\":\"{pai}\",\"consumed\":{consumed}}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(i: u32) -> TileId {
        TileId::new(i).unwrap()
    }

    #[test]
    fn answers_read_back_as_mjai_events() {
        let cases = [
            (Answer::Dahai { tile: id(16), tsumogiri: true }, "dahai", "5mr"),
            (Answer::Pon { target: 2, tile: id(17), consumed: [id(16), id(18)] }, "pon", "5m"),
            (Answer::Kakan { tile: id(135), consumed: [id(132), id(133), id(134)] }, "kakan", "C"),
            (Answer::Hora { target: 1, tile: id(0) }, "hora", "1m"),
            (Answer::Kita { tile: id(122) }, "kita", "N"),
        ];
        for (a, kind, pai) in cases {
            let v: serde_json::Value = serde_json::from_str(&a.to_json(3, true)).unwrap();
            assert_eq!(
                (v["type"].as_str(), v["actor"].as_u64(), v["pai"].as_str()),
                (Some(kind), Some(3), Some(pai))
            );
        }
        let v: serde_json::Value = serde_json::from_str(
            &Answer::Pon { target: 2, tile: id(17), consumed: [id(16), id(18)] }.to_json(0, true),
        )
        .unwrap();
        assert_eq!(v["consumed"], serde_json::json!(["5mr", "5m"]));
        assert_eq!(Answer::None.to_json(0, true), "{\"type\":\"none\"}");
    }
}
