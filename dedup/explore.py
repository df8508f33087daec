"""Reading a run's database after the fact: the user's own SQL, on a database opened read-only."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from .engine import open_engine
from .sqlfiles import user_query


def query_readonly(db: Path, text: str) -> pa.Table:
    """The result of one SQL query on a database opened read-only: nothing can be written."""
    engine = open_engine(db, read_only=True)
    try:
        return engine.fetch_arrow(user_query(text, engine.dialect))
    finally:
        engine.close()
