#!/bin/sh
# Regenerates src/rank/testdata/majiang_ai_picks.jsonl, the golden picks of 電脳麻将 that
# `ev` must reproduce (test `rank::expected_value::majiang_picks`): discard positions from the
# shared corpus (examples/majiang_positions.rs), then @kobalab/majiang-ai 1.0.13's own pick for
# each (scripts/majiang_golden.js). The npm packages are installed in a temporary folder, never
# in the repository. Needs node, npm and the npm registry.
#   scripts/majiang_golden.sh [PER_SHANTEN]    (default 500 positions per shanten 0, 1, 2, 3, 4+)
set -eu
PER=${1:-500}
OUT=src/rank/testdata/majiang_ai_picks.jsonl
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
(cd "$WORK" && npm init -y >/dev/null && npm install --silent @kobalab/majiang-ai@1.0.13 >/dev/null)
cargo run --release --example majiang_positions -- "$PER" > "$WORK/positions.jsonl"
NODE_PATH="$WORK/node_modules" node scripts/majiang_golden.js < "$WORK/positions.jsonl" > "$WORK/golden.jsonl"
mv "$WORK/golden.jsonl" "$OUT"
echo "wrote $OUT: $(wc -l < "$OUT") positions"
