//! One seat's stream from a full mjai log: what a server sends that seat.
//!
//! `start_game` gains the seat's `id`; `start_kyoku` hides the other hands (`?`); other seats'
//! draws are `?`. Everything else is public and passes unchanged, one event a line.

use serde_json::Value;

/// The line `line` of a full log as seat `seat` receives it (`None` for a blank line).
pub fn seat_line(line: &str, seat: u8) -> Option<String> {
    let mut v: Value = serde_json::from_str(line).ok()?;
    let kind = v.get("type").and_then(Value::as_str).unwrap_or("").to_string();
    match kind.as_str() {
        "start_game" => {
            v["id"] = Value::from(seat);
        }
        "start_kyoku" => {
            if let Some(Value::Array(hands)) = v.get_mut("tehais") {
                for (s, h) in hands.iter_mut().enumerate() {
                    if s != seat as usize {
                        *h = Value::Array(vec![Value::from("?"); 13]);
                    }
                }
            }
        }
        "tsumo" if v.get("actor").and_then(Value::as_u64) != Some(u64::from(seat)) => {
            v["pai"] = Value::from("?");
        }
        _ => {}
    }
    Some(v.to_string())
}

/// A whole log as seat `seat` receives it, one event a line (unreadable lines pass unchanged,
/// for the bot to refuse).
pub fn seat_stream(log: &str, seat: u8) -> Vec<String> {
    log.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| seat_line(l, seat).unwrap_or_else(|| l.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn others_tiles_are_hidden() {
        let log = r#"{"type":"start_game","names":["a","b","c","d"]}
{"type":"start_kyoku","bakaze":"E","dora_marker":"1m","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[25000,25000,25000,25000],"tehais":[["1m"],["2m"],["3m"],["4m"]]}
{"type":"tsumo","actor":0,"pai":"5m"}
{"type":"tsumo","actor":1,"pai":"6m"}"#;
        let s = seat_stream(log, 1);
        assert!(s[0].contains("\"id\":1"), "{}", s[0]);
        let v: Value = serde_json::from_str(&s[1]).unwrap();
        assert_eq!(v["tehais"][1], serde_json::json!(["2m"]));
        assert_eq!(v["tehais"][0][12], "?");
        assert!(s[2].contains("\"?\"") && s[3].contains("6m"), "{s:?}");
    }
}
