"""--keep-by: a column of a table input that the survivors are preferred by, before --keep.

    --keep-by split=test,validation,train   the cells equal to test first, then validation, then
                                            train, then any other value (and NULL), tied
    --keep-by priority                      the smallest number first (NULL and NaN last)
    --keep-by quality:desc                  the largest number first (NULL and NaN last)

Each document's key is a number (the value's place in the list, or the cell's number, negated for
:desc), kept in the index's `document_keys` table by position; the survivor rules order by it,
then by --keep, then by input position (sql/queries/clusters/survivor_ranks.sql). A cell is
compared as its text: a string as it is, an integer or a boolean as Arrow and Spark write it
(`12`, `true`). An empty cell of text holds no number, as NULL. Numbers order exactly: a key is a
float and a low part (split_keys), so integers past 2^53 (nanosecond times, snowflake ids) do not
round into ties. Kept free of heavy imports: the CLI parses the option before anything is read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from .errors import InputError, UsageError

if TYPE_CHECKING:
    import pyarrow as pa

DESCENDING = ":desc"
ASCENDING = ":asc"


class KeepBy(NamedTuple):
    column: str
    values: tuple[str, ...] | None = None  # the order of the values; None: by the column's numbers
    descending: bool = False

    @classmethod
    def parse(cls, spec: str) -> KeepBy:
        """`COLUMN`, `COLUMN:desc`, `COLUMN:asc` or `COLUMN=V1,V2,...` (see the module)."""
        if "=" in spec:
            column, _, listed = spec.partition("=")
            values = tuple(listed.split(","))
            if not listed or len(set(values)) != len(values):
                raise UsageError(
                    f"--keep-by {spec!r}: give each value once, in the order to keep them, e.g. split=test,train"
                )
            return cls(_column(column, spec), values)
        if spec.endswith(DESCENDING):
            return cls(_column(spec[: -len(DESCENDING)], spec), None, True)
        return cls(_column(spec.removesuffix(ASCENDING), spec))

    def __str__(self) -> str:
        if self.values is not None:
            return f"{self.column}={','.join(self.values)}"
        return self.column + (DESCENDING if self.descending else "")

    def keys(self, column: pa.ChunkedArray, path: str) -> tuple[pa.Array, pa.Array]:
        """Each cell's key and low part (float64 and int64, NULL for none): see the module."""
        import pyarrow as pa
        import pyarrow.compute as pc

        kind = column.type.value_type if pa.types.is_dictionary(column.type) else column.type
        if pa.types.is_null(kind):  # no cell holds a value (a part of JSON lines without the key)
            kind = pa.string()
        column = column.cast(kind) if kind != column.type else column
        if self.values is not None:
            if pa.types.is_binary(kind) or pa.types.is_large_binary(kind):  # a CSV's cells
                kind = pa.string()
            elif not (pa.types.is_string(kind) or pa.types.is_large_string(kind) or _whole(kind)):
                raise InputError(
                    f"{path}: --keep-by column {self.column!r} has type {kind}; a list of values orders strings, "
                    "integers or booleans"
                )
            cells = column.cast(pa.string())
            places = pc.index_in(cells, value_set=pa.array(self.values, pa.string()))
            key = pc.fill_null(places, len(self.values)).cast(pa.float64()).combine_chunks()
            return key, pa.array([0] * len(key), pa.int64())
        if pa.types.is_binary(kind) or pa.types.is_string(kind) or pa.types.is_large_string(kind):
            cells = column.cast(pa.string())
            cells = pc.if_else(pc.equal(cells, ""), None, cells)  # an empty CSV cell holds no number
            try:
                numbers = cells.cast(pa.float64())
            except pa.ArrowInvalid:
                raise InputError(
                    f"{path}: --keep-by column {self.column!r} holds text, not numbers: give the order of its "
                    f"values, e.g. --keep-by {self.column}=test,train"
                ) from None
            return split_keys(numbers.combine_chunks(), self.descending, _exact_text(cells.combine_chunks()))
        if pa.types.is_boolean(kind):
            return split_keys(column.cast(pa.float64()).combine_chunks(), self.descending)
        if pa.types.is_temporal(kind) and not (pa.types.is_time(kind) or pa.types.is_duration(kind)):
            # a date or a time stamp: microseconds since 1970-01-01 (UTC for a time zone's; as written
            # for a naive one), finer parts dropped: --keep-by date:desc keeps the newest
            column = column.cast(pa.timestamp("us", getattr(kind, "tz", None)), safe=False).cast(pa.int64())
            kind = pa.int64()
        if pa.types.is_integer(kind):  # vectorized: a column of nanosecond times is big throughout
            whole = column.combine_chunks()
            whole = whole if pa.types.is_uint64(kind) else whole.cast(pa.int64())  # room for the low mask
            numbers = whole.cast(pa.float64(), safe=False)
            big = pc.greater_equal(pc.abs(numbers), float(BIG))
            low = pc.if_else(big, pc.bit_wise_and(whole, pa.scalar(LOW_MASK, whole.type)), pa.scalar(0, whole.type))
            key = pc.if_else(big, pc.subtract(whole, low).cast(pa.float64(), safe=False), numbers)  # exact: 2048 | it
            low = low.cast(pa.int64())
            return (pc.subtract(0.0, key), pc.subtract(0, low)) if self.descending else (key, low)
        if pa.types.is_floating(kind):
            return split_keys(column.cast(pa.float64()).combine_chunks(), self.descending)
        raise InputError(
            f"{path}: --keep-by column {self.column!r} has type {kind}; it orders numbers, or the values "
            f"given (--keep-by {self.column}=A,B,...)"
        )


def split_keys(
    numbers: pa.Array, descending: bool = False, exact: Callable[[], list[object]] | None = None
) -> tuple[pa.Array, pa.Array]:
    """Numbers (float64, as parsed or cast; `exact()`: the same values exact, Python ints where
    they are integers) as (key, low) pairs that order exactly as the numbers do: a number under
    2^53 in magnitude is its float and 0; a larger integer (a float that large is one) is its value
    rounded down to a multiple of 2048, a float exactly, and the 11 bits below (nanosecond times and
    snowflake ids keep their order; as floats, neighbours tied). NaN is none. :desc negates both
    (0 - x: no -0.0, which a sort may order before 0.0)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    numbers = pc.if_else(pc.is_nan(numbers), None, numbers)
    big = pc.greater_equal(pc.abs(numbers), float(BIG))
    if not pc.any(big).as_py():  # every key is a float: no low part
        keys, lows = numbers, pc.if_else(pc.is_valid(numbers), 0, None).cast(pa.int64())
    else:
        values = exact() if exact is not None else numbers.to_pylist()
        key_list: list[float | None] = numbers.to_pylist()
        low_list: list[int | None] = [None if v is None else 0 for v in key_list]
        for i in pc.indices_nonzero(pc.fill_null(big, False)).to_pylist():
            value = values[i]
            if value in (float("inf"), float("-inf")):
                continue
            whole = int(value)  # type: ignore[call-overload]
            low = whole & LOW_MASK
            key_list[i], low_list[i] = float(whole - low), low
        keys, lows = pa.array(key_list, pa.float64()), pa.array(low_list, pa.int64())
    if descending:
        return pc.subtract(0.0, keys), pc.subtract(0, lows)
    return keys, lows


def _exact_text(cells: pa.Array) -> Callable[[], list[object]]:
    """The exact numbers of text cells, for split_keys: a Python int where the text is a plain
    integer (digits, maybe after -) below 2^64 in magnitude, else its float; the Spark engine reads
    them alike (dedup.engines.spark.read._keys)."""

    def exact() -> list[object]:
        import re

        plain = re.compile(r"-?[0-9]+")
        values: list[object] = []
        for text in cells.to_pylist():
            if text is None or not plain.fullmatch(text) or abs(int(text)) >= 2**64:
                values.append(None if text is None else float(text))
            else:
                values.append(int(text))
        return values

    return exact


# Integers from this magnitude up have a low part (the last 11 bits); 2^53 is where floats skip.
BIG = 2**53
LOW_MASK = 2047


def _whole(kind: pa.DataType) -> bool:
    import pyarrow as pa

    return pa.types.is_integer(kind) or pa.types.is_boolean(kind)


def _column(name: str, spec: str) -> str:
    if not name:
        raise UsageError(f"--keep-by {spec!r} names no column")
    return name
