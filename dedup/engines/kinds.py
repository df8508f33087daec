"""What a run does differently on each engine, declared once: the rest of dedup asks an engine's
kind (`engine_kind(name)`) and never compares an engine's name. This includes which run options
go with which engine (`EngineKind.check`, called when the options are built)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError
from ..sqltext import DUCKDB, Generated
from .spark.sqltext import SPARK


@dataclass(frozen=True)
class EngineKind:
    """reads_paths: the engine reads the input paths with its own readers, where the data is (Spark);
    otherwise dedup reads them (dedup.corpus.read, before the database opens, or documents given in
    memory) and registers them. batched: the per-document stages and the verification run in
    batches of a table (dedup.runner), where the engine holds the whole run in one process's memory
    (DuckDB); Spark partitions them itself. keeps_clusters: a kept database, or any export, gets the
    clusters table as the index commands expect (DuckDB); otherwise only when --keep is given or an
    export needs them. writes_deduplicated: --write-deduplicated is supported. lean: its database
    (or work folder) keeps the lean layout unless --keep-all-tables (dedup.stages.Layout), made as
    the stages run (DuckDB: in temporary tables, batch by batch) or, lean_after_run, from the whole
    tables once the run has finished (Spark, with no temporary tables: dedup.runner.keep_lean; a
    temporary work folder is left as it is, deleted after). queries: the
    engine's own queries a run executes (besides those every engine runs). generated: the
    fragments its dialect generates differently (dedup.sqltext).

    options: the run options (name, flag: the name of a field of one of Settings' parts) that only
    this engine takes; instead: what a user of this engine is told to use when they give another
    engine's option; unsupported: the options (name, flag, why) that every other engine takes and
    this one does not; check_more: this engine's own checks of the run's EngineOptions, after those."""

    name: str
    title: str
    generated: Generated
    reads_paths: bool
    batched: bool
    keeps_clusters: bool
    writes_deduplicated: bool
    lean: bool = False
    lean_after_run: bool = False
    queries: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()
    instead: str = ""
    unsupported: tuple[tuple[str, str, str], ...] = ()
    check_more: Callable[[Any], None] | None = None  # on the run's EngineOptions
    # the engine of a run: (the run's EngineOptions, a Spark session or None, small) -> a context
    # manager of the open engine, closed after (dedup.engines.run_engine)
    opens: Callable[[Any, Any, bool], AbstractContextManager[Any]] | None = None

    def refusals(self, given: Callable[[str], object]) -> Iterator[str]:
        """Why each option given (by its name: Settings.value) is refused on this engine: the
        options of another engine, then those this one lacks. dedup.options raises the first."""
        for other in KINDS.values():
            for field, flag in other.options if other is not self else ():
                if given(field) not in (None, ()):
                    yield f"{flag} is for the {other.title} engine (--engine {other.name}){self.instead}"
        for field, flag, why in self.unsupported:
            if given(field) not in (None, False):
                yield f"{flag} is not supported with --engine {self.name}{why}"


def _check_spark(options: Any) -> None:
    local = options.master is None or options.master.startswith("local")  # Spark in this process's JVM
    if options.work_dir is None and not local:  # a temporary folder serves a local master only
        raise UsageError(
            f"--engine spark on {options.master} needs --work-dir DIR (where the stage tables are written)"
        )


def _run_duckdb(options: Any, session: Any, small: bool) -> AbstractContextManager[Any]:
    from . import duckdb_run

    return duckdb_run(options, small)


def _run_spark(options: Any, session: Any, small: bool) -> AbstractContextManager[Any]:
    from .spark.engine import spark_engine

    return spark_engine(options, session)


KINDS = {
    "duckdb": EngineKind(
        name="duckdb",
        title="DuckDB",
        generated=DUCKDB,
        reads_paths=False,
        batched=True,
        keeps_clusters=True,
        writes_deduplicated=True,
        lean=True,
        opens=_run_duckdb,
        options=(
            ("db", "--db"),
            ("threads", "--threads"),
            ("memory_limit", "--memory-limit"),
            ("temp_dir", "--temp-dir"),
        ),
    ),
    "spark": EngineKind(
        name="spark",
        title="Spark",
        generated=SPARK,
        reads_paths=True,
        batched=False,
        keeps_clusters=False,
        writes_deduplicated=False,
        lean=True,
        lean_after_run=True,
        queries=("spark_input_digest", "spark_skipped"),
        options=(("master", "--master"), ("work_dir", "--work-dir"), ("spark_conf", "--spark-conf")),
        instead="; with --engine spark use --work-dir and --spark-conf",
        unsupported=(
            ("include_hidden", "--include-hidden", " (Spark's readers skip hidden files)"),
            ("strip_html", "--strip-html", " yet"),
            ("ids_file", "--ids", " yet"),
            ("audit", "--audit", ": its exact search reads the index's tables in DuckDB (run with --engine duckdb)"),
        ),
        check_more=_check_spark,
        opens=_run_spark,
    ),
}


def engine_kind(name: str) -> EngineKind:
    """The kind of the engine (or SQL dialect) `name`: duckdb or spark."""
    return KINDS[name]
