//! Small helpers every layer may use: atomic file writes, counted rates with their Wilson
//! interval, means, placements by score, and markdown tables. They depend on nothing else in the
//! crate, so any stage can use them without reaching up the layers.

pub mod markdown;
pub mod paired;
pub mod plots;

use std::path::Path;

/// Writes a file atomically: to `path.tmp` first, then renamed into place, so a reader never
/// sees half a file and a failed run leaves the previous output intact.
pub fn write_atomic(path: &Path, bytes: impl AsRef<[u8]>) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// The first `shown` of `items` joined by ", ", then " and N more" for the rest: a list of names
/// (missing columns, say) in one line of an error message.
pub fn first_of<S: AsRef<str>>(items: &[S], shown: usize) -> String {
    let head: Vec<&str> = items.iter().take(shown).map(AsRef::as_ref).collect();
    let more = items.len().saturating_sub(shown);
    if more > 0 {
        format!("{} and {more} more", head.join(", "))
    } else {
        head.join(", ")
    }
}

/// This process's peak resident set size in bytes (Linux `VmHWM`), for the cost lines of
/// reports; `None` where /proc is not available.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?.trim().trim_end_matches("kB").trim();
    kb.parse::<u64>().ok().map(|k| k * 1024)
}

/// FNV-1a 64's starting state (the offset basis): [`fnv1a_extend`] from here hashes a stream.
pub const FNV1A_START: u64 = 0xcbf29ce484222325;

/// Extends an FNV-1a 64 state `h` by `bytes`, so a hash over several pieces (a file read in
/// blocks, a folder of files) equals [`fnv1a`] of their concatenation.
pub fn fnv1a_extend(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// FNV-1a 64 of `bytes`: a hash that is the same on every machine and every run (Rust's
/// `HashMap` hasher is randomised), for shards, splits and fingerprints.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_extend(FNV1A_START, bytes)
}

/// A multiplicative hasher for integer keys (the memo tables of the shanten DP and the EV
/// search): SipHash costs more than the lookups it guards, and these keys are not
/// attacker-controlled. Use it as `BuildHasherDefault<IntHasher>`.
#[derive(Default)]
pub struct IntHasher(u64);

impl std::hash::Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
}

/// Placement of each seat from final scores; equal scores rank by seat order (Tenhou's rule:
/// the seat nearer the first dealer ranks higher).
pub fn placements(scores: &[i32; 4]) -> [u8; 4] {
    placements_of(scores, 4)
}

/// [`placements`] at a table of `players` seats (3 or 4): the seats past the count (a
/// three-player game's empty fourth entry) get 0 and take no place.
pub fn placements_of(scores: &[i32; 4], players: u8) -> [u8; 4] {
    let n = usize::from(players.clamp(1, 4));
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| scores[b].cmp(&scores[a]).then(a.cmp(&b)));
    let mut out = [0u8; 4];
    for (rank, &seat) in order.iter().enumerate() {
        out[seat] = rank as u8 + 1;
    }
    out
}

/// A count with its denominator.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rate {
    pub hits: u64,
    pub n: u64,
}

impl Rate {
    pub fn add(&mut self, hit: bool) {
        self.n += 1;
        self.hits += u64::from(hit);
    }

    pub fn value(&self) -> f64 {
        if self.n == 0 {
            f64::NAN
        } else {
            self.hits as f64 / self.n as f64
        }
    }

    /// Wilson score interval at 95%.
    pub fn ci95(&self) -> (f64, f64) {
        if self.n == 0 {
            return (f64::NAN, f64::NAN);
        }
        let z = 1.959_963_984_540_054f64;
        let n = self.n as f64;
        let p = self.value();
        let denom = 1.0 + z * z / n;
        let centre = (p + z * z / (2.0 * n)) / denom;
        let half = z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt() / denom;
        (centre - half, centre + half)
    }
}

/// A mean with its sample size.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Mean {
    pub sum: f64,
    pub n: u64,
}

impl Mean {
    pub fn add(&mut self, v: f64) {
        self.sum += v;
        self.n += 1;
    }

    pub fn value(&self) -> f64 {
        if self.n == 0 {
            f64::NAN
        } else {
            self.sum / self.n as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_of_lists_a_few_and_counts_the_rest() {
        assert_eq!(first_of(&["a", "b"], 8), "a, b");
        assert_eq!(first_of(&["a", "b", "c"], 2), "a, b and 1 more");
        assert_eq!(first_of::<&str>(&[], 8), "");
    }

    /// FNV-1a 64's published values, and a stream hashed in pieces equals the whole.
    #[test]
    fn fnv1a_is_the_published_hash_and_streams() {
        assert_eq!(fnv1a(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x85944171f73967e8);
        assert_eq!(fnv1a_extend(fnv1a(b"foo"), b"bar"), fnv1a(b"foobar"));
    }

    #[test]
    fn placements_break_ties_by_seat() {
        assert_eq!(placements(&[25000, 30000, 25000, 20000]), [2, 1, 3, 4]);
        assert_eq!(placements(&[10000, 10000, 10000, 70000]), [2, 3, 4, 1]);
    }

    #[test]
    fn wilson_interval() {
        let r = Rate { hits: 50, n: 100 };
        let (lo, hi) = r.ci95();
        // Wilson 95% for 50/100: 0.4038 .. 0.5962
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3, "{lo} {hi}");
    }
}
