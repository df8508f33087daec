"""A run's inputs put before its engine as `raw_documents` and `raw_skipped`, with their account
(loaded, skipped, Latin-1) and the digest that starts every stage's resume fingerprint.

DuckDB's inputs, read by pyarrow (dedup.corpus.read) or given in memory, are registered as Arrow
tables; Spark reads them with its own readers where the data is (dedup.engines.spark.read), so nothing
funnels through the driver.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

import pyarrow as pa

from .corpus.collected import duplicate_id
from .corpus.read import Read
from .corpus.spool import digest_tables
from .engines import Engine
from .errors import UsageError
from .settings import Settings
from .sqlfiles import query, tables_needed
from .stages import Plan
from .wording import counted


@dataclass
class Loaded:
    loaded: int  # documents put before the engine (some may be empty)
    skipped: pa.Table  # (source, reason) of every input not loaded
    latin1: int  # documents decoded as Latin-1
    digest: str  # of every input document and skipped input
    notes: list[str] = field(default_factory=list)  # things the user may not have meant

    @property
    def read(self) -> int:
        return self.loaded + self.skipped.num_rows


def load_inputs(engine: Engine, settings: Settings, plan: Plan, read: Read | None = None) -> Loaded:
    """Register raw_documents and raw_skipped on the engine: on DuckDB what dedup.corpus.read read,
    on Spark settings.inputs read by Spark's readers.
    Refused when the inputs lack documents that the kept database (--db) holds, unless --replace."""
    if settings.db is not None:  # a DuckDB database file (--db is DuckDB's option)
        tables, stages = engine.fetch_rows(query("foreign_tables", dialect=engine.dialect))[0]
        if tables and not stages:
            raise UsageError(
                f"{settings.db} is a DuckDB database that dedup did not make ({tables} tables, none of them "
                "`stages`): give a new file as --db"
            )
    if read is None:  # the engine reads the input paths itself
        loaded = _load_by_engine(engine, settings, plan)
    else:
        loaded = _load_by_python(engine, read, plan)
    indexed = [table for table in tables_needed("dropped_documents") if table != "raw_documents"]
    if settings.db is not None and not settings.replace_documents and all(map(engine.has_table, indexed)):
        # a kept database never loses documents silently
        dropped, examples = engine.fetch_rows(plan.query("dropped_documents"))[0]
        if dropped:
            shown = ", ".join(repr(e) for e in examples) + (", ..." if dropped > len(examples) else "")
            raise UsageError(
                f"{settings.db} holds {counted(dropped, 'document')} that these inputs do not ({shown}); a run "
                "would drop them: give --replace to rebuild it from these inputs alone, use `dedup add` to add "
                "documents to it, or give another --db"
            )
    return loaded


def _load_by_python(engine: Engine, read: Read, plan: Plan) -> Loaded:
    raw, skipped = read.raw, read.skipped
    engine.register_arrow("raw_skipped", skipped)
    if read.spool is not None:  # a large input, written out as it was read
        engine.register_parquet("raw_documents", read.spool.written())
        check_unique_ids(engine, plan)  # the ids of documents no longer held by Python, checked where they are
        digest = digest_tables(skipped, start=read.spool.digest)
        return Loaded(read.spool.documents, skipped, read.latin1, digest, read.notes)
    assert raw is not None, "inputs registered twice"
    read.raw = None  # the engine's registration is the only reference: freed once the documents stage ran
    engine.register_arrow("raw_documents", raw)
    return Loaded(raw.num_rows, skipped, read.latin1, digest_tables(raw, skipped), read.notes)


def _load_by_engine(engine: Engine, settings: Settings, plan: Plan) -> Loaded:
    ids_from_columns, notes = engine.read_inputs(settings)
    if ids_from_columns:  # every stage takes the ids to be unique, as DuckDB's reading checks
        check_unique_ids(engine, plan)
    digest = engine.fetch_rows(plan.query("spark_input_digest"))[0]
    skipped = engine.fetch_arrow(plan.query("spark_skipped"))
    latin1 = int(digest[2])
    inputs_digest = hashlib.sha256(json.dumps([str(v) for v in digest]).encode()).hexdigest()
    return Loaded(int(digest[1]), skipped, latin1, inputs_digest, notes)


def check_unique_ids(engine: Engine, plan: Plan) -> None:
    """Refuse raw_documents whose ids repeat (sql/queries/bookkeeping/duplicate_ids.sql), naming one as the
    reading in Python does."""
    duplicates = engine.fetch_rows(plan.query("duplicate_ids"))
    if duplicates:
        raise duplicate_id(duplicates[0][0])
