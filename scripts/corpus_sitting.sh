#!/bin/sh
# One sitting of whole-corpus ingests, run back to back, printed as the rows of docs/performance.md's
# speed tables: wall, games/s, CPU, CPU per game, peak RSS and bytes per game. The VM's speed drifts by
# 10-15% between hours, so only runs of one sitting compare; give each build twice, in both orders,
# to see the drift (e.g. A B B A).
#
#   scripts/corpus_sitting.sh SHARED WORK RUN [RUN...]
#
# RUN is LABEL=BINARY, or LABEL=BINARY:ARGS for extra ingest arguments (e.g.
# "skip=target/release/haifu:--skip ukeire2"). Each run ingests SHARED/data/tenhou at --jobs 2
# through scripts/ingest_corpus.sh into WORK/LABEL (emptied first; LABELs must differ), timed by
# GNU time. At the end every run's part files are compared (cmp) with the first run's that had the
# same ARGS: a speed change must write the same bytes.
# Exit status: 0 when every such pair is byte-identical, 1 when one differs, 2 on bad arguments.
set -u
SHARED=${1:?usage: corpus_sitting.sh SHARED WORK LABEL=BINARY[:ARGS]...}
WORK=${2:?usage: corpus_sitting.sh SHARED WORK LABEL=BINARY[:ARGS]...}
shift 2
[ $# -ge 1 ] || { echo "corpus_sitting: give at least one LABEL=BINARY run" >&2; exit 2; }
[ -d "$SHARED/data/tenhou" ] || { echo "corpus_sitting: $SHARED/data/tenhou not found" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "corpus_sitting: needs /usr/bin/time (GNU time)" >&2; exit 2; }
HERE=$(dirname "$0")
for run in "$@"; do
  case $run in *=*) ;; *) echo "corpus_sitting: '$run' is not LABEL=BINARY[:ARGS]" >&2; exit 2 ;; esac
  bin=${run#*=}; bin=${bin%%:*}
  [ -x "$bin" ] || { echo "corpus_sitting: $bin is not an executable" >&2; exit 2; }
done
mkdir -p "$WORK"
echo "sitting of $(date -u '+%Y-%m-%d %H:%M') UTC, --jobs 2"
echo "| run | wall | games/s | CPU | CPU / game | peak RSS | bytes / game |"
echo "|---|---:|---:|---:|---:|---:|---:|"
status=0
firsts=""
for run in "$@"; do
  label=${run%%=*}
  rest=${run#*=}
  bin=${rest%%:*}
  args=""
  [ "$rest" != "$bin" ] && args=${rest#*:}
  out="$WORK/$label"
  rm -rf "$out"
  # shellcheck disable=SC2086
  /usr/bin/time -v -o "$WORK/$label.time" "$HERE/ingest_corpus.sh" "$SHARED" "$out" "$bin" --jobs 2 $args \
    > "$WORK/$label.log" 2>&1 || { echo "corpus_sitting: run $label failed (see $WORK/$label.log)" >&2; exit 2; }
  games=$(sed -n 's/^[0-9]* files, \([0-9]*\) games,.*/\1/p' "$WORK/$label.log" | head -1)
  [ -n "$games" ] && [ "$games" -gt 0 ] || { echo "corpus_sitting: no game count in $WORK/$label.log" >&2; exit 2; }
  # Bytes of the whole output (parts and their manifests), as docs/performance.md's tables count them.
  bytes=$(du -sb "$out" | cut -f1)
  awk -v label="$label${args:+ ($args)}" -v games="$games" -v bytes="$bytes" '
    /User time/ { user = $NF } /System time/ { sys = $NF } /Maximum resident/ { rss = $NF }
    /Elapsed/ { n = split($NF, t, ":"); wall = (n == 3) ? t[1] * 3600 + t[2] * 60 + t[3] : t[1] * 60 + t[2] }
    END {
      cpu = user + sys
      printf "| %s | %.1f s | %.1f | %.1f s | %.1f ms | %d KB | %d |\n", label, wall, games / wall, cpu, 1000 * cpu / games, rss, bytes / games
    }' "$WORK/$label.time"
  # The first run with these arguments is the one the others are compared with.
  key=$(printf '%s' "$args" | tr -c 'A-Za-z0-9' '_')
  first=$(printf '%s\n' "$firsts" | sed -n "s/^$key=//p" | head -1)
  if [ -z "$first" ]; then
    firsts="$firsts
$key=$label"
  else
    diffs=$(cd "$out" && find . -name '*.parquet' | sort | while read -r f; do
      cmp -s "$f" "$WORK/$first/$f" || echo "$f"
    done)
    n_first=$(cd "$WORK/$first" && find . -name '*.parquet' | wc -l)
    n_this=$(cd "$out" && find . -name '*.parquet' | wc -l)
    if [ -z "$diffs" ] && [ "$n_first" -eq "$n_this" ]; then
      echo "  ($label: every part file byte-identical to $first's)"
    else
      echo "  ($label: part files differ from $first's: $(echo "$diffs" | head -3 | tr '\n' ' '))"
      status=1
    fi
  fi
done
exit $status
