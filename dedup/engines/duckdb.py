"""DuckDBEngine: the Engine on a DuckDB database file (or in memory), and the only `import duckdb`.

It opens databases with the user's limits (threads, memory, spill folder), refuses files that
are not DuckDB databases, and turns DuckDB's failures into dedup errors: a lock held by another
process, out of memory or disk, Ctrl-C (KeyboardInterrupt).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa

from ..errors import DedupError, EngineError, Interrupted, UsageError, first_line, stopping_signals_held
from ..names import check_name_length, escaped, is_utf8
from ..output import is_duckdb_database
from ..sqlfiles import Queries, quote_identifier
from ..statement import Statement

with stopping_signals_held():  # a Ctrl-C inside its native initialization aborted the process
    import duckdb

DUCKDB_MAGIC = b"DUCK"  # bytes 8..11 of every DuckDB database file
# Databases are written in the storage format of DuckDB 1.2, which every DuckDB client from 1.2.0
# (February 2025) on opens (the duckdb CLI, Python, R, DBeaver). It compresses long strings, which
# 1.0's format stores as they are: the documents table of Python's documentation (497 texts, 11 MB,
# text and norm) takes 0.59 bytes per byte of text instead of 1.99, the Debian package descriptions
# (63k short lines) 1.35 instead of 1.89 (benchmarks/disk.py, results.md); 1.3's, 1.4's and 2.0's
# formats measured the same on them. A file made by an earlier dedup keeps the format it was made in.
STORAGE_COMPATIBILITY = "v1.2.0"
# Rows per row group of a run's temporary database (a run without --db; DuckDB's default, kept by
# a --db file: 122,880). A transaction writes its full row groups to the database file as it goes,
# compressed, and logs the rest to the write-ahead log uncompressed until it commits: with the
# default, the documents stage of 100k reviews (150 MB of text) logged text and norm whole, 304 MB
# beside the file they were then checkpointed into (the run's peak: 652 MB with its spool; 374 MB
# at 32,768 rows, and 15 % less wall time). Smaller row groups compress less: at 16,384 rows the
# temporary database of 1M short documents took 639 MB instead of 465 (499 at 32,768), and a kept
# reviews index 233 MB instead of 218 (219 at 32,768), so a database that is kept keeps the default.
SCRATCH_ROW_GROUP_ROWS = 32_768
DATABASE = "dedup"  # the catalog name of a run's temporary database (current_database())
PLAIN_NAME = re.compile(r"[a-z_][a-z0-9_]*")
# A table whose rows may be written in any order says so in its SQL header (`-- order: any`). DuckDB
# otherwise keeps the order its pipelines produce rows in, which runs a statement whose only sink is
# the table on one thread (sql/02_shingles.sql on the medium workload: 2.3 s instead of 1.1 s).
ANY_ORDER = re.compile(r"^--\s*order:\s*any\s*$", re.MULTILINE)


def table_name(name: str) -> str:
    """A table name as written in SQL: plain lowercase names bare (as in sql/), any other quoted."""
    return name if PLAIN_NAME.fullmatch(name) else quote_identifier(name)


def is_interrupt(error: BaseException) -> bool:
    """Ctrl-C as DuckDB reports it (it turns a pending SIGINT into 'Query interrupted')."""
    if isinstance(error, duckdb.InterruptException):
        return True
    return isinstance(error, RuntimeError) and str(error).startswith("Query interrupted")


@contextmanager
def translated(spill: str = "the temporary folder") -> Iterator[None]:
    """DuckDB's failures as dedup's: KeyboardInterrupt for Ctrl-C, EngineError for the rest
    (out of memory or disk says where DuckDB spills)."""
    try:
        yield
    except (duckdb.Error, RuntimeError) as error:
        if is_interrupt(error):
            raise KeyboardInterrupt from None
        if not isinstance(error, duckdb.Error):
            raise
        message = first_line(error)
        # DuckDB's spill files are named duckdb_temp_*; any other full file is the database's
        if "offload" in message or ("No space left" in message and "duckdb_temp" in message):
            message = f"no room to spill to {spill} (give --temp-dir a folder with more space): {message}"
            raise EngineError(message, out_of_space=True) from None
        if "No space left" in message or "Could not write all bytes" in message:
            raise EngineError(f"the disk is full: {message}", out_of_space=True) from None
        if isinstance(error, duckdb.TransactionException) and "Conflict" in message:
            # two changes at once through one process's connections: the later one is rolled back
            raise EngineError(
                f"the index is in use: another change to it is under way; try again ({message})"
            ) from None
        raise EngineError(damaged(message)) from None


def damaged(message: str) -> str:
    """DuckDB's message, saying so when it means the database file is damaged (a block whose
    checksum or contents do not read back: a disk fault, a copy cut short)."""
    if "checksum" in message.lower() or "Corrupt database" in message or "Serialization Error" in message:
        return f"{message} (the database file is damaged: run again with a new --db)"
    return message


def check_database_path(path: Path, read_only: bool = False) -> None:
    """Refuse a path that cannot be (or must not be overwritten as) a DuckDB database."""
    if not path.parent.exists():
        raise UsageError(f"folder of the database does not exist: {path.parent}")
    if path.is_dir():
        raise UsageError(f"the database path is a folder: {path}")
    if path.exists() and not path.is_file():  # a FIFO (opening it waited forever), a device
        raise UsageError(f"the database path is not a regular file: {path}")
    if read_only and not path.exists():
        raise UsageError(f"no database at {path}")
    owner = path.parent / path.name.removesuffix(".wal")
    if owner != path and is_duckdb_database(owner):  # DuckDB replays <db>.wal into <db> when it opens <db>
        raise UsageError(f"{path} is the write-ahead log of the database {owner}: give the database, or a new file")
    try:
        with path.open("rb") as stream:
            head = stream.read(12)
    except FileNotFoundError:
        return
    except OSError as error:
        raise DedupError(f"cannot open database {path}: {error.strerror}") from None
    if head and head[8:12] != DUCKDB_MAGIC:
        raise UsageError(f"{path} exists but is not a DuckDB database; give a new file or a database made by dedup")


def check_utf8_path(path: Path, what: str) -> None:
    """DuckDB takes a path as UTF-8 text: a name that is not (its bytes held by Python as surrogate
    escapes) stopped it with `RuntimeError: std::bad_cast`."""
    if not is_utf8(str(path)):
        raise UsageError(
            f"{what} is not UTF-8, and DuckDB opens UTF-8 paths only: {escaped(str(path))}; give another name"
        )


def attached(path: Path, config: dict[str, Any], row_group_rows: int) -> duckdb.DuckDBPyConnection:
    """A connection whose database is a new file at `path`, attached with row groups of
    `row_group_rows` (which duckdb.connect cannot set) in the format of STORAGE_COMPATIBILITY."""
    con = duckdb.connect(config=config)
    values = {"path": str(path), "rows": row_group_rows, "version": STORAGE_COMPATIBILITY}
    try:
        con.execute(
            f"attach $path as {quote_identifier(DATABASE)} (row_group_size $rows, storage_version $version)", values
        )
        con.execute(f"use {quote_identifier(DATABASE)}")
    except BaseException:
        con.close()
        raise
    return con


class DuckDBEngine:
    """An Engine on one DuckDB connection."""

    dialect = "duckdb"
    sql = Queries(dialect)
    version = duckdb.__version__

    def __init__(self, con: duckdb.DuckDBPyConnection, config: dict[str, Any] | None = None) -> None:
        self.con = con
        self.config = dict(config or {})
        self.spill = str(self.config.get("temp_directory", "the temporary folder"))
        self.path: Path | None = None  # the database file (None: in memory)
        self.interrupted = False  # interrupt() was called (Ctrl-C, SIGTERM)

    @classmethod
    def open(
        cls,
        path: Path | None,
        *,
        threads: int | None = None,
        memory_limit: str | None = None,
        temp_directory: Path | None = None,
        read_only: bool = False,
        sealed: bool = False,
        scratch: bool = False,
    ) -> DuckDBEngine:
        """The database at `path` (created if missing unless read_only), or in memory if None.
        sealed: the connection can touch no file but its database (DuckDB's enable_external_access
        off, then the configuration locked so that no statement turns it back on): for the user's
        own SQL, which may then read the database and nothing else (no COPY, EXPORT, ATTACH,
        read_text, glob, INSTALL or LOAD). scratch: a new file that no one keeps (a run's temporary
        database), written in row groups of SCRATCH_ROW_GROUP_ROWS."""
        if path is not None:
            check_utf8_path(path, "the database path")
            check_name_length(path, f"the database name {path.name}", room=len(".wal"))  # <db>.wal, <db>.tmp
        config: dict[str, Any] = {}
        if threads is not None:
            config["threads"] = threads
        if memory_limit is not None:
            config["memory_limit"] = memory_limit
        if temp_directory is not None:
            check_utf8_path(temp_directory, "the folder DuckDB spills to (--temp-dir, or <db>.tmp)")
            config["temp_directory"] = str(temp_directory)
        # a run or an index update must be able to spill; a read-only command fails only if it does
        if not read_only and temp_directory is not None and temp_directory.exists() and not temp_directory.is_dir():
            raise UsageError(f"DuckDB spills to the folder {temp_directory}, which is a file: move or rename it")
        if path is None:
            return cls(duckdb.connect(config=config), config)
        check_database_path(path, read_only)
        try:
            if scratch:
                con = attached(path, config, SCRATCH_ROW_GROUP_ROWS)
            else:
                file_config = (
                    config if read_only else {**config, "storage_compatibility_version": STORAGE_COMPATIBILITY}
                )
                con = duckdb.connect(str(path), read_only=read_only, config=file_config)
        except duckdb.Error as error:
            message = first_line(error)
            if "Could not set lock" in message or "Conflicting lock" in message:
                raise DedupError(
                    f"database {path} is in use by another process; wait for it or use another --db"
                ) from None
            raise DedupError(f"cannot open database {path}: {damaged(message)}") from None
        engine = cls(con, config)
        engine.path = path
        if sealed:
            engine._query("set enable_external_access = false")
            engine._query("set lock_configuration = true")
        return engine

    @staticmethod
    def create_table_sql(name: str, statement: Statement, temporary: bool = False) -> str:
        kind = "temp table" if temporary else "table"
        return f"create or replace {kind} {table_name(name)} as\n{statement.sql.strip()}"

    def create_table(self, name: str, statement: Statement, *, temporary: bool = False) -> None:
        sql = self.create_table_sql(name, statement, temporary)
        if not ANY_ORDER.search(statement.sql):
            self._run(sql, statement)
            return
        self._query("set preserve_insertion_order = false")
        try:
            self._run(sql, statement)
        finally:
            try:
                self._query("reset preserve_insertion_order")
            except DedupError:
                pass  # the statement failed and the connection is closing (an interrupt, a full disk)

    def execute(self, statement: Statement) -> None:
        self._run(statement.sql, statement)

    def fetch_rows(self, statement: Statement) -> list[tuple[Any, ...]]:
        return self._run(statement.sql, statement)

    def fetch_arrow(self, statement: Statement) -> pa.Table:
        with translated(self.spill):
            return self.con.sql(statement.sql, params=dict(statement.parameters) or None).to_arrow_table()

    def stream_arrow(self, statement: Statement, batch_rows: int) -> pa.RecordBatchReader | None:
        with translated():
            relation = self.con.sql(statement.sql, params=dict(statement.parameters) or None)
            return None if relation is None else relation.to_arrow_reader(batch_rows)

    def split_statements(self, text: str) -> list[str]:
        with translated():
            return [statement.query for statement in self.con.extract_statements(text)]

    def track_progress(self) -> None:
        # DuckDB measures a running query's progress only with its progress bar on (printing off).
        self._query("set enable_progress_bar = true")
        self._query("set enable_progress_bar_print = false")
        self._query("set progress_bar_time = 0")

    def query_progress(self) -> float:
        try:
            return float(self.con.query_progress())
        except (duckdb.Error, RuntimeError):
            return -1.0

    def register_arrow(self, name: str, table: pa.Table) -> None:
        with translated(self.spill):
            self.con.register(name, table)

    def register_parquet(self, name: str, path: Path) -> None:
        with translated(self.spill):
            self.con.register(name, self.con.read_parquet(str(path)))

    def unregister(self, name: str) -> None:
        try:
            self.con.unregister(name)
        except (duckdb.Error, RuntimeError):
            pass  # the connection is closing after a failure; the view dies with it

    def has_table(self, name: str) -> bool:
        """Whether main has a table or a view of this name (a lean index's pair tables are views)."""
        return self._relation_kind(name) is not None

    def _relation_kind(self, name: str) -> str | None:
        rows = self._query(
            "select 'table' from duckdb_tables() where schema_name = 'main' and table_name = $name "
            "union all select 'view' from duckdb_views() where schema_name = 'main' and view_name = $name "
            "and not temporary and not internal",
            {"name": name},
        )
        return str(rows[0][0]) if rows else None

    def drop_table(self, name: str) -> None:
        """Drop main's table or view of this name, if any."""
        kind = self._relation_kind(name)
        if kind == "view":
            self._query(f"drop view {quote_identifier(name)}")
        elif kind == "table":
            self._query(f"drop table {quote_identifier(name)}")

    def rename_table(self, name: str, new_name: str) -> None:
        self._query(f"alter table {quote_identifier(name)} rename to {quote_identifier(new_name)}")

    @contextmanager
    def atomic(self, interrupted: str) -> Iterator[None]:
        self._query("begin transaction")
        try:
            yield
        except GeneratorExit:  # closed unfinished (a Ctrl-C came before the block ran): not an error of it
            self._rollback()
            raise
        except BaseException as error:
            self._rollback()
            # after interrupt(), a cleanup statement of the block (leaving a staging schema) fails
            # with "transaction is aborted" and hides the interruption: it is one all the same
            if isinstance(error, KeyboardInterrupt) or is_interrupt(error) or self.interrupted:
                raise Interrupted(interrupted) from None
            raise
        self._query("commit")

    def checkpoint(self) -> None:
        self._query("checkpoint")

    def read_inputs(self, reading: Any) -> tuple[bool, list[str]]:
        raise TypeError("DuckDB's inputs are read by dedup.corpus.read and registered")

    def stage_markers(self) -> None:
        return None  # a run's finished stages are rows of the database's `stages` table

    def own_files(self) -> tuple[Path, ...]:
        database = () if self.path is None else (self.path, self.path.with_name(self.path.name + ".wal"))
        spill = self.config.get("temp_directory")
        return (*database, *(() if spill is None else (Path(spill),)))

    def memory_limit(self) -> str | None:
        return str(self._query("select current_setting('memory_limit')")[0][0])

    def scratch(self) -> DuckDBEngine:
        return DuckDBEngine(duckdb.connect(config=self.config), self.config)

    def interrupt(self) -> None:
        self.interrupted = True
        try:
            self.con.interrupt()
        except (duckdb.Error, RuntimeError):
            pass  # closed already

    def close(self) -> None:
        try:
            self.con.close()
        except (duckdb.Error, RuntimeError):
            pass

    def _run(self, sql: str, statement: Statement) -> list[tuple[Any, ...]]:
        return self._query(sql, dict(statement.parameters))

    def _query(self, sql: str, parameters: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
        with translated(self.spill):
            return self.con.execute(sql, parameters or None).fetchall()

    def _rollback(self) -> None:
        # A second Ctrl-C (or a late interrupt() from the watcher) can hit the rollback itself: retry.
        for _ in range(3):
            try:
                self.con.execute("rollback").fetchall()
                return
            except duckdb.TransactionException:
                return  # no transaction is open any more
            except (duckdb.Error, RuntimeError, KeyboardInterrupt):
                continue
