//! Tenhou's kuikae rule as one pure function of a call: which kinds the caller may not discard
//! right after it. The table state machine records the mask when a call happens (and refuses a
//! record that breaks it); the legal actions of `rules` read it back. Its own module so that
//! neither of the two imports the other for it.

use crate::hand::meld::MeldKind;
use crate::log::event::Call;
use crate::tile::Kind;

fn bit(k: Kind) -> u64 {
    1u64 << k
}

/// Kinds forbidden right after this call (kuikae), as a bit set over kinds: the called kind,
/// and for a chi called at one end of its run the kind beyond the other end. Zero for calls that
/// are not chi or pon.
pub fn kuikae_mask(call: &Call) -> u64 {
    let Some(called) = call.called else { return 0 };
    if !matches!(call.kind, MeldKind::Chi | MeldKind::Pon) {
        return 0;
    }
    let k = called.kind();
    let mut m = bit(k);
    if call.kind == MeldKind::Chi {
        let lo = call.tiles.iter().map(|t| t.kind()).min().unwrap_or(k);
        let n = k % 9;
        if k == lo && n + 3 <= 8 {
            m |= bit(k + 3);
        }
        if k == lo + 2 && n >= 3 {
            m |= bit(k - 3);
        }
    }
    m
}
