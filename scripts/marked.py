"""A generated block inside a hand-written markdown file: the text between two marker lines is
rewritten by a script, and the prose around it is kept (reports/losses/losses.md by
scripts/loss_table.py, reports/arena/README.md by scripts/arena_strength.py)."""
import os


def splice(text, begin, end, body):
    """`text` with `body` between the marker lines `begin` and `end`, the rest as it was; None when
    the two markers are not there in that order."""
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        return None
    return f"{text[:start]}{begin}\n{body.rstrip()}\n{text[stop:]}"


def write_atomically(path, text):
    """Writes `text` to `path` through a temporary file beside it, so a reader never sees half."""
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
