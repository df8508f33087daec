"""Exporting what a run found: pairs, clusters, the documents to drop or keep, an adjacency list."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

import pyarrow as pa

from ..choices import ExportKind, Keep
from ..engine import Engine
from ..errors import UsageError
from ..output import FORMATS, check_writable, format_for, replacing, write_table
from ..sqlfiles import query
from .clusters import build_clusters

EXPORT_FORMATS = {**FORMATS, ".json": "json"}


def export_format(path: Path) -> str:
    return format_for(path, EXPORT_FORMATS, "export")


def needs_clusters(what: ExportKind | str) -> bool:
    return ExportKind(what) not in (ExportKind.pairs, ExportKind.adjacency)


def checked_exports(items: Iterable[tuple[str, str | Path]]) -> tuple[tuple[ExportKind, Path], ...]:
    """A run's exports (what, file), each kind known and each file's format and folder checked."""
    exports = []
    for what, file in items:
        if what not in ExportKind.__members__:
            raise UsageError(f"cannot export {what!r}: use one of {', '.join(ExportKind.__members__)}")
        check_writable(Path(file), EXPORT_FORMATS, "export")
        exports.append((ExportKind(what), Path(file)))
    return tuple(exports)


def export_table(engine: Engine, what: ExportKind | str, keep: Keep | str | None = None) -> pa.Table:
    """The rows of one export (sql/queries/export_<what>.sql); clusters are (re)built when a keep
    rule is given or none exist yet."""
    what = ExportKind(what)
    if needs_clusters(what) and (keep is not None or not engine.has_table("clusters")):
        build_clusters(engine, keep or Keep.first)
    return engine.fetch_arrow(query(f"export_{what.value}", dialect=engine.dialect))


def write_exports(engine: Engine, exports: Sequence[tuple[ExportKind, Path]]) -> None:
    """A run's exports (`dedup run --export WHAT=FILE`), from the clusters the run has just built:
    the rows of `dedup export` on the same engine, by the same SQL."""
    for what, path in exports:
        write_export(export_table(engine, what), path, what)


def write_export(table: pa.Table, path: Path, what: ExportKind | str) -> None:
    kind = check_writable(path, EXPORT_FORMATS, "export")
    if kind == "json":
        with replacing(path) as target, target.open("w", encoding="utf-8", newline="\n") as stream:
            json.dump(_json_value(table, ExportKind(what)), stream, ensure_ascii=False, indent=1)
            stream.write("\n")
        return
    if kind == "csv":
        table = _lists_as_json(table)
    write_table(table, path)


def _json_value(table: pa.Table, what: ExportKind) -> object:
    rows = table.to_pylist()
    if what is ExportKind.adjacency:
        # JSON object keys are strings: an integer id (a line number) becomes "12".
        return {str(row["id"]): row["similar"] for row in rows}
    return rows


def _lists_as_json(table: pa.Table) -> pa.Table:
    """CSV has no lists: a list cell is written as its JSON text, e.g. ["a.txt","b.txt"]."""
    for index, field in enumerate(table.schema):
        if pa.types.is_list(field.type) or pa.types.is_large_list(field.type):
            values = [json.dumps(v, ensure_ascii=False) for v in table.column(index).to_pylist()]
            table = table.set_column(index, field.name, pa.array(values, pa.string()))
    return table
