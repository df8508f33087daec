"""Reading a run's database after the fact: `dedup sql`, statement by statement, streamed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pyarrow as pa

from .database import connect, first_line
from .errors import DedupError

BATCH_ROWS = 2048


def query_readonly(db: Path, query: str) -> pa.Table:
    """The result of the last statement of `query` on a database opened read-only."""
    with open_readonly(db) as con:
        tables = [reader.read_all() for reader in results(con, query)]
    return tables[-1] if tables else pa.table({})


@contextmanager
def open_readonly(db: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    con = connect(db, read_only=True)
    try:
        yield con
    except duckdb.Error as error:
        raise DedupError(first_line(error)) from None
    finally:
        con.close()


def statements(con: duckdb.DuckDBPyConnection, query: str) -> list[str]:
    """The SQL statements of `query`, as DuckDB's parser splits them."""
    try:
        return [statement.query for statement in con.extract_statements(query)]
    except duckdb.Error as error:
        raise DedupError(first_line(error)) from None


def results(con: duckdb.DuckDBPyConnection, query: str) -> Iterator[pa.RecordBatchReader]:
    """Each statement's result, streamed in batches of BATCH_ROWS rows; statements without rows
    (SET, PRAGMA) run and yield nothing. Read (or drop) each reader before taking the next."""
    for text in statements(con, query):
        try:
            relation = con.sql(text)
            if relation is None:
                continue
            reader = relation.to_arrow_reader(BATCH_ROWS)
        except duckdb.Error as error:
            raise DedupError(first_line(error)) from None
        try:
            yield reader
        finally:
            reader.close()
