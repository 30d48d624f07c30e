"""Records: check, mjai_events and convert give what the command line gives on shared games."""

import gzip
import json

import pytest

import haifu
from conftest import run_cli


def _no_time(summary):
    return {k: v for k, v in summary.items() if k != "seconds"}


def test_check_equals_cli(haifu_bin, shared_games):
    games = shared_games[:6]
    assert haifu.check(games, jobs=2) == run_cli(haifu_bin, "check", "--json", *games)


def test_check_lists_a_missing_file_as_the_cli_does(haifu_bin, tmp_path):
    missing = tmp_path / "none.mjlog"
    got = haifu.check([missing])
    assert got == run_cli(haifu_bin, "check", "--json", missing)
    assert got["errors"]


def test_convert_and_mjai_events_equal_cli(haifu_bin, shared_games, tmp_path):
    games = shared_games[:3]
    for to in ["mjai", "tenhou6"]:
        a, b = tmp_path / f"py-{to}", tmp_path / f"cli-{to}"
        got = haifu.convert(games, to=to, out=a, jobs=2)
        want = run_cli(haifu_bin, "convert", "--to", to, "--out", b, "--json", *games)
        assert _no_time(got) == _no_time(want)
        files = sorted(p.name for p in a.iterdir())
        assert files == sorted(p.name for p in b.iterdir()) and len(files) == 3
        for name in files:
            assert (a / name).read_bytes() == (b / name).read_bytes()
    for g in games:
        events = haifu.mjai_events(g)
        assert len(events) == 1
        written = next((tmp_path / "cli-mjai").glob(g.name.split(".")[0] + "*"))
        lines = gzip.decompress(written.read_bytes()).decode().splitlines()
        assert events[0] == [json.loads(line) for line in lines]


def test_convert_refuses_an_unknown_format(tmp_path):
    with pytest.raises(haifu.InputError, match="mjai"):
        haifu.convert([tmp_path], to="xml", out=tmp_path / "o")


def test_mjai_events_of_a_broken_record_is_a_record_error(tmp_path):
    bad = tmp_path / "bad.mjlog"
    bad.write_text("<mjloggm ver=\"2.3\"><INIT seed=\"x\"/></mjloggm>")
    with pytest.raises(haifu.RecordError):
        haifu.mjai_events(bad)
    with pytest.raises(haifu.RecordError):
        haifu.mjai_events(tmp_path / "missing.mjlog")
