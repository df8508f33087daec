"""Opening DuckDB databases with the user's limits, and turning DuckDB's failures into messages."""

from __future__ import annotations

from pathlib import Path

import duckdb

from .errors import DedupError, UsageError
from .settings import Settings

DUCKDB_MAGIC = b"DUCK"  # bytes 8..11 of every DuckDB database file


def temp_directory(path: Path, settings: Settings | None) -> Path:
    """Where DuckDB spills: --temp-dir, or a folder next to the database (`<db>.tmp`)."""
    if settings is not None and settings.temp_dir is not None:
        return settings.temp_dir
    return path.with_name(path.name + ".tmp")


def _config(path: Path, settings: Settings | None) -> dict[str, str | bool | int | float | list[str]]:
    config: dict[str, str | bool | int | float | list[str]] = {}
    if settings is not None:
        if settings.threads is not None:
            config["threads"] = settings.threads
        if settings.memory_limit is not None:
            config["memory_limit"] = settings.memory_limit
        config["temp_directory"] = str(temp_directory(path, settings))
    return config


def connect_in_memory(spill: Path, settings: Settings) -> duckdb.DuckDBPyConnection:
    """A database in memory (a run without --db on a small corpus: no file, no compression and
    sync of each stage's table at commit); it spills to --temp-dir or `spill.tmp` under a limit."""
    return duckdb.connect(":memory:", config=_config(spill, settings))


def connect(path: Path, settings: Settings | None = None, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    config = _config(path, settings)
    if not path.parent.exists():
        raise UsageError(f"folder of the database does not exist: {path.parent}")
    if path.is_dir():
        raise UsageError(f"the database path is a folder: {path}")
    if read_only and not path.exists():
        raise UsageError(f"no database at {path}")
    _check_is_duckdb(path)
    try:
        return duckdb.connect(str(path), read_only=read_only, config=config)
    except duckdb.Error as error:
        message = first_line(error)
        if "Could not set lock" in message or "Conflicting lock" in message:
            raise DedupError(f"database {path} is in use by another process; wait for it or use another --db") from None
        raise DedupError(f"cannot open database {path}: {message}") from None


def _check_is_duckdb(path: Path) -> None:
    """Refuse to open (and so overwrite) a file that exists but is not a DuckDB database."""
    try:
        with path.open("rb") as stream:
            head = stream.read(12)
    except FileNotFoundError:
        return
    except OSError as error:
        raise DedupError(f"cannot open database {path}: {error.strerror}") from None
    if head and head[8:12] != DUCKDB_MAGIC:
        raise UsageError(f"{path} exists but is not a DuckDB database; give a new file or a database made by dedup")


def first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
