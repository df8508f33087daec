"""Stages run on an engine, by one loop (run_steps): a run's plan stage by stage (run_stages), the
stages of `dedup add` on the added documents in the staging schema (run_staged), and a query's
stages in a scratch database.

A run: a stage that finished earlier with the same fingerprint is reused; any other runs in its
own atomic step together with its checkpoint, and every later stage runs too (its input changed).
A batched group (the stages' `batch:` headers, on DuckDB) runs on batches of documents or of
candidates, each batch's tables temporary (in memory, never written to the database file),
appending to the main tables what the database's layout keeps of them (dedup.stages.Layout: a
lean database keeps no shingles and no MinHash values; a statement that reads them gets them
made again for the documents it reads, `derived`). A lean run's batches of documents hold each
distinct normalized text's first document alone, and give its copies that document's rows
(Plan.distinct_texts).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress

from .engines import Engine
from .errors import DedupError, EngineError
from .records import Checkpoints, table_rows
from .reports import Progress, StageReport
from .settings import Sketch
from .sqlfiles import query_paths, quote_identifier, read_sql
from .stages import FULL, Derivation, Layout, Plan, Stage, Step, between_table, layout_of, lean_layout, not_kept
from .statement import Statement

# What a lean run holds of a group's tables: their names and the columns held (None: all; Plan.held).
Held = Mapping[str, tuple[str, ...] | None]

# The one-line message of Ctrl-C during a run.
STAGES_KEPT = "interrupted; every stage that had finished is kept (run again to resume)"


def run_stages(
    engine: Engine, done: Checkpoints, plan: Plan, fingerprint: str, progress: Progress
) -> list[StageReport]:
    """Run (or reuse) every stage, marking each finished in `done`; `fingerprint` is that of the
    inputs, chained through each stage's statement."""
    reports: list[StageReport] = []
    rerun = False
    if plan.layout.lean:  # where the run holds what its database does not keep (_hold)
        engine.execute(engine.sql.query("retained_attach"))
    for number, (group, batched_on) in enumerate(zip(plan.groups, plan.batched_on, strict=True)):
        fingerprints = []
        for _, statement in group:
            fingerprint = statement.fingerprint(fingerprint)
            fingerprints.append(fingerprint)
        if not rerun:
            reused = [
                done.reuse(s.name, f, statement, kept=plan.layout.kept(s) != ())
                for (s, statement), f in zip(group, fingerprints, strict=True)
            ]
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
            seconds, counted, _ = _run_group(engine, plan, number, batches, progress)
            with engine.atomic(STAGES_KEPT):
                reports += _record(done, plan, group, fingerprints, seconds, counted, progress)
        else:
            with engine.atomic(STAGES_KEPT):
                for stage, _ in group:
                    done.start(stage.name)
                seconds, counted, held = _run_group(engine, plan, number, batches, progress)
                reports += _record(done, plan, group, fingerprints, seconds, counted, progress)
            _hold(engine, held, batch=0)
            _gather(engine, held, batches=1)
        if plan.layout.lean:
            _release(engine, plan, number + 1)
    return reports


def _release(engine: Engine, plan: Plan, next_group: int) -> None:
    """Release what the run holds that no later stage and no query after the stages reads
    (retained_release.sql, Plan.read_beyond_kept): the shingles once the verified stage has read
    them (unless --audit reads them after the stages), those before --max-shingle-df's cap once the
    shingles stage has kept those under it."""
    stages = {stage.name: stage for group in plan.groups for stage, _ in group}
    for (table,) in engine.fetch_rows(engine.sql.query("retained_tables")):
        if plan.read_beyond_kept(stages[table], next_group) == ():
            engine.execute(engine.sql.query("retained_release", table=quote_identifier(table)))


def _record(
    done: Checkpoints,
    plan: Plan,
    group: tuple[Step, ...],
    fingerprints: list[str],
    seconds: dict[str, float],
    counted: dict[str, int],
    progress: Progress,
) -> list[StageReport]:
    """Mark the group's stages finished (inside an atomic step); their reports. counted: the rows
    of the tables the layout does not keep, counted while they existed."""
    reports = []
    for (stage, _), stage_fingerprint in zip(group, fingerprints, strict=True):
        rows = done.record(stage.name, stage_fingerprint, plan.options, rows=counted.get(stage.name))
        reports.append(StageReport(stage.name, rows, seconds[stage.name], counts=stage.counts))
        progress.finish(reports[-1])
    return reports


def _run_group(
    engine: Engine,
    plan: Plan,
    number: int,
    batches: list[tuple[int, ...]],
    progress: Progress,
) -> tuple[dict[str, float], dict[str, int], Held]:
    """Run the group's stages on the whole tables (inside the caller's atomic step) or, given
    several batches, on each batch of the `batched_on` table as temporary tables, which DuckDB
    reads before the database's tables of the same names, appending each batch's rows to the
    database's tables: each batch is its own atomic step, followed by a checkpoint. (A batch's
    tables made in a schema of the database file were written to it, copied and dropped: 3.45 s
    instead of 2.29 s for a batch of 9.6M shingle rows, benchmarks/results/results.md.) A group
    with a table that the layout does not keep whole runs as temporary tables too, in one pass
    when it has one batch, and only what is kept is appended; what is not kept the run holds until
    it ends (_hold) if a later stage or query reads it (Plan.held), read by them rather than made
    again. The seconds of each stage, the rows of each table not kept whole, and what the caller
    holds once its step commits."""

    def skipped(stage: Stage) -> None:
        if stage.reads_inputs:  # the inputs that were not documents, beside them
            engine.create_table("skipped", plan.query("skipped"))

    layout, group, batched_on = plan.layout, plan.groups[number], plan.batched_on[number]
    once = plan.distinct_texts and batched_on == "documents"  # each distinct text once (Plan.distinct_texts)
    texts = batched_on in plan.between_tables()  # the candidates between texts (Plan.verify_texts)
    read_between = plan.reads_between(number)  # the rows stored between texts, read under their tables' names
    staged = batched_on if len(batches) > 1 or once or texts else None  # the table the batches are cut from
    if texts and not batches:  # no candidate between two texts: an empty batch, not the view's copies
        batches = [(1, 0)]
    dropped = [stage.name for stage, _ in group if layout.kept(stage) == ()]
    retained = plan.held(number)
    between = [stage.name for stage, _ in group if layout.stored(stage) != stage.name]
    if not staged and all(layout.whole(stage) for stage, _ in group):
        for stage, _ in group:
            if stage.between:  # what a lean run stored between groups of copies gives way to the table
                engine.drop_table(between_table(stage.name))
                engine.drop_table(stage.name)
        return run_steps(engine, group, progress, after=skipped, layout=layout), {}, {}
    seconds = {stage.name: 0.0 for stage, _ in group}
    counted = {name: 0 for name in dropped}  # their rows, counted while they exist whole
    [(name,)] = engine.fetch_rows(engine.sql.query("database_name"))
    database = quote_identifier(name)
    if once:
        engine.execute(engine.sql.query("text_copies"))

    def one_pass(number: int, batch: Statement | None) -> None:
        if number == 0:  # a table an earlier run kept whole must not stand beside the lean ones
            for table in (*dropped, *between):
                engine.drop_table(table)
        if batch is not None and staged is not None:
            engine.create_table(staged, batch, temporary=True)
        for table, stored in read_between.items():
            names = {"table": quote_identifier(table), "stored": quote_identifier(stored), "database": database}
            engine.execute(engine.sql.query("between_read", None, **names))
        ran = run_steps(engine, group, progress, after=skipped, temporary=True, layout=layout)
        for table in read_between:
            engine.execute(engine.sql.query("between_read_drop", table=quote_identifier(table)))
        for stage, _ in group:
            clock = time.perf_counter()
            kept = layout.kept(stage)
            table = quote_identifier(stage.name)
            if once and kept == ():  # held for the first documents alone, counted for every copy
                [(rows,)] = engine.fetch_rows(engine.sql.query("copies_rows", table=table))
                counted[stage.name] += rows
            elif once:  # the copies' rows are their first document's
                engine.execute(engine.sql.query("copies_complete", table=table))
            if stage.name in between:
                _store_between(engine, stage.name, layout.stored(stage), database, first=number == 0)
            elif kept == ():
                counted[stage.name] += table_rows(engine, stage.name)
            else:
                append = "batch_keep" if number == 0 else "batch_append"
                columns = kept_columns(kept)
                engine.execute(engine.sql.query(append, table=table, database=database, columns=columns))
            seconds[stage.name] += ran[stage.name] + time.perf_counter() - clock
        for table in (*([staged] if batch is not None and staged else []), *ran):
            if table not in retained:  # those are held once the step commits (_hold)
                engine.execute(engine.sql.query("batch_drop", table=quote_identifier(table)))

    def listed() -> dict[str, int]:  # the rows stored between texts for every member, as the views list them
        return {**counted, **{name: table_rows(engine, name) for name in between}}

    if len(batches) <= 1:  # one pass, inside the caller's atomic step: it holds them once that commits
        one_pass(
            0,
            plan.query("batch", staged).with_values(first=batches[0][0], last=batches[0][1])
            if staged and batches
            else None,
        )
        return seconds, listed(), retained
    for number, (first, last) in enumerate(batches):
        with engine.atomic(STAGES_KEPT):
            one_pass(number, plan.query("batch", staged).with_values(first=first, last=last))
        engine.checkpoint()  # the appended rows in the file, the batch's memory free for the next one
        _hold(engine, retained, batch=number)
    _gather(engine, retained, batches=len(batches))
    return seconds, listed(), {}


def _store_between(engine: Engine, table: str, stored: str, database: str, first: bool) -> None:
    """Store a batch of a pair table's rows between groups of exact copies in `stored`
    (dedup.stages.Layout.stored); after the first, the view of the table's name over it."""
    name, kept = quote_identifier(table), quote_identifier(stored)
    rows = between_rows(engine, f"temp.main.{name}", f"{database}.main.copies")
    engine.execute(
        engine.sql.query("between_keep" if first else "between_append", None, stored=kept, database=database, **rows)
    )
    if first:
        engine.execute(between_view(engine, table, database))


def between_view(engine: Engine, table: str, database: str) -> Statement:
    """The view of a lean database's pair table `table`: the rows stored between distinct texts, for
    every member of their groups, and the pairs within each group (sql/queries/staging/between_view_*.sql)."""
    return engine.sql.query(
        f"between_view_{table}",
        database=database,
        copy_pairs=engine.sql.fragment("copy_pairs"),
        across_groups=engine.sql.fragment("across_groups"),
    )


def between_rows(engine: Engine, rows: str, groups: str) -> dict[str, str]:
    """The fragments of a statement storing the rows of the pair table `rows` between the groups of
    exact copies of the copies table `groups` (sql/fragments/between_rows.sql): qualified names
    from dedup's own list."""
    return {
        "rows": rows,
        "groups": groups,
        "between_rows": engine.sql.fragment("between_rows", rows=rows, groups=groups),
    }


def keep_lean(engine: Engine, done: Checkpoints, plan: Plan) -> None:
    """Keep of a finished run's stage tables what the lean layout keeps (dedup.stages.Layout), on an
    engine whose stages made them whole (EngineKind.lean_after_run: a Spark work folder): a pair
    table's rows between groups of exact copies in `<table>_between`, the columns kept of a table
    whose header names them (the signatures' shingle counts), and nothing of the shingles. The
    stages cut are forgotten first: a rerun makes them again, whole, from the documents (an
    interrupted cut leaves tables that the rerun replaces)."""
    layout = lean_layout([step for group in plan.groups for step in group])
    cut = [stage for group in plan.groups for stage, _ in group if not layout.whole(stage)]
    done.forget([stage.name for stage in cut])
    for stage in cut:
        kept, stored = layout.kept(stage), layout.stored(stage)
        if stored != stage.name:
            rows = between_rows(engine, stage.name, "copies")
            engine.create_table(stored, engine.sql.query("work_between", None, stored=stored, **rows))
        elif kept:
            stored = f"{stage.name}_kept"
            columns = ", ".join(kept)  # a stage header's plain names (Spark reads "x" as a string)
            engine.create_table(stored, engine.sql.query("work_kept", table=stage.name, stored=stored, columns=columns))
        engine.drop_table(stage.name)
        if kept:
            engine.rename_table(stored, stage.name)


def kept_columns(kept: tuple[str, ...] | None) -> str:
    """The columns of a table that the layout keeps, as an append selects them: `*` (all of them)
    or the quoted names."""
    return "*" if kept is None else ", ".join(map(quote_identifier, kept))


def _hold(engine: Engine, held: Held, batch: int) -> None:
    """Hold the batch's temporary tables that the database does not keep (Plan.held) until the run
    ends or no later stage and no query reads them (_release), after the step that appended the
    batch to the database commits (one transaction writes one database): the columns held of a
    table held in part (the shingles without h) copied into the run's compressed in-memory database
    (retained_attach.sql), compressed after each batch; a table held whole (the signatures) kept
    under its batch's name (retained_rename.sql) until _gather."""
    for table, columns in held.items():
        name = quote_identifier(table)
        if columns is None:
            engine.execute(engine.sql.query("retained_rename", table=name, batch=held_batch(table, batch)))
            continue
        query = "retained_start" if batch == 0 else "retained_append"
        engine.execute(engine.sql.query(query, table=name, columns=kept_columns(columns)))
        engine.execute(engine.sql.query("batch_drop", table=name))
    if any(columns is not None for columns in held.values()):
        engine.execute(engine.sql.query("retained_checkpoint"))


def held_batch(table: str, batch: int) -> str:
    """The quoted name under which the run holds batch number `batch` of a table it holds whole
    until _gather: the stage's name, a space and the number (no stage's name has a space)."""
    return quote_identifier(f"{table} {batch}")


def _gather(engine: Engine, held: Held, batches: int) -> None:
    """Once a group's last batch is held, each table held whole gathered from its `batches` tables
    into the run's compressed database in one statement (retained_gather.sql), and they dropped,
    then compressed (1M documents' signatures: 548 MB instead of 624, in 0.9 s); then what the run
    holds read by the stages' names before the database's tables (retained_view.sql): the later
    stages' statements are unchanged."""
    for table, columns in held.items():
        if columns is None:
            parts = [held_batch(table, number) for number in range(batches)]
            union = " union all ".join(f"select * from temp.main.{part}" for part in parts)
            engine.execute(engine.sql.query("retained_gather", table=quote_identifier(table), batches=union))
            for part in parts:
                engine.execute(engine.sql.query("batch_drop", table=part))
    if any(columns is None for columns in held.values()):
        engine.execute(engine.sql.query("retained_checkpoint"))
    for table in held:
        engine.execute(engine.sql.query("retained_view", table=quote_identifier(table)))


def run_steps(
    engine: Engine,
    steps: Iterable[Step],
    progress: Progress | None = None,
    after: Callable[[Stage], None] | None = None,
    *,
    temporary: bool = False,
    layout: Layout = FULL,
) -> dict[str, float]:
    """Create each stage's table in order, the one loop that runs stages (a run's, a batch's, the
    added documents' of `dedup add`, a query's in its scratch database). The inputs
    (raw_documents, registered by the caller) are released after the stage that reads them;
    after(stage) runs once the stage's table exists; temporary: the tables are the connection's
    temporary tables (a batch's); layout: what the database keeps, a stage reading what it does
    not keep getting it made for the documents it reads (`derived`). The seconds of each stage."""
    seconds: dict[str, float] = {}
    for stage, statement in steps:
        if progress is not None:
            progress.start(stage.name)
        clock = time.perf_counter()
        with derived(engine, layout.derivation(stage.header["reads"], made=seconds)):
            engine.create_table(stage.name, statement, temporary=temporary)
        if stage.reads_inputs:  # the raw texts are not needed any more
            engine.unregister("raw_documents")
        if after is not None:
            after(stage)
        seconds[stage.name] = time.perf_counter() - clock
    return seconds


@contextmanager
def derived(engine: Engine, derivation: Derivation | None, documents: Statement | None = None) -> Iterator[None]:
    """Inside, the tables of the derivation (what a statement reads that the database does not
    keep) exist as temporary tables, made by their stage statements for the documents of its pair
    table, or for those `documents` selects (a query of doc_id), or for every document; dropped
    after. The stage statements read `documents`: the chosen ones are a temporary table of that
    name while they run, dropped before the block, whose statements read the database's."""
    if derivation is not None:  # what the run holds is read as it is, and not made for it
        retained = [stage.name for stage, _ in derivation.steps if is_temporary(engine, stage.name)]
        derivation = derivation.without(retained)
    if derivation is None:
        yield
        return
    if documents is None and derivation.pairs_of is not None:
        documents = engine.sql.query("derived_pair_documents", pairs=quote_identifier(derivation.pairs_of))
    source = derivation.steps[0][0].batched_on  # the table their statements read documents from
    made: list[str] = []

    def drop(table: str) -> None:
        engine.execute(engine.sql.query("batch_drop", table=quote_identifier(table)))
        made.remove(table)

    try:
        if documents is not None and source is not None:
            engine.create_table("derived_doc_ids", documents, temporary=True)
            made.append("derived_doc_ids")
            engine.create_table(source, engine.sql.query("derived_documents"), temporary=True)
            made.append(source)
        for stage, statement in derivation.steps:
            engine.create_table(stage.name, statement, temporary=True)
            made.append(stage.name)
        for table in (source, "derived_doc_ids"):
            if table in made:
                drop(table)
        yield
    finally:
        for table in reversed(made):
            try:
                drop(table)
            except DedupError:
                pass  # the connection is closing after a failure: its temporary tables go with it


def is_lean(engine: Engine) -> bool:
    """Whether the database keeps the lean layout (dedup.stages.Layout): it has none of the tables the
    layout does not keep, the shingles (a database made with --keep-all-tables, or by a dedup before
    the lean layout, keeps every table)."""
    return not any(engine.has_table(table) for table in not_kept())


@contextmanager
def recomputed(
    engine: Engine, sketch: Sketch, queries: Sequence[str], doc_ids: Sequence[int] | None = None
) -> Iterator[None]:
    """Inside, what the named queries read that a lean index does not keep exists (`derived`), made
    by the stage statements of the index's `sketch` for the documents `doc_ids`, or else those of the
    pair table the queries read, or else every document; nothing changes on a full database."""
    if not is_lean(engine):
        yield
        return
    dialect = engine.dialect
    reads = ", ".join(read_sql(query_paths()[name], dialect).header.get("reads", "") for name in queries)
    listed = None if doc_ids is None else engine.sql.query("derived_listed_doc_ids", {"doc_ids": list(doc_ids)})
    with derived(engine, layout_of(sketch, True, dialect).derivation(reads), listed):
        yield


def is_temporary(engine: Engine, table: str) -> bool:
    """Whether the connection has a temporary table or view of this name (what the run holds until
    it ends: retained_view.sql)."""
    return bool(engine.fetch_rows(engine.sql.query("temporary_table_exists", {"name": table}))[0][0])


@contextmanager
def staging(engine: Engine) -> Iterator[None]:
    """Inside, tables are created in the staging schema and read from it first, then from main
    (sql/queries/staging/staging_enter.sql): `dedup add` runs its stages there, on the added
    documents and their pairs, in one atomic step with the appends that its pair stages read."""
    engine.execute(engine.sql.query("staging_create"))
    engine.execute(engine.sql.query("staging_enter"))
    try:
        yield
    except BaseException:
        # a failed statement aborted the transaction: leaving the schema fails too ("transaction is
        # aborted") and hid the failure (a full disk); the rollback that follows undoes the staging
        with suppress(EngineError):
            engine.execute(engine.sql.query("staging_leave"))
        raise
    engine.execute(engine.sql.query("staging_leave"))


def run_staged(
    engine: Engine,
    steps: Sequence[Step],
    progress: Progress | None = None,
    after: Callable[[Stage], None] | None = None,
    layout: Layout = FULL,
) -> dict[str, float]:
    """run_steps inside `staging`, then each staged table appended to the main table of its name
    (what the index's `layout` keeps of it) and dropped (`dedup add`). The seconds of each stage,
    its append included."""
    seconds = run_steps(engine, steps, progress, after, layout=layout)
    for stage, _ in steps:
        clock = time.perf_counter()
        kept = layout.kept(stage)
        table = quote_identifier(stage.name)
        if layout.stored(stage) != stage.name:
            stored = quote_identifier(layout.stored(stage))
            rows = between_rows(engine, f"staging.{table}", "main.copies")
            engine.execute(engine.sql.query("staging_append_between", None, stored=stored, **rows))
        elif kept != ():
            engine.execute(engine.sql.query("staging_append", table=table, columns=kept_columns(kept)))
        seconds[stage.name] += time.perf_counter() - clock
    for name in seconds:
        engine.execute(engine.sql.query("staging_drop", table=quote_identifier(name)))
    return seconds
