"""Train equals use for the danger models (`make danger-check`): the values haifu serves
(`model::danger`, written by `examples/danger_rows.rs --models DIR` as `p_tenpai`, `p_deal_in`,
`e_points`) against LightGBM's own `predict` of the same model files on the same rows' inputs.
Exits 1 when any value differs by more than `--tolerance` (default 1e-9).

    scripts/danger_check.py ROWS_DIR MODELS_DIR
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rows")
    ap.add_argument("models")
    ap.add_argument("--tolerance", type=float, default=1e-9)
    a = ap.parse_args()
    df = pl.read_parquet(os.path.join(a.rows, "rows.parquet"))
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
