#!/bin/sh
# `haifu stats` over the complete 4-player records at the top of SHARED/data/tenhou (partial/ and
# sanma/ left out, as scripts/ingest_corpus.sh does) into OUT: reports/stats, `make stats-report`.
# With --agreement: every human decision judged by the shipped linear models, match rate and
# bad-move rate by dan and year (the option rows cost about an ingest: a few minutes on 2 cores).
# Exit status 1 (a known-bad fixture record among them, listed in docs/architecture.md) is not an error here.
#   scripts/stats_corpus.sh SHARED OUT [HAIFU]
set -u
SHARED=$1
OUT=$2
HAIFU=${3:-target/release/haifu}
DATA="$SHARED/data/tenhou"
[ -d "$DATA" ] || { echo "stats_corpus: $DATA not found (set SHARED)" >&2; exit 2; }
"$HAIFU" stats "$DATA"/*.mjlog "$DATA"/*.mjlog.gz "$DATA"/*.t6.json --out "$OUT" --min-games 20 --agreement
status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
