#!/usr/bin/env bash
# Hanchan in RiichiEnv 0.4.11 between RandomAgent and haifu players (scripts/riichienv_arena.py);
# three names in --players play its 3-player mode.
#
#   scripts/riichienv_arena.sh --games N --players A,B,C[,D] [--seed S] [--json OUT] [--logs DIR]
#                              [--haifu PATH] [--via cli|package] [--timeout SEC] [--duplicate]
#
# Installs riichienv==0.4.11 into a venv outside the repo ($RIICHIENV_VENV, default
# ~/.cache/haifu/riichienv-venv, the one scripts/riichienv_check.sh uses) and runs the arena with
# every argument passed on. When pip cannot install it (no network, no wheel for this Python),
# prints "skipped: REASON" and exits 0.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/riichienv_venv.sh"
exec nice "$venv/bin/python" "$here/riichienv_arena.py" "$@"
