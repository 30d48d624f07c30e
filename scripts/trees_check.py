"""LightGBM as the outside referee of haifu's trees scorer on real option rows (scripts/trees_check.sh).

    trees_check.py prepare DATA MODEL N C OUT  LightGBM's predict and pred_contrib -> OUT/lightgbm.txt
    trees_check.py compare OUT                 OUT/lightgbm.txt against OUT/haifu.txt

DATA is an `haifu ingest` folder. The rows are every option of each decision that has a row among
the first N rows of its first options part and at least two options (training leaves forced
discards out: their margin columns have no second option), with the model's features built as `make trees` builds
them for training (scripts/trees.py: the decision's situation and table columns, then the
context, relative and margin columns derived over the decision's options; a catalog column the
ingest skipped reads 0, as haifu reads it), in float32 as the training cache holds them. haifu
builds its rows on its own path (examples/trees_predict.rs: `TreesRanker`, as `--evaluator trees`
scores). MODEL `-` trains a small lambdarank model first (40 trees of 31 leaves on the first
60,000 of those rows, every feature), written to OUT/model.txt.

Output lines: decision id, option, the prediction, then the contributions (one per feature, then
the bias), in Python's shortest round-trip form; contributions only for the decisions among the
part's first C rows (TreeSHAP costs each tree's leaves times its depth squared a row). `compare` reads haifu's lines (ids, batch score,
row-by-row score, contributions), matches them by decision and option, and fails unless the rows
are the same, every score is within 1e-9 and every contribution within 1e-6.
"""
import os
import sys

import lightgbm as lgb
import numpy as np
import polars as pl

from trees import FAMILIES, SITUATION_SOURCES, load_model, situation_columns, with_derived

NOT_FEATURES = ("decision_id", "option", "chosen", "explain")


def first_part(data, table):
    d = os.path.join(data, table)
    return os.path.join(d, sorted(f for f in os.listdir(d) if f.endswith(".parquet"))[0])


def rows(data, n, c):
    """Every option of the decisions among the first part's first `n` rows, with the derived
    families, sorted by decision and option, and a column `explain`: whether the decision is
    among the first `c` rows."""
    part = pl.read_parquet(first_part(data, "options"))
    ids = part["decision_id"].head(n).unique().to_list()
    part = part.with_columns(pl.col("decision_id").is_in(part["decision_id"].head(c).unique().to_list()).alias("explain"))
    opts = part.filter(pl.col("decision_id").is_in(ids) & (pl.len().over("decision_id") >= 2))
    decisions = pl.read_parquet(os.path.join(data, "decisions", "*.parquet"), columns=["decision_id"] + SITUATION_SOURCES)
    situation = decisions.filter(pl.col("decision_id").is_in(ids)).select("decision_id", *situation_columns())
    opts = opts.join(situation, on="decision_id", how="left")
    return with_derived(opts.sort(["decision_id", "option"]), FAMILIES)


def matrix(opts, features):
    """The model's features of `opts` as float64 widened from float32 (missing columns read 0)."""
    cols = [pl.col(f).cast(pl.Float32) if f in opts.columns else pl.lit(0.0, dtype=pl.Float32).alias(f) for f in features]
    return opts.select(cols).to_numpy().astype(np.float64)


def train(opts, out):
    opts = opts.head(60_000)
    features = [c for c in opts.columns if c not in NOT_FEATURES]
    x = matrix(opts, features)
    groups = opts.group_by("decision_id", maintain_order=True).len()["len"].to_numpy()
    params = {
        "objective": "lambdarank",
        "num_leaves": 31,
        "learning_rate": 0.1,
        "min_data_in_leaf": 20,
        "num_threads": 2,
        "seed": 1,
        "deterministic": True,
        "verbose": -1,
    }
    data_set = lgb.Dataset(x, opts["chosen"].cast(pl.Int32).to_numpy(), group=groups, feature_name=features)
    booster = lgb.train(params, data_set, num_boost_round=40)
    path = os.path.join(out, "model.txt")
    booster.save_model(path)
    return path


def prepare(data, model, n, c, out):
    os.makedirs(out, exist_ok=True)
    opts = rows(data, n, c)
    if model == "-":
        model = train(opts, out)
    booster = load_model(model)
    x = matrix(opts, booster.feature_name())
    predictions = booster.predict(x)
    explain = opts["explain"].to_numpy()
    contributions = iter(booster.predict(x[explain], pred_contrib=True))
    keys = zip(opts["decision_id"].to_list(), opts["option"].to_list())
    with open(os.path.join(out, "lightgbm.txt"), "w") as f:
        for (d, o), p, e in zip(keys, predictions, explain):
            f.write(f"{d} {o} " + " ".join(repr(float(v)) for v in [p, *(next(contributions) if e else [])]) + "\n")
    print(model)


def compare(out):
    def lines(name):
        rows = sorted([l.split() for l in open(os.path.join(out, name))], key=lambda r: (int(r[0]), r[1]))
        return [(int(r[0]), r[1]) for r in rows], [list(map(float, r[2:])) for r in rows]

    (our_keys, ours), (their_keys, theirs) = lines("haifu.txt"), lines("lightgbm.txt")
    if our_keys != their_keys or not our_keys:
        sys.exit(f"rows: haifu {len(our_keys)}, LightGBM {len(their_keys)}, not the same (decision, option) rows")
    if any((len(a) > 1) != (len(b) > 1) for a, b in zip(ours, theirs)):
        sys.exit("haifu and LightGBM explain different rows")
    batch = np.max(np.abs(np.array([a[0] for a in ours]) - np.array([b[0] for b in theirs])))
    ours_x = np.array([a for a in ours if len(a) > 1])
    theirs_x = np.array([b for b in theirs if len(b) > 1])
    one = np.max(np.abs(ours_x[:, 1] - theirs_x[:, 0]))
    contrib = np.max(np.abs(ours_x[:, 2:] - theirs_x[:, 1:]))
    sums = np.max(np.abs(ours_x[:, 2:].sum(axis=1) - ours_x[:, 1]))
    decisions = len({k[0] for k in our_keys})
    print(
        f"{len(ours)} option rows of {decisions} decisions: max |haifu - LightGBM| predict {batch:.3g}; "
        f"on the {len(ours_x)} rows explained: row by row {one:.3g}, contributions {contrib:.3g}, "
        f"|sum of contributions - score| {sums:.3g}"
    )
    if max(batch, one) > 1e-9 or contrib > 1e-6:
        sys.exit("FAIL: haifu and LightGBM disagree")


if __name__ == "__main__":
    if sys.argv[1:2] == ["prepare"] and len(sys.argv) == 7:
        prepare(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
    elif sys.argv[1:2] == ["compare"] and len(sys.argv) == 3:
        compare(sys.argv[2])
    else:
        sys.exit(__doc__)
