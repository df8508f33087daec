"""A run's plan executed on one engine, stage by stage: a stage that finished earlier with the same
fingerprint is reused; any other runs in its own atomic step together with its checkpoint, and
every later stage runs too (its input changed). A batched group (the stages' `batch:` headers, on
DuckDB) runs on batches of documents or of candidates, each batch in memory, appending to the
tables.
"""

from __future__ import annotations

import time

from .engines import Engine
from .records import Checkpoints
from .reports import Progress, StageReport
from .stages import Plan, Step

# The one-line message of Ctrl-C during a run.
STAGES_KEPT = "interrupted; every stage that had finished is kept (run again to resume)"


def run_stages(
    engine: Engine, done: Checkpoints, plan: Plan, fingerprint: str, progress: Progress
) -> list[StageReport]:
    """Run (or reuse) every stage, marking each finished in `done`; `fingerprint` is that of the
    inputs, chained through each stage's statement. The raw_documents relation is released once
    the documents stage wrote it."""
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
                    reports.append(StageReport(stage.name, int(rows or 0), 0.0, reused=True))
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
        reports.append(StageReport(stage.name, rows, seconds[stage.name]))
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
    several batches, on each batch of the `batched_on` table in the staging schema, which shadows
    main (as `index add` stages new documents), appending each batch's rows to the main tables:
    each batch is its own atomic step, followed by a checkpoint."""
    staged = batched_on if len(batches) > 1 else None  # the table the batches are cut from
    seconds = {stage.name: 0.0 for stage, _ in group}
    if not staged:
        _run_batch(engine, plan, group, None, seconds, progress)
        return seconds
    engine.execute(plan.query("staging_create"))
    engine.execute(plan.query("staging_enter"))
    try:
        for number, (first, last) in enumerate(batches):
            with engine.atomic(STAGES_KEPT):
                engine.create_table(staged, plan.query("batch", staged).with_values(first=first, last=last))
                _run_batch(engine, plan, group, "staging_keep" if number == 0 else "staging_append", seconds, progress)
                for name in (staged, *seconds):
                    engine.execute(plan.query("staging_drop", name))
            engine.checkpoint()  # the dropped staging tables' space is free for the next batch
    finally:
        engine.execute(plan.query("staging_leave"))
    return seconds


def _run_batch(
    engine: Engine,
    plan: Plan,
    group: tuple[Step, ...],
    append: str | None,
    seconds: dict[str, float],
    progress: Progress,
) -> None:
    """The group's stages on the whole tables, or on one batch staged (`append`: the query that puts
    its rows into the main tables), adding each stage's seconds."""
    for stage, statement in group:
        progress.start(stage.name)
        clock = time.perf_counter()
        engine.create_table(stage.name, statement)
        if append:
            engine.execute(plan.query(append, stage.name))
        if stage.reads_inputs:  # the skipped inputs beside it; the raw texts are not needed any more
            engine.create_table("skipped", plan.query("skipped"))
            engine.unregister("raw_documents")
        seconds[stage.name] += time.perf_counter() - clock
