"""The Arrow PyCapsule protocol: a scan's stream read by a consumer written here (ctypes over the
C Stream Interface), and by pqsift.write (a round trip gives the same rows)."""

from __future__ import annotations

import ctypes

import numpy as np
import pandas as pd

import pqsift
from conftest import sample_frame, write_frame


class ArrowSchema(ctypes.Structure):
    pass


ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p),
    ("name", ctypes.c_char_p),
    ("metadata", ctypes.c_char_p),
    ("flags", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))),
    ("dictionary", ctypes.POINTER(ArrowSchema)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowSchema))),
    ("private_data", ctypes.c_void_p),
]


class ArrowArray(ctypes.Structure):
    pass


ArrowArray._fields_ = [
    ("length", ctypes.c_int64),
    ("null_count", ctypes.c_int64),
    ("offset", ctypes.c_int64),
    ("n_buffers", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("buffers", ctypes.POINTER(ctypes.c_void_p)),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowArray))),
    ("dictionary", ctypes.POINTER(ArrowArray)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArray))),
    ("private_data", ctypes.c_void_p),
]


class ArrowArrayStream(ctypes.Structure):
    pass


ArrowArrayStream._fields_ = [
    ("get_schema", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.POINTER(ArrowSchema))),
    ("get_next", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.POINTER(ArrowArray))),
    ("get_last_error", ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.POINTER(ArrowArrayStream))),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArrayStream))),
    ("private_data", ctypes.c_void_p),
]

_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def consume(producer):
    """Reads a stream the way a C consumer does: the schema's children (name, format), then per
    batch the struct array's columns; int64/double columns are read from their buffers, the
    validity bitmap applied. Returns (fields, {name: list of values})."""
    capsule = producer.__arrow_c_stream__()
    stream = ArrowArrayStream.from_address(_get_pointer(capsule, b"arrow_array_stream"))
    schema = ArrowSchema()
    assert stream.get_schema(ctypes.byref(stream), ctypes.byref(schema)) == 0
    fields = [(schema.children[i].contents.name.decode(), schema.children[i].contents.format.decode())
              for i in range(schema.n_children)]
    values = {name: [] for name, _ in fields}
    batches = 0
    while True:
        array = ArrowArray()
        assert stream.get_next(ctypes.byref(stream), ctypes.byref(array)) == 0
        if not array.release:
            break
        batches += 1
        for i, (name, fmt) in enumerate(fields):
            child = array.children[i].contents
            if fmt not in ("l", "g"):
                continue
            ctype = ctypes.c_int64 if fmt == "l" else ctypes.c_double
            data = ctypes.cast(child.buffers[1], ctypes.POINTER(ctype))
            validity = child.buffers[0]
            bits = ctypes.cast(validity, ctypes.POINTER(ctypes.c_uint8)) if validity else None
            for k in range(child.length):
                slot = child.offset + array.offset + k
                valid = bits is None or (bits[slot >> 3] >> (slot & 7)) & 1
                values[name].append(data[slot] if valid else None)
        array.release(ctypes.byref(array))
    schema.release(ctypes.byref(schema))
    stream.release(ctypes.byref(stream))
    return fields, values, batches


def test_a_c_consumer_reads_the_stream(tmp_path):
    df = sample_frame(3000)
    path = write_frame(df, tmp_path / "t.parquet", row_group_rows=1000)
    scan = pqsift.scan(path, columns=["id", "amount", "price", "name"], batch_size=700)
    fields, values, batches = consume(scan)
    assert fields == [("id", "l"), ("amount", "l"), ("price", "g"), ("name", "U")]
    assert batches >= 5
    assert values["id"] == df["id"].tolist()
    assert values["amount"] == [None if pd.isna(v) else int(v) for v in df["amount"]]
    got = np.array([np.nan if v is None else v for v in values["price"]])
    np.testing.assert_array_equal(got, df["price"].to_numpy())


def test_schema_capsule(tmp_path):
    path = write_frame(sample_frame(10), tmp_path / "t.parquet")
    capsule = pqsift.scan(path, columns=["id", "ts"]).__arrow_c_schema__()
    schema = ArrowSchema.from_address(_get_pointer(capsule, b"arrow_schema"))
    assert schema.format == b"+s"
    assert [schema.children[i].contents.format for i in range(2)] == [b"l", b"tsn:UTC"]


def test_batches_export_arrays(tmp_path):
    path = write_frame(sample_frame(10), tmp_path / "t.parquet")
    batch = next(iter(pqsift.scan(path, columns=["id"])))
    schema_capsule, array_capsule = batch.__arrow_c_array__()
    array = ArrowArray.from_address(_get_pointer(array_capsule, b"arrow_array"))
    assert array.length == 10 and array.n_children == 1


def test_write_round_trip_through_the_stream(tmp_path):
    df = sample_frame(5000, seed=3)
    source = write_frame(df, tmp_path / "a.parquet", row_group_rows=1500)
    copy = tmp_path / "b.parquet"
    rows = pqsift.write(pqsift.scan(source, filter="qty < 50"), copy, compression="zstd")
    expected = pqsift.scan(source, filter="qty < 50").to_pandas()
    assert rows == len(expected)
    pd.testing.assert_frame_equal(pqsift.scan(copy).to_pandas(), expected)
    # ... and with every column of the nested peer files where present: the stream carries them
    assert pqsift.inspect(copy)["row_groups"][0]["columns"][0]["codec"] == "ZSTD"


def test_write_a_dataframe_round_trip(tmp_path):
    df = sample_frame(4000, seed=5)
    path = tmp_path / "df.parquet"
    assert pqsift.write(df, path, row_group_rows=1000, sort_by="id", bloom_filters=["name"]) == 4000
    out = pqsift.scan(path).to_pandas()
    pd.testing.assert_frame_equal(out, df, check_dtype=False)
    footer = pqsift.inspect(path)
    assert len(footer["row_groups"]) == 4
    names = {c["path"]: c for c in footer["row_groups"][0]["columns"]}
    assert "bloom_filter_offset" in names["name"]
    assert footer["row_groups"][0]["sorting_columns"][0]["column_idx"] == 0


def test_write_nested_columns_through_the_stream(tmp_path):
    from conftest import peer_files_dir
    import pytest

    peers = peer_files_dir()
    if peers is None:
        pytest.skip("the DuckDB/Polars files are not there (ctest fixture make_peer_files)")
    source = str(peers / "duckdb_nested_zstd.parquet")
    copy = tmp_path / "nested.parquet"
    pqsift.write(pqsift.scan(source), copy)
    original = pqsift.scan(source).to_pandas()
    again = pqsift.scan(copy).to_pandas()
    assert list(again.columns) == list(original.columns)
    for name in original.columns:
        assert again[name].tolist() == original[name].tolist(), name
