"""A table's deduplicated copy: all its columns, without the dropped rows, in the format the
target's suffix names."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from ..formats import COPY_FORMATS, Format, is_delimited
from ..output import TextWriter, format_for, row_writer, write_rows
from ..settings import Reading
from .columns import csv_cells_as_text, decoded_cells, decoded_column, id_strings
from .tables import load_table


def write_table_copy(source: Path, kind: Format, out: Path, dropped: set[object], reading: Reading) -> None:
    """The table `source`, of format `kind`, to `out` without the rows whose ids are `dropped` (the
    id column's, as the run read them, or row numbers from 1 for a table without one)."""
    rows = load_table(source, kind, reading.delimiter)
    if is_delimited(kind):
        rows = csv_cells_as_text(rows, source)  # as the run read them, not as bytes
    views = {pa.string_view(): pa.large_string(), pa.binary_view(): pa.large_binary()}  # pyarrow cannot filter them
    rows = rows.cast(pa.schema([field.with_type(views.get(field.type, field.type)) for field in rows.schema]))
    id_name = reading.id_column or ("id" if "id" in rows.column_names else None)
    if id_name is not None:
        import pyarrow.compute as pc  # ~50 ms to import: only a run that writes a deduplicated table needs it

        ids = decoded_column(rows.column(id_name), str(source), "id", id_name)  # as the run read them
        ids = id_strings(ids, str(source), id_name)
        drop = pa.array(sorted(dropped, key=str), ids.type) if dropped else pa.array([], ids.type)
        mask = pc.invert(pc.is_in(ids, value_set=drop))
    else:
        mask = pa.array([number not in dropped for number in range(1, rows.num_rows + 1)])
    rows = rows.filter(mask)
    if isinstance(row_writer(format_for(out, COPY_FORMATS)), TextWriter):  # no bytes in CSV or JSON lines
        rows = _as_text(rows, source, reading.text_column)
    write_rows(rows, out)


def _as_text(rows: pa.Table, source: Path, text_column: str) -> pa.Table:
    """A table bound for CSV or JSON lines with its texts as the run read them: strings that are not
    valid UTF-8 (and a binary text column) decoded as Latin-1 where they are not UTF-8, where
    writing them stopped with a traceback (a binary text was written as a Python bytes literal)."""
    for index, field in enumerate(rows.schema):
        kind = field.type
        if (
            pa.types.is_string(kind)
            or pa.types.is_large_string(kind)
            or (field.name == text_column and (pa.types.is_binary(kind) or pa.types.is_large_binary(kind)))
        ):
            rows = rows.set_column(
                index, field.name, decoded_cells(rows.column(index), str(source), "a", field.name)[0]
            )
    return rows
