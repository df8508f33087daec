"""Reading a run's database after the fact: the user's own SQL, on a database opened read-only,
statement by statement, streamed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa

from ..engines import Engine, open_engine
from ..errors import EngineError
from ..runner import is_lean
from ..settings import EngineOptions

BATCH_ROWS = 2048


@contextmanager
def open_readonly(db: Path, limits: EngineOptions | None = None) -> Iterator[Engine]:
    """The database opened read-only and sealed: the user's statements read it and no other file
    (DuckDB still spills to its own temporary folder under a memory limit)."""
    engine = open_engine(db, limits, read_only=True, sealed=True)
    try:
        yield engine
    finally:
        engine.close()


def statements(engine: Engine, text: str) -> list[str]:
    """The SQL statements of `text`, as the engine's parser splits them."""
    return engine.split_statements(text)


def results(engine: Engine, text: str) -> Iterator[pa.RecordBatchReader]:
    """Each statement's result, streamed in batches of BATCH_ROWS rows; statements without rows
    run and yield nothing. Read (or drop) each reader before taking the next."""
    for statement in statements(engine, text):
        try:
            reader = engine.stream_arrow(engine.sql.user_query(statement), BATCH_ROWS)
        except EngineError as error:
            raise sealed_hint(lean_hint(engine, error)) from None
        if reader is None:
            continue
        try:
            yield reader
        finally:
            reader.close()


def lean_hint(engine: Engine, error: EngineError) -> EngineError:
    """DuckDB's error, saying why when the statement reads what a lean database does not keep (the
    shingles table, the signatures' MinHash columns: dedup.stages.Layout)."""
    message = str(error)
    missing = "shingles does not exist" in message or ('"mh_' in message and "not found" in message)
    if missing and is_lean(engine):
        return EngineError(
            f"{message} (this database keeps the lean layout, without the shingles and the MinHash values: "
            "run again with --keep-all-tables to keep them)"
        )
    return error


def sealed_hint(error: EngineError) -> EngineError:
    """DuckDB's error, saying what to do when the statement reads or writes a file (COPY, read_csv,
    ATTACH): the sealed connection refuses every file but its database."""
    message = str(error)
    if "file system operations are disabled" not in message:
        return error
    return EngineError(
        f"{message} (dedup sql reads the database and no other file: write a result to a file with "
        "--output F.parquet, F.csv or F.jsonl)"
    )
