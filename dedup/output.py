"""Writing result tables to files (by extension) and to the terminal."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

import pyarrow as pa

from .errors import UsageError

FORMATS = {".csv": "csv", ".parquet": "parquet", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def format_for(path: Path, formats: Mapping[str, str] = FORMATS, kind: str = "output") -> str:
    """The format named by a file's extension in `formats`; a usage error for any other extension."""
    try:
        return formats[path.suffix.lower()]
    except KeyError:
        known = ", ".join(sorted(formats))
        raise UsageError(f"cannot tell the {kind} format of {path}: use one of {known}") from None


def check_writable(path: Path, formats: Mapping[str, str] = FORMATS, kind: str = "output") -> str:
    """The file's format, once its extension is known and its folder exists."""
    format_name = format_for(path, formats, kind)
    if not path.parent.exists():
        raise UsageError(f"folder of the output file does not exist: {path.parent}")
    return format_name


def write_table(table: pa.Table, path: Path) -> None:
    kind = format_for(path)
    if kind == "parquet":
        import pyarrow.parquet as pq

        pq.write_table(table, path)
    elif kind == "csv":
        with path.open("w", encoding="utf-8", newline="") as stream:
            write_csv(table, stream)
    else:
        with path.open("w", encoding="utf-8", newline="\n") as stream:
            write_jsonl(table, stream)


def write_csv(table: pa.Table, stream: TextIO) -> None:
    import csv

    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(table.column_names)
    for row in _rows(table):
        writer.writerow(["" if value is None else value for value in row])


def write_jsonl(table: pa.Table, stream: TextIO) -> None:
    names = table.column_names
    for row in _rows(table):
        stream.write(json.dumps(dict(zip(names, row, strict=True)), ensure_ascii=False) + "\n")


def write_text_table(table: pa.Table, stream: TextIO, digits: int = 6) -> None:
    """An aligned plain-text table; floats rounded for reading (files keep every digit)."""
    names = table.column_names
    cells = [[_cell(value, digits) for value in row] for row in _rows(table)]
    widths = [max([len(name)] + [len(row[i]) for row in cells]) for i, name in enumerate(names)]
    numeric = [pa.types.is_floating(t) or pa.types.is_integer(t) for t in table.schema.types]

    def line(values: list[str]) -> str:
        return "  ".join(
            v.rjust(w) if n else v.ljust(w) for v, w, n in zip(values, widths, numeric, strict=True)
        ).rstrip()

    stream.write(line(names) + "\n")
    stream.write(line(["-" * w for w in widths]) + "\n")
    for row in cells:
        stream.write(line(row) + "\n")


def _cell(value: object, digits: int) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    text = str(value)
    return text.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")


def _rows(table: pa.Table) -> list[tuple[object, ...]]:
    columns = [column.to_pylist() for column in table.columns]
    return list(zip(*columns, strict=True))
