"""Running the stages in order on one DuckDB database and reporting what each did."""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pyarrow as pa

from . import __version__
from .checkpoint import (
    STAGES_KEPT,
    Checkpoints,
    digest_tables,
    input_fingerprint,
    is_interrupt,
    stage_fingerprint,
    transaction,
)
from .clusters import has_table
from .corpus import read_documents, read_inputs
from .database import connect, first_line, temp_directory
from .errors import DedupError, Interrupted, UsageError
from .hashing import SCHEME
from .params import COMPLETE_ENOUGH, candidate_probability
from .queries import run_query
from .settings import Settings
from .stages import pipeline_stages, run_stage

PAIR_COLUMNS = "id_a, id_b, jaccard, estimate"


@dataclass
class StageReport:
    name: str
    rows: int
    seconds: float
    reused: bool = False  # finished by an earlier run with the same inputs and options


@dataclass
class Summary:
    read: int = 0
    processed: int = 0
    empty: int = 0
    skipped: int = 0
    latin1: int = 0
    shingles: int = 0
    candidates: int = 0
    pairs: int = 0
    bands: int = 0
    rows: int = 0
    detection_probability: float = 0.0
    notes: list[str] = field(default_factory=list)
    stages: list[StageReport] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Whether the pair count can be stated as every pair >= threshold (P(found | J = t) >= 0.99)."""
        return self.detection_probability >= COMPLETE_ENOUGH

    @property
    def seconds(self) -> float:
        return sum(stage.seconds for stage in self.stages)


@dataclass
class RunResult:
    pairs: pa.Table
    summary: Summary
    skipped: pa.Table


class Progress:
    """What a run tells as it goes; this one tells nothing (dedup.report.StageProgress shows it)."""

    def attach(self, con: duckdb.DuckDBPyConnection) -> None:
        """The run's connection, whose running query's progress can be polled."""

    def start(self, stage: str) -> None:
        """A stage starts."""

    def finish(self, report: StageReport) -> None:
        """A stage finished (or was reused): its rows and seconds."""


def execute(
    settings: Settings,
    progress: Progress | None = None,
    on_connect: Callable[[duckdb.DuckDBPyConnection], None] | None = None,
    documents: pa.Table | None = None,
) -> RunResult:
    """Read the inputs, run every stage, return the pairs; tables stay in settings.db if given.

    on_connect(con) is called with the open connection (the CLI uses it to interrupt on Ctrl-C).
    """
    try:
        with _database(settings) as con:
            if on_connect is not None:
                on_connect(con)
            progress = progress or Progress()
            progress.attach(con)
            return _execute(con, settings, progress, documents)
    except (KeyboardInterrupt, duckdb.Error, RuntimeError) as error:
        if is_interrupt(error):
            raise Interrupted(STAGES_KEPT) from None
        if not isinstance(error, duckdb.Error):
            raise
        # Out of memory or disk, a full temp dir: the stage's transaction was rolled back.
        message = first_line(error)
        if "offload" in message or "No space left" in message:
            where = temp_directory(settings.db, settings) if settings.db is not None else "the temporary folder"
            message = f"no room to spill to {where} (give --temp-dir a folder with more space): {message}"
        raise DedupError(f"{message} (finished stages are kept; run again to resume)") from None


@contextmanager
def _database(settings: Settings) -> Iterator[duckdb.DuckDBPyConnection]:
    if settings.db is not None:
        con = connect(settings.db, settings)
        try:
            yield con
        finally:
            con.close()
        return
    with tempfile.TemporaryDirectory(prefix="dedup-") as folder:
        con = connect(Path(folder) / "run.duckdb", settings)
        try:
            yield con
        finally:
            con.close()


def _execute(
    con: duckdb.DuckDBPyConnection, settings: Settings, progress: Progress, documents: pa.Table | None = None
) -> RunResult:
    summary = Summary(bands=settings.banding.bands, rows=settings.banding.rows)
    summary.detection_probability = candidate_probability(
        settings.method, settings.threshold, settings.banding, settings.num_perm
    )
    started = datetime.now(UTC)

    progress.start("read")
    clock = time.perf_counter()
    try:
        corpus = read_inputs(settings) if documents is None else read_documents(documents, settings.strip_html)
    except KeyboardInterrupt:
        raise Interrupted("interrupted while reading the inputs; nothing was written") from None
    raw = corpus.to_arrow()
    skipped = corpus.skipped_arrow()
    fingerprint = input_fingerprint(settings, digest_tables(raw, skipped))
    summary.stages.append(StageReport("read", raw.num_rows + skipped.num_rows, time.perf_counter() - clock))
    progress.finish(summary.stages[-1])

    checkpoints = Checkpoints(con)
    rerun = False  # once a stage runs, every later stage runs too: its input changed
    con.register("raw_documents", raw)
    con.register("raw_skipped", skipped)
    try:
        if settings.db is not None and not settings.replace_documents:
            _refuse_dropping_documents(con, settings.db)
        for stage in pipeline_stages(settings):
            fingerprint = stage_fingerprint(fingerprint, stage, settings)
            if not rerun and checkpoints.finished(stage.name, fingerprint):
                summary.stages.append(StageReport(stage.name, checkpoints.rows(stage.name), 0.0, reused=True))
                progress.finish(summary.stages[-1])
                continue
            rerun = True
            progress.start(stage.name)
            clock = time.perf_counter()
            with transaction(con):
                run_stage(con, stage, settings)
                if stage.name == "documents":
                    con.execute("create or replace table skipped as select * from raw_skipped").fetchall()
                rows = checkpoints.record(stage.name, fingerprint, settings)
            summary.stages.append(StageReport(stage.name, rows, time.perf_counter() - clock))
            progress.finish(summary.stages[-1])
    finally:
        for view in ("raw_documents", "raw_skipped"):
            try:
                con.unregister(view)
            except duckdb.Error:
                pass  # the connection is closing after a failure; the views die with it

    counts = {report.name: report.rows for report in summary.stages}
    summary.skipped = skipped.num_rows
    summary.read = raw.num_rows + summary.skipped
    summary.processed = counts["signatures"]
    summary.empty = raw.num_rows - summary.processed
    summary.latin1 = corpus.latin1
    summary.notes = list(corpus.notes)
    summary.shingles = counts["shingles"]
    summary.candidates = counts["candidates"]
    summary.pairs = counts["pairs"]

    _record_run(con, settings, summary, started)
    pairs = con.sql(f"select {PAIR_COLUMNS} from pairs order by jaccard desc, id_a, id_b").to_arrow_table()
    return RunResult(pairs=pairs, summary=summary, skipped=skipped)


def _refuse_dropping_documents(con: duckdb.DuckDBPyConnection, db: Path) -> None:
    """A kept database never loses documents silently: refuse a run whose inputs lack some of them."""
    if not has_table(con, "documents"):
        return
    dropped, examples = run_query(con, "dropped_documents")[0]
    if dropped:
        shown = ", ".join(repr(e) for e in examples) + (", ..." if dropped > len(examples) else "")
        raise UsageError(
            f"{db} holds {dropped} documents that these inputs do not ({shown}); a run would drop them: "
            "give --replace to rebuild it from these inputs alone, use `dedup add` to add documents to it, "
            "or give another --db"
        )


def _record_run(con: duckdb.DuckDBPyConnection, settings: Settings, summary: Summary, started: datetime) -> None:
    con.execute(
        """
        create table if not exists runs (
            run_id integer, started_at timestamptz, finished_at timestamptz, dedup_version varchar,
            duckdb_version varchar, hash_scheme varchar, options json, counts json, stage_seconds json
        )
        """
    ).fetchall()
    counts = {
        "read": summary.read,
        "processed": summary.processed,
        "empty": summary.empty,
        "skipped": summary.skipped,
        "latin1": summary.latin1,
        "shingles": summary.shingles,
        "candidates": summary.candidates,
        "pairs": summary.pairs,
    }
    con.execute(
        """
        insert into runs
        select coalesce(max(run_id), 0) + 1, $started, now(), $dedup, $duckdb, $scheme, $options, $counts, $seconds
        from runs
        """,
        {
            "started": started,
            "dedup": __version__,
            "duckdb": duckdb.__version__,
            "scheme": SCHEME,
            "options": json.dumps(settings.options()),
            "counts": json.dumps(counts),
            "seconds": json.dumps({s.name: round(s.seconds, 4) for s in summary.stages}),
        },
    ).fetchall()
