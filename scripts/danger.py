"""The danger models (issue 69): LightGBM fitted on the opponents' real waits, and their comparison
with the rule-based estimates on the same positions (`make danger`).

    scripts/danger.py ROWS_DIR --out data/weights --report reports/danger [--weixian GOLDEN.jsonl]

ROWS_DIR holds `rows.parquet` from `examples/danger_rows.rs` (one row per discard decision,
opponent and kind the seat could discard: public-view inputs, the labels of `replay::waits`, the
baselines). Three models, trained on the train split, early-stopped on the validation split
(fit --seed 1's game split), cut to at most `--max-bytes` gzipped, written where
`features::danger` reads them:
- danger-tenpai.txt.gz: binary, P(the opponent is tenpai), over the opponent's columns, one row
  per decision and opponent;
- danger-dealin.txt.gz: binary, P(a discard of the kind deals into the opponent: a ron is
  possible on it), over the opponent's and the kind's columns;
- danger-points.txt.gz: L2 regression of the points that deal-in pays, on the rows that dealt in.

Then, on the houou games of the test split, the same rows for every method: every discard option
against every opponent in riichi (the rule-based estimates are defined against riichi players
only). Each rule is turned into a probability on the train split's riichi rows: a 1-D logistic
fit for `safety_*_danger_est` and 電脳麻将's two danger scores (`weixian` of majiang-ai 1.0.13 and
the seed-era level); the empirical deal-in rate of each genbutsu / suji / kabe class. With
`--weixian` (majiang-ai's own values from scripts/majiang_danger.js on the test positions) the
1.0.13 row uses majiang-ai's values, after checking haifu's port equals them. Writes
REPORT/danger.json and the table REPORT/table.md.
"""
import argparse
import gzip
import hashlib
import json
import math
import os
import sys
import time

import lightgbm as lgb
import numpy as np
import polars as pl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trees import gzipped, model_text, rounds_within, write_model  # noqa: E402

LABELS = ["y_tenpai", "y_wait", "y_deal_in", "y_points"]
HEAD = ["decision_id", "game_id", "split", "houou", "opponent", "kind", "chosen"]
FILES = {"tenpai": "danger-tenpai.txt.gz", "dealin": "danger-dealin.txt.gz", "points": "danger-points.txt.gz"}


def input_names(df):
    """The model inputs: the columns between the head and the labels, in the file's order (the
    order of `features::danger_inputs`' OPPONENT_COLUMNS then KIND_COLUMNS)."""
    cols = df.columns
    return cols[cols.index("chosen") + 1 : cols.index("y_tenpai")]


def opponent_names(names):
    return [n for n in names if not n.startswith("k_")]


LEARNING_RATE, LEAVES, MIN_LEAF = 0.1, 63, 200


def params(objective, seed=1):
    p = {
        "objective": objective,
        "learning_rate": LEARNING_RATE,
        "num_leaves": LEAVES,
        "min_data_in_leaf": MIN_LEAF,
        "feature_fraction": 0.9,
        "bagging_fraction": 0.8,
        "bagging_freq": 1,
        "lambda_l2": 1.0,
        "seed": seed,
        "deterministic": True,
        "num_threads": 2,
        "verbose": -1,
    }
    if objective == "binary":
        p["metric"] = "binary_logloss"
    else:
        p["metric"] = "l2"
    return p


def fit_or_load(a, what, objective, x_tr, y_tr, x_va, y_va, names):
    """The model `what` fitted (`fit`) and written to `a.out`, or read from `a.models_from`:
    (booster, rounds to use, best round, the file's sha256)."""
    path = os.path.join(a.out, FILES[what])
    if a.models_from:
        src = os.path.join(a.models_from, FILES[what])
        with open(src, "rb") as f:
            data = f.read()
        b = lgb.Booster(model_str=gzip.decompress(data).decode())
        if b.feature_name() != list(names):
            raise SystemExit(f"{src}: trained on other columns")
        cut, best, sha = b.current_iteration(), None, hashlib.sha256(data).hexdigest()
    else:
        b, cut, best = fit(objective, x_tr, y_tr, x_va, y_va, names, a.rounds, a.max_bytes)
        sha = write_model(b, path, cut, x_va[:5000])
    p = b.predict(x_va, num_iteration=cut)
    VALIDATION[what] = logloss(y_va, p) if objective == "binary" else float(np.sqrt(np.mean((p - y_va) ** 2)))
    return b, cut, best, sha


def fit(objective, x_tr, y_tr, x_va, y_va, names, rounds, max_bytes):
    train = lgb.Dataset(x_tr, y_tr, feature_name=names, free_raw_data=False)
    val = lgb.Dataset(x_va, y_va, reference=train, feature_name=names)
    b = lgb.train(
        params(objective),
        train,
        num_boost_round=rounds,
        valid_sets=[val],
        callbacks=[lgb.early_stopping(50, verbose=False)],
    )
    best = b.best_iteration or rounds
    cut = rounds_within(b, best, max_bytes)
    return b, cut, best


# The validation split's log-loss (RMSE for the points) of each model as written: what a choice of
# parameters is judged on; the test split is only reported.
VALIDATION = {}


def logloss(y, p):
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def auc(y, s):
    """Area under the ROC curve, ties counted half (the Mann-Whitney statistic on average ranks)."""
    y = np.asarray(y, dtype=bool)
    order = np.argsort(s, kind="mergesort")
    s_sorted = np.asarray(s)[order]
    ranks = np.empty(len(s), dtype=np.float64)
    i = 0
    n = len(s)
    while i < n:
        j = i
        while j + 1 < n and s_sorted[j + 1] == s_sorted[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2.0 + 1.0
        i = j + 1
    pos = y.sum()
    neg = n - pos
    if pos == 0 or neg == 0:
        return float("nan")
    return float((ranks[y].sum() - pos * (pos + 1) / 2.0) / (pos * neg))


def calibration(y, p, bins=10):
    """Expected calibration error over equal-count bins of the predictions, and the bins (mean
    predicted, observed rate, rows)."""
    order = np.argsort(p, kind="mergesort")
    out, ece = [], 0.0
    for chunk in np.array_split(order, bins):
        if len(chunk) == 0:
            continue
        mp, my = float(np.mean(p[chunk])), float(np.mean(y[chunk]))
        ece += len(chunk) / len(p) * abs(mp - my)
        out.append((mp, my, int(len(chunk))))
    return ece, out


def logistic_1d(x, y, iters=50):
    """Maximum-likelihood a, b of P = 1 / (1 + exp(-(a + b x))) (Newton's method)."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    scale = max(float(np.std(x)), 1e-9)
    z = (x - float(np.mean(x))) / scale
    w = np.array([math.log(max(y.mean(), 1e-6) / max(1 - y.mean(), 1e-6)), 0.0])
    for _ in range(iters):
        p = 1 / (1 + np.exp(-(w[0] + w[1] * z)))
        g = np.array([np.sum(p - y), np.sum((p - y) * z)])
        h = p * (1 - p)
        H = np.array([[h.sum(), (h * z).sum()], [(h * z).sum(), (h * z * z).sum()]]) + 1e-9 * np.eye(2)
        step = np.linalg.solve(H, g)
        w = w - step
        if np.abs(step).max() < 1e-10:
            break
    b = w[1] / scale
    a = w[0] - b * float(np.mean(x))
    return float(a), float(b)


def apply_logistic(ab, x):
    a, b = ab
    return 1 / (1 + np.exp(-(a + b * np.asarray(x, dtype=np.float64))))


CLASS_COLS = ["b_genbutsu", "b_suji", "b_half_suji", "b_no_chance", "b_one_chance", "k_honor", "k_edge", "k_unseen"]


def class_key(df):
    """The genbutsu / suji / kabe class of a riichi row: genbutsu; else an honour by its unseen
    copies; else suji / half-suji / musuji by the number's distance from the edge, with no-chance
    or one-chance."""
    g = df["b_genbutsu"].to_numpy() > 0
    honor = df["k_honor"].to_numpy() > 0
    unseen = df["k_unseen"].to_numpy().astype(int)
    edge = df["k_edge"].to_numpy().astype(int)
    suji = np.where(df["b_suji"].to_numpy() > 0, "suji", np.where(df["b_half_suji"].to_numpy() > 0, "half", "musuji"))
    kabe = np.where(df["b_no_chance"].to_numpy() > 0, "nc", np.where(df["b_one_chance"].to_numpy() > 0, "oc", "-"))
    keys = []
    for i in range(len(g)):
        if g[i]:
            keys.append("genbutsu")
        elif honor[i]:
            keys.append(f"honor{unseen[i]}")
        else:
            keys.append(f"{suji[i]}{edge[i]}{kabe[i]}")
    return np.array(keys)


def class_rates(keys, y, prior_rows=20.0):
    """Each class's deal-in rate on train, shrunk towards the overall rate by `prior_rows` rows."""
    base = float(np.mean(y))
    rates = {}
    for k in np.unique(keys):
        m = keys == k
        rates[k] = (float(y[m].sum()) + prior_rows * base) / (float(m.sum()) + prior_rows)
    return rates, base


def metrics(y, p):
    ece, bins = calibration(y, p)
    return {"log_loss": logloss(y, p), "auc": auc(y, p), "ece": ece, "mean_p": float(np.mean(p)), "bins": bins}


def main():
    global LEARNING_RATE, LEAVES, MIN_LEAF
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rows")
    ap.add_argument("--out", default="data/weights")
    ap.add_argument("--report", default="reports/danger")
    ap.add_argument("--weixian", help="majiang-ai's own values on the test positions (majiang_danger.js output)")
    ap.add_argument("--rounds", type=int, default=800)
    ap.add_argument("--max-bytes", type=int, default=1_900_000)
    ap.add_argument("--models-from", help="score with the models in this folder instead of fitting them")
    ap.add_argument("--learning-rate", type=float, default=LEARNING_RATE)
    ap.add_argument("--leaves", type=int, default=LEAVES)
    ap.add_argument("--min-leaf", type=int, default=MIN_LEAF)
    a = ap.parse_args()
    LEARNING_RATE, LEAVES, MIN_LEAF = a.learning_rate, a.leaves, a.min_leaf
    started = time.time()
    df = pl.read_parquet(os.path.join(a.rows, "rows.parquet"))
    names = input_names(df)
    opp_names = opponent_names(names)
    report = {"rows": df.height, "games": df["game_id"].n_unique(), "inputs": names}
    split = df["split"].to_numpy()
    x_all = df.select(names).to_numpy().astype(np.float32)
    os.makedirs(a.out, exist_ok=True)
    os.makedirs(a.report, exist_ok=True)

    # Tenpai: one row per decision and opponent.
    first = df.select("decision_id", "opponent", "split", "houou", *opp_names, "y_tenpai").unique(
        subset=["decision_id", "opponent"], keep="first", maintain_order=True
    )
    xo = first.select(opp_names).to_numpy().astype(np.float32)
    yo = first["y_tenpai"].to_numpy().astype(np.float64)
    so = first["split"].to_numpy()
    b, cut, best, sha = fit_or_load(a, "tenpai", "binary", xo[so == 0], yo[so == 0], xo[so == 1], yo[so == 1], opp_names)
    test = (so == 2) & first["houou"].to_numpy()
    pt = b.predict(xo[test], num_iteration=cut)
    report["tenpai"] = {"rounds": cut, "best": best, "sha256": sha, "test_rows": int(test.sum()), **metrics(yo[test], pt),
                        "base_rate_log_loss": logloss(yo[test], np.full(test.sum(), yo[so == 0].mean()))}
    print("tenpai", {k: v for k, v in report["tenpai"].items() if k != "bins"}, flush=True)

    # Deal-in: every row.
    y = df["y_deal_in"].to_numpy().astype(np.float64)
    b, cut, best, sha = fit_or_load(a, "dealin", "binary", x_all[split == 0], y[split == 0], x_all[split == 1], y[split == 1], names)
    houou = df["houou"].to_numpy()
    test = (split == 2) & houou
    p_model = b.predict(x_all[test], num_iteration=cut)
    report["dealin"] = {"rounds": cut, "best": best, "sha256": sha, "test_rows": int(test.sum()), **metrics(y[test], p_model)}
    print("dealin", {k: v for k, v in report["dealin"].items() if k != "bins"}, flush=True)

    # Points of a deal-in.
    yp = df["y_points"].to_numpy().astype(np.float64)
    dealt = y > 0
    tr, va = dealt & (split == 0), dealt & (split == 1)
    bp, cutp, bestp, sha = fit_or_load(a, "points", "regression", x_all[tr], yp[tr], x_all[va], yp[va], names)
    te = dealt & test
    e = bp.predict(x_all[te], num_iteration=cutp)
    mean_tr = float(yp[tr].mean())
    report["points"] = {
        "rounds": cutp, "best": bestp, "sha256": sha, "test_rows": int(te.sum()),
        "rmse": float(np.sqrt(np.mean((e - yp[te]) ** 2))), "mae": float(np.mean(np.abs(e - yp[te]))),
        "rmse_train_mean": float(np.sqrt(np.mean((mean_tr - yp[te]) ** 2))),
        "mae_train_mean": float(np.mean(np.abs(mean_tr - yp[te]))), "train_mean": mean_tr,
    }
    print("points", report["points"], flush=True)

    # The comparison: houou test rows against an opponent in riichi.
    riichi = df["b_riichi"].to_numpy()
    tr_r = (split == 0) & riichi
    cmp_rows = test & riichi
    p_cmp = b.predict(x_all[cmp_rows], num_iteration=cut)
    yc = y[cmp_rows]
    ytr = y[tr_r]
    methods = {"danger model (LightGBM)": p_cmp}
    for col, label in [
        ("b_danger_est", "safety_*_danger_est, 1-D logistic"),
        ("b_weixian", "電脳麻将 weixian (1.0.13, haifu's port), 1-D logistic"),
        ("b_weixian_level", "電脳麻将 seed-era level (0101-0402), 1-D logistic"),
    ]:
        xtr = df[col].to_numpy()[tr_r]
        ab = logistic_1d(xtr, ytr)
        methods[label] = apply_logistic(ab, df[col].to_numpy()[cmp_rows])
        report.setdefault("logistic", {})[col] = ab
    if a.weixian:
        ids = df.filter(pl.Series(cmp_rows)).select(
            (pl.col("decision_id").cast(pl.Utf8) + "/" + pl.col("opponent").cast(pl.Utf8)).alias("id"), "kind", "b_weixian"
        )
        js = {}
        with open(a.weixian) as f:
            for line in f:
                o = json.loads(line)
                js[o["id"]] = o["relative"]
        got = np.array([js[i][k] if i in js else np.nan for i, k in zip(ids["id"].to_list(), ids["kind"].to_list())])
        have = ~np.isnan(got)
        port = ids["b_weixian"].to_numpy()
        diff = float(np.max(np.abs(got[have] - port[have]))) if have.any() else float("nan")
        report["weixian_js"] = {"rows": int(have.sum()), "of": int(len(got)), "max_abs_diff_port": diff}
        print("weixian js", report["weixian_js"], flush=True)
        if have.all():
            methods["電脳麻将 weixian (majiang-ai 1.0.13's own values), same logistic"] = apply_logistic(
                report["logistic"]["b_weixian"], got
            )
    keys_tr = class_key(df.filter(pl.Series(tr_r)))
    rates, base = class_rates(keys_tr, ytr)
    keys_te = class_key(df.filter(pl.Series(cmp_rows)))
    methods["genbutsu / suji / kabe classes (train rates)"] = np.array([rates.get(k, base) for k in keys_te])
    methods["one rate (train riichi rows)"] = np.full(len(yc), float(ytr.mean()))
    report["classes"] = {k: v for k, v in sorted(rates.items())}
    report["comparison"] = {"rows": int(cmp_rows.sum()), "deal_ins": int(yc.sum()),
                            "decisions": int(df.filter(pl.Series(cmp_rows))["decision_id"].n_unique()),
                            "methods": {m: metrics(yc, p) for m, p in methods.items()}}
    report["validation"] = VALIDATION
    report["params"] = {"learning_rate": LEARNING_RATE, "num_leaves": LEAVES, "min_data_in_leaf": MIN_LEAF}
    report["seconds"] = round(time.time() - started, 1)
    with open(os.path.join(a.report, "danger.json"), "w") as f:
        json.dump(report, f, indent=1, ensure_ascii=False)
    with open(os.path.join(a.report, "table.md"), "w") as f:
        f.write(table(report))
    print(table(report))


def table(r):
    c = r["comparison"]
    lines = [
        f"Houou test split, every discard option against every opponent in riichi: {c['rows']:,} rows "
        f"({c['decisions']:,} decisions, {c['deal_ins']:,} deal-ins).",
        "",
        "| P(deal-in) from | log-loss | AUC | calibration error (ECE, 10 bins) | mean P |",
        "|---|---|---|---|---|",
    ]
    for m, v in sorted(c["methods"].items(), key=lambda kv: kv[1]["log_loss"]):
        lines.append(f"| {m} | {v['log_loss']:.4f} | {v['auc']:.4f} | {v['ece']:.4f} | {v['mean_p']:.4f} |")
    d, t, p = r["dealin"], r["tenpai"], r["points"]
    lines += [
        "",
        "| model | houou test rows | log-loss | AUC | ECE | rounds |",
        "|---|---|---|---|---|---|",
        f"| P(tenpai), every opponent | {t['test_rows']:,} | {t['log_loss']:.4f} (base rate {t['base_rate_log_loss']:.4f}) | {t['auc']:.4f} | {t['ece']:.4f} | {t['rounds']} |",
        f"| P(deal-in), every option and opponent | {d['test_rows']:,} | {d['log_loss']:.4f} | {d['auc']:.4f} | {d['ece']:.4f} | {d['rounds']} |",
        "",
        f"Points of a deal-in ({p['test_rows']:,} houou test deal-ins): RMSE {p['rmse']:.0f}, MAE {p['mae']:.0f} "
        f"(the train mean {p['train_mean']:.0f} for every row: RMSE {p['rmse_train_mean']:.0f}, MAE {p['mae_train_mean']:.0f}); "
        f"{p['rounds']} rounds.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
