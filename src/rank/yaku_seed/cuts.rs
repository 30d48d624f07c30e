//! Every cut of a hand into the 21 classes (seed 004's 余り牌の取り方): not the one best cut
//! `melds21` keeps, but every way to split each suit into runs, sets, pairs, partials and
//! isolated tiles, as the distinct class vectors those cuts give. The evaluation is linear in
//! the vector, so the best cut for a weight vector is found per suit (and per honor kind) and
//! the parts added.
//!
//! The class of a piece is `melds21`'s (its module doc lists them); the numbering is repeated
//! here as the piece table of [`pieces`].

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Counts of the suit classes 0..=18 (honors' classes 19, 20 never occur in a suit).
pub type SuitVec = [u8; 19];

/// The pieces that can start at position `p` (0..9) of a suit: (offsets, class).
pub fn pieces(p: usize) -> Vec<(&'static [usize], usize)> {
    let end = p == 0 || p == 8;
    let iso = match p {
        3..=5 => 15,
        2 | 6 => 16,
        1 | 7 => 17,
        _ => 18,
    };
    let mut out: Vec<(&'static [usize], usize)> =
        vec![(&[0], iso), (&[0, 0], if end { 5 } else { 4 }), (&[0, 0, 0], if end { 3 } else { 2 })];
    if p <= 6 {
        out.push((&[0, 1, 2], if p == 0 || p == 6 { 1 } else { 0 }));
        out.push((&[0, 2], [13, 12, 11, 11, 11, 12, 13][p]));
    }
    if p <= 7 {
        out.push((&[0, 1], [14, 8, 7, 7, 7, 7, 8, 14][p]));
    }
    if p <= 4 {
        out.push((&[0, 2, 4], if p == 0 || p == 4 { 10 } else { 9 }));
    }
    out
}

thread_local! {
    static CUTS: RefCell<HashMap<u32, Rc<Vec<SuitVec>>>> = RefCell::new(HashMap::new());
}

fn code(h: &[u8; 9]) -> u32 {
    h.iter().fold(0u32, |acc, &c| acc * 5 + c.min(4) as u32)
}

/// The distinct class vectors of every cut of one suit (`h`: counts of 1..9), memoised per
/// thread. Every tile is in exactly one piece.
pub fn suit_cuts(h: &[u8; 9]) -> Rc<Vec<SuitVec>> {
    let key = code(h);
    if let Some(v) = CUTS.with(|c| c.borrow().get(&key).cloned()) {
        return v;
    }
    let out = match (0..9).find(|&i| h[i] > 0) {
        None => vec![[0u8; 19]],
        Some(i) => {
            let mut all = Vec::new();
            for (offs, class) in pieces(i) {
                if offs
                    .iter()
                    .enumerate()
                    .all(|(j, &o)| h[i + o] as usize > offs[..j].iter().filter(|&&x| x == o).count())
                {
                    let mut rest = *h;
                    offs.iter().for_each(|&o| rest[i + o] -= 1);
                    for v in suit_cuts(&rest).iter() {
                        let mut w = *v;
                        w[class] += 1;
                        all.push(w);
                    }
                }
            }
            all.sort_unstable();
            all.dedup();
            all
        }
    };
    let out = Rc::new(out);
    CUTS.with(|c| c.borrow_mut().insert(key, out.clone()));
    out
}

/// The cuts of `n` copies of one honor: (isolated, pairs, sets) counts.
pub fn honor_cuts(n: u8) -> &'static [(u8, u8, u8)] {
    match n {
        0 => &[(0, 0, 0)],
        1 => &[(1, 0, 0)],
        2 => &[(0, 1, 0), (2, 0, 0)],
        3 => &[(0, 0, 1), (1, 1, 0), (3, 0, 0)],
        _ => &[(1, 0, 1), (0, 2, 0), (2, 1, 0), (4, 0, 0)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 123 of a suit cut every way, listed by hand: run; penchan 12 + iso 3; kanchan 13 + iso 2;
    /// iso 1 + ryanmen 23; three isolated tiles.
    #[test]
    fn one_two_three_has_five_cuts() {
        let cuts = suit_cuts(&[1, 1, 1, 0, 0, 0, 0, 0, 0]);
        let mut want: Vec<SuitVec> = Vec::new();
        let v = |pairs: &[(usize, u8)]| {
            let mut x = [0u8; 19];
            pairs.iter().for_each(|&(c, n)| x[c] = n);
            x
        };
        want.push(v(&[(1, 1)]));
        want.push(v(&[(14, 1), (16, 1)]));
        want.push(v(&[(13, 1), (17, 1)]));
        want.push(v(&[(18, 1), (8, 1)]));
        want.push(v(&[(18, 1), (17, 1), (16, 1)]));
        want.sort_unstable();
        assert_eq!(*cuts, want);
    }

    /// 55: a pair or two isolated 5s. 5555: set + iso, two pairs, pair + 2 iso, 4 iso.
    #[test]
    fn copies_of_one_tile() {
        assert_eq!(suit_cuts(&[0, 0, 0, 0, 2, 0, 0, 0, 0]).len(), 2);
        assert_eq!(suit_cuts(&[0, 0, 0, 0, 4, 0, 0, 0, 0]).len(), 4);
        assert_eq!(honor_cuts(4).len(), 4);
        // Every cut of 1112345678999 uses all 13 tiles.
        let tiles = |v: &SuitVec| -> u32 {
            let size = |c: usize| match c {
                0..=3 | 9 | 10 => 3,
                4..=8 | 11..=14 => 2,
                _ => 1,
            };
            v.iter().enumerate().map(|(c, &n)| n as u32 * size(c)).sum()
        };
        let cuts = suit_cuts(&[3, 1, 1, 1, 1, 1, 1, 1, 3]);
        assert!(cuts.len() > 50, "{}", cuts.len());
        assert!(cuts.iter().all(|v| tiles(v) == 13));
    }
}
