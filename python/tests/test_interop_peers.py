"""to_pandas() equals the CLI's JSON Lines on the files DuckDB, Polars and arrow-rs write
(tools/peers/make_files.mjs, the ctest fixture make_peer_files): every scalar type each writer
has, NULLs, nested lists, structs and maps, every encoding and codec."""

from __future__ import annotations

import pytest

from cli_compare import compare
from conftest import peer_files_dir as _peers_dir

PEERS = _peers_dir()
FILES = sorted(PEERS.glob("*.parquet")) if PEERS is not None else []


@pytest.mark.skipif(not FILES, reason="the peer files are not there (ctest fixture make_peer_files)")
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_pandas_equals_cli(cli, path):
    compare(path)
