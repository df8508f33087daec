"""--keep-by: a column of a table input that the survivors are preferred by, before --keep.

    --keep-by split=test,validation,train   the cells equal to test first, then validation, then
                                            train, then any other value (and NULL), tied
    --keep-by priority                      the smallest number first (NULL and NaN last)
    --keep-by quality:desc                  the largest number first (NULL and NaN last)

Each document's key is a number (the value's place in the list, or the cell's number, negated for
:desc), kept in the index's `document_keys` table by position; the survivor rules order by it,
then by --keep, then by input position (sql/queries/clusters/survivor_ranks.sql). A cell is
compared as its text: a string as it is, an integer or a boolean as Arrow and Spark write it
(`12`, `true`). An empty cell of text holds no number, as NULL. Numbers are read as 64-bit floats
(integers past 2^53 round). Kept free of heavy imports: the CLI parses the option before anything
is read.
"""

from __future__ import annotations

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

    def keys(self, column: pa.ChunkedArray, path: str) -> pa.Array:
        """Each cell's key (float64, NULL for none): see the module."""
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
            return pc.fill_null(places, len(self.values)).cast(pa.float64()).combine_chunks()
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
        elif pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind):
            numbers = column.cast(pa.float64())
        else:
            raise InputError(
                f"{path}: --keep-by column {self.column!r} has type {kind}; it orders numbers, or the values "
                f"given (--keep-by {self.column}=A,B,...)"
            )
        numbers = pc.if_else(pc.is_nan(numbers), None, numbers)
        # 0 - x, not -x: no -0.0, which a sort may order before 0.0
        return (pc.subtract(0.0, numbers) if self.descending else numbers).combine_chunks()


def _whole(kind: pa.DataType) -> bool:
    import pyarrow as pa

    return pa.types.is_integer(kind) or pa.types.is_boolean(kind)


def _column(name: str, spec: str) -> str:
    if not name:
        raise UsageError(f"--keep-by {spec!r} names no column")
    return name
