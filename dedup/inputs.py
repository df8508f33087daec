"""A run's inputs, on the side of the engine that reads them: read (before the engine opens, when
dedup reads them), put before the engine as `raw_documents` and `raw_skipped` with their account
(loaded, skipped, Latin-1) and the digest that starts every stage's resume fingerprint, and
written back without the dropped documents (--write-deduplicated).

`open_inputs` chooses by the engine's kind: on DuckDB, pyarrow reads the inputs (dedup.corpus.read)
or they are given in memory, and they are registered as Arrow tables (`ReadByPython`); Spark
reads them with its own readers where the data is (dedup.engines.spark.read), so nothing funnels
through the driver (`ReadByEngine`). The pipeline asks the same of both and never which it has.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from .corpus import FileStamp, Read, copied_input, digest_tables, duplicate_id, read_by_python
from .engines import Engine, engine_kind
from .errors import UsageError
from .output import STREAM_ROWS
from .reports import Progress
from .settings import EngineOptions, Reading
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


def open_inputs(
    reading: Reading,
    where: EngineOptions,
    progress: Progress,
    documents: pa.Table | None = None,
    *,
    copy_to: Path | None = None,
    replace: bool = False,
) -> Inputs:
    """The run's inputs (reading.inputs, or the documents given in memory) as its engine (where.engine)
    reads them; copy_to: --write-deduplicated; replace: --replace (a kept database may lose documents);
    documents in memory are refused on an engine that reads paths itself."""
    if engine_kind(where.engine).reads_paths:
        if documents is not None:
            raise UsageError(f"engine='{where.engine.value}' reads paths (its own readers); give inputs, not documents")
        return ReadByEngine(reading, where, progress, copy_to=copy_to, replace=replace)
    return ReadByPython(reading, where, progress, documents, copy_to=copy_to, replace=replace)


class Inputs:
    """What a run asks of its inputs, in this order: `read` (before the engine opens), `load` (onto
    it), `write_copy` (once its clusters are built), `close` (always). `started`: when reading
    began, by time.perf_counter(); `text_bytes`: the size of the documents' text once read before
    the engine opens (it chooses the run's database), else None; `files_read`: the files whose
    state the run's record keeps (dedup.records)."""

    def __init__(
        self,
        reading: Reading,
        where: EngineOptions,
        progress: Progress,
        *,
        copy_to: Path | None = None,
        replace: bool = False,
    ) -> None:
        self.reading, self.where, self.copy_to, self.replace = reading, where, copy_to, replace
        self.progress = progress
        self.started = time.perf_counter()
        self.files_read = reading.files_read

    @property
    def text_bytes(self) -> int | None:
        return None

    @property
    def documents_read(self) -> int | None:
        """The documents read before the engine opens (None: its engine reads them)."""
        return None

    def read(self) -> None:
        """Read what can be read before the engine opens."""

    def load(self, engine: Engine, plan: Plan) -> Loaded:
        """Register raw_documents and raw_skipped on the engine. Refused when the inputs lack
        documents that the kept database (--db) holds, unless --replace."""
        db = self.where.db
        if db is not None:  # a DuckDB database file (--db is DuckDB's option)
            tables, stages = engine.fetch_rows(engine.sql.query("foreign_tables"))[0]
            if tables and not stages:
                raise UsageError(
                    f"{db} is a DuckDB database that dedup did not make ({tables} tables, none of them "
                    "`stages`): give a new file as --db"
                )
        loaded = self.register(engine, plan)
        if self.reading.keep_by is not None:  # the keys the survivor rules order by (dedup.keep_by)
            engine.create_table("document_keys", engine.sql.query("document_keys"))
        elif db is not None and engine.has_table("document_keys"):  # a kept database's, read by another rule
            engine.drop_table("document_keys")
        indexed = [table for table in engine.sql.tables_needed("dropped_documents") if table != "raw_documents"]
        if db is not None and not self.replace and all(map(engine.has_table, indexed)):
            # a kept database never loses documents silently
            dropped, examples = engine.fetch_rows(plan.query("dropped_documents"))[0]
            if dropped:
                shown = ", ".join(repr(e) for e in examples) + (", ..." if dropped > len(examples) else "")
                raise UsageError(
                    f"{db} holds {counted(dropped, 'document')} that these inputs do not ({shown}); a run "
                    "would drop them: give --replace to rebuild it from these inputs alone, use `dedup add` to add "
                    "documents to it, or give another --db"
                )
        return loaded

    def register(self, engine: Engine, plan: Plan) -> Loaded:
        raise NotImplementedError

    def write_copy(self, engine: Engine) -> None:
        """--write-deduplicated: the input without the documents that the built clusters drop."""
        assert self.copy_to is None, "refused with this engine by dedup.options"

    def own_files(self) -> tuple[Path, ...]:
        """The files reading wrote for the run (a large input's spool), for the summary's disk line."""
        return ()

    def close(self) -> None:
        """Remove what reading left behind; never fails."""


class ReadByPython(Inputs):
    """The inputs read by pyarrow before the database opens (their size chooses it: in memory or a
    file), or the documents given in memory; an input large enough is written to a spool file as
    it is read (dedup.corpus.spool). With --write-deduplicated the input is stamped before it is
    read and the copy is kept only if it still matches (dedup.corpus.stamp)."""

    def __init__(
        self,
        reading: Reading,
        where: EngineOptions,
        progress: Progress,
        documents: pa.Table | None = None,
        *,
        copy_to: Path | None = None,
        replace: bool = False,
    ) -> None:
        super().__init__(reading, where, progress, copy_to=copy_to, replace=replace)
        self.documents = documents
        self.stamp: tuple[FileStamp, ...] | None = None
        self.taken: Read | None = None
        if documents is not None:
            self.files_read = ()  # not the placeholder that stands for the documents in memory

    @property
    def text_bytes(self) -> int | None:
        assert self.taken is not None, "read first"
        return self.taken.text_bytes

    @property
    def documents_read(self) -> int | None:
        assert self.taken is not None, "read first"
        return self.taken.documents

    def read(self) -> None:
        if self.copy_to is not None:  # what the input holds before it is read
            self.stamp = copied_input(self.reading).stamp()
        self.progress.start("read")
        self.taken = read_by_python(self.reading, self.documents, spool_folder(self.where))

    def register(self, engine: Engine, plan: Plan) -> Loaded:
        read = self.taken
        assert read is not None, "read first"
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

    def write_copy(self, engine: Engine) -> None:
        out = self.copy_to
        if out is None:
            return
        from .corpus import is_table_copy, write_deduplicated_input, write_kept_documents
        from .index import clusters

        if is_table_copy(self.reading, out):  # a folder or --lines file to a table: the kept documents
            rows = engine.stream_arrow(engine.sql.query("kept_documents"), STREAM_ROWS)
            assert rows is not None, "a query has rows"
            write_kept_documents(self.reading, out, rows, self.stamp)
            return
        by_number = copied_input(self.reading).numbered_lines  # a --lines file's lines, named or not
        dropped = clusters.dropped_positions(engine) if by_number else clusters.dropped_ids(engine)
        write_deduplicated_input(self.reading, out, dropped, self.stamp)

    def own_files(self) -> tuple[Path, ...]:
        spool = None if self.taken is None or self.taken.spool is None else self.taken.spool.path
        return () if spool is None else (spool,)

    def close(self) -> None:
        if self.taken is not None:  # the engine that read its spool is closed
            self.taken.close()


class ReadByEngine(Inputs):
    """The input paths read by the engine's own readers once it is up (Spark)."""

    def register(self, engine: Engine, plan: Plan) -> Loaded:
        self.progress.start("read")
        self.started = time.perf_counter()  # the engine's start-up is not reading
        ids_from_columns, notes = engine.read_inputs(self.reading)
        if ids_from_columns:  # every stage takes the ids to be unique, as DuckDB's reading checks
            check_unique_ids(engine, plan)
        digest = engine.fetch_rows(plan.query("spark_input_digest"))[0]
        skipped = engine.fetch_arrow(plan.query("spark_skipped"))
        latin1 = int(digest[2])
        inputs_digest = hashlib.sha256(json.dumps([str(v) for v in digest]).encode()).hexdigest()
        return Loaded(int(digest[1]), skipped, latin1, inputs_digest, notes)


def spool_folder(where: EngineOptions) -> Path | None:
    """Where a large input is written as it is read: --temp-dir, else beside --db, else the system's
    temporary folder (as the engine spills)."""
    if where.temp_dir is not None:
        return where.temp_dir
    return where.db.parent if where.db is not None else None


def check_unique_ids(engine: Engine, plan: Plan) -> None:
    """Refuse raw_documents whose ids repeat (sql/queries/bookkeeping/duplicate_ids.sql), naming one as the
    reading in Python does."""
    duplicates = engine.fetch_rows(plan.query("duplicate_ids"))
    if duplicates:
        raise duplicate_id(duplicates[0][0])
