"""The GIL is released while pqsift reads, and Ctrl-C stops a scan within a batch.

Timing on a loaded machine is noise, so the GIL test does not compare durations: it records,
inside the module, the spans each reading thread spent waiting for pqsift without the GIL, and
asserts that the two threads' spans overlap. Were the GIL held while reading, no two such spans
could overlap at all. The elapsed times (two scans in two threads against one) are printed."""

from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pandas as pd
import pytest

import pqsift


@pytest.fixture(scope="module")
def big_file(tmp_path_factory):
    """400,000 rows of int64 and strings; the tests scan it several times over (the same
    path repeated: one table of many files) for seconds of work without seconds of writing."""
    rows = 400_000
    path = tmp_path_factory.mktemp("big") / "big.parquet"
    ids = np.arange(rows, dtype=np.int64)
    notes = np.char.add("note ", (ids * 7919 % 1_000_003).astype(str)).astype(object)
    pqsift.write(pd.DataFrame({"id": ids, "note": notes}), path, row_group_rows=50_000,
                 dictionary=False)
    return str(path)


def _overlap(a, b):
    """Total time covered by both span lists (each sorted, non-overlapping within itself)."""
    total = 0
    i = j = 0
    while i < len(a) and j < len(b):
        lo = max(a[i][0], b[j][0])
        hi = min(a[i][1], b[j][1])
        if hi > lo:
            total += hi - lo
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


def _read(path, spans, key, traced=True, serialise=None):
    s = pqsift.scan([path] * 6, columns=["id", "note"], threads=1, batch_size=16384)
    s._trace_gil = traced
    batches = iter(s)
    while True:
        if serialise is None:
            batch = next(batches, None)
        else:
            with serialise:  # what holding the GIL while reading would do
                batch = next(batches, None)
        if batch is None:
            break
    spans[key] = s._gil_free_spans()


def _two_threads(path, serialise=None):
    spans = {}
    threads = [threading.Thread(target=_read, args=(path, spans, k, True, serialise))
               for k in ("a", "b")]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    a, b = spans["a"], spans["b"]
    waited = min(sum(e - s for s, e in a), sum(e - s for s, e in b))
    return elapsed, waited, _overlap(a, b)


def test_two_scans_in_two_threads_read_side_by_side(big_file):
    start = time.perf_counter()
    _read(big_file, {}, "one", traced=False)
    one = time.perf_counter() - start
    two, waited, shared = _two_threads(big_file)
    print(f"\none scan {one:.2f} s, two in two threads {two:.2f} s ({two / one:.2f}x); "
          f"GIL-free waits overlap {shared / 1e9:.2f} s of {waited / 1e9:.2f} s")
    assert waited > 0
    # Both threads were inside pqsift at once for a good part of their reading.
    assert shared >= 0.3 * waited
    # The measure sees serialised reading: with a lock held around each read, as a GIL held
    # while reading would be, the waits never overlap.
    _, waited, shared = _two_threads(big_file, serialise=threading.Lock())
    assert waited > 0 and shared < 0.05 * waited


def test_ctrl_c_stops_a_scan_within_a_batch(big_file):
    # No pruning and a filter no row passes: the whole file is one Next() call, long enough to
    # be interrupted in the middle.
    s = pqsift.scan([big_file] * 40, filter="note LIKE '%zzz%'", prune=False, threads=1,
                    batch_size=4096)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    started = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            s.to_pandas()
        stopped = time.perf_counter() - started
    finally:
        timer.cancel()
    # Python got control back at once (20 ms polling), not at the end of the scan.
    assert stopped < 0.3 + 1.0
    # The scan then stopped on its worker: fewer rows decoded than the file holds.
    time.sleep(0.2)
    assert s.stats()["rows_decoded"] < 40_000_000


def test_ctrl_c_during_count(big_file):
    s = pqsift.scan([big_file] * 40, filter="note LIKE '%zzz%'", prune=False, threads=1)
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            s.count()
    finally:
        timer.cancel()
    # The next scan of the same object works.
    assert pqsift.scan(big_file, filter="id < 10").count() == 10
