"""pqsift.scan(row_index=..., filename=...): the virtual columns, exact under pruning."""

from __future__ import annotations

import numpy as np
import pandas as pd

import pqsift
from conftest import write_frame


def _file(tmp_path, name="t.parquet", rows=5000, start=0):
    df = pd.DataFrame({"id": np.arange(start, start + rows, dtype=np.int64),
                       "x": np.arange(rows, dtype=np.int64) % 7})
    return write_frame(df, tmp_path / name, row_group_rows=1000, page_rows=100)


def test_row_index_is_the_position_in_the_file_under_pruning(tmp_path):
    path = _file(tmp_path)
    df = pqsift.scan(path, columns=["file_row_number", "id"], row_index=True,
                     filter="file_row_number BETWEEN 2345 AND 2444").to_pandas()
    assert df["file_row_number"].tolist() == list(range(2345, 2445))
    assert (df["id"] == df["file_row_number"]).all()
    # Mixed with a real column, OR and NOT: every row's index is its id here.
    where = "(file_row_number < 10 OR x = 3) AND NOT file_row_number IN (3, 4000)"
    pruned = pqsift.scan(path, row_index="pos", filter=where.replace("file_row_number", "pos"))
    df = pruned.to_pandas()
    assert (df["id"] == df["pos"]).all()
    full = pqsift.scan(path, row_index="pos", prune=False,
                       filter=where.replace("file_row_number", "pos")).to_pandas()
    assert df["pos"].tolist() == full["pos"].tolist()
    stats = pqsift.scan(path, row_index=True,
                        filter="file_row_number BETWEEN 2345 AND 2444")
    stats.to_pandas()
    assert stats.stats()["row_groups_read"] == 1


def test_filename_and_limit(tmp_path):
    a = _file(tmp_path, "a.parquet", rows=3000)
    b = _file(tmp_path, "b.parquet", rows=3000, start=3000)
    df = pqsift.scan([a, b], filename=True, row_index=True,
                     filter="filename LIKE '%b.parquet' AND file_row_number >= 2990").to_pandas()
    assert df["filename"].tolist() == [b] * 10
    assert df["file_row_number"].tolist() == list(range(2990, 3000))
    assert df["id"].tolist() == list(range(5990, 6000))
    df = pqsift.scan([a, b], row_index=True, filter="x = 1", limit=5).to_pandas()
    assert (df["id"] == df["file_row_number"]).all()
