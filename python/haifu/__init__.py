"""haifu: Tenhou mahjong records into decision datasets, features and fitted evaluators.

Each function returns what the command line's ``--json`` prints for the same input, as Python
objects, or polars frames where the command writes tables. The work is done by the Rust library
(``haifu._haifu``); long calls release the GIL, take ``progress=True`` (a bar on a terminal) and
stop cleanly on Ctrl-C. Errors are :class:`HaifuError`\\ s; bad input is :class:`InputError`, a
``ValueError``, with the command line's message.

Functions: :func:`shanten`, :func:`nanikiru`, :func:`rank_positions` (hands); :func:`check`,
:func:`mjai_events`, :func:`convert` (records); :func:`decisions`, :func:`ingest`, :func:`scan`
(tables); :func:`features` (a live position's option rows); :func:`fit`, :func:`evaluate` (models over an
ingest folder); :class:`Bot` (a player at an mjai
table). docs/python.md has examples.
"""

from __future__ import annotations

import json
import os
import warnings
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import polars as pl

from . import _haifu
from ._errors import DatasetError, HaifuError, InputError, InternalError, ModelError, RecordError

__all__ = [
    "shanten",
    "nanikiru",
    "rank_positions",
    "check",
    "mjai_events",
    "convert",
    "decisions",
    "ingest",
    "scan",
    "features",
    "fit",
    "evaluate",
    "defaults",
    "Bot",
    "TABLES",
    "HaifuError",
    "InputError",
    "RecordError",
    "DatasetError",
    "ModelError",
    "InternalError",
]

#: The tables of a dataset, in the order ingest writes them.
TABLES = ("games", "rounds", "decisions", "options", "waits")

Paths = Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]]


def _paths(paths: Paths) -> List[str]:
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    out = [os.fspath(p) for p in paths]
    if not out:
        raise InputError("no paths given")
    return out


def _groups(groups: Union[str, Iterable[str]]) -> str:
    return groups if isinstance(groups, str) else ",".join(groups)


def _shard(shard: Tuple[int, int]) -> Tuple[int, int]:
    try:
        i, n = shard
        return int(i), int(n)
    except (TypeError, ValueError):
        raise InputError(f"shard must be a pair (index, count), not {shard!r}") from None


def shanten(hand: str) -> Dict[str, Any]:
    """Shanten of a hand: the minimum and each form (standard, chiitoitsu, kokushi).

    ``hand`` is mpsz notation (``"123m456p789s1122z"``, ``0`` = red five, 1z-7z = E S W N white
    green red) with 13 or 14 concealed tiles, or fewer when melds follow, each meld its own group
    after a space or comma: three equal tiles = pon, three in a row = chi, four equal = open kan,
    ``(1111m)`` = closed kan. Majiang notation (``"m34567p2388s5779p1"``) works too.

    Returns ``{"shanten": s, "standard": a, "chiitoitsu": b, "kokushi": c}`` (``None`` = form not
    possible), as ``haifu shanten HAND --json``. A bad hand raises :class:`InputError`.

    >>> haifu.shanten("123m456p789s1122z")
    {'shanten': 0, 'standard': 0, 'chiitoitsu': 4, 'kokushi': 9}
    """
    return json.loads(_haifu.shanten(hand))


def nanikiru(
    hand: str,
    *,
    evaluator: str = "linear",
    dora: Sequence[str] = (),
    round_wind: str = "E",
    seat_wind: str = "S",
    riichi: Sequence[str] = (),
    weights: Optional[Union[str, "os.PathLike[str]"]] = None,
    push_fold: bool = False,
    explain: bool = False,
) -> Dict[str, Any]:
    """What to discard: ranks every distinct discard of a 14-tile hand, best first.

    ``hand``: 14 tiles counting melds as 3, in mpsz with melds as in :func:`shanten`, or majiang
    notation (``"p456788s3477p0,p222="``), whose last concealed tile is the drawn one (``ev`` then
    breaks exact ties as 電脳麻将 does). A red five and a plain five held together are ranked as
    two options; remaining tile counts treat the hand and the dora indicators as seen.

    - ``evaluator``: ``linear`` (the fitted weights, which agree with human houou discards far more
      often than ukeire), ``ukeire``, ``ev``, ``yaku``, ``yaku-seed`` or ``trees`` (its model file
      as ``weights``, default ``data/weights/trees.txt.gz``);
    - ``dora``: dora indicators (the tiles shown, ``"4p"`` or ``"p4"``), one per kan dora too;
    - ``round_wind``, ``seat_wind``: ``"E"``, ``"S"``, ``"W"`` or ``"N"`` (the command line's
      defaults: East round, South seat);
    - ``riichi``: an opponent in riichi per entry, given by their discards in mpsz (at most three);
    - ``weights``: the linear evaluator's weights file (default: the shipped one);
    - ``push_fold``: apply the push/fold layer against a riichi (weak hands fold to the safest
      tile, good hands play only genbutsu / suji / honors, excellent hands push);
    - ``explain`` (linear and trees): each option's five largest feature contributions (for trees
      exact TreeSHAP values, relative to the best option).

    Returns ``{"discard": "7s", "options": [{"tile", "score", "shanten", "ukeire"}, ...]}`` (plus
    ``"explain"``), as ``haifu nanikiru HAND --json``. Bad input raises :class:`InputError` with the
    command line's message; an unreadable weights file :class:`ModelError`.
    """
    return json.loads(
        _haifu.nanikiru(
            hand,
            evaluator,
            list(dora),
            round_wind,
            seat_wind,
            list(riichi),
            None if weights is None else os.fspath(weights),
            push_fold,
            explain,
        )
    )


def rank_positions(
    positions: Iterable[Union[Dict[str, Any], str]],
    *,
    evaluator: str = "ev",
    weights: Optional[Union[str, "os.PathLike[str]"]] = None,
    on_error: str = "raise",
) -> List[Dict[str, Any]]:
    """Ranks many positions given as 電脳麻将 is given them (``haifu nanikiru --positions``).

    Each position is a dict (or its JSON text): ``shoupai`` in majiang notation, 14 tiles counting
    melds as 3, the drawn tile last; ``zhuangfeng`` / ``menfeng`` the round and seat wind
    (0 = East); ``baopai`` the dora indicators; ``red`` whether red fives are in play (default
    true); ``paishu`` the unseen copies (optional); ``id`` echoed. With ``evaluator="ev"`` the
    position's red fives count and wins are scored under majiang-core's rules.

    Returns one ``{"id", "pick", "discard", "options": [...]}`` per position, in order. Every
    position is ranked even when some are bad (as the command line goes on past a bad line); then
    ``on_error="raise"`` (default) raises :class:`InputError` naming the first bad index, and
    ``on_error="keep"`` returns ``{"index": i, "error": "..."}`` in the bad positions' places.
    """
    if on_error not in ("raise", "keep"):
        raise InputError(f'on_error must be "raise" or "keep", not {on_error!r}')
    lines = [p if isinstance(p, str) else json.dumps(p, ensure_ascii=False) for p in positions]
    wpath = None if weights is None else os.fspath(weights)
    out: List[Dict[str, Any]] = []
    for i, (ok, text) in enumerate(_haifu.rank_positions(lines, evaluator, wpath)):
        if ok:
            out.append(json.loads(text))
        elif on_error == "raise":
            raise InputError(text)
        else:
            out.append({"index": i, "error": text})
    return out


def check(paths: Paths, *, jobs: Optional[int] = None, progress: bool = False) -> Dict[str, Any]:
    """Replays every game with full validation and re-scores every win against its record.

    ``paths``: files (mjlog XML plain or gzipped, tenhou.net/6 JSON, mjai JSON lines), folders
    (recursive), .zip archives or phoenix-logs SQLite databases. Returns the summary
    ``haifu check --json`` prints: counts (files, games, rounds, discards, agari), the mismatches,
    the files that failed (``errors``), skipped and partial records. A file that fails is listed,
    not raised.
    """
    return json.loads(_haifu.check(_paths(paths), jobs, progress))


def mjai_events(path: Union[str, "os.PathLike[str]"]) -> List[List[Dict[str, Any]]]:
    """Every game under ``path`` (any format haifu reads) as its validated mjai events.

    One list of event dicts per game, in input order: the lines ``haifu convert --to mjai`` writes
    (Mortal's field order), after a replay that re-scores every win. A record that cannot be read
    or converted raises :class:`RecordError`.
    """
    return [[json.loads(line) for line in text.splitlines() if line] for text in _haifu.mjai_events(os.fspath(path))]


def convert(
    paths: Paths,
    *,
    to: str,
    out: Union[str, "os.PathLike[str]"],
    jobs: Optional[int] = None,
    resume: bool = False,
    progress: bool = False,
) -> Dict[str, Any]:
    """Converts records into one validated mjai (``to="mjai"``: OUT/GAME_ID.json.gz) or
    tenhou.net/6 (``to="tenhou6"``: OUT/GAME_ID.json) file per game.

    A game is written only when it replays, every win re-scores to the recorded payments, and the
    file read back replays the same. ``resume`` keeps the files already in ``out``. Returns the
    summary ``haifu convert --json`` prints (counts, failed records with their reasons, seconds).
    """
    return json.loads(_haifu.convert(_paths(paths), to, os.fspath(out), jobs, resume, progress))


def _frame(stream: Any) -> pl.DataFrame:
    return pl.DataFrame(stream)


def decisions(
    paths: Paths,
    *,
    skip: Union[str, Iterable[str]] = (),
    with_: Union[str, Iterable[str]] = (),
    jobs: Optional[int] = None,
    shard: Tuple[int, int] = (0, 1),
    progress: bool = False,
) -> Dict[str, pl.DataFrame]:
    """Every decision of every game under ``paths``, with its options and feature columns, in memory.

    Returns the five tables ``haifu ingest`` writes, as polars frames: ``games`` (one row per game),
    ``rounds``, ``decisions`` (one row per decision: context and the chosen option), ``options``
    (one row per option: ``decision_id``, ``option``, ``chosen`` and the feature columns) and
    ``waits`` (each opponent's tenpai, winning kinds and ron points at each discard decision: the
    danger models' labels); schema in docs/schema.md. Columns and values equal what ``haifu ingest`` writes for the same records
    and options (decision ids included). ``skip`` leaves out column groups (``"ev"``, ``"danger"``,
    ``"seats"``: held by default), ``with_`` adds the opt-in one (``"ukeire2"``); ``shard=(i, n)`` keeps the records whose game id hashes to
    i mod n. Records that fail are left out with a warning naming them.

    The columns cross from Rust through Arrow without being copied.
    """
    streams, summary = _haifu.decisions(_paths(paths), _groups(skip), _groups(with_), jobs, _shard(shard), progress)
    errors = json.loads(summary)["tally"]["errors"]
    if errors:
        shown = "; ".join(f"{e['file']}: {e['error']}" for e in errors[:5])
        more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
        warnings.warn(f"haifu.decisions: {len(errors)} record(s) failed: {shown}{more}", stacklevel=2)
    return {name: _frame(streams[name]) for name in TABLES}


def ingest(
    paths: Paths,
    out: Union[str, "os.PathLike[str]"],
    *,
    jobs: Optional[int] = None,
    part_games: int = 200,
    resume: bool = False,
    force: bool = False,
    shard: Tuple[int, int] = (0, 1),
    skip: Union[str, Iterable[str]] = (),
    with_: Union[str, Iterable[str]] = (),
    progress: bool = False,
) -> Dict[str, Any]:
    """Every decision with all its options and feature vectors, to parquet parts in ``out``.

    Writes what ``haifu ingest`` writes: the tables games, rounds, decisions and options as folders
    of parts (``options/part-000012.parquet``, one part per ``part_games`` records), each complete
    part marked by ``_parts/part-000012.json``. ``resume`` keeps the complete parts already in
    ``out`` (same inputs and options) and ingests the rest; ``force`` replaces the dataset there;
    ``shard=(i, n)`` takes the records whose game id hashes to i mod n (the shards' parts merge in
    one folder). ``skip`` / ``with_``: column groups, as :func:`decisions`.

    Returns the summary ``haifu ingest --json`` prints. Ctrl-C stops after the parts in flight:
    the complete ones stay, and ``resume=True`` finishes the rest. A refused folder raises
    :class:`DatasetError`.
    """
    return json.loads(
        _haifu.ingest(
            _paths(paths),
            os.fspath(out),
            jobs,
            part_games,
            resume,
            force,
            _shard(shard),
            _groups(skip),
            _groups(with_),
            progress,
        )
    )


def _list(v: Union[str, Iterable[str]]) -> List[str]:
    return [v] if isinstance(v, str) else list(v)


def fit(
    data: Union[str, "os.PathLike[str]"],
    out: Union[str, "os.PathLike[str]"],
    *,
    kind: str = "discard",
    tables: Union[str, Iterable[str]] = (),
    seats: str = "human",
    players: int = 4,
    loss: str = "logistic",
    pairs: str = "per-decision",
    l2: Union[float, Iterable[float]] = (0.0001, 0.001, 0.01),
    max_iters: int = 150,
    interact: Union[str, Iterable[str]] = (),
    seed: int = 1,
    progress: bool = False,
) -> Dict[str, Any]:
    """Fits the linear evaluator's weights to the recorded picks of an ingest folder, as ``haifu fit``.

    The decisions of ``kind`` (discard, riichi, call) at ``tables`` (houou, tokujou, ...; default all)
    by ``seats`` (human, ai, all) in games of ``players`` seats (4, or 3: the two variants are
    never mixed) are split by game (``seed``) into train / validation / test; the
    ``loss`` (logistic, hinge, seed: pairwise; softmax: listwise) with ``pairs`` (per-decision,
    sum, ranked) is minimised for each L2 strength of ``l2``, the best on validation kept.
    ``interact``: gated copies of columns, e.g. ``"shanten"``. Writes the weights file ``out`` with
    its report beside it, as the command does, and returns the file's contents (features,
    weights, metrics per split). Bad options raise :class:`InputError`, a failed fit
    :class:`ModelError`.
    """
    l2s = [float(l2)] if isinstance(l2, (int, float)) else [float(x) for x in l2]
    text = _haifu.fit(
        os.fspath(data), os.fspath(out), kind, _list(tables), seats, loss, pairs, l2s, max_iters,
        _list(interact), seed, progress, players,
    )
    return json.loads(text)


def evaluate(
    data: Union[str, "os.PathLike[str]"],
    *,
    weights: Optional[Union[str, "os.PathLike[str]"]] = None,
    evaluators: Union[str, Iterable[str]] = ("ukeire", "ev", "linear"),
    kind: str = "discard",
    tables: Union[str, Iterable[str]] = (),
    seats: str = "human",
    players: int = 4,
    split: str = "all",
    push_fold: bool = False,
    seed: int = 1,
    progress: bool = False,
    trees: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> Dict[str, Any]:
    """Agreement of evaluators with the recorded picks of an ingest folder: ``haifu eval --json``.

    Top-1 / top-3 / mean rank per evaluator (ukeire, ev, yaku, yaku-seed, linear with ``weights``,
    default the shipped file, trees with ``trees``, default the shipped model of ``kind``:
    ``data/weights/trees.txt.gz``, ``trees-riichi.txt.gz`` or ``trees-call.txt.gz`` from
    ``make trees``), overall and by slice (shanten, turn, riichi, table, human vs AI), on the games
    of ``split`` (all, train, validation, test: the seeded split :func:`fit` uses), in games of
    ``players`` seats (4, or 3).
    """
    text = _haifu.evaluate(
        os.fspath(data), None if weights is None else os.fspath(weights), _list(evaluators), kind,
        _list(tables), seats, split, push_fold, seed, progress,
        None if trees is None else os.fspath(trees), players,
    )
    return json.loads(text)


def defaults() -> Dict[str, Any]:
    """The library's defaults of :func:`fit` and :func:`evaluate` (and of ``haifu fit`` /
    ``haifu eval``): kind, seats, split seed and fractions, loss, pairs, L2 grid, iterations, the
    evaluators compared, the push/fold thresholds, and the seat, split and table names. The
    keyword defaults of this module's functions equal them (``python/tests/test_models.py``)."""
    return json.loads(_haifu.defaults())


def scan(out: Union[str, "os.PathLike[str]"]) -> Dict[str, pl.LazyFrame]:
    """Opens an ingest folder lazily: one ``polars.LazyFrame`` per table over its complete parts."""
    frames = {}
    for table in TABLES:
        files = [os.fspath(f) for f in _haifu.table_files(os.fspath(out), table)]
        frames[table] = pl.scan_parquet(files)
    return frames


def features(
    position: Union[Dict[str, Any], str, Sequence[Union[Dict[str, Any], str]]],
    seat: Optional[int] = None,
    kind: str = "discard",
) -> pl.DataFrame:
    """The option rows of a live position: one row per option, ``option`` then every feature
    column of ``haifu schema`` in its dataset type.

    ``position`` is either

    - a position dict (or its JSON text) in :func:`rank_positions`' format: every distinct discard
      of the hand, the rows the fitted ``linear`` evaluator scores (only what the position states
      is known: no rivers, no scores); or
    - a list of mjai events (dicts or JSON lines), a game so far that stops with ``seat`` facing
      a decision of ``kind``: ``"discard"`` (after its draw, call or riichi declaration: the
      legal discards), ``"riichi"`` (right after its draw with riichi possible: ``dama`` and
      ``riichi``) or ``"call"`` (right after another seat's discard: ``pass`` and each chi, pon or
      open kan); the options and the rows ``haifu ingest`` would write for that decision, value
      for value, labelled as the options table's ``option`` column.

    Columns of every group are filled (``ukeire2`` and ``danger`` too). Bad input raises :class:`InputError`,
    events that do not replay :class:`RecordError`.
    """
    if isinstance(position, dict) or isinstance(position, str):
        if seat is not None or kind != "discard":
            raise InputError("seat and kind are for a list of mjai events; a position dict is a discard position")
        line = position if isinstance(position, str) else json.dumps(position, ensure_ascii=False)
        return _frame(_haifu.features_position(line))
    if seat is None:
        raise InputError("features(events, seat=...): the seat to discard is needed with mjai events")
    lines = "\n".join(e if isinstance(e, str) else json.dumps(e, ensure_ascii=False) for e in position)
    return _frame(_haifu.features_events(lines, seat, kind))


class Bot:
    """One of haifu's players at an mjai table, as ``haifu bot`` plays it.

    ``react(line)`` takes one line of the table's stream, an mjai event or a JSON array of events
    (Mortal's ``libriichi.mjai.Bot.react`` convention), and returns the seat's answer as a JSON
    string (``dahai`` with ``tsumogiri``, ``reach``, ``chi``, ``pon``, ``daiminkan``, ``kakan``,
    ``ankan``, ``hora``, ``ryukyoku``), or ``None`` when the line gives the seat no choice. The
    answers are the CLI bot's, and the player's in ``haifu simulate``.

    ``player`` is any ``haifu simulate`` bot: ``majiang-0402`` (default), ``majiang-0401``,
    ``majiang-0400``, ``ev``, ``linear`` (``weights``: a weights file, default the shipped one),
    ``trees``, ``ukeire``, ``yaku``, ``boten``, ``fitted`` (discards, riichi and calls by the shipped
    models; ``weights``: a trees discard model with its riichi and call models beside it, or linear
    ``.json`` weights, docs/bot.md), ``random``. ``tonpuu=True`` tells the bot the game is east-only
    (mjai never says; hanchan is assumed). ``start_game``'s ``id`` sets the seat. A line the bot cannot
    follow gets a legal answer anyway (a tsumogiri on its own turn, else ``None``) and the reason
    in :attr:`last_error`; it never raises on table input. Example with RiichiEnv::

        bot = haifu.Bot(0, player="majiang-0402")
        for ev in obs.new_events():
            answer = bot.react(ev)
        action = obs.select_action_from_mjai(answer)
    """

    def __init__(self, seat: int, player: str = "majiang-0402", weights: Optional[Union[str, "os.PathLike[str]"]] = None,
                 tonpuu: bool = False):
        self._bot = _haifu.Bot(seat, player, None if weights is None else os.fspath(weights), tonpuu)

    def react(self, line: Union[str, Dict[str, Any], Sequence[Dict[str, Any]]]) -> Optional[str]:
        """The answer (mjai JSON) to one line of the stream, or None. Dicts and lists of dicts are
        serialised first."""
        if not isinstance(line, str):
            line = json.dumps(line)
        return self._bot.react(line)

    @property
    def seat(self) -> int:
        """The seat played (start_game's ``id`` sets it)."""
        return self._bot.seat

    @property
    def last_error(self) -> Optional[str]:
        """Why the last line could not be followed (its answer was a legal fallback), else None."""
        return self._bot.last_error
