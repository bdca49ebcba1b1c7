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


def test_filename_is_a_categorical_in_pandas_and_strings_in_numpy(tmp_path):
    a = _file(tmp_path, "a.parquet", rows=3000)
    b = _file(tmp_path, "b.parquet", rows=2000, start=3000)
    scan = pqsift.scan([a, b], filename=True, batch_size=700)
    df = scan.to_pandas()
    column = df["filename"]
    assert isinstance(column.dtype, pd.CategoricalDtype)
    assert list(column.cat.categories) == [a, b]
    assert column.tolist() == [a] * 3000 + [b] * 2000
    assert column.cat.codes.tolist() == [0] * 3000 + [1] * 2000
    # Filtered to one file: only its name is a category.
    df = pqsift.scan([a, b], filename="f", filter="f = " + repr(b).replace('"', "'")).to_pandas()
    assert list(df["f"].cat.categories) == [b] and len(df) == 2000
    values = pqsift.scan([a, b], filename=True, filter="id IN (0, 1000, 2000, 3000, 4000)").to_numpy()["filename"]
    assert values.dtype == object and values.tolist() == [a] * 3 + [b] * 2


def test_filename_through_the_arrow_stream_is_dictionary_encoded(tmp_path):
    from test_arrow_stream import ArrowArrayStream, ArrowSchema, ArrowArray, _get_pointer
    import ctypes

    a = _file(tmp_path, "a.parquet", rows=1500)
    capsule = pqsift.scan(a, columns=["filename"], filename=True, batch_size=600).__arrow_c_stream__()
    stream = ArrowArrayStream.from_address(_get_pointer(capsule, b"arrow_array_stream"))
    schema = ArrowSchema()
    assert stream.get_schema(ctypes.byref(stream), ctypes.byref(schema)) == 0
    field = schema.children[0].contents
    assert (field.name, field.format, field.dictionary.contents.format) == (b"filename", b"i", b"U")
    rows = []
    while True:
        array = ArrowArray()
        assert stream.get_next(ctypes.byref(stream), ctypes.byref(array)) == 0
        if not array.release:
            break
        column = array.children[0].contents
        dictionary = column.dictionary.contents
        assert column.n_buffers == 2 and dictionary.length == 1
        offsets = ctypes.cast(dictionary.buffers[1], ctypes.POINTER(ctypes.c_int64))
        text = ctypes.string_at(dictionary.buffers[2] + offsets[0], offsets[1] - offsets[0]).decode()
        indices = ctypes.cast(column.buffers[1], ctypes.POINTER(ctypes.c_int32))
        rows += [text] * column.length
        assert all(indices[column.offset + k] == 0 for k in range(column.length))
        array.release(ctypes.byref(array))
    schema.release(ctypes.byref(schema))
    stream.release(ctypes.byref(stream))
    assert rows == [a] * 1500


def test_filename_written_through_the_stream_is_a_string_column(tmp_path):
    a = _file(tmp_path, "a.parquet", rows=1200)
    b = _file(tmp_path, "b.parquet", rows=800)
    copy = tmp_path / "copy.parquet"
    assert pqsift.write(pqsift.scan([a, b], filename=True), copy) == 2000
    df = pqsift.scan(copy).to_pandas()
    assert df["filename"].dtype == "string"
    assert df["filename"].tolist() == [a] * 1200 + [b] * 800
