"""Opening DuckDB databases with the user's limits, and turning DuckDB's failures into messages."""

from __future__ import annotations

from pathlib import Path

import duckdb

from .errors import DedupError, UsageError
from .settings import Settings


def connect(path: Path, settings: Settings | None = None, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    config: dict[str, str | int | bool] = {}
    if settings is not None:
        if settings.threads is not None:
            config["threads"] = settings.threads
        if settings.memory_limit is not None:
            config["memory_limit"] = settings.memory_limit
    if not path.parent.exists():
        raise UsageError(f"folder of the database does not exist: {path.parent}")
    if read_only and not path.exists():
        raise UsageError(f"no database at {path}")
    try:
        return duckdb.connect(str(path), read_only=read_only, config=config)
    except duckdb.Error as error:
        raise DedupError(f"cannot open database {path}: {first_line(error)}") from None


def first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
