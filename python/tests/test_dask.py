"""The README's Dask recipe: one haifu.ingest task per shard on a LocalCluster with 2 workers, the
shards' parts gathered in one folder, equal to a one-process run (runs when dask[distributed]
is installed, skipped otherwise; on shared games when they are there, else on games `haifu
simulate` plays, so it runs without ../shared too)."""

import shutil

import polars as pl
import pytest

import haifu

KEYS = {"games": ["game_id"], "rounds": ["game_id", "round_index"], "decisions": ["decision_id"], "options": ["decision_id", "option"]}


def test_dask_shards_union_equals_one_run(some_games, tmp_path):
    distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed")
    games = [str(g) for g in some_games]
    n = 3
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            tasks = [
                client.submit(haifu.ingest, games, str(tmp_path / f"shard-{i}"), shard=(i, n), jobs=1, part_games=2)
                for i in range(n)
            ]
            summaries = client.gather(tasks)
    union = tmp_path / "union"
    for i in range(n):
        shutil.copytree(tmp_path / f"shard-{i}", union, dirs_exist_ok=True)  # part numbers never clash
    whole = haifu.ingest(games, tmp_path / "whole", jobs=2, part_games=2)
    assert sum(s["games"] for s in summaries) == whole["games"] == len(games)
    a, b = haifu.scan(union), haifu.scan(tmp_path / "whole")
    for table, key in KEYS.items():
        x, y = a[table].collect().sort(key), b[table].collect().sort(key)
        assert x.equals(y, null_equal=True), table
