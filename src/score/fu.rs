//! Fu (minipoints) of a standard reading, Tenhou's way.
//!
//! 20 base; closed ron +10; tsumo +2 except with pinfu (pinfu tsumo stays 20); an open hand with
//! no fu at all won by ron is 30 (kuipinfu); sets by terminal-ness and concealment, a set
//! completed by ron counting as open; kanchan, penchan and tanki waits +2; a value pair +2 for
//! each reason (a double-wind pair is 4, as Tenhou counts it); rounded up to 10. Seven pairs are
//! always 25 and are handled by the caller.

use super::{yaku::is_value_kind, Facts, Reading, Wait};
use crate::hand::decompose::GroupKind;
use crate::tile::is_yaochu;

/// The fu of a standard reading and whether it is a pinfu reading (closed, no fu from sets,
/// pair or wait; the yaku pinfu then applies).
pub(crate) fn standard(r: &Reading, f: &Facts) -> (u8, bool) {
    let mut fu: u32 = 20;
    for b in &r.blocks {
        if b.group.kind == GroupKind::Set {
            let mut set_fu = if is_yaochu(b.group.first) { 4 } else { 2 };
            if b.concealed {
                set_fu *= 2;
            }
            if b.kan {
                set_fu *= 4;
            }
            fu += set_fu;
        }
    }
    let pair = r.pair;
    if is_value_kind(pair, f) {
        if pair >= 31 {
            fu += 2;
        }
        if pair == f.input.round_wind {
            fu += 2;
        }
        if pair == f.input.seat_wind {
            fu += 2;
        }
    }
    if matches!(r.wait, Wait::Kanchan | Wait::Penchan | Wait::Tanki) {
        fu += 2;
    }
    let pinfu = f.menzen && fu == 20;
    if !f.input.ron {
        if !pinfu {
            fu += 2;
        }
    } else if f.menzen {
        fu += 10;
    } else if fu == 20 {
        fu = 30;
    }
    (fu.div_ceil(10) as u8 * 10, pinfu)
}
