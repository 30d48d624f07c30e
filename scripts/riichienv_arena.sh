#!/usr/bin/env bash
# Hanchan in RiichiEnv 0.4.11 between RandomAgent and haifu players (scripts/riichienv_arena.py).
#
#   scripts/riichienv_arena.sh --games N --players A,B,C,D [--seed S] [--json OUT] [--logs DIR]
#                              [--haifu PATH] [--via cli|package] [--timeout SEC] [--duplicate]
#
# Installs riichienv==0.4.11 into a venv outside the repo ($RIICHIENV_VENV, default
# ~/.cache/haifu/riichienv-venv, the one scripts/riichienv_check.sh uses) and runs the arena with
# every argument passed on. When pip cannot install it (no network, no wheel for this Python),
# prints "skipped: REASON" and exits 0.
set -euo pipefail
venv=${RIICHIENV_VENV:-$HOME/.cache/haifu/riichienv-venv}
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import riichienv' 2>/dev/null; then
    if ! python3 -m venv "$venv" >/tmp/riichienv-pip.log 2>&1 \
        || ! "$venv/bin/pip" install -q riichienv==0.4.11 >>/tmp/riichienv-pip.log 2>&1; then
        echo "skipped: pip could not install riichienv==0.4.11 ($(tail -1 /tmp/riichienv-pip.log))"
        exit 0
    fi
fi
exec nice "$venv/bin/python" "$here/riichienv_arena.py" "$@"
