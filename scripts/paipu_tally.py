#!/usr/bin/env python3
"""Independent tally of 電脳麻将 paipu files (majiang-core's record format, docs/paipu.md).

    scripts/paipu_tally.py DIR_OR_FILE... [--json] [--check]

For every `*.json` paipu (a folder is read in name order): the number of rounds (entries of
`log`), of `hule` events (a double ron counts 2) and of `pingju` events, and the final `defen`,
`point` and `rank` as the file has them (indexed by player id, the order of `player`).
The text form is a table and a total line; `--json` prints one JSON object per file instead:
    {"file", "rounds", "hule", "pingju", "pingju_names": {name: n}, "defen", "point", "rank"}
This is the count haifu's reader of the format is compared with.

`--check` also replays every game with nothing but the file: each round's `qipai.defen` must
equal the scores carried from the rounds before (hule/pingju `fenpei`, 1000 per riichi that
stood), the final `defen` must be those plus the leftover riichi sticks to the top player, and
`rank` and `point` must be what majiang-core's Game#jieju makes of them on its default rules
(順位点 20.0/10.0/-10.0/-20.0, 返し 30000, point to 0.1 without rounding). Problems are printed
to stderr (and added as "problems" in --json), and the exit status is 1 if there are any.
Python 3 standard library only.
"""
import json
import os
import signal
import sys

START = 25000          # 配給原点
RETURN = 30000         # the 30000 of Game#jieju: (defen - 30000) / 1000
UMA = ["20.0", "10.0", "-10.0", "-20.0"]  # 順位点 as Majiang.rule() spells it


def files_of(args):
    out = []
    for a in args:
        if os.path.isdir(a):
            out.extend(os.path.join(a, n) for n in sorted(os.listdir(a))
                       if n.endswith(".json") and not n.startswith("."))
        else:
            out.append(a)
    return out


def tenths(s):
    """'-10.0' -> -100: a 順位点 string in tenths of a point."""
    neg = s.startswith("-")
    whole, _, frac = s.lstrip("+-").partition(".")
    v = int(whole or "0") * 10 + (int(frac[:1]) if frac else 0)
    return -v if neg else v


def fmt_tenths(v):
    """Tenths of a point as JS's Number#toFixed(1) writes them."""
    sign = "-" if v < 0 else ""
    return "%s%d.%d" % (sign, abs(v) // 10, abs(v) % 10)


def jieju(defen, qijia, lizhibang):
    """majiang-core Game#jieju: (final defen, rank, point) from the scores before it."""
    defen = list(defen)
    paiming = []
    for i in range(4):
        pid = (qijia + i) % 4
        for j in range(len(paiming) + 1):
            if j == len(paiming) or defen[pid] > defen[paiming[j]]:
                paiming.insert(j, pid)
                break
    defen[paiming[0]] += lizhibang * 1000
    rank = [0] * 4
    for i, pid in enumerate(paiming):
        rank[pid] = i + 1
    # Default 順位点 all end in '.0', so majiang-core does not round: point in tenths, exactly.
    assert all("." in u for u in UMA)
    point = [0] * 4
    for i in range(1, 4):
        pid = paiming[i]
        point[pid] = (defen[pid] - RETURN) // 100 + tenths(UMA[i])
        point[paiming[0]] -= point[pid]
    return defen, rank, [fmt_tenths(p) for p in point]


def replay(paipu):
    """Problems found replaying one game's scores (empty list: consistent)."""
    problems = []
    qijia = paipu["qijia"]
    defen = [START] * 4       # by player id
    lizhibang = 0
    for r, rnd in enumerate(paipu["log"]):
        q = rnd[0].get("qipai") if rnd else None
        if q is None:
            problems.append("round %d: does not start with qipai" % r)
            continue
        pid = [(qijia + q["jushu"] + l) % 4 for l in range(4)]
        want = [defen[pid[l]] for l in range(4)]
        if q["defen"] != want:
            problems.append("round %d: qipai.defen %s, replay %s" % (r, q["defen"], want))
            defen = [0] * 4
            for l in range(4):
                defen[pid[l]] = q["defen"][l]
        if q["lizhibang"] != lizhibang:
            problems.append("round %d: qipai.lizhibang %d, replay %d" % (r, q["lizhibang"], lizhibang))
            lizhibang = q["lizhibang"]
        for k, ev in enumerate(rnd):
            if "dapai" in ev and ev["dapai"]["p"].endswith("*"):
                # The riichi stands (1000 to the table) unless the declaring tile is ronned.
                nxt = next((e for e in rnd[k + 1:] if "kaigang" not in e), {})
                ronned = "hule" in nxt or nxt.get("pingju", {}).get("name") == "三家和"
                if not ronned:
                    defen[pid[ev["dapai"]["l"]]] -= 1000
                    lizhibang += 1
            elif "hule" in ev or "pingju" in ev:
                fenpei = (ev.get("hule") or ev.get("pingju"))["fenpei"]
                for l in range(4):
                    defen[pid[l]] += fenpei[l]
                if "hule" in ev:
                    lizhibang = 0   # the first winner took the sticks (in its fenpei)
    if sum(defen) + lizhibang * 1000 != START * 4:
        problems.append("scores %s + %d sticks do not add up to %d" % (defen, lizhibang, START * 4))
    fin, rank, point = jieju(defen, qijia, lizhibang)
    if paipu["defen"] != fin:
        problems.append("final defen %s, replay %s" % (paipu["defen"], fin))
    if paipu["rank"] != rank:
        problems.append("rank %s, replay %s" % (paipu["rank"], rank))
    if paipu["point"] != point:
        problems.append("point %s, replay %s" % (paipu["point"], point))
    return problems


def tally(path, check):
    with open(path, encoding="utf-8") as f:
        paipu = json.load(f)
    row = {"file": os.path.basename(path), "rounds": len(paipu["log"]), "hule": 0, "pingju": 0,
           "pingju_names": {}}
    for rnd in paipu["log"]:
        for ev in rnd:
            if "hule" in ev:
                row["hule"] += 1
            elif "pingju" in ev:
                row["pingju"] += 1
                name = ev["pingju"]["name"]
                row["pingju_names"][name] = row["pingju_names"].get(name, 0) + 1
    row["defen"] = paipu["defen"]
    row["point"] = paipu["point"]
    row["rank"] = paipu["rank"]
    if check:
        row["problems"] = replay(paipu)
    return row


def main(argv):
    as_json = "--json" in argv
    check = "--check" in argv
    paths = [a for a in argv if a not in ("--json", "--check")]
    if not paths or any(a.startswith("-") for a in paths):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    files = files_of(paths)
    total = {"games": 0, "rounds": 0, "hule": 0, "pingju": 0, "problems": 0}
    names = {}
    if not as_json:
        print("%-26s %6s %5s %6s  %-30s %-28s %s" % ("file", "rounds", "hule", "pingju",
                                                    "defen", "point", "rank"))
    for path in files:
        row = tally(path, check)
        total["games"] += 1
        for k in ("rounds", "hule", "pingju"):
            total[k] += row[k]
        for n, c in row["pingju_names"].items():
            names[n] = names.get(n, 0) + c
        for p in row.get("problems", []):
            print("%s: %s" % (row["file"], p), file=sys.stderr)
            total["problems"] += 1
        if as_json:
            print(json.dumps(row, ensure_ascii=False))
        else:
            print("%-26s %6d %5d %6d  %-30s %-28s %s" % (
                row["file"], row["rounds"], row["hule"], row["pingju"],
                ",".join(map(str, row["defen"])), ",".join(row["point"]),
                ",".join(map(str, row["rank"]))))
    if not as_json:
        print("total: %d games, %d rounds, %d hule, %d pingju (%s)%s" % (
            total["games"], total["rounds"], total["hule"], total["pingju"],
            ", ".join("%s %d" % kv for kv in sorted(names.items())),
            ", %d problems" % total["problems"] if check else ""))
    return 1 if total["problems"] else 0


if __name__ == "__main__":
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under `| head`
    sys.exit(main(sys.argv[1:]))
