# Sourced by scripts/riichienv_check.sh and scripts/riichienv_arena.sh: sets $venv to a virtual
# environment outside the repo with riichienv==0.4.11 ($RIICHIENV_VENV, default
# ~/.cache/haifu/riichienv-venv), made on first use. When pip cannot install it (no network, no
# wheel for this Python), prints "skipped: REASON" and exits the calling script with status 0.
venv=${RIICHIENV_VENV:-$HOME/.cache/haifu/riichienv-venv}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import riichienv' 2>/dev/null; then
    if ! python3 -m venv "$venv" >/tmp/riichienv-pip.log 2>&1 \
        || ! "$venv/bin/pip" install -q riichienv==0.4.11 >>/tmp/riichienv-pip.log 2>&1; then
        echo "skipped: pip could not install riichienv==0.4.11 ($(tail -1 /tmp/riichienv-pip.log))"
        exit 0
    fi
fi
