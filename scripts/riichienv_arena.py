"""An arena: hanchan in RiichiEnv 0.4.11 between RiichiEnv's RandomAgent and haifu players.

Usage:
  python riichienv_arena.py --games N --players A,B,C[,D] [--seed S] [--json OUT] [--logs DIR]
                            [--haifu PATH] [--via cli|package] [--timeout SEC] [--duplicate]

(scripts/riichienv_arena.sh makes the venv with riichienv==0.4.11 and runs this.)

A seat is `random` (riichienv.agents.RandomAgent: a uniform choice among the legal actions,
seeded from --seed, the game and the seat) or the name of a haifu player (majiang-0402, ev,
linear, ukeire, ...), played over the mjai protocol by `HAIFU bot --seat N --player NAME`
(--via cli, the default; HAIFU is --haifu, else $HAIFU, else target/release/haifu) or by
`haifu.Bot(seat, player=NAME).react(line)` of the Python package (--via package).

Table and rules: RiichiEnv(game_mode="4p-red-half", rule=GameRule.default_tenhou(), seed=...):
hanchan from 25,000 points, West extension while nobody has 30,000 after South 4 (sudden death,
at most West 4), the game ends when a score goes below 0, one red five per suit, open tanyao
(RiichiEnv 0.4.11 has no switch for it: always on), kuikae forbidden, triple ron is a draw, the
leftover riichi sticks go to the first place at the end, ties ranked by seat (seat 0 is the
first dealer). Seat 0 deals first in every game.

Three names in --players play RiichiEnv's 3-player mode instead: RiichiEnv(game_mode=
"3p-red-half", rule=GameRule.default_tenhou()), Observation3P / Action3P: 108 tiles (no 2m-8m),
red 5p and 5s, 35,000 points, hanchan to 40,000 after South 3 (else West, at most West 3), no chi,
a north set aside with `kita` (answered {"type":"kita","actor":N,"pai":"N"}, the replacement
`tsumo` follows), tsumo loss. Its mjai is three-entry (names, tehais, scores, deltas). Everything
below holds with "4" read as the number of seats; points per hanchan are from 35,000. The
4-player-only haifu players (majiang-*, ev, trees) are refused by the bot at three players (it
sits the rounds out with tsumogiri), and majiang-ai is four-player only: the arena refuses them.

Line-up: game g (0-based) seats the listed players rotated by g mod 4 (seat s gets player
(s - g) mod 4), so over every 4 games each player sits at each seat once. Each game has its own
wall seed, hashed from (--seed, g); RiichiEnv 0.4.11 deals the k-th kyoku of a game from
seed + k (two games whose seeds are 4 apart share most of their deals), hence the hash rather
than seed + g. --duplicate hashes (--seed, g div 4) instead: the 4 rotations of a line-up play
the same walls (the k-th kyoku of each), which takes the luck of the deal out of comparisons
between players; the games are then not independent, and the intervals below ignore that.
The same --seed gives the same games (RiichiEnv and RandomAgent are deterministic; the haifu
players should be).

The mjai stream a haifu seat gets: at each of its decisions (each Observation RiichiEnv hands
the seat), the events the seat has not seen yet, Observation.new_events(), as one JSON array on
one line (--feed array, Mortal's `react` on a list), or one event per line (--feed events); the
seat's answer to the line ending at its decision is its action, every other line must be
answered by {"type":"none"}. These events are RiichiEnv's mjai log as that seat sees it: the
other seats' draws and start hands are "?" (checked against the full log after every game). Two
changes: `start_game` carries "id" (the seat) and "names" (RiichiEnv sends a bare
{"type":"start_game"}), and after the game the events the seat never got (the last discards,
the result, end_kyoku, end_game) are sent as one more line, whose answer is not used.

An answer counts as legal when Observation.select_action_from_mjai(answer) returns one of the
seat's legal actions, and, since that matcher is lenient (it ignores actor, target, a hora's pai
and missing fields), also: an actor, when given, is the seat; a dahai has its pai, a chi / pon
its pai and consumed, a daiminkan / kakan its pai, an ankan its pai or consumed; the matched
action has the pai and consumed that the answer has (consumed as a multiset; an ankan's pai red
or not); a call's target, when given, is the discarder; a hora's target and pai, when given,
are the discarder (itself for a tsumo) and the tile of the last event. Anything else (not JSON,
no such action, no answer within --timeout seconds, a dead process) is counted
(`illegal_responses`, `timeouts`, `dead`; their sum is `illegal`) and replaced by a legal
fallback so the game goes on: pass when passing is legal, else discard the drawn tile, else the
first legal discard, else the first legal action. A late answer is read and thrown away before
the next line's; after 3 late answers in a row the seat plays fallbacks (`dead`) to the end of
the game. A process gets --startup-timeout (60 s) for its first answer. Every game starts fresh
processes (the seat changes from game to game). Not counted as illegal, reported apart: a dahai
whose tsumogiri flag is wrong (RiichiEnv uses the flag to pick which copy of the tile leaves the
hand), and non-`none` answers to lines that were not a decision (`spurious`).

Figures per player (over every seat the player sat in): hanchan, placement (1st-4th, %), average
rank, points per hanchan (final score - 25,000; the final score has the leftover sticks), and
per kyoku (as rates of the kyoku played): win (a hora by the seat), deal-in (a hora whose target
is the seat and actor another seat; a double ron counts once), riichi (reach_accepted), call (a
kyoku with a chi, pon or daiminkan by the seat), all counted from RiichiEnv's full mjai log. 95%
intervals: Wilson for rates and placements, Student t for the means. Kyoku of one game are
counted as independent.

--logs DIR writes every game's full mjai log, as RiichiEnv recorded it (env.mjai_log: every
tile visible), one event per line, gzipped: DIR/arena-<seed>-<game>.json.gz (gzip mtime 0, so
the same seed writes the same bytes). The only change is "names" (the line-up) added to
start_game, so `haifu check DIR` can re-score the games.

--json OUT writes {"games", "illegal", "timeouts", ..., "players": {NAME: figures}, "rules",
"engine", "seed", ...}. A progress line with an ETA goes to stderr. Exit status 0, 1 when any
answer was illegal or late, 2 on a usage error.
"""

import argparse
import gzip
import hashlib
import importlib.metadata
import json
import math
import os
import selectors
import subprocess
import sys
import threading
import time
from collections import Counter, deque

from riichienv import ActionType, GameRule, RiichiEnv
from riichienv.agents import RandomAgent

#: The table by seat count: RiichiEnv's game mode, the start score, notes for --json.
TABLES = {
    4: {
        "game_mode": "4p-red-half",
        "start_score": 25000,
        "notes": "hanchan, 30,000 to end after South 4 else West extension (sudden death, to West 4 "
        "at most), bust below 0, one red five per suit, open tanyao always on (no switch in "
        "riichienv 0.4.11), leftover riichi sticks to the first place, ties by seat",
    },
    3: {
        "game_mode": "3p-red-half",
        "start_score": 35000,
        "notes": "3-player hanchan (RiichiEnv's sanma: 108 tiles, red 5p and 5s, no chi, kita "
        "sets a north aside as a dora, tsumo loss), 40,000 to end after South 3 else West (to West "
        "3 at most), bust below 0, leftover riichi sticks to the first place, ties by seat",
    },
}
#: The table of this run (main sets it from the number of --players).
TABLE = TABLES[4]
#: haifu players that do not play at three players (haifu bot refuses them: docs/bot.md).
FOUR_PLAYER_ONLY = ("majiang-0400", "majiang-0401", "majiang-0402", "ev", "trees", "fitted")
ACTIONS = ("dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "reach", "hora", "ryukyoku", "kita", "none")
# Fields an answer must carry (a tuple of alternatives: one of them is enough).
REQUIRED = {
    "dahai": (("pai",),),
    "chi": (("pai",), ("consumed",)),
    "pon": (("pai",), ("consumed",)),
    "daiminkan": (("pai",),),
    "kakan": (("pai",),),
    "ankan": (("pai", "consumed"),),
}


def derived_seed(*parts):
    """A 63-bit seed from the parts (stable across runs and Python versions)."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def masked(event, seat):
    """The event as `seat` sees it: the other seats' draws and start hands hidden."""
    t = event["type"]
    if t == "tsumo" and event["actor"] != seat:
        return dict(event, pai="?")
    if t == "start_kyoku":
        hands = [h if i == seat else ["?"] * len(h) for i, h in enumerate(event["tehais"])]
        return dict(event, tehais=hands)
    return event


def unred(tile):
    return tile[:-1] if isinstance(tile, str) and tile.endswith("r") else tile


class Tally:
    """Per-player protocol counters."""

    def __init__(self):
        self.c = Counter()
        self.answers = Counter()  # the answers' mjai types
        self.notes = []
        self.seconds = 0.0
        self.max_seconds = 0.0

    def note(self, text):
        if len(self.notes) < 20:
            self.notes.append(text)


class RandomSeat:
    def __init__(self, seat, name, seed):
        self.seat, self.name = seat, name
        self.agent = RandomAgent(seed=seed)

    def act(self, obs):
        return self.agent.act(obs)

    def finish(self, full_log):
        pass

    def close(self):
        pass


class Transport:
    """A line-in / line-out bot: send(line), receive(timeout) -> line | None (timeout);
    raises EOFError when it is gone."""

    alive = True
    drops_late = False  # a late answer never arrives (it was dropped), so nothing is owed


class ProcessTransport(Transport):
    def __init__(self, argv, label, tally, echo_stderr):
        self.label, self.tally = label, tally
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0
        )
        self.buf = b""
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.proc.stdout, selectors.EVENT_READ)
        self.stderr_tail = deque(maxlen=5)
        self.stderr_lines = 0
        self.echo = echo_stderr
        self.reader = threading.Thread(target=self._drain_stderr, daemon=True)
        self.reader.start()

    def _drain_stderr(self):
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.stderr_lines += 1
            self.stderr_tail.append(line)
            if self.echo:
                sys.stderr.write(f"\n[{self.label}] {line}\n")

    def send(self, line):
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self.alive = False
            raise EOFError("stdin closed") from None

    def receive(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            if not self.sel.select(left):
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                self.alive = False
                raise EOFError(f"exited with status {self.proc.poll()}")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode("utf-8", "replace")

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.reader.join(timeout=1)
        self.sel.close()
        if self.stderr_lines:
            self.tally.c["stderr_lines"] += self.stderr_lines
            for line in self.stderr_tail:
                self.tally.note(f"stderr: {line}")


class PackageTransport(Transport):
    """haifu.Bot(seat, player=NAME).react(line) -> str | None, called in this process: a slow
    answer is counted as a timeout (and not used) but cannot be interrupted."""

    drops_late = True

    def __init__(self, module, seat, name):
        self.bot = module.Bot(seat, player=name)
        self.pending = []

    def send(self, line):
        t0 = time.monotonic()
        try:
            out = self.bot.react(line)
        except Exception as e:  # counted as an illegal answer (not JSON)
            out = f"<react raised {type(e).__name__}: {e}>"
        self.pending.append((time.monotonic() - t0, '{"type":"none"}' if out is None else out))

    def receive(self, timeout):
        if not self.pending:
            raise EOFError("no answer pending")
        took, out = self.pending.pop(0)
        return None if took > timeout else out

    def close(self):
        pass


class MjaiSeat:
    """A seat played over the mjai protocol through a Transport."""

    def __init__(self, seat, name, names, transport, tally, args):
        self.seat, self.name, self.names = seat, name, names
        self.t, self.tally, self.args = transport, tally, args
        self.seen = []  # the events this seat was given, as dicts (before the start_game patch)
        self.owed = 0  # answers written late: thrown away before the next one
        self.first = True
        self.late_in_a_row = 0
        self.timed_out = False
        self.in_tail = False

    # -- protocol ---------------------------------------------------------------------------
    def _patch(self, events):
        out = []
        for e in events:
            if e["type"] == "start_game":
                e = dict(e, id=self.seat, names=self.names)
            out.append(e)
        return out

    def _lines(self, events):
        events = self._patch(events)
        if self.args.feed == "array":
            return [json.dumps(events, separators=(",", ":"))]
        return [json.dumps(e, separators=(",", ":")) for e in events]

    def _answer(self, line, timeout):
        """Send a line and read its answer: the text, or None (timeout / dead)."""
        if not self.t.alive:
            return None
        try:
            self.t.send(line)
            while self.owed:
                late = self.t.receive(timeout)
                if late is None:
                    self.owed += 1  # still owes the earlier answers, and now this one too
                    return None
                self.owed -= 1
            text = self.t.receive(timeout)
        except EOFError as e:
            if not self.in_tail:  # a bot may leave after end_game without a word
                self.tally.note(f"{self.name} seat {self.seat}: process gone ({e})")
            self.t.alive = False
            return None
        if text is None and not self.t.drops_late:
            self.owed += 1
        return text

    def _exchange(self, events, decision, timeout=None):
        """Feed the events; return the answer to the last line (None: timeout or dead)."""
        lines = self._lines(events)
        answer = None
        for i, line in enumerate(lines):
            timeout = self.args.timeout if timeout is None else timeout
            if self.first:
                timeout = max(timeout, self.args.startup_timeout)
                self.first = False
            t0 = time.monotonic()
            answer = self._answer(line, timeout)
            took = time.monotonic() - t0
            last = i == len(lines) - 1
            if last and decision:
                self.tally.seconds += took
                self.tally.max_seconds = max(self.tally.max_seconds, took)
                if answer is None and self.t.alive:
                    self.tally.c["timeouts"] += 1
                    self.timed_out = True
                    self.tally.note(f"{self.name} seat {self.seat}: no answer within {timeout:g} s to {line[-160:]}")
                    self.late_in_a_row += 1
                    if self.late_in_a_row >= 3:
                        self.tally.note(f"{self.name} seat {self.seat}: 3 answers late in a row, stopped")
                        self.t.alive = False
                elif answer is not None:
                    self.late_in_a_row = 0
            elif answer is not None and _kind(answer) not in ("none", None):
                self.tally.c["spurious"] += 1
                self.tally.note(f"{self.name} seat {self.seat}: answered {answer[:120]} to a line that was no decision")
        return answer

    # -- decisions --------------------------------------------------------------------------
    def act(self, obs):
        events = [json.loads(s) for s in obs.new_events()]
        self.seen.extend(events)
        legal = obs.legal_actions()
        self.tally.c["decisions"] += 1
        self.timed_out = False
        text = self._exchange(events, decision=True)
        if text is None:
            if not self.timed_out:
                self.tally.c["dead"] += 1
            return fallback(obs, legal, events, self.seat)
        action, why = check_answer(obs, self.seat, text, events)
        self.tally.answers[_kind(text) or "?"] += 1
        if action is None:
            self.tally.c["illegal_responses"] += 1
            self.tally.note(f"{self.name} seat {self.seat}: {why}: {text[:160]} after {json.dumps(events[-3:])[:300]}")
            return fallback(obs, legal, events, self.seat)
        if why:
            self.tally.c[why] += 1
            self.tally.note(f"{self.name} seat {self.seat}: {why}: {text[:160]}")
        return action

    def finish(self, full_log):
        """After the game: check the seat's view, send it the rest of the game."""
        view = [masked(e, self.seat) for e in full_log[: len(self.seen)]]
        if view != self.seen:
            self.tally.c["view_mismatch"] += 1
            i = next(i for i, (a, b) in enumerate(zip(view, self.seen)) if a != b)
            self.tally.note(f"{self.name} seat {self.seat}: event {i} seen as {self.seen[i]}, log {view[i]}")
        rest = [masked(e, self.seat) for e in full_log[len(self.seen):]]
        if rest and self.t.alive:
            self.in_tail = True
            self._exchange(rest, decision=False, timeout=min(self.args.timeout, 2.0))

    def close(self):
        self.t.close()


def _kind(text):
    try:
        d = json.loads(text)
    except ValueError:
        return None
    return d.get("type") if isinstance(d, dict) else None


def check_answer(obs, seat, text, events):
    """(action, note) for a legal answer, (None, reason) for an illegal one."""
    try:
        ans = json.loads(text)
    except ValueError:
        return None, "not JSON"
    if not isinstance(ans, dict) or ans.get("type") not in ACTIONS:
        return None, "not an mjai action"
    kind = ans["type"]
    if "actor" in ans and ans["actor"] != seat:
        return None, f"actor {ans['actor']} is not seat {seat}"
    for fields in REQUIRED.get(kind, ()):
        if not any(f in ans for f in fields):
            return None, f"{kind} without {' or '.join(fields)}"
    try:
        action = obs.select_action_from_mjai(ans)
    except Exception as e:  # RiichiEnv raises its own types on malformed input
        return None, f"RiichiEnv refused it ({type(e).__name__}: {e})"
    if action is None:
        return None, "no such legal action"
    got = json.loads(action.to_mjai())
    if got.get("type") != kind:
        return None, f"matched a {got.get('type')}"
    if "pai" in ans and "pai" in got:
        same = unred(ans["pai"]) == unred(got["pai"]) if kind == "ankan" else ans["pai"] == got["pai"]
        if not same:
            return None, f"matched pai {got['pai']}"
    if "consumed" in ans and Counter(ans["consumed"]) != Counter(got.get("consumed", [])):
        return None, f"matched consumed {got.get('consumed')}"
    # What RiichiEnv does not look at: a hora's tile and target, a call's target.
    last = events[-1] if events else {}
    own_draw = last.get("type") == "tsumo" and last.get("actor") == seat
    if kind == "hora":
        if "target" in ans and ans["target"] != (seat if own_draw else last.get("actor")):
            return None, f"hora target {ans['target']}, not {seat if own_draw else last.get('actor')}"
        if "pai" in ans and last.get("pai") not in (None, ans["pai"]):
            return None, f"hora pai {ans['pai']}, the winning tile is {last.get('pai')}"
    if kind in ("chi", "pon", "daiminkan") and "target" in ans and ans["target"] != last.get("actor"):
        return None, f"{kind} target {ans['target']}, the discard is seat {last.get('actor')}'s"
    note = None
    if kind == "dahai" and ans.get("tsumogiri") and not (own_draw and ans["pai"] == last.get("pai")):
        note = "tsumogiri_flag_wrong"
    return action, note


def fallback(obs, legal, events, seat):
    for a in legal:
        if a.action_type == ActionType.PASS:
            return a
    last = events[-1] if events else {}
    if last.get("type") == "tsumo" and last.get("actor") == seat:
        a = obs.select_action_from_mjai({"type": "dahai", "pai": last["pai"], "tsumogiri": True})
        if a is not None:
            return a
    for a in legal:
        if a.action_type == ActionType.DISCARD:
            return a
    return legal[0]


# -- statistics ------------------------------------------------------------------------------

T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t975(df):
    if df <= 30:
        return T975[df - 1]
    z = 1.959964
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def wilson(k, n, z=1.959964):
    if n == 0:
        return {"count": k, "n": n, "rate": None, "lo": None, "hi": None}
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return {"count": k, "n": n, "rate": p, "lo": max(0.0, c - h), "hi": min(1.0, c + h)}


def mean_ci(xs):
    n = len(xs)
    if n == 0:
        return {"n": 0, "mean": None, "lo": None, "hi": None}
    m = sum(xs) / n
    if n == 1:
        return {"n": 1, "mean": m, "lo": None, "hi": None}
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = t975(n - 1) * sd / math.sqrt(n)
    return {"n": n, "mean": m, "lo": m - h, "hi": m + h, "sd": sd}


def kyoku_flags(log):
    """For every kyoku of the log: per seat (won, dealt_in, riichi, called, norths set aside)."""
    out, cur = [], None
    for e in log:
        t = e["type"]
        if t == "start_kyoku":
            cur = [[False] * 4 for _ in range(4)]
            kitas = [0] * 4
        elif cur is None:
            continue
        elif t == "hora":
            cur[e["actor"]][0] = True
            if e["target"] != e["actor"]:
                cur[e["target"]][1] = True
        elif t == "reach_accepted":
            cur[e["actor"]][2] = True
        elif t in ("chi", "pon", "daiminkan"):
            cur[e["actor"]][3] = True
        elif t == "kita":
            kitas[e["actor"]] += 1
        elif t == "end_kyoku":
            for s in range(4):
                cur[s].append(kitas[s])
            out.append(cur)
            cur = None
    return out


def figures(records, tally, seats):
    n = len(records)
    ranks = [r["rank"] for r in records]
    rounds = sum(r["kyoku"] for r in records)
    out = {
        "hanchan": n,
        "kyoku": rounds,
        "placement": {str(k): wilson(ranks.count(k), n) for k in range(1, seats + 1)},
        "avg_rank": mean_ci(ranks),
        "points": mean_ci([r["score"] - TABLE["start_score"] for r in records]),
        "win": wilson(sum(r["won"] for r in records), rounds),
        "deal_in": wilson(sum(r["dealt_in"] for r in records), rounds),
        "riichi": wilson(sum(r["riichi"] for r in records), rounds),
        "call": wilson(sum(r["called"] for r in records), rounds),
        "kita_per_kyoku": sum(r["kita"] for r in records) / rounds if rounds else None,
        "seats": dict(sorted(Counter(str(r["seat"]) for r in records).items())),
    }
    if tally is not None:
        c = tally.c
        out["protocol"] = {
            "decisions": c["decisions"],
            "illegal": c["illegal_responses"] + c["timeouts"] + c["dead"],
            "illegal_responses": c["illegal_responses"],
            "timeouts": c["timeouts"],
            "dead": c["dead"],
            "spurious": c["spurious"],
            "tsumogiri_flag_wrong": c["tsumogiri_flag_wrong"],
            "view_mismatch": c["view_mismatch"],
            "stderr_lines": c["stderr_lines"],
            "answers": dict(sorted(tally.answers.items())),
            "mean_answer_ms": 1000 * tally.seconds / c["decisions"] if c["decisions"] else None,
            "max_answer_ms": 1000 * tally.max_seconds,
            "notes": tally.notes,
        }
    return out


def fmt_rate(w):
    if w["rate"] is None:
        return "-"
    return f"{100 * w['rate']:.1f}% [{100 * w['lo']:.1f}, {100 * w['hi']:.1f}]"


def fmt_mean(m, digits=2):
    if m["mean"] is None:
        return "-"
    if m["lo"] is None:
        return f"{m['mean']:.{digits}f}"
    return f"{m['mean']:.{digits}f} [{m['lo']:.{digits}f}, {m['hi']:.{digits}f}]"


def markdown(players, seats):
    places = ["1st", "2nd", "3rd", "4th"][:seats]
    rows = [
        f"| player | hanchan | {' | '.join(places)} | avg rank | points / hanchan |",
        "|---|" + "---:|" * (seats + 3),
    ]
    for name, f in players.items():
        p = f["placement"]
        cells = " | ".join(fmt_rate(p[str(k)]) for k in range(1, seats + 1))
        rows.append(
            f"| {name} | {f['hanchan']} | {cells} | {fmt_mean(f['avg_rank'])} | {fmt_mean(f['points'], 0)} |"
        )
    kita = seats == 3  # norths set aside per kyoku, at three players
    rows += [
        "",
        "| player | kyoku | win | deal-in | riichi | call |" + (" kita / kyoku |" if kita else "") + " illegal | ms / answer |",
        "|---|---:|---:|---:|---:|---:|" + ("---:|" if kita else "") + "---:|---:|",
    ]
    for name, f in players.items():
        pr = f.get("protocol")
        illegal = "-" if pr is None else str(pr["illegal"])
        ms = "-" if pr is None or pr["mean_answer_ms"] is None else f"{pr['mean_answer_ms']:.1f}"
        k = f" {f['kita_per_kyoku']:.2f} |" if kita and f["kita_per_kyoku"] is not None else (" - |" if kita else "")
        rows.append(
            f"| {name} | {f['kyoku']} | {fmt_rate(f['win'])} | {fmt_rate(f['deal_in'])} | "
            f"{fmt_rate(f['riichi'])} | {fmt_rate(f['call'])} |{k} {illegal} | {ms} |"
        )
    return "\n".join(rows)


# -- the games -------------------------------------------------------------------------------


def rule_summary(rule):
    flags = {k: getattr(rule, k) for k in sorted(dir(rule)) if not k.startswith("_") and not callable(getattr(rule, k))}
    return {
        "game_mode": TABLE["game_mode"],
        "rule": "GameRule.default_tenhou()",
        "flags": flags,
        "start_score": TABLE["start_score"],
        "notes": TABLE["notes"],
    }


class Progress:
    def __init__(self, total):
        self.total, self.t0, self.last = total, time.monotonic(), 0.0
        self.tty = sys.stderr.isatty()  # else one line every 15 s, not a rewritten one

    def show(self, done, extra, force=False):
        now = time.monotonic()
        if not force and now - self.last < (1.0 if self.tty else 15.0):
            return
        self.last = now
        spent = now - self.t0
        eta = spent / done * (self.total - done) if done else float("nan")
        eta_s = "?" if math.isnan(eta) else f"{eta:.0f} s"
        line = f"{int(done)}/{self.total} games, {spent:.0f} s, ETA {eta_s}, {extra}"
        sys.stderr.write(f"\r{line}   " if self.tty else line + "\n")
        sys.stderr.flush()


#: The seat name of kobalab's own player, @kobalab/majiang-ai 1.0.13 behind haifu bot's protocol
#: (scripts/majiang_mjai.sh): the outside referee of strength. Always a subprocess.
MAJIANG_AI = "majiang-ai"


def make_transport(args, seat, name, tally, module):
    if name == MAJIANG_AI:
        argv = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "majiang_mjai.sh"), "--seat", str(seat)]
        return ProcessTransport(argv, f"{name}@{seat}", tally, args.bot_stderr)
    if args.via == "package":
        return PackageTransport(module, seat, name)
    argv = [args.haifu, "bot", "--seat", str(seat), "--player", name]
    return ProcessTransport(argv, f"{name}@{seat}", tally, args.bot_stderr)


def play_game(g, args, lineup, tallies, module, progress, done_before, totals):
    n = len(lineup)
    game_seed = derived_seed("riichienv-arena", args.seed, g // n if args.duplicate else g)
    names = [lineup[(s - g) % n] for s in range(n)]
    seats = []
    for s, name in enumerate(names):
        if name == "random":
            seats.append(RandomSeat(s, name, derived_seed("random-agent", args.seed, g, s)))
        else:
            t = make_transport(args, s, name, tallies[name], module)
            seats.append(MjaiSeat(s, name, names, t, tallies[name], args))
    env = RiichiEnv(game_mode=TABLE["game_mode"], rule=GameRule.default_tenhou(), seed=game_seed)
    try:
        obs = env.reset()
        steps = 0
        while not env.done():
            obs = env.step({p: seats[p].act(o) for p, o in obs.items()})
            steps += 1
            if steps % 50 == 0:
                frac = min(0.95, steps / 1100)
                progress.show(done_before + frac, totals())
        log = env.mjai_log
        for seat in seats:
            seat.finish(log)
    finally:
        for seat in seats:
            seat.close()
    scores, ranks = env.scores(), env.ranks()
    records = []
    flags = kyoku_flags(log)
    for s in range(n):
        records.append({
            "player": names[s], "seat": s, "rank": ranks[s], "score": scores[s], "kyoku": len(flags),
            "won": sum(k[s][0] for k in flags), "dealt_in": sum(k[s][1] for k in flags),
            "riichi": sum(k[s][2] for k in flags), "called": sum(k[s][3] for k in flags),
            "kita": sum(k[s][4] for k in flags),
        })
    if args.logs:
        out = []
        for e in log:
            if e["type"] == "start_game":
                e = dict(e, names=names)
            out.append(json.dumps(e, separators=(",", ":"), ensure_ascii=False))
        path = os.path.join(args.logs, f"arena-{args.seed}-{g:04d}.json.gz")
        tmp = path + ".tmp"
        with open(tmp, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as f:
            f.write(("\n".join(out) + "\n").encode())
        os.replace(tmp, path)
    return {"game": g, "seed": game_seed, "names": names, "scores": scores, "ranks": ranks, "kyoku": len(flags)}, records


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, required=True, help="hanchan to play")
    ap.add_argument("--players", required=True,
                    help="four seats (or three: RiichiEnv's 3-player mode): random, majiang-ai (kobalab's own "
                    "player, four seats only) or haifu player names, comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="write the figures as JSON here")
    ap.add_argument("--logs", help="write each game's full mjai log (gzipped) into this folder")
    ap.add_argument("--haifu", default=os.environ.get("HAIFU", os.path.join(here, "..", "target", "release", "haifu")))
    ap.add_argument("--via", choices=("cli", "package"), default="cli",
                    help="haifu seats: `HAIFU bot` subprocesses (cli) or haifu.Bot of the Python package")
    ap.add_argument("--feed", choices=("array", "events"), default="array",
                    help="one JSON array per decision (default) or one event per line")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds allowed per answer")
    ap.add_argument("--startup-timeout", type=float, default=60.0, help="seconds allowed for a process's first answer")
    ap.add_argument("--duplicate", action="store_true", help="the 4 rotations of the line-up play the same walls")
    ap.add_argument("--bot-stderr", action="store_true", help="echo the haifu processes' stderr")
    args = ap.parse_args()

    global TABLE
    lineup = [p.strip() for p in args.players.split(",")]
    if len(lineup) not in TABLES or not all(lineup):
        ap.error("--players needs four comma-separated names (or three for the 3-player mode)")
    TABLE = TABLES[len(lineup)]
    seats = len(lineup)
    if seats == 3:
        four_only = sorted(set(lineup) & set(FOUR_PLAYER_ONLY + (MAJIANG_AI,)))
        if four_only:
            ap.error(f"{', '.join(four_only)}: four-player only (docs/bot.md); at three players seat "
                     "linear, ukeire, yaku, yaku-seed, boten or random")
    if args.games < 1:
        ap.error("--games must be at least 1")
    bots = sorted(set(p for p in lineup if p != "random"))
    haifu_bots = [b for b in bots if b != MAJIANG_AI]
    module = None
    if MAJIANG_AI in bots:
        # install the npm packages once, before the first game's clock runs
        r = subprocess.run([os.path.join(here, "majiang_mjai.sh"), "--install"], capture_output=True, text=True)
        if r.returncode != 0:
            print(f"{MAJIANG_AI}: scripts/majiang_mjai.sh --install failed: {r.stderr.strip()}", file=sys.stderr)
            return 2
    if haifu_bots and args.via == "package":
        try:
            import haifu as module  # noqa: PLC0415
        except ImportError as e:
            print(f"--via package: cannot import haifu ({e})", file=sys.stderr)
            return 2
        if not hasattr(module, "Bot"):
            print("--via package: this haifu package has no haifu.Bot", file=sys.stderr)
            return 2
    if haifu_bots and args.via == "cli":
        args.haifu = os.path.abspath(args.haifu)
        if not os.access(args.haifu, os.X_OK):
            print(f"no haifu executable at {args.haifu} (build it, or pass --haifu PATH)", file=sys.stderr)
            return 2
    if args.logs:
        os.makedirs(args.logs, exist_ok=True)

    tallies = {p: Tally() for p in bots}
    records, games = [], []

    def totals():
        c = Counter()
        for t in tallies.values():
            c.update(t.c)
        return f"illegal {c['illegal_responses']}, timeouts {c['timeouts']}, dead {c['dead']}"

    progress = Progress(args.games)
    for g in range(args.games):
        game, recs = play_game(g, args, lineup, tallies, module, progress, g, totals)
        games.append(game)
        records.extend(recs)
        progress.show(g + 1, totals(), force=g + 1 == args.games)
    if progress.tty:
        sys.stderr.write("\n")

    order = list(dict.fromkeys(lineup))
    players = {p: figures([r for r in records if r["player"] == p], tallies.get(p), seats) for p in order}
    c = Counter()
    for t in tallies.values():
        c.update(t.c)
    illegal = c["illegal_responses"] + c["timeouts"] + c["dead"]
    version = importlib.metadata.version("riichienv")

    print(f"{len(games)} hanchan in riichienv {version} ({TABLE['game_mode']}, GameRule.default_tenhou()), "
          f"players {','.join(lineup)} rotated by game, seed {args.seed}{', duplicate walls' if args.duplicate else ''}")
    print(f"haifu answers: {c['decisions']} decisions, illegal {illegal} (no legal match {c['illegal_responses']}, "
          f"timeouts {c['timeouts']}, dead process {c['dead']}); spurious {c['spurious']}, "
          f"tsumogiri flag wrong {c['tsumogiri_flag_wrong']}, view mismatches {c['view_mismatch']}")
    print()
    print(markdown(players, seats))
    for p, t in tallies.items():
        for line in t.notes[:8]:
            print(f"  {p}: {line}")

    if args.json:
        report = {
            "games": len(games),
            "illegal": illegal,
            "timeouts": c["timeouts"],
            "illegal_responses": c["illegal_responses"],
            "dead": c["dead"],
            "decisions": c["decisions"],
            "players": players,
            "lineup": lineup,
            "rules": rule_summary(GameRule.default_tenhou()),
            "engine": f"riichienv {version}",
            "seed": args.seed,
            "duplicate": args.duplicate,
            "via": args.via if bots else None,
            "feed": args.feed,
            "timeout": args.timeout,
            "game_results": games,
        }
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
            f.write("\n")
    return 1 if illegal else 0


if __name__ == "__main__":
    sys.exit(main())
