"""to_pandas() equals the CLI's JSON Lines on the apache/parquet-testing files: every type
family, NULLs, nesting; where the CLI fails on a file, the same message as pqsift.Error."""

from __future__ import annotations

import pytest

from cli_compare import compare
from conftest import testing_data_dir as _data_dir

DATA = _data_dir()
FILES = sorted(DATA.glob("*.parquet")) if DATA is not None else []


@pytest.mark.skipif(not FILES, reason="parquet-testing data not found (PARQUET_TEST_DATA)")
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_pandas_equals_cli(cli, path):
    compare(path)
