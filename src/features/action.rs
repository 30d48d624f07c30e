//! Family `action`: what kind of action an option is, so one linear model per decision kind can
//! give each kind its own baseline. A discard sets none of the flags.

use super::column::Cols;
use crate::replay::decision::Action;

pub(crate) const COLUMNS: &[(&str, &str)] = &[
    ("act_riichi", "1 for the riichi option of a riichi decision"),
    ("act_pass", "1 for declining a call"),
    ("act_call", "1 for chi, pon or daiminkan"),
    ("act_kan", "1 for daiminkan"),
    ("act_kita", "1 for setting a north aside (three players)"),
];

/// Fills the family for the option `action`.
pub(crate) fn fill(action: &Action, cols: &mut Cols) {
    cols.flag("act_riichi", *action == Action::Riichi);
    cols.flag("act_pass", *action == Action::Pass);
    cols.flag("act_call", matches!(action, Action::Chi(_) | Action::Pon(_) | Action::Daiminkan));
    cols.flag("act_kan", *action == Action::Daiminkan);
    cols.flag("act_kita", *action == Action::Kita);
}

#[cfg(test)]
mod tests {
    use crate::features::catalog::{catalog_width, index_of};
    use crate::features::fill_action;
    use crate::replay::decision::Action;
    use crate::tile::parse_mpsz;

    /// Each option kind sets its own flags, and only a call carries the turn.
    #[test]
    fn flags_and_call_turn_by_option() {
        let t = parse_mpsz("3m4m").unwrap();
        let cases = [
            (Action::Discard(t[0]), [0.0, 0.0, 0.0, 0.0, 0.0], 0.0),
            (Action::Riichi, [1.0, 0.0, 0.0, 0.0, 0.0], 0.0),
            (Action::Dama, [0.0, 0.0, 0.0, 0.0, 0.0], 0.0),
            (Action::Pass, [0.0, 1.0, 0.0, 0.0, 0.0], 0.0),
            (Action::Chi([t[0], t[1]]), [0.0, 0.0, 1.0, 0.0, 0.0], 9.0),
            (Action::Pon([t[0], t[0]]), [0.0, 0.0, 1.0, 0.0, 0.0], 9.0),
            (Action::Daiminkan, [0.0, 0.0, 1.0, 1.0, 0.0], 9.0),
            (Action::Kita, [0.0, 0.0, 0.0, 0.0, 1.0], 0.0),
            (Action::Keep, [0.0, 0.0, 0.0, 0.0, 0.0], 0.0),
        ];
        for (action, flags, turn) in cases {
            let mut row = vec![f32::NAN; catalog_width()];
            fill_action(&action, 9, &mut row).unwrap();
            let got = ["act_riichi", "act_pass", "act_call", "act_kan", "act_kita"]
                .map(|n| row[index_of(n).unwrap()]);
            assert_eq!(got, flags, "{action:?}");
            assert_eq!(row[index_of("call_x_turn").unwrap()], turn, "{action:?}");
            assert_eq!(row.iter().filter(|x| !x.is_nan()).count(), 6, "{action:?} wrote other columns");
        }
    }
}
