#!/usr/bin/env bash
# LightGBM as an outside referee of haifu's trees scorer (src/model/trees/) on real option rows.
#
#   scripts/trees_check.sh DATA [MODEL] [N]
#
# DATA is an `haifu ingest` folder (read only); MODEL a LightGBM text model (plain or gzipped),
# or `-` (the default) to train a small one on DATA's first options part first; N rows (default
# 20000). LightGBM scores the first N rows of DATA's first options part (predict and
# pred_contrib), `cargo run --example trees_predict` has haifu score the same rows as its
# evaluator will (catalog-ordered rows, decision columns beside them), and scripts/trees_check.py
# compares: every score within 1e-9, every contribution within 1e-6, or exit status 1. Outputs in
# $OUT (default out/trees-check). Python packages in the venv `make ceiling` uses ($VENV, default
# .venv; scripts/ceiling-requirements.txt); when it cannot be made (no network, no wheel), prints
# "skipped: REASON" and exits 0.
set -euo pipefail
data=${1:?usage: $0 DATA [MODEL] [N]}
model=${2:--}
n=${3:-20000}
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
model=$(nice "$venv/bin/python" "$here/trees_check.py" prepare "$data" "$model" "$n" "$out")
nice cargo run --quiet --example trees_predict -- "$data" "$model" "$n" > "$out/haifu.txt"
exec "$venv/bin/python" "$here/trees_check.py" compare "$out"
