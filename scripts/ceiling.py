"""The ceiling of the linear evaluator's features: a non-linear ranker (LightGBM lambdarank, a
pairwise objective over gradient-boosted trees) on the same option columns, decision filter,
game split and decision sample as `haifu fit`, scored with the same tie-fair agreement
(`make ceiling`; `pip install lightgbm pyarrow polars numpy`, the repo vendors none of them).

    scripts/ceiling.py DATA OUT.json [--tables houou,tokujou] [--seed 1] [--max-decisions N]
        [--train-decisions N] [--trees N]

DATA is an `haifu ingest` folder (decisions/ and options/ parts). The kept decisions, the split
(FNV-1a of the game id mixed with the seed, validation 0.1 / test 0.1) and the `--max-decisions`
sample (whole games in hash order) are haifu's own (src/fit/split.rs, src/fit/load.rs), so the
test decisions are the linear rows' test decisions. The trees see every feature column plus the
decision's `turn` (what the linear fit's turn gate sees); no interaction columns (the trees find
their own). `--train-decisions` subsamples the training split (trees cost more than L-BFGS).
Writes OUT.json (decisions and metrics in the weights file's shape, for scripts/loss_table.py)
and OUT.cost.json (wall seconds, peak RSS).
"""
import argparse
import json
import os
import resource
import sys
import time

import lightgbm as lgb
import numpy as np
import polars as pl

M64 = (1 << 64) - 1


def fnv1a(b):
    h = 0xCBF29CE484222325
    for x in b:
        h ^= x
        h = (h * 0x100000001B3) & M64
    return h


def game_hash(game_id, seed):
    z = fnv1a(game_id.encode()) ^ ((seed * 0x9E3779B97F4A7C15) & M64)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def split_of(game_id, seed, validation=0.1, test=0.1):
    u = (game_hash(game_id, seed) >> 11) / float(1 << 53)
    return 2 if u < test else (1 if u < test + validation else 0)


def parts(data, table):
    d = os.path.join(data, table)
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".parquet"))


def kept_decisions(data, tables, seed, cap):
    """Decision id -> (split, turn) for the discard decisions of human seats at `tables`, capped
    like haifu's cap_by_game: whole games in game_hash(game, seed ^ 0x5eed) order."""
    dec = pl.concat([pl.read_parquet(p, columns=["decision_id", "game_id", "kind", "is_ai", "table", "turn"]) for p in parts(data, "decisions")])
    dec = dec.filter((pl.col("kind") == "discard") & (~pl.col("is_ai")) & pl.col("table").is_in(tables))
    if cap is not None:
        per_game = dec.group_by("game_id").len()
        order = sorted((game_hash(g, seed ^ 0x5EED), g, n) for g, n in per_game.iter_rows())
        allowed, total = [], 0
        for _, g, n in order:
            if total >= cap:
                break
            total += n
            allowed.append(g)
        dec = dec.filter(pl.col("game_id").is_in(allowed))
    games = dec["game_id"].unique().to_list()
    split = {g: split_of(g, seed) for g in games}
    return dec.with_columns(pl.col("game_id").replace_strict(split, return_dtype=pl.UInt8).alias("split")).select(
        ["decision_id", "split", "turn"]
    )


def load_options(data, kept):
    """The options of the kept decisions, every feature column as f32, with split and turn."""
    frames = []
    ids = kept["decision_id"]
    for p in parts(data, "options"):
        df = pl.scan_parquet(p).filter(pl.col("decision_id").is_in(ids.implode())).collect()
        frames.append(df)
    opts = pl.concat(frames).join(kept, on="decision_id")
    # decisions haifu keeps: one chosen option and at least two options
    ok = opts.group_by("decision_id").agg(pl.col("chosen").sum().alias("c"), pl.len().alias("n"))
    ok = ok.filter((pl.col("c") == 1) & (pl.col("n") >= 2))
    return opts.join(ok.select("decision_id"), on="decision_id").sort(["decision_id", "option"])


def agreement(scores, chosen, groups):
    """haifu's tie-fair agreement (src/model/metrics.rs): top-1, top-3, mean rank."""
    top1 = top3 = rank = 0.0
    start = 0
    for n in groups:
        s = scores[start : start + n]
        c = s[chosen[start : start + n]][0]
        better = int((s > c + 1e-9).sum())
        ties = int((np.abs(s - c) <= 1e-9).sum()) - 1
        p = lambda k: 0.0 if better >= k else min(1.0, (k - better) / (ties + 1))
        top1 += p(1)
        top3 += p(3)
        rank += better + 1 + ties / 2
        start += n
    m = max(len(groups), 1)
    return {"decisions": len(groups), "top1": top1 / m, "top3": top3 / m, "mean_rank": rank / m}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--tables", default="houou,tokujou")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-decisions", type=int, default=600000)
    ap.add_argument("--train-decisions", type=int, default=100000)
    ap.add_argument("--trees", type=int, default=300)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    started = time.time()
    kept = kept_decisions(a.data, a.tables.split(","), a.seed, a.max_decisions)
    train_ids = kept.filter(pl.col("split") == 0)["decision_id"].sort()
    train_split_decisions = len(train_ids)
    if a.train_decisions and len(train_ids) > a.train_decisions:
        sample = train_ids.sample(a.train_decisions, seed=a.seed)
        kept = kept.filter((pl.col("split") != 0) | pl.col("decision_id").is_in(sample.implode()))
    opts = load_options(a.data, kept)
    features = [c for c in opts.columns if c not in ("decision_id", "option", "chosen", "split")]
    sets = {}
    for split, name in [(0, "train"), (1, "validation"), (2, "test")]:
        d = opts.filter(pl.col("split") == split)
        groups = d.group_by("decision_id", maintain_order=True).len()["len"].to_numpy()
        x = d.select(features).cast(pl.Float32).to_numpy()
        y = d["chosen"].cast(pl.Int32).to_numpy()
        sets[name] = (x, y, groups)
        print(f"{name}: {len(groups)} decisions, {len(y)} options", file=sys.stderr)
    xt, yt, gt = sets["train"]
    xv, yv, gv = sets["validation"]
    params = {
        "objective": "lambdarank",
        "lambdarank_truncation_level": 3,
        "eval_at": [1, 3],
        "learning_rate": 0.1,
        "num_leaves": 63,
        "min_data_in_leaf": 50,
        "feature_fraction": 0.8,
        "num_threads": a.threads,
        "seed": a.seed,
        "deterministic": True,
        "verbose": -1,
    }
    train = lgb.Dataset(xt, yt, group=gt, feature_name=features)
    val = lgb.Dataset(xv, yv, group=gv, reference=train)
    booster = lgb.train(
        params, train, a.trees, valid_sets=[val], callbacks=[lgb.early_stopping(30, verbose=False), lgb.log_evaluation(25)]
    )
    metrics = {}
    for name, (x, y, g) in sets.items():
        metrics[name] = agreement(booster.predict(x, num_iteration=booster.best_iteration), y.astype(bool), g)
    out = {
        "model": "lightgbm lambdarank",
        "params": params,
        "features": len(features),
        "decisions": {"train": int(len(gt)), "validation": int(len(gv)), "test": int(len(sets["test"][2]))},
        "train_split_decisions": train_split_decisions,
        "max_decisions": a.max_decisions,
        "split_seed": a.seed,
        "iterations": booster.best_iteration,
        "metrics": metrics,
    }
    with open(a.out, "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")
    cost = {"wall_seconds": time.time() - started, "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    with open(a.out.removesuffix(".json") + ".cost.json", "w") as f:
        json.dump(cost, f, indent=2)
        f.write("\n")
    print(json.dumps(metrics["test"]), file=sys.stderr)


if __name__ == "__main__":
    main()
