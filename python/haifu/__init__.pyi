"""Type stub of haifu (the docstrings are in haifu/__init__.py; docs/python.md has examples)."""

import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import polars as pl

from ._errors import DatasetError as DatasetError
from ._errors import HaifuError as HaifuError
from ._errors import InputError as InputError
from ._errors import InternalError as InternalError
from ._errors import ModelError as ModelError
from ._errors import RecordError as RecordError

_Path = Union[str, os.PathLike[str]]
Paths = Union[_Path, Sequence[_Path]]
Groups = Union[str, Iterable[str]]
Position = Union[Dict[str, Any], str]

TABLES: Tuple[str, str, str, str, str]

def shanten(hand: str) -> Dict[str, Optional[int]]:
    """Shanten of a hand, overall and by form (``haifu shanten HAND --json``)."""

def nanikiru(
    hand: str,
    *,
    evaluator: str = "linear",
    dora: Sequence[str] = (),
    round_wind: str = "E",
    seat_wind: str = "S",
    riichi: Sequence[str] = (),
    weights: Optional[_Path] = None,
    push_fold: bool = False,
    explain: bool = False,
) -> Dict[str, Any]:
    """Every distinct discard of a 14-tile hand ranked, best first (``haifu nanikiru HAND --json``)."""

def rank_positions(
    positions: Iterable[Position], *, evaluator: str = "ev", weights: Optional[_Path] = None, on_error: str = "raise"
) -> List[Dict[str, Any]]:
    """Positions in 電脳麻将's form ranked, one result per position (``nanikiru --positions --json``)."""

def check(paths: Paths, *, jobs: Optional[int] = None, progress: bool = False) -> Dict[str, Any]:
    """Replays and re-scores every record (``haifu check --json``)."""

def mjai_events(path: _Path) -> List[List[Dict[str, Any]]]:
    """Every game under ``path`` as its validated mjai events, one list per game."""

def convert(
    paths: Paths, *, to: str, out: _Path, jobs: Optional[int] = None, resume: bool = False, progress: bool = False
) -> Dict[str, Any]:
    """One validated mjai or tenhou.net/6 file per game (``haifu convert --json``)."""

def decisions(
    paths: Paths,
    *,
    skip: Groups = (),
    with_: Groups = (),
    jobs: Optional[int] = None,
    shard: Tuple[int, int] = (0, 1),
    progress: bool = False,
) -> Dict[str, pl.DataFrame]:
    """The five tables of ``haifu ingest`` (games, rounds, decisions, options, waits) in memory."""

def ingest(
    paths: Paths,
    out: _Path,
    *,
    jobs: Optional[int] = None,
    part_games: int = 200,
    resume: bool = False,
    force: bool = False,
    shard: Tuple[int, int] = (0, 1),
    skip: Groups = (),
    with_: Groups = (),
    progress: bool = False,
) -> Dict[str, Any]:
    """Parquet parts in ``out``, as ``haifu ingest`` writes them; its ``--json`` summary."""

def scan(out: _Path) -> Dict[str, pl.LazyFrame]:
    """An ingest folder's tables, lazily (complete parts only)."""

def features(position: Union[Position, Sequence[Position]], seat: Optional[int] = None, kind: str = "discard") -> pl.DataFrame:
    """A live position's option rows (a discard, riichi or call decision): ``option`` and every feature column."""

def fit(
    data: _Path,
    out: _Path,
    *,
    kind: str = "discard",
    tables: Groups = (),
    seats: str = "human",
    loss: str = "logistic",
    pairs: str = "per-decision",
    l2: Union[float, Iterable[float]] = (0.0001, 0.001, 0.01),
    max_iters: int = 150,
    interact: Groups = (),
    seed: int = 1,
    progress: bool = False,
) -> Dict[str, Any]:
    """Fits the linear evaluator (``haifu fit``); the weights file written, as a dict."""

def evaluate(
    data: _Path,
    *,
    weights: Optional[_Path] = None,
    evaluators: Groups = ("ukeire", "ev", "linear"),
    kind: str = "discard",
    tables: Groups = (),
    seats: str = "human",
    split: str = "all",
    push_fold: bool = False,
    seed: int = 1,
    progress: bool = False,
    trees: Optional[_Path] = None,
) -> Dict[str, Any]:
    """Agreement of evaluators with the recorded picks (``haifu eval --json``)."""

def defaults() -> Dict[str, Any]:
    """The library's defaults of fit and evaluate (one source for the CLI and this package)."""

class Bot:
    """One of haifu's players at an mjai table (``haifu bot``): ``react(line) -> str | None``.

    A ``start_kyoku`` dealing three hands is a 3-player table (Tenhou's sanma rules): the bot
    follows ``kita`` / ``nukidora`` and answers ``{"type":"kita","actor":N,"pai":"N"}``; the
    four-player-only players (majiang-*, ev, trees, fitted) sit such rounds out with tsumogiri and say so
    in ``last_error`` (docs/bot.md)."""

    def __init__(self, seat: int, player: str = "majiang-0402", weights: Optional[_Path] = None,
                 tonpuu: bool = False) -> None: ...
    def react(self, line: Union[str, Dict[str, Any], Sequence[Dict[str, Any]]]) -> Optional[str]:
        """The seat's answer (mjai JSON) to one line of the stream, or None."""
    @property
    def seat(self) -> int: ...
    @property
    def last_error(self) -> Optional[str]: ...
