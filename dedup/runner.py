"""Stages run on an engine, by one loop (run_steps): a run's plan stage by stage (run_stages), the
stages of `dedup add` on the added documents in the staging schema (run_staged), and a query's
stages in a scratch database.

A run: a stage that finished earlier with the same fingerprint is reused; any other runs in its
own atomic step together with its checkpoint, and every later stage runs too (its input changed).
A batched group (the stages' `batch:` headers, on DuckDB) runs on batches of documents or of
candidates, each batch's tables temporary (in memory, never written to the database file),
appending to the main tables.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

from .engines import Engine
from .records import Checkpoints
from .reports import Progress, StageReport
from .sqlfiles import query, quote_identifier
from .stages import Plan, Stage, Step

# The one-line message of Ctrl-C during a run.
STAGES_KEPT = "interrupted; every stage that had finished is kept (run again to resume)"


def run_stages(
    engine: Engine, done: Checkpoints, plan: Plan, fingerprint: str, progress: Progress
) -> list[StageReport]:
    """Run (or reuse) every stage, marking each finished in `done`; `fingerprint` is that of the
    inputs, chained through each stage's statement."""
    reports: list[StageReport] = []
    rerun = False
    for number, (group, batched_on) in enumerate(zip(plan.groups, plan.batched_on, strict=True)):
        fingerprints = []
        for _, statement in group:
            fingerprint = statement.fingerprint(fingerprint)
            fingerprints.append(fingerprint)
        if not rerun:
            reused = [done.reuse(s.name, f, statement) for (s, statement), f in zip(group, fingerprints, strict=True)]
            if all(rows is not None for rows in reused):
                for (stage, _), rows in zip(group, reused, strict=True):
                    reports.append(StageReport(stage.name, int(rows or 0), 0.0, reused=True, counts=stage.counts))
                    progress.finish(reports[-1])
                continue
        rerun = True
        batches = engine.fetch_rows(plan.query("batch_ranges", batched_on)) if batched_on else []
        if len(batches) > 1:
            # Each batch commits on its own (its staging tables freed for the next one; in one
            # transaction a 10M-document corpus wrote its shingles twice, 40 GB before it stopped):
            # this and every later stage are unmarked first, and marked finished after the last batch.
            with engine.atomic(STAGES_KEPT):
                done.forget([stage.name for later in plan.groups[number:] for stage, _ in later])
            seconds = _run_group(engine, plan, group, batched_on, batches, progress)
            with engine.atomic(STAGES_KEPT):
                reports += _record(done, plan, group, fingerprints, seconds, progress)
            continue
        with engine.atomic(STAGES_KEPT):
            for stage, _ in group:
                done.start(stage.name)
            seconds = _run_group(engine, plan, group, batched_on, batches, progress)
            reports += _record(done, plan, group, fingerprints, seconds, progress)
    return reports


def _record(
    done: Checkpoints,
    plan: Plan,
    group: tuple[Step, ...],
    fingerprints: list[str],
    seconds: dict[str, float],
    progress: Progress,
) -> list[StageReport]:
    """Mark the group's stages finished (inside an atomic step); their reports."""
    reports = []
    for (stage, _), stage_fingerprint in zip(group, fingerprints, strict=True):
        rows = done.record(stage.name, stage_fingerprint, plan.options)
        reports.append(StageReport(stage.name, rows, seconds[stage.name], counts=stage.counts))
        progress.finish(reports[-1])
    return reports


def _run_group(
    engine: Engine,
    plan: Plan,
    group: tuple[Step, ...],
    batched_on: str | None,
    batches: list[tuple[int, ...]],
    progress: Progress,
) -> dict[str, float]:
    """Run the group's stages on the whole tables (inside the caller's atomic step) or, given
    several batches, on each batch of the `batched_on` table as temporary tables, which DuckDB
    reads before the database's tables of the same names, appending each batch's rows to the
    database's tables: each batch is its own atomic step, followed by a checkpoint. (A batch's
    tables made in a schema of the database file were written to it, copied and dropped: 3.45 s
    instead of 2.29 s for a batch of 9.6M shingle rows, benchmarks/results/results.md.)"""

    def skipped(stage: Stage) -> None:
        if stage.reads_inputs:  # the inputs that were not documents, beside them
            engine.create_table("skipped", plan.query("skipped"))

    staged = batched_on if len(batches) > 1 else None  # the table the batches are cut from
    if not staged:
        return run_steps(engine, group, progress, after=skipped)
    seconds = {stage.name: 0.0 for stage, _ in group}
    dialect = engine.dialect
    [(name,)] = engine.fetch_rows(query("database_name", dialect=dialect))
    database = quote_identifier(name)
    for number, (first, last) in enumerate(batches):
        with engine.atomic(STAGES_KEPT):
            batch = plan.query("batch", staged).with_values(first=first, last=last)
            engine.create_table(staged, batch, temporary=True)
            ran = run_steps(engine, group, progress, after=skipped, temporary=True)
            for stage, _ in group:
                clock = time.perf_counter()
                append = "batch_keep" if number == 0 else "batch_append"
                table = quote_identifier(stage.name)
                engine.execute(query(append, dialect=dialect, table=table, database=database))
                seconds[stage.name] += ran[stage.name] + time.perf_counter() - clock
            for table in (staged, *ran):
                engine.execute(query("batch_drop", dialect=dialect, table=quote_identifier(table)))
        engine.checkpoint()  # the appended rows in the file, the batch's memory free for the next one
    return seconds


def run_steps(
    engine: Engine,
    steps: Iterable[Step],
    progress: Progress | None = None,
    after: Callable[[Stage], None] | None = None,
    *,
    temporary: bool = False,
) -> dict[str, float]:
    """Create each stage's table in order, the one loop that runs stages (a run's, a batch's, the
    added documents' of `dedup add`, a query's in its scratch database). The inputs
    (raw_documents, registered by the caller) are released after the stage that reads them;
    after(stage) runs once the stage's table exists; temporary: the tables are the connection's
    temporary tables (a batch's). The seconds of each stage."""
    seconds = {}
    for stage, statement in steps:
        if progress is not None:
            progress.start(stage.name)
        clock = time.perf_counter()
        engine.create_table(stage.name, statement, temporary=temporary)
        if stage.reads_inputs:  # the raw texts are not needed any more
            engine.unregister("raw_documents")
        if after is not None:
            after(stage)
        seconds[stage.name] = time.perf_counter() - clock
    return seconds


@contextmanager
def staging(engine: Engine) -> Iterator[None]:
    """Inside, tables are created in the staging schema and read from it first, then from main
    (sql/queries/staging/staging_enter.sql): `dedup add` runs its stages there, on the added
    documents and their pairs, in one atomic step with the appends that its pair stages read."""
    engine.execute(query("staging_create", dialect=engine.dialect))
    engine.execute(query("staging_enter", dialect=engine.dialect))
    try:
        yield
    finally:
        engine.execute(query("staging_leave", dialect=engine.dialect))


def run_staged(
    engine: Engine,
    steps: Sequence[Step],
    progress: Progress | None = None,
    after: Callable[[Stage], None] | None = None,
) -> dict[str, float]:
    """run_steps inside `staging`, then each staged table appended to the main table of its name
    and dropped (`dedup add`). A pair table that names its documents by id gets them in id order
    (an added document is numbered after the indexed ones, whatever its id). The seconds of each
    stage, its append included."""
    seconds = run_steps(engine, steps, progress, after)
    dialect = engine.dialect
    for stage, _ in steps:
        clock = time.perf_counter()
        table = quote_identifier(stage.name)
        append = "staging_append_pairs" if stage.lists_ids else "staging_append"
        engine.execute(query(append, dialect=dialect, table=table))
        seconds[stage.name] += time.perf_counter() - clock
    for name in seconds:
        engine.execute(query("staging_drop", dialect=dialect, table=quote_identifier(name)))
    return seconds
