"""What the rest of dedup asks of an engine: the Engine protocol, and the Checkpoints of a run's
finished stages (kept by dedup.records in a database, or by the engine itself)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..sqlfiles import Queries
from ..statement import Statement

if TYPE_CHECKING:
    import pyarrow as pa

    from ..settings import Reading


class Checkpoints(Protocol):
    """Which stages of a run finished, from which inputs and options."""

    def reuse(self, stage: str, fingerprint: str, statement: Statement, kept: bool = True) -> int | None:
        """The rows of the stage's table if it finished with this fingerprint (and is ready to
        read, when `kept`: a table the database's layout does not keep is not there), else None."""

    def start(self, stage: str) -> None:
        """The stage is about to (re)write its tables."""

    def forget(self, stages: Sequence[str]) -> None:
        """Mark these stages unfinished now, before a group writes its tables in several commits."""

    def record(self, stage: str, fingerprint: str, options: Mapping[str, object], rows: int | None = None) -> int:
        """Mark the stage finished (inside its atomic step); its rows (counted from its table,
        unless given: a table the layout does not keep)."""

    def finish_run(self, counts: Mapping[str, object], seconds: dict[str, float]) -> None:
        """The run's row of the runs table (where the engine keeps one), with the options and start
        the checkpoints were made for."""


class Engine(Protocol):
    """One open database (a file, or a scratch database in memory) of one SQL dialect.

    Every failure leaves as a dedup error: EngineError (one line, `out_of_space` set when memory
    or disk ran out) or KeyboardInterrupt for Ctrl-C and interrupt(); nothing engine-specific
    reaches the caller.
    """

    dialect: str  # picks sql/<dialect>/ files over sql/ where both exist
    sql: Queries  # the SQL of sql/ bound to that dialect: every statement it runs comes from here
    version: str  # of the engine, recorded in the runs table

    def create_table(self, name: str, statement: Statement, *, temporary: bool = False) -> None:
        """Create (or replace) table `name` as the rows of the query `statement`. temporary: the
        connection's own table, read before the database's table of that name and never written to
        the database file (a batch's tables, dedup.runner); only on engines that run batches."""

    def create_table_sql(self, name: str, statement: Statement) -> str:
        """The text create_table runs (what `dedup show-sql` prints)."""

    def execute(self, statement: Statement) -> None:
        """Run a statement that returns nothing (DML, DDL of the index commands)."""

    def fetch_arrow(self, statement: Statement) -> pa.Table:
        """The rows of a query as an Arrow table."""

    def fetch_rows(self, statement: Statement) -> list[tuple[Any, ...]]:
        """The rows of a query as Python tuples (small results: counts, settings)."""

    def stream_arrow(self, statement: Statement, batch_rows: int) -> pa.RecordBatchReader | None:
        """The rows of a query as a stream of Arrow batches (None for a statement without rows);
        close the reader before the next statement."""

    def split_statements(self, text: str) -> list[str]:
        """The statements of a text of several `;`-separated ones, as the engine's parser splits them."""

    def track_progress(self) -> None:
        """Start measuring the progress of running statements (for query_progress)."""

    def query_progress(self) -> float:
        """The running statement's progress in percent, -1 when unknown; from another thread."""

    def register_arrow(self, name: str, table: pa.Table) -> None:
        """Make an Arrow table readable as relation `name` until unregister(name)."""

    def register_parquet(self, name: str, path: Path) -> None:
        """Make a Parquet file readable as relation `name` until unregister(name)."""

    def unregister(self, name: str) -> None:
        """Forget a registered relation; never fails (the database may be closing)."""

    def has_table(self, name: str) -> bool:
        """Whether table `name` exists in the main schema."""

    def drop_table(self, name: str) -> None:
        """Drop table `name` if it exists."""

    def rename_table(self, name: str, new_name: str) -> None:
        """Rename table `name` to `new_name`."""

    def atomic(self, interrupted: str) -> AbstractContextManager[None]:
        """All of the block or nothing; Ctrl-C inside becomes Interrupted(interrupted)."""

    def checkpoint(self) -> None:
        """Write what was committed into the database file, so that the space of dropped tables is
        free to reuse (outside a transaction)."""

    def read_inputs(self, reading: Reading) -> tuple[bool, list[str]]:
        """On an engine that reads the input paths itself (its kind's reads_paths): register
        raw_documents and raw_skipped from reading.inputs; whether an input's ids came from a
        column (they may repeat: the caller checks), and the notes for the summary."""

    def stage_markers(self) -> Checkpoints | None:
        """The engine's own marks of finished stages (Spark: files in its work folder), or None
        when a run keeps them in the database's `stages` table (dedup.records)."""

    def own_files(self) -> tuple[Path, ...]:
        """The files and folders on this machine the engine writes for a run (its database, its
        log, its spill), for measuring the disk the run takes; () when it writes none here."""

    def memory_limit(self) -> str | None:
        """The memory the engine may use here, as it says it (DuckDB: '19.2 GiB', its default of 80 %
        of the machine's memory unless --memory-limit set it); None when it says none (Spark's
        memory is its executors', set by its own configuration)."""

    def scratch(self) -> Engine:
        """A new empty database of the same engine and options, in memory, for throwaway tables."""

    def interrupt(self) -> None:
        """Stop the statement running now, from another thread (Ctrl-C); never fails."""

    def close(self) -> None:
        """Close the database; never fails."""
