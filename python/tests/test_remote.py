"""Remote paths from Python: an HTTP server the test starts on loopback (Python's http.server,
which answers every GET with the whole file, Range or not), read with and without settings
(scan(storage=...)), through scan, count, splits, inspect and Dask."""

from __future__ import annotations

import functools
import http.server
import threading

import numpy as np
import pandas as pd
import pytest

import pqsift
import pqsift.dask


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # noqa: D401 - silence the request log
        pass


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A 200,000-row file (about 3 MB: more than a first read of 512 KiB) served over HTTP."""
    root = tmp_path_factory.mktemp("www")
    rows = 200_000
    frame = pd.DataFrame({
        "id": np.arange(rows, dtype=np.int64),
        "name": pd.array([f"name-{i * 7919 % 100003}" for i in range(rows)], dtype="string"),
    })
    path = root / "data.parquet"
    pqsift.write(frame, path, compression="none")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield path, f"http://127.0.0.1:{server.server_address[1]}/data.parquet"
    finally:
        server.shutdown()
        server.server_close()


def test_a_url_reads_as_its_local_file(served):
    path, url = served
    where = "id BETWEEN 1000 AND 1009 OR name = 'name-5'"
    want = pqsift.scan(path, filter=where).to_pandas()
    got = pqsift.scan(url, filter=where).to_pandas()
    pd.testing.assert_frame_equal(got, want)
    assert len(got) > 10
    assert pqsift.count(url) == 200_000
    assert pqsift.inspect(url)["num_rows"] == pqsift.inspect(path)["num_rows"] == 200_000
    signed = pqsift.scan(url + "?X-Amz-Signature=abc", columns=["id"]).to_pandas()
    assert signed["id"].sum() == np.arange(200_000).sum()


def test_storage_settings_reach_the_engine(served):
    path, url = served
    assert pqsift.count(url, storage={"retries": 1, "max_requests": 2}) == 200_000
    # The server ignores Range: the file is read whole only up to max_whole_file_bytes.
    with pytest.raises(pqsift.IOError,
                       match="does not honour Range requests.*max-whole-file-bytes"):
        pqsift.scan(url, storage={"max_whole_file_bytes": 1000}).to_pandas()
    with pytest.raises(pqsift.IOError, match="max-whole-file-bytes"):
        pqsift.inspect(url, storage={"max_whole_file_bytes": 1000})
    assert len(pqsift.splits(url, 1 << 20, storage={"retries": 0})) >= 1


def test_storage_settings_are_checked(served):
    _, url = served
    with pytest.raises(ValueError, match="unknown storage setting 'endpoint'"):
        pqsift.scan(url, storage={"endpoint": "x"})
    with pytest.raises(TypeError, match="must be int"):
        pqsift.scan(url, storage={"retries": "3"})
    with pytest.raises(ValueError, match="s3_addressing"):
        pqsift.scan(url, storage={"s3_addressing": "sideways"})
    assert set(pqsift.STORAGE_KEYS) >= {"ca_bundle", "insecure", "s3_endpoint", "retries"}


def test_dask_reads_a_url_with_its_settings(served):
    path, url = served
    ddf = pqsift.dask.read_parquet(url, columns=["id"], filter="id < 5000", split_bytes=1 << 20,
                                   storage={"retries": 2})
    got = ddf.compute(scheduler="synchronous")
    assert got["id"].sort_values().tolist() == list(range(5000))
    with pytest.raises(pqsift.IOError, match="max-whole-file-bytes"):
        pqsift.dask.read_parquet(url, storage={"max_whole_file_bytes": 1000})


class _SignedOnly(_Quiet):
    """Answers 403 to a request whose URL lacks the signature, as a store does to an unsigned
    request for a private object."""

    def send_head(self):
        if "X-Amz-Signature=abc" not in self.path:
            self.send_error(403, "unsigned")
            return None
        return super().send_head()


def test_splits_and_dask_keep_a_signed_urls_query(tmp_path):
    # The splits of a signed URL name it with its query, so a worker scanning a split reaches the
    # file (its path was the URL without the query, and the worker's requests were refused).
    rows = 60_000
    pqsift.write(pd.DataFrame({"id": np.arange(rows, dtype=np.int64)}), tmp_path / "s.parquet",
                 row_group_rows=10_000, compression="none")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_SignedOnly, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/s.parquet?X-Amz-Signature=abc"
        parts = pqsift.splits(url, 1)
        assert len(parts) == 6 and all(p.path == url for p in parts)
        got = pqsift.dask.read_parquet(url, columns=["id"], split_bytes=1).compute(
            scheduler="synchronous")
        assert sorted(got["id"].tolist()) == list(range(rows))
        with pytest.raises(pqsift.IOError, match="403") as refused:
            pqsift.scan(url.split("?")[0]).to_pandas()
        assert "Signature" not in str(refused.value)
    finally:
        server.shutdown()
        server.server_close()
