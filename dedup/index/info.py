"""`dedup info`: what a database holds and what takes its space: each table's rows and blocks (and
each view's rows: a lean index's pair tables), the file's used and free blocks, its storage format
and layout, its bytes per byte of text, its runs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from ..engines import Engine
from ..records import table_rows
from ..runner import is_lean


@dataclass(frozen=True)
class Info:
    path: Path
    file_bytes: int
    block_size: int
    used_blocks: int
    free_blocks: int
    storage_version: str
    lean: bool
    documents: int
    text_bytes: int
    tables: pa.Table  # table, kind (table or view), rows, blocks, KiB
    runs: pa.Table

    @property
    def per_text_byte(self) -> float | None:
        return self.file_bytes / self.text_bytes if self.text_bytes else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "file_bytes": self.file_bytes,
            "block_size": self.block_size,
            "used_blocks": self.used_blocks,
            "free_blocks": self.free_blocks,
            "storage_version": self.storage_version,
            "layout": "lean" if self.lean else "full",
            "documents": self.documents,
            "text_bytes": self.text_bytes,
            "bytes_per_text_byte": None if self.per_text_byte is None else round(self.per_text_byte, 3),
            "bytes_per_document": round(self.file_bytes / self.documents) if self.documents else None,
            "tables": self.tables.to_pylist(),
            "runs": self.runs.to_pylist(),
        }


def database_info(engine: Engine, path: Path) -> Info:
    block_size, _, used, free, version = engine.fetch_rows(engine.sql.query("info_file"))[0]
    names, kinds, counts, blocks = [], [], [], []
    for table, stored_rows in engine.fetch_rows(engine.sql.query("info_tables")):
        names.append(table)
        kinds.append("table")
        counts.append(int(stored_rows))
        blocks.append(int(engine.fetch_rows(engine.sql.query("info_table_blocks", {"table": table}))[0][0]))
    for (view,) in engine.fetch_rows(engine.sql.query("info_views")):  # rows listed, none stored
        names.append(view)
        kinds.append("view")
        counts.append(table_rows(engine, view))
        blocks.append(0)
    documents, text_bytes = engine.fetch_rows(engine.sql.query("info_text_bytes"))[0]
    tables = pa.table(
        {
            "table": pa.array(names, pa.string()),
            "kind": pa.array(kinds, pa.string()),
            "rows": pa.array(counts, pa.int64()),
            "blocks": pa.array(blocks, pa.int64()),
            "KiB": pa.array([b * block_size // 1024 for b in blocks], pa.int64()),
        }
    )
    return Info(
        path=path,
        file_bytes=path.stat().st_size,
        block_size=int(block_size),
        used_blocks=int(used),
        free_blocks=int(free),
        storage_version=str(version),
        lean=is_lean(engine),
        documents=int(documents),
        text_bytes=int(text_bytes),
        tables=tables,
        runs=engine.fetch_arrow(engine.sql.query("info_runs")),
    )
