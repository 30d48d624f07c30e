//! Family `visibility`: how visible and how useful the discarded tile is, as the max-ukeire bot's
//! discard order ([`crate::rank::max_ukeire::discard_class`]) and kobalab's paijia
//! ([`crate::rank::paijia`]) see it, and whether it is the tile just drawn.

use super::column::Cols;
use crate::rank::max_ukeire::discard_class;
use crate::rank::paijia::Paijia;
use crate::replay::view::View;
use crate::tile::Tile;

pub(crate) const COLUMNS: &[(&str, &str)] = &[
    (
        "discard_class",
        "discard order class of the max-ukeire bot: 0 guest wind, 1 yakuhai, 2 1/9, 3 2/8, 4 3/7, 5 4/6, 6 5, 7 dora",
    ),
    (
        "vis_paijia",
        "isolated-tile value of the discarded tile (kobalab's paijia: unseen copies of it and its neighbours, dora doubled, wind / dragon / flush hand factors)",
    ),
    ("vis_tsumogiri", "1 when the option discards the tile just drawn"),
    ("vis_unseen", "copies of the discarded kind the player has not seen (not held, not visible), 0-3"),
];

/// Fills the family for "discard `tile`" from `view`, with the decision's `paijia` table.
pub(crate) fn fill(pos: &View, paijia: &Paijia, tile: Tile, cols: &mut Cols) {
    cols.put("discard_class", discard_class(pos, tile) as f32);
    cols.put("vis_paijia", paijia.value(tile) as f32);
    cols.flag("vis_tsumogiri", pos.drawn == Some(tile));
    cols.put("vis_unseen", f32::from(paijia.unseen(tile.kind())));
}

#[cfg(test)]
mod tests {
    use crate::features::catalog::{catalog_width, index_of};
    use crate::features::fill_discard_extras;
    use crate::hand::Hand;
    use crate::rank::expected_value::EvSearch;
    use crate::replay::view::View;
    use crate::tile::{parse_mpsz, EAST};

    fn get(row: &[f32], name: &str) -> f32 {
        row[index_of(name).unwrap()]
    }

    /// The visibility columns: the drawn tile is the tsumogiri option, unseen copies leave out
    /// the held and the visible ones, and paijia is the tie-break's value of the tile.
    #[test]
    fn visibility_columns_of_a_discard() {
        let t = |s: &str| parse_mpsz(s).unwrap()[0];
        let mut pos = View::bare(Hand::parse("123m456p789s1155z7z").unwrap(), vec![t("3z")], EAST, EAST + 1);
        pos.visible[t("7z").kind()] += 2;
        pos.drawn = Some(t("7z"));
        let paijia = EvSearch::new(&pos).paijia();
        let mut row = vec![0f32; catalog_width()];
        fill_discard_extras(&pos, t("7z"), &mut row, None, &paijia).unwrap();
        assert_eq!(get(&row, "vis_tsumogiri"), 1.0);
        assert_eq!(get(&row, "vis_unseen"), 1.0);
        assert_eq!(get(&row, "vis_paijia"), paijia.value(t("7z")) as f32);
        fill_discard_extras(&pos, t("1z"), &mut row, None, &paijia).unwrap();
        assert_eq!(get(&row, "vis_tsumogiri"), 0.0);
        // 3z is the indicator: 1z has 2 held, none visible.
        assert_eq!(get(&row, "vis_unseen"), 2.0);
        assert!(paijia.value(t("7z")) < paijia.value(t("1z")), "a dragon with one copy left is worth less");
    }
}
