"""Markdown table of fits side by side, from haifu weights files and the NAME.cost.json beside
each (see scripts/losses.sh) and the NAME.houou.json `haifu eval` wrote for it (top-1 on every
held-out houou human discard); a file without its cost or houou figure (e.g. the non-linear ceiling
of scripts/ceiling.py) shows blanks there.

The tuned hinge is the per-decision hinge fit other than margin 1 with the best validation top-1;
the other hinge margins are listed below the table.

    loss_table.py [--into FILE] FIT.json...

With --into, the table replaces what stands between FILE's two marker lines (BEGIN, END) and the
rest of FILE, written by hand, is kept (`make losses` writes reports/losses/losses.md so); without,
it goes to standard output.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from marked import splice, write_atomically  # noqa: E402

BEGIN = "<!-- the table below is written by make losses (scripts/loss_table.py) -->"
END = "<!-- end of the table make losses writes -->"

LABELS = {
    "softmax": "softmax (listwise)",
    "logistic": "pairwise logistic, raw pair sum",
    "logistic_pd": "pairwise logistic, per-decision (1/(n-1))",
    "seed": "seed's loss: hinge margin 0, raw sum, shanten pinned",
    "hinge_m1": "pairwise hinge margin 1, per-decision",
    "lambdarank": "pairwise logistic, ranked pairs (LambdaRank-style, --pairs ranked)",
    "ceiling": "ceiling: LightGBM lambdarank (non-linear)",
}


def row(name, w):
    t = w["metrics"]["test"]
    c = w.get("cost", {})
    h = w.get("houou")
    houou = "" if h is None else f"{100 * h['top1']:.2f}%"
    rss = c.get("peak_rss_mib")
    wall = c.get("wall_seconds")
    return (
        f"| {name} | {w['decisions']['train']:,} | {100 * t['top1']:.2f}% | {100 * t['top3']:.2f}% | {houou} "
        f"| {t['mean_rank']:.3f} | {w.get('iterations', '')} | {c.get('passes', '')} "
        f"| {'' if wall is None else f'{wall:.0f} s'} | {'' if rss is None else f'{rss:,.0f} MiB'} |"
    )


def into(path, table):
    """`table` between the markers of the file at `path` (or at its top, markers added), the rest
    kept; written atomically."""
    text = open(path).read() if os.path.exists(path) else ""
    spliced = splice(text, BEGIN, END, table)
    if spliced is None:
        spliced = f"{BEGIN}\n{table.rstrip()}\n{END}\n\n{text}"
    write_atomically(path, spliced)


args = sys.argv[1:]
target = None
if args[:1] == ["--into"]:
    target, args = args[1], args[2:]
fits = {}
for path in args:
    if path.endswith(".cost.json") or path.endswith(".houou.json"):
        continue
    with open(path) as f:
        w = json.load(f)
    cost = path.removesuffix(".json") + ".cost.json"
    if os.path.exists(cost):
        with open(cost) as f:
            w["cost"] = json.load(f)
    houou = path.removesuffix(".json") + ".houou.json"
    if os.path.exists(houou):
        with open(houou) as f:
            w["houou"] = json.load(f)["evaluators"]["linear"]
    fits[path.rsplit("/", 1)[-1].removesuffix(".json")] = w
hinges = {
    k: w
    for k, w in fits.items()
    if w.get("loss", {}).get("loss") == "hinge" and w["loss"]["margin"] != 1.0
}
tuned = max(hinges, key=lambda k: hinges[k]["metrics"]["validation"]["top1"]) if hinges else None
lines = [
    "| loss | train decisions | test top-1 | test top-3 | houou top-1 | mean rank | iterations | passes | wall | peak RSS |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
]
order = ["softmax", "logistic", "logistic_pd", "lambdarank", "seed", "hinge_m1"] + ([tuned] if tuned else []) + ["ceiling"]
for k in order:
    if k in fits:
        w = fits[k]
        label = LABELS[k] if k in LABELS else f"pairwise hinge margin {w['loss']['margin']} (tuned), per-decision"
        lines.append(row(label, w))
if len(hinges) > 1:
    lines.append("")
    lines.append("Hinge margins tried for the tuned row (validation top-1): " + ", ".join(
        f"{w['loss']['margin']}: {100 * w['metrics']['validation']['top1']:.2f}%" for w in hinges.values()))
table = "\n".join(lines) + "\n"
if target:
    into(target, table)
else:
    sys.stdout.write(table)
