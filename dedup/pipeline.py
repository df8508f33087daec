"""A run: read the inputs onto the engine chosen by the settings, run the stages (resuming finished
ones), and return the pairs; when the run keeps a database, also its clusters by the keep rule and
the deduplicated input."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa

from .choices import Keep, PairsListed
from .corpus.read import Read, read_by_python
from .corpus.write import write_deduplicated_input
from .engines import Engine, engine_kind, run_engine
from .errors import EngineError, Interrupted
from .index import clusters
from .index.export import needs_clusters
from .inputs import load_inputs
from .output import STREAM_ROWS
from .records import checkpoints, input_fingerprint
from .reports import Progress, RunResult, StageReport, Summary
from .runner import STAGES_KEPT, run_stages
from .settings import Settings
from .stages import BYTES_PER_SHINGLE, compile_run

__all__ = ["execute", "Progress", "RunResult", "StageReport", "Summary"]


def clusters_rule(settings: Settings) -> Keep | None:
    """The rule a run builds its clusters by (--keep, else first), or None when it builds none: on
    DuckDB with every database it keeps (--db, or the temporary one of --write-deduplicated) and
    every export; on Spark, where they are a table under the work folder, only when --keep is given
    or an export needs them."""
    exports = settings.exports
    if engine_kind(settings.engine).keeps_clusters:
        built = settings.db is not None or settings.write_deduplicated is not None or bool(exports)
    else:
        built = settings.keep is not None or any(needs_clusters(what) for what, _ in exports)
    return (settings.keep or Keep.first) if built else None


def execute(
    settings: Settings,
    progress: Progress | None = None,
    on_open: Callable[[Engine], None] | None = None,
    documents: pa.Table | None = None,
    *,
    session: Any = None,
    pairs_to: Callable[[pa.RecordBatchReader], None] | None = None,
) -> RunResult:
    """A whole run, as `dedup run` and `dedup.run` make it on either engine, from settings that
    `dedup.options.run_options` checked: read the inputs, run every stage, return the pairs; tables
    stay in settings.db if given (a temporary database when only the deduplicated input needs one),
    with the clusters (`clusters_rule`), the deduplicated input and the exports the settings ask
    for. `session`: a SparkSession to run on (engine spark).

    on_open(engine) is called with the open engine (the CLI uses it to interrupt on Ctrl-C).
    pairs_to(reader): the pairs streamed to it in batches, once the run is recorded, instead of
    returned as a table (result.pairs is then None): a file or stdout of any size in bounded memory.
    settings.pairs: which pairs are listed (returned or streamed): all, between-groups (not those of
    exact copies), none (an empty table, nothing streamed); the pairs table holds them all.
    """
    if settings.write_deduplicated is not None and settings.db is None:  # its clusters need a database
        with tempfile.TemporaryDirectory(prefix="dedup-") as folder:
            kept = settings.replace(db=Path(folder) / "run.duckdb")
            return execute(kept, progress, on_open, documents, session=session, pairs_to=pairs_to)
    listed, keep = settings.pairs, clusters_rule(settings)
    write_deduplicated, exports = settings.write_deduplicated, settings.exports
    progress = progress or Progress()
    started = datetime.now(UTC)
    clock = time.perf_counter()
    read = None
    stamp = None
    if write_deduplicated is not None:  # what the input holds before it is read (see corpus.stamp)
        from .corpus.stamp import stamp_input

        stamp = stamp_input(settings.inputs[0])
    if not engine_kind(settings.engine).reads_paths:  # read before the database opens: its size chooses it
        progress.start("read")
        read = read_by_python(settings, documents)
    plan = compile_run(settings, settings.engine)
    summary = Summary(
        bands=settings.banding.bands, rows=settings.banding.rows, detection_probability=settings.detection_probability
    )
    # under --memory-limit, never in memory: an in-memory database's tables count against the limit
    small = read is not None and settings.memory_limit is None and shingle_estimate(read, settings) <= SMALL_SHINGLES
    try:
        with run_engine(settings, session, small) as engine:
            if on_open is not None:
                on_open(engine)
            progress.attach(engine)
            if read is None:  # Spark reads where the data is, once its session is up
                progress.start("read")
                clock = time.perf_counter()
            inputs = load_inputs(engine, settings, plan, read)
            summary.stages.append(StageReport("read", inputs.read, time.perf_counter() - clock))
            progress.finish(summary.stages[-1])
            read_files = settings.files_read if documents is None else ()  # not the placeholder of documents in memory
            done = checkpoints(engine, plan.options, started, read_files)
            try:
                fingerprint = input_fingerprint(plan.options, inputs.digest)  # the same rule on every engine
                summary.stages += run_stages(engine, done, plan, fingerprint, progress)
            finally:
                engine.unregister("raw_documents")
                engine.unregister("raw_skipped")
            summary.account(inputs.loaded, inputs.skipped.num_rows, inputs.latin1)
            summary.copy_groups, summary.copies, summary.distinct_texts = engine.fetch_rows(plan.query("exact_copies"))[
                0
            ]
            summary.notes = inputs.notes
            seconds = {s.name: round(s.seconds, 4) for s in summary.stages}
            table = None
            if pairs_to is None and listed == PairsListed.none:
                table = PAIRS_SCHEMA.empty_table()
            elif pairs_to is None:
                table = engine.fetch_arrow(plan.query(PAIRS_QUERY[listed]))
            result = RunResult(table, summary, inputs.skipped)
            if keep is not None:  # the clusters table (on Spark under the work folder, by the same SQL)
                result.dropped = clusters.build(engine, keep)
            # recorded finished once every table is the run's own, the clusters too (until then the
            # index commands refuse a database whose run stopped half-way: dedup.records)
            done.finish_run(summary.counts(), seconds)
            if result.dropped is not None and write_deduplicated is not None:
                # a --lines copy drops lines by number: with --ids, the ids are other names for them
                dropped = clusters.dropped_positions(engine) if settings.lines else clusters.dropped_ids(engine)
                write_deduplicated_input(settings, write_deduplicated, dropped, stamp)
            if pairs_to is not None and listed != PairsListed.none:  # streamed in batches: bounded memory
                reader = engine.stream_arrow(plan.query(PAIRS_QUERY[listed]), STREAM_ROWS)
                assert reader is not None, "a query has rows"
                pairs_to(reader)
            if exports:
                from .index.export import write_exports

                write_exports(engine, exports)
            return result
    except KeyboardInterrupt:
        raise Interrupted(STAGES_KEPT if settings.db is not None else NOTHING_KEPT) from None
    except EngineError as error:
        # Out of memory or disk, a full temp dir: the stage's atomic step was rolled back.
        if settings.db is None:
            raise
        raise EngineError(f"{error} (finished stages are kept in {settings.db}; run again to resume)") from None
    finally:
        if read is not None:  # the engine that read its spool is closed
            read.close()


PAIRS_QUERY = {PairsListed.all: "export_pairs", PairsListed.between_groups: "export_pairs_between_groups"}
PAIRS_SCHEMA = pa.schema(
    [("id_a", pa.string()), ("id_b", pa.string()), ("jaccard", pa.float64()), ("estimate", pa.float64())]
)
NOTHING_KEPT = "interrupted; a run without --db keeps nothing (give --db to resume a long run)"

# A DuckDB run without --db keeps its tables in memory when it makes at most about this many shingle
# rows: no database file to write, sync at each stage's commit and checkpoint at close (Clough, 100
# documents: CPU 0.86 x; the long workload, 2,000 documents of 39 MB, 6.0M word shingles: 3.99 ->
# 3.42 s, peak RSS 985 -> 780 MB); a larger corpus gets a temporary database file, whose compressed
# tables keep a large run's memory and spill bounded. A character shingle starts at every code
# point (rows ~ text bytes), a word shingle at every token (~4 bytes or more with its separator).
SMALL_SHINGLES = 16_000_000


def shingle_estimate(read: Read, settings: Settings) -> int:
    """About how many shingle rows a run makes (by its text bytes): whether its tables stay in memory."""
    return read.text_bytes // BYTES_PER_SHINGLE[settings.shingle_type]
