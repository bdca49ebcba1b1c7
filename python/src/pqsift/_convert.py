"""Columns from the C++ core (python/ext/columns.h) as numpy arrays and pandas DataFrames.

The core hands over each column as ``(kind, values, mask, timezone)``, already in its final
numpy layout; this module only wraps them: numpy's plain arrays and validity masks, or pandas'
arrays (nullable integers and booleans, strings, zoned timestamps) assembled into a DataFrame
without copying them again.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

Column = Tuple[str, np.ndarray, Optional[np.ndarray], Optional[str]]

_MAPS = {None: "pairs", "lossy": "lossy", "strict": "strict"}


def numpy_options(maps_as_pydicts: Optional[str] = None) -> Dict[str, Any]:
    """What the core needs to build to_numpy()'s columns."""
    return {
        "pandas": False,
        "maps": _maps(maps_as_pydicts),
        "make_ns_timestamp": lambda value, tz: np.datetime64(value, "ns"),
        "make_ns_time": lambda value: np.timedelta64(value, "ns"),
    }


def pandas_options(
    date_as_object: bool = True,
    timestamp_as_object: bool = False,
    maps_as_pydicts: Optional[str] = None,
) -> Dict[str, Any]:
    """What the core needs to build to_pandas()'s columns."""
    import pandas as pd

    return {
        "pandas": True,
        "date_as_object": bool(date_as_object),
        "timestamp_as_object": bool(timestamp_as_object),
        "maps": _maps(maps_as_pydicts),
        "string_null": pd.NA,
        "make_ns_timestamp": lambda value, tz: pd.Timestamp(value, tz=tz),
        "make_ns_time": lambda value: pd.Timedelta(value, "ns"),
    }


def _maps(maps_as_pydicts: Optional[str]) -> str:
    if maps_as_pydicts not in _MAPS:
        raise ValueError(f"maps_as_pydicts must be None, 'lossy' or 'strict', not {maps_as_pydicts!r}")
    return _MAPS[maps_as_pydicts]


class NumpyColumns(dict):
    """to_numpy()'s result: a dict of column name -> numpy array, plus ``valid``.

    ``valid[name]`` is a boolean array, True where the value is not NULL, or None when no value
    of the column is NULL. Under a NULL the array holds 0, NaN, NaT or None.
    """

    valid: Dict[str, Optional[np.ndarray]]

    def __init__(self, names: Sequence[str], columns: Sequence[Column]):
        super().__init__()
        self.valid = {}
        for name, (_kind, values, mask, _tz) in zip(names, columns):
            self[name] = values
            self.valid[name] = mask


def pandas_array(column: Column) -> Any:
    """One column as the array pandas stores (numpy, or a pandas extension array)."""
    import pandas as pd

    kind, values, mask, tz = column
    if kind == "numpy":
        return values
    if kind == "masked":
        if values.dtype == np.bool_:
            return pd.arrays.BooleanArray(values, mask)
        return pd.arrays.IntegerArray(values, mask)
    if kind == "string":
        return _string_array(values)
    if kind == "datetimetz":
        return pd.arrays.DatetimeArray(values, dtype=pd.DatetimeTZDtype(tz=tz))
    if kind == "categorical":  # mask holds the categories (python/ext/columns.h)
        return pd.Categorical.from_codes(values, categories=pd.Index(mask))
    raise AssertionError(f"unknown column kind {kind!r}")


def _string_array(values: np.ndarray) -> Any:
    """A pandas StringArray over an object array that holds only str and pandas.NA (the core
    made it so): without the validation pass, which costs as much as building it."""
    import pandas as pd

    try:
        from pandas._libs.arrays import NDArrayBacked

        array = pd.arrays.StringArray.__new__(pd.arrays.StringArray)
        NDArrayBacked.__init__(array, values, pd.StringDtype(storage="python"))
        return array
    except (ImportError, TypeError, AttributeError):  # another pandas: the public way
        return pd.arrays.StringArray(values)


def frame(names: Sequence[str], columns: Sequence[Column], num_rows: Optional[int] = None) -> Any:
    """A DataFrame of the columns, sharing their memory."""
    arrays = [pandas_array(c) for c in columns]
    rows = num_rows if num_rows is not None else (len(arrays[0]) if arrays else 0)
    return frame_of_arrays(names, arrays, rows)


def frame_of_arrays(names: Sequence[str], arrays: Sequence[Any], rows: int) -> Any:
    """A DataFrame of `rows` rows whose columns are `arrays` (numpy or pandas extension arrays),
    sharing their memory."""
    import pandas as pd

    try:
        return _frame_of_blocks(list(names), list(arrays), rows)
    except Exception:  # pragma: no cover - internals of another pandas version
        df = pd.DataFrame({i: a for i, a in enumerate(arrays)}, index=pd.RangeIndex(rows))
        df.columns = pd.Index(list(names))
        return df


def _frame_of_blocks(names: List[str], arrays: List[Any], rows: int) -> Any:
    """One block per column, through pandas' pseudo-public block API (the one pyarrow uses):
    pandas.DataFrame(dict) would consolidate columns of one dtype into a 2-D block, copying
    them all (twice the memory at its peak)."""
    import pandas as pd
    from pandas.core.internals import BlockManager
    from pandas.core.internals.api import make_block

    blocks = []
    for i, array in enumerate(arrays):
        values = array.reshape(1, -1) if isinstance(array, np.ndarray) else array
        blocks.append(make_block(values, placement=[i], ndim=2))
    manager = BlockManager(blocks, [pd.Index(names), pd.RangeIndex(rows)], verify_integrity=False)
    from_mgr = getattr(pd.DataFrame, "_from_mgr", None)
    if from_mgr is not None:
        return from_mgr(manager, axes=manager.axes)
    return pd.DataFrame(manager)
