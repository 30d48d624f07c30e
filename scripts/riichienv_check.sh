#!/usr/bin/env bash
# RiichiEnv as an outside referee of haifu's mjai output.
#
#   scripts/riichienv_check.sh DIR [LIMIT]
#
# DIR holds GAME_ID.json.gz files written by `haifu convert --to mjai`. Installs riichienv==0.4.11
# into a venv outside the repo ($RIICHIENV_VENV, default ~/.cache/haifu/riichienv-venv) and runs
# scripts/riichienv_check.py on every file (see it for what is checked). When pip cannot install
# it (no network, no wheel for this Python), prints "skipped: REASON" and exits 0.
set -euo pipefail
dir=${1:?usage: $0 DIR [LIMIT]}
venv=${RIICHIENV_VENV:-$HOME/.cache/haifu/riichienv-venv}
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import riichienv' 2>/dev/null; then
    if ! python3 -m venv "$venv" >/tmp/riichienv-pip.log 2>&1 \
        || ! "$venv/bin/pip" install -q riichienv==0.4.11 >>/tmp/riichienv-pip.log 2>&1; then
        echo "skipped: pip could not install riichienv==0.4.11 ($(tail -1 /tmp/riichienv-pip.log))"
        exit 0
    fi
fi
exec nice "$venv/bin/python" "$here/riichienv_check.py" "$dir" ${2:+"$2"}
