"""Running single stages on hand-built documents, on a real DuckDB connection."""

from __future__ import annotations

import duckdb
import pyarrow as pa

from dedup.engines.duckdb import DuckDBEngine
from dedup.settings import Sketch
from dedup.stages import compile_stage, pipeline_stages


def sketch_for(**options) -> Sketch:
    return Sketch(**options)


def load_documents(con: duckdb.DuckDBPyConnection, texts: dict | list, settings: Sketch) -> None:
    items = list(texts.items()) if isinstance(texts, dict) else list(enumerate(texts, start=1))
    raw = pa.table(
        {
            "position": pa.array(range(1, len(items) + 1), pa.int64()),
            "id": pa.array([str(i) if isinstance(texts, dict) else i for i, _ in items]),
            "text": pa.array([t for _, t in items], pa.string()),
            "encoding": pa.array(["utf-8"] * len(items)),
        }
    )
    con.register("raw_documents", raw)
    run_stages(con, settings, until="documents")
    con.unregister("raw_documents")


def run_stages(con: duckdb.DuckDBPyConnection, settings: Sketch, until: str, start: str | None = None) -> None:
    started = start is None
    for stage in pipeline_stages(settings):
        if stage.name == start:
            started = True
        if started:
            DuckDBEngine(con).create_table(stage.name, compile_stage(stage, settings, "duckdb"))
        if stage.name == until:
            return
    raise AssertionError(f"no stage {until}")


def rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[tuple]:
    return con.execute(sql).fetchall()


def shingle_sets(con: duckdb.DuckDBPyConnection, texts: list[str], sketch: Sketch) -> dict[int, set[int]]:
    """Each document's set as the stages make it for `sketch` (the shingles table, every stage before
    it run on `con`), by the documents' ids 1 .. n."""
    load_documents(con, texts, sketch)
    names = [stage.name for stage in pipeline_stages(sketch)]
    run_stages(con, sketch, until="shingles", start=names[names.index("documents") + 1])
    sets: dict[int, set[int]] = {i: set() for i in range(1, len(texts) + 1)}
    for doc_id, fp in rows(con, "select d.id, s.fingerprint from shingles s join documents d using (doc_id)"):
        sets[doc_id].add(fp)
    return sets
