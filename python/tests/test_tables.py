"""Tables: decisions() equals what `haifu ingest` writes (every table, every column), ingest()
writes the parts the command line writes, scan() opens them, the frames cross into pyarrow and
duckdb, features() of a live position equals the dataset's rows, and the error paths."""

import json
import os
import threading
import _thread

import polars as pl
import pytest

import haifu
from haifu import _haifu
from conftest import run_cli

N_GAMES = int(os.environ.get("HAIFU_PY_GAMES", "8"))
N_FEATURES = int(os.environ.get("HAIFU_PY_FEATURE_DECISIONS", "1000"))


@pytest.fixture(scope="module")
def games(shared_games):
    return shared_games[:N_GAMES]


@pytest.fixture(scope="module")
def cli_dataset(haifu_bin, games, tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "ds"
    summary = run_cli(haifu_bin, "ingest", "--out", out, "--json", "--jobs", "2", "--part-games", "3", *games)
    return out, summary


def _parquet(out, table):
    return pl.read_parquet(str(out / table / "*.parquet"))


def test_decisions_equal_ingest_on_every_column(games, cli_dataset):
    out, summary = cli_dataset
    frames = haifu.decisions(games, jobs=2)
    rows = {}
    for table in haifu.TABLES:
        want, got = _parquet(out, table), frames[table]
        assert got.columns == want.columns, table
        assert got.schema == want.schema, table
        assert got.equals(want, null_equal=True), table
        rows[table] = got.height
    assert rows["decisions"] == summary["decisions"] and rows["options"] == summary["options"]
    assert rows["games"] == len(games)
    print(f"decisions() == ingest parquet: {rows}, {frames['options'].width} option columns")


def test_decisions_skip_and_with(games, cli_dataset):
    full = haifu.decisions(games[:2], with_=["ukeire2"])["options"]
    assert "ukeire2_avg" in full.columns
    noev = haifu.decisions(games[:2], skip="ev")["options"]
    assert "ev" not in noev.columns and "ev" in full.columns
    assert noev.equals(full.drop([c for c in full.columns if c not in noev.columns]))


def test_ingest_writes_the_cli_parts(games, cli_dataset, tmp_path):
    out, want = cli_dataset
    got = haifu.ingest(games, tmp_path / "ds", jobs=2, part_games=3)
    timing = {k for k in want if k.startswith("writer_")}
    assert {k: v for k, v in got.items() if k not in timing} == {k: v for k, v in want.items() if k not in timing}
    for table in haifu.TABLES:
        names = sorted(p.name for p in (out / table).iterdir())
        assert names == sorted(p.name for p in (tmp_path / "ds" / table).iterdir())
        for n in names:
            assert (out / table / n).read_bytes() == (tmp_path / "ds" / table / n).read_bytes(), n


def test_scan_opens_the_parts_lazily(cli_dataset):
    out, _ = cli_dataset
    lazy = haifu.scan(out)
    assert set(lazy) == set(haifu.TABLES)
    for table, lf in lazy.items():
        assert isinstance(lf, pl.LazyFrame)
        assert lf.collect().equals(_parquet(out, table), null_equal=True)


def test_streams_cross_into_pyarrow_and_duckdb(games):
    pa = pytest.importorskip("pyarrow")
    duckdb = pytest.importorskip("duckdb")
    streams, _ = _haifu.decisions([str(g) for g in games[:2]], "", "", 2, (0, 1), False)
    table = pa.table(streams["decisions"])
    polars_frame = haifu.decisions(games[:2])["decisions"]
    assert table.num_rows == polars_frame.height and table.column_names == polars_frame.columns
    assert pl.from_arrow(table).equals(polars_frame)
    options = streams["options"]
    n = duckdb.sql("select count(*) as n, sum(chosen::int) as c from options").fetchall()[0]
    assert n[0] == haifu.decisions(games[:2])["options"].height and n[1] == polars_frame.height
    # a stream can be read again (duckdb reads the schema first), sharing the same buffers: the
    # columns were not copied on the way out
    again = pa.table(streams["decisions"])
    assert again.equals(table)
    for name in ["decision_id", "game_id", "score_0"]:
        a, b = table.column(name).chunks[0].buffers(), again.column(name).chunks[0].buffers()
        assert [x.address for x in a if x is not None] == [x.address for x in b if x is not None], name


def test_features_of_live_positions_equal_the_datasets_rows(games):
    """For discard decisions of shared games, the rows features(events, seat) gives at the
    position (the game's mjai events up to the decision) equal the dataset's rows, every column."""
    compared, tables = 0, haifu.decisions(games, with_="ukeire2")
    decisions = tables["decisions"].filter(pl.col("kind") == "discard")
    options = tables["options"]
    columns = [c for c in options.columns if c not in ("decision_id", "chosen")]
    for g in games:
        events = haifu.mjai_events(g)[0]
        game_id = tables["games"]["game_id"][[str(g).endswith(x + ".mjlog") for x in tables["games"]["game_id"]].index(True)]
        mine = decisions.filter(pl.col("game_id") == game_id)
        want_rows = options.join(mine.select("decision_id", "hand", "seat"), on="decision_id")
        by_id = {k[0]: v for k, v in want_rows.group_by("decision_id", maintain_order=True)}
        queue = list(mine.select("decision_id", "seat", "hand").iter_rows())
        at = 0
        for i, e in enumerate(events):
            if at >= len(queue) or compared >= N_FEATURES:
                break
            if e["type"] != "dahai":
                continue
            did, seat, hand = queue[at]
            if e["actor"] != seat:
                continue
            cut = i - 1 if events[i - 1]["type"] == "reach" else i
            got = haifu.features(events[:cut] if cut == i else events[: cut + 1], seat=seat)
            want = by_id[did].select(columns)
            if got.height != want.height:
                continue
            at += 1
            assert got.select(columns).equals(want, null_equal=True), (g.name, did)
            compared += 1
    print(f"features(events, seat) == dataset rows on {compared} decisions")
    assert compared >= min(N_FEATURES, 200)


@pytest.mark.parametrize("kind", ["riichi", "call"])
def test_features_of_live_riichi_and_call_decisions_equal_the_datasets_rows(games, kind):
    """Riichi decisions (right after the seat's draw) and call decisions (right after another
    seat's discard): features(events, seat, kind) at the position equals the dataset's rows, the
    option labels and every column, matched to the dataset's decisions in order."""
    tables = haifu.decisions(games[:40], with_="ukeire2")
    decisions = tables["decisions"].filter(pl.col("kind") == kind).sort("decision_id")
    options = tables["options"]
    columns = [c for c in options.columns if c not in ("decision_id", "chosen")]
    compared = 0
    for g in games[:40]:
        events = haifu.mjai_events(g)[0]
        game_id = tables["games"]["game_id"][[str(g).endswith(x + ".mjlog") for x in tables["games"]["game_id"]].index(True)]
        # Each position keyed as the decisions table places it: round, honba, wall left, seat.
        produced, round_key, drawn = {}, None, 0
        for i, e in enumerate(events):
            if e["type"] == "start_kyoku":
                round_key = ("ESWN".index(e["bakaze"]) * 4 + e["kyoku"] - 1, e["honba"])
                drawn = 0
            elif e["type"] == "tsumo":
                drawn += 1
            if kind == "riichi" and e["type"] == "tsumo":
                seats = [e["actor"]]
            elif kind == "call" and e["type"] == "dahai":
                seats = [(e["actor"] + d) % 4 for d in (1, 2, 3)]
            else:
                continue
            for seat in seats:
                try:
                    produced[(*round_key, 70 - drawn, seat)] = haifu.features(events[: i + 1], seat=seat, kind=kind)
                except haifu.RecordError:
                    pass
        mine = decisions.filter(pl.col("game_id") == game_id)
        for did, rnd, honba, wall, seat in mine.select("decision_id", "round", "honba", "wall_left", "seat").iter_rows():
            got = produced.get((rnd, honba, wall, seat))
            want = options.filter(pl.col("decision_id") == did)
            if got is None or got.height != want.height:
                continue  # a call whose chi options a pon elsewhere took away, as the recorder keeps it
            assert got.select(columns).equals(want.select(columns), null_equal=True), (g.name, did)
            compared += 1
    print(f"features(events, seat, kind={kind!r}) == dataset rows on {compared} decisions")
    assert compared >= 20


def test_features_of_a_position_dict():
    pos = {"shoupai": "m123p456s789z1122z3", "zhuangfeng": 0, "menfeng": 1, "baopai": ["s1"]}
    f = haifu.features(pos)
    assert f.columns[0] == "option" and f.height == len(set(f["option"]))
    assert set(f["option"]) == {"1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "2z", "3z"}
    assert f.equals(haifu.features(json.dumps(pos)))


def test_features_errors():
    with pytest.raises(haifu.InputError):
        haifu.features({"shoupai": "m1"})
    with pytest.raises(haifu.InputError, match="seat"):
        haifu.features([{"type": "start_game"}])
    with pytest.raises(haifu.RecordError):
        haifu.features(["not json"], seat=0)
    with pytest.raises(haifu.InputError, match="kind"):
        haifu.features([{"type": "start_game"}], seat=0, kind="tsumo")


def test_ingest_errors(games, tmp_path):
    out = tmp_path / "ds"
    haifu.ingest(games[:1], out)
    with pytest.raises(haifu.DatasetError, match="is not empty: pass --resume"):
        haifu.ingest(games[:1], out)
    with pytest.raises(haifu.InputError, match="exclude"):
        haifu.ingest(games[:1], out, resume=True, force=True)
    with pytest.raises(haifu.InputError, match="shard"):
        haifu.ingest(games[:1], out, shard=(3, 2))
    with pytest.raises(haifu.InputError):
        haifu.ingest(games[:1], out, skip="nothing")
    with pytest.raises(haifu.InputError, match="both"):
        haifu.decisions(games[:1], skip="ev", with_="ev")
    with pytest.raises(haifu.InputError, match="no table"):
        _haifu.table_files(str(out), "nothing")
    with pytest.raises(haifu.DatasetError):
        haifu.scan(tmp_path / "nothing")


def test_failed_records_warn(tmp_path):
    with pytest.warns(UserWarning, match="1 record"):
        frames = haifu.decisions([tmp_path / "missing.mjlog"])
    assert frames["decisions"].height == 0 and frames["options"].width > 100


def test_a_panic_is_an_exception():
    with pytest.raises(haifu.InternalError, match="boom"):
        _haifu._panic("boom")


def test_ctrl_c_stops_ingest_and_resume_finishes(shared_games, tmp_path):
    games = shared_games[:30]
    out = tmp_path / "ds"
    timer = threading.Timer(1.0, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            haifu.ingest(games, out, jobs=2, part_games=2)
    finally:
        timer.cancel()
    kept = len(list((out / "_parts").glob("*.json"))) if (out / "_parts").exists() else 0
    assert kept < 15
    done = haifu.ingest(games, out, jobs=2, part_games=2, resume=True)
    assert done["parts_kept"] == kept and done["parts_written"] == 15 - kept
    assert done["games"] == 30
