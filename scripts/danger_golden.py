"""The golden values of the Rust test `features::danger::tests::served_values_are_lightgbms` (run by
`make danger-golden` after `make danger`): LightGBM's own `predict`, with the shipped model files,
of the rows `examples/danger_rows.rs` wrote for FILES (the inputs haifu builds; not haifu's served
values), a sample of every STEP-th row, as JSON lines keyed by the file's name, the decision's
index in its game, the opponent and the kind.

    scripts/danger_golden.py ROWS_DIR MODELS_DIR OUT.jsonl FILES... [--step 7]
"""
import argparse
import json
import os
import sys

import numpy as np
import polars as pl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from danger import input_names, opponent_names  # noqa: E402
from danger_check import booster  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rows")
    ap.add_argument("models")
    ap.add_argument("out")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--step", type=int, default=7)
    a = ap.parse_args()
    df = pl.read_parquet(os.path.join(a.rows, "rows.parquet"))[:: a.step]
    names = input_names(df)
    x = df.select(names).to_numpy().astype(np.float32).astype(np.float64)
    xo = df.select(opponent_names(names)).to_numpy().astype(np.float32).astype(np.float64)
    pt = booster(a.models, "tenpai").predict(xo)
    pd = booster(a.models, "dealin").predict(x)
    pp = booster(a.models, "points").predict(x)
    with open(a.out, "w") as f:
        for i, r in enumerate(df.select("decision_id", "opponent", "kind").iter_rows()):
            d, o, k = r
            line = {"file": os.path.basename(a.files[d // 100000]), "k": d % 100000, "opponent": o, "kind": k,
                    "tenpai": pt[i], "deal_in": pd[i], "points": pp[i]}
            f.write(json.dumps(line) + "\n")
    print(f"wrote {a.out}: {df.height} rows")


if __name__ == "__main__":
    main()
