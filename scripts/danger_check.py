"""Train equals use for the danger models (`make danger-check`): the values haifu serves
(`features::danger`, written by `examples/danger_rows.rs --models DIR` as `p_tenpai`, `p_deal_in`,
`e_points`) against LightGBM's own `predict` of the same model files on the same rows' inputs.
Exits 1 when any value differs by more than `--tolerance` (default 1e-9).

With `--waits DATA` (an `haifu ingest` of the same paths, in the same order), also checks that the
rows' labels are the `waits` table's: every row finds its decision and opponent there, with the
same tenpai flag, winning-kind bit and ron points, so the models can be refitted from the table.

    scripts/danger_check.py ROWS_DIR MODELS_DIR [--waits DATA]
"""
import argparse
import gzip
import os
import sys

import lightgbm as lgb
import numpy as np
import polars as pl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from danger import FILES, input_names, opponent_names  # noqa: E402


def booster(models, what):
    with open(os.path.join(models, FILES[what]), "rb") as f:
        return lgb.Booster(model_str=gzip.decompress(f.read()).decode())


def check_labels(df, data):
    """The rows' labels against the `waits` table of the ingest in `data` (see the module doc)."""
    w = pl.read_parquet(os.path.join(data, "waits", "*.parquet"))
    j = df.select("decision_id", "opponent", "kind", "y_tenpai", "y_wait", "y_points").join(
        w, on=["decision_id", "opponent"], how="left"
    )
    if j["tenpai"].null_count():
        raise SystemExit(f"FAILED: {j['tenpai'].null_count()} rows without their waits row")
    kinds = [f"ron_{n}{s}" for s in "mps" for n in range(1, 10)] + [f"ron_{n}z" for n in range(1, 8)]
    k = j["kind"].to_numpy().astype(np.int64)
    points = j.select(kinds).to_numpy()[np.arange(len(k)), k]
    bit = (j["waits"].to_numpy() >> k.astype(np.uint64)) & 1
    same = (
        (j["y_tenpai"] == j["tenpai"]).all()
        and bool((points == j["y_points"].to_numpy()).all())
        and bool(((bit == 1) == j["y_wait"].to_numpy()).all())
    )
    if not same:
        raise SystemExit("FAILED: the rows' labels differ from the waits table")
    print(f"labels: {j.height:,} rows equal the waits table of {data} ({w.height:,} rows)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rows")
    ap.add_argument("models")
    ap.add_argument("--tolerance", type=float, default=1e-9)
    ap.add_argument("--waits", help="an ingest of the same paths: check the labels against its waits table")
    a = ap.parse_args()
    df = pl.read_parquet(os.path.join(a.rows, "rows.parquet"))
    if a.waits:
        check_labels(df, a.waits)
    names = input_names(df)
    worst = 0.0
    for what, cols, served in [
        ("tenpai", opponent_names(names), "p_tenpai"),
        ("dealin", names, "p_deal_in"),
        ("points", names, "e_points"),
    ]:
        b = booster(a.models, what)
        if b.feature_name() != list(cols):
            raise SystemExit(f"{what}: the model's features are not the rows' columns")
        want = b.predict(df.select(cols).to_numpy().astype(np.float32).astype(np.float64))
        got = df[served].to_numpy()
        diff = float(np.max(np.abs(want - got)))
        worst = max(worst, diff)
        print(f"{what}: {df.height:,} rows, haifu against LightGBM predict: max |difference| {diff:.3g}")
    if worst > a.tolerance:
        print(f"FAILED: above {a.tolerance}")
        sys.exit(1)
    print(f"ok: every served value within {a.tolerance} of LightGBM's")


if __name__ == "__main__":
    main()
