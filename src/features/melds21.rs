//! Family `melds21`: the 21-class meld / partial-meld vector of the hand after the discard, one
//! column per class. The classification itself is [`crate::rank::melds21`], which the yaku
//! evaluation function shares.

use super::column::Cols;
use super::facts::{After, Facts};
use crate::rank::melds21::{classify21, CLASS_NAMES, MEANINGS};

pub(crate) fn columns() -> Vec<(&'static str, &'static str)> {
    // The names are "m21_" + class name, built once (the catalog keeps them for the program's life).
    use std::sync::OnceLock;
    static NAMES: OnceLock<Vec<(&'static str, &'static str)>> = OnceLock::new();
    NAMES
        .get_or_init(|| {
            CLASS_NAMES
                .iter()
                .zip(MEANINGS)
                .map(|(n, m)| (&*Box::leak(format!("m21_{n}").into_boxed_str()), m))
                .collect()
        })
        .clone()
}

pub(crate) fn fill(ctx: &Facts, a: &After, cols: &mut Cols) {
    let v = classify21(&a.counts, &ctx.view.melds, ctx.view.round_wind, ctx.view.seat_wind);
    for (o, c) in cols.slice().iter_mut().zip(v) {
        *o = c as f32;
    }
}
