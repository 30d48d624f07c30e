"""Replays mjai files (haifu convert's output) through RiichiEnv 0.4.11 as an outside referee.

For every game: MjaiReplay.from_jsonl must accept it, every kyoku's steps() must run to the end
(RiichiEnv checks each action against its own rules), each seat's non-pass actions must equal the
seat's own actions in the log (dahai, calls, kans, reach, hora), and every win RiichiEnv scores
(take_win_result_contexts) must pay what the log's deltas say (base points: the payers' total
minus honba, before riichi sticks). RiichiEnv 0.4.11's win contexts from an mjai replay flag
every win as haitei or houtei (its wall count is not kept: left_tile_count is not 0 where the
flag is set), so the points are counted twice: as its context has them, and re-scored with its
HandEvaluator after setting haitei / houtei from the log's own draws (70 wall draws). Prints
counts and the first disagreements; exit 1 when any game was refused.

3-player games (three-entry `scores` in start_kyoku, RiichiEnv 0.4.11's own layout, with `kita`
for a north set aside) replay the same way: RiichiEnv tells them by the scores' length and steps
them with Observation3P / Action3P, a `kita` being a step of its seat. Their win contexts state
`is_sanma` False and 4 players (RiichiEnv 0.4.11), so the points are re-scored with
HandEvaluator3P, `is_sanma` and 3 players set, haitei / houtei from 55 wall draws, the payments
with tsumo loss: a dealer tsumo is paid by two seats, a non-dealer's by the dealer and one other.

Usage: python riichienv_check.py DIR [LIMIT]
"""

import collections
import gzip
import json
import os
import sys
import tempfile

from riichienv import Conditions, HandEvaluator, HandEvaluator3P, MjaiReplay

ACTIONS = {"dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "reach", "hora", "kita"}

# Draws from the live wall in a round (replacement draws after a kan or a kita included), by seats.
LIVE_WALL = {4: 70, 3: 55}


def players_of(start):
    """Seats at the table: the length of start_kyoku's scores (RiichiEnv reads it the same way)."""
    return len(start["scores"])


def rounds_of(events):
    """The events of each kyoku, start_kyoku to end_kyoku."""
    out, cur = [], None
    for e in events:
        if e["type"] == "start_kyoku":
            cur = [e]
        elif cur is not None:
            cur.append(e)
            if e["type"] == "end_kyoku":
                out.append(cur)
                cur = None
    return out


def record_points(start, hora, first):
    """Base points the record pays the winner: the payers' total minus honba (first winner): 100
    a honba from each other seat (300 at four players; 200 at three, a ron's loser paying both)."""
    paid = -sum(d for s, d in enumerate(hora["deltas"]) if s != hora["actor"] and d < 0)
    return paid - (100 * (players_of(start) - 1) * start["honba"] if first else 0)


def engine_points(actual, winner, oya, tsumo, players):
    """What RiichiEnv's result pays the winner, before honba: at three players a tsumo is paid by
    the two other seats only (tsumo loss)."""
    if not tsumo:
        return actual.ron_agari
    if winner == oya:
        return (players - 1) * actual.tsumo_agari_ko
    return actual.tsumo_agari_oya + (players - 2) * actual.tsumo_agari_ko


def last_tile(rnd, hora):
    """Whether the win is on the last tile of the wall (haitei / houtei), from the log's draws:
    70 wall draws (55 at three players; replacement draws after a kan or a kita included) empty
    the live wall. A replacement draw is no haitei, a robbed kan or north no houtei."""
    before = rnd[: rnd.index(hora)]
    draws = sum(1 for e in before if e["type"] == "tsumo")
    kinds = [e["type"] for e in before if e["type"] not in ("dora", "reach_accepted")]
    tsumo = hora["actor"] == hora["target"]
    robbed = not tsumo and kinds and kinds[-1] in ("kakan", "kita")
    return draws == LIVE_WALL[players_of(rnd[0])] and not replacement_draw(rnd, hora) and not robbed


def replacement_draw(rnd, hora, after=("ankan", "kakan", "daiminkan", "kita")):
    """Whether a tsumo win is on the replacement draw after one of `after`, from the log."""
    kinds = [e["type"] for e in rnd[: rnd.index(hora)] if e["type"] not in ("dora", "reach_accepted")]
    tsumo = hora["actor"] == hora["target"]
    return tsumo and len(kinds) >= 2 and kinds[-2] in after


def rescored(ctx, rnd, hora):
    """RiichiEnv's HandEvaluator (HandEvaluator3P at three players) on the context's hand, with
    haitei / houtei from the log and, at three players, the sanma conditions."""
    c = ctx.conditions
    kw = {x: getattr(c, x) for x in dir(c) if not x.startswith("_") and not callable(getattr(c, x))}
    last = last_tile(rnd, hora)
    kw["haitei"] = last and kw["tsumo"]
    kw["houtei"] = last and not kw["tsumo"]
    evaluator = HandEvaluator
    if players_of(rnd[0]) == 3:
        kw["is_sanma"], kw["num_players"] = True, 3
        # The replacement draw after a kita is a rinshan draw (Tenhou's 嶺上開花, docs/sanma.md);
        # RiichiEnv 0.4.11's context does not mark it.
        kw["rinshan"] = kw["rinshan"] or replacement_draw(rnd, hora, ("kita",))
        evaluator = HandEvaluator3P
    return evaluator(ctx.tiles, ctx.melds).calc(
        ctx.agari_tile, ctx.dora_indicators, Conditions(**kw), ctx.ura_indicators
    )


def check_game(path, tally, notes):
    with gzip.open(path, "rt") as f:
        text = f.read()
    events = [json.loads(line) for line in text.splitlines() if line.strip()]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as tmp:
        tmp.write(text)
    try:
        kyokus = list(MjaiReplay.from_jsonl(tmp.name).take_kyokus())
    finally:
        os.unlink(tmp.name)
    rounds = rounds_of(events)
    if len(kyokus) != len(rounds):
        raise ValueError(f"{len(kyokus)} kyokus replayed, {len(rounds)} in the log")
    tally[f"games_{players_of(rounds[0][0])}p" if rounds else "games_empty"] += 1
    for ri, (k, rnd) in enumerate(zip(kyokus, rounds)):
        steps = collections.Counter(s for s, _, a in k.steps() if "Pass" not in str(a))
        # A double ron is one step in RiichiEnv (the first winner's): later hora are not counted.
        first_hora = next((i for i, e in enumerate(rnd) if e["type"] == "hora"), len(rnd))
        ours = collections.Counter(
            e["actor"] for i, e in enumerate(rnd) if e["type"] in ACTIONS and (e["type"] != "hora" or i == first_hora)
        )
        tally["decisions"] += sum(ours.values())
        if steps != ours:
            tally["decision_count_differs"] += 1
            notes.append(f"{path}: kyoku {ri}: steps per seat {dict(steps)}, log {dict(ours)}")
        horas = [e for e in rnd if e["type"] == "hora"]
        for i, (ctx, hora) in enumerate(zip(k.take_win_result_contexts(), horas)):
            tally["wins"] += 1
            tsumo = hora["actor"] == hora["target"]
            want = record_points(rnd[0], hora, i == 0)
            players = players_of(rnd[0])
            tally[f"wins_{players}p"] += 1
            got = engine_points(ctx.actual, hora["actor"], rnd[0]["oya"], tsumo, players)
            if got != want:
                tally["context_points_differ"] += 1
            fixed = rescored(ctx, rnd, hora)
            got = engine_points(fixed, hora["actor"], rnd[0]["oya"], tsumo, players)
            if got != want:
                tally["points_differ"] += 1
                ankan = any(e["type"] == "ankan" and e["actor"] == hora["actor"] for e in rnd)
                tally["points_differ_winner_ankan"] += ankan
                tally["points_differ_no_win"] += fixed.han == 0
                c = ctx.conditions
                notes.append(
                    f"{path}: kyoku {ri} win {i}: RiichiEnv {got} ({ctx.actual.han} han {ctx.actual.fu} fu,"
                    f" yaku {ctx.actual.yaku}, houtei {c.houtei}, haitei {c.haitei}), record {want}"
                )


def main():
    root = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else None
    files = sorted(
        os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".json.gz")
    )[:limit]
    tally, notes, refused = collections.Counter(), [], []
    for path in files:
        tally["games"] += 1
        try:
            check_game(path, tally, notes)
        except Exception as e:  # RiichiEnv raises its own types; any is a refusal
            refused.append(f"{path}: {type(e).__name__}: {e}")
    seats = ", ".join(f"{tally[f'games_{p}p']} {p}-player" for p in (4, 3) if tally[f"games_{p}p"])
    print(f"games {tally['games']} ({seats}), refused {len(refused)}, decisions {tally['decisions']}, "
          f"kyokus with another decision count {tally['decision_count_differs']}, "
          f"wins {tally['wins']}, wins whose points differ: {tally['context_points_differ']} as RiichiEnv's "
          f"win context has them, {tally['points_differ']} with haitei / houtei from the log's wall "
          f"(of which the winner made a closed kan: {tally['points_differ_winner_ankan']}; "
          f"RiichiEnv finds no win: {tally['points_differ_no_win']})")
    for line in (refused + notes)[:30]:
        print("  " + line)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
