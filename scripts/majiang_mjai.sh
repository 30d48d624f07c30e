#!/bin/sh
# 電脳麻将 at an mjai table: one @kobalab/majiang-ai 1.0.13 player (majiang-core 1.4.1, as
# scripts/majiang_paipu.sh pins) speaking `haifu bot`'s protocol (docs/bot.md): one mjai event
# (or a JSON array of events) per line on stdin, one answer line per input line on stdout.
# See scripts/majiang_mjai.js for the mapping; scripts/majiang_mjai_check.sh is its self-test.
#   scripts/majiang_mjai.sh --seat N [--rule JSON]
#       plays seat N (start_game's "id" overrides it). --rule: keys over majiang-core's default
#       rules, e.g. --rule '{"リーチ後暗槓許可レベル":1}'.
#   scripts/majiang_mjai.sh --install
#       only installs the packages and prints their node_modules folder.
# The npm packages are installed once, outside the repository, in
#   ${MAJIANG_MJAI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/haifu/majiang-ai-1.0.13}
# and reused when present (the first run needs npm and the npm registry). Then it execs node.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${MAJIANG_MJAI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/haifu/majiang-ai-1.0.13}
if [ ! -f "$dir/node_modules/@kobalab/majiang-ai/package.json" ] \
    || [ ! -f "$dir/node_modules/@kobalab/majiang-core/package.json" ]; then
    mkdir -p "$(dirname "$dir")"
    tmp=$(mktemp -d "$dir.tmp.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    (cd "$tmp" && npm init -y >/dev/null \
        && npm install --silent --no-audit --no-fund \
            "@kobalab/majiang-ai@1.0.13" "@kobalab/majiang-core@1.4.1" >/dev/null) >&2
    # Another run may have finished first: then its copy stays and this one goes.
    if [ -e "$dir" ]; then rm -rf "$tmp"; else mv "$tmp" "$dir"; fi
    trap - EXIT
fi
if [ "${1:-}" = "--install" ]; then
    echo "$dir/node_modules"
    exit 0
fi
NODE_PATH="$dir/node_modules${NODE_PATH:+:$NODE_PATH}" exec node "$here/majiang_mjai.js" "$@"
