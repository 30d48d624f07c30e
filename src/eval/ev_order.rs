//! The `ev` evaluator over dataset rows: 電脳麻将's ranking rebuilt from the columns ingest
//! stores (the value family, the option's shanten and ukeire, its isolated-tile value and
//! whether it is the drawn tile), ordered by the very function the live search orders with
//! ([`crate::rank::expected_value::ranking::pick_order`]). So on every discard decision the dataset's `ev` pick is
//! [`crate::rank::expected_value::rank`]'s (test `dataset_picks_equal_the_search`).

use crate::rank::expected_value::ranking::{DiscardOption, Far, OrderKey, Valuation};
use crate::tile::Tile;

/// The columns the ranking reads, by name.
pub const COLUMNS: [&str; 8] = [
    "ev",
    "ev_defined",
    "ev_far_shanten",
    "ev_far_ukeire",
    "shanten_min",
    "ukeire_count",
    "vis_paijia",
    "vis_tsumogiri",
];

/// Where each of [`COLUMNS`] sits in a row layout; `None` when the layout lacks one.
#[derive(Clone, Copy, Debug)]
pub struct EvColumns([usize; 8]);

impl EvColumns {
    pub fn find(names: &[String]) -> Option<EvColumns> {
        let mut at = [0; 8];
        for (i, c) in COLUMNS.iter().enumerate() {
            at[i] = names.iter().position(|n| n == c)?;
        }
        Some(EvColumns(at))
    }

    /// The key of the option discarding `tile` whose column `c` holds `x(c)`.
    pub fn key(&self, x: impl Fn(usize) -> f64, tile: Tile) -> OrderKey {
        let [ev, defined, far_s, far_u, shanten, ukeire, paijia, drawn] = self.0.map(x);
        let shanten = shanten as i8;
        let valuation = if defined > 0.5 {
            Valuation::Points(ev)
        } else if shanten >= 3 {
            Valuation::Far(Far { yaku_shanten: far_s as i8, weighted_ukeire: far_u as u32 })
        } else {
            Valuation::Unvalued
        };
        let score = DiscardOption { tile, shanten, ukeire: ukeire as u32, valuation }.score();
        OrderKey { score, shanten, paijia, drawn: drawn > 0.5, tile }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::rows::{game_rows, GameRows};
    use crate::features::catalog::names;
    use crate::log::event::Game;
    use crate::rank::expected_value::ranking::pick_order;
    use crate::rank::expected_value::EvSearch;

    /// The `ev` pick and the legal discards of each discard decision of a game, through its rows,
    /// in game order.
    fn dataset_picks(rows: &GameRows, cols: &EvColumns) -> Vec<(Tile, Vec<Tile>)> {
        let w = names().len();
        let mut picks = Vec::new();
        for d in 0..rows.decisions.len() {
            let (a, b) = (rows.option_ptr[d] as usize, rows.option_ptr[d + 1] as usize);
            let tiles: Option<Vec<Tile>> = rows.options[a..b]
                .iter()
                .map(|o| crate::tile::parse_mpsz(&o.label).ok().map(|t| t[0]))
                .collect();
            let discard = rows.decisions[d].kind == crate::replay::decision::DecisionKind::Discard;
            let Some(tiles) = tiles.filter(|_| discard) else { continue };
            let keys: Vec<OrderKey> =
                (a..b).zip(&tiles).map(|(i, &t)| cols.key(|c| rows.values[i * w + c] as f64, t)).collect();
            picks.push((tiles[pick_order(rows.decisions[d].shanten, &keys)[0]], tiles));
        }
        picks
    }

    /// On every discard decision of 12 shared games, the pick rebuilt from the rows is the live
    /// search's.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn dataset_picks_equal_the_search() {
        let files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        let names: Vec<String> = names().iter().map(|n| n.to_string()).collect();
        let cols = EvColumns::find(&names).expect("catalog has the ev columns");
        let (mut n, mut games, mut bad) = (0, 0, Vec::new());
        for f in files.iter().step_by(files.len() / 40) {
            let Ok(game) = crate::log::source::Source::file(f).load() else { continue };
            let game: Game = game;
            let Ok(rows) = game_rows(&game) else { continue };
            games += 1;
            if games > 12 {
                break;
            }
            let ours = dataset_picks(&rows, &cols);
            let views = crate::dataset::rows::discard_positions(&game).unwrap();
            assert_eq!(ours.len(), views.len(), "{}", f.display());
            for (v, (pick, legal)) in views.iter().zip(ours) {
                let want = EvSearch::new(v).with_view_reds().rank_among(&legal)[0].tile;
                n += 1;
                if pick != want {
                    bad.push(format!("{} {}: rows {pick} search {want}", f.display(), v.full_hand()));
                }
            }
        }
        assert!(n > 500, "{n} decisions");
        assert!(bad.is_empty(), "{} of {n} differ: {:#?}", bad.len(), &bad[..bad.len().min(8)]);
    }

    /// On 電脳麻将's golden positions (2,502 closed and open, 422 more open hands), the pick made
    /// through the dataset path (the rows ingest would write, then this evaluator) is
    /// `@kobalab/majiang-ai`'s, under majiang-core's scoring as the golden files were made.
    #[test]
    fn dataset_path_picks_equal_majiang_ai() {
        use crate::rank::majiang_position::{parse_line, tile_name};
        use crate::score::ScoreRules;
        let names: Vec<String> = names().iter().map(|n| n.to_string()).collect();
        let cols = EvColumns::find(&names).expect("catalog has the ev columns");
        let files = [
            include_str!("../rank/testdata/majiang_ai_picks.jsonl"),
            include_str!("../rank/testdata/majiang_ai_open.jsonl"),
        ];
        let (mut n, mut bad) = (0, Vec::new());
        for line in files.iter().flat_map(|f| f.lines()) {
            let p = parse_line(line).unwrap();
            let g: serde_json::Value = serde_json::from_str(line).unwrap();
            let mut ev = EvSearch::new(&p.view).with_view_reds().with_rules(ScoreRules::MAJIANG);
            let rows = crate::dataset::rows::position_rows(&p.view, &mut ev).unwrap();
            let keys: Vec<OrderKey> = rows.iter().map(|(t, r)| cols.key(|c| r[c] as f64, *t)).collect();
            let hand_shanten = crate::hand::shanten::min_shanten(&p.view.hand_counts());
            let pick = tile_name(rows[pick_order(hand_shanten, &keys)[0]].0);
            n += 1;
            if pick != g["pick"].as_str().unwrap() {
                bad.push(format!("{} {}: ours {pick} theirs {}", g["id"], g["shoupai"], g["pick"]));
            }
        }
        assert_eq!(n, 2502 + 422);
        assert!(bad.is_empty(), "{} of {n} differ: {:#?}", bad.len(), &bad[..bad.len().min(8)]);
    }
}
