"""scripts/arena_strength.py, the strength table of reports/arena: its wall-set statistics on games
worked by hand, and the README's summary held equal to the table the committed chunks give (so a
chunk added without rewriting the README fails here, not in a reader's hands)."""

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def strength():
    spec = importlib.util.spec_from_file_location("arena_strength", REPO / "scripts/arena_strength.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_wall_set_is_one_sample(strength):
    # Two wall sets of the line-up A,B,A,B; each wall set's four games are one sample.
    start = strength.START
    games = [
        # wall set 1: A's ranks 1,2 | 1,3 | 2,4 | 1,2 (two A seats a game), B the rest
        (1, ["A", "B", "A", "B"], [1, 3, 2, 4], [start + 20000, start - 5000, start + 5000, start - 20000]),
        (1, ["B", "A", "B", "A"], [2, 1, 4, 3], [start + 5000, start + 20000, start - 20000, start - 5000]),
        # wall set 2: B sweeps the top both games
        (2, ["A", "B", "A", "B"], [3, 1, 4, 2], [start - 5000, start + 20000, start - 20000, start + 5000]),
        (2, ["B", "A", "B", "A"], [1, 4, 2, 3], [start + 20000, start - 20000, start + 5000, start - 5000]),
    ]
    rank_diff, pts_diff, own = strength.by_wall_set(games, "A", "B")
    # set 1: A's ranks 1,2,1,3 (mean 1.75), B's 3,4,2,4 (3.25); set 2: A 3,4,4,3 (3.5), B 1,2,1,2 (1.5)
    assert rank_diff == [1.75 - 3.25, 3.5 - 1.5]
    assert pts_diff == [(20000 + 5000 + 20000 - 5000) / 4 - (-5000 - 20000 + 5000 - 20000) / 4,
                        (-5000 - 20000 - 20000 - 5000) / 4 - (20000 + 5000 + 20000 + 5000) / 4]
    assert own["A"][0] == [1.75, 3.5] and own["B"][0] == [3.25, 1.5]


def test_the_interval_is_a_t_interval(strength):
    # Student's t 0.975 quantiles from the printed tables: df 3 -> 3.182, df 30 -> 2.042, df 120 -> 1.980.
    xs = [1.0, 2.0, 3.0, 6.0]  # mean 3, sample sd sqrt(14/3)
    m, lo, hi, n = strength.mean_ci(xs)
    h = 3.182 * (14 / 3) ** 0.5 / 2
    assert (m, n) == (3.0, 4) and lo == pytest.approx(3 - h) and hi == pytest.approx(3 + h)
    assert strength.t975(30) == pytest.approx(2.042, abs=1e-3)
    assert strength.t975(120) == pytest.approx(1.980, abs=1e-3)
    assert strength.t975(249) == pytest.approx(1.9695, abs=1e-3)
    assert strength.mean_ci([]) is None and strength.mean_ci([2.0])[1] is None


def test_the_verdict_needs_the_interval_off_zero(strength):
    assert strength.verdict((-0.1, -0.2, -0.01, 9), "A", "B") == "A ranks better (interval below 0)"
    assert strength.verdict((0.1, 0.01, 0.2, 9), "A", "B") == "B ranks better (interval above 0)"
    assert strength.verdict((0.0, -0.1, 0.1, 9), "A", "B").startswith("not shown different")


def test_the_summary_goes_between_the_markers(strength, tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"before\n{strength.SUMMARY_START}\nold table\n{strength.SUMMARY_END}\nafter\n")
    strength.put_summary(readme, "| new |\n")
    assert readme.read_text() == f"before\n{strength.SUMMARY_START}\n| new |\n{strength.SUMMARY_END}\nafter\n"
    bare = tmp_path / "bare.md"
    bare.write_text("no markers\n")
    with pytest.raises(SystemExit, match="bare.md"):
        strength.put_summary(bare, "| new |\n")


def test_the_readme_summary_is_the_chunks_table(strength, tmp_path, capsys):
    """reports/arena/README.md's summary is what `table` computes from the committed chunks."""
    readme = REPO / "reports/arena/README.md"
    copy = tmp_path / "README.md"
    copy.write_text(readme.read_text())

    strength.table(SimpleNamespace(out=str(REPO / "reports/arena/strength"), report=None, readme=str(copy)))
    capsys.readouterr()
    assert copy.read_text() == readme.read_text(), (
        "reports/arena/README.md's strength summary is stale: run "
        "scripts/arena_strength.py table --report reports/arena/strength.md --readme reports/arena/README.md")
