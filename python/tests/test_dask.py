"""pqsift.dask.read_parquet: partitions are the splits that survive pruning; results equal
pqsift.scan's for random filters over a hive dataset; divisions from statistics (the cluster
tests are in test_dask_cluster.py)."""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest

import pqsift
import pqsift.dask

dask = pytest.importorskip("dask")

FILTERS = [
    None,
    "day = DATE '2026-01-02'",
    "region = 'eu' AND amount > 100",
    "id BETWEEN 3000 AND 7999",
    "day >= DATE '2026-01-03' OR name = 'n5'",
    "price < 20 AND flag = TRUE",
    "amount IS NULL",
]


def _sorted(df: pd.DataFrame, by: str = "id") -> pd.DataFrame:
    return df.sort_values(by).reset_index(drop=True)


@pytest.mark.parametrize("where", FILTERS)
def test_compute_equals_scan(hive_dataset, where):
    ddf = pqsift.dask.read_parquet(hive_dataset, filter=where, split_bytes=4096)
    expected = pqsift.scan(hive_dataset, filter=where).to_pandas()
    got = ddf.compute(scheduler="sync")
    pd.testing.assert_frame_equal(_sorted(got), _sorted(expected))
    assert ddf.npartitions == max(1, len(pqsift.splits(hive_dataset, 4096, filter=where)))


@pytest.mark.parametrize("split_bytes", [8192, 200_000])  # a split per row group; files grouped
def test_random_filters_with_columns(hive_dataset, split_bytes):
    rng = random.Random(7)
    for _ in range(6):
        lo = rng.randrange(0, 16000)
        where = f"id >= {lo} AND id < {lo + rng.randrange(1, 6000)} AND qty > {rng.randrange(0, 90)}"
        ddf = pqsift.dask.read_parquet(hive_dataset, columns=["id", "qty", "region"],
                                       filter=where, split_bytes=split_bytes)
        expected = pqsift.scan(hive_dataset, columns=["id", "qty", "region"], filter=where).to_pandas()
        pd.testing.assert_frame_equal(_sorted(ddf.compute(scheduler="sync")), _sorted(expected))


def test_one_day_schedules_only_that_days_partitions(hive_dataset):
    everything = pqsift.dask.read_parquet(hive_dataset, split_bytes=4096)
    one_day = pqsift.dask.read_parquet(hive_dataset, filter="day = DATE '2026-01-02'",
                                       split_bytes=4096)
    assert one_day.npartitions * 4 == everything.npartitions
    days = pqsift.splits(hive_dataset, 4096, filter="day = DATE '2026-01-02'")
    assert all("day=2026-01-02" in s.path for s in days)


def test_divisions_from_statistics(hive_dataset):
    ddf = pqsift.dask.read_parquet(hive_dataset, columns=["id", "amount"], index="id",
                                   split_bytes=4096)
    assert ddf.known_divisions
    assert ddf.divisions[0] == 0 and ddf.divisions[-1] == 15999
    part = ddf.loc[4100:4200]
    # Dask itself picks the one partition that holds those ids.
    assert part.npartitions == 1
    got = part.compute(scheduler="sync")
    assert got.index.tolist() == list(range(4100, 4201))
    # A column the files are not sorted by: no divisions.
    assert not pqsift.dask.read_parquet(hive_dataset, index="qty", split_bytes=4096).known_divisions


def test_files_with_different_columns(tmp_path):
    # A column the first file lacks is NULL there; a column narrower in one file is widened.
    first = pd.DataFrame({"id": np.arange(0, 100, dtype=np.int64), "a": np.arange(100, dtype=np.int32)})
    second = pd.DataFrame({"id": np.arange(100, 200, dtype=np.int64), "a": np.arange(100, dtype=np.int64),
                           "b": [f"s{i}" for i in range(100)]})
    pqsift.write(first, tmp_path / "part-0.parquet")
    pqsift.write(second, tmp_path / "part-1.parquet")
    expected = pqsift.scan(tmp_path).to_pandas()
    ddf = pqsift.dask.read_parquet(tmp_path, split_bytes=1)
    assert ddf.npartitions == 2
    assert dict(ddf.dtypes) == dict(expected.dtypes)
    got = ddf.compute(scheduler="sync")
    pd.testing.assert_frame_equal(_sorted(got), _sorted(expected))
    assert got["b"].isna().sum() == 100
    for split_bytes in (1, 1 << 20):  # a partition per file; both files in one partition
        only_b = pqsift.dask.read_parquet(tmp_path, columns=["id", "b"], filter="id >= 50",
                                          split_bytes=split_bytes)
        pd.testing.assert_frame_equal(
            _sorted(only_b.compute(scheduler="sync")),
            _sorted(pqsift.scan(tmp_path, columns=["id", "b"], filter="id >= 50").to_pandas()))
        grouped = pqsift.dask.read_parquet(tmp_path, split_bytes=split_bytes)
        pd.testing.assert_frame_equal(_sorted(grouped.compute(scheduler="sync")), _sorted(expected))


def test_virtual_columns_in_every_partition(hive_dataset):
    where = "file_row_number BETWEEN 100 AND 300 OR filename LIKE '%day=2026-01-02%'"
    ddf = pqsift.dask.read_parquet(hive_dataset, filter=where, split_bytes=4096, row_index=True,
                                   filename=True)
    assert isinstance(ddf.dtypes["filename"], pd.CategoricalDtype)
    got = ddf.compute(scheduler="sync")
    expected = pqsift.scan(hive_dataset, filter=where, row_index=True, filename=True).to_pandas()
    assert ddf.npartitions > 1
    got["filename"] = got["filename"].astype(str)
    expected["filename"] = expected["filename"].astype(str)
    pd.testing.assert_frame_equal(_sorted(got), _sorted(expected))
    known = ddf.filename.cat.as_known().compute(scheduler="sync")
    assert set(known.cat.categories) == set(expected["filename"])


def test_keys_name_the_plan(hive_dataset):
    """The collection's name is a hash of the plan: the same call gives the same keys (so Dask
    can share results), and anything that changes a partition's result changes them."""
    def name(**kwargs):
        options = dict(columns=["id", "amount"], filter="amount > 100", split_bytes=4096)
        options.update(kwargs)
        return pqsift.dask.read_parquet(hive_dataset, **options)._name

    same = name()
    assert name() == same
    assert len({same, name(filter="amount > 101"), name(columns=["id"]),
                name(columns=["amount", "id"]), name(split_bytes=10**6), name(index="id"),
                name(date_as_object=False), name(row_index=True)}) == 8


@pytest.mark.parametrize("partition_by", [None, ["day"], ["region", "day"]])
def test_to_parquet_writes_what_read_parquet_reads_back(hive_dataset, tmp_path, partition_by):
    ddf = pqsift.dask.read_parquet(hive_dataset, split_bytes=8192)
    out = tmp_path / "out"
    frame = ddf.compute(scheduler="sync")
    assert pqsift.dask.to_parquet(ddf, out, partition_by, compression="zstd",
                                  row_group_rows=300) == len(frame)
    if partition_by is None:
        assert sorted(p.name for p in out.iterdir()) == sorted(
            f"part.{i}.parquet" for i in range(ddf.npartitions))
    back = pqsift.dask.read_parquet(out, split_bytes=8192,
                                    partition_schema={"day": "date"} if partition_by else None)
    got = _sorted(back.compute(scheduler="sync"))[list(frame.columns)]
    want = _sorted(frame)
    for name in want.columns:  # hive columns come back as folder names: compare as text
        if name in (partition_by or []) or name == "region":
            got[name], want[name] = got[name].astype(str), want[name].astype(str)
    pd.testing.assert_frame_equal(got, want, check_dtype=False)
    if partition_by:
        one_day = pqsift.dask.read_parquet(out, filters=[("day", "=", pd.Timestamp("2026-01-02").date())],
                                           split_bytes=8192)
        assert one_day.npartitions < back.npartitions
        assert len(one_day.compute(scheduler="sync")) == (frame.day.astype(str) == "2026-01-02").sum()


def test_to_parquet_refuses_a_folder_with_files(hive_dataset, tmp_path):
    ddf = pqsift.dask.read_parquet(hive_dataset)
    (tmp_path / "x").write_text("x")
    with pytest.raises(pqsift.InvalidArgumentError, match="not an empty folder"):
        pqsift.dask.to_parquet(ddf, tmp_path)
    with pytest.raises(TypeError):
        pqsift.dask.to_parquet(ddf, tmp_path / "new", ["day"], append=True)
