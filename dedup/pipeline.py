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

from .choices import SHINGLINGS, Keep, Method, PairsListed, Resolve
from .disk import DiskUse, Watch, check_room
from .engines import Engine, engine_kind, run_engine, temporary_folder
from .errors import EngineError, Interrupted
from .index import clusters
from .index.export import needs_clusters
from .inputs import open_inputs
from .output import STREAM_ROWS, Counted
from .records import checkpoints, input_fingerprint
from .reports import MemoryUse, Progress, RunResult, StageReport, Summary, peak_memory
from .runner import STAGES_KEPT, keep_lean, run_stages
from .settings import EngineOptions, Reading, Settings, Sketch
from .stages import compile_run
from .wording import counted

__all__ = ["execute", "Progress", "RunResult", "StageReport", "Summary"]


def clusters_rule(settings: Settings) -> clusters.Rule | None:
    """The rule a run builds its clusters by (--keep-by if given; --keep, else first; --resolve,
    else verified), or None
    when it builds none: on
    DuckDB with every database it keeps (--db, or the temporary one of --write-deduplicated) and
    every export; on Spark, where they are a table under the work folder, only when a rule is given
    or an export needs them."""
    outputs, keep_by = settings.outputs, settings.reading.keep_by
    if engine_kind(settings.engine_options.engine).keeps_clusters:
        built = (
            settings.engine_options.db is not None or outputs.write_deduplicated is not None or bool(outputs.exports)
        )
    else:
        given = outputs.keep is not None or outputs.resolve is not None or keep_by is not None
        built = given or any(needs_clusters(what) for what, _ in outputs.exports)
    rule = clusters.Rule(outputs.keep or Keep.first, outputs.resolve or Resolve.verified, keep_by)
    return rule if built else None


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
    stay in the database --db names, if given (a temporary database when only the deduplicated input needs one),
    with the clusters (`clusters_rule`), the deduplicated input and the exports the settings ask
    for. `session`: a SparkSession to run on (engine spark).

    on_open(engine) is called with the open engine (the CLI uses it to interrupt on Ctrl-C).
    pairs_to(reader): the pairs streamed to it in batches, once the run is recorded, instead of
    returned as a table (result.pairs is then None): a file or stdout of any size in bounded memory.
    outputs.pairs: which pairs are listed (returned or streamed): all, between-groups (not those of
    exact copies), none (an empty table, nothing streamed); the pairs table holds them all.
    """
    sketch, run_on, outputs = settings.sketch, settings.engine_options, settings.outputs
    if outputs.write_deduplicated is not None and run_on.db is None:  # its clusters need a database
        with temporary_folder(run_on.temp_dir) as folder:
            kept = settings.replace(db=Path(folder) / "run.duckdb")
            try:
                return execute(kept, progress, on_open, documents, session=session, pairs_to=pairs_to)
            except Interrupted:  # the temporary database goes with its folder: nothing is kept
                raise Interrupted(NOTHING_KEPT) from None
    listed, rule, exports = outputs.pairs, clusters_rule(settings), outputs.exports
    progress = progress or Progress()
    started = datetime.now(UTC)
    inputs = open_inputs(
        settings.reading,
        run_on,
        progress,
        documents,
        copy_to=outputs.write_deduplicated,
        replace=outputs.replace_documents,
    )
    disk = watch_disk(run_on)
    try:
        inputs.read()  # before the database opens, where dedup reads them: their size chooses it
        text_bytes = inputs.text_bytes  # (None: the engine reads them)
        disk.watch(*inputs.own_files())  # the spool, wherever it went (written whole by now)
        small = is_small(text_bytes, run_on, sketch)
        resumed = run_on.db is not None and run_on.db.exists()  # its database holds what it made
        if text_bytes is not None and not small and not resumed:
            check_room(database_folder(run_on), text_bytes, inputs.documents_read or 0, sketch.banding.bands)
        kind = engine_kind(run_on.engine)
        lean = kind.lean and not run_on.keep_all_tables  # dedup.stages.Layout
        after: tuple[str, ...] = ()
        if outputs.audit is not None:  # imported only then, as the audit itself is (8 ms at start-up)
            from .index.audit import WORK as after
        plan = compile_run(
            sketch,
            settings.options(),
            run_on.duckdb_memory_bytes,
            run_on.engine,
            lean and not kind.lean_after_run,
            after,
        )
        summary = Summary(
            bands=sketch.banding.bands,
            rows=sketch.banding.rows,
            detection_probability=sketch.detection_probability,
        )
        with run_engine(run_on, session, small) as engine:
            if on_open is not None:
                on_open(engine)
            progress.attach(engine)
            limit = engine.memory_limit()
            own = engine.own_files()
            disk.watch(*own)
            loaded = inputs.load(engine, plan)
            summary.stages.append(StageReport("read", loaded.read, time.perf_counter() - inputs.started))
            progress.finish(summary.stages[-1])
            done = checkpoints(engine, plan.options, started, inputs.files_read)
            try:
                fingerprint = input_fingerprint(plan.options, loaded.digest)  # the same rule on every engine
                summary.stages += run_stages(engine, done, plan, fingerprint, progress)
            finally:
                engine.unregister("raw_documents")
                engine.unregister("raw_skipped")
            summary.account(loaded.loaded, loaded.skipped.num_rows, loaded.latin1)
            copies = engine.fetch_rows(plan.query("exact_copies"))[0]
            summary.copy_groups, summary.copies, summary.distinct_texts, summary.copy_pairs = copies
            notes = few_words_note(engine, sketch, summary) + keep_by_note(engine, settings.reading)
            summary.notes = loaded.notes + notes + copies_note(outputs.pairs, summary)
            if sketch.method == Method.lsh:  # free: one pass over the verified candidates
                summary.expected_missed = expected_missed(engine, sketch)
            seconds = {s.name: round(s.seconds, 4) for s in summary.stages}
            table = None
            if pairs_to is None and listed == PairsListed.none:
                table = PAIRS_SCHEMA.empty_table()
            elif pairs_to is None:
                table = engine.fetch_arrow(plan.query(PAIRS_QUERY[listed]))
            result = RunResult(table, summary, loaded.skipped)
            counts: dict[str, object] = dict(summary.counts())
            if summary.expected_missed is not None:
                counts["expected_missed"] = round(summary.expected_missed, 1)
            if rule is not None:  # the clusters table (on Spark under the work folder, by the same SQL)
                result.dropped = clusters.build(engine, *rule)
                counts["survivors"] = {**rule.recorded(), "dropped": result.dropped}
            if outputs.audit is not None:  # the recall measured on a sample, seeded by --seed
                from .index.audit import audit

                result.audit = audit(engine, sketch, outputs.audit, sketch.seed)
                counts["audit"] = result.audit.recorded()
            # recorded finished once every table is the run's own, the clusters too (until then the
            # index commands refuse a database whose run stopped half-way: dedup.records)
            done.finish_run(counts, seconds)
            inputs.write_copy(engine)  # --write-deduplicated, by the clusters' rule
            if exports:  # the files asked for before the listing: a reader of stdout that goes away ends only it
                from .index.export import write_exports

                write_exports(engine, exports)
            if pairs_to is not None and listed != PairsListed.none:  # streamed in batches: bounded memory
                reader = engine.stream_arrow(plan.query(PAIRS_QUERY[listed]), STREAM_ROWS)
                assert reader is not None, "a query has rows"
                streamed = Counted(reader)  # --pairs between-groups lists fewer than the pairs table holds
                try:
                    pairs_to(streamed.reader)
                finally:
                    result.listed = streamed.rows
            if lean and kind.lean_after_run and run_on.work_dir is not None:  # what a kept work folder keeps
                keep_lean(engine, done, plan)
        disk.stop()  # the engine closed: its database checkpointed, its temporary files gone
        summary.disk = disk_use(disk, run_on, own, text_bytes)
        summary.memory = MemoryUse(peak_memory(), limit, run_on.memory_limit)
        return result
    except KeyboardInterrupt:
        raise Interrupted(STAGES_KEPT if run_on.db is not None else NOTHING_KEPT) from None
    except Interrupted:  # a stage's atomic step says its stages are kept: not without --db
        if run_on.db is None:
            raise Interrupted(NOTHING_KEPT) from None
        raise
    except EngineError as error:
        # Out of memory or disk, a full temp dir: the stage's atomic step was rolled back.
        if run_on.db is None or not run_on.db.exists():  # refused before it opened (check_room)
            raise
        raise EngineError(f"{error} (finished stages are kept in {run_on.db}; run again to resume)") from None
    finally:
        disk.stop()
        inputs.close()  # once the engine that read its spool is closed


def watch_disk(where: EngineOptions) -> Watch:
    """The run's own files, watched from before it reads its inputs: --temp-dir (where they all go
    then, the spool of a large input first); the spool of a large input once it is read, and the
    engine's files (its database, log and spill: Engine.own_files) once it opens, wherever they are."""
    return Watch([] if where.temp_dir is None else [where.temp_dir]).start()


def database_folder(where: EngineOptions) -> Path:
    """Where a DuckDB run's database goes: beside --db, else in a temporary folder under --temp-dir
    or the system's temporary folder."""
    if where.db is not None:
        return where.db.parent
    return where.temp_dir if where.temp_dir is not None else Path(tempfile.gettempdir())


def disk_use(watch: Watch, run_on: EngineOptions, own: tuple[Path, ...], text_bytes: int | None) -> DiskUse:
    """What the run's own files (`own`: the engine's) took at their peak, where, and what its
    database keeps."""
    if run_on.temp_dir is not None:
        where = str(run_on.temp_dir)
    elif run_on.db is not None:
        where = str(run_on.db.parent)
    elif own and own[0].parent.parent == Path(tempfile.gettempdir()):  # a temporary folder, gone by now
        where = f"the system's temporary folder {tempfile.gettempdir()}"
    else:
        where = str(own[0].parent) if own else "the engine's folders"
    kept = run_on.db.stat().st_size if run_on.db is not None and run_on.db.is_file() else None
    return DiskUse(watch.peak, where, kept, text_bytes)


def expected_missed(engine: Engine, sketch: Sketch) -> float:
    """The pairs LSH missed, estimated from the verified candidates (sql/queries/report/report_missed_pairs.sql)."""
    values = {"threshold": sketch.threshold, "bands": sketch.banding.bands, "rows": sketch.banding.rows}
    return float(engine.fetch_rows(engine.sql.query("report_missed_pairs", values))[0][0])


# Fewer word shingles than this per document on average: the texts have few words to shingle.
FEW_SHINGLES = 2.0
# More characters than this between spaces (few_word_documents.sql): text written without spaces
# (Debian package descriptions have runs of 24-30, hyphenated names joined by commas).
CHARS_PER_WORD = 40


def few_words_note(engine: Engine, sketch: Sketch, summary: Summary) -> list[str]:
    """A note when word shingles find little to compare: text written without spaces (Chinese,
    Japanese, Thai) is one \\w+ token per run of letters, so its documents were a shingle or two
    each and found nothing, silently. Said when the documents have few shingles on average, or when
    some of few shingles have more than CHARS_PER_WORD characters between spaces (sql/queries/bookkeeping/
    few_word_documents.sql): a corpus of English with Japanese paragraphs averages many."""
    if not SHINGLINGS[sketch.shingle_type].words or not summary.processed:
        return []
    advice = "--shingle-type char compares their characters"
    average = summary.shingles / summary.processed
    if average < FEW_SHINGLES:
        return [
            f"the documents have {average:.1f} word shingles each on average: short texts, or text written "
            f"without spaces between words (Chinese, Japanese, Thai), have few words to shingle; {advice}"
        ]
    values = {"shingle_size": sketch.shingle_size, "chars_per_word": CHARS_PER_WORD}
    long_words = engine.fetch_rows(engine.sql.query("few_word_documents", values))[0][0]
    if not long_words:
        return []
    return [
        f"{counted(long_words, 'document has', 'documents have')} more than {CHARS_PER_WORD} characters "
        f"between spaces: text written without spaces between words (Chinese, Japanese, Thai) has few words to "
        f"shingle; {advice}"
    ]


# Pairs listed past which a listing that is mostly pairs of exact copies gets a note.
MANY_PAIRS = 10_000


def copies_note(listed: PairsListed, summary: Summary) -> list[str]:
    """A note when most of the pairs listed are pairs of exact copies: 842k Debian package
    summaries listed 27.4 million pairs, nearly all inside groups of identical texts, and 165 of
    230 seconds went to printing them; --pairs between-groups lists the others."""
    if listed != PairsListed.all or summary.pairs < MANY_PAIRS or 2 * summary.copy_pairs < summary.pairs:
        return []
    share = summary.copy_pairs / summary.pairs
    return [
        f"{summary.copy_pairs:,} of the {summary.pairs:,} pairs ({share:.0%}) are exact copies of one another "
        f"(the same normalized text); --pairs between-groups lists the pairs between different texts only, "
        "and the clusters (--keep, --export survivors=F) keep one of each group"
    ]


def keep_by_note(engine: Engine, reading: Reading) -> list[str]:
    """A note naming the values of --keep-by COLUMN=A,B,... that no row holds: a typo (tset for
    test) ranks the rows meant for it after every value listed, the reverse of the intent."""
    keep_by = reading.keep_by_column
    if keep_by is None or keep_by.values is None:
        return []
    held = {row[0] for row in engine.fetch_rows(engine.sql.query("document_keys_places"))}
    missing = [value for place, value in enumerate(keep_by.values) if place not in held]
    if not missing:
        return []
    shown = ", ".join(repr(value) for value in missing)
    return [
        f"--keep-by {keep_by}: no row's {keep_by.column!r} is {shown}; rows of any value not listed are walked "
        "after those listed (a misspelt value is such a value)"
    ]


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


def is_small(text_bytes: int | None, run_on: EngineOptions, sketch: Sketch) -> bool:
    """Whether a run's tables stay in memory: about how many shingle rows it makes, by the text
    bytes read before the engine opened (None: its engine reads them), under no --memory-limit (an
    in-memory database's tables count against the limit)."""
    if text_bytes is None or run_on.memory_limit is not None:
        return False
    return text_bytes // SHINGLINGS[sketch.shingle_type].bytes_per_shingle <= SMALL_SHINGLES
