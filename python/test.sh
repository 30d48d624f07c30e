#!/usr/bin/env bash
# make test's Python step: builds the package (python/) into a virtual environment under target/
# and runs its pytest suite against the binary `cargo test` built. The build uses cargo's dev
# profile, so it reuses the dependencies `make test` compiled (and lints the bindings with clippy
# when make passes RUSTC_WORKSPACE_WRAPPER). When PyPI (or PIP_INDEX_URL) cannot be reached it
# prints "skipped: REASON" and succeeds; any other failure fails.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${HAIFU_PY_VENV:-target/pyvenv}
command -v python3 >/dev/null || { echo "python tests: skipped: python3 not found"; exit 0; }
INDEX=${PIP_INDEX_URL:-https://pypi.org/simple}
if ! python3 - "$INDEX" <<'PY' 2>/tmp/haifu-pypi.log
import sys, urllib.request
urllib.request.urlopen(sys.argv[1].rstrip("/") + "/maturin/", timeout=15).read(1)
PY
then
    echo "python tests: skipped: $INDEX cannot be reached ($(tail -1 /tmp/haifu-pypi.log))"
    exit 0
fi
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
# the build backend (maturin) runs from the environment's bin/
PATH="$(cd "$VENV/bin" && pwd):$PATH"
"$VENV/bin/pip" install --quiet --disable-pip-version-check "maturin>=1.5,<2" "polars>=1.3" pyarrow duckdb pytest
# optional: the Dask recipe's test runs when dask[distributed] installs, and is skipped otherwise
"$VENV/bin/pip" install --quiet --disable-pip-version-check "dask[distributed]" \
    || echo "python tests: dask[distributed] did not install (its test is skipped)"
start=$(date +%s)
MATURIN_PEP517_ARGS="--profile dev" "$VENV/bin/pip" install --quiet --disable-pip-version-check \
    --no-build-isolation --no-deps --force-reinstall ./python
echo "python tests: package built and installed in $(( $(date +%s) - start )) s"
HAIFU_BIN=${HAIFU_BIN:-target/debug/haifu} "$VENV/bin/python" -m pytest -q -rs python/tests "$@"
