"""The exceptions haifu raises: every one is a :class:`HaifuError`."""


class HaifuError(Exception):
    """Base class of haifu's errors."""


class InputError(HaifuError, ValueError):
    """Bad input: a hand, a tile, a position or an argument (the command line's usage errors, same message)."""


class RecordError(HaifuError):
    """A record that cannot be read, replayed or converted."""


class DatasetError(HaifuError):
    """A dataset folder that cannot be read or written (or an ingest refused: not empty, resume mismatch)."""


class ModelError(HaifuError):
    """A weights file or evaluator that cannot be used."""


class InternalError(HaifuError):
    """A bug in haifu (a Rust panic), reported instead of aborting the interpreter."""
