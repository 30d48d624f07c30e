//! How many of `linear`'s served rankings changed when serving moved onto the dataset's rows
//! (issue 56): the rows `nanikiru`, `review` and the bots score used to value every option with
//! red fives "in play, none in sight", whatever the seat's view; ingest, where the weights were
//! fitted, uses the view's own reds ([`haifu::features::option_rows`]). Over the discard positions
//! of every `STEP`-th corpus game, this ranks each position both ways with the shipped weights
//! and counts the positions whose first choice, and whose whole order, differ.
//!
//!     cargo run --release --example served_rankings -- [STEP=25] [SHARED=../shared]
use haifu::features::groups::Skip;
use haifu::features::option_rows::{discard_rows_valued_by, every_discard};
use haifu::model::linear::Linear;
use haifu::rank::expected_value::EvSearch;
use haifu::replay::view::View;
use haifu::tile::Tile;

/// The tiles best first (score, then tile order: as `Linear::rank` breaks ties).
fn order(linear: &Linear, view: &View, rows: &[(Tile, Vec<f32>)]) -> Vec<Tile> {
    let refs: Vec<&[f32]> = rows.iter().map(|(_, r)| r.as_slice()).collect();
    let scores = linear.score_rows(&refs, view.turn);
    let mut idx: Vec<usize> = (0..rows.len()).collect();
    idx.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(rows[a].0.cmp(&rows[b].0)));
    idx.into_iter().map(|i| rows[i].0).collect()
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let step: usize = args.get(1).map_or(Ok(25), |s| s.parse())?;
    let shared = args.get(2).map_or("../shared", String::as_str);
    let mut files: Vec<_> = std::fs::read_dir(format!("{shared}/data/tenhou"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mjlog"))
        .collect();
    files.sort();
    let linear = Linear::load(None)?;
    let (mut positions, mut red_in_sight, mut first, mut whole) = (0u64, 0u64, 0u64, 0u64);
    for path in files.iter().step_by(step.max(1)) {
        let game = haifu::log::source::parse_game("g", &std::fs::read(path)?)?;
        let Ok(views) = haifu::dataset::rows::discard_positions(&game) else { continue };
        for view in &views {
            let new = every_discard(view)?;
            let tiles: Vec<Tile> = new.iter().map(|(t, _)| *t).collect();
            let mut flat = vec![0.0; tiles.len() * haifu::features::catalog::catalog_width()];
            let mut old_ev = EvSearch::new(view).with_reds(true, [false; 3]);
            discard_rows_valued_by(view, &tiles, &mut old_ev, Skip::NONE, &mut flat)?;
            let old: Vec<(Tile, Vec<f32>)> = tiles
                .iter()
                .zip(flat.chunks_exact(haifu::features::catalog::catalog_width()))
                .map(|(t, r)| (*t, r.to_vec()))
                .collect();
            let (a, b) = (order(&linear, view, &old), order(&linear, view, &new));
            positions += 1;
            red_in_sight += u64::from(view.visible_reds.iter().any(|&r| r) || !view.red_fives);
            first += u64::from(a[0] != b[0]);
            whole += u64::from(a != b);
        }
    }
    println!(
        "{positions} discard positions of {} games: {red_in_sight} with a red five in sight or none in play, \
         first choice changed in {first}, order changed in {whole}",
        files.len().div_ceil(step.max(1))
    );
    Ok(())
}
