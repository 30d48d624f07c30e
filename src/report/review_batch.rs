//! `haifu review` over many records: one page per game (and its JSON), an index page, and the
//! records that failed. It sits above both the review data ([`super::review`]) and its HTML
//! ([`super::review_html`]), so neither of them needs the other's writer.

use std::path::{Path, PathBuf};

use super::error::{ReportError, Result};

use super::review::{review_game, Who, SCHEMA_VERSION};
use super::review_html::{self, IndexEntry};
use crate::model::judges::Models;

/// What a batch of reviews wrote.
pub struct BatchReport {
    /// Records found (including the failed ones).
    pub files: usize,
    pub entries: Vec<IndexEntry>,
    /// Records that could not be read or reviewed.
    pub errors: Vec<crate::batch::FileError>,
    /// Games the named player did not play in.
    pub without_player: usize,
}

/// A file name from a game id: letters, digits, `.`, `-`, `_` kept, anything else `_`.
fn file_stem(id: &str) -> String {
    let s: String = id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '_' })
        .collect();
    if s.is_empty() {
        "game".into()
    } else {
        s
    }
}

/// Reviews every record under `paths` (files, folders, archives, databases) for `who`, writing
/// one page per game into `out` (and one JSON file per game into `json` when given) plus
/// `index.html` (and `index.json`), with a progress bar; a record that fails is listed and the
/// batch goes on.
pub fn review_batch(
    paths: &[PathBuf],
    who: &Who,
    models: &Models,
    out: &Path,
    json: Option<&Path>,
    jobs: Option<usize>,
) -> Result<BatchReport> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    std::fs::create_dir_all(out).map_err(|source| ReportError::Create { path: out.to_path_buf(), source })?;
    if let Some(j) = json {
        std::fs::create_dir_all(j).map_err(|source| ReportError::Create { path: j.to_path_buf(), source })?;
    }
    let without = AtomicUsize::new(0);
    let mut entries: Vec<IndexEntry> = Vec::new();
    let mut used: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut write_errors: Vec<crate::batch::FileError> = Vec::new();
    let outcome = crate::batch::run_chunked(
        paths,
        jobs,
        "review",
        16,
        |game| {
            let Some(seat) = who.seat(game) else {
                without.fetch_add(1, Ordering::Relaxed);
                return Ok(None);
            };
            review_game(game, "", seat, models).map(Some)
        },
        |part| {
            for (name, review) in part {
                let Some(mut review) = review else { continue };
                review.game.source = name.clone();
                let mut stem = file_stem(&review.game.id);
                let mut k = 2;
                while !used.insert(stem.clone()) {
                    stem = format!("{}-{k}", file_stem(&review.game.id));
                    k += 1;
                }
                let page = format!("{stem}.html");
                let w = || -> Result<()> {
                    crate::util::write_atomic(&out.join(&page), review_html::page(&review))?;
                    if let Some(j) = json {
                        crate::util::write_atomic(&j.join(format!("{stem}.json")), review.to_json())?;
                    }
                    Ok(())
                };
                if let Err(e) = w() {
                    write_errors
                        .push(crate::batch::FileError { file: name, error: crate::batch::error_text(&e) });
                    continue;
                }
                let me = &review.game.players[review.seat as usize];
                entries.push(IndexEntry {
                    source: name,
                    id: review.game.id.clone(),
                    page,
                    player: review.player.clone(),
                    seat: review.seat,
                    placement: me.placement,
                    final_score: me.final_score,
                    date: review.game.date.clone(),
                    table: review.game.table.clone(),
                    decisions: review.summary.game.decisions,
                    top1: review.summary.game.top1,
                    top3: review.summary.game.top3,
                    agreement: review.summary.game,
                    discard: review.summary.discard,
                    riichi: review.summary.riichi,
                    call: review.summary.call,
                    kita: review.summary.kita,
                    seats: review.game.seats,
                });
            }
        },
    );
    let mut errors = outcome.errors;
    errors.extend(write_errors);
    let listed: Vec<(String, String)> = errors.iter().map(|e| (e.file.clone(), e.error.clone())).collect();
    crate::util::write_atomic(&out.join("index.html"), review_html::index(&entries, &listed))?;
    if let Some(j) = json {
        let v = serde_json::json!({
            "schema_version": SCHEMA_VERSION,
            "games": entries,
            "errors": errors,
        });
        crate::util::write_atomic(&j.join("index.json"), serde_json::to_string_pretty(&v)? + "\n")?;
    }
    Ok(BatchReport { files: outcome.files, entries, errors, without_player: without.into_inner() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::review::recorded_actions;

    /// The `data-…` attribute values of every tag carrying `attr` in `html`, in order.
    fn attrs(html: &str, attr: &str) -> Vec<String> {
        let key = format!("{attr}=\"");
        html.match_indices(&key)
            .map(|(i, _)| {
                let rest = &html[i + key.len()..];
                rest[..rest.find('"').unwrap_or(0)].to_string()
            })
            .collect()
    }

    /// On real shared records (mjlog and tenhou.net/6 JSON, one seat each): every decision block
    /// of the page shows the choice the record made (the acted ones in the record's order, read
    /// from the events independently of the decision recorder), every block's ranked option
    /// list holds that choice, ranks are 1..=n, and the JSON carries the schema version.
    #[test]
    #[cfg_attr(haifu_no_shared, ignore = "needs ../shared/data (touch build.rs after adding it)")]
    fn pages_show_the_recorded_choices() {
        let mut files = crate::testdata::need_tenhou_files(&[".mjlog"]);
        files.truncate(3);
        files.extend(crate::testdata::tenhou_files(&[".t6.json"]).unwrap_or_default().into_iter().take(2));
        assert!(files.len() >= 4, "too few shared records: {files:?}");
        let models = Models::load(None).expect("shipped weights");
        for (i, path) in files.iter().enumerate() {
            let bytes = std::fs::read(path).unwrap();
            let name = path.display().to_string();
            let game = crate::log::source::parse_game(&name, &bytes).unwrap();
            let seat = (i % 4) as u8;
            let review = review_game(&game, &name, seat, &models).unwrap_or_else(|e| panic!("{name}: {e:#}"));
            let html = review_html::page(&review);
            let sections: Vec<&str> = html.split("<section class=\"decision").skip(1).collect();
            assert_eq!(sections.len(), review.summary.game.decisions, "{name}: blocks");
            assert!(!sections.is_empty(), "{name}: no decisions");
            let mut acted = Vec::new();
            for (s, d) in sections.iter().zip(review.decisions()) {
                let s = &s[..s.find("</section>").unwrap()];
                let human = attrs(s, "data-human");
                assert_eq!(human, vec![d.human.clone()], "{name} {}", d.id);
                let options = attrs(s, "data-option");
                assert_eq!(options.len(), d.options.len(), "{name} {}", d.id);
                assert!(options.contains(&d.human), "{name} {}: {} not in {options:?}", d.id, d.human);
                let ranks: Vec<usize> = d.options.iter().map(|o| o.linear_rank).collect();
                assert_eq!(ranks, (1..=d.options.len()).collect::<Vec<_>>(), "{name} {}", d.id);
                assert_eq!(d.options.iter().filter(|o| o.chosen).count(), 1, "{name} {}", d.id);
                assert_eq!(d.human_rank == 1, d.explanation.is_none(), "{name} {}", d.id);
                if d.human != "pass" && d.human != "dama" {
                    acted.push(d.human.clone());
                }
            }
            assert_eq!(acted, recorded_actions(&game, seat), "{name}: choices differ from the record");
            let json: serde_json::Value = serde_json::from_str(&review.to_json()).unwrap();
            assert_eq!(json["schema_version"], 1);
            assert_eq!(json["rounds"].as_array().map(Vec::len), Some(game.rounds.len()), "{name}");
        }
    }
}
