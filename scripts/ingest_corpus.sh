#!/bin/sh
# Ingests the complete 4-player records at the top of SHARED/data/tenhou (partial/ and sanma/ left
# out) into OUT as parts, resuming what is there (`make weights`, `make losses`). The glob is
# expanded here, not in make: ~5,000 paths are too long for one `sh -c` argument.
# Exit status 1 (some records failed: the corpus holds one fixture log whose scores do not add up,
# named in the summary) is not an error here; any other failure is.
# Further arguments go to `haifu ingest` (e.g. `--skip ev,ukeire2`).
#   scripts/ingest_corpus.sh SHARED OUT [HAIFU [INGEST_ARGS...]]
set -u
SHARED=$1
OUT=$2
HAIFU=${3:-target/release/haifu}
[ $# -ge 3 ] && shift 3 || shift $#
DATA="$SHARED/data/tenhou"
[ -d "$DATA" ] || { echo "ingest_corpus: $DATA not found (set SHARED)" >&2; exit 2; }
"$HAIFU" ingest "$DATA"/*.mjlog "$DATA"/*.mjlog.gz "$DATA"/*.t6.json --out "$OUT" --resume "$@"
status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
