"""LightGBM as the outside referee of haifu's trees scorer on real option rows (scripts/trees_check.sh).

    trees_check.py prepare DATA MODEL N OUT    LightGBM's predict and pred_contrib -> OUT/lightgbm.txt
    trees_check.py compare OUT                 OUT/lightgbm.txt against OUT/haifu.txt

DATA is an `haifu ingest` folder. The rows are the first N rows of its first options part, each with
the model's features: option columns by name (a catalog column the ingest skipped reads 0, as haifu
reads it) and the other features from the decisions table (joined on decision_id). MODEL `-` trains
a small lambdarank model first (40 trees of 31 leaves on the part's first 60,000 option rows: every
option column plus the decision's turn), written to OUT/model.txt.

Output lines: the prediction, then the contributions (one per feature, then the bias), in Python's
shortest round-trip form. `compare` reads haifu's lines (batch score, row-by-row score,
contributions) and fails unless every score is within 1e-9 and every contribution within 1e-6.
"""
import os
import sys

import lightgbm as lgb
import numpy as np
import polars as pl

from trees import load_model

NOT_FEATURES = ("decision_id", "option", "chosen")


def first_part(data, table):
    d = os.path.join(data, table)
    return os.path.join(d, sorted(f for f in os.listdir(d) if f.endswith(".parquet"))[0])


def matrix(data, options, features):
    """The rows of `options` with `features`, as float64 (missing option columns read 0)."""
    wanted = [f for f in features if f not in options.columns]
    if wanted:
        known = pl.read_parquet(os.path.join(data, "decisions", "*.parquet"), n_rows=0).columns
        context = [f for f in wanted if f in known]
        decisions = pl.read_parquet(os.path.join(data, "decisions", "*.parquet"), columns=["decision_id"] + context)
        options = options.join(decisions, on="decision_id", how="left", maintain_order="left")
    cols = [pl.col(f).cast(pl.Float64) if f in options.columns else pl.lit(0.0).alias(f) for f in features]
    return options.select(cols).to_numpy()


def train(data, out):
    options = pl.read_parquet(first_part(data, "options"), n_rows=60_000).sort("decision_id", maintain_order=True)
    features = [c for c in options.columns if c not in NOT_FEATURES] + ["turn"]
    x = matrix(data, options, features)
    groups = options.group_by("decision_id", maintain_order=True).len()["len"].to_numpy()
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
    data_set = lgb.Dataset(x, options["chosen"].cast(pl.Int32).to_numpy(), group=groups, feature_name=features)
    booster = lgb.train(params, data_set, num_boost_round=40)
    path = os.path.join(out, "model.txt")
    booster.save_model(path)
    return path


def prepare(data, model, n, out):
    os.makedirs(out, exist_ok=True)
    if model == "-":
        model = train(data, out)
    booster = load_model(model)
    options = pl.read_parquet(first_part(data, "options"), n_rows=n)
    x = matrix(data, options, booster.feature_name())
    predictions = booster.predict(x)
    contributions = booster.predict(x, pred_contrib=True)
    with open(os.path.join(out, "lightgbm.txt"), "w") as f:
        for p, c in zip(predictions, contributions):
            f.write(" ".join(repr(float(v)) for v in [p, *c]) + "\n")
    print(model)


def compare(out):
    lines = lambda name: [list(map(float, l.split())) for l in open(os.path.join(out, name))]
    ours, theirs = lines("haifu.txt"), lines("lightgbm.txt")
    if len(ours) != len(theirs) or not ours:
        sys.exit(f"rows: haifu {len(ours)}, LightGBM {len(theirs)}")
    ours, theirs = np.array(ours), np.array(theirs)
    batch = np.max(np.abs(ours[:, 0] - theirs[:, 0]))
    one = np.max(np.abs(ours[:, 1] - theirs[:, 0]))
    contrib = np.max(np.abs(ours[:, 2:] - theirs[:, 1:]))
    sums = np.max(np.abs(ours[:, 2:].sum(axis=1) - ours[:, 1]))
    print(
        f"{len(ours)} rows: max |haifu - LightGBM| predict {batch:.3g} (batch), {one:.3g} (row by row); "
        f"contributions {contrib:.3g}; |sum of contributions - score| {sums:.3g} (the raw score of a ranking model)"
    )
    if max(batch, one) > 1e-9 or contrib > 1e-6:
        sys.exit("FAIL: haifu and LightGBM disagree")


if __name__ == "__main__":
    if sys.argv[1:2] == ["prepare"] and len(sys.argv) == 6:
        prepare(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    elif sys.argv[1:2] == ["compare"] and len(sys.argv) == 3:
        compare(sys.argv[2])
    else:
        sys.exit(__doc__)
