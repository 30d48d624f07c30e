"""fit and evaluate give what `haifu fit` writes and `haifu eval --json` prints, on the same ingest
folder; bad options raise InputError with the reason."""

import json

import pytest

import haifu
from conftest import run_cli


@pytest.fixture(scope="module")
def dataset(haifu_bin, tmp_path_factory):
    d = tmp_path_factory.mktemp("models")
    run_cli(haifu_bin, "simulate", "--games", "8", "--bots", "ukeire,ev,ukeire,ev", "--tonpuu", "--seed", "3",
            "--out", d / "logs", check=False)
    haifu.ingest([d / "logs"], d / "data")
    return d


def test_fit_writes_the_file_the_command_writes(haifu_bin, dataset):
    args = ["--seats", "all", "--max-iters", "30", "--l2", "0.001,0.01", "--interact", "shanten"]
    run_cli(haifu_bin, "fit", "--data", dataset / "data", "--out", dataset / "cli.json", *args, check=False)
    got = haifu.fit(dataset / "data", dataset / "py.json", seats="all", max_iters=30, l2=(0.001, 0.01),
                    interact="shanten")
    cli = json.loads((dataset / "cli.json").read_text())
    py = json.loads((dataset / "py.json").read_text())
    assert got == py
    # Everything but the paths the files were written to is the same.
    for k in ("features", "weights", "metrics", "l2", "iterations", "loss", "data_fingerprint"):
        assert py.get(k) == cli.get(k), k
    assert py["metrics"]["test"]["top1"] > 0


def test_evaluate_equals_eval_json(haifu_bin, dataset):
    weights = dataset / "cli.json"
    if not weights.exists():
        haifu.fit(dataset / "data", weights, seats="all", max_iters=30)
    cli = run_cli(haifu_bin, "eval", "--data", dataset / "data", "--weights", weights, "--seats", "all",
                  "--split", "test", "--json")
    py = haifu.evaluate(dataset / "data", weights=weights, seats="all", split="test")
    assert py == cli
    one = haifu.evaluate(dataset / "data", weights=weights, seats="all", evaluators="ukeire")
    assert one == run_cli(haifu_bin, "eval", "--data", dataset / "data", "--weights", weights, "--seats", "all",
                          "--evaluator", "ukeire", "--json")


@pytest.mark.parametrize("kwargs,needle", [
    ({"kind": "pon"}, "kind"),
    ({"seats": "robots"}, "seats"),
    ({"loss": "l1"}, "loss"),
    ({"pairs": "all"}, "pairs"),
    ({"interact": "nonsense"}, "interact"),
])
def test_fit_refuses_bad_options(dataset, kwargs, needle):
    with pytest.raises(haifu.InputError, match=needle):
        haifu.fit(dataset / "data", dataset / "bad.json", **kwargs)


@pytest.mark.parametrize("kwargs,needle", [
    ({"evaluators": "oracle"}, "evaluator"),
    ({"split": "holdout"}, "split"),
    ({"kind": "tsumo"}, "kind"),
])
def test_evaluate_refuses_bad_options(dataset, kwargs, needle):
    with pytest.raises(haifu.InputError, match=needle):
        haifu.evaluate(dataset / "data", **kwargs)


def test_evaluate_on_a_missing_folder_raises(tmp_path):
    with pytest.raises(haifu.HaifuError):
        haifu.evaluate(tmp_path / "nothing")


def test_signature_defaults_are_the_librarys():
    """Every keyword default of fit and evaluate that the library states equals the library's
    (haifu::model::defaults through haifu.defaults()), and so the command line's."""
    import inspect

    lib = haifu.defaults()
    as_list = lambda v: list(v) if isinstance(v, (tuple, list)) else v  # noqa: E731
    checked = 0
    for func in (haifu.fit, haifu.evaluate):
        for name, p in inspect.signature(func).parameters.items():
            if p.default is inspect.Parameter.empty or name not in lib:
                continue
            assert as_list(p.default) == as_list(lib[name]), (func.__name__, name, p.default, lib[name])
            checked += 1
    assert checked >= 11, checked  # kind, seats, seed, loss, pairs, l2, max_iters (fit); evaluators, kind, seats, split, seed
    assert lib["good"] == 400.0 and lib["excellent"] == 1200.0
    assert set(lib["split_names"]) == {"all", "train", "validation", "test"}
