"""The engine seam: everything dedup asks of a SQL engine; DuckDB (duckdb.py) and Spark (spark/)
implement it.

The interface:

- `Statement(name, dialect, sql, parameters)` (dedup/statement.py): one compiled statement, a value.
  `sql` is the text as it runs in `dialect`, a query for a table (the SELECT; the engine writes
  the `create ... as` line), with `$name` parameter markers (an engine whose markers differ,
  e.g. Spark's `:name`, rewrites them when it runs the statement); `parameters` holds the value
  of exactly the names the text uses. Statements are built by `dedup.sqlfiles` from the files
  of sql/ (sql/<dialect>/ first, where a dialect's semantics differ) and never by hand.
  A stage's statement is compiled once and used both for its resume fingerprint
  (`Statement.fingerprint`) and to run it.
- `Engine` (protocol.py): `dialect`, `version`, `create_table(name, statement)`,
  `create_table_sql(name, statement)` (the text create_table runs), `execute(statement)`,
  `fetch_arrow(statement)`, `fetch_rows(statement)`, `register_arrow(name, table)`,
  `register_parquet(name, path)`,
  `unregister(name)`, `has_table(name)`, `drop_table(name)`, `rename_table(name, new_name)`,
  `atomic(interrupted)` (context manager: all or nothing; Ctrl-C becomes
  Interrupted(interrupted)), `scratch()` (an empty in-memory database of the same engine),
  `interrupt()` (from another thread), `stage_markers()` (its own Checkpoints, or None when the
  run's `stages` table keeps them: dedup.records), `close()`.
  Failures leave an engine as `dedup.errors.EngineError` (one line; `out_of_space`, and then
  the message says where the engine spills) or as
  KeyboardInterrupt (Ctrl-C, interrupt()); no engine-specific exception escapes.
- `EngineKind` (kinds.py, `engine_kind(name)`): what a run does differently on each engine, and
  which options go with it, asked by the rest of dedup instead of comparing engine names.
- `run_engine(options, session=None, small=False)`: the engine a run works on, by its
  `Settings.engine_options`: DuckDB on `--db` (or a temporary database; in memory for a small run
  without --db), or Spark on a session (the given one, or a new one that it stops) with the stage
  tables under `--work-dir` (or a temporary folder).
- `open_engine(path, limits=None, read_only=False, in_memory=False)`: the DuckDB engine for a
  database file (or an in-memory database when path is None or in_memory, spilling where the file's
  would) with the user's limits (a run's or a command's EngineOptions). `engine_for(dialect)` is the
  class, for what needs no database (show-sql).
- `DuckDBEngine` (duckdb.py) is the only module of dedup that imports duckdb.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..settings import duckdb_memory_bytes
from ..statement import Statement
from .kinds import EngineKind, engine_kind
from .protocol import Checkpoints, Engine

if TYPE_CHECKING:
    from ..settings import EngineOptions
    from .duckdb import DuckDBEngine

__all__ = [
    "Checkpoints",
    "Engine",
    "EngineKind",
    "Statement",
    "engine_kind",
    "run_engine",
    "open_engine",
    "engine_for",
    "temp_directory",
    "temporary_folder",
]


def temp_directory(path: Path, limits: EngineOptions | None) -> Path:
    """Where an engine spills: --temp-dir, or a folder next to the database (`<db>.tmp`)."""
    if limits is not None and limits.temp_dir is not None:
        return limits.temp_dir
    return path.parent / f"{path.name}.tmp"  # `--db .` has no name (refused as a folder when it opens)


def temporary_folder(temp_dir: Path | None) -> tempfile.TemporaryDirectory[str]:
    """A folder of a run's own files, removed with it: under --temp-dir if given (made if missing),
    so that a run given --temp-dir writes nothing to the system's temporary folder; else there."""
    if temp_dir is not None:
        temp_dir.mkdir(parents=True, exist_ok=True)
    return tempfile.TemporaryDirectory(prefix="dedup-", dir=temp_dir)


def engine_for(dialect: str) -> type[DuckDBEngine]:
    if dialect != "duckdb":
        raise ValueError(f"no engine for dialect {dialect!r}")
    from .duckdb import DuckDBEngine

    return DuckDBEngine


def open_engine(
    path: Path | None,
    limits: EngineOptions | None = None,
    read_only: bool = False,
    *,
    in_memory: bool = False,
    sealed: bool = False,
    scratch: bool = False,
) -> Engine:
    """An engine on the database at `path` (in memory if None), with the limits if given.
    in_memory: the database lives in memory though a path is given (a run without --db on a small
    corpus); it spills where a database at `path` would. sealed: no file but the database can be
    read or written by any statement (for the user's own SQL, see DuckDBEngine.open). scratch: a
    new file that no one keeps, written for a smaller peak than for its size (DuckDBEngine.open)."""
    from .duckdb import DuckDBEngine

    spill = temp_directory(path, limits) if limits is not None and path is not None else None
    threads = limits.threads if limits is not None else None
    memory_bytes = limits.duckdb_memory_bytes if limits is not None else duckdb_memory_bytes(None)
    memory_limit = f"{memory_bytes}B" if memory_bytes is not None else None
    return DuckDBEngine.open(
        None if in_memory else path,
        threads=threads,
        memory_limit=memory_limit,
        temp_directory=spill,
        read_only=read_only,
        sealed=sealed,
        scratch=scratch,
    )


@contextmanager
def run_engine(options: EngineOptions, session: Any = None, small: bool = False) -> Iterator[Engine]:
    """The engine of a run, as its kind opens it (EngineKind.opens), closed (and its temporary
    places removed) after. small: see duckdb_run."""
    opens = engine_kind(options.engine).opens
    assert opens is not None, "every engine kind says how a run opens it"
    with opens(options, session, small) as engine:
        yield engine


@contextmanager
def duckdb_run(options: EngineOptions, small: bool) -> Iterator[Engine]:
    """A run's DuckDB engine. small: a run without --db keeps its tables in memory (no database
    file to write, sync at each stage's commit and checkpoint at close); a larger one gets a
    temporary file, whose compressed tables keep a large run's memory and spill bounded."""
    with ExitStack() as cleanup:
        path = options.db
        if path is None:  # a temporary database, removed with its folder (in memory if small)
            path = Path(cleanup.enter_context(temporary_folder(options.temp_dir))) / "run.duckdb"
        temporary = options.db is None
        engine = open_engine(path, options, in_memory=small and temporary, scratch=temporary)
        cleanup.callback(engine.close)
        yield engine
