//! The trees evaluator against ingest: a model is served the rows it was trained on. These need
//! the decision rows of `dataset` beside the `model::trees` inputs, so they sit above both.

use haifu::model::trees::inputs::Situation;
use haifu::model::trees::TreesRanker;

/// The situation of a live position is the decisions table's: every discard decision of
/// real games, the view the ranker is given against the row ingest writes.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn a_views_situation_is_its_decision_rows() {
    let mut files = haifu::testdata::need_tenhou_files(&[".mjlog"]);
    files.truncate(6);
    let batch = haifu::batch::load_all(&files);
    assert_eq!(batch.games.len(), files.len(), "{:?}", batch.errors);
    let mut n = 0;
    for game in &batch.games {
        let rows = haifu::dataset::rows::game_rows(game).unwrap();
        let views = haifu::dataset::rows::discard_positions(game).unwrap();
        let discards: Vec<_> = rows
            .decisions
            .iter()
            .filter(|d| d.kind == haifu::replay::decision::DecisionKind::Discard)
            .collect();
        assert_eq!(discards.len(), views.len());
        for (d, v) in discards.iter().zip(&views) {
            let want = Situation::of_decision(d.turn, d.wall_left, d.round_wind, d.dealer, d.scoreboard());
            assert_eq!(Situation::of_view(v), want);
            n += 1;
        }
    }
    assert!(n > 1000, "{n}");
}

/// The shipped model (data/weights/trees.txt.gz) lines up with the rows, and scores a live
/// position (nanikiru, review, the bots) exactly as it scores the same decision's ingest rows
/// (`haifu eval`, and what `make trees` trained on); on a real model the contributions of
/// two options still sum to their score gap.
#[test]
#[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
fn the_shipped_model_scores_a_view_as_its_ingest_rows() {
    let t = TreesRanker::load(None).expect("the shipped trees model");
    let mut files = haifu::testdata::need_tenhou_files(&[".mjlog"]);
    files.truncate(1);
    let batch = haifu::batch::load_all(&files);
    assert_eq!(batch.games.len(), files.len(), "{:?}", batch.errors);
    let width = haifu::features::catalog::catalog_width();
    // Live positions rank each distinct tile once; ingest lists a drawn tile and a held copy of
    // it as two options (`vis_tsumogiri`): the decisions whose options are the same tiles.
    let (mut n, mut other) = (0, 0);
    for game in &batch.games {
        let rows = haifu::dataset::rows::game_rows(game).unwrap();
        let mut views = haifu::dataset::rows::discard_positions(game).unwrap().into_iter();
        for (i, d) in rows.decisions.iter().enumerate() {
            if d.kind != haifu::replay::decision::DecisionKind::Discard {
                continue;
            }
            let view = views.next().expect("a view per discard decision");
            if n + other == 80 {
                break; // a debug build ranks a live position in about a tenth of a second
            }
            let (a, b) = (rows.option_ptr[i] as usize, rows.option_ptr[i + 1] as usize);
            let refs: Vec<&[f32]> = (a..b).map(|o| &rows.values[o * width..(o + 1) * width]).collect();
            let s = Situation::of_decision(d.turn, d.wall_left, d.round_wind, d.dealer, d.scoreboard());
            let scores = t.score_rows(&refs, s);
            let live: Vec<(String, f64)> =
                t.rank(&view).unwrap().iter().map(|r| (r.tile.to_string(), r.score)).collect();
            if live.len() != refs.len() {
                other += 1;
                continue;
            }
            for (o, score) in (a..b).zip(&scores) {
                let label = &rows.options[o].label;
                let l = live.iter().find(|(t, _)| t == label).unwrap_or_else(|| panic!("{label}"));
                assert_eq!(l.1, *score, "{label}");
            }
            let gap = t.differences(&refs, s, 0, refs.len() - 1).total;
            assert!((gap - (scores[0] - scores[refs.len() - 1])).abs() < 1e-9);
            n += 1;
        }
    }
    assert!(n >= 60, "{n} decisions compared, {other} with a drawn copy");
}
