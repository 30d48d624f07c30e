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
# golden EXAMPLE SCRIPT OUT WHAT ARGS...: the example's positions, majiang-ai's answer for each
# (SCRIPT run by node with the npm package installed in a temporary folder), written to OUT.
golden() {
    example=$1 script=$2 out=$3 what=$4
    shift 4
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
    (cd "$WORK" && npm init -y >/dev/null && npm install --silent @kobalab/majiang-ai@1.0.13 >/dev/null)
    cargo run --release --example "$example" -- "$@" > "$WORK/positions.jsonl"
    NODE_PATH="$WORK/node_modules" node "$script" < "$WORK/positions.jsonl" > "$WORK/golden.jsonl"
    mv "$WORK/golden.jsonl" "$out"
    echo "wrote $out: $(wc -l < "$out") $what"
}
T=src/rank/testdata
case "${1:-}" in
    --riichi) golden majiang_riichi_positions scripts/majiang_riichi.js $T/majiang_ai_riichi.jsonl positions "${2:-50}" ;;
    --calls) golden majiang_call_positions scripts/majiang_calls.js $T/majiang_ai_calls.jsonl offers "${2:-240}" ;;
    --danger) golden majiang_danger_positions scripts/majiang_danger.js $T/majiang_ai_danger.jsonl positions "${2:-300}" ;;
    --open) golden majiang_positions scripts/majiang_golden.js $T/majiang_ai_open.jsonl positions --open "${2:-60}" ;;
    *) golden majiang_positions scripts/majiang_golden.js $T/majiang_ai_picks.jsonl positions "${1:-500}" ;;
esac
