//! Mergeable counts. Every figure of a stats run is a ratio of sums (hits over n, a sum of points
//! over a number of wins), so the sums themselves are what separate runs can add: shards of an
//! archive run on several machines merge into exactly the report one run would have written.
//!
//! A counts record (`PlayerStats`, `Studies`) is turned into named leaves by its serde form,
//! `win.hits`, `placements.0`, `yaku.53`, so a new counter needs no code here, and the long
//! table `counts.parquet` (scope, group, counter, value) can be summed by duckdb just as well:
//! `SELECT scope, "group", counter, sum(value) FROM 'a/counts.parquet' UNION ALL ... GROUP BY ALL`.
//! Values are f64; every counter haifu writes is an integer (points, counts, placements), exact
//! in f64 up to 2^53.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Number, Value};

/// One counter of one group: a row of `counts.parquet`.
#[derive(Clone, Debug, PartialEq)]
pub struct Count {
    /// "overall", "table", "player" or "study".
    pub scope: String,
    /// The group within the scope: "all", a table level, a player name.
    pub group: String,
    /// The leaf's path in the record, joined by dots: `win.hits`, `yaku.53`.
    pub counter: String,
    pub value: f64,
}

/// The numeric leaves of `x`'s serde form, in field order, as (dotted path, value).
pub fn flatten<T: Serialize>(x: &T) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    let v = serde_json::to_value(x).expect("counts records serialize to JSON");
    walk(&v, &mut String::new(), &mut out);
    out
}

fn walk(v: &Value, path: &mut String, out: &mut Vec<(String, f64)>) {
    let mut child = |key: &str, v: &Value, path: &mut String| {
        let len = path.len();
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
        walk(v, path, out);
        path.truncate(len);
    };
    match v {
        Value::Object(m) => m.iter().for_each(|(k, v)| child(k, v, path)),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, v)| child(&i.to_string(), v, path)),
        Value::Number(n) => out.push((path.clone(), n.as_f64().unwrap_or(f64::NAN))),
        Value::Null | Value::Bool(_) | Value::String(_) => {}
    }
}

/// Rebuilds a record from leaves: starts from `T::default()` and sets each named leaf. An
/// integer leaf must get a whole, non-negative value. Unknown names are errors (counts written
/// by another version of haifu), named in the message.
pub fn unflatten<'a, T: Serialize + DeserializeOwned + Default>(
    leaves: impl IntoIterator<Item = (&'a str, f64)>,
) -> Result<T, CountsError> {
    let mut v = serde_json::to_value(T::default())?;
    for (path, value) in leaves {
        let leaf = path.split('.').try_fold(&mut v, |node, key| match node {
            Value::Object(m) => m.get_mut(key),
            Value::Array(a) => key.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
            _ => None,
        });
        let Some(Value::Number(n)) = leaf else {
            return Err(CountsError::Unknown { path: path.to_string() });
        };
        *n = if n.is_f64() {
            Number::from_f64(value).ok_or_else(|| CountsError::NotFinite { path: path.to_string(), value })?
        } else if value >= 0.0 && value.fract() == 0.0 && value < 2f64.powi(64) {
            Number::from(value as u64)
        } else {
            return Err(CountsError::NotWhole { path: path.to_string(), value });
        };
    }
    Ok(serde_json::from_value(v)?)
}

/// A counter that does not fit the record it is read into (counts written by another version of
/// haifu, or damaged): the error names the counter.
#[derive(Debug, thiserror::Error)]
pub enum CountsError {
    #[error("unknown counter `{path}`")]
    Unknown { path: String },
    #[error("counter `{path}` is {value}")]
    NotFinite { path: String, value: f64 },
    #[error("counter `{path}` must be a whole count, is {value}")]
    NotWhole { path: String, value: f64 },
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// `a + b`, leaf by leaf: the counts of two runs as one.
pub fn add<T: Serialize + DeserializeOwned + Default>(a: &T, b: &T) -> T {
    let (a, b) = (flatten(a), flatten(b));
    debug_assert_eq!(a.len(), b.len());
    let sum: Vec<(String, f64)> = a.into_iter().zip(b).map(|((k, x), (_, y))| (k, x + y)).collect();
    unflatten(sum.iter().map(|(k, v)| (k.as_str(), *v))).expect("the sum of two records has their shape")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::{Mean, Rate};

    #[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
    struct R {
        games: u64,
        win: Rate,
        points: Mean,
        places: [u64; 4],
    }

    fn sample() -> R {
        R { games: 3, win: Rate { hits: 1, n: 9 }, points: Mean { sum: 7700.0, n: 2 }, places: [1, 0, 2, 0] }
    }

    #[test]
    fn leaves_round_trip() {
        let leaves = flatten(&sample());
        let names: Vec<&str> = leaves.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            [
                "games",
                "win.hits",
                "win.n",
                "points.sum",
                "points.n",
                "places.0",
                "places.1",
                "places.2",
                "places.3"
            ]
        );
        let back: R = unflatten(leaves.iter().map(|(k, v)| (k.as_str(), *v))).unwrap();
        assert_eq!(back, sample());
        // Leaves not given stay at their default.
        let part: R = unflatten([("win.n", 4.0)]).unwrap();
        assert_eq!(part, R { win: Rate { hits: 0, n: 4 }, ..R::default() });
    }

    #[test]
    fn sums_leaf_by_leaf() {
        let twice = add(&sample(), &sample());
        assert_eq!(twice.games, 6);
        assert_eq!(twice.win, Rate { hits: 2, n: 18 });
        assert_eq!(twice.points, Mean { sum: 15400.0, n: 4 });
        assert_eq!(twice.places, [2, 0, 4, 0]);
    }

    #[test]
    fn bad_leaves_are_named() {
        let err = |leaves: [(&str, f64); 1]| unflatten::<R>(leaves).unwrap_err().to_string();
        assert_eq!(err([("wins.n", 1.0)]), "unknown counter `wins.n`");
        assert_eq!(err([("places.7", 1.0)]), "unknown counter `places.7`");
        assert!(err([("games", 1.5)]).contains("whole count"));
        assert!(unflatten::<R>([("games", -1.0)]).is_err());
        // A float leaf takes any finite value.
        assert_eq!(unflatten::<R>([("points.sum", -2.5)]).unwrap().points.sum, -2.5);
    }
}
