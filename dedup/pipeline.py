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

from .corpus import read_documents, read_inputs
from .engine import Engine, open_engine, temp_directory
from .errors import EngineError, Interrupted, UsageError
from .params import COMPLETE_ENOUGH, candidate_probability
from .records import Checkpoints, digest_tables, input_fingerprint, record_run
from .settings import Settings
from .sqlfiles import query
from .stages import compile_stages

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
    notes: list[str] = field(default_factory=list)
    stages: list[StageReport] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Whether the pair count can be stated as every pair >= threshold (P(found | J = t) >= 0.99)."""
        return self.detection_probability >= COMPLETE_ENOUGH

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


class Progress:
    """What a run tells as it goes; this one tells nothing (dedup.report.StageProgress shows it)."""

    def attach(self, engine: Engine) -> None:
        """The run's engine, whose running statement's progress can be polled."""

    def start(self, stage: str) -> None:
        """A stage starts."""

    def finish(self, report: StageReport) -> None:
        """A stage finished (or was reused): its rows and seconds."""


def execute(
    settings: Settings,
    progress: Progress | None = None,
    on_open: Callable[[Engine], None] | None = None,
    documents: pa.Table | None = None,
) -> RunResult:
    """Read the inputs, run every stage, return the pairs; tables stay in settings.db if given.

    on_open(engine) is called with the open engine (the CLI uses it to interrupt on Ctrl-C).
    """
    try:
        with _database(settings) as engine:
            if on_open is not None:
                on_open(engine)
            progress = progress or Progress()
            progress.attach(engine)
            return _execute(engine, settings, progress, documents)
    except KeyboardInterrupt:
        raise Interrupted(STAGES_KEPT) from None
    except EngineError as error:
        # Out of memory or disk, a full temp dir: the stage's atomic step was rolled back.
        message = str(error)
        if error.out_of_space:
            where = temp_directory(settings.db, settings) if settings.db is not None else "the temporary folder"
            message = f"no room to spill to {where} (give --temp-dir a folder with more space): {message}"
        raise EngineError(f"{message} (finished stages are kept; run again to resume)") from None


@contextmanager
def _database(settings: Settings) -> Iterator[Engine]:
    if settings.db is not None:
        engine = open_engine(settings.db, settings)
        try:
            yield engine
        finally:
            engine.close()
        return
    with tempfile.TemporaryDirectory(prefix="dedup-") as folder:
        engine = open_engine(Path(folder) / "run.duckdb", settings)
        try:
            yield engine
        finally:
            engine.close()


def _execute(engine: Engine, settings: Settings, progress: Progress, documents: pa.Table | None = None) -> RunResult:
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

    checkpoints = Checkpoints(engine)
    rerun = False  # once a stage runs, every later stage runs too: its input changed
    engine.register_arrow("raw_documents", raw)
    engine.register_arrow("raw_skipped", skipped)
    try:
        if settings.db is not None and not settings.replace_documents:
            _refuse_dropping_documents(engine, settings.db)
        for stage, statement in compile_stages(settings, engine.dialect):
            fingerprint = statement.fingerprint(fingerprint)
            if not rerun and checkpoints.finished(stage.name, fingerprint):
                summary.stages.append(StageReport(stage.name, checkpoints.rows(stage.name), 0.0, reused=True))
                progress.finish(summary.stages[-1])
                continue
            rerun = True
            progress.start(stage.name)
            clock = time.perf_counter()
            with engine.atomic(STAGES_KEPT):
                engine.create_table(stage.name, statement)
                if stage.name == "documents":
                    engine.create_table("skipped", query("skipped", dialect=engine.dialect))
                rows = checkpoints.record(stage.name, fingerprint, settings)
            summary.stages.append(StageReport(stage.name, rows, time.perf_counter() - clock))
            progress.finish(summary.stages[-1])
    finally:
        engine.unregister("raw_documents")
        engine.unregister("raw_skipped")

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

    record_run(engine, settings, summary.counts(), {s.name: round(s.seconds, 4) for s in summary.stages}, started)
    pairs = engine.fetch_arrow(query("export_pairs", dialect=engine.dialect))
    return RunResult(pairs=pairs, summary=summary, skipped=skipped)


def _refuse_dropping_documents(engine: Engine, db: Path) -> None:
    """A kept database never loses documents silently: refuse a run whose inputs lack some of them."""
    if not engine.has_table("documents"):
        return
    dropped, examples = engine.fetch_rows(query("dropped_documents", dialect=engine.dialect))[0]
    if dropped:
        shown = ", ".join(repr(e) for e in examples) + (", ..." if dropped > len(examples) else "")
        raise UsageError(
            f"{db} holds {dropped} documents that these inputs do not ({shown}); a run would drop them: "
            "give --replace to rebuild it from these inputs alone, use `dedup add` to add documents to it, "
            "or give another --db"
        )
