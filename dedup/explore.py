"""Reading a run's database after the fact."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa

from .database import connect, first_line
from .errors import DedupError


def query_readonly(db: Path, query: str) -> pa.Table:
    """The result of one SQL query on a database opened read-only: nothing can be written."""
    con = connect(db, read_only=True)
    try:
        return con.sql(query).to_arrow_table()
    except duckdb.Error as error:
        raise DedupError(first_line(error)) from None
    finally:
        con.close()
