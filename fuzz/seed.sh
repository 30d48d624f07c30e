#!/bin/sh
# Seeds the fuzz corpora (fuzz/corpus/TARGET, never committed) from two places:
#   fuzz/seeds/TARGET   small records haifu made itself (self-play tonpuu games, in the target's
#                       format: mjlog, tenhou.net/6, mjai, compressed rows; sanma-*: a three-player
#                       one, `haifu simulate --players 3 --tonpuu --games 1 --seed 5 --bots stress`),
#                       committed;
#   ../shared           the smallest real records of the matching format (never committed: see the
#                       data README), plus the excerpts of partial/ for the readers that take them.
# Small records first: libFuzzer mutates small inputs far faster. Usage: fuzz/seed.sh [SHARED] [N]
set -eu
SHARED=${1:-../shared}
N=${2:-64}
# absolute, before the cd below (a relative SHARED is relative to the caller's folder)
[ -d "$SHARED" ] && SHARED=$(cd "$SHARED" && pwd)
DATA="$SHARED/data/tenhou"
cd "$(dirname "$0")"
smallest() { # smallest N files of $DATA matching the name patterns given, and of $DATA/sanma
    [ -d "$DATA" ] || return 0
    pattern=""
    for p in "$@"; do pattern="$pattern -o -name $p"; done
    # shellcheck disable=SC2086
    find "$DATA" -maxdepth 1 -type f \( ${pattern# -o } \) -printf '%s %p\n' | sort -n | head -n "$N" | cut -d' ' -f2-
    # three-player games: a quarter as many
    [ -d "$DATA/sanma" ] || return 0
    # shellcheck disable=SC2086
    find "$DATA/sanma" -maxdepth 1 -type f \( ${pattern# -o } \) -printf '%s %p\n' | sort -n | head -n $((N / 4)) | cut -d' ' -f2-
}
for target in parse_game replay_game mjlog tenhou6 mjai phoenix_row bot; do
    mkdir -p "corpus/$target"
    cp seeds/"$target"/* "corpus/$target/"
    case $target in
        parse_game|replay_game) smallest '*.mjlog' '*.mjlog.gz' '*.t6.json' ;;
        mjlog) smallest '*.mjlog' ;;
        tenhou6) smallest '*.t6.json' ;;
        phoenix_row) smallest '*.mjlog.gz' ;;
        mjai|bot) ;;
    esac | while IFS= read -r f; do cp "$f" "corpus/$target/"; done
    if [ -d "$DATA/partial" ] && [ "$target" != phoenix_row ] && [ "$target" != mjai ] && [ "$target" != bot ]; then
        find "$DATA/partial" -type f -exec cp {} "corpus/$target/" \;
    fi
    chmod u+w "corpus/$target"/*
    echo "corpus/$target: $(ls "corpus/$target" | wc -l) seeds"
done
