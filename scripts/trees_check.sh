#!/usr/bin/env bash
# LightGBM as an outside referee of haifu's trees scorer (src/model/trees/) on real option rows.
#
#   scripts/trees_check.sh DATA [MODEL] [N] [C]
#
# DATA is an `haifu ingest` folder (read only); MODEL a LightGBM text model (plain or gzipped),
# or `-` (the default) to train a small one on DATA's first rows first; N rows (default 20000),
# contributions on the first C (default 10000; TreeSHAP is the slow part, in LightGBM too).
# The rows are every option of the decisions (of two options or more) among the first N rows of
# DATA's first options part.
# LightGBM scores them (predict and pred_contrib) with their features built by make trees' own
# training code (scripts/trees.py), `cargo run --release --example trees_predict` has haifu build
# and score the same decisions as `--evaluator trees` does (TreesRanker), and
# scripts/trees_check.py compares: the same rows, every score within 1e-9, every contribution
# within 1e-6, or exit status 1. Outputs in $OUT (default out/trees-check). Python packages in
# the venv `make ceiling` uses ($VENV, default .venv; scripts/ceiling-requirements.txt); when it
# cannot be made (no network, no wheel), prints "skipped: REASON" and exits 0.
set -euo pipefail
data=${1:?usage: $0 DATA [MODEL] [N] [C]}
model=${2:--}
n=${3:-20000}
c=${4:-10000}
out=${OUT:-out/trees-check}
venv=${VENV:-.venv}
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import lightgbm, polars' 2>/dev/null; then
    if ! python3 -m venv "$venv" >/tmp/trees-check-pip.log 2>&1 \
        || ! "$venv/bin/pip" install -q -r "$here/ceiling-requirements.txt" >>/tmp/trees-check-pip.log 2>&1; then
        echo "skipped: pip could not install scripts/ceiling-requirements.txt ($(tail -1 /tmp/trees-check-pip.log))"
        exit 0
    fi
fi
mkdir -p "$out"
model=$(nice "$venv/bin/python" "$here/trees_check.py" prepare "$data" "$model" "$n" "$c" "$out")
nice cargo run --quiet --release --example trees_predict -- "$data" "$model" "$n" "$c" > "$out/haifu.txt"
exec "$venv/bin/python" "$here/trees_check.py" compare "$out"
