#!/bin/sh
# The ranking losses side by side on one dataset, filter and split (`make losses`): one `haifu fit`
# process per loss (so each peak RSS is its own), then a markdown table of test top-1 / top-3 /
# mean rank, iterations, wall time and peak RSS from the weights files' metrics and cost.
#   scripts/losses.sh DATA OUTDIR [extra haifu fit arguments...]
# Beside each NAME.json: NAME.houou.json, `haifu eval` of the fit on the held-out houou discards.
# HAIFU (default target/release/haifu); MARGINS: hinge margins tried for the tuned hinge (per-decision
# pairs), the one with the best validation top-1 is reported (default "0.25 4"). The fits run in
# the order the report needs them most (softmax, the pairwise default, the seed's loss first).
# ROUNDS: rounds of the LambdaRank-style --pairs ranked fit (default 3, each --max-iters long).
set -eu
DATA=$1
OUT=$2
shift 2
HAIFU=${HAIFU:-target/release/haifu}
MARGINS=${MARGINS:-"0.25 4"}
mkdir -p "$OUT"
fit() {
    name=$1
    shift
    echo "== $name"
    "$HAIFU" fit --data "$DATA" --out "$OUT/$name.json" "$@"
    # top-1 on every held-out houou human discard (the split of seed 1, as make weights'), beside
    # the fit's own sample-level test figures
    "$HAIFU" eval --data "$DATA" --weights "$OUT/$name.json" --evaluator linear --tables houou \
        --seats human --seed 1 --split test --json > "$OUT/$name.houou.json"
}
fit softmax --loss softmax "$@"
fit logistic_pd --loss logistic --pairs per-decision "$@"
fit seed --loss seed "$@"
fit logistic --loss logistic --pairs sum "$@"
fit lambdarank --loss logistic --pairs ranked --rounds "${ROUNDS:-3}" "$@"
fit hinge_m1 --loss hinge --margin 1 --pairs per-decision "$@"
for m in $MARGINS; do
    fit "hinge_m$m" --loss hinge --margin "$m" --pairs per-decision "$@"
done
python3 "$(dirname "$0")/loss_table.py" "$OUT"/*.json > "$OUT/losses.md"
cat "$OUT/losses.md"
