"""pqsift: a Parquet scan engine that reads only the bytes a query can need.

    import pqsift
    df = pqsift.scan("events/", columns=["id", "ts"], filter="ts >= TIMESTAMP '2026-01-05'").to_pandas()

pqsift proves, cheapest evidence first (partition values, footer statistics, page indexes,
dictionaries, bloom filters), which files, row groups and pages cannot match the filter, reads
only what survives and decodes only the selected rows. ``scan`` returns a lazy ``Scan``
(``to_pandas``, ``to_numpy``, iteration over batches, ``explain``, ``stats``, the Arrow
PyCapsule protocol); ``count``, ``splits``, ``inspect`` and ``write`` are the other commands of
the CLI; ``pqsift.dask.read_parquet`` spreads a scan over a Dask cluster. Documentation:
docs/python.md in the repository.
"""

from __future__ import annotations

import atexit

from . import _pqsift
from ._errors import (
    AuthenticationError,
    CorruptionError,
    Error,
    InternalError,
    InvalidArgumentError,
    IOError,
    NotSupportedError,
    OutOfRangeError,
    ResourceExhaustedError,
    _BY_STATUS_CODE,
)
from ._scan import Batch, Field, Scan, Split, count, inspect, partition_fields, scan, splits
from ._write import write

__version__ = _pqsift.__version__

_pqsift._register_errors(dict(_BY_STATUS_CODE))
# Calls interrupted by Ctrl-C finish their batch on their own thread: wait for them at exit.
atexit.register(_pqsift._join_background)


def tune_allocator() -> None:
    """Sets glibc's allocator for scans, as the pqsift command does at start (keeps freed
    memory in the process instead of returning and refaulting it per batch: faster large
    scans). Process-wide: call it early, before starting threads, if this process is mostly
    scanning."""
    _pqsift.tune_allocator()


__all__ = [
    "AuthenticationError",
    "Batch",
    "CorruptionError",
    "Error",
    "Field",
    "IOError",
    "InternalError",
    "InvalidArgumentError",
    "NotSupportedError",
    "OutOfRangeError",
    "ResourceExhaustedError",
    "Scan",
    "Split",
    "count",
    "inspect",
    "partition_fields",
    "scan",
    "splits",
    "tune_allocator",
    "write",
]
