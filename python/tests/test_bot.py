"""haifu.Bot answers as `haifu bot` does, line for line, on a simulated game's seat streams; bad
lines get a legal answer and an error, never an exception."""

import gzip
import json
import subprocess

import pytest

import haifu
from conftest import run_cli


def _seat_stream(lines, seat):
    """What a server sends `seat`: its start_game id, the other hands and draws hidden."""
    out = []
    for line in lines:
        ev = json.loads(line)
        if ev["type"] == "start_game":
            ev["id"] = seat
        elif ev["type"] == "start_kyoku":
            ev["tehais"] = [h if s == seat else ["?"] * 13 for s, h in enumerate(ev["tehais"])]
        elif ev["type"] == "tsumo" and ev["actor"] != seat:
            ev["pai"] = "?"
        out.append(json.dumps(ev))
    return out


@pytest.fixture(scope="module")
def sim_game(haifu_bin, tmp_path_factory):
    out = tmp_path_factory.mktemp("sim")
    run_cli(haifu_bin, "simulate", "--games", "1", "--bots", "majiang-0402,ev,ukeire,boten", "--tonpuu",
            "--format", "mjai", "--out", out, "--seed", "5", check=False)
    files = sorted(out.glob("*.json.gz"))
    assert files, "simulate wrote no mjai file"
    return gzip.decompress(files[0].read_bytes()).decode().splitlines()


@pytest.mark.parametrize("seat,player", [(0, "majiang-0402"), (1, "ev"), (2, "ukeire"), (3, "boten")])
def test_bot_equals_cli_bot(haifu_bin, sim_game, seat, player):
    stream = _seat_stream(sim_game, seat)
    cli = subprocess.run([str(haifu_bin), "bot", "--seat", str(seat), "--player", player],
                         input="\n".join(stream) + "\n", capture_output=True, text=True, check=True)
    cli_answers = cli.stdout.splitlines()
    assert len(cli_answers) == len(stream), cli.stderr
    bot = haifu.Bot(seat, player=player)
    py_answers = [bot.react(line) or '{"type":"none"}' for line in stream]
    assert py_answers == cli_answers
    assert bot.last_error is None
    moves = [a for a in py_answers if a != '{"type":"none"}']
    assert any(json.loads(a)["type"] == "dahai" for a in moves)


def test_bot_takes_events_as_dicts_and_arrays(sim_game):
    stream = [json.loads(line) for line in _seat_stream(sim_game, 0)]
    one = haifu.Bot(0)
    by_line = [one.react(ev) for ev in stream]
    # The same stream in arrays ending at each of the seat's choices answers the same.
    two = haifu.Bot(0)
    batch, batched = [], []
    for ev, answer in zip(stream, by_line):
        batch.append(ev)
        if answer is not None:
            batched.append(two.react(batch))
            batch = []
    assert batched == [a for a in by_line if a is not None]


def test_bad_lines_get_a_legal_answer_and_an_error():
    bot = haifu.Bot(0)
    assert bot.react("not json") is None
    assert "not an mjai event" in bot.last_error
    # Its own draw outside a round: the error is named, and the drawn tile goes out.
    answer = json.loads(bot.react('{"type":"tsumo","actor":0,"pai":"1m"}'))
    assert (answer["type"], answer["pai"], answer["tsumogiri"]) == ("dahai", "1m", True)
    assert "outside a round" in bot.last_error
    with pytest.raises(haifu.InputError):
        haifu.Bot(0, player="nobody")
    with pytest.raises(haifu.InputError):
        haifu.Bot(4)
