"""pqsift.scan and the Scan it returns; count, splits and inspect."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

from . import _convert
from . import _filters
from . import _pqsift

PathLike = Union[str, "os.PathLike[str]"]
Paths = Union[PathLike, Sequence[PathLike]]


class Split(NamedTuple):
    """A byte range of one file (``pqsift splits``): a scan of it reads the row groups whose
    middle byte lies in ``[start, end)``, so disjoint splits read each row group once.
    ``str(split)`` is the ``FILE:START:END`` form the command line takes."""

    path: str
    start: int
    end: int
    row_groups: int = 0  #: row groups the plan reads in it
    rows: int = 0  #: rows of those row groups (before the filter's per-row evaluation)

    def __str__(self) -> str:
        return f"{self.path}:{self.start}:{self.end}"


class Field(NamedTuple):
    """A column of a scan's result: its name, Arrow type (as text) and nullability."""

    name: str
    type: str
    nullable: bool


def _paths(paths: Paths) -> List[str]:
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    out = [os.fspath(p) for p in paths]
    if not out:
        raise ValueError("no paths given")
    return out


def _split_tuple(split: Union[None, str, Split, Tuple[str, int, int]]) -> Optional[Tuple[str, int, int]]:
    if split is None:
        return None
    if isinstance(split, str):
        parts = split.rsplit(":", 2)
        if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
            raise ValueError(f"split {split!r} is not FILE:START:END")
        return (parts[0], int(parts[1]), int(parts[2]))
    path, start, end = split[0], split[1], split[2]
    return (os.fspath(path), int(start), int(end))


def _partition_schema(schema: Union[None, str, Dict[str, str]]) -> Optional[str]:
    if schema is None or isinstance(schema, str):
        return schema
    return ",".join(f"{name}:{type_}" for name, type_ in schema.items())


def _options(
    columns: Optional[Sequence[str]] = None,
    filter: Optional[str] = None,  # noqa: A002 - the issue's name for it
    order_by: Optional[str] = None,
    limit: Optional[int] = None,
    threads: Optional[int] = None,
    batch_size: Optional[int] = None,
    prune: bool = True,
    partition_schema: Union[None, str, Dict[str, str]] = None,
    hive_partitioning: bool = True,
    use_manifest: bool = True,
    verify_crc: bool = False,
    row_index: Union[None, bool, str] = None,
    filename: Union[None, bool, str] = None,
    storage: Optional[Dict[str, Any]] = None,
    filters: Any = None,
) -> Dict[str, Any]:
    if isinstance(columns, str):
        columns = [columns]
    if limit is not None and limit < 0:
        raise ValueError("limit must be >= 0")
    if threads is not None and threads < 0:
        raise ValueError("threads must be >= 0")
    if batch_size is not None and batch_size <= 0:
        raise ValueError("batch_size must be > 0")
    return {
        "columns": list(columns) if columns is not None else None,
        "filter": filter,
        "filters": filters,  # translated into "filter" before the scan opens (_resolve_filters)
        "order_by": order_by,
        "limit": limit,
        "threads": threads,
        "batch_size": batch_size,
        "prune": bool(prune),
        "partition_schema": _partition_schema(partition_schema),
        "hive": bool(hive_partitioning),
        "manifest": bool(use_manifest),
        "verify_crc": bool(verify_crc),
        "row_index": _virtual_name(row_index, "file_row_number"),
        "filename": _virtual_name(filename, "filename"),
        "storage": _storage(storage),
    }


def _resolve_filters(paths: List[str], split: Optional[Tuple[str, int, int]],
                     options: Dict[str, Any]) -> Dict[str, Any]:
    """``options`` with their ``filters`` (pyarrow's form) joined to their ``filter`` text. The
    columns' types are read (the footers' schema, without the filter or the projection) only
    when a comparison needs them: ``>`` and ``>=`` on a float column exclude NaN, as pyarrow's
    do, where the filter language orders NaN above every number (DuckDB's rule)."""
    resolved = dict(options)
    filters = resolved.pop("filters", None)

    def column_types() -> Dict[str, str]:
        plain = dict(resolved, filter=None, columns=None, threads=1, limit=None, order_by=None)
        handle = _pqsift.ScanHandle(paths, split, plain)
        try:
            return {name: type_ for name, type_, _ in handle.fields()}
        finally:
            handle.close()

    resolved["filter"] = _filters.combine(resolved.get("filter"), filters, column_types)
    return resolved


# scan(storage=...)'s settings: the command line's remote flags (docs/cli.md), by type.
STORAGE_KEYS: Dict[str, type] = {
    "ca_bundle": str, "insecure": bool, "connect_timeout_ms": int, "stall_timeout_ms": int,
    "max_requests": int, "retries": int, "max_whole_file_bytes": int, "s3_endpoint": str,
    "s3_region": str, "s3_profile": str, "s3_addressing": str, "s3_anonymous": bool,
}


def _storage(storage: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    if storage is None:
        return None
    if not isinstance(storage, dict):
        raise TypeError(f"storage must be a dict, got {type(storage).__name__}")
    for key, value in storage.items():
        kind = STORAGE_KEYS.get(key)
        if kind is None:
            raise ValueError(f"unknown storage setting {key!r}; known: {', '.join(STORAGE_KEYS)}")
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise TypeError(f"storage setting {key!r} must be {kind.__name__}, got {value!r}")
        if kind is int and value < 0:
            raise ValueError(f"storage setting {key!r} must be >= 0, got {value}")
    addressing = storage.get("s3_addressing", "auto")
    if addressing not in ("auto", "path", "virtual_host"):
        raise ValueError(
            f"s3_addressing must be 'auto', 'path' or 'virtual_host', got {addressing!r}")
    return dict(storage)


def _virtual_name(name: Union[None, bool, str], default: str) -> Optional[str]:
    """A virtual column's name: True for the default one, a string for its own, None/False
    for none."""
    if name is None or name is False:
        return None
    if name is True:
        return default
    if not isinstance(name, str) or not name:
        raise ValueError(f"expected True or a column name, got {name!r}")
    return name


def scan(
    paths: Paths = (),
    columns: Optional[Sequence[str]] = None,
    filter: Optional[str] = None,  # noqa: A002
    order_by: Optional[str] = None,
    limit: Optional[int] = None,
    threads: Optional[int] = None,
    *,
    split: Union[None, str, Split, Tuple[str, int, int]] = None,
    batch_size: Optional[int] = None,
    prune: bool = True,
    partition_schema: Union[None, str, Dict[str, str]] = None,
    hive_partitioning: bool = True,
    use_manifest: bool = True,
    verify_crc: bool = False,
    row_index: Union[None, bool, str] = None,
    filename: Union[None, bool, str] = None,
    storage: Optional[Dict[str, Any]] = None,
    filters: Any = None,
) -> "Scan":
    """A lazy scan of Parquet files: nothing is read until its result is asked for.

    Args:
        paths: a file, folder (every file below it, in sorted order) or glob
            (``"data/**/*.parquet"``), or a list of them: one table, as on the command line.
            ``key=value`` folders (hive partitioning) become columns.
        columns: the columns to return (dotted paths for struct fields, ``"s.a"``); default all.
        filter: a predicate in pqsift's filter language (SQL-like, ``"id BETWEEN 1 AND 9 AND
            region = 'eu'"``): only matching rows are returned, and the files, row groups and
            pages that cannot match are never read.
        filters: the same in pyarrow's, pandas' and Dask's form, a list of ``(column, op,
            value)`` tuples that must all hold, or a list of such lists of which one must
            (``[("region", "in", ["eu", "us"]), ("day", ">=", datetime.date(2026, 1, 5))]``);
            with ``filter`` too, both must hold. Operators ``= == != < <= > >= in``, ``not
            in``, ``is``/``is not`` None; values Python, numpy and pandas scalars
            (docs/python.md).
        order_by: with ``limit`` K, the first K rows in this order (``"ts DESC, id"``).
        limit: at most this many rows.
        threads: decoding threads (default: one per core).
        split: scan only this split of one file (``splits()``; ``"FILE:START:END"``); then
            ``paths`` is empty.
        batch_size: rows per batch when iterating (default 65536).
        prune: False reads every row group and filters every row (the same result; for
            comparison).
        partition_schema: types of hive partition keys, ``{"day": "date"}`` or
            ``"day:date"`` (bigint, double, date, timestamp, string); others are inferred.
        hive_partitioning: read ``key=value`` folder names as columns.
        use_manifest: use the dataset's manifest (``pqsift index``) when it is fresh.
        verify_crc: check page checksums where written.
        row_index: True (column ``file_row_number``) or a name: add a BIGINT column holding each
            row's 0-based position in its file, exact whatever was pruned; filters on it
            (``"file_row_number BETWEEN 1000 AND 1099"``) read only those rows' row groups and
            pages.
        filename: True (column ``filename``) or a name: add a VARCHAR column holding each row's
            file path; filters on it skip files before their footers are read.
        storage: settings for remote paths, the command line's remote flags by their Python
            names (``STORAGE_KEYS``): ``{"s3_endpoint": "http://127.0.0.1:9000",
            "s3_addressing": "path", "ca_bundle": "ca.pem", "retries": 3}``. Unset ones keep
            their defaults (S3 credentials, region and endpoint from the AWS_* environment and
            ``~/.aws``). Credentials are never settings.
    """
    split_tuple = _split_tuple(split)
    path_list = [] if split_tuple is not None and not paths else _paths(paths)
    if split_tuple is not None and path_list:
        raise ValueError("a split names its file: give paths or split, not both")
    options = _options(
        columns, filter, order_by, limit, threads, batch_size, prune, partition_schema,
        hive_partitioning, use_manifest, verify_crc, row_index, filename, storage, filters,
    )
    return Scan(path_list, split_tuple, options)


class Batch:
    """One batch of a scan's rows (at most ``batch_size``), in Arrow layout.

    Implements the Arrow PyCapsule protocol (``__arrow_c_array__``, ``__arrow_c_schema__``):
    ``pyarrow.record_batch(batch)`` takes it without a copy.
    """

    __slots__ = ("_batch",)

    def __init__(self, batch: Any):
        self._batch = batch

    @property
    def num_rows(self) -> int:
        return self._batch.num_rows

    def __len__(self) -> int:
        return self._batch.num_rows

    @property
    def schema(self) -> List[Field]:
        return [Field(*f) for f in self._batch.fields()]

    @property
    def column_names(self) -> List[str]:
        return [f[0] for f in self._batch.fields()]

    def to_pandas(self, *, date_as_object: bool = True, timestamp_as_object: bool = False,
                  maps_as_pydicts: Optional[str] = None) -> Any:
        """The batch as a pandas DataFrame (types as for Scan.to_pandas)."""
        columns = self._batch.columns(
            _convert.pandas_options(date_as_object, timestamp_as_object, maps_as_pydicts))
        return _convert.frame(self.column_names, columns, self.num_rows)

    def to_numpy(self, *, maps_as_pydicts: Optional[str] = None) -> _convert.NumpyColumns:
        """The batch as numpy arrays (as for Scan.to_numpy)."""
        columns = self._batch.columns(_convert.numpy_options(maps_as_pydicts))
        return _convert.NumpyColumns(self.column_names, columns)

    def __arrow_c_array__(self, requested_schema: Any = None) -> Tuple[Any, Any]:
        return self._batch.arrow_c_array()

    def __arrow_c_schema__(self) -> Any:
        return self._batch.arrow_c_schema()

    def __repr__(self) -> str:
        return f"<pqsift.Batch {self.num_rows} rows: {', '.join(self.column_names)}>"


class Scan:
    """A lazy scan (``pqsift.scan``). Each way of reading it runs the scan anew:

    - ``to_pandas()``: a pandas DataFrame; ``to_numpy()``: numpy arrays and validity masks;
    - iteration: ``Batch`` objects, in file order (or ``order_by``'s);
    - ``count()``: the number of matching rows, from the footers where the statistics prove it;
    - the Arrow PyCapsule protocol (``__arrow_c_stream__``, ``__arrow_c_schema__``): any Arrow
      consumer (``pyarrow.table(scan)``, ``polars.from_arrow``, DuckDB's Python API) reads the
      batches without a copy, and ``pqsift.write(scan, path)`` writes them out;
    - ``explain()``: the access plan without reading any data; ``stats()``: what the last run
      read and pruned.

    While it reads, the GIL is released (other Python threads run), and Ctrl-C stops it within
    a batch with KeyboardInterrupt.
    """

    def __init__(self, paths: List[str], split: Optional[Tuple[str, int, int]], options: Dict[str, Any]):
        self._paths = paths
        self._split = split
        self._options = options
        self._last: Optional[Any] = None  # the handle of the last run, for stats()
        self._trace_gil = False  # tests: record the spans the reading threads spent without the GIL
        self._last_trace: List[Tuple[int, int]] = []

    def _handle(self, **overrides: Any) -> Any:
        options = dict(self._resolved_options(), **overrides)
        handle = _pqsift.ScanHandle(self._paths, self._split, options)
        if self._trace_gil:
            handle.set_trace(True)
        self._last = handle
        return handle

    def _resolved_options(self) -> Dict[str, Any]:
        """The options with ``filters=`` translated into the filter text, the first time the
        scan opens (the translation may need the columns' types: _resolve_filters)."""
        if "filters" in self._options:
            self._options = _resolve_filters(self._paths, self._split, self._options)
        return self._options

    def _finished(self, handle: Any) -> None:
        if self._trace_gil:
            self._last_trace = list(handle.trace())
        handle.close()

    @property
    def schema(self) -> List[Field]:
        """The result's columns (opens the scan: reads the footers and plans)."""
        handle = _pqsift.ScanHandle(self._paths, self._split,
                                    dict(self._resolved_options(), threads=1))
        try:
            return [Field(*f) for f in handle.fields()]
        finally:
            handle.close()

    @property
    def columns(self) -> List[str]:
        """The result's column names."""
        return [f.name for f in self.schema]

    def to_pandas(self, *, date_as_object: bool = True, timestamp_as_object: bool = False,
                  maps_as_pydicts: Optional[str] = None) -> Any:
        """Reads the scan into a pandas DataFrame.

        Types: integers and booleans of nullable columns as pandas' nullable ``Int64``...,
        ``boolean`` (of required columns: numpy's ``int64``..., ``bool``); floats as
        ``float64``/``float32`` with NULL as NaN; strings as ``string``; timestamps as
        ``datetime64[ns]``, with the time zone (UTC) where the column is UTC-adjusted; dates as
        ``datetime.date`` objects (``date_as_object=False``: ``datetime64[ns]``); times as
        ``datetime.time``; decimals as ``decimal.Decimal``; binary as ``bytes``; lists as lists,
        structs as dicts, maps as lists of ``(key, value)`` tuples (``maps_as_pydicts="lossy"``
        or ``"strict"``: dicts, the last duplicate key winning or raising). A timestamp outside
        pandas' nanosecond range (years 1677-2262) raises OutOfRangeError naming the column and
        row; ``timestamp_as_object=True`` reads such columns as ``datetime.datetime`` objects.
        """
        # String columns take dictionary-encoded pages as they are: one str per entry.
        handle = self._handle(keep_dictionaries=True)
        try:
            names = [f[0] for f in handle.fields()]
            columns = handle.read_columns(
                _convert.pandas_options(date_as_object, timestamp_as_object, maps_as_pydicts))
        finally:
            self._finished(handle)
        return _convert.frame(names, columns)

    def to_numpy(self, *, maps_as_pydicts: Optional[str] = None) -> _convert.NumpyColumns:
        """Reads the scan into numpy arrays: a dict of column name -> array, whose ``valid``
        attribute maps each name to its validity mask (True = not NULL; None when nothing is
        NULL). Fixed-width types keep their numpy type (dates ``datetime64[D]``, timestamps
        ``datetime64`` in their unit, times ``timedelta64``); others are object arrays (str,
        bytes, Decimal, lists, dicts)."""
        handle = self._handle(keep_dictionaries=True)
        try:
            names = [f[0] for f in handle.fields()]
            columns = handle.read_columns(_convert.numpy_options(maps_as_pydicts))
        finally:
            self._finished(handle)
        return _convert.NumpyColumns(names, columns)

    def empty_pandas(self, *, date_as_object: bool = True, timestamp_as_object: bool = False,
                     maps_as_pydicts: Optional[str] = None) -> Any:
        """A DataFrame with no rows and the columns and dtypes to_pandas() gives (reads the
        footers only)."""
        handle = _pqsift.ScanHandle(self._paths, self._split, dict(self._options, threads=1))
        try:
            names = [f[0] for f in handle.fields()]
            columns = handle.empty_columns(
                _convert.pandas_options(date_as_object, timestamp_as_object, maps_as_pydicts))
        finally:
            handle.close()
        return _convert.frame(names, columns, 0)

    def __iter__(self) -> Iterator[Batch]:
        handle = self._handle()
        try:
            while True:
                batch = handle.next()
                if batch is None:
                    return
                yield Batch(batch)
        finally:
            self._finished(handle)

    def count(self) -> int:
        """The number of rows that match (``count(*)``): row groups the statistics prove fully
        matched are counted from the footer; only the others read the filter's columns."""
        handle = self._handle(count_only=True)
        try:
            return handle.count_rows()
        finally:
            self._finished(handle)

    def explain(self, chunks: bool = False) -> Dict[str, Any]:
        """The access plan, without reading any data page (``pqsift explain --json``): per file
        and row group the decision (skip, scan, selection of row ranges), whether it is fully
        matched, which stage decided and every stage's verdict with its evidence; per pruning
        stage what it skipped and read; the files skipped by partition values or the manifest;
        the bytes, row groups and rows the scan will read. ``chunks=True``
        (``--json --chunks``): also each row group's column chunks and their pages, with the
        fate of each page."""
        handle = _pqsift.ScanHandle(self._paths, self._split, dict(self._options, threads=1))
        try:
            return json.loads(handle.explain_json(chunks))
        finally:
            handle.close()

    def stats(self) -> Dict[str, Any]:
        """What the last run (to_pandas, to_numpy, iteration, count) read and pruned, as
        ``pqsift scan --stats-json`` writes it: bytes read against the files' size, requests,
        row groups and pages pruned per stage, rows decoded and returned. Before any run: the
        counters of opening the scan (footers, planning)."""
        if self._last is None:
            handle = _pqsift.ScanHandle(self._paths, self._split, self._options)
            handle.fields()
            return json.loads(handle.stats_json())
        return json.loads(self._last.stats_json())

    def __arrow_c_schema__(self) -> Any:
        handle = _pqsift.ScanHandle(self._paths, self._split, dict(self._options, threads=1))
        try:
            return handle.schema_capsule()
        finally:
            handle.close()

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        """The scan's batches as an Arrow C stream (a new run). ``requested_schema`` is not
        applied (the batches come in their own types)."""
        handle = self._handle()
        return handle.stream_capsule()

    def _gil_free_spans(self) -> List[Tuple[int, int]]:
        return self._last_trace

    def __repr__(self) -> str:
        what = f"split {self._split[0]}:{self._split[1]}:{self._split[2]}" if self._split else ", ".join(self._paths)
        extra = "".join(
            f" {k}={v!r}" for k, v in self._options.items()
            if v is not None and k in ("columns", "filter", "order_by", "limit"))
        return f"<pqsift.Scan {what}{extra}>"


def read_parquet(paths: Paths, columns: Optional[Sequence[str]] = None, filters: Any = None, *,
                 filter: Optional[str] = None,  # noqa: A002
                 date_as_object: bool = True, timestamp_as_object: bool = False,
                 maps_as_pydicts: Optional[str] = None, **options: Any) -> Any:
    """A pandas DataFrame of the files, as ``pandas.read_parquet(paths, columns=...,
    filters=...)`` reads one: ``scan(paths, columns, filter=filter, filters=filters,
    **options).to_pandas(...)``. ``filters`` in pyarrow's form (see scan()), ``filter`` as text;
    other keywords as for scan(), the type options as for ``Scan.to_pandas``."""
    return scan(paths, columns, filter=filter, filters=filters, **options).to_pandas(
        date_as_object=date_as_object, timestamp_as_object=timestamp_as_object,
        maps_as_pydicts=maps_as_pydicts)


def count(paths: Paths, filter: Optional[str] = None, **options: Any) -> int:  # noqa: A002
    """The number of rows of the files where ``filter`` (and ``filters=``, if given) is true
    (``pqsift count``); keyword options as for scan()."""
    return scan(paths, filter=filter, **options).count()


def splits(paths: Paths, target_bytes: int = 128 << 20, filter: Optional[str] = None,  # noqa: A002
           **options: Any) -> List[Split]:
    """Byte-range splits of about ``target_bytes`` of column data each over the row groups a
    scan with ``filter`` would read, after file and row-group pruning (``pqsift splits``):
    every row group the plan reads is in exactly one split; pruned ones in none. Scan one with
    ``pqsift.scan(split=s)``."""
    if target_bytes <= 0:
        raise ValueError("target_bytes must be > 0")
    path_list = _paths(paths)
    keyword = _resolve_filters(path_list, None, _options(filter=filter, **options))
    return [Split(*s) for s in _pqsift.splits(path_list, int(target_bytes), keyword)]


def inspect(path: PathLike, storage: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """What a file's footer says, as ``pqsift inspect --json`` prints it (docs/inspect-json.md):
    schema, row groups, column chunks with codecs, encodings, sizes and statistics, page index
    and bloom filter locations. ``path`` may be a URL; ``storage`` as for scan()."""
    return json.loads(_pqsift.inspect_json(os.fspath(path), {"storage": _storage(storage)}))


def partition_fields(paths: Paths, **options: Any) -> List[Tuple[str, str]]:
    """The hive partition keys of a dataset and their types (as partition_schema takes them)."""
    path_list = _paths(paths)
    keyword = _resolve_filters(path_list, None, _options(**options))
    return [tuple(p) for p in _pqsift.partition_fields(path_list, keyword)]
