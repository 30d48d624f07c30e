//! Helpers shared by the round-trip tests (`tests/mjai.rs`, `tests/tenhou6.rs`).

use haifu::dataset::rows::{game_rows, GameRows};
use haifu::log::event::{Event, Game};

/// Every row `game_rows` builds, as text (feature values by their bits).
fn rows_text(r: &GameRows) -> Vec<String> {
    let mut out: Vec<String> = r.rounds.iter().map(|x| format!("{x:?}")).collect();
    out.extend(r.decisions.iter().map(|x| format!("{x:?}")));
    out.extend(r.options.iter().map(|x| format!("{x:?}")));
    out.push(format!("{:?}", r.option_ptr));
    out.push(format!("{:?}", r.values.iter().map(|v| v.to_bits()).collect::<Vec<_>>()));
    out
}

/// Asserts that each of the first sorted shared mjlogs, until chi, pon and every kind of kan have
/// been seen (at least four games), gives the same rows in every column after `through` (a write
/// and read back in another format) as it does itself.
pub fn rows_survive(through: impl Fn(&Game) -> Game) {
    let files = haifu::testdata::need_tenhou_files(&[".mjlog"]);
    let mut kinds = std::collections::BTreeSet::new();
    let mut picked = 0;
    for f in &files {
        if picked >= 4 && kinds.len() == 5 {
            break;
        }
        let g = haifu::log::source::Source::file(f).load().unwrap();
        let before = kinds.len();
        for e in g.rounds.iter().flat_map(|r| &r.events) {
            if let Event::Call { call, .. } = e {
                kinds.insert(format!("{:?}", call.kind));
            }
        }
        if picked >= 4 && kinds.len() == before {
            continue;
        }
        picked += 1;
        let back = through(&g);
        let (a, b) = (rows_text(&game_rows(&g).unwrap()), rows_text(&game_rows(&back).unwrap()));
        assert_eq!(a.len(), b.len(), "{}", f.display());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x, y, "{}", f.display());
        }
    }
    assert_eq!(kinds.len(), 5, "the games cover chi, pon and every kan: {kinds:?}");
}
