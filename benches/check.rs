//! Throughput of `haifu check` against its floor, in one run on the same files:
//! - floor: decompress (when gzipped) and tokenize every file with quick-xml, nothing else;
//! - parse: records into typed games;
//! - parse + replay (full validation);
//! - parse + replay + re-score every win.
//!
//! All four read the same bytes from memory and use every core (rayon), as `haifu check` does.
//! Throughput is in games. Needs ../shared (or HAIFU_SHARED); `HAIFU_BENCH_GAMES` limits the
//! number of files (default 400).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use quick_xml::events::Event as XmlEvent;
use quick_xml::Reader;
use rayon::prelude::*;

use haifu::log::source::{decompress, parse_game};
use haifu::replay::{check::Rescore, replay_game, NoWinCheck};

fn files() -> Vec<(String, Vec<u8>)> {
    let Some(paths) = haifu::testdata::bench_tenhou_files("check bench", &[".mjlog", ".mjlog.gz"]) else {
        return Vec::new();
    };
    let limit: usize = std::env::var("HAIFU_BENCH_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(400);
    paths.into_iter().take(limit).map(|p| (p.display().to_string(), std::fs::read(&p).unwrap())).collect()
}

fn tokenize(name: &str, bytes: &[u8]) -> usize {
    let xml =
        if bytes.starts_with(&[0x1f, 0x8b]) { decompress(name, bytes).unwrap() } else { bytes.to_vec() };
    let mut reader = Reader::from_reader(xml.as_slice());
    let mut buf = Vec::new();
    let mut n = 0;
    loop {
        match reader.read_event_into(&mut buf) {
            Ok(XmlEvent::Eof) | Err(_) => break,
            Ok(XmlEvent::Empty(e)) | Ok(XmlEvent::Start(e)) => n += e.attributes().count(),
            Ok(_) => {}
        }
        buf.clear();
    }
    n
}

fn bench(c: &mut Criterion) {
    let files = files();
    if files.is_empty() {
        return;
    }
    let mut g = c.benchmark_group("check");
    g.sample_size(10);
    g.throughput(Throughput::Elements(files.len() as u64));
    g.bench_function("floor_decompress_tokenize", |b| {
        b.iter(|| files.par_iter().map(|(n, f)| tokenize(n, f)).sum::<usize>())
    });
    g.bench_function("parse", |b| {
        b.iter(|| files.par_iter().map(|(n, f)| parse_game(n, f).unwrap().rounds.len()).sum::<usize>())
    });
    g.bench_function("parse_replay", |b| {
        b.iter(|| {
            files
                .par_iter()
                .map(|(n, f)| {
                    let game = parse_game(n, f).unwrap();
                    replay_game(&game, &mut (), &mut NoWinCheck).map(|s| s.discards).unwrap_or(0)
                })
                .sum::<usize>()
        })
    });
    g.bench_function("parse_replay_rescore", |b| {
        b.iter(|| {
            files
                .par_iter()
                .map(|(n, f)| {
                    let game = parse_game(n, f).unwrap();
                    replay_game(&game, &mut (), &mut Rescore::default()).map(|s| s.agari).unwrap_or(0)
                })
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
