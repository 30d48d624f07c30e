"""Shared fixtures: the repository, the `haifu` binary the answers are compared with, and the
shared games (../shared/data/tenhou; HAIFU_SHARED overrides). Without them the tests that need
them are skipped with the reason (reported as skipped, never passed), unless CI or
HAIFU_REQUIRE_SHARED=1 is set: then a missing folder is a failure, as in the Rust tests."""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _required() -> bool:
    ci = os.environ.get("CI", "")
    return (ci not in ("", "0", "false")) or os.environ.get("HAIFU_REQUIRE_SHARED") == "1"


def _missing(what: str):
    if _required():
        pytest.fail(f"{what} not found, and CI / HAIFU_REQUIRE_SHARED=1 requires it")
    pytest.skip(f"{what} not found")


@pytest.fixture(scope="session")
def haifu_bin() -> Path:
    """The command line the package is compared with (HAIFU_BIN, else target/debug or release)."""
    env = os.environ.get("HAIFU_BIN")
    candidates = [Path(env)] if env else [REPO / "target/debug/haifu", REPO / "target/release/haifu"]
    for c in candidates:
        if c.is_file():
            return c
    _missing("the haifu binary (cargo build)")


def _tenhou() -> Path:
    """Where the shared games are (HAIFU_SHARED overrides ../shared)."""
    return Path(os.environ.get("HAIFU_SHARED", REPO.parent / "shared")) / "data" / "tenhou"


def _spread(tenhou: Path) -> list:
    """The folder's mjlog records, sorted, every 50th (for spread over the years)."""
    return sorted(p for p in tenhou.iterdir() if p.name.endswith(".mjlog"))[::50]


@pytest.fixture(scope="session")
def shared_games() -> list:
    """The shared corpus's mjlog records, sorted (every 50th, for spread over the years)."""
    tenhou = _tenhou()
    if not tenhou.is_dir():
        _missing(f"{tenhou} (the shared games)")
    return _spread(tenhou)


@pytest.fixture(scope="session")
def some_games(haifu_bin, tmp_path_factory) -> list:
    """Six whole games for tests that need records but not real ones: six of the shared games
    when they are there, else six tonpuu games `haifu simulate` plays (seed 3), so that such a
    test runs on every machine."""
    tenhou = _tenhou()
    if tenhou.is_dir():
        files = _spread(tenhou)
        if len(files) >= 6:
            return files[:6]
    out = tmp_path_factory.mktemp("simulated")
    p = subprocess.run(
        [str(haifu_bin), "simulate", "--games", "6", "--bots", "ukeire", "--seed", "3", "--tonpuu", "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0, p.stderr
    files = sorted(out.glob("*.mjlog"))
    assert len(files) == 6, (files, p.stdout)
    return files


def run_cli(haifu_bin, *args, check=True):
    """The command's stdout as JSON (or the completed process when check is False)."""
    p = subprocess.run([str(haifu_bin), *map(str, args)], capture_output=True, text=True)
    if not check:
        return p
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)


def cli_error(haifu_bin, *args) -> str:
    """The message of a failing command (`haifu: error: MESSAGE`)."""
    p = subprocess.run([str(haifu_bin), *map(str, args)], capture_output=True, text=True)
    assert p.returncode in (2, 3), (p.returncode, p.stdout, p.stderr)
    line = p.stderr.strip().splitlines()[-1]
    assert line.startswith("haifu: error: "), p.stderr
    return line[len("haifu: error: "):]
