#!/bin/sh
# The port (`haifu bot --player majiang-0402`) against @kobalab/majiang-ai 1.0.13, sorted by the
# reason of each difference (reports/arena/port-vs-majiang-ai.md): reads what
#   MAJIANG_MJAI_KEEP=DIR MAJIANG_MJAI_CMD="$PWD/target/debug/haifu bot --player majiang-0402" \
#       scripts/majiang_mjai_check.sh GAMES SEED
# kept in DIR and replays every stream into kobalab's player 0402 (majiang-ai's git-only
# legacy/player-0402.js on legacy/suanpai-0305.js) with the seed's 愚形 threshold 400 (seed 000;
# the file codes 300), and at each different discard also into the file as coded.
#   MAJIANG_AI_LEGACY_DIR=/path/to/majiang-ai/legacy scripts/majiang_port_compare.sh DIR [--json]
# (a clone of https://github.com/kobalab/majiang-ai, v1.0.13). The first run replays every
# stream (about 2 minutes a game on a busy core) and keeps player 0402's answers in DIR.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
keep=${1:?usage: MAJIANG_AI_LEGACY_DIR=... majiang_port_compare.sh KEEP_DIR [--json]}
shift
legacy=${MAJIANG_AI_LEGACY_DIR:?set MAJIANG_AI_LEGACY_DIR to majiang-ai/legacy (its git repository)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$legacy/player-0402.js" "$legacy/suanpai-0305.js" "$work/"
# The seed's rule: 愚形 (ベタオリ at 1-2 shanten) below 400, where the file has 300.
sed 's/ev <  300 && weixian\[p\] > min/ev <  400 \&\& weixian[p] > min/' "$legacy/player-0402.js" \
    > "$work/player-0402-seed.js"
if cmp -s "$legacy/player-0402.js" "$work/player-0402-seed.js"; then
    echo "majiang_port_compare: the 300 of legacy/player-0402.js was not found" >&2
    exit 1
fi
modules=$("$here/majiang_mjai.sh" --install)
NODE_PATH="$modules" node "$here/majiang_mjai_compare.js" "$keep" "$work/player-0402-seed.js" \
    "$work/player-0402.js" "$@"
