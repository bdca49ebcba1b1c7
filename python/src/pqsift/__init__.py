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
from ._scan import (STORAGE_KEYS, Batch, Field, Scan, Split, count, inspect, partition_fields,
                    read_parquet, scan, splits)
from ._write import write

__version__ = _pqsift.__version__

_pqsift._register_errors(dict(_BY_STATUS_CODE))
# Calls interrupted by Ctrl-C finish their batch on their own thread: wait for them at exit.
atexit.register(_pqsift._join_background)


def tune_allocator() -> None:
    """Tunes this process's memory allocators for large scans, once, process-wide: glibc's as
    the pqsift command does at start (freed memory stays in the process instead of being
    returned and faulted in again batch after batch), and Python's small-object allocator
    keeping the arenas it frees for reuse (the next DataFrame of millions of strings then
    writes into memory already touched instead of faulting in fresh memory). Call it
    early, before starting threads, in a process that is mostly scanning: memory Python frees
    is then kept for later objects rather than returned to the system."""
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
    "STORAGE_KEYS",
    "Scan",
    "Split",
    "count",
    "inspect",
    "partition_fields",
    "read_parquet",
    "scan",
    "splits",
    "tune_allocator",
    "write",
]
