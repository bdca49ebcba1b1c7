"""Types in pandas and numpy as their users expect them."""

from __future__ import annotations

import datetime
import decimal

import numpy as np
import pandas as pd
import pytest

import pqsift
from conftest import peer_files_dir, sample_frame, write_frame


def test_pandas_dtypes_of_flat_columns(tmp_path):
    df = sample_frame(500)
    df["day"] = [datetime.date(2026, 1, 1) + datetime.timedelta(days=i % 40) for i in range(500)]
    df["when"] = pd.Series(pd.to_datetime(np.arange(500) * 10**9))  # naive: a local date-time
    df["blob"] = [bytes([i % 256, 1]) if i % 7 else None for i in range(500)]
    df["dec"] = [decimal.Decimal(f"{i}.{i % 100:02d}") if i % 11 else None for i in range(500)]
    df["clock"] = [datetime.time(i % 24, i % 60, 5, 123456) for i in range(500)]
    path = write_frame(df, tmp_path / "types.parquet")
    out = pqsift.scan(path).to_pandas()
    dtypes = {c: str(t) for c, t in out.dtypes.items()}
    assert dtypes == {
        "id": "int64",            # required (a numpy column without NaN)
        "amount": "Int64",        # nullable integer
        "name": "string",
        "flag": "boolean",
        "ts": "datetime64[ns, UTC]",
        "price": "float64",
        "qty": "int32",
        "day": "object",
        "when": "datetime64[ns]",
        "blob": "object",
        "dec": "object",
        "clock": "object",
    }
    assert out["amount"].isna().sum() == df["amount"].isna().sum()
    pd.testing.assert_series_equal(out["amount"], df["amount"])
    pd.testing.assert_series_equal(out["name"], df["name"])
    pd.testing.assert_series_equal(out["flag"], df["flag"])
    pd.testing.assert_series_equal(out["ts"], df["ts"])
    pd.testing.assert_series_equal(out["when"], df["when"])
    assert out["day"].tolist() == df["day"].tolist()
    assert out["blob"].tolist() == df["blob"].tolist()
    assert out["dec"].tolist() == df["dec"].tolist()
    assert isinstance(out["dec"][1], decimal.Decimal)
    assert out["clock"].tolist() == df["clock"].tolist()
    as_datetime = pqsift.scan(path, columns=["day"]).to_pandas(date_as_object=False)
    assert str(as_datetime["day"].dtype) == "datetime64[ns]"
    assert as_datetime["day"][39] == pd.Timestamp("2026-02-09")


def test_empty_result_keeps_the_dtypes(tmp_path):
    path = write_frame(sample_frame(100), tmp_path / "t.parquet")
    full = pqsift.scan(path).to_pandas()
    empty = pqsift.scan(path, filter="id < 0").to_pandas()
    assert len(empty) == 0
    assert (empty.dtypes == full.dtypes).all()
    assert (pqsift.scan(path).empty_pandas().dtypes == full.dtypes).all()


def test_timestamps_outside_the_nanosecond_range(tmp_path):
    far = [datetime.datetime(2020, 1, 1), datetime.datetime(9999, 12, 31, 23, 59, 59, 999999),
           None, datetime.datetime(1, 1, 1)]
    path = write_frame(pd.DataFrame({"t": far}), tmp_path / "far.parquet")
    with pytest.raises(pqsift.OutOfRangeError, match=r"column 't', row 1: timestamp outside"):
        pqsift.scan(path).to_pandas()
    out = pqsift.scan(path).to_pandas(timestamp_as_object=True)
    assert out["t"].dtype == object
    assert out["t"].tolist() == [far[0], far[1], None, far[3]]
    numpy = pqsift.scan(path).to_numpy()
    assert numpy["t"].dtype == np.dtype("datetime64[us]")
    assert numpy["t"][1] == np.datetime64("9999-12-31T23:59:59.999999")
    assert list(numpy.valid["t"]) == [True, True, False, True]


def test_nested_values_as_lists_and_dicts(tmp_path):
    src = peer_files_dir()
    if src is None:
        pytest.skip("the DuckDB/Polars files are not there (ctest fixture make_peer_files)")
    nested = [p for p in sorted(src.glob("*.parquet")) if "nested" in p.name]
    assert nested, f"no nested peer file in {src}"
    seen = set()
    for path in nested:
        df = pqsift.scan(str(path), limit=2000).to_pandas()
        for column in df.columns:
            for value in df[column]:
                if isinstance(value, list):
                    seen.add("list")
                    if value and isinstance(value[0], tuple):
                        seen.add("map")
                elif isinstance(value, dict):
                    seen.add("struct")
    assert {"list", "struct"} <= seen


def test_maps_as_pairs_or_dicts(tmp_path):
    src = peer_files_dir()
    if src is None:
        pytest.skip("the DuckDB/Polars files are not there (ctest fixture make_peer_files)")
    for path in sorted(src.glob("*.parquet")):
        fields = pqsift.scan(str(path)).schema
        maps = [f.name for f in fields if f.type.startswith("map<")]
        if not maps:
            continue
        pairs = pqsift.scan(str(path), columns=maps[:1]).to_pandas()[maps[0]]
        dicts = pqsift.scan(str(path), columns=maps[:1]).to_pandas(maps_as_pydicts="lossy")[maps[0]]
        for p, d in zip(pairs, dicts):
            if p is None:
                assert d is None
            else:
                assert dict(p) == d
        return
    pytest.skip("no peer file with a map column")


def test_numpy_types(tmp_path):
    df = sample_frame(50)
    df["day"] = [datetime.date(2000, 1, 1)] * 50
    path = write_frame(df, tmp_path / "t.parquet")
    arrays = pqsift.scan(path).to_numpy()
    assert arrays["qty"].dtype == np.int32
    assert arrays["flag"].dtype == np.bool_
    assert arrays["day"].dtype == np.dtype("datetime64[D]")
    assert arrays["price"].dtype == np.float64
    assert arrays["name"].dtype == object and arrays["name"][0] == "n0"


def test_repeated_strings_share_objects_and_keep_their_values(tmp_path):
    """String columns convert through a table of the str objects of repeated values: every
    value comes back as written (lengths 0 to 300, values that differ only in the middle, in
    one byte, or in length, non-ASCII, NULLs, more distinct values than the table keeps), and
    a repeated value is one object."""
    rng = np.random.default_rng(7)
    pool = [""] + ["a" * n for n in range(1, 40)] + ["b" * n for n in range(1, 20)]
    pool += [f"{'p' * 12}{i:04d}{'s' * 12}" for i in range(300)]  # same first and last 8 bytes
    pool += [f"x{i}" for i in range(200)] + [f"é{i}€" for i in range(50)] + ["z" * 300, "z" * 299]
    pool += [c * 8 + d for c in "AB" for d in "xyz"] + ["\0", "\0\0", "a\0b", "ab\0"]
    picks = rng.integers(0, len(pool), 60_000)
    values = [pool[i] for i in picks]
    for i in rng.integers(0, len(values), 500):
        values[i] = None
    # then a tail of distinct values: more than the table keeps (4096), sharing goes on or stops
    values += [f"distinct {i} {'w' * (i % 23)}" for i in range(20_000)]
    df = pd.DataFrame({"s": pd.array(values, dtype="string")})
    path = write_frame(df, tmp_path / "strings.parquet")
    out = pqsift.scan(path, batch_size=4096).to_pandas()["s"]
    assert out.isna().tolist() == [v is None for v in values]
    assert [None if v is pd.NA else v for v in out.tolist()] == values
    # to_pandas and to_numpy read dictionary-encoded pages as indices, batches a user iterates
    # hold values: the same strings either way.
    as_numpy = pqsift.scan(path, batch_size=4096).to_numpy()["s"]
    assert as_numpy.tolist() == values
    batches = [b.to_pandas()["s"] for b in pqsift.scan(path, batch_size=4096)]
    assert [None if v is pd.NA else v for b in batches for v in b.tolist()] == values
    # A value repeated across the head is one object (sharing decides after 16,384 lookups,
    # and these repeat far more than half the time); values over 256 bytes are not shared.
    firsts = {}
    for v in out.iloc[:60_000]:
        if v is not pd.NA and len(v.encode()) <= 256:
            assert firsts.setdefault(v, v) is v
