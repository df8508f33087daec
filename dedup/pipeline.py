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
from .corpus import read_inputs
from .database import connect, connect_in_memory, first_line, temp_directory
from .errors import DedupError, Interrupted
from .hashing import SCHEME
from .settings import Settings
from .sqltext import quote_identifier
from .stages import Stage, pipeline_stages, run_stage

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
    stages: list[StageReport] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return sum(stage.seconds for stage in self.stages)


@dataclass
class RunResult:
    pairs: pa.Table
    summary: Summary
    skipped: pa.Table


Progress = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


def execute(
    settings: Settings,
    progress: Progress = _quiet,
    on_connect: Callable[[duckdb.DuckDBPyConnection], None] | None = None,
) -> RunResult:
    """Read the inputs, run every stage, return the pairs; tables stay in settings.db if given.

    on_connect(con) is called with the open connection (the CLI uses it to interrupt on Ctrl-C).
    """
    inputs = _read(settings, progress)
    try:
        with _database(settings, in_memory=inputs.raw.column("text").nbytes <= IN_MEMORY_BYTES) as con:
            if on_connect is not None:
                on_connect(con)
            return _execute(con, settings, progress, inputs)
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


# A run without --db keeps its tables in memory when the texts are at most this many bytes: no
# file, and no compression and sync of each stage's table at commit (short workload: 9 % less
# CPU, +100 MiB peak RSS); a larger corpus gets a temporary database file, as with --db.
IN_MEMORY_BYTES = 16_000_000


@dataclass
class Inputs:
    raw: pa.Table
    skipped: pa.Table
    latin1: int
    seconds: float


def _read(settings: Settings, progress: Progress) -> Inputs:
    progress("read")
    clock = time.perf_counter()
    try:
        corpus = read_inputs(settings)
        raw = corpus.to_arrow()
    except KeyboardInterrupt:
        raise Interrupted("interrupted while reading the inputs; nothing was written") from None
    # The corpus's Python strings (~300 MB at 1M short documents) are freed on return.
    return Inputs(raw, corpus.skipped_arrow(), corpus.latin1, time.perf_counter() - clock)


@contextmanager
def _database(settings: Settings, in_memory: bool) -> Iterator[duckdb.DuckDBPyConnection]:
    if settings.db is not None:
        con = connect(settings.db, settings)
        try:
            yield con
        finally:
            con.close()
        return
    with tempfile.TemporaryDirectory(prefix="dedup-") as folder:
        path = Path(folder) / "run.duckdb"
        con = connect_in_memory(path, settings) if in_memory else connect(path, settings)
        try:
            yield con
        finally:
            con.close()


def _execute(con: duckdb.DuckDBPyConnection, settings: Settings, progress: Progress, inputs: Inputs) -> RunResult:
    summary = Summary(bands=settings.banding.bands, rows=settings.banding.rows)
    summary.detection_probability = settings.banding.probability(settings.threshold)
    started = datetime.now(UTC)
    raw, skipped = inputs.raw, inputs.skipped
    inputs.raw = None  # so that the Arrow texts are freed once the documents stage has copied them
    documents = raw.num_rows
    fingerprint = input_fingerprint(settings, digest_tables(raw, skipped))
    summary.stages.append(StageReport("read", raw.num_rows + skipped.num_rows, inputs.seconds))

    checkpoints = Checkpoints(con)
    rerun = False  # once a stage runs, every later stage runs too: its input changed
    con.register("raw_documents", raw)
    con.register("raw_skipped", skipped)
    try:
        for group in _stage_groups(pipeline_stages(settings)):
            fingerprints = []
            for stage in group:
                fingerprint = stage_fingerprint(fingerprint, stage, settings)
                fingerprints.append(fingerprint)
            if not rerun and all(checkpoints.finished(s.name, f) for s, f in zip(group, fingerprints, strict=True)):
                for stage in group:
                    summary.stages.append(StageReport(stage.name, checkpoints.rows(stage.name), 0.0, reused=True))
                continue
            rerun = True
            with transaction(con):
                if len(group) > 1:
                    seconds = _run_in_batches(con, group, settings, progress)
                else:
                    progress(group[0].name)
                    clock = time.perf_counter()
                    run_stage(con, group[0], settings)
                    if group[0].name == "documents":
                        con.execute("create or replace table skipped as select * from raw_skipped").fetchall()
                        con.unregister("raw_documents")
                        raw = None  # the documents table has the texts now: free the Arrow copy
                    seconds = {group[0].name: time.perf_counter() - clock}
                for stage, stage_fingerprint_ in zip(group, fingerprints, strict=True):
                    rows = checkpoints.record(stage.name, stage_fingerprint_, settings)
                    summary.stages.append(StageReport(stage.name, rows, seconds[stage.name]))
    finally:
        for view in ("raw_documents", "raw_skipped"):
            try:
                con.unregister(view)
            except duckdb.Error:
                pass  # the connection is closing after a failure; the views die with it

    counts = {report.name: report.rows for report in summary.stages}
    summary.skipped = skipped.num_rows
    summary.read = documents + summary.skipped
    summary.processed = counts["signatures"]
    summary.empty = documents - summary.processed
    summary.latin1 = inputs.latin1
    summary.shingles = counts["shingles"]
    summary.candidates = counts["candidates"]
    summary.pairs = counts["pairs"]

    _record_run(con, settings, summary, started)
    pairs = con.sql(f"select {PAIR_COLUMNS} from pairs order by jaccard desc, id_a, id_b").to_arrow_table()
    return RunResult(pairs=pairs, summary=summary, skipped=skipped)


# The per-document stages whose memory would grow with the corpus (a DISTINCT over every shingle
# occurrence, a 128-column GROUP BY over every document): a large corpus runs them on batches
# of consecutive doc_ids, each batch in memory, appending to the tables.
BATCHED_STAGES = ("shingles", "signatures")
# A batch holds at most this many documents and this many characters of normalized text (about
# as many shingle occurrences): ~1 GB of DuckDB memory at most.
BATCH_DOCUMENTS = 100_000
BATCH_CHARACTERS = 16_000_000

BATCHES = """
with sizes as (
    select doc_id, sum(length(norm)) over (order by doc_id) as characters
    from documents
)
select min(doc_id), max(doc_id)
from sizes
group by (characters - 1) // $characters, (doc_id - 1) // $documents
order by 1
"""


def _stage_groups(stages: list[Stage]) -> list[list[Stage]]:
    """The stages in order, the consecutive batched stages as one group (they run batch by batch)."""
    groups: list[list[Stage]] = []
    for stage in stages:
        if groups and stage.name in BATCHED_STAGES and groups[-1][-1].name in BATCHED_STAGES:
            groups[-1].append(stage)
        else:
            groups.append([stage])
    return groups


def _run_in_batches(
    con: duckdb.DuckDBPyConnection, group: list[Stage], settings: Settings, progress: Progress
) -> dict[str, float]:
    """Run the group's stages on each batch of documents (as temp tables that shadow the main ones,
    the way `index add` stages new documents), appending each batch's rows to the main tables.
    One batch (most corpora) runs the stages on the whole tables, as they are written."""
    seconds = {stage.name: 0.0 for stage in group}
    batches = con.execute(BATCHES, {"characters": BATCH_CHARACTERS, "documents": BATCH_DOCUMENTS}).fetchall()
    if len(batches) <= 1:
        for stage in group:
            progress(stage.name)
            clock = time.perf_counter()
            run_stage(con, stage, settings)
            seconds[stage.name] += time.perf_counter() - clock
        return seconds
    names = ["documents", *(stage.name for stage in group)]
    # The database's own catalog: `main.x` alone would also match the temp catalog's schema main.
    database = con.execute("select current_database()").fetchall()[0][0]
    try:
        for number, (first, last) in enumerate(batches):
            progress(f"{'+'.join(s.name for s in group)} (batch {number + 1} of {len(batches)})")
            con.execute(
                f"create or replace temp table documents as select * from {quote_identifier(database)}.main.documents"
                " where doc_id between $f and $l",
                {"f": first, "l": last},
            ).fetchall()
            for stage in group:
                clock = time.perf_counter()
                run_stage(con, stage, settings, temporary=True)
                if number == 0:
                    con.execute(
                        f"create or replace table {quote_identifier(database)}.main.{quote_identifier(stage.name)}"
                        f" as select * from temp.{quote_identifier(stage.name)}"
                    ).fetchall()
                else:
                    con.execute(
                        f"insert into {quote_identifier(database)}.main.{quote_identifier(stage.name)}"
                        f" select * from temp.{quote_identifier(stage.name)}"
                    ).fetchall()
                seconds[stage.name] += time.perf_counter() - clock
    finally:
        # The temp tables shadow the main ones: never leave them behind. After a failure the
        # transaction is aborted and its rollback removes them; a drop then fails harmlessly.
        for name in names:
            try:
                con.execute(f"drop table if exists temp.{quote_identifier(name)}").fetchall()
            except (duckdb.Error, RuntimeError):
                pass
    return seconds


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
