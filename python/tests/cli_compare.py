"""Comparing to_pandas() with the CLI's JSON Lines, value by value (test_interop_*.py).

`compare(path)` scans a file both ways: where the CLI fails, Python must raise pqsift.Error with
the CLI's message; otherwise every cell of the DataFrame must be the value the CLI printed
(`same`; `json_like` is a fast first pass over whole columns). At most ROWS rows are compared
(the peer files hold up to 100,000: the first 6,000, three of DuckDB's row groups, cover their encodings and types)."""

from __future__ import annotations

import datetime
import decimal
import json
import math
import re
from pathlib import Path
from typing import Any, List

import numpy as np
import pandas as pd
import pytest

import pqsift
from conftest import cli_error, run_cli

_TIMESTAMP = re.compile(r"^([+-]?\d+)-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?(\+00)?$")
_TIME = re.compile(r"^(\d\d):(\d\d):(\d\d)(?:\.(\d+))?$")


def _days_from_civil(y: int, m: int, d: int) -> int:
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _nanos_of_fraction(fraction: str) -> int:
    return int((fraction or "").ljust(9, "0")[:9] or 0)


def _timestamp_nanos(text: str) -> int:
    m = _TIMESTAMP.match(text)
    assert m, f"not a timestamp: {text!r}"
    y, mo, d, h, mi, s, frac, _ = m.groups()
    days = _days_from_civil(int(y), int(mo), int(d))
    return ((days * 86400 + int(h) * 3600 + int(mi) * 60 + int(s)) * 10**9) + _nanos_of_fraction(frac)


def _time_nanos(text: str) -> int:
    m = _TIME.match(text)
    assert m, f"not a time: {text!r}"
    h, mi, s, frac = m.groups()
    return (int(h) * 3600 + int(mi) * 60 + int(s)) * 10**9 + _nanos_of_fraction(frac)


def _same_float(cell: float, expected: Any) -> bool:
    if isinstance(expected, str):
        expected = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[expected]
    expected = float(expected)
    if math.isnan(cell) or math.isnan(expected):
        return math.isnan(cell) and math.isnan(expected)
    if cell == expected:
        return True
    # A float32 value: the CLI prints its shortest float32 text.
    return float(np.float32(expected)) == cell


def same(cell: Any, expected: Any) -> bool:
    """Whether a pandas cell is the value the CLI printed as `expected` (parsed JSON)."""
    if cell is None or cell is pd.NA or cell is pd.NaT or (isinstance(cell, float) and math.isnan(cell) and expected is None):
        return expected is None
    if expected is None:
        return False
    if isinstance(cell, (bool, np.bool_)):
        return bool(cell) == expected
    if isinstance(cell, (int, np.integer)):
        return int(cell) == int(expected)
    if isinstance(cell, (float, np.floating)):
        return _same_float(float(cell), expected)
    if isinstance(cell, decimal.Decimal):
        return cell == decimal.Decimal(str(expected))
    if isinstance(cell, str):
        return cell == expected
    if isinstance(cell, bytes):
        return expected == "0x" + cell.hex()
    if isinstance(cell, pd.Timestamp):
        return cell.value == _timestamp_nanos(expected)
    if isinstance(cell, datetime.datetime):
        epoch = datetime.datetime(1970, 1, 1, tzinfo=cell.tzinfo)
        delta = cell - epoch
        return ((delta.days * 86400 + delta.seconds) * 10**6 + delta.microseconds) * 1000 == _timestamp_nanos(expected)
    if isinstance(cell, np.datetime64):
        unit, _ = np.datetime_data(cell.dtype)
        per = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}[unit]
        return int(cell.astype(np.int64)) * per == _timestamp_nanos(expected)
    if isinstance(cell, datetime.date):
        return cell.isoformat() == expected
    if isinstance(cell, datetime.time):
        return ((cell.hour * 60 + cell.minute) * 60 + cell.second) * 10**9 + cell.microsecond * 1000 == _time_nanos(expected)
    if isinstance(cell, (pd.Timedelta, np.timedelta64)):
        return pd.Timedelta(cell).value == _time_nanos(expected)
    if isinstance(cell, dict):
        return isinstance(expected, dict) and cell.keys() == expected.keys() and all(
            same(cell[k], expected[k]) for k in cell)
    if isinstance(cell, list):
        if isinstance(expected, dict):  # a map with string keys prints as {"k": v}
            return all(isinstance(c, tuple) for c in cell) and _map_objects_match(cell, expected)
        if not isinstance(expected, list) or len(cell) != len(expected):
            return False
        if cell and isinstance(cell[0], tuple):  # another map: [{"key": k, "value": v}]
            return all(same(k, e["key"]) and same(v, e["value"]) for (k, v), e in zip(cell, expected))
        return all(same(c, e) for c, e in zip(cell, expected))
    raise AssertionError(f"unexpected cell {cell!r} ({type(cell)})")


_SAFE_INT = 2**53 - 1


def json_like(cell: Any) -> Any:
    """A cell as the CLI would print it, for the common types (a fast first comparison; `same`
    decides cell by cell where this form differs: float32, decimals, times, timestamps)."""
    if cell is None or cell is pd.NA or cell is pd.NaT:
        return None
    t = type(cell)
    if t is bool or t is str:
        return cell
    if t is int:
        return cell if -_SAFE_INT <= cell <= _SAFE_INT else str(cell)
    if t is float:
        if cell != cell:
            return "NaN"
        if cell in (math.inf, -math.inf):
            return "Infinity" if cell > 0 else "-Infinity"
        return cell
    if t is bytes:
        return "0x" + cell.hex()
    if t is list:
        if cell and type(cell[0]) is tuple and all(type(k) is str for k, _ in cell):
            return {k: json_like(v) for k, v in cell}
        return [json_like(c) for c in cell]
    if t is dict:
        return {k: json_like(v) for k, v in cell.items()}
    if t is datetime.date:
        return cell.isoformat()
    if t is pd.Timestamp:
        return _clock_text(cell.value, 10**9, cell.tzinfo is not None)
    if t is datetime.datetime:
        delta = cell.replace(tzinfo=None) - datetime.datetime(1970, 1, 1)
        micros = (delta.days * 86400 + delta.seconds) * 10**6 + delta.microseconds
        return _clock_text(micros, 10**6, cell.tzinfo is not None)
    if t is datetime.time:
        text = _clock_text(((cell.hour * 60 + cell.minute) * 60 + cell.second) * 10**6
                           + cell.microsecond, 10**6, False)
        return text[len("1970-01-01 "):]
    return cell  # compared by `same`


def _clock_text(ticks: int, per_second: int, utc: bool) -> str:
    """The CLI's "YYYY-MM-DD HH:MM:SS[.fraction]" (fraction without trailing zeros, "+00" for
    instants), for years 1-9999."""
    seconds, fraction = divmod(ticks, per_second)
    days, second = divmod(seconds, 86400)
    day = datetime.date(1970, 1, 1) + datetime.timedelta(days=days)
    text = f"{day.isoformat()} {second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}"
    if fraction:
        digits = len(str(per_second)) - 1
        text += f".{fraction:0{digits}d}".rstrip("0")
    return text + ("+00" if utc else "")


def _map_objects_match(cell: List[tuple], expected: dict) -> bool:
    # Duplicate keys print twice in the CLI's object; json.loads keeps the last of each.
    last = {}
    for k, v in cell:
        last[k] = v
    return last.keys() == expected.keys() and all(same(last[k], expected[k]) for k in last)


ROWS = 6_000


def compare(path: Path) -> None:
    done = run_cli("scan", str(path), "--format", "jsonl", "--limit", str(ROWS), check=False)
    if done.returncode != 0:
        expected = cli_error("scan", str(path), "--format", "jsonl", "--limit", str(ROWS))
        with pytest.raises(pqsift.Error) as raised:
            pqsift.scan(str(path), limit=ROWS).to_pandas()
        assert str(raised.value) == expected
        return
    rows = json.loads("[" + ",".join(line for line in done.stdout.splitlines() if line) + "]")
    fields = pqsift.scan(str(path), limit=ROWS).schema
    try:
        df = pqsift.scan(str(path), limit=ROWS).to_pandas()
    except pqsift.OutOfRangeError:
        try:
            df = pqsift.scan(str(path), limit=ROWS).to_pandas(timestamp_as_object=True)
        except pqsift.OutOfRangeError:  # beyond datetime.datetime too: numpy's datetime64
            arrays = pqsift.scan(str(path), limit=ROWS).to_numpy()
            df = pd.DataFrame({n: list(a) for n, a in arrays.items()})
            for n, valid in arrays.valid.items():
                if valid is not None:
                    df[n] = [v if ok else None for v, ok in zip(df[n], valid)]
    assert len(df) == len(rows), path
    assert list(df.columns) == [f.name for f in fields]
    variant = {f.name for f in fields if "variant" in f.type}
    for name in df.columns:
        if name in variant:
            continue  # the CLI renders variants as JSON; Python gives their two binaries
        column = df[name].tolist() if df[name].dtype != object else list(df[name])
        expected_column = [row[name] for row in rows]
        field_type = next(f.type for f in fields if f.name == name)
        if df[name].dtype == np.float32:  # the CLI prints float32's shortest text
            fast = [json_like(float(str(np.float32(c)))) if c == c else "NaN" for c in column]
        elif field_type.startswith("decimal128("):
            # Precision up to 15: a JSON number; above: a string of the exact digits.
            as_number = int(field_type[len("decimal128("):].split(",")[0]) <= 15
            fast = [None if c is None else float(c) if as_number else format(c, "f") for c in column]
        else:
            fast = [json_like(c) for c in column]
        if fast == expected_column:
            continue
        for i, (cell, expected) in enumerate(zip(column, expected_column)):
            assert same(cell, expected), f"{path.name}: column {name!r}, row {i}: {cell!r} != {expected!r}"
