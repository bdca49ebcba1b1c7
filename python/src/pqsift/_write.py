"""pqsift.write: a pandas DataFrame, or anything with __arrow_c_stream__, to a Parquet file."""

from __future__ import annotations

import datetime
import decimal
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _pqsift
from ._errors import InvalidArgumentError, NotSupportedError

_CODECS = {"none": 0, "uncompressed": 0, "snappy": 1, "gzip": 2, "brotli": 4, "zstd": 6,
           "lz4": 7, "lz4_raw": 7}
_ENCODINGS = {"plain": 0, "rle": 3, "delta_binary_packed": 5, "delta_length_byte_array": 6,
              "delta_byte_array": 7, "byte_stream_split": 9}
# Rows per batch handed to the writer from a DataFrame (bounds the Arrow copy held at once).
_CHUNK_ROWS = 1 << 20


def write(
    data: Any,
    path: Union[str, "os.PathLike[str]"],
    *,
    compression: str = "snappy",
    compression_level: Optional[int] = None,
    row_group_rows: Optional[int] = None,
    page_rows: Optional[int] = None,
    page_bytes: Optional[int] = None,
    dictionary: bool = True,
    dictionary_page_bytes: Optional[int] = None,
    page_index: bool = True,
    statistics_truncate_bytes: Optional[int] = None,
    data_page_v2: bool = False,
    page_checksums: bool = False,
    column_encodings: Optional[Mapping[str, str]] = None,
    sort_by: Union[None, str, Sequence[Union[str, Tuple[str, bool], Tuple[str, bool, bool]]]] = None,
    bloom_filters: Union[None, Sequence[str], Mapping[str, Union[None, int, Tuple[int, float]]]] = None,
    key_value_metadata: Optional[Mapping[str, str]] = None,
    created_by: Optional[str] = None,
    partition_by: Union[None, str, Sequence[str]] = None,
    file_prefix: str = "part",
    append: bool = False,
) -> int:
    """Writes ``data`` to a Parquet file at ``path`` and returns the number of rows written.

    With ``partition_by`` (a column or a list of them; pandas calls it ``partition_cols``),
    ``path`` is a folder (new or empty) and the rows are written as a hive-partitioned dataset,
    ``path/day=2026-01-05/region=eu/part-0.parquet``, as ``pqsift convert --partition-by``:
    the partition columns are left out of the files and read back from the folder names
    (``pqsift.scan(path)``), where a filter on them skips whole folders. NULL and ``""`` are
    the ``__HIVE_DEFAULT_PARTITION__`` folder; an aware timestamp is named by its UTC time.
    Files are named ``{file_prefix}-N.parquet``; ``append=True`` adds to a dataset already at
    ``path`` (names already taken are passed over, nothing is overwritten).

    ``data`` is a pandas DataFrame or any object with ``__arrow_c_stream__`` (a pqsift Scan, a
    pyarrow Table, a polars DataFrame): a scan's result writes back out batch by batch. The file
    gets what readers need to prune: statistics, a column index and offset index for every
    chunk, page-sized pages, sorting columns, and bloom filters on request.

    Options (as ``pqsift convert``): ``compression`` ("none", "snappy", "gzip", "zstd", "lz4_raw",
    "brotli"; "zstd:9" sets the level too), ``compression_level``, ``row_group_rows`` (default
    1,000,000), ``page_rows`` (20,000), ``page_bytes`` (1 MiB), ``dictionary``,
    ``dictionary_page_bytes``, ``page_index``, ``statistics_truncate_bytes`` (64),
    ``data_page_v2``, ``page_checksums``, ``column_encodings`` ({"id": "delta_binary_packed"}),
    ``sort_by`` ("id", ["a", ("b", True)]: (column, descending[, nulls_first])),
    ``bloom_filters`` (["key"] or {"key": ndv} or {"key": (ndv, fpp)}), ``key_value_metadata``,
    ``created_by``.

    DataFrame columns: numpy integers, floats and booleans (NaN of floats as NULL), pandas'
    nullable integers, booleans and strings, ``datetime64[ns]`` (with a time zone: an instant in
    UTC), and object columns of str, bytes, ``datetime.date``, ``datetime.time``,
    ``datetime.datetime`` or ``decimal.Decimal`` (None or NA as NULL). The index is not written.
    """
    options = _writer_options(
        compression, compression_level, row_group_rows, page_rows, page_bytes, dictionary,
        dictionary_page_bytes, page_index, statistics_truncate_bytes, data_page_v2,
        page_checksums, column_encodings, sort_by, bloom_filters, key_value_metadata, created_by)
    if isinstance(partition_by, str):
        partition_by = [partition_by]
    options["partition_by"] = [str(c) for c in (partition_by or [])]
    if (file_prefix != "part" or append) and not options["partition_by"]:
        raise InvalidArgumentError("file_prefix and append go with partition_by")
    options["file_prefix"] = str(file_prefix)
    options["append"] = bool(append)
    writer = _pqsift.WriterHandle(os.fspath(path), options)
    if _is_dataframe(data):
        names = [str(c) for c in data.columns]
        if len(set(names)) != len(names):
            raise InvalidArgumentError("the DataFrame has duplicate column names")
        specs = [_column_spec(data.iloc[:, i], names[i]) for i in range(len(names))]
        rows = len(data)
        for start in range(0, max(rows, 1), _CHUNK_ROWS):
            end = min(start + _CHUNK_ROWS, rows)
            writer.write_columns(names, [_slice(spec, start, end) for spec in specs])
    else:
        writer.write_stream(data)
    writer.close()
    return writer.rows


def _is_dataframe(data: Any) -> bool:
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover
        return False
    return isinstance(data, pd.DataFrame)


def _writer_options(compression, compression_level, row_group_rows, page_rows, page_bytes,
                    dictionary, dictionary_page_bytes, page_index, statistics_truncate_bytes,
                    data_page_v2, page_checksums, column_encodings, sort_by, bloom_filters,
                    key_value_metadata, created_by) -> Dict[str, Any]:
    name, _, level = str(compression).lower().partition(":")
    if name not in _CODECS:
        raise InvalidArgumentError(
            f"unknown compression {compression!r} (none, snappy, gzip, zstd[:level], lz4_raw, brotli)")
    if level:
        if not level.isdigit():
            raise InvalidArgumentError(f"compression level in {compression!r} is not a number")
        compression_level = int(level)
    encodings = {}
    for column, encoding in (column_encodings or {}).items():
        if encoding not in _ENCODINGS:
            raise InvalidArgumentError(
                f"unknown encoding {encoding!r} for column {column!r} ({', '.join(_ENCODINGS)})")
        encodings[column] = _ENCODINGS[encoding]
    return {
        "compression": _CODECS[name],
        "compression_level": compression_level,
        "row_group_rows": row_group_rows,
        "page_rows": page_rows,
        "page_bytes": page_bytes,
        "dictionary": dictionary,
        "dictionary_page_bytes": dictionary_page_bytes,
        "page_index": page_index,
        "statistics_truncate_bytes": statistics_truncate_bytes,
        "data_page_v2": data_page_v2,
        "page_checksums": page_checksums,
        "column_encodings": encodings,
        "sort_by": _sort_keys(sort_by),
        "bloom_filters": _bloom_filters(bloom_filters),
        "key_value_metadata": [(str(k), str(v)) for k, v in (key_value_metadata or {}).items()],
        "created_by": created_by,
    }


def _sort_keys(sort_by) -> List[Tuple[str, bool, bool]]:
    if sort_by is None:
        return []
    if isinstance(sort_by, str):
        sort_by = [sort_by]
    keys = []
    for key in sort_by:
        if isinstance(key, str):
            keys.append((key, False, False))
        else:
            key = tuple(key)
            keys.append((key[0], bool(key[1]) if len(key) > 1 else False,
                         bool(key[2]) if len(key) > 2 else False))
    return keys


def _bloom_filters(bloom_filters) -> Dict[str, Tuple[int, float]]:
    if bloom_filters is None:
        return {}
    if not isinstance(bloom_filters, Mapping):
        return {str(c): (0, 0.01) for c in bloom_filters}
    out = {}
    for column, setting in bloom_filters.items():
        if setting is None:
            out[column] = (0, 0.01)
        elif isinstance(setting, (int, np.integer)):
            out[column] = (int(setting), 0.01)
        else:
            out[column] = (int(setting[0] or 0), float(setting[1]))
    return out


# ---- DataFrame columns as the core's column specs (python/ext/writer_handle.h) ----

def _slice(spec: Tuple[str, np.ndarray, Optional[np.ndarray]], start: int, end: int):
    kind, values, mask = spec
    return (kind, values[start:end], None if mask is None else mask[start:end])


def _column_spec(series: Any, name: str) -> Tuple[str, np.ndarray, Optional[np.ndarray]]:
    import pandas as pd
    from pandas.api import types as t

    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        series = series.astype(dtype.categories.dtype if dtype.categories.dtype != object else object)
        dtype = series.dtype
    if isinstance(dtype, pd.DatetimeTZDtype):
        utc = series.dt.tz_convert("UTC").dt.tz_localize(None)
        values = utc.to_numpy(dtype="datetime64[ns]").view(np.int64)
        return ("timestamp:ns:UTC", values, series.isna().to_numpy())
    if t.is_datetime64_dtype(dtype):
        values = series.to_numpy(dtype="datetime64[ns]").view(np.int64)
        mask = series.isna().to_numpy()
        return ("timestamp:ns:", values, mask)
    if isinstance(dtype, pd.BooleanDtype):
        array = series.array
        return ("bool", array._data, array._mask)
    if isinstance(dtype, (pd.Int8Dtype, pd.Int16Dtype, pd.Int32Dtype, pd.Int64Dtype,
                          pd.UInt8Dtype, pd.UInt16Dtype, pd.UInt32Dtype, pd.UInt64Dtype,
                          pd.Float32Dtype, pd.Float64Dtype)):
        array = series.array
        return (array._data.dtype.name, array._data, array._mask)
    if isinstance(dtype, pd.StringDtype):
        values = series.to_numpy(dtype=object, na_value=None)
        return ("string", values, series.isna().to_numpy())
    if isinstance(dtype, np.dtype):
        if dtype.kind == "b":
            return ("bool", series.to_numpy(), None)
        if dtype.kind in "iu":
            return (dtype.name, np.ascontiguousarray(series.to_numpy()), None)
        if dtype.kind == "f":
            values = np.ascontiguousarray(series.to_numpy())
            if dtype.itemsize == 2:
                values = values.astype(np.float32)
            mask = np.isnan(values)
            return (values.dtype.name, values, mask)
        if dtype.kind == "O":
            return _object_spec(series.to_numpy(dtype=object), name)
    raise NotSupportedError(f"column {name!r}: pqsift.write cannot store pandas dtype {dtype}")


def _is_missing(value: Any) -> bool:
    if value is None:
        return True
    try:
        import pandas as pd

        return value is pd.NA or value is pd.NaT or (isinstance(value, float) and value != value)
    except ImportError:  # pragma: no cover
        return isinstance(value, float) and value != value


def _object_spec(values: np.ndarray, name: str) -> Tuple[str, np.ndarray, Optional[np.ndarray]]:
    mask = np.fromiter((_is_missing(v) for v in values), dtype=bool, count=len(values))
    present = values[~mask]
    if len(present) == 0:
        return ("string", values, mask)
    first = present[0]
    if isinstance(first, str):
        return ("string", values, mask)
    if isinstance(first, (bytes, bytearray, memoryview)):
        return ("binary", np.array([bytes(v) if not m else None for v, m in zip(values, mask)], dtype=object), mask)
    if isinstance(first, decimal.Decimal):
        return _decimal_spec(values, mask, present, name)
    if isinstance(first, datetime.datetime):
        return _datetime_spec(values, mask, present, name)
    if isinstance(first, datetime.date):
        epoch = datetime.date(1970, 1, 1)
        days = np.fromiter(((v - epoch).days if not m else 0 for v, m in zip(values, mask)),
                           dtype=np.int32, count=len(values))
        return ("date32", days, mask)
    if isinstance(first, datetime.time):
        micros = np.fromiter(
            (((v.hour * 60 + v.minute) * 60 + v.second) * 1_000_000 + v.microsecond if not m else 0
             for v, m in zip(values, mask)), dtype=np.int64, count=len(values))
        return ("time64:us", micros, mask)
    raise NotSupportedError(
        f"column {name!r}: pqsift.write cannot store {type(first).__name__} values from a "
        "DataFrame (nested values: write an Arrow stream, e.g. a pqsift Scan)")


def _decimal_spec(values, mask, present, name):
    scale = 0
    digits = 1
    for d in present:
        if not isinstance(d, decimal.Decimal) or not d.is_finite():
            raise InvalidArgumentError(f"column {name!r}: {d!r} is not a finite decimal.Decimal")
        sign, ds, exponent = d.as_tuple()
        scale = max(scale, -exponent)
    for d in present:
        sign, ds, exponent = d.as_tuple()
        digits = max(digits, len(ds) + (scale + exponent))
    precision = max(digits, scale, 1)
    if precision > 38:
        raise NotSupportedError(f"column {name!r}: decimals of more than 38 digits")
    pairs = np.zeros((len(values), 2), dtype=np.int64)
    exact = decimal.Context(prec=100)  # the default context's 28 digits would round
    for i, (v, m) in enumerate(zip(values, mask)):
        if m:
            continue
        bits = int(v.scaleb(scale, context=exact)) & ((1 << 128) - 1)  # two's complement
        pairs[i, 0] = _signed64(bits & 0xFFFFFFFFFFFFFFFF)
        pairs[i, 1] = _signed64(bits >> 64)
    return (f"decimal:{precision}:{scale}", pairs, mask)


def _signed64(u: int) -> int:
    return u - (1 << 64) if u >= (1 << 63) else u


def _datetime_spec(values, mask, present, name):
    aware = present[0].tzinfo is not None
    epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc if aware else None)
    micros = np.zeros(len(values), dtype=np.int64)
    for i, (v, m) in enumerate(zip(values, mask)):
        if m:
            continue
        if (v.tzinfo is not None) != aware:
            raise InvalidArgumentError(f"column {name!r}: mixes naive and zoned datetimes")
        delta = v - epoch
        micros[i] = (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
    return (f"timestamp:us:{'UTC' if aware else ''}", micros, mask)
