"""Writes the fixture that referees haifu's reader of LightGBM models (src/model/trees/): two small
deterministic models and LightGBM's own outputs on rows both sides regenerate from a seed.

    .venv/bin/python scripts/trees_fixture.py [OUT_DIR]    (default src/model/trees/testdata)

Needs lightgbm and numpy (scripts/ceiling-requirements.txt, the venv `make ceiling` makes).

The rows are not game data: a splitmix64 stream (written again in Rust, src/model/trees/fixture.rs)
gives every value, so the Rust tests rebuild the same rows from the seed in manifest.json instead of
reading them. About 1 in 16 values is NaN and 1 in 8 is 0.0; the others are multiples of 2^-16 in
[-8, 8) or small integers, exact in f32 and f64 alike.

- `rank`: lambdarank (the objective `make trees` trains), groups of 8 rows. Half of its features
  never see NaN in training (their splits have missing type None, so a NaN there is read as 0.0)
  and half do (missing type NaN, with default-left and default-right splits).
- `binary`: the binary objective with zero_as_missing (missing type Zero: 0.0 and NaN both take
  the default side); LightGBM's predict gives probabilities, pred_contrib raw-score shares.

Each model's files: NAME.txt.gz (the model text), NAME.predict.gz (LightGBM's `predict` on the
first `predict_rows` rows) and NAME.contrib.gz (`predict(pred_contrib=True)` on the first
`contrib_rows` rows, n_features + 1 values a row). Values are i64 q = round(value * scale) (the
scales, and the largest error the rounding made, `*_rounding`, are in manifest.json), zigzag-coded (q << 1 ^ q >> 63, so small magnitudes have zero high
bytes whatever their sign) and stored byte plane by byte plane (every value's lowest byte, then
every second byte, ...), which gzip packs far tighter than the values side by side. Every
gzip member has mtime 0, so the same LightGBM version writes the same bytes.

The committed files must stay small, and a double's low bits do not compress: 100,000 predictions
of a model with arbitrary leaf values take about 470 KB at the 1e-9 the tests ask. So the `rank`
model's leaf values are rounded to multiples of 2^-10 after training (LightGBM reads the rounded
text back and writes it out itself; every output here comes from that model), which makes its
predictions exact multiples of 2^-10, stored exactly. The `binary` model keeps its leaf values as
trained (the check that every digit of a leaf value is read), on fewer rows.
"""
import gzip
import json
import os
import sys

import lightgbm as lgb
import numpy as np

M64 = (1 << 64) - 1


class SplitMix64:
    """Steele, Lea and Flood's splitmix64: the whole state is one u64."""

    def __init__(self, seed):
        self.state = seed & M64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & M64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)


def value(u, feature, nan):
    """One value from one draw `u`: the top 4 bits pick NaN (0, when `nan`), 0.0 (1, 2) or a
    number; feature j % 3 == 0 holds integers 0..8, the others multiples of 2^-16 in [-8, 8)."""
    kind = u >> 60
    if kind == 0 and nan:
        return float("nan")
    if kind <= 2:
        return 0.0
    if feature % 3 == 0:
        return float((u >> 11) % 9)
    return ((u >> 11) & 0xFFFFF) / 65536.0 - 8.0


def rows(seed, n, features, nan_features):
    """n rows of `features` values, row-major, one draw per value; features below `nan_features`
    may be NaN (the fixture rows pass nan_features = features)."""
    g = SplitMix64(seed)
    out = np.empty((n, features), dtype=np.float64)
    for i in range(n):
        for j in range(features):
            out[i, j] = value(g.next(), j, j < nan_features)
    return out


def hidden_score(x, noise):
    """What the training labels follow: non-linear, and NaN-aware, so that splits learn where
    missing values go."""
    a = np.nan_to_num(x, nan=0.0)
    nan0 = np.isnan(x[:, 0])
    s = np.sin(a[:, 1]) + 0.5 * a[:, 0] - 0.3 * np.abs(a[:, 2]) + (a[:, 3] > 2) * a[:, 4] * 0.4
    s += np.where(nan0, 1.5, 0.0) - np.where(np.isnan(x[:, 2]), 1.0, 0.0) + 0.2 * a[:, -1] * (a[:, -2] > 0)
    s += np.where(x[:, 1] == 0.0, -1.2, 0.0)
    return s + noise


def noise(seed, n):
    return np.array([(SplitMix64(seed ^ i).next() >> 11) / float(1 << 53) for i in range(n)])


def train_rank(seed):
    features, groups, size = 6, 2500, 8
    x = rows(seed, groups * size, features, nan_features=features // 2)
    s = hidden_score(x, noise(seed, len(x)))
    y = np.zeros(len(x), dtype=np.int32)
    for g in range(groups):
        order = np.argsort(-s[g * size : (g + 1) * size], kind="stable")
        y[g * size + order[0]] = 3
        y[g * size + order[1]] = 1
    params = {
        "objective": "lambdarank",
        "num_leaves": 15,
        "learning_rate": 0.1,
        "min_data_in_leaf": 20,
        "num_threads": 1,
        "seed": seed,
        "deterministic": True,
        "verbose": -1,
    }
    names = [f"f{j}" for j in range(features)]
    data = lgb.Dataset(x, y, group=[size] * groups, feature_name=names)
    return lgb.train(params, data, num_boost_round=48), features


def train_binary(seed):
    features = 6
    x = rows(seed, 12000, features, nan_features=features)
    y = (hidden_score(x, 2.0 * noise(seed, len(x))) > 0.5).astype(np.int32)
    params = {
        "objective": "binary",
        "num_leaves": 7,
        "learning_rate": 0.2,
        "min_data_in_leaf": 20,
        "zero_as_missing": True,
        "num_threads": 1,
        "seed": seed,
        "deterministic": True,
        "verbose": -1,
    }
    names = [f"z{j}" for j in range(features)]
    return lgb.train(params, lgb.Dataset(x, y, feature_name=names), num_boost_round=24), features


def round_leaves(booster, bits):
    """The same trees with every leaf value rounded to a multiple of 2^-bits, as LightGBM reads
    and writes them back (without `tree_sizes`, the byte lengths of the trees' text, which the
    edit changes: LightGBM then finds the trees by reading them in turn)."""
    lines = []
    for line in booster.model_to_string().splitlines():
        if line.startswith("tree_sizes="):
            continue
        if line.startswith("leaf_value="):
            values = [round(float(v) * 2**bits) / 2**bits for v in line.split("=", 1)[1].split()]
            line = "leaf_value=" + " ".join(repr(v) for v in values)
        lines.append(line)
    return lgb.Booster(model_str="\n".join(lines) + "\n")


def write_gz(path, data):
    with open(path, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0, compresslevel=9) as z:
            z.write(data)


def planes(values, scale):
    """round(value * scale) as i64, zigzag-coded, byte plane by byte plane (see the module doc),
    and the largest |stored - value| the rounding made."""
    v = np.asarray(values, dtype=np.float64).ravel()
    q = np.round(v * scale).astype(np.int64)
    z = ((q << 1) ^ (q >> 63)).astype("<u8")
    return z.view(np.uint8).reshape(-1, 8).T.copy().tobytes(), float(np.max(np.abs(q / scale - v)))


def decision_types(booster):
    """How many splits of each decision_type the model holds: the fixture must exercise them."""
    counts = {}
    for line in booster.model_to_string().splitlines():
        if line.startswith("decision_type="):
            for t in line.split("=", 1)[1].split():
                counts[t] = counts.get(t, 0) + 1
    return dict(sorted(counts.items()))


def write_model(out, name, booster, features, spec):
    """The model text and LightGBM's outputs on the rows of `spec` (see the module doc)."""
    text = booster.model_to_string()
    reloaded = lgb.Booster(model_str=text)
    x = rows(spec["row_seed"], spec["predict_rows"], features, nan_features=features)
    predictions = reloaded.predict(x)
    if not np.array_equal(predictions, booster.predict(x)):
        sys.exit(f"{name}: the reloaded model predicts differently")
    contributions = reloaded.predict(x[: spec["contrib_rows"]], pred_contrib=True)
    stored_predictions, predict_rounding = planes(predictions, spec["predict_scale"])
    stored_contributions, contrib_rounding = planes(contributions, spec["contrib_scale"])
    write_gz(os.path.join(out, f"{name}.txt.gz"), text.encode())
    write_gz(os.path.join(out, f"{name}.predict.gz"), stored_predictions)
    write_gz(os.path.join(out, f"{name}.contrib.gz"), stored_contributions)
    return dict(
        spec,
        predict_rounding=predict_rounding,
        contrib_rounding=contrib_rounding,
        features=features,
        trees=reloaded.num_trees(),
        decision_types=decision_types(reloaded),
    )


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "src/model/trees/testdata"
    os.makedirs(out, exist_ok=True)
    rank, rank_features = train_rank(seed=53)
    binary, binary_features = train_binary(seed=54)
    rank_spec = {"row_seed": 0x7E57, "predict_rows": 100_000, "contrib_rows": 10_000}
    binary_spec = {"row_seed": 0xB1A7, "predict_rows": 10_000, "contrib_rows": 1_000}
    manifest = {
        "lightgbm": lgb.__version__,
        "rank": write_model(
            out, "rank", round_leaves(rank, 10), rank_features,
            dict(rank_spec, leaf_bits=10, predict_scale=2.0**10, contrib_scale=2.0**22),
        ),
        "binary": write_model(
            out, "binary", binary, binary_features, dict(binary_spec, predict_scale=2.0**34, contrib_scale=2.0**22)
        ),
    }
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    print(json.dumps(manifest, indent=2))


if __name__ == "__main__":
    main()
