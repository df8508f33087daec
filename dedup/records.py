"""The bookkeeping tables of a database, `stages` and `runs`: the only module that reads or writes them.

`stages` says which stages finished, from which inputs and options, so that a run can resume.
Each stage's table and its row in `stages` are written in one atomic step: after a crash (kill
-9, power loss) the database has both or neither, so it never presents a half-written stage as
finished. A stage's fingerprint chains the inputs, the read options and the exact statement
(SQL and parameters) of every stage up to it; a later run reuses a finished stage only if its
fingerprint matches and no earlier stage had to run again.

`runs` holds one row per run, or per change of an index (`dedup add`); its latest row's
options are the index's own.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

import pyarrow as pa

from . import __version__
from .engine import Engine
from .hashing import SCHEME
from .settings import Settings
from .sqlfiles import query
from .sqltext import quote_identifier

READ_OPTIONS = ("lines", "id_column", "text_column", "include_hidden", "strip_html", "delimiter")


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


class Checkpoints:
    """The `stages` table of one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        engine.execute(query("stages_create", dialect=engine.dialect))

    def finished(self, stage: str, fingerprint: str) -> bool:
        row = self._rows("stages_fingerprint", {"stage": stage})
        if not row or row[0][0] != fingerprint:
            return False
        return self.engine.has_table(stage)

    def record(self, stage: str, fingerprint: str, settings: Settings) -> int:
        """Count the stage's rows and mark it finished; call inside the stage's atomic step."""
        rows = table_rows(self.engine, stage)
        self.engine.execute(query("stages_forget", {"stage": stage}, self.engine.dialect))
        values = {"stage": stage, "fingerprint": fingerprint, "options": json.dumps(settings.options()), "rows": rows}
        self.engine.execute(query("stages_insert", values, self.engine.dialect))
        return rows

    def rows(self, stage: str) -> int:
        return int(self._rows("stages_rows", {"stage": stage})[0][0])

    def _rows(self, name: str, values: dict[str, Any]) -> list[tuple[Any, ...]]:
        return self.engine.fetch_rows(query(name, values, self.engine.dialect))


def table_rows(engine: Engine, table: str) -> int:
    return int(engine.fetch_rows(query("table_rows", dialect=engine.dialect, table=quote_identifier(table)))[0][0])


def forget_stages(engine: Engine) -> None:
    """Mark no stage finished: for commands that change stage tables outside a run (index add/remove)."""
    engine.execute(query("stages_create", dialect=engine.dialect))
    engine.execute(query("stages_forget_all", dialect=engine.dialect))


def record_run(
    engine: Engine, settings: Settings, counts: dict[str, int], seconds: dict[str, float], started: datetime
) -> None:
    engine.execute(query("runs_create", dialect=engine.dialect))
    values = {
        "started": started,
        "dedup": __version__,
        "engine": engine.version,
        "scheme": SCHEME,
        "options": json.dumps(settings.options()),
        "counts": json.dumps(counts),
        "seconds": json.dumps(seconds),
    }
    engine.execute(query("runs_insert", values, engine.dialect))


def record_change(engine: Engine, counts: str, seconds: dict[str, float]) -> None:
    """A row for a change of the index (counts: a JSON object), with the options of its first run."""
    values = {
        "dedup": __version__,
        "engine": engine.version,
        "scheme": SCHEME,
        "counts": counts,
        "seconds": json.dumps(seconds),
    }
    engine.execute(query("runs_insert_change", values, engine.dialect))


def latest_run(engine: Engine) -> tuple[str, dict[str, Any]] | None:
    """The hash scheme and options of the database's latest run, or None if it has none."""
    row = engine.fetch_rows(query("runs_latest", dialect=engine.dialect))
    if not row:
        return None
    scheme, options = row[0]
    return scheme, json.loads(options)
