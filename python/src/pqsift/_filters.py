"""``filters=``: the predicate form of pyarrow, pandas and Dask, translated into pqsift's filter
language.

A filter is a list of ``(column, op, value)`` tuples, all of which must hold (AND), or a list of
such lists, any of which must hold (OR of ANDs: disjunctive normal form)::

    [("day", ">=", datetime.date(2026, 1, 5)), ("region", "in", ["eu", "us"])]
    [[("id", "<", 10)], [("id", ">", 90)]]

Operators: ``=`` ``==`` ``!=`` ``<`` ``<=`` ``>`` ``>=`` ``in`` ``not in``, and ``is`` /
``is not`` with ``None`` (as fastparquet); ``= None`` and ``!= None`` mean ``IS NULL`` and
``IS NOT NULL``. Values: ``bool``, ``int``, ``float`` (a double, as Python's; NaN and
infinities too), ``decimal.Decimal`` (exact), ``str``, ``bytes``, ``datetime.date``,
``datetime.datetime`` (naive as written, aware as an instant), ``pandas.Timestamp`` and
``numpy`` scalars.

The rows are pyarrow's: a NULL satisfies no comparison; ``in`` takes the NULLs when ``None`` is
among its values, and ``not in`` takes them unless it is (pyarrow's ``~isin``); a float
column's NaN is neither above, below nor equal to any value (see _Translation).

The translation is text for the same parser as ``filter=``: a malformed tuple is a TypeError or
ValueError naming it; a column no file has is the scan's error, as with ``filter=``.
"""

from __future__ import annotations

import datetime
import decimal
import math
from typing import Any, Callable, Dict, Iterable, Mapping, Optional, Sequence

_COMPARISONS = {"=": "=", "==": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
_OPERATORS = sorted(set(_COMPARISONS) | {"in", "not in", "is", "is not"})


ColumnTypes = Callable[[], Mapping[str, str]]


def to_filter_text(filters: Any, column_types: Optional[ColumnTypes] = None) -> Optional[str]:
    """The filter language's text for ``filters`` (DNF, as above); None for no filter (None or an
    empty list). ``column_types`` gives the Arrow type name of each column (``"double"``); it is
    called at most once, and only when a comparison's meaning depends on it (``>``, ``>=`` of a
    float column: see _Translation). Raises TypeError or ValueError naming the malformed part."""
    return _Translation(column_types).text(filters)


def combine(filter_text: Optional[str], filters: Any,
            column_types: Optional[ColumnTypes] = None) -> Optional[str]:
    """``filter=`` and ``filters=`` together: both must hold."""
    translated = to_filter_text(filters, column_types)
    if translated is None:
        return filter_text
    if filter_text is None or filter_text.strip() == "":
        return translated
    return f"({filter_text}) AND ({translated})"


class _Translation:
    """One translation. NaN is where the two languages differ: the filter language orders NaN
    above every number and equal to itself (DuckDB's rule), pyarrow compares IEEE's way (NaN is
    neither above, below nor equal to anything). They agree on ``<``, ``<=``, ``=`` and ``!=``
    of numbers; so ``>`` and ``>=`` of a float column add ``NOT isnan(column)``, and a NaN
    value compares as IEEE's: ``!= NaN`` is every non-NULL row, the others none. (``in`` and
    ``not in`` agree: pyarrow's sets hold NaN as one value, as DuckDB's.)"""

    _FLOAT_TYPES = ("double", "float", "halffloat")

    def __init__(self, column_types: Optional[ColumnTypes]):
        self._column_types = column_types
        self._types: Optional[Dict[str, str]] = None

    def text(self, filters: Any) -> Optional[str]:
        if filters is None:
            return None
        if isinstance(filters, (str, bytes)) or not isinstance(filters, Sequence):
            raise TypeError("filters must be a list of (column, op, value) tuples, or a list of "
                            f"such lists; got {type(filters).__name__} (give text as filter=)")
        if len(filters) == 0:
            return None
        if all(_is_predicate(item) for item in filters):
            return self._conjunction(filters)
        if all(isinstance(item, (list, tuple)) and not _is_predicate(item) for item in filters):
            disjuncts = [self._conjunction(item) for item in filters]
            return disjuncts[0] if len(disjuncts) == 1 else " OR ".join(f"({d})" for d in disjuncts)
        raise ValueError("filters mixes (column, op, value) tuples and lists of them: give a list "
                         "of tuples (AND) or a list of lists of tuples (OR of ANDs)")

    def _conjunction(self, predicates: Iterable[Any]) -> str:
        parts = []
        for predicate in predicates:
            if not _is_predicate(predicate):
                raise ValueError(f"filters: {predicate!r} is not a (column, op, value) tuple")
            parts.append(self._predicate(*predicate))
        if not parts:
            return "TRUE"
        return parts[0] if len(parts) == 1 else " AND ".join(f"({p})" for p in parts)

    def _predicate(self, column: Any, op: str, value: Any) -> str:
        where = f"filters: ({column!r}, {op!r}, {value!r})"
        name = _column(column, where)
        op_key = " ".join(op.lower().split())
        if op_key in ("is", "is not") or (value is None and op_key in ("=", "==", "!=")):
            if value is not None:
                raise ValueError(f"{where}: '{op}' takes None (use '=' or '!=' for values)")
            negate = op_key in ("is not", "!=")
            return f"{name} IS {'NOT ' if negate else ''}NULL"
        if op_key in ("in", "not in"):
            return _membership(name, op_key == "not in", value, where)
        if op_key not in _COMPARISONS:
            raise ValueError(f"{where}: unknown operator; one of {', '.join(_OPERATORS)}")
        value = _python_scalar(value, where)
        literal = _literal(value, where)
        if isinstance(value, float) and math.isnan(value):
            # IEEE: nothing is equal to, above or below NaN; everything but NULL differs from it.
            return f"{name} IS NOT NULL" if op_key == "!=" else f"{name} IS NULL AND FALSE"
        comparison = f"{name} {_COMPARISONS[op_key]} {literal}"
        if op_key in (">", ">=") and self._is_float(column):
            return f"{comparison} AND NOT isnan({name})"
        return comparison

    def _is_float(self, column: Any) -> bool:
        if not isinstance(column, str) or self._column_types is None:
            return False
        if self._types is None:
            self._types = dict(self._column_types())
        type_name = self._types.get(column)
        if type_name is None:  # the filter language's fallback: a unique case-insensitive match
            matches = [t for n, t in self._types.items() if n.lower() == column.lower()]
            type_name = matches[0] if len(matches) == 1 else None
        return type_name in self._FLOAT_TYPES


def _is_predicate(item: Any) -> bool:
    return isinstance(item, tuple) and len(item) == 3 and isinstance(item[1], str)


def _membership(name: str, negate: bool, values: Any, where: str) -> str:
    """pyarrow's ``is_in``: a NULL is in a set that holds None and in no other, so ``not in`` a
    set without None takes the NULLs (where SQL's NOT IN would not)."""
    if isinstance(values, (str, bytes, dict)) or not isinstance(values, Iterable):
        raise TypeError(f"{where}: 'in' and 'not in' take a list, tuple or set of values")
    values = list(values)
    with_null = any(v is None for v in values)
    literals = list(dict.fromkeys(_literal(v, where) for v in values if v is not None))
    listed = f"{name} {'NOT ' if negate else ''}IN ({', '.join(literals)})" if literals else None
    if negate:
        if listed is None:
            return f"{name} IS NOT NULL" if with_null else f"{name} IS NULL OR TRUE"
        return listed if with_null else f"{listed} OR {name} IS NULL"
    if listed is None:
        return f"{name} IS NULL" if with_null else f"{name} IS NULL AND FALSE"
    return f"{listed} OR {name} IS NULL" if with_null else listed


def _column(column: Any, where: str) -> str:
    if isinstance(column, (list, tuple)) and column and all(isinstance(c, str) for c in column):
        return ".".join(_quoted_name(c) for c in column)  # a path into a struct: ("s", "a")
    if not isinstance(column, str) or column == "":
        raise TypeError(f"{where}: the column must be a name (or a tuple of names: a struct path)")
    return _quoted_name(column)


def _quoted_name(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _quoted_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _literal(value: Any, where: str) -> str:
    if value is None:
        raise ValueError(f"{where}: None compares with 'is', 'is not', '=' or '!=' only")
    value = _python_scalar(value, where)
    if isinstance(value, _Literal):
        return str(value)
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "CAST('nan' AS DOUBLE)"
        if math.isinf(value):
            return f"CAST('{'-' if value < 0 else ''}inf' AS DOUBLE)"
        text = repr(value)  # the shortest text that reads back as this double
        return text if "e" in text else text + "e0"  # an exponent makes it a double, not a decimal
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            raise ValueError(f"{where}: a Decimal must be finite")
        return format(value, "f")
    if isinstance(value, str):
        return _quoted_string(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "X'" + bytes(value).hex() + "'"
    if isinstance(value, datetime.datetime):
        return _timestamp(value)
    if isinstance(value, datetime.date):
        return f"DATE '{value.isoformat()}'"
    raise TypeError(f"{where}: a value of type {type(value).__name__} has no literal; give "
                    "bool, int, float, Decimal, str, bytes, date, datetime or a numpy scalar")


def _timestamp(value: datetime.datetime) -> str:
    # pandas.Timestamp keeps nanoseconds that isoformat() prints; datetime's stop at microseconds.
    text = value.isoformat(sep=" ")
    if value.tzinfo is None:
        return f"TIMESTAMP '{text}'"
    if value.utcoffset() is None:
        raise ValueError(f"timestamp {value!r}: its time zone gives no offset")
    return f"TIMESTAMPTZ '{text}'"


def _python_scalar(value: Any, where: str) -> Any:
    """numpy scalars as the Python values they stand for (without importing numpy)."""
    kind = type(value).__module__
    if kind != "numpy":
        return value
    import numpy as np  # noqa: PLC0415 - only for numpy values

    if isinstance(value, np.datetime64):
        if np.isnat(value):
            raise ValueError(f"{where}: NaT compares with 'is' / 'is not' None only")
        unit = np.datetime_data(value.dtype)[0]
        if unit in ("Y", "M", "W", "D"):
            return datetime.date.fromisoformat(str(value.astype("datetime64[D]")))
        text = np.datetime_as_string(value.astype("datetime64[ns]")).replace("T", " ")
        return _Literal(f"TIMESTAMP '{text}'")
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.str_):
        return str(value)
    if isinstance(value, np.bytes_):
        return bytes(value)
    raise TypeError(f"{where}: a value of type numpy.{type(value).__name__} has no literal")


class _Literal(str):
    """Text already in the filter language (a numpy datetime64 keeps its nanoseconds)."""


__all__: Sequence[str] = ["to_filter_text", "combine"]
