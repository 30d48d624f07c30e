#!/bin/sh
# Regenerates the golden picks of 電脳麻将 that `ev` must reproduce: discard positions from the
# shared corpus (examples/majiang_positions.rs), then @kobalab/majiang-ai 1.0.13's own pick for
# each (scripts/majiang_golden.js). The npm packages are installed in a temporary folder, never
# in the repository. Needs node, npm and the npm registry.
#   scripts/majiang_golden.sh [PER]
#       src/rank/testdata/majiang_ai_picks.jsonl (test `rank::expected_value::majiang_picks`):
#       closed and open hands, PER positions per shanten 0, 1, 2, 3, 4+ (default 500)
#   scripts/majiang_golden.sh --open [PER]
#       src/rank/testdata/majiang_ai_open.jsonl (test `majiang_open_picks`): open hands from
#       other games, up to 2 x PER at tenpai without a yaku, then PER per shanten (default 60)
#   MAJIANG_AI_LEGACY=/path/to/majiang-ai/legacy/suanpai-0305.js scripts/majiang_golden.sh --danger [PER]
#       src/rank/testdata/majiang_ai_danger.jsonl (tests `rank::danger::tests::golden_*`): PER
#       positions with a riichi on the table (default 300), every kind's danger as 1.0.13 scores
#       it and, with MAJIANG_AI_LEGACY set (that file is in the git repository, not in the npm
#       package), as the seed-era players 0101 to 0402 scored it
#   scripts/majiang_golden.sh --calls [PER]
#       src/rank/testdata/majiang_ai_calls.jsonl (test `rank::calls::tests::golden_*`): PER real call
#       offers with nobody in riichi and PER / 4 with a riichi on the table (default 240), each with
#       select_fulou's choice
#   MAJIANG_AI_LEGACY_DIR=/path/to/majiang-ai/legacy scripts/majiang_golden.sh --riichi [PER]
#       src/rank/testdata/majiang_ai_riichi.jsonl (test `push_fold::tests::golden_riichi_*`): PER
#       closed-hand positions facing a riichi per shanten 0, 1, 2, 3+ (default 50), each with the
#       picks of legacy players 0400, 0401, 0402 (in the git repository, not the npm package)
set -eu
if [ "${1:-}" = --riichi ]; then
    shift
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
    (cd "$WORK" && npm init -y >/dev/null && npm install --silent @kobalab/majiang-ai@1.0.13 >/dev/null)
    cargo run --release --example majiang_riichi_positions -- "${1:-50}" > "$WORK/positions.jsonl"
    NODE_PATH="$WORK/node_modules" node scripts/majiang_riichi.js < "$WORK/positions.jsonl" > "$WORK/golden.jsonl"
    OUT=src/rank/testdata/majiang_ai_riichi.jsonl
    mv "$WORK/golden.jsonl" "$OUT"
    echo "wrote $OUT: $(wc -l < "$OUT") positions"
    exit 0
fi
if [ "${1:-}" = --calls ]; then
    shift
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
    (cd "$WORK" && npm init -y >/dev/null && npm install --silent @kobalab/majiang-ai@1.0.13 >/dev/null)
    cargo run --release --example majiang_call_positions -- "${1:-240}" > "$WORK/positions.jsonl"
    NODE_PATH="$WORK/node_modules" node scripts/majiang_calls.js < "$WORK/positions.jsonl" > "$WORK/golden.jsonl"
    OUT=src/rank/testdata/majiang_ai_calls.jsonl
    mv "$WORK/golden.jsonl" "$OUT"
    echo "wrote $OUT: $(wc -l < "$OUT") offers"
    exit 0
fi
if [ "${1:-}" = --danger ]; then
    shift
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
    (cd "$WORK" && npm init -y >/dev/null && npm install --silent @kobalab/majiang-ai@1.0.13 >/dev/null)
    cargo run --release --example majiang_danger_positions -- "${1:-300}" > "$WORK/positions.jsonl"
    NODE_PATH="$WORK/node_modules" node scripts/majiang_danger.js < "$WORK/positions.jsonl" > "$WORK/golden.jsonl"
    OUT=src/rank/testdata/majiang_ai_danger.jsonl
    mv "$WORK/golden.jsonl" "$OUT"
    echo "wrote $OUT: $(wc -l < "$OUT") positions"
    exit 0
fi
if [ "${1:-}" = --open ]; then
    shift
    PER=${1:-60}
    OUT=src/rank/testdata/majiang_ai_open.jsonl
    FLAGS="--open $PER"
else
    PER=${1:-500}
    OUT=src/rank/testdata/majiang_ai_picks.jsonl
    FLAGS=$PER
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
(cd "$WORK" && npm init -y >/dev/null && npm install --silent @kobalab/majiang-ai@1.0.13 >/dev/null)
# shellcheck disable=SC2086 # FLAGS is one or two words on purpose
cargo run --release --example majiang_positions -- $FLAGS > "$WORK/positions.jsonl"
NODE_PATH="$WORK/node_modules" node scripts/majiang_golden.js < "$WORK/positions.jsonl" > "$WORK/golden.jsonl"
mv "$WORK/golden.jsonl" "$OUT"
echo "wrote $OUT: $(wc -l < "$OUT") positions"
