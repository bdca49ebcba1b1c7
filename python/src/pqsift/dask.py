"""pqsift as Dask's Parquet reader and writer: ``pqsift.dask.read_parquet``,
``pqsift.dask.to_parquet``.

    import pqsift.dask
    df = pqsift.dask.read_parquet("events/", columns=["id", "amount"],
                                  filter="day = DATE '2026-01-05'", index="id")
    df.amount.sum().compute()

The partitions are pqsift's splits (``pqsift.splits``) made after file and row-group pruning, so
work the filter rules out is never scheduled: one partition per split that survives, except that
consecutive splits smaller than ``split_bytes`` (small files) are grouped into one partition of
about that size, so a dataset of many small files does not become as many tiny tasks. Each
partition is scanned on a worker by pqsift with the same filter (its per-row part runs there,
in pqsift) and the requested columns only. With ``index=`` on a column the files are sorted
by, the partitions' divisions come from the footer statistics of that column, so Dask itself
skips partitions for ``df.loc[a:b]``.
"""

from __future__ import annotations

import collections
import hashlib
import pickle
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _pqsift
from ._errors import InvalidArgumentError
from . import _convert
from ._scan import Paths, Split, _options, _paths, _resolve_filters, scan

__all__ = ["read_parquet", "to_parquet"]


class _ReadSplit:
    """The function Dask maps over the partitions: a group of splits as a pandas DataFrame
    shaped like ``meta`` (columns a file lacks are NULL; narrower types in a file are widened).
    A group of whole files (each the only split of its file, so holding every row group the
    plan reads there) is read as one scan of those files; other groups split by split. Pickled
    to the workers: plain data only."""

    def __init__(self, columns: Optional[List[str]], filter: Optional[str],  # noqa: A002
                 scan_options: Dict[str, Any], meta: Any, index: Optional[str],
                 pandas_options: Dict[str, Any]):
        self.columns = columns
        self.filter = filter
        self.scan_options = scan_options
        self.meta = meta
        self.index = index
        self.pandas_options = pandas_options

    def __call__(self, part: Tuple[Tuple[Split, ...], bool]) -> Any:
        import pandas as pd

        group, whole_files = part
        if whole_files and len(group) > 1:
            try:
                files = scan([s.path for s in group], columns=self.columns, filter=self.filter,
                             **self.scan_options)
                return self._reconcile(files.to_pandas(**self.pandas_options))
            except InvalidArgumentError:
                pass  # a requested column none of these files has: split by split below
        frames = [self._read(split) for split in group]
        if len(frames) == 1:
            return frames[0]
        out = pd.concat(frames, copy=False)
        return out if self.index is not None else out.reset_index(drop=True)

    def _read(self, split: Split) -> Any:
        s = scan(split=split, columns=self.columns, filter=self.filter, **self.scan_options)
        s._options["skip_missing_columns"] = True
        return self._reconcile(s.to_pandas(**self.pandas_options))

    def _reconcile(self, df: Any) -> Any:
        import pandas as pd

        meta = self.meta
        wanted = ([meta.index.name] if self.index is not None else []) + list(meta.columns)
        out = {}
        changed = self.index is not None or wanted != list(df.columns)
        for name in wanted:
            dtype = meta.index.dtype if name == self.index else meta[name].dtype
            if name in df.columns:
                column = df[name]
                # A categorical (the filename) keeps its partition's own categories: meta's are
                # Dask's "unknown" ones (read_parquet), which a cast would turn into NaN.
                same = column.dtype == dtype or (isinstance(dtype, pd.CategoricalDtype)
                                                 and isinstance(column.dtype, pd.CategoricalDtype))
                out[name] = column if same else column.astype(dtype)
                changed = changed or not same
            else:
                out[name] = pd.Series(pd.array([None] * len(df), dtype=dtype)
                                      if _nullable(dtype) else [None] * len(df), dtype=dtype)
                changed = True
        if not changed:
            return df  # the partition is already shaped like meta: no copy
        # Not pd.DataFrame(out): it consolidates the columns of one dtype into one 2-D block,
        # a copy of them all into fresh memory (30% of a partition's time on a VM).
        arrays = [series.array if _nullable(series.dtype) else series.to_numpy(copy=False)
                  for series in out.values()]
        result = _convert.frame_of_arrays(list(out), arrays, len(df))
        if self.index is not None:
            result = result.set_index(self.index)
        return result


def _nullable(dtype: Any) -> bool:
    import pandas as pd

    return isinstance(dtype, pd.api.extensions.ExtensionDtype)


def read_parquet(
    paths: Paths,
    columns: Optional[Sequence[str]] = None,
    filter: Optional[str] = None,  # noqa: A002
    split_bytes: int = 64 << 20,
    index: Optional[str] = None,
    *,
    filters: Any = None,
    partition_schema: Optional[Any] = None,
    hive_partitioning: bool = True,
    use_manifest: bool = True,
    threads: Optional[int] = 1,
    date_as_object: bool = True,
    timestamp_as_object: bool = False,
    maps_as_pydicts: Optional[str] = None,
    calculate_divisions: bool = True,
    row_index: Union[None, bool, str] = None,
    filename: Union[None, bool, str] = None,
    storage: Optional[Dict[str, Any]] = None,
) -> Any:
    """A ``dask.dataframe.DataFrame`` over Parquet files, read by pqsift.

    Args:
        paths: files, folders, globs, hive datasets (as ``pqsift.scan``).
        columns: the columns to read (projection pushed into every partition's scan).
        filter: pqsift's filter language; files and row groups that cannot match are pruned
            before partitions are made, the rest filtered row by row on the workers.
        filters: the same as Dask's and pyarrow's list of ``(column, op, value)`` tuples (or a
            list of such lists: OR of ANDs), as for ``pqsift.scan``; with ``filter`` too, both
            must hold.
        split_bytes: about this many bytes of column data per partition: larger files are split
            (row groups are never cut, so a partition holds at least one row group), smaller
            ones grouped.
        index: a column to use as the index. When the files are sorted by it and its footer
            statistics are trusted, the divisions are known (``df.known_divisions``); otherwise
            they are unknown (and each partition is still indexed by it).
        partition_schema, hive_partitioning, use_manifest: as for ``pqsift.scan``.
        threads: decoding threads per partition scan (default 1: Dask runs partitions side by
            side; None for one per core).
        date_as_object, timestamp_as_object, maps_as_pydicts: as for ``Scan.to_pandas``.
        calculate_divisions: False skips reading statistics for divisions.
        row_index, filename: the virtual columns, as for ``pqsift.scan`` (each row's position in
            its file, exact in every partition; its file's path, a categorical whose categories
            Dask treats as unknown: ``ddf.filename.cat.as_known()`` collects them). The filter
            may name them: the splits are planned with them too.
        storage: settings for remote paths, as for ``pqsift.scan`` (the workers get them too).

    Every partition that is scheduled holds rows the plan could not rule out; a partition whose
    rows the filter then drops on the worker is empty.
    """
    import dask.dataframe as dd
    from dask.dataframe.utils import clear_known_categories

    path_list = _paths(paths)
    if split_bytes <= 0:
        raise ValueError("split_bytes must be > 0")
    dataset_options = dict(partition_schema=partition_schema, hive_partitioning=hive_partitioning,
                           use_manifest=use_manifest, row_index=row_index, filename=filename,
                           storage=storage)
    read_columns = list(columns) if columns is not None else None
    if index is not None and read_columns is not None and index not in read_columns:
        read_columns = [index] + read_columns
    pandas_options = dict(date_as_object=date_as_object, timestamp_as_object=timestamp_as_object,
                          maps_as_pydicts=maps_as_pydicts)

    # One filter text for the client's plan and the workers' scans.
    filter = _resolve_filters(  # noqa: A001
        path_list, None, _options(filter=filter, filters=filters, **dataset_options))["filter"]
    # One listing for the partition keys, the splits and the schema (the client's planning is
    # serial time before any worker starts).
    keys, raw_parts, names, empty = _pqsift.partition_plan(
        path_list, int(split_bytes),
        _options(columns=read_columns, filter=filter, threads=1, **dataset_options),
        _convert.pandas_options(**pandas_options))
    if partition_schema is None and keys:
        # The workers' scans see one file each: they get the types the whole listing inferred.
        dataset_options["partition_schema"] = ",".join(f"{name}:{type_}" for name, type_ in keys)
    parts = [Split(*p) for p in raw_parts]
    meta = _convert.frame(names, empty, 0)
    # Each partition knows only its own files' names (categories): Dask's unknown categories.
    meta = clear_known_categories(meta)
    if index is not None:
        if index not in meta.columns:
            raise KeyError(f"index column {index!r} is not among the columns read")
        meta = meta.set_index(index)

    groups = _group(parts, split_bytes)
    divisions = None
    if index is not None and calculate_divisions and parts:
        divisions = _divisions(parts, groups, index, meta.index.dtype)

    reader = _ReadSplit(read_columns, filter,
                        dict(dataset_options, threads=threads), meta, index, pandas_options)
    if not parts:
        return dd.from_pandas(meta, npartitions=1)
    splits_per_file = collections.Counter(p.path for p in parts)
    tasks = [(group, all(splits_per_file[p.path] == 1 for p in group)) for group in groups]
    return dd.from_map(reader, tasks, meta=meta, divisions=divisions,
                       label="pqsift-read-parquet", enforce_metadata=False,
                       token=_token(reader, tasks, divisions))


def _token(reader: _ReadSplit, tasks: List[Any], divisions: Any) -> str:
    """The collection's name token: a hash of everything a partition's result depends on (the
    same plan gives the same keys, as Dask's own tokenize would). Dask's tokenize walks the
    thousands of splits of a large dataset element by element, which took half of the client's
    planning time; pickle writes these plain tuples in one C pass."""
    state = (reader.columns, reader.filter, sorted(reader.scan_options.items()), reader.index,
             sorted(reader.pandas_options.items()), list(reader.meta.columns),
             [str(t) for t in reader.meta.dtypes], str(reader.meta.index.dtype), divisions, tasks)
    return hashlib.sha1(pickle.dumps(state, protocol=4)).hexdigest()


def _group(parts: List[Split], split_bytes: int) -> List[Tuple[Split, ...]]:
    """Consecutive splits into partitions of about split_bytes (a split's size: its byte
    range); a split of that size or more is a partition of its own."""
    groups: List[Tuple[Split, ...]] = []
    current: List[Split] = []
    size = 0
    for part in parts:
        part_bytes = part.end - part.start
        if current and size + part_bytes > split_bytes:
            groups.append(tuple(current))
            current, size = [], 0
        current.append(part)
        size += part_bytes
    if current:
        groups.append(tuple(current))
    return groups


def _divisions(parts: List[Split], groups: List[Tuple[Split, ...]], index: str,
               dtype: Any) -> Optional[Tuple[Any, ...]]:
    """Dask's divisions from the footer statistics of the index column: each partition's
    minimum, then the last one's maximum; None unless every split has trusted bounds and no
    NULL, and the splits' ranges ascend without touching (a value at a boundary would belong to
    two partitions)."""
    import pandas as pd

    from . import _convert

    ranges = _pqsift.split_column_ranges([tuple(p[:3]) for p in parts], index,
                                         _convert.pandas_options())
    bounds = []
    for low, high, may_have_nulls in ranges:
        if low is None or high is None or may_have_nulls:
            return None
        bounds.append((low, high))
    for (_, previous_high), (low, _) in zip(bounds, bounds[1:]):
        if not previous_high < low:
            return None
    values = []
    first = 0
    for group in groups:
        values.append(bounds[first][0])
        first += len(group)
    values.append(bounds[-1][1])
    try:
        return tuple(pd.Series(values).astype(dtype))
    except (TypeError, ValueError):
        return tuple(values)


def _write_partition(frame: Any, path: str, number: int, partition_by: Optional[List[str]],
                     options: Dict[str, Any]) -> int:
    """One partition of to_parquet, on a worker: its own file, or its own files in the hive
    folders (named after the partition, so partitions never write the same file)."""
    import os

    from ._write import write

    if partition_by:
        if len(frame) == 0:
            return 0
        return write(frame, path, partition_by=partition_by, file_prefix=f"part.{number}",
                     append=True, **options)
    return write(frame, os.path.join(path, f"part.{number}.parquet"), **options)


def to_parquet(df: Any, path: str, partition_by: Union[None, str, Sequence[str]] = None, *,
               compute: bool = True, **writer_options: Any) -> Any:
    """Writes a ``dask.dataframe.DataFrame`` as Parquet files under the folder ``path`` (new or
    empty), one task per partition, each written by pqsift on its worker (Debian's Dask has no
    Parquet writer of its own: it needs pyarrow or fastparquet).

    Without ``partition_by`` partition i is ``path/part.i.parquet``; with it the rows go to hive
    folders as ``pqsift.write(partition_by=...)`` writes them, partition i's files named
    ``part.i-N.parquet``. ``writer_options`` as for ``pqsift.write`` (``compression``,
    ``row_group_rows``, ``sort_by``, ``bloom_filters``, ...). The index is not written (as
    ``pqsift.write``: ``df.reset_index()`` keeps it as a column). Returns the number of rows
    written, or with ``compute=False`` a ``dask.delayed`` value that writes when computed.
    ``pqsift.dask.read_parquet(path)`` reads the result back.
    """
    import os

    import dask

    if isinstance(partition_by, str):
        partition_by = [partition_by]
    for key in ("file_prefix", "append"):
        if key in writer_options:
            raise TypeError(f"to_parquet names the files itself: no {key}=")
    path = os.fspath(path)
    if os.path.exists(path) and (not os.path.isdir(path) or os.listdir(path)):
        raise InvalidArgumentError(f"{path}: exists and is not an empty folder")
    os.makedirs(path, exist_ok=True)
    by = list(partition_by) if partition_by else None
    parts = [dask.delayed(_write_partition)(part, path, i, by, writer_options)
             for i, part in enumerate(df.to_delayed())]
    total = dask.delayed(sum)(parts)
    return total.compute() if compute else total
