#!/usr/bin/env python3
"""The cross-engine table (reports/arena/README.md): the same line-ups played in RiichiEnv 0.4.11
(scripts/riichienv_arena.sh, haifu players through `haifu bot`) and in haifu's own engine
(`haifu simulate --duplicate`), side by side with 95% intervals.

    scripts/arena_table.py [--games N] [--seed S] [--lineups NAME,..] [--out DIR] [--report FILE]

For each line-up: the arena's JSON and logs in DIR/NAME/ (the logs re-scored by `haifu check`),
`haifu simulate`'s summary in DIR/NAME/sim/. A line-up already played (its JSON exists) is read
back, not played again, so an interrupted run resumes. `random` is RiichiEnv's RandomAgent in the
arena and haifu's `random` player in simulate: both take a uniformly random legal action.

Rates are per round (kyoku) of the player: win, deal-in, riichi, a call (chi / pon / open kan).
Intervals: Wilson for rates, t for the average rank, as both engines compute them; rounds of one
game are counted as independent.
"""

import argparse
import csv
import json
import math
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LINEUPS = {
    "0402-vs-0400": "majiang-0402,majiang-0400,majiang-0400,majiang-0400",
    "linear-vs-ev": "linear,ev,ev,ev",
}
for p in ["majiang-0400", "majiang-0401", "majiang-0402", "ev", "linear", "ukeire", "yaku", "boten"]:
    LINEUPS[f"{p}-vs-random"] = f"{p},random,random,random"


def run(cmd, **kw):
    print("$ " + " ".join(map(str, cmd)), file=sys.stderr, flush=True)
    return subprocess.run(list(map(str, cmd)), check=False, **kw)


def wilson(k, n):
    if n == 0:
        return (float("nan"),) * 3
    z, p = 1.96, k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, max(0.0, c - h), min(1.0, c + h)


def sim_rows(summary_csv):
    """simulate's summary.csv, one row per seat label ("1:ev"), summed per player."""
    out = {}
    with open(summary_csv) as f:
        for row in csv.DictReader(f):
            name = row["bot"].split(":", 1)[-1]
            games, rounds = int(row["games"]), int(row["rounds"])
            o = out.setdefault(name, {"hanchan": 0, "kyoku": 0, "rank_sum": 0.0, "first": 0.0, "fourth": 0.0,
                                      "win": 0.0, "deal_in": 0.0, "riichi": 0.0, "call": 0.0})
            o["hanchan"] += games
            o["kyoku"] += rounds
            o["rank_sum"] += float(row["avg_placement"]) * games
            o["first"] += float(row["first"]) * games
            o["fourth"] += float(row["fourth"]) * games
            for k in ("win", "deal_in", "riichi", "call"):
                o[k] += float(row[k]) * rounds
    return out


def fmt_rate(k, n):
    p, lo, hi = wilson(round(k), n)
    return f"{100 * p:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def arena_cells(p):
    rate = lambda key: f"{100 * p[key]['rate']:.1f} [{100 * p[key]['lo']:.1f}, {100 * p[key]['hi']:.1f}]"
    r = p["avg_rank"]
    return [str(p["hanchan"]), str(p["kyoku"]), f"{r['mean']:.2f} [{r['lo']:.2f}, {r['hi']:.2f}]",
            rate("win"), rate("deal_in"), rate("riichi"), rate("call")]


def sim_cells(o):
    n, k = o["hanchan"], o["kyoku"]
    avg = o["rank_sum"] / n
    return [str(n), str(k), f"{avg:.2f}", fmt_rate(o["win"], k), fmt_rate(o["deal_in"], k),
            fmt_rate(o["riichi"], k), fmt_rate(o["call"], k)]


def play(name, players, games, seed, out):
    d = out / name
    d.mkdir(parents=True, exist_ok=True)
    arena_json = d / "arena.json"
    if not arena_json.exists():
        r = run([REPO / "scripts/riichienv_arena.sh", "--games", games, "--players", players, "--seed", seed,
                 "--json", arena_json.with_suffix(".part"), "--logs", d / "logs"])
        part = arena_json.with_suffix(".part")
        if not part.exists():
            sys.exit(f"{name}: the arena wrote no JSON (exit {r.returncode})")
        part.rename(arena_json)
    sim = d / "sim"
    if not (sim / "summary.csv").exists():
        sim_games = (games + 3) // 4 * 4
        run([REPO / "target/release/haifu", "simulate", "--games", sim_games, "--bots", players, "--duplicate",
             "--seed", seed, "--out", sim], stdout=subprocess.DEVNULL)
    check = run([REPO / "target/release/haifu", "check", d / "logs", "--json"], capture_output=True, text=True)
    summary = json.loads(check.stdout) if check.stdout.strip().startswith("{") else {}
    return json.loads(arena_json.read_text()), sim_rows(sim / "summary.csv"), summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="hanchan per line-up and engine")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lineups", default=",".join(LINEUPS), help="comma-separated names: " + ", ".join(LINEUPS))
    ap.add_argument("--out", type=Path, default=REPO / "out/arena")
    ap.add_argument("--report", type=Path, help="write the markdown here (default: print it)")
    a = ap.parse_args()
    head = "| line-up | player | engine | hanchan | rounds | avg rank | win % | deal-in % | riichi % | call % |"
    lines = [head, "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    notes = []
    for name in a.lineups.split(","):
        arena, sim, check = play(name, LINEUPS[name], a.games, a.seed, a.out)
        notes.append(f"- `{name}`: arena {arena['games']} hanchan, {arena['decisions']} haifu answers, "
                     f"**{arena['illegal']} illegal** (timeouts {arena['timeouts']}); `haifu check` on its logs: "
                     f"{check.get('games', '?')} games, {check.get('agari', '?')} wins, "
                     f"{check.get('agari_mismatches', '?')} mismatches, {len(check.get('errors', []))} errors, "
                     f"{check.get('partial_games', '?')} partial")
        for player in dict.fromkeys(LINEUPS[name].split(",")):
            if player in arena["players"]:
                lines.append(f"| {name} | {player} | RiichiEnv | " + " | ".join(arena_cells(arena["players"][player])) + " |")
            if player in sim:
                lines.append(f"| {name} | {player} | haifu | " + " | ".join(sim_cells(sim[player])) + " |")
    text = "\n".join(lines) + "\n\n" + "\n".join(notes) + "\n"
    if a.report:
        a.report.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
