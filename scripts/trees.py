"""`make trees`: LightGBM lambdarank over every training decision of `make weights`' filter and
split, built in chunks so that memory stays bounded, written as data/weights/trees.txt.gz.

    scripts/trees.py DATA --out MODEL.txt.gz [--kind discard] [--tables houou,tokujou] [--seed 1]
        [--rounds 400] [--leaves 127] [--learning-rate 0.1] [--min-leaf 100] [--max-depth -1]
        [--feature-fraction 0.5] [--bagging 0.5]
        [--fraction F] [--report OUT.json] [--cache DIR] [--threads 2]
        [--families options,context,relative,margin,table] [--without FAMILIES]

DATA is an `haifu ingest` folder. The kept decisions (human seats at --tables, the decision kind),
the split (FNV-1a of the game id with the seed: validation 0.1, test 0.1) and the rule that a
decision needs one chosen option and at least two options are haifu's own (src/fit/), so the test
decisions are `haifu eval --split test`'s. Rounds stop early on the validation split's ndcg@1;
nothing is tuned on the test split.

Features, by family (the model's feature names; `haifu` computes the same columns at use, in
src/model/trees/inputs.rs, and a Rust test holds the two to each other):
- options: every option column of the ingest (the catalog);
- context: the decision's `turn`, `wall_left`, `round_wind` (0-3), `is_dealer`, and over its
  options `n_options` and `best_shanten` (the lowest `shanten_min`);
- relative: `rel_<c>`, an option's value of c minus the decision's best value of c (the max, or
  for shanten and danger the min), for the columns of RELATIVE;
- margin: `margin_<c>`, an option's value of c minus the best value among the decision's other
  options (the best option's lead; for the rest the same as rel_), for the columns of MARGIN, and
  `rank_<c>`, how many options are strictly better, for the columns of RANKED;
- table: the decision's round, honba, sticks, placement, score, and the gaps to the leader and to
  the nearest scores above and below (TABLE).
`--without reading` leaves out the option columns of the reading family (`read_*`), `--without
danger` the danger family (`danger_*`, held by a default ingest, and its `rel_` and `margin_` columns),
`--without all_last`, `seat_reading`, `furiten_risk` (or `seats`, all three) the families of the
`seats` group (`al_*`, `sr_*`, `furiten_risk_*`).

Memory: each ingest part is read once and written as float32 chunks under --cache (reused by
later runs with the same data, kind, tables, seed and families); the LightGBM Dataset is then
built from those chunks through `lightgbm.Sequence`, one chunk in memory at a time. `--fraction F`
trains on the games whose hash falls under F (the learning curve). Writes the gzipped model
(gzip mtime 0: same data and seed, same bytes) without the per-node statistics neither scoring
nor TreeSHAP reads (`compact`; checked to score as the booster does before it is written), a
checkpoint of it every 50 rounds in the cache folder (`checkpoint-MODEL`) while it trains, and, with --report, the metrics, the cost (wall
seconds, peak RSS) and the parameters as JSON.
"""
import argparse
import gzip
import hashlib
import io
import json
import os
import re
import resource
import sys
import time

import lightgbm as lgb
import numpy as np
import polars as pl

from ceiling import agreement, game_hash, parts, split_of

# The decisions columns `situation_columns` reads.
SITUATION_SOURCES = ["turn", "wall_left", "round_wind", "seat", "dealer", "round", "honba", "sticks", "placement"]
SITUATION_SOURCES += [f"score_{i}" for i in range(4)] + ["players"]
# Every family a model can use (--families' default).
FAMILIES = ["options", "context", "relative", "margin", "table"]
CONTEXT = ["turn", "wall_left", "round_wind", "is_dealer", "n_options", "best_shanten"]
# (column, best is the max) for the relative family
RELATIVE = [
    ("shanten_min", False),
    ("ukeire_count", True),
    ("ev", True),
    ("log_ev", True),
    ("vis_paijia", True),
    ("safety_worst_danger_est", False),
    ("danger_dealin", False),
    ("danger_loss", False),
]
# (column, best is the max) for the margin family: an option's value minus the best value among the
# decision's *other* options (for the best option, its lead; for the rest, their gap, as relative)
MARGIN = RELATIVE + [
    ("ukeire_kinds", True),
    ("wait_count", True),
    ("ev_far_ukeire", True),
    ("ev_far_shanten", False),
    ("dora_value", True),
    ("discard_class", False),
    ("river_genbutsu_count", True),
]
# (column, best is the max) for the rank columns of the margin family: how many of the decision's
# options are strictly better
RANKED = [("ev", True), ("ukeire_count", True), ("vis_paijia", True)]
# the standing of the game (the table family): where the round is, and the scores seen from the seat
TABLE = ["round_index", "honba", "sticks", "placement", "score_own", "top_gap", "next_above", "next_below"]
SPLITS = ["train", "validation", "test"]
CURVE_SALT = 0xC0DE


def kept_decisions(data, kind, tables, seed, players=4):
    """The decisions `haifu fit --kind KIND --tables T --seats human` keeps, with split, the game's
    curve position (a uniform number per game) and the decision's context columns."""
    cols = ["decision_id", "game_id", "kind", "is_ai", "table", *SITUATION_SOURCES]
    dec = pl.concat([pl.read_parquet(p, columns=cols) for p in parts(data, "decisions")])
    dec = dec.filter(
        (pl.col("kind") == kind) & (~pl.col("is_ai")) & pl.col("table").is_in(tables) & (pl.col("players") == players)
    )
    games = dec["game_id"].unique().to_list()
    split = {g: split_of(g, seed) for g in games}
    curve = {g: (game_hash(g, seed ^ CURVE_SALT) >> 11) / float(1 << 53) for g in games}
    return dec.select(
        "decision_id",
        pl.col("game_id").replace_strict(split, return_dtype=pl.UInt8).alias("split"),
        pl.col("game_id").replace_strict(curve, return_dtype=pl.Float64).alias("curve"),
        (pl.col("table") == "houou").alias("houou"),
        *situation_columns(),
    )


def situation_columns():
    """The decision's own columns among the model's features, from a decisions row: the context
    family's turn, wall, round wind and dealer flag, then the table family."""
    return [
        pl.col("turn").cast(pl.Float32),
        pl.col("wall_left").cast(pl.Float32),
        pl.col("round_wind").cast(pl.Float32),
        (pl.col("seat") == pl.col("dealer")).cast(pl.Float32).alias("is_dealer"),
        *table_columns(),
    ]


def table_columns():
    """The table family from a decisions row: the round (`round`: 0 East 1 ... 4 South 1 ...),
    its counters, the seat's placement and score, and the gaps to the leader and to the nearest
    scores above and below (0 where there is none), in points; the integers are exact in f32."""
    own = pl.concat_list([pl.col(f"score_{i}") for i in range(4)]).list.get(pl.col("seat").cast(pl.Int64))
    # the seated others: at three players the fourth score is an empty seat's 0
    others = [pl.when((pl.col("seat") != i) & (pl.col("players") > i)).then(pl.col(f"score_{i}")) for i in range(4)]
    above = [pl.when(o > own).then(o - own) for o in others]
    below = [pl.when(o < own).then(own - o) for o in others]
    return [
        pl.col("round").cast(pl.Float32).alias("round_index"),
        pl.col("honba").cast(pl.Float32),
        pl.col("sticks").cast(pl.Float32),
        pl.col("placement").cast(pl.Float32),
        own.cast(pl.Float32).alias("score_own"),
        (pl.max_horizontal(others) - own).cast(pl.Float32).alias("top_gap"),
        pl.min_horizontal(above).fill_null(0).cast(pl.Float32).alias("next_above"),
        pl.min_horizontal(below).fill_null(0).cast(pl.Float32).alias("next_below"),
    ]


def with_derived(opts, families):
    """Adds the decision-level columns computed over a decision's options."""
    by = "decision_id"
    extra = []
    if "context" in families:
        extra += [
            pl.len().over(by).cast(pl.Float32).alias("n_options"),
            pl.col("shanten_min").cast(pl.Float32).min().over(by).alias("best_shanten"),
        ]
    if "relative" in families:
        # in f32, as haifu computes them from its f32 rows (and never in the columns' unsigned types)
        for c, higher in derivable(RELATIVE, opts.columns):
            x = pl.col(c).cast(pl.Float32)
            best = x.max() if higher else x.min()
            extra.append((x - best.over(by)).alias(f"rel_{c}"))
    if "margin" in families:
        for c, higher in derivable(MARGIN, opts.columns):
            x = pl.col(c).cast(pl.Float32)
            top = (x.max() if higher else x.min()).over(by)
            ties = (x == top).sum().over(by)
            rest = pl.when(x != top).then(x)
            second = (rest.max() if higher else rest.min()).over(by)
            other = pl.when((x == top) & (ties == 1)).then(second).otherwise(top)
            extra.append((x - other).alias(f"margin_{c}"))
        for c, higher in derivable(RANKED, opts.columns):
            r = pl.col(c).cast(pl.Float32).rank("min", descending=higher).over(by)
            extra.append((r - 1).cast(pl.Float32).alias(f"rank_{c}"))
    return opts.with_columns(extra) if extra else opts


def feature_names(option_columns, families):
    names = list(option_columns) if "options" in families else []
    for family in ["context", "relative", "margin", "table"]:
        if family in families:
            names += family_names(family, option_columns)
    return names


def derivable(pairs, columns):
    """The (column, higher) pairs whose column the ingest holds: an ingest without a
    family (`--skip danger`) has no derived columns of it."""
    return [(c, h) for c, h in pairs if c in columns]


def family_names(family, option_columns):
    """The feature names a derived family adds to these option columns."""
    return {
        "context": CONTEXT,
        "relative": [f"rel_{c}" for c, _ in derivable(RELATIVE, option_columns)],
        "margin": [f"margin_{c}" for c, _ in derivable(MARGIN, option_columns)]
        + [f"rank_{c}" for c, _ in derivable(RANKED, option_columns)],
        "table": TABLE,
    }[family]


def without_names(family, names):
    """The features of one family among a cache's `names` (--without): a derived family's, the
    option columns of the reading family (`read_*`) or of the seats group's families, or the danger
    family's (`danger_*` and the relative and margin columns derived from them)."""
    prefixes = {
        "reading": ("read_",),
        "all_last": ("al_",),
        "seat_reading": ("sr_",),
        "furiten_risk": ("furiten_risk_",),
        "seats": ("al_", "sr_", "furiten_risk_"),
        "danger": ("danger_", "rel_danger_", "margin_danger_"),
        "relative": ("rel_",),
        "margin": ("margin_", "rank_"),
    }
    if family in prefixes:
        return [n for n in names if n.startswith(prefixes[family])]
    return {"context": CONTEXT, "table": TABLE}[family]


def build_cache(data, kept, families, cache):
    """Writes each part's kept options as float32 chunks per split under `cache` (x, label,
    group sizes, curve position per row) and returns the manifest."""
    os.makedirs(cache, exist_ok=True)
    manifest_path = os.path.join(cache, "manifest.json")
    if os.path.exists(manifest_path):
        with open(manifest_path) as f:
            return json.load(f)
    option_columns = [
        c for c in pl.scan_parquet(parts(data, "options")[0]).collect_schema().names() if c not in ("decision_id", "option", "chosen")
    ]
    names = feature_names(option_columns, families)
    chunks = {s: [] for s in SPLITS}
    ctx = kept.select("decision_id", "split", "curve", "houou", "turn", "wall_left", "round_wind", "is_dealer", *TABLE)
    started = time.time()
    paths = parts(data, "options")
    for i, p in enumerate(paths):
        opts = pl.scan_parquet(p).join(ctx.lazy(), on="decision_id", how="inner").collect()
        ok = opts.group_by("decision_id").agg(pl.col("chosen").sum().alias("c"), pl.len().alias("n"))
        ok = ok.filter((pl.col("c") == 1) & (pl.col("n") >= 2)).select("decision_id")
        opts = with_derived(opts.join(ok, on="decision_id").sort(["decision_id", "option"]), families)
        for s, split in enumerate(SPLITS):
            d = opts.filter(pl.col("split") == s)
            if d.height == 0:
                continue
            stem = os.path.join(cache, f"{split}-{i:05d}")
            np.save(stem + ".x.npy", d.select(names).cast(pl.Float32).to_numpy(order="c"))
            np.save(stem + ".y.npy", d["chosen"].cast(pl.Int8).to_numpy())
            np.save(stem + ".g.npy", d.group_by("decision_id", maintain_order=True).len()["len"].to_numpy().astype(np.int32))
            np.save(stem + ".u.npy", d["curve"].to_numpy())
            np.save(stem + ".h.npy", d.group_by("decision_id", maintain_order=True).agg(pl.col("houou").first())["houou"].to_numpy())
            chunks[split].append({"stem": stem, "rows": d.height})
        print(f"cache: part {i + 1}/{len(paths)} ({time.time() - started:.0f} s)", file=sys.stderr)
    manifest = {"features": names, "families": families, "chunks": chunks}
    with open(manifest_path + ".tmp", "w") as f:
        json.dump(manifest, f)
    os.replace(manifest_path + ".tmp", manifest_path)
    return manifest


class Chunk(lgb.Sequence):
    """One cached chunk's rows (those under the curve fraction), loaded on first use; only one
    chunk is held in memory at a time (LightGBM reads the Sequences in order)."""

    held = None  # (stem, array) shared by every Chunk

    def __init__(self, stem, keep, columns=None):
        self.stem = stem
        self.keep = keep  # row indices into the chunk, or None for all
        self.columns = columns  # column indices kept (--without), or None for all
        self.n = len(keep) if keep is not None else np.load(stem + ".y.npy", mmap_mode="r").shape[0]
        self.batch_size = 65536

    def _x(self):
        if Chunk.held is None or Chunk.held[0] != self.stem:
            Chunk.held = None
            x = np.load(self.stem + ".x.npy")
            x = x if self.keep is None else x[self.keep]
            Chunk.held = (self.stem, x if self.columns is None else np.ascontiguousarray(x[:, self.columns]))
        return Chunk.held[1]

    def __getitem__(self, idx):
        # LightGBM samples single rows (as float64) for the bin bounds and pushes slices
        if isinstance(idx, (int, np.integer)):
            return self._x()[idx].astype(np.float64)
        return self._x()[idx]

    def __len__(self):
        return self.n


def load_split(manifest, split, fraction, columns=None):
    """The split's Sequences, labels and group sizes, rows of games under `fraction` only (and
    only `columns` of them, when given)."""
    seqs, ys, gs = [], [], []
    for c in manifest["chunks"][split]:
        stem = c["stem"]
        y = np.load(stem + ".y.npy")
        g = np.load(stem + ".g.npy")
        keep = None
        if fraction < 1.0:
            u = np.load(stem + ".u.npy")
            rows = u < fraction
            if not rows.any():
                continue
            keep = np.flatnonzero(rows)
            # whole decisions are kept or dropped together (a game's rows share u)
            starts = np.concatenate([[0], np.cumsum(g)[:-1]])
            g = g[rows[starts]]
            y = y[keep]
        seqs.append(Chunk(stem, keep, columns))
        ys.append(y)
        gs.append(g)
    return seqs, np.concatenate(ys), np.concatenate(gs)


def scores_of(booster, seqs, rounds=None):
    out = []
    for s in seqs:
        out.append(booster.predict(s[0 : len(s)], num_iteration=rounds))
        Chunk.held = None
    return np.concatenate(out)


def _softmax_terms(beta, s, y, g):
    """Per decision: the log-sum-exp of beta × scores, the chosen score, and the mean and second
    moment of the scores under the softmax (Newton's gradient and Hessian in beta)."""
    starts = np.concatenate([[0], np.cumsum(g)[:-1]])
    m = np.maximum.reduceat(s, starts)
    e = np.exp(beta * (s - np.repeat(m, g)))
    z = np.add.reduceat(e, starts)
    p = e / np.repeat(z, g)
    es = np.add.reduceat(p * s, starts)
    es2 = np.add.reduceat(p * s * s, starts)
    return np.log(z) + beta * m, s[y == 1], es, es2, p, starts


def calibration(val, test):
    """haifu's calibration (src/model/calibration.rs) of a model's scores: the softmax temperature
    fitted by maximum likelihood on the validation split (Newton on beta = 1/T), then the test
    split's log-loss and top-label ECE over 10 equal-width bins."""
    s, y, g = val
    beta = 1.0
    for _ in range(50):
        _, sc, es, es2, _, _ = _softmax_terms(beta, s, y, g)
        grad, hess = np.sum(es - sc), np.sum(es2 - es * es)
        step = grad / hess
        beta = max(beta - step, beta / 4)
        if abs(step) < 1e-12 * max(1.0, beta):
            break
    out = {"temperature": 1.0 / beta}
    for name, (s, y, g) in [("validation", val), ("test", test)]:
        lse, sc, _, _, p, starts = _softmax_terms(beta, s, y, g)
        conf = np.maximum.reduceat(p, starts)
        best = np.maximum.reduceat(s, starts)
        # a hit is shared among the options tied at the top, as top-1 shares it (haifu's rule):
        # counting a whole hit for a choice tied with others overstates the low-confidence bins
        top = s >= np.repeat(best, g) - 1e-9
        hit = (sc >= best - 1e-9) / np.add.reduceat(top.astype(np.int64), starts)
        bins = np.minimum((conf * 10).astype(int), 9)
        ece = sum(abs(hit[bins == b].mean() - conf[bins == b].mean()) * (bins == b).mean() for b in range(10) if (bins == b).any())
        out[name] = {"log_loss": float(np.mean(lse - beta * sc)), "ece": float(ece)}
    return out


def houou_agreement(manifest, scores, y, g):
    """The agreement over the houou decisions of a split scored whole (fraction 1): what
    `haifu eval --split test --tables houou` counts."""
    h = np.concatenate([np.load(c["stem"] + ".h.npy") for c in manifest["chunks"]["test"]])
    rows = np.repeat(h, g)
    return agreement(scores[rows], y[rows].astype(bool), g[h])


def elapsed(started):
    """A callback printing the wall time every 10 rounds (the rounds' pace on this machine)."""

    def cb(env):
        if (env.iteration + 1) % 10 == 0:
            print(f"round {env.iteration + 1}: {time.time() - started:.0f} s", file=sys.stderr)

    return cb


def softmax_objective(group):
    """LightGBM's custom objective for the listwise softmax loss −log p(chosen), p = softmax of a
    decision's option scores: the loss top-1 agreement asks for (every rival is pushed in
    proportion to its probability), where lambdarank optimises NDCG@1's pairwise surrogate.
    Gradient p − y, Hessian p(1 − p) (the diagonal of the softmax's)."""
    starts = np.concatenate([[0], np.cumsum(group)[:-1]])

    def objective(preds, data):
        y = data.get_label()
        m = np.maximum.reduceat(preds, starts)
        e = np.exp(preds - np.repeat(m, group))
        p = e / np.repeat(np.add.reduceat(e, starts), group)
        return p - y, np.maximum(p * (1.0 - p), 1e-6)

    return objective


def params_of(a):
    objective = {"lambdarank": {"objective": "lambdarank", "lambdarank_truncation_level": 3}, "xendcg": {"objective": "rank_xendcg"}, "softmax": {}}[a.objective]
    return {
        **objective,
        "metric": "ndcg",
        "eval_at": [1],
        "learning_rate": a.learning_rate,
        "num_leaves": a.leaves,
        "max_depth": a.max_depth,
        "min_data_in_leaf": a.min_leaf,
        "feature_fraction": a.feature_fraction,
        "bagging_fraction": a.bagging,
        "bagging_freq": 1 if a.bagging < 1.0 else 0,
        "bagging_by_query": True,
        "max_bin": 255,
        "num_threads": a.threads,
        "seed": a.seed,
        "deterministic": True,
        "force_row_wise": True,
        "verbose": -1,
    }


# per-node numbers LightGBM writes for its own statistics, which neither `predict` nor
# `pred_contrib` (TreeSHAP reads the counts) nor haifu reads: half the gzipped model
UNUSED_KEYS = ("split_gain=", "leaf_weight=", "internal_value=", "internal_weight=")


def compact(text):
    """The model text without UNUSED_KEYS' lines, with the header's `tree_sizes` (each tree's
    length in characters, which LightGBM checks when it loads) recounted. LightGBM loads it and
    predicts, and gives contributions, exactly as from the full text; the repository's 2 MB then
    holds about twice the rounds."""
    head, rest = text.split("\nTree=", 1)
    end = rest.index("end of trees")
    trees, tail = "Tree=" + rest[:end], rest[end:]
    blocks = [b for b in re.split(r"(?=^Tree=)", trees, flags=re.M) if b]
    kept = ["\n".join(line for line in b.split("\n") if not line.startswith(UNUSED_KEYS)) for b in blocks]
    head = re.sub(r"^tree_sizes=.*$", "tree_sizes=" + " ".join(str(len(b)) for b in kept), head, flags=re.M)
    if not re.search(r"^objective=", head, flags=re.M):
        # a custom objective (--objective softmax) leaves the line out; LightGBM reads
        # `objective=custom` back as raw scores, and haifu's reader wants the line
        head = head.replace("\nfeature_names=", "\nobjective=custom\nfeature_names=", 1)
    return head + "\n" + "".join(kept) + tail


def model_text(booster, rounds):
    """The first `rounds` rounds as the text the repository holds (`compact`)."""
    return compact(booster.model_to_string(num_iteration=rounds))


def gzipped(text):
    """The text gzipped with mtime 0 and no file name, so the same model gives the same bytes."""
    raw = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as f:
        f.write(text.encode())
    return raw.getvalue()


def rounds_within(booster, rounds, max_bytes):
    """The most rounds, at most `rounds`, whose gzipped model is at most `max_bytes` long (the
    first rounds of a boosted model are a model of their own: the repository holds 2 MB)."""
    size = lambda n: len(gzipped(model_text(booster, n)))
    if max_bytes is None or size(rounds) <= max_bytes:
        return rounds
    lo, hi = 1, rounds  # size(lo) is assumed to fit; size(hi) does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if size(mid) <= max_bytes else (lo, mid)
    return lo


def load_model(path):
    """A LightGBM text model, gzipped (as `write_model` writes it) or plain: LightGBM's own
    `model_file` reads plain text only."""
    if path.endswith(".gz"):
        with gzip.open(path, "rt") as f:
            return lgb.Booster(model_str=f.read())
    return lgb.Booster(model_file=path)


def check_compact(booster, text, rows, rounds):
    """Refuses a compact text (`compact`) that LightGBM does not read back to the same scores and
    contributions as the booster it came from, on `rows`."""
    back = lgb.Booster(model_str=text)
    for contrib in [False, True]:
        want = booster.predict(rows, num_iteration=rounds, pred_contrib=contrib)
        got = back.predict(rows, pred_contrib=contrib)
        if not np.array_equal(want, got):
            raise SystemExit(f"the compact model scores differently (pred_contrib={contrib}): {np.abs(want - got).max()}")


def write_model(booster, path, rounds, rows=None):
    """The first `rounds` rounds of the model, gzipped (`gzipped`); returns the file's sha256.
    With `rows`, the text is first checked to score them as the booster does (`check_compact`)."""
    text = model_text(booster, rounds)
    if rows is not None:
        check_compact(booster, text, rows, rounds)
    data = gzipped(text)
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)
    return hashlib.sha256(data).hexdigest()


def checkpoint(path, every=50):
    """A callback writing the model so far (every round, uncut) to `path` every `every` rounds: a
    run stopped before its end (the long one on every decision) leaves a model to score, and the
    last one is the uncut model beside the cut one `--max-bytes` ships."""

    def cb(env):
        if (env.iteration + 1) % every == 0:
            write_model(env.model, path, env.iteration + 1)

    return cb


def train(params, sets, names, rounds, started, checkpoint_path, objective="lambdarank"):
    """LightGBM on the training split's chunks, early-stopped on the validation split."""
    seqs, y, g = sets["train"]
    if objective == "softmax":
        # LightGBM 4.7's bagging by query leaves a custom objective's trees empty (ndcg stays at
        # its first value): bag rows instead; the gradients are still those of whole decisions
        params = {**params, "objective": softmax_objective(g), "bagging_by_query": False}
    data = lgb.Dataset(seqs, label=y, group=g, feature_name=names, free_raw_data=True, params={"max_bin": 255})
    vs, vy, vg = sets["validation"]
    val = lgb.Dataset(vs, label=vy, group=vg, reference=data)
    stop = [lgb.early_stopping(30, verbose=False), lgb.log_evaluation(10), elapsed(started), checkpoint(checkpoint_path)]
    return lgb.train(params, data, rounds, valid_sets=[val], callbacks=stop)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data")
    ap.add_argument("--out", required=True, help="the gzipped LightGBM text model to write")
    ap.add_argument("--kind", default="discard", choices=["discard", "riichi", "call"])
    ap.add_argument("--tables", default="houou,tokujou")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4, choices=[3, 4], help="the variant: decisions of 4- or 3-player games")
    ap.add_argument("--objective", default="lambdarank", choices=["lambdarank", "xendcg", "softmax"], help="lambdarank (truncation 3, the shipped models), LightGBM's rank_xendcg, or softmax: the listwise cross-entropy of the chosen option, a custom objective")
    ap.add_argument("--rounds", type=int, default=400)
    ap.add_argument("--leaves", type=int, default=127)
    ap.add_argument("--learning-rate", type=float, default=0.1)
    ap.add_argument("--min-leaf", type=int, default=100)
    ap.add_argument("--max-depth", type=int, default=-1, help="a depth limit on every tree (-1: none): shallower trees score faster")
    ap.add_argument("--feature-fraction", type=float, default=0.5)
    ap.add_argument("--bagging", type=float, default=0.5, help="share of the training decisions each round sees")
    ap.add_argument("--fraction", type=float, default=1.0, help="train on this share of the training games")
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--without", default="", help="leave these families of the cache out (context, relative, margin, table, reading, danger, all_last, seat_reading, furiten_risk, seats): an ablation")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--cache", default=None, help="chunk folder (default: DATA/../trees-cache/KIND-FAMILIES)")
    ap.add_argument("--report", default=None)
    ap.add_argument("--max-bytes", type=int, default=None, help="keep the most rounds whose gzipped model fits this many bytes (the shipped model: 2000000)")
    ap.add_argument("--evaluate", action="store_true", help="score the model at --out instead of training one")
    a = ap.parse_args()
    started = time.time()
    families = a.families.split(",")
    cache = a.cache or os.path.join(os.path.dirname(os.path.abspath(a.data)), "trees-cache", f"{a.kind}-{a.tables}-{a.seed}-{'+'.join(families)}" + ("" if a.players == 4 else f"-{a.players}p"))
    kept = kept_decisions(a.data, a.kind, a.tables.split(","), a.seed, a.players)
    manifest = build_cache(a.data, kept, families, cache)
    names = manifest["features"]
    columns = None
    if a.without:
        drop = set()
        for f in a.without.split(","):
            drop |= set(without_names(f, names))
        columns = np.array([i for i, n in enumerate(names) if n not in drop])
        names = [names[i] for i in columns]
    sets = {s: load_split(manifest, s, a.fraction if s == "train" else 1.0, columns) for s in SPLITS}
    for s, (_, y, g) in sets.items():
        print(f"{s}: {len(g)} decisions, {len(y)} options", file=sys.stderr)
    params = params_of(a)
    if a.evaluate:
        # score an existing model (--out) on the splits instead of training one
        booster = load_model(a.out)
        digest = hashlib.sha256(open(a.out, "rb").read()).hexdigest()
        rounds = booster.current_iteration()
    else:
        # the checkpoint lives with the cache, not beside the model (data/weights is the repository's)
        booster = train(params, sets, names, a.rounds, started, os.path.join(cache, "checkpoint-" + os.path.basename(a.out)), a.objective)
        best = booster.best_iteration if booster.best_iteration > 0 else booster.current_iteration()
        rounds = rounds_within(booster, best, a.max_bytes)
        first = sets["validation"][0][0]
        digest = write_model(booster, a.out, rounds, first[0 : min(len(first), 2000)])
    metrics = {}
    scored = {}
    for s in ["validation", "test"]:
        seqs_s, y_s, g_s = sets[s]
        scores = scores_of(booster, seqs_s, rounds)
        scored[s] = (scores, y_s, g_s)
        metrics[s] = agreement(scores, y_s.astype(bool), g_s)
        if s == "test":
            metrics["test_houou"] = houou_agreement(manifest, scores, y_s, g_s)
    out = {
        "model": "lightgbm " + a.objective,
        "kind": a.kind,
        "tables": a.tables,
        "families": families,
        "without": a.without,
        "params": params,
        "features": len(names),
        "fraction": a.fraction,
        "decisions": {s: int(len(sets[s][2])) for s in SPLITS},
        "options": {s: int(len(sets[s][1])) for s in SPLITS},
        "split_seed": a.seed,
        "iterations": rounds,
        "max_bytes": a.max_bytes,
        "metrics": metrics,
        "calibration": calibration(scored["validation"], scored["test"]),
        "model_file": os.path.basename(a.out),
        "model_bytes": os.path.getsize(a.out),
        "model_sha256": digest,
        "cost": {
            "wall_seconds": round(time.time() - started, 1),
            "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        },
    }
    if a.report:
        with open(a.report + ".tmp", "w") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
        os.replace(a.report + ".tmp", a.report)
    print(json.dumps({"test": metrics["test"], "cost": out["cost"], "iterations": out["iterations"]}), file=sys.stderr)


if __name__ == "__main__":
    main()
