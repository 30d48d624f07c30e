"""Hands: shanten, nanikiru and rank_positions give what the command line's --json gives, and
bad input raises InputError (a ValueError) with the command line's message."""

import json

import pytest

import haifu
from conftest import REPO, cli_error, run_cli

HANDS = ["123m456p789s1122z", "2367m34p11z 555z 789s", "m34567p2388s5779p1", "19m19p19s1234567z", "11223344556677z"]


@pytest.mark.parametrize("hand", HANDS)
def test_shanten_equals_cli(haifu_bin, hand):
    assert haifu.shanten(hand) == run_cli(haifu_bin, "shanten", hand, "--json")


NANIKIRU = [
    ("123m456p789s11223z", {}),
    ("m34567p2388s5779p1", {"evaluator": "ev"}),
    ("m34567p2388s5779p1", {"evaluator": "ukeire", "dora": ["5p"]}),
    ("1367m34p11z 555z 789s", {"evaluator": "yaku"}),
    ("1234m456p789s1177z", {"evaluator": "linear", "explain": True, "round_wind": "S", "seat_wind": "E"}),
    ("1234m456p789s1177z", {"evaluator": "ukeire", "push_fold": True, "riichi": ["1m9p5s"]}),
]


def _flags(opts):
    out = []
    for k, v in opts.items():
        flag = "--" + k.replace("_", "-")
        if v is True:
            out.append(flag)
        elif isinstance(v, list):
            for x in v:
                out += [flag.rstrip("s") if k == "dora" else flag, x]
        else:
            out += [flag, v]
    return out


@pytest.mark.parametrize("hand,opts", NANIKIRU)
def test_nanikiru_equals_cli(haifu_bin, hand, opts):
    assert haifu.nanikiru(hand, **opts) == run_cli(haifu_bin, "nanikiru", hand, "--json", *_flags(opts))


def test_rank_positions_equals_cli(haifu_bin, tmp_path):
    lines = (REPO / "src/rank/testdata/majiang_ai_picks.jsonl").read_text().splitlines()[:15]
    f = tmp_path / "positions.jsonl"
    f.write_text("\n".join(lines) + "\n")
    for evaluator in ["ev", "ukeire"]:
        p = run_cli(haifu_bin, "nanikiru", "--positions", f, "--json", "--evaluator", evaluator, check=False)
        want = [json.loads(line) for line in p.stdout.splitlines()]
        got = haifu.rank_positions([json.loads(line) for line in lines], evaluator=evaluator)
        assert got == want
        # the JSON text form too
        assert haifu.rank_positions(lines, evaluator=evaluator) == want


@pytest.mark.parametrize(
    "args,call",
    [
        (["shanten", "123m"], lambda: haifu.shanten("123m")),
        (["shanten", "11111m23456789p"], lambda: haifu.shanten("11111m23456789p")),
        (["nanikiru", "123m456p789s1122z"], lambda: haifu.nanikiru("123m456p789s1122z")),
        (["nanikiru", "123m456p789s11223z", "--dora", "8x"], lambda: haifu.nanikiru("123m456p789s11223z", dora=["8x"])),
        (["nanikiru", "123m456p789s11223z", "--dora", "12m"], lambda: haifu.nanikiru("123m456p789s11223z", dora=["12m"])),
        (
            ["nanikiru", "123m456p789s11223z", "--riichi", "1x"],
            lambda: haifu.nanikiru("123m456p789s11223z", riichi=["1x"]),
        ),
        (
            ["nanikiru", "123m456p789s11223z", "--explain", "--evaluator", "ukeire"],
            lambda: haifu.nanikiru("123m456p789s11223z", explain=True, evaluator="ukeire"),
        ),
    ],
)
def test_bad_input_is_a_value_error_with_the_cli_message(haifu_bin, args, call):
    want = cli_error(haifu_bin, *args)
    with pytest.raises(ValueError) as e:
        call()
    assert isinstance(e.value, haifu.InputError) and isinstance(e.value, haifu.HaifuError)
    assert str(e.value) == want


def test_too_many_riichi_and_bad_winds_and_evaluators():
    with pytest.raises(haifu.InputError, match="at most three"):
        haifu.nanikiru("123m456p789s11223z", riichi=["1m"] * 4)
    with pytest.raises(haifu.InputError, match="wind must be E, S, W or N"):
        haifu.nanikiru("123m456p789s11223z", seat_wind="X")
    with pytest.raises(haifu.InputError, match="unknown evaluator"):
        haifu.nanikiru("123m456p789s11223z", evaluator="best")


def test_missing_weights_is_a_model_error(tmp_path):
    with pytest.raises(haifu.ModelError):
        haifu.nanikiru("123m456p789s11223z", weights=tmp_path / "none.json")


def test_bad_position_names_its_index():
    with pytest.raises(haifu.InputError, match="position 1: "):
        haifu.rank_positions([{"shoupai": "m123p456s789z1122z3", "zhuangfeng": 0, "menfeng": 0}, {"shoupai": "m1"}])
    with pytest.raises(haifu.InputError, match="not a position object"):
        haifu.rank_positions(["{"])


def test_bad_positions_can_be_kept_in_place_as_the_cli_goes_on(haifu_bin, tmp_path):
    good = {"shoupai": "m123p456s789z1122z3", "zhuangfeng": 0, "menfeng": 0, "id": "a"}
    got = haifu.rank_positions([good, {"shoupai": "m1"}, "{", good], on_error="keep")
    assert [r.get("index") for r in got] == [None, 1, 2, None]
    assert "position 1: " in got[1]["error"] and "position 2: " in got[2]["error"]
    # The good ones are what the command line prints for them (it reports the bad lines, exit 1).
    f = tmp_path / "p.jsonl"
    f.write_text("\n".join([json.dumps(good), '{"shoupai": "m1"}', "{", json.dumps(good)]) + "\n")
    p = run_cli(haifu_bin, "nanikiru", "--positions", f, "--evaluator", "ev", "--json", check=False)
    assert p.returncode == 1
    assert [json.loads(line) for line in p.stdout.splitlines()] == [got[0], got[3]]
    with pytest.raises(haifu.InputError, match="on_error"):
        haifu.rank_positions([good], on_error="skip")


def test_help_teaches_as_the_cli():
    doc = haifu.nanikiru.__doc__
    for word in ["evaluator", "dora", "push_fold", "explain", "riichi", "majiang"]:
        assert word in doc
