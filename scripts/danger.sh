#!/bin/sh
# The danger models and their comparison (`make danger`, issue 69): the rows of the complete
# 4-player records at the top of SHARED/data/tenhou (examples/danger_rows.rs; the train and
# validation games sampled by FRACTION, every test game kept), 電脳麻将's own danger on the test
# positions (scripts/majiang_danger.js, with @kobalab/majiang-ai 1.0.13 installed in a temporary
# folder, never in the repository; skipped with a message when npm cannot install it), then
# scripts/danger.py: the three models into MODELS, the table into REPORT.
#   scripts/danger.sh SHARED OUT MODELS REPORT [FRACTION] [PYTHON]
set -eu
SHARED=$1 OUT=$2 MODELS=$3 REPORT=$4 FRACTION=${5:-0.15} PYTHON=${6:-.venv/bin/python}
DATA="$SHARED/data/tenhou"
[ -d "$DATA" ] || { echo "danger: $DATA not found (set SHARED)" >&2; exit 2; }
mkdir -p "$OUT"
cargo run --release --example danger_rows -- "$OUT" --train-fraction "$FRACTION" \
    "$DATA"/*.mjlog "$DATA"/*.mjlog.gz "$DATA"/*.t6.json
WEIXIAN=""
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
if (cd "$WORK" && npm init -y >/dev/null && npm install --silent @kobalab/majiang-ai@1.0.13 >/dev/null 2>&1); then
    NODE_PATH="$WORK/node_modules" node scripts/majiang_danger.js < "$OUT/weixian.jsonl" > "$OUT/weixian-js.jsonl"
    WEIXIAN="--weixian $OUT/weixian-js.jsonl"
else
    echo "danger: npm could not install @kobalab/majiang-ai: the comparison uses haifu's port of weixian only" >&2
fi
# shellcheck disable=SC2086
"$PYTHON" scripts/danger.py "$OUT" --out "$MODELS" --report "$REPORT" $WEIXIAN
