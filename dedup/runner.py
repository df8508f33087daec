"""The stages of a run, in order, on one engine: a stage that finished earlier with the same
fingerprint is reused; any other runs in its own atomic step together with its checkpoint, and
every later stage runs too (its input changed).

On DuckDB the per-document stages whose memory would grow with the corpus (a DISTINCT over every
shingle occurrence, a 128-column GROUP BY over every document) run on batches of consecutive
doc_ids, each batch in memory, appending to the tables. Spark partitions the work itself.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from .engine import Engine, Statement
from .records import Checkpoints
from .reports import Progress, StageReport
from .sqlfiles import query
from .sqltext import quote_identifier
from .stages import Stage

# The one-line message of Ctrl-C during a run.
STAGES_KEPT = "interrupted; every stage that had finished is kept (run again to resume)"

BATCHED_STAGES = ("shingles", "signatures")
# A batch holds at most this many documents and about this many characters of normalized text
# (about as many shingle occurrences): ~1 GB of DuckDB memory at most.
BATCH_DOCUMENTS = 100_000
BATCH_CHARACTERS = 16_000_000

Compiled = tuple[Stage, Statement]


def run_stages(
    engine: Engine,
    done: Checkpoints,
    stages: list[Compiled],
    fingerprint: str,
    options: Mapping[str, object],
    progress: Progress,
) -> list[StageReport]:
    """Run (or reuse) every stage, marking each finished in `done`; `fingerprint` is that of the
    inputs, chained through each stage's statement. The raw_documents relation is released once
    the documents stage wrote it."""
    reports: list[StageReport] = []
    rerun = False
    for group in _stage_groups(stages, engine.dialect == "duckdb"):
        fingerprints = []
        for _, statement in group:
            fingerprint = statement.fingerprint(fingerprint)
            fingerprints.append(fingerprint)
        if not rerun:
            reused = [done.reuse(s.name, f, statement) for (s, statement), f in zip(group, fingerprints, strict=True)]
            if all(rows is not None for rows in reused):
                for (stage, _), rows in zip(group, reused, strict=True):
                    reports.append(StageReport(stage.name, int(rows or 0), 0.0, reused=True))
                    progress.finish(reports[-1])
                continue
        rerun = True
        with engine.atomic(STAGES_KEPT):
            for stage, _ in group:
                done.start(stage.name)
            seconds = _run_group(engine, group, progress)
            for (stage, _), stage_fingerprint in zip(group, fingerprints, strict=True):
                rows = done.record(stage.name, stage_fingerprint, options)
                reports.append(StageReport(stage.name, rows, seconds[stage.name]))
                progress.finish(reports[-1])
    return reports


def _stage_groups(stages: list[Compiled], batched: bool) -> list[list[Compiled]]:
    """The stages in order, the consecutive batched stages as one group (they run batch by batch)."""
    groups: list[list[Compiled]] = []
    for stage, statement in stages:
        if batched and groups and stage.name in BATCHED_STAGES and groups[-1][-1][0].name in BATCHED_STAGES:
            groups[-1].append((stage, statement))
        else:
            groups.append([(stage, statement)])
    return groups


def _run_group(engine: Engine, group: list[Compiled], progress: Progress) -> dict[str, float]:
    """Run a group's stages on the whole tables, or batch by batch when there are several batches."""
    if len(group) > 1:
        sizes = {"characters": BATCH_CHARACTERS, "documents": BATCH_DOCUMENTS}
        batches = engine.fetch_rows(query("batch_ranges", sizes, engine.dialect))
        if len(batches) > 1:
            return _run_in_batches(engine, group, batches, progress)
    seconds = {}
    for stage, statement in group:
        progress.start(stage.name)
        clock = time.perf_counter()
        engine.create_table(stage.name, statement)
        if stage.name == "documents":  # the skipped inputs beside it; the raw texts are not needed any more
            engine.create_table("skipped", query("skipped", dialect=engine.dialect))
            engine.unregister("raw_documents")
        seconds[stage.name] = time.perf_counter() - clock
    return seconds


def _run_in_batches(
    engine: Engine, group: list[Compiled], batches: list[tuple[int, ...]], progress: Progress
) -> dict[str, float]:
    """Run the group's stages on each batch of documents in the staging schema, which shadows main
    (as `index add` stages new documents), appending each batch's rows to the main tables."""
    dialect = engine.dialect
    seconds = {stage.name: 0.0 for stage, _ in group}
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
