#!/usr/bin/env bash
# make demo: the whole pipeline on records haifu makes itself (self-play), or on yours with LOGS=path.
#   simulate -> check -> ingest -> polars -> fit -> eval -> report -> stats -> review -> convert, then a
#   nanikiru walk-through. Outputs go to out/demo (or DEMO_OUT).
# The README's "first ten minutes" recipes are these command lines with DEMO_OUT=out/demo
# (tests/links.rs checks that they stay the same).
set -euo pipefail
HAIFU=${1:-target/debug/haifu}
OUT=${DEMO_OUT:-out/demo}
GAMES=${DEMO_GAMES:-40}
# Every recipe's command line and what it printed go to $OUT/transcript.txt as well: the README
# shows that run's outputs, and `cargo test --test links -- --ignored demo_` (run at the end)
# compares them.
TRANSCRIPT=$OUT/transcript.txt
say() { printf '\n== %s\n' "$*"; }
# The command on stderr and in the transcript, its stdout on stdout and in the transcript.
run() { echo "\$ haifu $*" >&2; echo "\$ haifu $*" >> "$TRANSCRIPT"; "$HAIFU" "$@" | tee -a "$TRANSCRIPT"; }
# The same for a command whose stdout is redirected by the caller (the bot's answers): only the
# command line is recorded.
run_to() { echo "\$ haifu $*" >&2; echo "\$ haifu $*" >> "$TRANSCRIPT"; "$HAIFU" "$@"; }

rm -rf "$OUT" && mkdir -p "$OUT"
: > "$TRANSCRIPT"
if [ -n "${LOGS:-}" ]; then
    say "Your records: $LOGS"
    LOGDIR=$LOGS
else
    say "Self-play: $GAMES hanchan games of four max-ukeire bots (duplicate walls), written as Tenhou mjlog"
    run simulate --games "$GAMES" --bots ukeire --duplicate --seed 7 --out "$OUT/logs"
    LOGDIR=$OUT/logs
fi

say "Replay every game with full validation and re-score every win against the record"
run check "$LOGDIR" || echo "(some records failed; the rest of the pipeline uses the good ones)"

say "Every decision with its options and feature vectors, to parquet"
run ingest "$LOGDIR" --out "$OUT/dataset" || true

say "Open the dataset in polars (Python)"
# polars from the system Python, else from the virtual environment python/test.sh uses (made here
# when PyPI can be reached), else skipped with what to install.
PY=python3
if ! python3 -c 'import polars' 2>/dev/null; then
    VENV=${HAIFU_PY_VENV:-target/pyvenv}
    if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import polars' 2>/dev/null; then
        PY=$VENV/bin/python
    elif python3 -c 'import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=15).read(1)' \
            "${PIP_INDEX_URL:-https://pypi.org/simple}/polars/" 2>/dev/null; then
        echo "(polars not installed: installing it into $VENV, about 30 s)"
        { [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"; } \
            && "$VENV/bin/pip" install --quiet --disable-pip-version-check "polars>=1.3" && PY=$VENV/bin/python
    fi
fi
if "$PY" -c 'import polars' 2>/dev/null; then
    echo "\$ python3 (the README's polars snippet)" | tee -a "$TRANSCRIPT"
    "$PY" - <<EOF | tee -a "$TRANSCRIPT"
import polars as pl
decisions = pl.read_parquet("$OUT/dataset/decisions/*.parquet")
options = pl.read_parquet("$OUT/dataset/options/*.parquet")
picks = options.filter(pl.col("chosen")).join(decisions, on="decision_id")
print(picks.filter(pl.col("kind") == "discard").group_by("shanten").agg(pl.len(), pl.col("ukeire_count").mean()).sort("shanten"))
EOF
else
    echo "skipped: polars not installed and PyPI not reachable (pip install polars, then make demo again)"
fi

say "Fit the linear evaluator to the recorded picks (pairwise logistic ranking loss, L-BFGS; weights by shanten)"
run fit --data "$OUT/dataset" --seats all --max-iters 60 --l2 0.001,0.01 --interact shanten \
    --out "$OUT/weights.json"

say "Agreement with the recorded picks on held-out games: ukeire, ev and the fitted linear evaluator"
run eval --data "$OUT/dataset" --weights "$OUT/weights.json" --seats all --split test

say "The evaluators side by side (also yaku, each with and without push/fold), as markdown and PNG"
run report --data "$OUT/dataset" --weights "$OUT/weights.json" --seats all --out "$OUT/report"

say "Player and table statistics, wall / suji studies"
run stats "$LOGDIR" --out "$OUT/stats" --min-games 1

say "A review page of one game: every decision of seat 0 against the shipped linear model (data/weights/default.json)"
if [ -z "${LOGS:-}" ]; then
    run review "$OUT/logs/sim-7-0.mjlog" --seat 0 --out "$OUT/review.html"
else
    run review "$LOGDIR" --seat 0 --out "$OUT/review" || true
fi

say "Every game as mjai (Mortal's training layout), validated and read back"
run convert "$LOGDIR" --to mjai --out "$OUT/mjai" || true

say "Seat 0 of the first converted game, played by 電脳麻将 (majiang-0402) through the mjai protocol"
first=$(ls "$OUT/mjai" 2>/dev/null | head -1)
if [ -n "$first" ]; then
    gzip -dc "$OUT/mjai/$first" > "$OUT/bot-stream.jsonl"
    run_to bot --seat 0 --player majiang-0402 < "$OUT/bot-stream.jsonl" > "$OUT/bot-answers.jsonl"
    echo "$(wc -l < "$OUT/bot-answers.jsonl") answer lines, $(grep -vc '"none"' "$OUT/bot-answers.jsonl") moves; the first:"
    grep -m 3 -v '"none"' "$OUT/bot-answers.jsonl"
fi

say "What to discard, by max ukeire and by the evaluator just fitted (with the reasons)"
run nanikiru 1234678m056p3s114z --dora 4p --evaluator ukeire
run nanikiru 1234678m056p3s114z --dora 4p --evaluator linear --weights "$OUT/weights.json" --explain

say "Done. Outputs in $OUT:"
echo "  logs/            self-play records (Tenhou mjlog; open them with any mjlog viewer)"
echo "  dataset/         games, rounds, decisions, options parquet (schema: docs/schema.md)"
echo "  weights.json     fitted weights; weights.md report with loss curve (weights.loss.png)"
echo "  report/README.md evaluators against the recorded picks (tables, plot)"
echo "  stats/README.md  player / table statistics and studies with plots"
echo "  review.html      a review page of one game (review/ with an index for LOGS=path)"
echo "  mjai/            one GAME_ID.json.gz per game, for Mortal and RiichiEnv"
echo "  bot-answers.jsonl haifu bot's answers as seat 0 of the first of them (docs/bot.md)"

if [ -z "${LOGS:-}" ]; then
    say "The README shows this run's outputs, and the reports' links resolve (tests/links.rs)"
    HAIFU_DEMO_OUT="$OUT" ${CARGO:-cargo} test --quiet --test links -- --ignored demo_
fi
