"""Running the stages in order on one DuckDB database and reporting what each did."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa

from .corpus import read_inputs
from .engine import Engine, Statement, open_engine, temp_directory
from .errors import EngineError, Interrupted
from .records import Checkpoints, digest_tables, input_fingerprint, record_run
from .settings import Settings
from .sqlfiles import query
from .sqltext import quote_identifier
from .stages import Stage, compile_stages

# The one-line message of Ctrl-C during a run.
STAGES_KEPT = "interrupted; the database keeps every stage that had finished"


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

    def counts(self) -> dict[str, int]:
        """The counts recorded in the runs table."""
        return {
            "read": self.read,
            "processed": self.processed,
            "empty": self.empty,
            "skipped": self.skipped,
            "latin1": self.latin1,
            "shingles": self.shingles,
            "candidates": self.candidates,
            "pairs": self.pairs,
        }


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
    on_open: Callable[[Engine], None] | None = None,
) -> RunResult:
    """Read the inputs, run every stage, return the pairs; tables stay in settings.db if given.

    on_open(engine) is called with the open engine (the CLI uses it to interrupt on Ctrl-C).
    """
    inputs = _read(settings, progress)
    try:
        with _database(settings, in_memory=inputs.text_bytes <= IN_MEMORY_BYTES) as engine:
            if on_open is not None:
                on_open(engine)
            return _execute(engine, settings, progress, inputs)
    except KeyboardInterrupt:
        raise Interrupted(STAGES_KEPT) from None
    except EngineError as error:
        # Out of memory or disk, a full temp dir: the stage's atomic step was rolled back.
        message = str(error)
        if error.out_of_space:
            where = temp_directory(settings.db, settings) if settings.db is not None else "the temporary folder"
            message = f"no room to spill to {where} (give --temp-dir a folder with more space): {message}"
        raise EngineError(f"{message} (finished stages are kept; run again to resume)") from None


# A run without --db keeps its tables in memory when the texts are at most this many bytes: no
# file, and no compression and sync of each stage's table at commit (short workload: 9 % less
# CPU, +100 MiB peak RSS); a larger corpus gets a temporary database file, as with --db.
IN_MEMORY_BYTES = 16_000_000


@dataclass
class Inputs:
    raw: pa.Table | None
    skipped: pa.Table
    latin1: int
    seconds: float
    text_bytes: int


def _read(settings: Settings, progress: Progress) -> Inputs:
    progress("read")
    clock = time.perf_counter()
    try:
        corpus = read_inputs(settings)
        raw = corpus.to_arrow()
    except KeyboardInterrupt:
        raise Interrupted("interrupted while reading the inputs; nothing was written") from None
    # The corpus's Python strings (~300 MB at 1M short documents) are freed on return.
    return Inputs(raw, corpus.skipped_arrow(), corpus.latin1, time.perf_counter() - clock, raw.column("text").nbytes)


@contextmanager
def _database(settings: Settings, in_memory: bool) -> Iterator[Engine]:
    if settings.db is not None:
        engine = open_engine(settings.db, settings)
        try:
            yield engine
        finally:
            engine.close()
        return
    with tempfile.TemporaryDirectory(prefix="dedup-") as folder:
        engine = open_engine(Path(folder) / "run.duckdb", settings, in_memory=in_memory)
        try:
            yield engine
        finally:
            engine.close()


def _execute(engine: Engine, settings: Settings, progress: Progress, inputs: Inputs) -> RunResult:
    summary = Summary(bands=settings.banding.bands, rows=settings.banding.rows)
    summary.detection_probability = settings.banding.probability(settings.threshold)
    started = datetime.now(UTC)
    raw, skipped = inputs.raw, inputs.skipped
    assert raw is not None
    inputs.raw = None  # so that the Arrow texts are freed once the documents stage has copied them
    documents = raw.num_rows
    fingerprint = input_fingerprint(settings, digest_tables(raw, skipped))
    summary.stages.append(StageReport("read", raw.num_rows + skipped.num_rows, inputs.seconds))

    checkpoints = Checkpoints(engine)
    rerun = False  # once a stage runs, every later stage runs too: its input changed
    engine.register_arrow("raw_documents", raw)
    engine.register_arrow("raw_skipped", skipped)
    try:
        for group in _stage_groups(compile_stages(settings, engine.dialect)):
            fingerprints = []
            for _, statement in group:
                fingerprint = statement.fingerprint(fingerprint)
                fingerprints.append(fingerprint)
            finished = [checkpoints.finished(s.name, f) for (s, _), f in zip(group, fingerprints, strict=True)]
            if not rerun and all(finished):
                for stage, _ in group:
                    summary.stages.append(StageReport(stage.name, checkpoints.rows(stage.name), 0.0, reused=True))
                continue
            rerun = True
            with engine.atomic(STAGES_KEPT):
                if len(group) > 1:
                    seconds = _run_in_batches(engine, group, progress)
                else:
                    stage, statement = group[0]
                    progress(stage.name)
                    clock = time.perf_counter()
                    engine.create_table(stage.name, statement)
                    if stage.name == "documents":
                        engine.create_table("skipped", query("skipped", dialect=engine.dialect))
                        engine.unregister("raw_documents")
                        raw = None  # the documents table has the texts now: free the Arrow copy
                    seconds = {stage.name: time.perf_counter() - clock}
                for (stage, _), stage_fingerprint in zip(group, fingerprints, strict=True):
                    rows = checkpoints.record(stage.name, stage_fingerprint, settings)
                    summary.stages.append(StageReport(stage.name, rows, seconds[stage.name]))
    finally:
        engine.unregister("raw_documents")
        engine.unregister("raw_skipped")

    counts = {report.name: report.rows for report in summary.stages}
    summary.skipped = skipped.num_rows
    summary.read = documents + summary.skipped
    summary.processed = counts["signatures"]
    summary.empty = documents - summary.processed
    summary.latin1 = inputs.latin1
    summary.shingles = counts["shingles"]
    summary.candidates = counts["candidates"]
    summary.pairs = counts["pairs"]

    record_run(engine, settings, summary.counts(), {s.name: round(s.seconds, 4) for s in summary.stages}, started)
    pairs = engine.fetch_arrow(query("export_pairs", dialect=engine.dialect))
    return RunResult(pairs=pairs, summary=summary, skipped=skipped)


# The per-document stages whose memory would grow with the corpus (a DISTINCT over every shingle
# occurrence, a 128-column GROUP BY over every document): a large corpus runs them on batches
# of consecutive doc_ids, each batch in memory, appending to the tables.
BATCHED_STAGES = ("shingles", "signatures")
# A batch holds at most this many documents and about this many characters of normalized text
# (about as many shingle occurrences): ~1 GB of DuckDB memory at most.
BATCH_DOCUMENTS = 100_000
BATCH_CHARACTERS = 16_000_000

Compiled = tuple[Stage, Statement]


def _stage_groups(stages: list[Compiled]) -> list[list[Compiled]]:
    """The stages in order, the consecutive batched stages as one group (they run batch by batch)."""
    groups: list[list[Compiled]] = []
    for stage, statement in stages:
        if groups and stage.name in BATCHED_STAGES and groups[-1][-1][0].name in BATCHED_STAGES:
            groups[-1].append((stage, statement))
        else:
            groups.append([(stage, statement)])
    return groups


def _run_in_batches(engine: Engine, group: list[Compiled], progress: Progress) -> dict[str, float]:
    """Run the group's stages on each batch of documents in the staging schema, which shadows main
    (as `index add` stages new documents), appending each batch's rows to the main tables.
    One batch (most corpora) runs the stages on the whole tables, as they are written."""
    dialect = engine.dialect
    seconds = {stage.name: 0.0 for stage, _ in group}
    sizes = {"characters": BATCH_CHARACTERS, "documents": BATCH_DOCUMENTS}
    batches = engine.fetch_rows(query("batch_ranges", sizes, dialect))
    if len(batches) <= 1:
        for stage, statement in group:
            progress(stage.name)
            clock = time.perf_counter()
            engine.create_table(stage.name, statement)
            seconds[stage.name] += time.perf_counter() - clock
        return seconds
    engine.execute(query("staging_create", dialect=dialect))
    engine.execute(query("staging_enter", dialect=dialect))
    try:
        for number, (first, last) in enumerate(batches):
            progress(f"{'+'.join(stage.name for stage, _ in group)} (batch {number + 1} of {len(batches)})")
            engine.create_table("documents", query("batch_documents", {"first": first, "last": last}, dialect))
            for stage, statement in group:
                clock = time.perf_counter()
                engine.create_table(stage.name, statement)
                keep = "staging_keep" if number == 0 else "staging_append"
                engine.execute(query(keep, dialect=dialect, table=quote_identifier(stage.name)))
                seconds[stage.name] += time.perf_counter() - clock
        for name in ("documents", *seconds):
            engine.execute(query("staging_drop", dialect=dialect, table=quote_identifier(name)))
    finally:
        engine.execute(query("staging_leave", dialect=dialect))
    return seconds
