#!/bin/sh
# The per-family --drop table of the discard model: one fit with every column, then one without
# each feature family (the catalog's, as `haifu schema` lists them, and the visibility columns
# vis_*), each on the same seeded sample of games and split, each scored on the held-out houou
# human discards. (The expected-value columns feed the `value` gate, so they are not dropped
# here.) Writes OUT/drop.md (a markdown table) and the fits.
#   scripts/drop_table.sh DATA OUT [DECISIONS] [HAIFU]
# About 3 minutes per fit at 600,000 decisions on 2 cores.
set -eu
DATA=$1
OUT=$2
N=${3:-600000}
HAIFU=${4:-target/release/haifu}
mkdir -p "$OUT"
FIT="--kind discard --tables houou,tokujou --seats human --seed 1 --l2 0.0001 --max-iters 150 \
 --interact shanten --interact riichi --interact value --interact turn --max-decisions $N"
# Column names of one family, comma-separated (each name is a prefix of itself), without the
# gates' inputs (shanten_min, safety_any_riichi): a fit without them cannot gate.
family() {
  "$HAIFU" schema | awk -F'|' -v f=" $1 " '$3 == f { gsub(/[ `]/, "", $2); print $2 }' |
    grep -vx -e shanten_min -e safety_any_riichi | paste -sd, -
}
top1() {
  "$HAIFU" eval --data "$DATA" --kind discard --tables houou --seats human --seed 1 --split test \
    --weights "$1" --evaluator linear --json | python3 -c 'import json,sys; print("%.2f" % (100 * json.load(sys.stdin)["evaluators"]["linear"]["top1"]))'
}
echo "| left out | columns | held-out houou top-1 | change |" > "$OUT/drop.md.tmp"
echo "|---|---:|---:|---:|" >> "$OUT/drop.md.tmp"
"$HAIFU" fit --data "$DATA" $FIT --out "$OUT/all.json" > "$OUT/all.log" 2>&1
base=$(top1 "$OUT/all.json")
echo "| nothing (every column) | 0 | $base% | |" >> "$OUT/drop.md.tmp"
for f in vis threat river dora yaku_potential melds21 safety shape energy; do
  case $f in
    vis) cols="vis_" ;;
    *) cols=$(family "$f") ;;
  esac
  n=$(echo "$cols" | tr ',' '\n' | grep -c .)
  [ "$f" = vis ] && n=3
  "$HAIFU" fit --data "$DATA" $FIT --drop "$cols" --out "$OUT/no_$f.json" > "$OUT/no_$f.log" 2>&1
  t=$(top1 "$OUT/no_$f.json")
  d=$(python3 -c "print('%+.2f' % ($t - $base))")
  echo "| $f | $n | $t% | $d |" >> "$OUT/drop.md.tmp"
  cp "$OUT/drop.md.tmp" "$OUT/drop.md"
done
mv "$OUT/drop.md.tmp" "$OUT/drop.md"
