//! Family `call_trade`: a call option crossed with the situation, so the model can weigh calling
//! early against calling late.

use super::column::Cols;
use crate::replay::decision::Action;

pub(crate) const COLUMNS: &[(&str, &str)] = &[("call_x_turn", "call option x the player's draws so far")];

/// Fills the family for the option `action` on the player's `turn` (0 unless it is a call).
pub(crate) fn fill(action: &Action, turn: u8, cols: &mut Cols) {
    let call = matches!(action, Action::Chi(_) | Action::Pon(_) | Action::Daiminkan);
    cols.put("call_x_turn", if call { f32::from(turn) } else { 0.0 });
}
