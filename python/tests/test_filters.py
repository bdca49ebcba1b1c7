"""``filters=`` (pyarrow's, pandas' and Dask's form): the text it becomes, and the rows it keeps
against a reference that evaluates pyarrow's semantics row by row in Python, for random
filters over every flat type family, with NULLs and NaN."""

from __future__ import annotations

import datetime
import decimal
import math
import operator
import random
from typing import Any, Callable, Dict, List

import numpy as np
import pandas as pd
import pytest

import pqsift
import pqsift.dask
from pqsift._filters import to_filter_text


def test_the_text_it_becomes():
    assert to_filter_text([("region", "in", ["eu", "us"]), ("qty", ">=", np.int64(5))]) == \
        "(\"region\" IN ('eu', 'us')) AND (\"qty\" >= 5)"
    assert to_filter_text([[("id", "<", 10)], [("id", ">", 90), ("p", "!=", 1.5)]]) == \
        '("id" < 10) OR (("id" > 90) AND ("p" <> 1.5e0))'
    assert to_filter_text([("a b", "==", "it's")]) == "\"a b\" = 'it''s'"
    assert to_filter_text([(("s", "x"), "is not", None)]) == '"s"."x" IS NOT NULL'
    assert to_filter_text([("d", "<", datetime.date(2026, 1, 5))]) == "\"d\" < DATE '2026-01-05'"
    assert to_filter_text([("t", "<", pd.Timestamp("2026-01-02 00:00:00.000000001"))]) == \
        "\"t\" < TIMESTAMP '2026-01-02 00:00:00.000000001'"
    assert to_filter_text([("t", "=", np.datetime64("2026-01-01T01:02:03.5"))]) == \
        "\"t\" = TIMESTAMP '2026-01-01 01:02:03.500000000'"
    assert to_filter_text([("z", "=", pd.Timestamp("2026-01-01 05:00", tz="Europe/Paris"))]) == \
        "\"z\" = TIMESTAMPTZ '2026-01-01 05:00:00+01:00'"
    assert to_filter_text([("n", "=", decimal.Decimal("1E+2"))]) == '"n" = 100'
    assert to_filter_text([("b", "=", b"\x00\xff"), ("f", "=", True)]) == \
        "(\"b\" = X'00ff') AND (\"f\" = TRUE)"
    assert to_filter_text([]) is None and to_filter_text(None) is None


@pytest.mark.parametrize("filters, error", [
    ("qty > 1", TypeError),
    ([("qty", "~", 1)], ValueError),
    ([("qty", ">", object())], TypeError),
    ([("qty", "in", 5)], TypeError),
    ([("qty", "is", 5)], ValueError),
    ([("qty", ">", None)], ValueError),
    ([("qty", ">", 1), [("qty", "<", 5)]], ValueError),
    ([("qty", ">")], ValueError),
])
def test_malformed_filters_name_the_tuple(events, filters, error):
    with pytest.raises(error):
        pqsift.count(events, filters=filters)


def test_filter_and_filters_both_hold(events):
    both = pqsift.count(events, filter="qty > 50", filters=[("region", "=", "eu")])
    assert both == pqsift.count(events, filter="qty > 50 AND region = 'eu'") > 0
    df = pqsift.read_parquet(events, ["id", "region"], [("region", "in", ["eu", "apac"])])
    assert list(df.columns) == ["id", "region"] and set(df.region) == {"eu", "apac"}


def test_splits_and_dask_take_filters(hive_dataset):
    filters = [("day", "=", datetime.date(2026, 1, 2)), ("amount", ">", 100)]
    text = "day = DATE '2026-01-02' AND amount > 100"
    assert pqsift.splits(hive_dataset, 4096, filters=filters) == \
        pqsift.splits(hive_dataset, 4096, filter=text)
    ddf = pqsift.dask.read_parquet(hive_dataset, filters=filters, split_bytes=4096)
    expected = pqsift.scan(hive_dataset, filter=text).to_pandas()
    got = ddf.compute(scheduler="sync")
    assert ddf.npartitions == len(pqsift.splits(hive_dataset, 4096, filter=text))
    pd.testing.assert_frame_equal(got.sort_values("id").reset_index(drop=True),
                                  expected.sort_values("id").reset_index(drop=True))


# --- random filters against a reference ----------------------------------------------------

ROWS = 400
UTC = datetime.timezone.utc


def _frame(rng: random.Random) -> Dict[str, List[Any]]:
    """Python values per column (None: NULL; float('nan') a NaN value)."""
    def maybe(value: Any) -> Any:
        return None if rng.random() < 0.1 else value

    base = datetime.datetime(2026, 1, 1)
    return {
        "i": [maybe(rng.randrange(-20, 20)) for _ in range(ROWS)],
        "f": [maybe(rng.choice([float("nan"), -1.5, 0.0, 2.25, 7.0, float("inf")])
                    if rng.random() < 0.3 else rng.randrange(-40, 40) / 4) for _ in range(ROWS)],
        "s": [maybe(rng.choice(["eu", "us", "apac", "it's", "", "Eu"])) for _ in range(ROWS)],
        "b": [maybe(rng.random() < 0.5) for _ in range(ROWS)],
        "d": [maybe(datetime.date(2026, 1, 1) + datetime.timedelta(days=rng.randrange(10)))
              for _ in range(ROWS)],
        "t": [maybe(base + datetime.timedelta(hours=rng.randrange(48))) for _ in range(ROWS)],
        "z": [maybe((base + datetime.timedelta(hours=rng.randrange(48))).replace(tzinfo=UTC))
              for _ in range(ROWS)],
        "n": [maybe(decimal.Decimal(rng.randrange(-500, 500)).scaleb(-2)) for _ in range(ROWS)],
    }


def _write(values: Dict[str, List[Any]], path) -> str:
    f = values["f"]
    frame = pd.DataFrame({
        "id": np.arange(ROWS, dtype=np.int64),
        "i": pd.array(values["i"], dtype="Int64"),
        # A FloatingArray keeps NaN values apart from NULLs (its mask).
        "f": pd.arrays.FloatingArray(np.array([0.0 if v is None else v for v in f]),
                                     np.array([v is None for v in f])),
        "s": pd.array(values["s"], dtype="string"),
        "b": pd.array(values["b"], dtype="boolean"),
        "d": pd.Series(values["d"], dtype=object),
        "t": pd.Series([pd.NaT if v is None else v for v in values["t"]], dtype="datetime64[ns]"),
        "z": pd.Series([pd.NaT if v is None else v for v in values["z"]],
                       dtype="datetime64[ns, UTC]"),
        "n": pd.Series(values["n"], dtype=object),
    })
    pqsift.write(frame, path, row_group_rows=100)
    return str(path)


def _value(rng: random.Random, column: str, values: List[Any]) -> Any:
    present = [v for v in values if v is not None]
    choice = rng.choice(present)
    if column == "i":
        return rng.choice([choice, np.int32(choice), rng.randrange(-25, 25), choice + 0.5])
    if column == "f":
        return rng.choice([choice, float("nan"), np.float32(2.25), 3, float("-inf")])
    if column == "s":
        return rng.choice([choice, "zz", np.str_(choice)])
    if column == "t":
        return rng.choice([choice, pd.Timestamp(choice), np.datetime64(choice),
                           choice + datetime.timedelta(minutes=30)])
    if column == "z":
        return rng.choice([choice, pd.Timestamp(choice).tz_convert("Asia/Tokyo")])
    if column == "n":
        return rng.choice([choice, decimal.Decimal("0.5"), int(choice)])
    return choice


def _predicate(rng: random.Random, values: Dict[str, List[Any]]) -> tuple:
    column = rng.choice(list(values))
    op = rng.choice(["=", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not"])
    if op in ("is", "is not"):
        return (column, op, None)
    if column in ("b",) and op not in ("=", "==", "!=", "in", "not in"):
        op = "="
    if op in ("in", "not in"):
        picked = [_value(rng, column, values[column]) for _ in range(rng.randrange(0, 4))]
        if rng.random() < 0.3:
            picked.append(None)
        return (column, op, picked)
    return (column, op, _value(rng, column, values[column]))


def _plain(value: Any) -> Any:
    """A value as Python compares it: numpy scalars and timestamps made plain, aware instants in
    UTC."""
    if isinstance(value, np.datetime64):
        return pd.Timestamp(value).to_pydatetime(warn=False)
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, pd.Timestamp):
        return value
    return value


COMPARE: Dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq, "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


def _holds(row_value: Any, op: str, value: Any) -> bool:
    """pyarrow's semantics for one row."""
    if op == "is":
        return row_value is None
    if op == "is not":
        return row_value is not None
    if op in ("in", "not in"):
        plain = [_plain(v) for v in value]
        if row_value is None:
            found = any(v is None for v in plain)
        elif isinstance(row_value, float) and math.isnan(row_value):
            found = any(isinstance(v, float) and math.isnan(v) for v in plain)
        else:
            found = any(v is not None and row_value == v for v in plain)
        return found if op == "in" else not found
    if row_value is None:
        return False
    if isinstance(value, np.float32):  # compared as the double it is
        value = float(value)
    return bool(COMPARE[op](row_value, _plain(value)))


@pytest.mark.parametrize("seed", range(4))
def test_random_filters_keep_pyarrows_rows(tmp_path, seed):
    rng = random.Random(seed)
    values = _frame(rng)
    path = _write(values, tmp_path / "typed.parquet")
    for _ in range(40):
        if rng.random() < 0.3:
            filters: Any = [[_predicate(rng, values) for _ in range(rng.randrange(1, 3))]
                            for _ in range(rng.randrange(1, 3))]
            disjuncts = filters
        else:
            filters = [_predicate(rng, values) for _ in range(rng.randrange(1, 4))]
            disjuncts = [filters]
        expected = [r for r in range(ROWS)
                    if any(all(_holds(values[c][r], op, v) for c, op, v in conj)
                           for conj in disjuncts)]
        for prune in (True, False):
            got = pqsift.read_parquet(path, ["id"], filters, prune=prune).id.tolist()
            assert got == expected, (filters, prune, to_filter_text(filters))


# --- partitioned writing, read back with filters= ------------------------------------------

def test_partitioned_write_scans_back_and_prunes_folders(tmp_path):
    from conftest import sample_frame

    df = sample_frame(3000, seed=3)
    df["day"] = pd.Series([datetime.date(2026, 1, 1 + i % 3) for i in range(len(df))], dtype=object)
    df["region"] = pd.array([["eu", "us", None, "a/b"][i % 4] for i in range(len(df))],
                            dtype="string")
    root = tmp_path / "events"
    assert pqsift.write(df, root, partition_by=["day", "region"], row_group_rows=300) == 3000
    assert (root / "day=2026-01-02" / "region=a%2Fb" / "part-0.parquet").exists()
    assert (root / "day=2026-01-01" / "region=__HIVE_DEFAULT_PARTITION__").exists()

    back = pqsift.read_parquet(root).sort_values("id").reset_index(drop=True)
    assert list(back.columns) == [c for c in df.columns if c not in ("day", "region")] + \
        ["day", "region"]
    expected = df[list(back.columns)]
    pd.testing.assert_frame_equal(back, expected, check_dtype=False)

    s = pqsift.scan(root, filters=[("region", "=", "a/b"), ("day", "=", datetime.date(2026, 1, 2))])
    rows = s.to_pandas()
    assert len(rows) == ((df.region == "a/b") & (df.day == datetime.date(2026, 1, 2))).sum() > 0
    stats = s.stats()
    assert stats["files"] == 1 and stats["files_skipped_by_partition"] == stats["files_total"] - 1

    with pytest.raises(pqsift.InvalidArgumentError, match="not an empty folder"):
        pqsift.write(df, root, partition_by="day")
    with pytest.raises(pqsift.InvalidArgumentError, match="'nope' is not a column"):
        pqsift.write(df, tmp_path / "other", partition_by=["nope"])
