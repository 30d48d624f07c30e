"""haifu.decisions() against `haifu ingest` to parquet + pl.read_parquet on the ingest bench's
games (every k-th of the sorted top-level *.mjlog of ../shared/data/tenhou, 40 of them), ABBA
order, medians of wall time. Run with a release build of both:

    cargo build --release && pip install ./python   (in a virtual environment)
    python python/bench/decisions.py [--games 40] [--runs 3] [--jobs 2] [--bin target/release/haifu]
"""

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import polars as pl

import haifu

REPO = Path(__file__).resolve().parents[2]


def games(n):
    shared = Path(os.environ.get("HAIFU_SHARED", REPO.parent / "shared"))
    files = sorted(p for p in (shared / "data" / "tenhou").iterdir() if p.name.endswith(".mjlog") and p.is_file())
    step = max(1, len(files) // n)
    return files[::step][:n]


def cli(binary, files, jobs):
    with tempfile.TemporaryDirectory() as d:
        t = time.perf_counter()
        subprocess.run([str(binary), "ingest", "--out", d + "/ds", "--jobs", str(jobs), *map(str, files)], check=True, capture_output=True)
        frames = {t_: pl.read_parquet(f"{d}/ds/{t_}/*.parquet") for t_ in haifu.TABLES}
        return time.perf_counter() - t, frames


def py(files, jobs):
    t = time.perf_counter()
    frames = haifu.decisions(files, jobs=jobs)
    return time.perf_counter() - t, frames


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bin", default=str(REPO / "target/release/haifu"))
    a = ap.parse_args()
    files = games(a.games)
    py(files[:2], a.jobs)  # warm-up (file cache, pools)
    tp, tc = [], []
    for r in range(a.runs):
        order = [("py", "cli"), ("cli", "py")][r % 2]
        for which in order:
            if which == "py":
                s, fp = py(files, a.jobs)
                tp.append(s)
            else:
                s, fc = cli(a.bin, files, a.jobs)
                tc.append(s)
    same = all(fp[t].equals(fc[t], null_equal=True) for t in haifu.TABLES)
    mp, mc = statistics.median(tp), statistics.median(tc)
    print(f"{len(files)} games, {fp['decisions'].height} decisions, {fp['options'].height} options, jobs {a.jobs}, {a.runs} runs each")
    print(f"haifu.decisions()               median {mp:.2f} s  {sorted(round(x, 2) for x in tp)}")
    print(f"haifu ingest + pl.read_parquet  median {mc:.2f} s  {sorted(round(x, 2) for x in tc)}")
    print(f"ratio decisions / (ingest + read) = {mp / mc:.3f}; frames equal: {same}")


if __name__ == "__main__":
    main()
