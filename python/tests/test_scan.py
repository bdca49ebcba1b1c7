"""pqsift.scan and its ways of reading; count, splits, inspect, explain, stats, errors."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import pqsift
from conftest import cli_error, cli_rows, run_cli, sample_frame, write_frame


def test_events_to_pandas_matches_the_cli(cli, events):
    df = pqsift.scan(events).to_pandas()
    rows = cli_rows(events)
    assert len(df) == len(rows) == 20000
    assert list(df.columns) == list(rows[0].keys())
    assert df["id"].tolist() == [r["id"] for r in rows]
    assert df["region"].tolist() == [r["region"] for r in rows]
    assert [str(t) for t in df["ts"]] == [r["ts"] for r in rows]


def test_columns_filter_limit_order_by(cli, events):
    s = pqsift.scan(events, columns=["id", "qty"], filter="qty > 90 AND id < 5000", limit=7)
    df = s.to_pandas()
    expected = cli_rows(events, "--select", "id,qty", "--where", "qty > 90 AND id < 5000",
                        "--limit", "7")
    assert df.to_dict("records") == expected
    top = pqsift.scan(events, columns=["id"], order_by="price DESC, id", limit=3).to_pandas()
    expected = cli_rows(events, "--select", "id", "--order-by", "price DESC, id", "--limit", "3")
    assert top["id"].tolist() == [r["id"] for r in expected]


def test_iteration_gives_batches_of_the_whole_result(events):
    s = pqsift.scan(events, columns=["id", "price"], batch_size=3000)
    batches = list(s)
    assert max(len(b) for b in batches) == 3000  # at most batch_size (cut at row groups too)
    assert sum(b.num_rows for b in batches) == 20000
    ids = np.concatenate([b.to_numpy()["id"] for b in batches])
    assert (ids == np.arange(20000)).all()
    assert batches[0].column_names == ["id", "price"]
    assert isinstance(batches[0].to_pandas(), pd.DataFrame)


def test_to_numpy_arrays_and_validity(tmp_path):
    df = sample_frame(1000)
    path = write_frame(df, tmp_path / "t.parquet")
    arrays = pqsift.scan(path).to_numpy()
    assert arrays["id"].dtype == np.int64 and (arrays["id"] == df["id"].to_numpy()).all()
    assert arrays.valid["id"] is None
    valid = arrays.valid["amount"]
    assert valid is not None and (valid == ~df["amount"].isna().to_numpy()).all()
    assert (arrays["amount"][valid] == df["amount"].dropna().to_numpy()).all()
    assert (arrays["amount"][~valid] == 0).all()
    assert arrays["ts"].dtype == np.dtype("datetime64[ns]")
    assert arrays["name"].dtype == object


def test_count_matches_the_cli(cli, events):
    for where in ("", "qty > 95", "region = 'eu' AND id >= 100"):
        args = [events] + (["--where", where] if where else [])
        expected = int(run_cli("count", *args).stdout)
        assert pqsift.count(events, filter=where or None) == expected
        assert pqsift.scan(events, filter=where or None).count() == expected


def test_explain_is_the_cli_json(cli, events):
    where = "id BETWEEN 1000 AND 1999"
    plan = pqsift.scan(events, filter=where).explain()
    expected = json.loads(run_cli("explain", events, "--where", where, "--json").stdout)
    # Stage timings differ run to run, and what was read so far depends on the process's
    # footer cache; everything else is the same plan.
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items()
                    if "seconds" not in k and k not in ("bytes_read_so_far", "footers_read")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    assert strip(plan) == strip(expected)
    decisions = [rg["decision"] for f in plan["files"] for rg in f["row_groups"]]
    assert "skip" in decisions


def test_explain_keeps_every_verdict_and_the_pages(cli, events):
    # The library's plan (pqsift/plan.h), not a re-rendering: every stage's verdict with its
    # evidence, and per column chunk its pages with their fates, adding up to the row group.
    where = "id BETWEEN 1000 AND 1999"
    plan = pqsift.scan(events, filter=where).explain(chunks=True)
    cli_plan = json.loads(run_cli("explain", events, "--where", where, "--json", "--chunks").stdout)
    assert [f["row_groups"] for f in plan["files"]] == [f["row_groups"] for f in cli_plan["files"]]
    groups = [rg for f in plan["files"] for rg in f["row_groups"]]
    assert all(f["fate"] == "opened" for f in plan["files"])
    for rg in groups:
        if rg["decided_by"]:
            assert rg["verdicts"][-1]["stage"] == rg["decided_by"]
            assert all(v["evidence"] for v in rg["verdicts"])
        pruned = sum(v["rows_before"] - v["rows_after"] for v in rg["verdicts"])
        assert pruned + rg["rows_selected"] == rg["rows"]
        for c in rg["columns"]:
            if c["pages"]:
                assert sum(p["num_rows"] for p in c["pages"]) == rg["rows"]
                assert sum(p["rows_selected"] for p in c["pages"]) == rg["rows_selected"]
    skipped = [rg for rg in groups if rg["decision"] == "skip"]
    assert skipped and "no row can satisfy the filter" in skipped[0]["verdicts"][0]["evidence"]


def test_stats_after_reading(events):
    s = pqsift.scan(events, filter="id < 100")
    df = s.to_pandas()
    stats = s.stats()
    assert stats["rows_returned"] == len(df) == 100
    assert 0 < stats["bytes_read"] < stats["file_bytes"]
    assert stats["row_groups_skipped"] > 0


def test_splits_cover_the_scan_once(events, tmp_path):
    parts = pqsift.splits(events, target_bytes=20_000)
    assert len(parts) > 1
    assert all(isinstance(p, pqsift.Split) for p in parts)
    ids = np.concatenate([pqsift.scan(split=p, columns=["id"]).to_numpy()["id"] for p in parts])
    assert (np.sort(ids) == np.arange(20000)).all()
    via_text = pqsift.scan(split=str(parts[1]), columns=["id"]).to_numpy()["id"]
    assert len(via_text) == parts[1].rows
    pruned = pqsift.splits(events, target_bytes=20_000, filter="id < 10")
    assert len(pruned) == 1 and pruned[0].rows < 20000


def test_inspect_is_the_cli_json(cli, events):
    assert pqsift.inspect(events) == json.loads(run_cli("inspect", "--json", events).stdout)


def test_paths_folders_globs_and_hive(hive_dataset):
    everything = pqsift.scan(hive_dataset, columns=["id", "day", "region"]).to_pandas()
    assert len(everything) == 16000
    assert set(everything["region"]) == {"eu", "us"}
    one_day = pqsift.scan(str(hive_dataset / "day=*" / "region=eu" / "*.parquet"),
                          filter="day = DATE '2026-01-02'").to_pandas()
    assert len(one_day) == 2000 and set(one_day["region"]) == {"eu"}
    s = pqsift.scan([hive_dataset], filter="day = DATE '2026-01-03'")
    s.count()
    assert s.stats()["files_skipped_by_partition"] == 6


@pytest.mark.parametrize("args,kwargs", [
    (["scan", "/nonexistent/x.parquet", "--format", "none"], dict(paths="/nonexistent/x.parquet")),
    (["scan", "EVENTS", "--where", "nope = 1", "--format", "none"], dict(filter="nope = 1")),
    (["scan", "EVENTS", "--where", "id = = 1", "--format", "none"], dict(filter="id = = 1")),
    (["scan", "EVENTS", "--select", "missing", "--format", "none"], dict(columns=["missing"])),
])
def test_errors_carry_the_cli_message(cli, events, args, kwargs):
    args = [events if a == "EVENTS" else a for a in args]
    expected = cli_error(*args)
    assert expected
    paths = kwargs.pop("paths", events)
    with pytest.raises(pqsift.Error) as raised:
        pqsift.scan(paths, **kwargs).to_pandas()
    assert str(raised.value) == expected


def test_error_classes(tmp_path, events):
    with pytest.raises(pqsift.IOError) as e:
        pqsift.scan(tmp_path / "missing.parquet").to_pandas()
    assert isinstance(e.value, OSError) and e.value.code == "IOError"
    with pytest.raises(pqsift.InvalidArgumentError) as e:
        pqsift.scan(events, filter="id = = 1").count()
    assert isinstance(e.value, ValueError)
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1" + b"\0" * 100 + b"PAR1")
    with pytest.raises(pqsift.CorruptionError):
        pqsift.scan(bad).to_pandas()
    with pytest.raises(pqsift.Error):
        pqsift.inspect(bad)


def test_a_scan_reads_anew_each_time(events):
    s = pqsift.scan(events, columns=["id"], limit=10)
    assert s.to_pandas()["id"].tolist() == list(range(10))
    assert s.to_pandas()["id"].tolist() == list(range(10))
    assert sum(len(b) for b in s) == 10
    assert s.columns == ["id"]


def test_filters_on_dictionary_pages_and_their_fallback_equal_plain_pages(tmp_path):
    # A string filter column read as dictionary indices (evaluated once per entry) gives the rows
    # its values give: a chunk whose dictionary outgrows its page limit falls back to PLAIN
    # mid-chunk, with NULLs, batches that cross the fallback, and filters over one and two
    # columns; the same data written without a dictionary is the reference.
    rows = 200_000
    rng = np.random.default_rng(5)
    names = [f"v{rng.integers(0, 5)}" if i < 60_000 else
             (None if i % 17 == 0 else f"u{i * 7919 % 1_000_003:07d}") for i in range(rows)]
    names[5] = None
    frame = pd.DataFrame({"id": np.arange(rows, dtype=np.int64),
                          "name": pd.array(names, dtype="string")})
    indexed, plain = tmp_path / "dictionary.parquet", tmp_path / "plain.parquet"
    pqsift.write(frame, indexed, row_group_rows=rows, page_rows=7_000, dictionary_page_bytes=4096)
    pqsift.write(frame, plain, row_group_rows=rows, page_rows=7_000, dictionary=False)
    encodings = pqsift.inspect(indexed)["row_groups"][0]["columns"][1]["encodings"]
    assert "RLE_DICTIONARY" in encodings and "PLAIN" in encodings
    for where in ["name = 'v3'", "name IN ('v1', 'u0007919')", "name LIKE 'u00%'",
                  "name IS NULL", "name > 'v2' OR id < 3", "NOT (name <> 'v0')",
                  "name = 'v1' AND id < 30000"]:
        for batch in (65_536, 1_000):
            got = pqsift.scan(indexed, filter=where, batch_size=batch).to_pandas()
            want = pqsift.scan(plain, filter=where, batch_size=batch).to_pandas()
            pd.testing.assert_frame_equal(got, want)
            assert len(got) > 0, where
