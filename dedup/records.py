"""A run's bookkeeping: the `stages`, `runs` and `run_inputs` tables of a database (the only module
that reads or writes them), and on Spark the stage markers of a work folder.

`stages` says which stages finished, from which inputs and options, so that a run can resume.
Each stage's table and its row in `stages` are written in one atomic step: after a crash (kill
-9, power loss) the database has both or neither, so it never presents a half-written stage as
finished. A stage's fingerprint chains the inputs, the read options and the exact statement
(SQL and parameters) of every stage up to it; a later run reuses a finished stage only if its
fingerprint matches and no earlier stage had to run again.

`runs` holds one row per run, or per change of an index (`dedup add`); its latest row's
options are the index's own. A run's first rewrite of a stage table also writes a row without
finished_at, which its finished row replaces: while it is there (the run stopped), the tables may
mix two runs, and the index commands refuse them (`check_finished`).

`run_inputs` holds the files and folders the runs and `dedup add` read, so that the commands that
later write beside the database (`dedup export`, `dedup report`) refuse to replace one.

An engine may keep its own marks instead (`Engine.stage_markers`): Spark's are files in its work
folder (dedup.engines.spark.markers).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from .engines import Checkpoints, Engine, Statement
from .errors import DedupError
from .hashing import SCHEME
from .sqlfiles import quote_identifier
from .version import __version__

# The one-line message of Ctrl-C while a run's row is written.
RUN_NOT_FINISHED = "interrupted; the run is not recorded as finished (run it again to finish it)"

READ_OPTIONS = ("lines", "id_column", "text_column", "include_hidden", "strip_html", "delimiter", "follow_links")


def input_fingerprint(options: Mapping[str, object], inputs_digest: str) -> str:
    """The fingerprint of the inputs (their digest) as read with the run's read options."""
    read = {name: options[name] for name in READ_OPTIONS}
    seed = json.dumps({"version": __version__, "scheme": SCHEME, "read": read, "inputs": inputs_digest})
    return hashlib.sha256(seed.encode()).hexdigest()


def checkpoints(
    engine: Engine, options: Mapping[str, object], started: datetime, read: Sequence[Path] = ()
) -> Checkpoints:
    """The bookkeeping of this engine's database for a run with these options that reads these
    files and folders: tables, or marker files in Spark's work folder."""
    markers = engine.stage_markers()
    return markers if markers is not None else StageTable(engine, options, started, read)


class StageTable:
    """The `stages` table of one database, and the `runs` row of a run until it finishes."""

    def __init__(
        self, engine: Engine, options: Mapping[str, object], started: datetime, read: Sequence[Path] = ()
    ) -> None:
        self.engine = engine
        self.read = read
        self.options = options
        self.started = started
        self.marked = False
        engine.execute(engine.sql.query("stages_create"))

    def reuse(self, stage: str, fingerprint: str, statement: Statement, kept: bool = True) -> int | None:
        row = self._rows("stages_fingerprint", {"stage": stage})
        if not row or row[0][0] != fingerprint or (kept and not self.engine.has_table(stage)):
            return None
        return int(self._rows("stages_rows", {"stage": stage})[0][0])

    def start(self, stage: str) -> None:
        self._mark_unfinished()  # the stage's table and its row here are written in one atomic step

    def forget(self, stages: Sequence[str]) -> None:
        self._mark_unfinished()
        for stage in stages:
            self.engine.execute(self.engine.sql.query("stages_forget", {"stage": stage}))

    def _mark_unfinished(self) -> None:
        """Before the run's first change of a stage table, in its atomic step: the run's row
        without finished_at (the tables may mix two runs until finish_run replaces it)."""
        if self.marked:
            return
        self.marked = True
        self.engine.execute(self.engine.sql.query("runs_create"))
        self.engine.execute(self.engine.sql.query("runs_forget_unfinished"))
        values = {
            "started": self.started,
            "dedup": __version__,
            "engine": self.engine.version,
            "scheme": SCHEME,
            "options": json.dumps(self.options),
        }
        self.engine.execute(self.engine.sql.query("runs_insert_unfinished", values))

    def record(self, stage: str, fingerprint: str, options: Mapping[str, object], rows: int | None = None) -> int:
        rows = table_rows(self.engine, stage) if rows is None else rows
        self.engine.execute(self.engine.sql.query("stages_forget", {"stage": stage}))
        values = {"stage": stage, "fingerprint": fingerprint, "options": json.dumps(options), "rows": rows}
        self.engine.execute(self.engine.sql.query("stages_insert", values))
        return rows

    def finish_run(self, counts: Mapping[str, object], seconds: dict[str, float]) -> None:
        with self.engine.atomic(RUN_NOT_FINISHED):
            self.engine.execute(self.engine.sql.query("runs_create"))
            self.engine.execute(self.engine.sql.query("runs_forget_unfinished"))
            record_run(self.engine, self.options, counts, seconds, self.started)
            record_inputs(self.engine, self.read)

    def _rows(self, name: str, values: dict[str, Any]) -> list[tuple[Any, ...]]:
        return self.engine.fetch_rows(self.engine.sql.query(name, values))


def table_rows(engine: Engine, table: str) -> int:
    return int(engine.fetch_rows(engine.sql.query("table_rows", table=quote_identifier(table)))[0][0])


def forget_stages(engine: Engine) -> None:
    """Mark no stage finished: for commands that change stage tables outside a run (index add/remove)."""
    engine.execute(engine.sql.query("stages_create"))
    engine.execute(engine.sql.query("stages_forget_all"))


def record_run(
    engine: Engine,
    options: Mapping[str, object],
    counts: Mapping[str, object],
    seconds: dict[str, float],
    started: datetime,
) -> None:
    engine.execute(engine.sql.query("runs_create"))
    values = {
        "started": started,
        "dedup": __version__,
        "engine": engine.version,
        "scheme": SCHEME,
        "options": json.dumps(options),
        "counts": json.dumps(counts),
        "seconds": json.dumps(seconds),
    }
    engine.execute(engine.sql.query("runs_insert", values))


def record_change(engine: Engine, counts: str, seconds: dict[str, float]) -> None:
    """A row for a change of the index (counts: a JSON object), with the options of its first run."""
    values = {
        "dedup": __version__,
        "engine": engine.version,
        "scheme": SCHEME,
        "counts": counts,
        "seconds": json.dumps(seconds),
    }
    engine.execute(engine.sql.query("runs_insert_change", values))


def record_inputs(engine: Engine, read: Sequence[Path]) -> None:
    """Keep the files and folders a run or `dedup add` read (`run_inputs`), for the commands that
    later write files beside the database: an export must not replace an input (check_not_run_input)."""
    from .corpus import STDIN, path_id

    engine.execute(engine.sql.query("run_inputs_create"))
    # resolve() raises on a link loop; a name that is not UTF-8 is kept as its \xNN text (path_id)
    paths = [path_id(Path(os.path.realpath(path))) for path in read if path != STDIN]
    engine.execute(engine.sql.query("run_inputs_insert", {"paths": paths}))


def run_inputs(engine: Engine) -> list[Path]:
    """The files and folders the database's runs and adds read, resolved (none for a database of an
    earlier release, which has no `run_inputs`)."""
    from .corpus import id_path

    if not engine.has_table("run_inputs"):
        return []
    return [id_path(row[0]) for row in engine.fetch_rows(engine.sql.query("run_inputs"))]


def check_not_run_input(engine: Engine, output: Path, option: str) -> None:
    """Refuse an output that is a file the database's runs read, or lies in a folder they read: an
    export written over the run's input destroys it (a database of an earlier release, without
    `run_inputs`, is not checked). The rule is the run's own (imported here: the other index
    commands, which import this module, need not load the corpus readers)."""
    from .output import check_not_an_input

    read = run_inputs(engine)
    if read:
        check_not_an_input(read, output, option)


def check_finished(engine: Engine, db: object) -> None:
    """Refuse a database whose latest run stopped after rewriting some of its stage tables."""
    row = engine.fetch_rows(engine.sql.query("runs_unfinished"))
    if row:
        raise DedupError(
            f"the last run on {db} (started {row[0][0]}) did not finish, so its tables may mix two runs' "
            "options and documents: run it again to finish it (its finished stages are reused)"
        )


def latest_run(engine: Engine) -> tuple[str, dict[str, Any]] | None:
    """The hash scheme and options of the database's latest run, or None if it has none."""
    row = engine.fetch_rows(engine.sql.query("runs_latest"))
    if not row:
        return None
    scheme, options = row[0]
    return scheme, json.loads(options)
