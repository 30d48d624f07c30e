#!/usr/bin/env python3
"""The strength table (reports/arena/strength.md): line-ups of two players on duplicate walls, in
RiichiEnv 0.4.11 (scripts/riichienv_arena.sh, each haifu player through `haifu bot`, majiang-ai
through scripts/majiang_mjai.sh) and in haifu's own engine (`haifu simulate --duplicate`), with
intervals that count a wall set, not a game, as one sample.

    scripts/arena_strength.py play LINEUP [--chunks K] [--games N] [--seed S] [--out DIR] [--haifu PATH]
    scripts/arena_strength.py simulate LINEUP [--games N] [--seed S] [--out DIR] [--haifu PATH]
    scripts/arena_strength.py table [--out DIR] [--report FILE] [--readme reports/arena/README.md]

A line-up is two players, A and B, seated A,B,A,B (`fitted-vs-majiang-ai` seats fitted,
majiang-ai, fitted, majiang-ai). `play` plays K chunks of N hanchan, chunk i on seed S + i with
--duplicate: the four rotations of a line-up play the same walls, so each player sits each seat
once on every wall set. A chunk already played (DIR/LINEUP/chunk-SEED.json) is read back, not
played again: an interrupted or extended run resumes, and more chunks add hanchan.

Per wall set (four games): A's mean rank minus B's, and A's mean points minus B's. The table gives
their means over the wall sets with a t interval over wall sets (95%): the games of a wall set
share their deals and are not independent, a wall set's summary is. An interval that excludes 0
shows a difference. Rates (win, deal-in, riichi, call) are per round of the player, pooled, with
Wilson intervals that count rounds as independent (somewhat too narrow).
"""

import argparse
import glob
import gzip
import json
import math
import re
import subprocess
import sys
import urllib.parse
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from marked import splice, write_atomically  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
LINEUPS = {
    "fitted-vs-majiang-ai": ("fitted", "majiang-ai"),
    "trees-vs-majiang-ai": ("trees", "majiang-ai"),
    "majiang-0402-vs-majiang-ai": ("majiang-0402", "majiang-ai"),
    "fitted-vs-ev": ("fitted", "ev"),
    "fitted-vs-trees": ("fitted", "trees"),
}
# haifu's engine cannot seat majiang-ai (a node process): its self-play line-up seats the port.
SIM_STAND_IN = {"majiang-ai": "majiang-0402"}
START = 25000

T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042]


def t975(df):
    return T975[df - 1] if df <= 30 else 1.959964 + 2.37 / df


def mean_ci(xs):
    n = len(xs)
    if n == 0:
        return None
    m = sum(xs) / n
    if n == 1:
        return (m, None, None, 1)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = t975(n - 1) * sd / math.sqrt(n)
    return (m, m - h, m + h, n)


def wilson(k, n, z=1.959964):
    if n == 0:
        return None
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (p, max(0.0, c - h), min(1.0, c + h))


def run(cmd, **kw):
    print("$ " + " ".join(map(str, cmd)), file=sys.stderr, flush=True)
    return subprocess.run(list(map(str, cmd)), check=False, **kw)


def seats_of(lineup):
    a, b = LINEUPS[lineup]
    return [a, b, a, b]


def play(a):
    d = Path(a.out) / a.lineup
    d.mkdir(parents=True, exist_ok=True)
    for i in range(a.chunks):
        seed = a.seed + i
        done = d / f"chunk-{seed}.json"
        if done.exists():
            continue
        part = done.with_suffix(".part")
        cmd = [REPO / "scripts/riichienv_arena.sh", "--games", a.games, "--players", ",".join(seats_of(a.lineup)),
               "--seed", seed, "--duplicate", "--timeout", a.timeout, "--json", part, "--logs", Path(a.logs) / a.lineup / f"logs-{seed}"]
        if a.haifu:
            cmd += ["--haifu", a.haifu]
        r = run(cmd, stdout=subprocess.DEVNULL)
        if r.returncode != 0 or not part.exists():
            sys.exit(f"{a.lineup} chunk {seed}: the arena failed (exit {r.returncode})")
        part.rename(done)


def simulate(a):
    """`haifu simulate --duplicate` of the line-up (majiang-ai's seats taken by its port), its records
    under --logs, and the games and pooled rates the table reads in --out (sim.json)."""
    d = Path(a.logs) / a.lineup / "sim"
    if not (d / "summary.csv").exists():
        names = [SIM_STAND_IN.get(n, n) for n in seats_of(a.lineup)]
        haifu = a.haifu or REPO / "target/release/haifu"
        r = run([haifu, "simulate", "--games", a.games, "--bots", ",".join(names), "--duplicate", "--seed", a.seed,
                 "--out", d, "--jobs", "1"], stdout=subprocess.DEVNULL)
        if r.returncode != 0:
            sys.exit(f"{a.lineup}: haifu simulate failed (exit {r.returncode})")
    out = Path(a.out) / a.lineup
    out.mkdir(parents=True, exist_ok=True)
    games = [{"wall_set": k, "names": n, "ranks": r, "scores": s} for k, n, r, s in sorted(sim_games(d))]
    rates = sim_rates(d / "summary.csv")
    tmp = out / "sim.json.part"
    tmp.write_text(json.dumps({"seed": a.seed, "games": games, "rates": rates}) + "\n")
    tmp.rename(out / "sim.json")


def arena_games(d):
    """Every game of a line-up's chunks: (wall set, names, ranks, scores), and the pooled tallies."""
    games, rates, protocol = [], defaultdict(lambda: defaultdict(int)), defaultdict(lambda: defaultdict(float))
    for f in sorted(d.glob("chunk-*.json")):
        j = json.loads(f.read_text())
        for g in j["game_results"]:
            games.append(((j["seed"], g["seed"]), g["names"], g["ranks"], g["scores"]))
        for name, p in j["players"].items():
            r = rates[name]
            r["kyoku"] += p["kyoku"]
            for k in ("win", "deal_in", "riichi", "call"):
                r[k] += p[k]["count"]
            pr = p.get("protocol")
            if pr:
                protocol[name]["decisions"] += pr["decisions"]
                protocol[name]["illegal"] += pr["illegal"]
                protocol[name]["seconds"] += (pr["mean_answer_ms"] or 0) * pr["decisions"] / 1000
    return games, rates, protocol


OWARI = re.compile(r'owari="([^"]+)"')
UN = re.compile(r"<UN ([^>]*)>")


def sim_games(d):
    """The games of `haifu simulate --duplicate`: sim-SEED-G.mjlog, wall set G div 4."""
    games = []
    for f in d.glob("sim-*.mjlog*"):
        raw = f.read_bytes()
        text = (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode()
        m = OWARI.findall(text)
        un = UN.search(text)
        if not m or not un:
            continue
        attrs = dict(re.findall(r'(n[0-3])="([^"]*)"', un.group(1)))
        names = [urllib.parse.unquote(attrs.get(f"n{s}", "")) for s in range(4)]
        names = [n.split(":", 1)[-1] for n in names]
        o = m[-1].split(",")
        scores = [int(o[2 * s]) * 100 for s in range(4)]
        order = sorted(range(4), key=lambda s: (-scores[s], s))
        ranks = [order.index(s) + 1 for s in range(4)]
        g = int(f.name.split(".")[0].rsplit("-", 1)[1])
        games.append((g // 4, names, ranks, scores))
    return games


def sim_rates(summary_csv):
    """simulate's summary.csv, one row per seat label ("1:fitted"), as pooled round counts per player."""
    import csv
    rates = defaultdict(lambda: defaultdict(float))
    with open(summary_csv) as f:
        for row in csv.DictReader(f):
            name, rounds = row["bot"].split(":", 1)[-1], int(row["rounds"])
            r = rates[name]
            r["kyoku"] += rounds
            for k in ("win", "deal_in", "riichi", "call"):
                r[k] += float(row[k]) * rounds
    return {n: {k: (round(v) if isinstance(v, float) else v) for k, v in r.items()} for n, r in rates.items()}


def by_wall_set(games, a, b):
    """Per wall set: A's mean rank and points minus B's, and each player's own means."""
    sets = defaultdict(lambda: {a: [], b: []})
    for key, names, ranks, scores in games:
        for s, n in enumerate(names):
            if n in (a, b):
                sets[key][n].append((ranks[s], scores[s] - START))
    rank_diff, pts_diff, own = [], [], {a: ([], []), b: ([], [])}
    for v in sets.values():
        if not v[a] or not v[b]:
            continue
        m = {n: (sum(r for r, _ in v[n]) / len(v[n]), sum(p for _, p in v[n]) / len(v[n])) for n in (a, b)}
        rank_diff.append(m[a][0] - m[b][0])
        pts_diff.append(m[a][1] - m[b][1])
        for n in (a, b):
            own[n][0].append(m[n][0])
            own[n][1].append(m[n][1])
    return rank_diff, pts_diff, own


def fmt(ci, digits=2, sign=False):
    if ci is None:
        return "-"
    m, lo, hi, _ = ci
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    if lo is None:
        return f.format(m)
    return f"{f.format(m)} [{f.format(lo)}, {f.format(hi)}]"


def rate(r, k):
    w = wilson(r[k], r["kyoku"])
    return "-" if w is None else f"{100 * w[0]:.1f} [{100 * w[1]:.1f}, {100 * w[2]:.1f}]"


def verdict(ci, a, b):
    if ci is None or ci[1] is None:
        return "too few wall sets"
    if ci[2] < 0:
        return f"{a} ranks better (interval below 0)"
    if ci[1] > 0:
        return f"{b} ranks better (interval above 0)"
    return "not shown different (interval holds 0)"


def table(a):
    out = Path(a.out)
    lines = [
        "| line-up | engine | hanchan | wall sets | rank A − B | points A − B | verdict |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    players = [
        "| line-up | engine | player | seat-hanchan | avg rank | points / hanchan | rounds | win % | deal-in % | riichi % | call % | answers | illegal | ms / answer |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for lineup, (pa, pb) in LINEUPS.items():
        d = out / lineup
        if d.is_dir() and list(d.glob("chunk-*.json")):
            games, rates, protocol = arena_games(d)
            rd, pd, own = by_wall_set(games, pa, pb)
            rci = mean_ci(rd)
            lines.append(f"| {pa} vs {pb} | RiichiEnv | {len(games)} | {len(rd)} | {fmt(rci, 2, True)} | "
                         f"{fmt(mean_ci(pd), 0, True)} | {verdict(rci, pa, pb)} |")
            for n in (pa, pb):
                r, pr = rates[n], protocol.get(n)
                ms = f"{1000 * pr['seconds'] / pr['decisions']:.1f}" if pr and pr["decisions"] else "-"
                players.append(
                    f"| {pa} vs {pb} | RiichiEnv | {n} | {2 * len(games)} | {fmt(mean_ci(own[n][0]))} | "
                    f"{fmt(mean_ci(own[n][1]), 0, True)} | {r['kyoku']} | {rate(r, 'win')} | {rate(r, 'deal_in')} | "
                    f"{rate(r, 'riichi')} | {rate(r, 'call')} | {int(pr['decisions']) if pr else '-'} | "
                    f"{int(pr['illegal']) if pr else '-'} | {ms} |")
        if (d / "sim.json").exists():
            sa, sb = SIM_STAND_IN.get(pa, pa), SIM_STAND_IN.get(pb, pb)
            sim = json.loads((d / "sim.json").read_text())
            games = [(g["wall_set"], g["names"], g["ranks"], g["scores"]) for g in sim["games"]]
            rd, pd, own = by_wall_set(games, sa, sb)
            rci = mean_ci(rd)
            lines.append(f"| {sa} vs {sb} | haifu | {len(games)} | {len(rd)} | {fmt(rci, 2, True)} | "
                         f"{fmt(mean_ci(pd), 0, True)} | {verdict(rci, sa, sb)} |")
            rates = sim["rates"]
            for n in (sa, sb):
                r = rates[n]
                players.append(f"| {sa} vs {sb} | haifu | {n} | {2 * len(games)} | {fmt(mean_ci(own[n][0]))} | "
                               f"{fmt(mean_ci(own[n][1]), 0, True)} | {r['kyoku']} | {rate(r, 'win')} | "
                               f"{rate(r, 'deal_in')} | {rate(r, 'riichi')} | {rate(r, 'call')} | - | - | - |")
    text = "\n".join(lines) + "\n\n" + "\n".join(players) + "\n"
    if a.report:
        Path(a.report).write_text(text)
    if a.readme:
        put_summary(Path(a.readme), "\n".join(lines) + "\n")
    print(text)


SUMMARY_START = "<!-- the strength summary below is written by scripts/arena_strength.py table --readme -->"
SUMMARY_END = "<!-- end of the strength summary -->"


def put_summary(readme, summary):
    """Replaces the summary between the two markers of `readme`, so that the README's table is the
    one the chunks give and never a hand copy that goes stale."""
    text = splice(readme.read_text(), SUMMARY_START, SUMMARY_END, summary)
    if text is None:
        sys.exit(f"{readme}: the markers {SUMMARY_START!r} and {SUMMARY_END!r} are not there in that order")
    write_atomically(readme, text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("play", "simulate"):
        p = sub.add_parser(name)
        p.add_argument("lineup", choices=list(LINEUPS))
        p.add_argument("--games", type=int, default=100 if name == "play" else 1000,
                       help="hanchan per chunk (play) or in all (simulate); a multiple of 4")
        p.add_argument("--chunks", type=int, default=1, help="chunks to play (play)")
        p.add_argument("--seed", type=int, default=100)
        p.add_argument("--out", default=str(REPO / "reports/arena/strength"),
                       help="the line-ups' chunk JSONs (play) and self-play folders (simulate)")
        p.add_argument("--logs", default=str(REPO / "out/arena-strength"),
                       help="the arena's mjai logs, DIR/LINEUP/logs-SEED (play; haifu check re-scores them)")
        p.add_argument("--haifu", help="the haifu binary (default target/release/haifu)")
        p.add_argument("--timeout", type=float, default=60.0,
                       help="seconds allowed per answer (play; a busy machine slows majiang-ai's node process)")
    t = sub.add_parser("table")
    t.add_argument("--out", default=str(REPO / "reports/arena/strength"))
    t.add_argument("--report", help="also write the markdown here")
    t.add_argument("--readme", help="also put the line-up summary between the strength-summary markers of this "
                   "markdown file (reports/arena/README.md)")
    a = ap.parse_args()
    {"play": play, "simulate": simulate, "table": table}[a.cmd](a)


if __name__ == "__main__":
    main()
