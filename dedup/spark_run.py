"""A run on Apache Spark: the inputs read by Spark, the same stages (dialect spark), stage tables as
Parquet under the work folder, and a rerun reusing every finished stage whose fingerprint matches.

Finished stages are marked by small JSON files in <work>/_stages/, written after the stage's
tables are complete (Parquet writes are not transactional): a run killed mid-stage leaves no
mark, so the next run computes that stage again. A stage's fingerprint chains a digest of the
inputs (computed by Spark over every document), the read options and each stage's Statement
(SQL and parameters), as on DuckDB.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from .choices import Keep
from .engine.spark import SparkEngine, new_session, split_tables
from .errors import Interrupted, UsageError
from .index.clusters import build_clusters
from .pipeline import Progress, RunResult, StageReport, Summary
from .records import input_fingerprint
from .settings import Settings
from .spark_inputs import read_corpus
from .sqlfiles import query
from .stages import compile_stages

STAGES_KEPT = "interrupted; the work folder keeps every stage that had finished"


@dataclass(frozen=True)
class SparkOptions:
    work_dir: str
    master: str | None = None
    conf: dict[str, str] = field(default_factory=dict)
    keep: Keep | None = None  # build the clusters table (survivors by this rule) after the pairs


def execute_spark(
    settings: Settings, options: SparkOptions, session: Any = None, progress: Progress | None = None
) -> RunResult:
    """Run every stage on Spark (a new session from options, or the given one); return the pairs."""
    if settings.strip_html or settings.delimiter is not None:
        raise UsageError("--strip-html and --delimiter are not supported with --engine spark yet")
    own = session is None and _active_session() is None  # a session already running is left running
    if session is None:
        session = new_session(options.master, options.conf)
    try:
        engine = SparkEngine(session, options.work_dir)
        progress = progress or Progress()
        progress.attach(engine)
        return _execute(engine, settings, progress, options.keep)
    except KeyboardInterrupt:
        session.sparkContext.cancelAllJobs()
        raise Interrupted(STAGES_KEPT) from None
    finally:
        if own:
            session.stop()


def _active_session() -> Any:
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        return None
    return SparkSession.getActiveSession()


def _marker(engine: SparkEngine, stage: str) -> str:
    return f"{engine.work_dir}/_stages/{stage}.json"


def _execute(engine: SparkEngine, settings: Settings, progress: Progress, keep: Keep | None) -> RunResult:
    summary = Summary(bands=settings.banding.bands, rows=settings.banding.rows)
    summary.detection_probability = settings.banding.probability(settings.threshold)
    progress.start("read")
    clock = time.perf_counter()
    read_corpus(engine, settings)
    digest = engine.fetch_rows(query("spark_input_digest", dialect="spark"))[0]
    read, loaded, latin1 = int(digest[0]), int(digest[1]), int(digest[2])
    skipped = engine.fetch_arrow(query("spark_skipped", dialect="spark"))
    inputs_digest = hashlib.sha256(json.dumps([str(v) for v in digest]).encode()).hexdigest()
    fingerprint = input_fingerprint(settings.options(), inputs_digest)
    summary.stages.append(StageReport("read", read, time.perf_counter() - clock))
    progress.finish(summary.stages[-1])

    rerun = False
    for stage, statement in compile_stages(settings, engine.dialect):
        fingerprint = statement.fingerprint(fingerprint)
        marker = _marker(engine, stage.name)
        tables = [table for table, _ in split_tables(stage.name, statement.sql)]
        recorded = None if rerun else engine.read_text(marker)
        if recorded is not None and json.loads(recorded)["fingerprint"] == fingerprint:
            if all(engine.has_table(t) for t in tables):
                for table in tables:
                    engine.attach(table)
                rows = int(json.loads(recorded)["rows"])
                summary.stages.append(StageReport(stage.name, rows, 0.0, reused=True))
                progress.finish(summary.stages[-1])
                continue
        rerun = True
        progress.start(stage.name)
        clock = time.perf_counter()
        engine.delete(marker)
        engine.create_table(stage.name, statement)
        rows = int(engine.session.table(stage.name).count())
        engine.write_text(marker, json.dumps({"stage": stage.name, "fingerprint": fingerprint, "rows": rows}))
        summary.stages.append(StageReport(stage.name, rows, time.perf_counter() - clock))
        progress.finish(summary.stages[-1])

    summary.account(loaded, skipped.num_rows, latin1)
    pairs = engine.fetch_arrow(query("export_pairs", dialect="spark"))
    dropped = None
    if keep is not None:
        # the connected-components SQL of sql/queries/cluster_*.sql, iterated until no label changes;
        # the clusters table (Parquet under the work folder) has the columns of DuckDB's
        progress.start("clusters")
        clock = time.perf_counter()
        build_clusters(engine, keep)
        dropped = int(engine.fetch_rows(query("clusters_dropped_count", dialect="spark"))[0][0])
        summary.stages.append(StageReport("clusters", dropped, time.perf_counter() - clock))
        progress.finish(summary.stages[-1])
    return RunResult(pairs=pairs, summary=summary, skipped=skipped, dropped=dropped)
