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


@pytest.mark.parametrize("seat,player", [(0, "majiang-0402"), (1, "ev"), (2, "ukeire"), (3, "boten"), (0, "fitted"),
                                         (2, "trees")])
def test_bot_equals_cli_bot(haifu_bin, sim_game, seat, player):
    # The game is east-only: both bots are told so (the fitted player's riichi model reads it).
    stream = _seat_stream(sim_game, seat)
    cli = subprocess.run([str(haifu_bin), "bot", "--seat", str(seat), "--player", player, "--tonpuu"],
                         input="\n".join(stream) + "\n", capture_output=True, text=True, check=True)
    cli_answers = cli.stdout.splitlines()
    assert len(cli_answers) == len(stream), cli.stderr
    bot = haifu.Bot(seat, player=player, tonpuu=True)
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


@pytest.fixture(scope="module")
def sanma_game(haifu_bin, tmp_path_factory):
    """A real 3-player game (the first of tenhou/sanma) as mjai, by `haifu convert` (RiichiEnv's
    3-player layout: three names, tehais and scores, `kita`)."""
    from conftest import _missing, _tenhou  # noqa: PLC0415

    sanma = _tenhou() / "sanma"
    if not sanma.is_dir():
        _missing(f"{sanma} (the 3-player games)")
    src = sorted(sanma.glob("*.mjlog"))[0]
    one = tmp_path_factory.mktemp("sanma-in")
    (one / src.name).write_bytes(src.read_bytes())
    out = tmp_path_factory.mktemp("sanma-mjai")
    p = run_cli(haifu_bin, "convert", one, "--to", "mjai", "--out", out, check=False)
    assert p.returncode == 0, p.stderr
    files = sorted(out.rglob("*.json.gz"))
    assert len(files) == 1, (files, p.stdout)
    return gzip.decompress(files[0].read_bytes()).decode().splitlines()


@pytest.mark.parametrize("seat,player", [(0, "linear"), (1, "random"), (2, "ukeire")])
def test_bot_at_three_players(haifu_bin, sanma_game, seat, player):
    """Each seat of a real sanma game: haifu.Bot answers as `haifu bot`, follows every line, moves
    on every own draw (never a pass), sets norths aside with `kita`, never calls chi. (Their
legality on the full table is tests/bot.rs's, over all 279 games.)"""
    stream = _seat_stream(sanma_game, seat)
    assert len(json.loads(sanma_game[1])["tehais"]) == 3
    cli = subprocess.run([str(haifu_bin), "bot", "--seat", str(seat), "--player", player],
                         input="\n".join(stream) + "\n", capture_output=True, text=True, check=True)
    assert cli.stderr == ""
    bot = haifu.Bot(seat, player=player)
    answers = []
    for line in stream:
        answers.append(bot.react(line))
        assert bot.last_error is None, (line, bot.last_error)
    assert [a or '{"type":"none"}' for a in answers] == cli.stdout.splitlines()
    own_draws = [a for line, a in zip(stream, answers)
                 if json.loads(line)["type"] == "tsumo" and json.loads(line)["actor"] == seat]
    assert own_draws and all(a is not None for a in own_draws)
    kinds = [json.loads(a)["type"] for a in answers if a is not None]
    assert "chi" not in kinds
    kitas = [json.loads(a) for a in answers if a is not None and json.loads(a)["type"] == "kita"]
    assert all(k == {"type": "kita", "actor": seat, "pai": "N"} for k in kitas)
    # every player but random sets a north aside whenever it may (random only sometimes)
    assert kitas or player == "random"


def test_four_player_only_players_are_refused_at_three(sanma_game):
    """ev is a four-player search: at a 3-player table each round is refused by name and sat out
    with tsumogiri (a legal answer on every own draw)."""
    stream = _seat_stream(sanma_game, 0)
    bot = haifu.Bot(0, player="ev")
    errors = []
    for line in stream:
        ev = json.loads(line)
        answer = bot.react(line)
        if bot.last_error:
            errors.append(bot.last_error)
        if ev["type"] == "tsumo" and ev["actor"] == 0:
            a = json.loads(answer)
            assert (a["type"], a["pai"], a["tsumogiri"]) == ("dahai", ev["pai"], True)
    rounds = sum(1 for line in stream if json.loads(line)["type"] == "start_kyoku")
    assert len(errors) == rounds and all("four-player only" in e for e in errors), errors[:2]
