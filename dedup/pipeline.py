"""A run: the stages in order on one engine's database (resuming finished ones), what each did,
and, when the run keeps a database, its clusters and the deduplicated input."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa

from .banding import COMPLETE_ENOUGH, candidate_probability
from .choices import Keep
from .corpus.read import read_documents, read_inputs
from .engine import Engine, Statement, open_engine
from .errors import EngineError, Interrupted, UsageError
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
    notes: list[str] = field(default_factory=list)
    stages: list[StageReport] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Whether the pair count can be stated as every pair >= threshold (P(found | J = t) >= 0.99)."""
        return self.detection_probability >= COMPLETE_ENOUGH

    @property
    def seconds(self) -> float:
        return sum(stage.seconds for stage in self.stages)

    def account(self, loaded: int, skipped: int, latin1: int) -> None:
        """The input account and pair counts, from the stage reports: read = processed + empty + skipped."""
        rows = {report.name: report.rows for report in self.stages}
        self.skipped = skipped
        self.read = loaded + skipped
        self.processed = rows["signatures"]
        self.empty = loaded - self.processed
        self.latin1 = latin1
        self.shingles = rows["shingles"]
        self.candidates = rows["candidates"]
        self.pairs = rows["pairs"]

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
    dropped: int | None = None  # documents that the keep rule drops, when the run kept a database


class Progress:
    """What a run tells as it goes; this one tells nothing (dedup.report.StageProgress shows it)."""

    def attach(self, engine: Engine) -> None:
        """The run's engine, whose running statement's progress can be polled."""

    def start(self, stage: str) -> None:
        """A stage starts."""

    def finish(self, report: StageReport) -> None:
        """A stage finished (or was reused): its rows and seconds."""


def run_settings(
    settings: Settings,
    *,
    keep: Keep | str = Keep.first,
    write_deduplicated: Path | None = None,
    progress: Progress | None = None,
    on_open: Callable[[Engine], None] | None = None,
    documents: pa.Table | None = None,
) -> RunResult:
    """A whole run, as `dedup run` and `dedup.run` make it: every stage; then, when the run keeps
    a database (--db, or a temporary one for --write-deduplicated), its clusters by the keep rule
    and the deduplicated input if asked."""
    with _kept_database(settings, write_deduplicated) as kept:
        return execute(kept, progress, on_open, documents, keep=keep, write_deduplicated=write_deduplicated)


@contextmanager
def _kept_database(settings: Settings, write_deduplicated: Path | None) -> Iterator[Settings]:
    """The run's settings, with a temporary database when the deduplicated input needs one."""
    if write_deduplicated is not None:
        from .corpus.write import check_target

        check_target(settings, write_deduplicated)
    if write_deduplicated is None or settings.db is not None:
        yield settings
        return
    with tempfile.TemporaryDirectory(prefix="dedup-") as folder:
        yield settings.replace(db=Path(folder) / "run.duckdb")


def execute(
    settings: Settings,
    progress: Progress | None = None,
    on_open: Callable[[Engine], None] | None = None,
    documents: pa.Table | None = None,
    *,
    keep: Keep | str | None = None,
    write_deduplicated: Path | None = None,
) -> RunResult:
    """Read the inputs, run every stage, return the pairs; tables stay in settings.db if given,
    with the clusters by `keep` (and the deduplicated input written) when keep is given.

    on_open(engine) is called with the open engine (the CLI uses it to interrupt on Ctrl-C).
    """
    progress = progress or Progress()
    inputs = read(settings, progress, documents)
    try:
        with _database(settings, in_memory=inputs.text_bytes <= IN_MEMORY_BYTES) as engine:
            if on_open is not None:
                on_open(engine)
            progress.attach(engine)
            result = _execute(engine, settings, progress, inputs)
            if keep is not None and settings.db is not None:
                from .corpus.write import write_deduplicated_input
                from .index.clusters import build_clusters, dropped_ids

                build_clusters(engine, keep)
                dropped = dropped_ids(engine)
                result.dropped = len(dropped)
                if write_deduplicated is not None:
                    write_deduplicated_input(settings, write_deduplicated, dropped)
            return result
    except KeyboardInterrupt:
        raise Interrupted(STAGES_KEPT) from None
    except EngineError as error:
        # Out of memory or disk, a full temp dir: the stage's atomic step was rolled back.
        raise EngineError(f"{error} (finished stages are kept; run again to resume)") from None


# A run without --db keeps its tables in an in-memory database when the texts are at most this
# many bytes: no database file to create, compress, sync at each stage's commit and checkpoint at
# close; a larger corpus gets a temporary database file, as with --db (its tables are compressed,
# so a large run's memory stays bounded).
IN_MEMORY_BYTES = 16_000_000


@dataclass
class Inputs:
    """The inputs as read, before any database is open."""

    raw: pa.Table | None  # None once the documents stage has copied the texts
    skipped: pa.Table
    latin1: int
    notes: list[str]
    seconds: float

    @property
    def text_bytes(self) -> int:
        return 0 if self.raw is None else self.raw.column("text").nbytes


def read(settings: Settings, progress: Progress, documents: pa.Table | None = None) -> Inputs:
    """The run's inputs as Arrow tables (the `read` step)."""
    progress.start("read")
    clock = time.perf_counter()
    try:
        corpus = read_inputs(settings) if documents is None else read_documents(documents, settings.strip_html)
        raw = corpus.to_arrow()
    except KeyboardInterrupt:
        raise Interrupted("interrupted while reading the inputs; nothing was written") from None
    # The corpus's Python strings (~300 MB at 1M short documents) are freed on return.
    return Inputs(raw, corpus.skipped_arrow(), corpus.latin1, list(corpus.notes), time.perf_counter() - clock)


@contextmanager
def _database(settings: Settings, in_memory: bool = False) -> Iterator[Engine]:
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


def _execute(
    engine: Engine,
    settings: Settings,
    progress: Progress,
    inputs: Inputs | None = None,
) -> RunResult:
    summary = Summary(bands=settings.banding.bands, rows=settings.banding.rows)
    summary.detection_probability = candidate_probability(
        settings.method, settings.threshold, settings.banding, settings.num_perm
    )
    started = datetime.now(UTC)

    if inputs is None:
        inputs = read(settings, progress)
    raw, skipped = inputs.raw, inputs.skipped
    assert raw is not None
    inputs.raw = None  # so that the Arrow texts are freed once the documents stage has copied them
    read_rows, latin1, notes = raw.num_rows, inputs.latin1, inputs.notes
    options = settings.options()
    fingerprint = input_fingerprint(options, digest_tables(raw, skipped))
    summary.stages.append(StageReport("read", raw.num_rows + skipped.num_rows, inputs.seconds))
    progress.finish(summary.stages[-1])

    checkpoints = Checkpoints(engine)
    rerun = False  # once a stage runs, every later stage runs too: its input changed
    engine.register_arrow("raw_documents", raw)
    engine.register_arrow("raw_skipped", skipped)
    try:
        if settings.db is not None and not settings.replace_documents:
            _refuse_dropping_documents(engine, settings.db)
        for group in _stage_groups(compile_stages(settings, engine.dialect)):
            fingerprints = []
            for _, statement in group:
                fingerprint = statement.fingerprint(fingerprint)
                fingerprints.append(fingerprint)
            finished = [checkpoints.finished(s.name, f) for (s, _), f in zip(group, fingerprints, strict=True)]
            if not rerun and all(finished):
                for stage, _ in group:
                    summary.stages.append(StageReport(stage.name, checkpoints.rows(stage.name), 0.0, reused=True))
                    progress.finish(summary.stages[-1])
                continue
            rerun = True
            with engine.atomic(STAGES_KEPT):
                if len(group) > 1:
                    seconds = _run_in_batches(engine, group, progress)
                else:
                    stage, statement = group[0]
                    progress.start(stage.name)
                    clock = time.perf_counter()
                    engine.create_table(stage.name, statement)
                    if stage.name == "documents":
                        engine.create_table("skipped", query("skipped", dialect=engine.dialect))
                        engine.unregister("raw_documents")
                        raw = None  # the documents table has the texts now: free the Arrow copy
                    seconds = {stage.name: time.perf_counter() - clock}
                for (stage, _), stage_fingerprint in zip(group, fingerprints, strict=True):
                    rows = checkpoints.record(stage.name, stage_fingerprint, options)
                    summary.stages.append(StageReport(stage.name, rows, seconds[stage.name]))
                    progress.finish(summary.stages[-1])
    finally:
        engine.unregister("raw_documents")
        engine.unregister("raw_skipped")

    summary.account(read_rows, skipped.num_rows, latin1)
    summary.notes = notes

    record_run(engine, options, summary.counts(), {s.name: round(s.seconds, 4) for s in summary.stages}, started)
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
            progress.start(stage.name)
            clock = time.perf_counter()
            engine.create_table(stage.name, statement)
            seconds[stage.name] += time.perf_counter() - clock
        return seconds
    engine.execute(query("staging_create", dialect=dialect))
    engine.execute(query("staging_enter", dialect=dialect))
    try:
        for number, (first, last) in enumerate(batches):
            engine.create_table("documents", query("batch_documents", {"first": first, "last": last}, dialect))
            for stage, statement in group:
                progress.start(stage.name)
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
