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
here=$(cd "$(dirname "$0")" && pwd)
. "$here/riichienv_venv.sh"
exec nice "$venv/bin/python" "$here/riichienv_check.py" "$dir" ${2:+"$2"}
