"""Exporting what a run found: pairs, clusters, the documents to drop or keep, an adjacency list."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TextIO

import pyarrow as pa

from ..choices import ExportKind, Keep, Resolve
from ..engines import Engine
from ..errors import UsageError
from ..formats import EXPORT_FORMATS, Format, open_text
from ..output import STREAM_ROWS, Rows, batches, check_writable, format_for, is_list_type, replacing, write_table
from .clusters import ensure_clusters

ID_LINES = (ExportKind.survivors,)  # the exports of one id per row, which .txt writes one per line


def export_format(path: Path, what: ExportKind | str | None = None) -> str:
    """The format of an export file by its extension; .txt only for the survivors (one id a line,
    aligned with the lines of an --ids file)."""
    kind = format_for(path, EXPORT_FORMATS, "export")
    if kind == Format.txt and what is not None and ExportKind(what) not in ID_LINES:
        raise UsageError(f"a .txt export holds one id per line, for survivors; write {ExportKind(what).value} to .csv")
    return kind


def needs_clusters(what: ExportKind | str) -> bool:
    return ExportKind(what) not in (ExportKind.pairs, ExportKind.adjacency)


def export_table(
    engine: Engine, what: ExportKind | str, keep: Keep | str | None = None, resolve: Resolve | str | None = None
) -> pa.Table:
    """The rows of one export (sql/queries/export/export_<what>.sql) as a table in memory (the Python API);
    clusters are (re)built when none exist yet or a rule given differs from theirs (ensure_clusters)."""
    return export_rows(engine, what, keep, resolve).read_all()


def export_rows(
    engine: Engine, what: ExportKind | str, keep: Keep | str | None = None, resolve: Resolve | str | None = None
) -> pa.RecordBatchReader:
    """The rows of one export, streamed from the engine in batches (see export_table)."""
    what = ExportKind(what)
    if needs_clusters(what):
        ensure_clusters(engine, keep, resolve)
    reader = engine.stream_arrow(engine.sql.query(f"export_{what.value}"), STREAM_ROWS)
    assert reader is not None, "an export query has rows"
    return reader


def write_exports(engine: Engine, exports: Sequence[tuple[ExportKind, Path]]) -> None:
    """A run's exports (`dedup run --export WHAT=FILE`), from the clusters the run has just built:
    the rows of `dedup export` on the same engine, by the same SQL."""
    for what, path in exports:
        write_export(export_rows(engine, what), path, what)


def write_export(rows: Rows, path: Path, what: ExportKind | str) -> int:
    """The rows to `path` by the export writer of its format (EXPORT_WRITERS), streamed in batches;
    how many were written."""
    kind = check_writable(path, EXPORT_FORMATS, "export")
    export_format(path, what)
    return EXPORT_WRITERS[Format(kind)](rows, path, ExportKind(what))


def _id_lines_export(rows: Rows, path: Path, what: ExportKind) -> int:
    with replacing(path) as target, open_text(target, newline="\n") as stream:
        return write_id_lines(batches(rows), stream)


def _json_export(rows: Rows, path: Path, what: ExportKind) -> int:
    with replacing(path) as target, open_text(target, newline="\n") as stream:
        return write_json(batches(rows), what, stream)


def _rows_export(rows: Rows, path: Path, what: ExportKind) -> int:
    return _counted_rows(rows, rows.schema, path, lambda batch: batch)


def _csv_export(rows: Rows, path: Path, what: ExportKind) -> int:
    """CSV has no lists: a list cell as its JSON text."""
    return _counted_rows(rows, _csv_schema(rows.schema), path, _lists_as_json)


def _counted_rows(rows: Rows, schema: pa.Schema, path: Path, cells: Callable[[pa.RecordBatch], pa.RecordBatch]) -> int:
    """The rows, each batch through `cells`, as --output writes them (dedup.output.ROW_WRITERS); how many."""
    count = 0

    def counted(batch: pa.RecordBatch) -> pa.RecordBatch:
        nonlocal count
        count += batch.num_rows
        return cells(batch)

    write_table(pa.RecordBatchReader.from_batches(schema, (counted(b) for b in batches(rows))), path)
    return count


# How an export is written in each format dedup.formats registers for exports (a test checks that
# every one has its writer): one id a line, one JSON value, or the rows as --output writes them.
EXPORT_WRITERS: dict[Format, Callable[[Rows, Path, ExportKind], int]] = {
    Format.txt: _id_lines_export,
    Format.json: _json_export,
    Format.csv: _csv_export,
    Format.parquet: _rows_export,
    Format.jsonl: _rows_export,
}


def write_id_lines(parts: Iterable[pa.RecordBatch], stream: TextIO) -> int:
    """One id per line (the first column), as an --ids file holds them; an id that holds a line
    break cannot be written so and is refused in one line."""
    count = 0
    for batch in parts:
        for value in batch.column(0).to_pylist():
            text = str(value)
            if "\n" in text or "\r" in text:
                raise UsageError(f"the id {text!r} holds a line break: write the survivors to .csv instead of .txt")
            stream.write(text + "\n")
            count += 1
    return count


def _csv_schema(schema: pa.Schema) -> pa.Schema:
    return pa.schema([f.with_type(pa.string()) if is_list_type(f.type) else f for f in schema])


def write_json(parts: Iterable[pa.RecordBatch], what: ExportKind, stream: TextIO) -> int:
    """One JSON value, written a batch at a time: the bytes of `json.dump(value, indent=1)` for the
    list of rows (the object {id: similar} for an adjacency list) without holding it. Inside a
    JSON text a newline is always structure (strings escape theirs), so items indent line by line."""
    adjacency = what is ExportKind.adjacency
    count = 0
    for batch in parts:
        for row in batch.to_pylist():
            if adjacency:  # JSON object keys are strings: an integer id (a line number) becomes "12"
                item = json.dumps(str(row["id"]), ensure_ascii=False) + ": " + _dumped(row["similar"])
            else:
                item = _dumped(row)
            stream.write(("{\n" if adjacency else "[\n") if count == 0 else ",\n")
            stream.write(" " + item.replace("\n", "\n "))
            count += 1
    closing = "}" if adjacency else "]"
    stream.write(("{}" if adjacency else "[]") + "\n" if count == 0 else "\n" + closing + "\n")
    return count


def _dumped(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


def _lists_as_json(batch: pa.RecordBatch) -> pa.RecordBatch:
    """CSV has no lists: a list cell is written as its JSON text, e.g. ["a.txt","b.txt"]."""
    columns = [
        pa.array([json.dumps(v, ensure_ascii=False) for v in column.to_pylist()], pa.string())
        if is_list_type(column.type)
        else column
        for column in batch.columns
    ]
    return pa.RecordBatch.from_arrays(columns, schema=_csv_schema(batch.schema))
