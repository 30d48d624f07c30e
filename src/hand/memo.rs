//! Per-thread caches of pure functions of a hand: the xiangting results (shanten, necessary and
//! unnecessary kinds) that features and the expected-value search ask for thousands of times per
//! decision, mostly about the same few hundred hands.
//!
//! [`Direct`] is a direct-mapped table: the key's hash picks one slot, a hit returns the stored
//! value, a miss computes it and replaces the slot. Memory is fixed (no growth, no rehash), old
//! entries are simply overwritten, and a value is only ever returned for its exact key, so the
//! cache never changes a result.

use crate::tile::{Counts, KINDS};

/// A direct-mapped cache with `2^bits` slots. `K::default()` marks an empty slot, so callers must
/// never use the default key.
pub struct Direct<K, V> {
    slots: Box<[(K, V)]>,
    shift: u32,
}

impl<K: Copy + Eq + Default, V: Copy + Default> Direct<K, V> {
    pub fn new(bits: u32) -> Self {
        Direct { slots: vec![(K::default(), V::default()); 1 << bits].into_boxed_slice(), shift: 64 - bits }
    }

    /// The value stored for `key` (whose hash is `hash`), if any.
    #[inline]
    pub fn get(&self, key: K, hash: u64) -> Option<V> {
        let s = &self.slots[(hash >> self.shift) as usize];
        (s.0 == key).then_some(s.1)
    }

    /// Starts loading the slot of `hash` into the cache, so that a `get` a little later finds
    /// it there. The probes of these tables wait on memory (a slot is out of L1 most of the
    /// time): a caller that knows its next keys ahead asks for all their slots at once, and the
    /// loads overlap instead of following one another. Only a hint: nothing is read or changed.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        let slot = self.slots.as_ptr().wrapping_add((hash >> self.shift) as usize);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint that never faults and never reads into the program, so
        // any address is sound; this one is a slot of `self.slots` anyway.
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(slot as *const i8)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    #[inline]
    pub fn put(&mut self, key: K, hash: u64, value: V) {
        self.slots[(hash >> self.shift) as usize] = (key, value);
    }
}

/// A hash of two words whose top bits depend on every input bit (use the top bits).
#[inline]
pub fn mix(lo: u64, hi: u64) -> u64 {
    let h = (lo ^ hi.rotate_left(29).wrapping_mul(0xD6E8_FEB8_6659_FD93)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ (h >> 29).wrapping_mul(0x94D0_49BB_1331_11EB)
}

/// One tile of kind `k` in [`pack`]'s layout: `pack(c) - unit(k)` is the pack of `c` less one
/// tile of `k` (no borrow while `c[k] > 0`, as each kind has its own 3-bit field).
#[inline]
pub fn unit(k: usize) -> u128 {
    // The upper word starts at bit 63 = 3 x 21, so kind k's field starts at bit 3k throughout.
    1 << (3 * k)
}

/// Concealed counts packed 3 bits per kind (102 bits): an exact key for a hand's counts.
#[inline]
pub fn pack(c: &Counts) -> u128 {
    let mut lo = 0u64;
    for k in (0..21).rev() {
        lo = lo << 3 | c[k] as u64;
    }
    let mut hi = 0u64;
    for k in (21..KINDS).rev() {
        hi = hi << 3 | c[k] as u64;
    }
    lo as u128 | (hi as u128) << 63
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_is_three_bits_per_kind() {
        let mut c = [0u8; KINDS];
        c[0] = 1;
        c[20] = 4;
        c[21] = 2;
        c[33] = 3;
        let p = pack(&c);
        assert_eq!(p, 1 | 4 << 60 | 2 << 63 | 3 << 99);
        let by_kind = (0..KINDS).fold(0u128, |a, k| a | (c[k] as u128) << (3 * k));
        assert_eq!(p, by_kind);
    }

    #[test]
    fn unit_is_one_tile_of_a_kind() {
        let mut c = [0u8; KINDS];
        (0..KINDS).for_each(|k| c[k] = (k % 4 + 1) as u8);
        for k in 0..KINDS {
            let mut less = c;
            less[k] -= 1;
            assert_eq!(pack(&c) - unit(k), pack(&less), "kind {k}");
        }
    }

    #[test]
    fn direct_cache_returns_only_exact_keys() {
        let mut d: Direct<u64, u32> = Direct::new(4);
        assert_eq!(d.get(5, mix(5, 0)), None);
        d.put(5, mix(5, 0), 7);
        assert_eq!(d.get(5, mix(5, 0)), Some(7));
        // a different key in the same slot is a miss
        assert_eq!(d.get(6, mix(5, 0)), None);
    }
}
