"""Shared fixtures of the pytest suite: the CLI, the test files, small generated datasets.

Run through ctest (label "python") against the package in the build tree, or by hand:
    PYTHONPATH=build/python /usr/bin/python3 -m pytest python/tests
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional

import numpy as np
import pandas as pd
import pytest

import pqsift

HERE = Path(__file__).resolve().parent
SOURCE = Path(os.environ.get("PQSIFT_SOURCE_DIR", HERE.parent.parent))


def _cli_path() -> Path:
    given = os.environ.get("PQSIFT_CLI")
    if given:
        return Path(given)
    return SOURCE / "build" / "src" / "pqsift"


CLI = _cli_path()


def run_cli(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Runs the pqsift command; returns the completed process (stdout, stderr as text)."""
    done = subprocess.run([str(CLI), *args], capture_output=True, text=True)
    if check and done.returncode != 0:
        raise AssertionError(f"pqsift {' '.join(args)} failed: {done.stderr}")
    return done


def cli_rows(*args: str) -> List[Dict[str, Any]]:
    """The rows of `pqsift scan ARGS --format jsonl`."""
    out = run_cli("scan", *args, "--format", "jsonl").stdout
    return [json.loads(line) for line in out.splitlines() if line]


def cli_error(*args: str) -> Optional[str]:
    """The CLI's error message for ARGS (without the 'pqsift: ' prefix), or None."""
    done = run_cli(*args, check=False)
    if done.returncode == 0:
        return None
    line = done.stderr.strip().splitlines()[-1]
    return line[len("pqsift: "):] if line.startswith("pqsift: ") else line


@pytest.fixture(scope="session")
def cli() -> Path:
    if not CLI.exists():
        pytest.skip(f"the pqsift CLI is not built ({CLI})")
    return CLI


@pytest.fixture(scope="session")
def events() -> str:
    return str(SOURCE / "examples" / "events.parquet")


def testing_data_dir() -> Optional[Path]:
    for candidate in (os.environ.get("PARQUET_TEST_DATA"),
                      os.environ.get("PQSIFT_TESTING_DATA_DIR"),
                      str(SOURCE.parent / "shared" / "data" / "parquet-testing")):
        if candidate and Path(candidate).is_dir():
            path = Path(candidate)
            return path / "data" if (path / "data").is_dir() else path
    return None


def peer_files_dir() -> Optional[Path]:
    given = os.environ.get("PQSIFT_PEER_FILES")
    if given and Path(given).is_dir() and any(Path(given).glob("*.parquet")):
        return Path(given)
    return None


def write_frame(df: pd.DataFrame, path: Path, **options: Any) -> str:
    pqsift.write(df, path, **options)
    return str(path)


def sample_frame(rows: int, seed: int = 0, start: int = 0) -> pd.DataFrame:
    """Rows of every flat type family pqsift.write takes from pandas, with NULLs."""
    rng = np.random.default_rng(seed)
    ids = np.arange(start, start + rows, dtype=np.int64)
    nulls = rng.random(rows) < 0.1
    amount = pd.array(rng.integers(-1000, 1000, rows), dtype="Int64")
    amount[nulls] = pd.NA
    name = pd.array([f"n{i % 97}" for i in ids], dtype="string")
    name[rng.random(rows) < 0.05] = pd.NA
    flag = pd.array(rng.random(rows) < 0.5, dtype="boolean")
    flag[rng.random(rows) < 0.05] = pd.NA
    ts = pd.Series(pd.to_datetime(1_700_000_000_000_000_000 + ids * 1_000_000_000, utc=True))
    price = rng.random(rows) * 100
    price[rng.random(rows) < 0.05] = np.nan
    return pd.DataFrame({
        "id": ids,
        "amount": amount,
        "name": name,
        "flag": flag,
        "ts": ts,
        "price": price,
        "qty": rng.integers(0, 100, rows).astype(np.int32),
    })


@pytest.fixture(scope="session")
def hive_dataset(tmp_path_factory) -> Path:
    """A hive dataset: day=2026-01-0D/region=R/part.parquet, each file sorted by id, ids
    ascending across days; 8 files of 2,000 rows in row groups of 500."""
    root = tmp_path_factory.mktemp("hive")
    start = 0
    for d in range(1, 5):
        for region in ("eu", "us"):
            folder = root / f"day=2026-01-0{d}" / f"region={region}"
            folder.mkdir(parents=True)
            write_frame(sample_frame(2000, seed=d * 10 + len(region), start=start),
                        folder / "part.parquet", row_group_rows=500)
            start += 2000
    return root
