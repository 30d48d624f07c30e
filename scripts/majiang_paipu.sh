#!/bin/sh
# Self-play games of 電脳麻将 in its own record format (majiang-core's `paipu` JSON), the outside
# referee for haifu's reader of that format (docs/paipu.md). Four @kobalab/majiang-ai 1.0.13
# players at a Majiang.Game on majiang-core's default rules, 東南戦; see scripts/majiang_paipu.js.
# The npm packages are installed in a temporary folder, never in the repository. Needs node, npm
# and the npm registry.
#   scripts/majiang_paipu.sh OUT_DIR [GAMES] [SEED]
#       OUT_DIR/majiang-SEED-0000.json ... (GAMES files, default 200; SEED default 1). The same
#       SEED gives the same files. 12 to 20 s of one core per game (200 games: 41 CPU minutes).
#   MAJIANG_PAIPU_JOBS=2 scripts/majiang_paipu.sh ...
#       plays in 2 node processes (same files). Run it under `nice` next to a build.
#   MAJIANG_CORE_VERSION=x.y.z scripts/majiang_paipu.sh ...
#       another majiang-core under majiang-ai 1.0.13 (default 1.4.1, what ^1.3.2 resolved to).
# Then scripts/paipu_tally.py OUT_DIR counts the rounds, hule and pingju of each file.
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 OUT_DIR [GAMES] [SEED]" >&2
    exit 2
fi
out=$1 games=${2:-200} seed=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
(cd "$WORK" && npm init -y >/dev/null \
    && npm install --silent "@kobalab/majiang-ai@1.0.13" \
        "@kobalab/majiang-core@${MAJIANG_CORE_VERSION:-1.4.1}" >/dev/null)
NODE_PATH="$WORK/node_modules" node "$here/majiang_paipu.js" "$out" "$games" "$seed"
