"""Which stages of a database finished, from which inputs and options, so that a run can resume.

Each stage's table and its row in `stages` are written in one transaction: after a crash (kill -9,
power loss) DuckDB's write-ahead log either has both or neither, so a database never presents a
half-written stage as finished. A stage's fingerprint chains the inputs, the read options and
the exact SQL and parameters of every stage up to it; a later run reuses a finished stage only
if its fingerprint matches and no earlier stage had to run again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager

import duckdb
import pyarrow as pa

from . import __version__
from .errors import Interrupted
from .hashing import SCHEME
from .settings import Settings
from .sqltext import quote_identifier
from .stages import Stage, compile_sql, parameter_values, used_parameters

STAGES_TABLE = """
create table if not exists stages (
    stage varchar primary key, fingerprint varchar, options json, rows bigint, finished_at timestamptz
)
"""
READ_OPTIONS = ("lines", "id_column", "text_column", "include_hidden", "strip_html", "delimiter")
STAGES_KEPT = "interrupted; the database keeps every stage that had finished"


def digest_tables(*tables: pa.Table) -> str:
    """sha256 of the tables' schemas and column buffers (tables built by dedup.corpus, offset 0)."""
    digest = hashlib.sha256()
    for table in tables:
        digest.update(str(table.schema).encode())
        digest.update(str(table.num_rows).encode())
        for column in table.combine_chunks().columns:
            for chunk in column.chunks:
                for buffer in chunk.buffers():
                    digest.update(b"-" if buffer is None else memoryview(buffer))
    return digest.hexdigest()


def input_fingerprint(settings: Settings, inputs_digest: str) -> str:
    options = {name: settings.options()[name] for name in READ_OPTIONS}
    seed = json.dumps({"version": __version__, "scheme": SCHEME, "read": options, "inputs": inputs_digest})
    return hashlib.sha256(seed.encode()).hexdigest()


def stage_fingerprint(previous: str, stage: Stage, settings: Settings) -> str:
    sql = compile_sql(stage, settings)
    values = parameter_values(settings)
    used = {name: str(values[name]) for name in used_parameters(sql)}
    digest = hashlib.sha256(previous.encode())
    digest.update(sql.encode())
    digest.update(json.dumps(used, sort_keys=True).encode())
    return digest.hexdigest()


class Checkpoints:
    """The `stages` table of one database."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        con.execute(STAGES_TABLE).fetchall()

    def finished(self, stage: str, fingerprint: str) -> bool:
        row = self.con.execute("select fingerprint from stages where stage = $stage", {"stage": stage}).fetchall()
        if not row or row[0][0] != fingerprint:
            return False
        exists = self.con.execute(
            "select count(*) from duckdb_tables() where schema_name = 'main' and table_name = $name", {"name": stage}
        ).fetchall()[0][0]
        return bool(exists)

    def record(self, stage: str, fingerprint: str, settings: Settings) -> int:
        """Count the stage's rows and mark it finished; call inside the stage's transaction."""
        rows = self.con.execute(f"select count(*) from {quote_identifier(stage)}").fetchall()[0][0]
        self.con.execute("delete from stages where stage = $stage", {"stage": stage}).fetchall()
        self.con.execute(
            "insert into stages values ($stage, $fingerprint, $options, $rows, now())",
            {"stage": stage, "fingerprint": fingerprint, "options": json.dumps(settings.options()), "rows": rows},
        ).fetchall()
        return int(rows)

    def rows(self, stage: str) -> int:
        return int(self.con.execute("select rows from stages where stage = $stage", {"stage": stage}).fetchall()[0][0])


def forget_stages(con: duckdb.DuckDBPyConnection) -> None:
    """Mark no stage finished: for commands that change stage tables outside a run (index add/remove)."""
    con.execute(STAGES_TABLE).fetchall()
    con.execute("delete from stages").fetchall()


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection, interrupted: str = STAGES_KEPT) -> Iterator[None]:
    """Commit everything in the block, or nothing: on any failure, Ctrl-C included, roll back.

    Ctrl-C becomes Interrupted(interrupted): one line for the user, exit 130.
    """
    con.execute("begin transaction").fetchall()
    try:
        yield
    except BaseException as error:
        _rollback(con)
        if is_interrupt(error):
            raise Interrupted(interrupted) from None
        raise
    con.execute("commit").fetchall()


def is_interrupt(error: BaseException) -> bool:
    """Ctrl-C, as Python or DuckDB reports it (DuckDB turns a pending SIGINT into 'Query interrupted')."""
    if isinstance(error, (KeyboardInterrupt, duckdb.InterruptException)):
        return True
    return isinstance(error, RuntimeError) and str(error).startswith("Query interrupted")


def _rollback(con: duckdb.DuckDBPyConnection) -> None:
    # A second Ctrl-C (or a late interrupt() from the watcher) can hit the rollback itself: retry.
    for _ in range(3):
        try:
            con.execute("rollback").fetchall()
            return
        except duckdb.TransactionException:
            return  # no transaction is open any more
        except (duckdb.Error, RuntimeError, KeyboardInterrupt):
            continue
