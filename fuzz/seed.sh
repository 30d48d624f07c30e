#!/bin/sh
# Seeds the fuzz corpora with real records from ../shared (never committed: see the data README).
# The smallest records first: libFuzzer mutates small inputs far faster, and the shared corpus holds
# complete games from 1 KB up, plus single-round excerpts (partial/). Usage: fuzz/seed.sh [SHARED] [N]
set -eu
SHARED=${1:-../shared}
N=${2:-64}
DATA="$SHARED/data/tenhou"
[ -d "$DATA" ] || { echo "fuzz/seed.sh: $DATA not found (set SHARED)"; exit 2; }
cd "$(dirname "$0")"
for target in parse_game replay_game; do
    mkdir -p "corpus/$target"
    # N smallest complete records (mjlog, gzipped mjlog, tenhou.net/6 JSON) and every excerpt.
    find "$DATA" -maxdepth 1 -type f \( -name '*.mjlog' -o -name '*.mjlog.gz' -o -name '*.t6.json' \) \
        -printf '%s %p\n' | sort -n | head -n "$N" | cut -d' ' -f2- |
        while IFS= read -r f; do cp "$f" "corpus/$target/"; done
    find "$DATA/partial" -type f -exec cp {} "corpus/$target/" \;
    chmod u+w "corpus/$target"/*
    echo "corpus/$target: $(ls "corpus/$target" | wc -l) seeds"
done
