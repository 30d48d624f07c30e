//! Deterministic train / validation / test split by game.
//!
//! Splitting by game (not by decision) keeps every decision of a held-out game unseen by the fit,
//! so agreement on the test split measures generalisation to new games. The split is a hash of the
//! game id and the seed: the same id and seed land in the same split on any machine, whatever order
//! the games were read in.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Split {
    Train,
    Validation,
    Test,
}

/// FNV-1a over the id bytes, then mixed with the seed (splitmix64 finaliser).
pub fn game_hash(id: &str, seed: u64) -> u64 {
    let h = crate::util::fnv1a(id.as_bytes());
    let mut z = h ^ seed.wrapping_mul(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
    z ^ (z >> 31)
}

/// The split of a game: `validation` and `test` are fractions (e.g. 0.1 each).
pub fn split_of(game_id: &str, seed: u64, validation: f64, test: f64) -> Split {
    let u = (game_hash(game_id, seed) >> 11) as f64 / (1u64 << 53) as f64;
    if u < test {
        Split::Test
    } else if u < test + validation {
        Split::Validation
    } else {
        Split::Train
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_proportional() {
        let ids: Vec<String> = (0..10_000).map(|i| format!("2020010100gm-00a9-0000-{i:08x}")).collect();
        let a: Vec<Split> = ids.iter().map(|id| split_of(id, 42, 0.1, 0.1)).collect();
        let b: Vec<Split> = ids.iter().map(|id| split_of(id, 42, 0.1, 0.1)).collect();
        assert_eq!(a, b);
        let test = a.iter().filter(|s| **s == Split::Test).count();
        let val = a.iter().filter(|s| **s == Split::Validation).count();
        assert!((900..1100).contains(&test), "{test}");
        assert!((900..1100).contains(&val), "{val}");
        let c: Vec<Split> = ids.iter().map(|id| split_of(id, 43, 0.1, 0.1)).collect();
        assert_ne!(a, c, "another seed gives another split");
    }
}
