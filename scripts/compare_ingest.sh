#!/bin/sh
# Compares two haifu builds on the same real games, the way every ingest speed change is judged:
# runs `ingest --jobs J` with A and with B, interleaved (A B, B A, A B, ...) so the VM's drift
# and the order within a pair hit both alike, prints each run's wall and CPU seconds and peak
# RSS, then the medians and the ratio, and finally checks that A and B wrote byte-identical
# parts and manifests (a speed change must not change one value). The games are those of `make bench-ingest`: 40 evenly spaced mjlogs of
# SHARED/data/tenhou.
#   scripts/compare_ingest.sh A_BIN B_BIN [RUNS=4] [JOBS=2] [SHARED=../shared]
# INGEST_ARGS adds arguments to both sides' ingest, e.g. INGEST_ARGS="--skip ev,ukeire2".
# Exit status: 0 when the outputs are identical, 1 when they differ, 2 on bad arguments.
set -u
A=${1:?usage: compare_ingest.sh A_BIN B_BIN [RUNS] [JOBS] [SHARED]}
B=${2:?usage: compare_ingest.sh A_BIN B_BIN [RUNS] [JOBS] [SHARED]}
RUNS=${3:-4}
JOBS=${4:-2}
SHARED=${5:-../shared}
DATA="$SHARED/data/tenhou"
[ -x "$A" ] && [ -x "$B" ] || { echo "compare_ingest: $A or $B is not an executable" >&2; exit 2; }
[ -d "$DATA" ] || { echo "compare_ingest: $DATA not found" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "compare_ingest: needs /usr/bin/time (GNU time)" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# The bench's selection: the sorted mjlogs, every (count / 40)-th, 40 of them.
ls "$DATA" | LC_ALL=C sort | grep '\.mjlog$' | sed "s|^|$DATA/|" > "$WORK/all"
STEP=$(( $(wc -l < "$WORK/all") / 40 ))
[ "$STEP" -ge 1 ] || STEP=1
awk -v s="$STEP" '(NR - 1) % s == 0' "$WORK/all" | head -40 > "$WORK/games"
echo "$(wc -l < "$WORK/games") games, --jobs $JOBS, $RUNS runs each, interleaved"
for i in $(seq 1 "$RUNS"); do
  # ABBA order: of two back-to-back runs the second was about 2% slower even with the same
  # binary on both sides (an A/A check, 3 pairs: A/B 0.978), so the pairs alternate who goes first.
  if [ $((i % 2)) = 1 ]; then ORDER="A B"; else ORDER="B A"; fi
  for side in $ORDER; do
    if [ "$side" = A ]; then BIN=$A; else BIN=$B; fi
    rm -rf "$WORK/out-$side"
    # shellcheck disable=SC2046
    /usr/bin/time -f "%e %U %M" -o "$WORK/time" "$BIN" ingest --jobs "$JOBS" --out "$WORK/out-$side" \
      ${INGEST_ARGS:-} $(cat "$WORK/games") > /dev/null 2>&1
    read -r wall cpu rss < "$WORK/time"
    echo "$side $wall $cpu $rss" >> "$WORK/runs"
    echo "run $i $side: $wall s wall, $cpu s CPU, $rss KB peak RSS"
  done
done
median() { awk -v s="$1" -v c="$2" '$1 == s { print $c }' "$WORK/runs" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
MA=$(median A 2); MB=$(median B 2); CA=$(median A 3); CB=$(median B 3)
echo "median wall: A $MA s, B $MB s, A/B $(awk -v a="$MA" -v b="$MB" 'BEGIN { printf "%.3f", a / b }')"
echo "median CPU:  A $CA s, B $CB s, A/B $(awk -v a="$CA" -v b="$CB" 'BEGIN { printf "%.3f", a / b }')"
# Each pair's own ratio, then their median: the VM's speed drifts by 10-15% within minutes, and a
# pair's two runs share one moment of it, where the medians above mix moments.
PAIRED=$(awk '{ cpu[$1] = $3 } NR % 2 == 0 { print cpu["A"] / cpu["B"] }' "$WORK/runs" | sort -n |
  awk '{ v[NR] = $1 } END { printf "%.3f (%d pairs, %.3f to %.3f)", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, NR, v[1], v[NR] }')
echo "median of the pairs' CPU ratios A/B: $PAIRED"
DIFF=0
for f in $(cd "$WORK/out-A" && find . -type f | LC_ALL=C sort); do
  cmp -s "$WORK/out-A/$f" "$WORK/out-B/$f" || { echo "differs: $f"; DIFF=1; }
done
[ "$(cd "$WORK/out-A" && find . -type f | wc -l)" = "$(cd "$WORK/out-B" && find . -type f | wc -l)" ] || { echo "the file lists differ"; DIFF=1; }
[ "$DIFF" = 0 ] && echo "outputs: every part and manifest byte-identical"
exit "$DIFF"
