"""A run's inputs put before its engine as `raw_documents` and `raw_skipped`, with their account
(loaded, skipped, Latin-1) and the digest that starts every stage's resume fingerprint.

DuckDB's inputs are read here by pyarrow (or given in memory) and registered as Arrow tables;
Spark reads them with its own readers where the data is (dedup.spark_inputs), so nothing
funnels through the driver.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field

import pyarrow as pa

from ..engine import Engine
from ..errors import Interrupted, UsageError
from ..settings import Settings
from ..sqlfiles import query
from .read import read_documents, read_inputs


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


@dataclass
class Read:
    """The inputs as Python read them (a DuckDB run), before any engine opens: their size chooses
    the run's database (in memory or a file)."""

    raw: pa.Table | None  # the documents; None once registered (the engine's copy is the one kept)
    skipped: pa.Table
    latin1: int
    notes: list[str]
    started: float  # time.perf_counter() when reading began

    @property
    def text_bytes(self) -> int:
        return 0 if self.raw is None else self.raw.column("text").nbytes


def read_by_python(settings: Settings, documents: pa.Table | None = None) -> Read:
    """settings.inputs, or the documents given, read by pyarrow into Arrow tables."""
    started = time.perf_counter()
    try:
        corpus = read_inputs(settings) if documents is None else read_documents(documents, settings.strip_html)
    except KeyboardInterrupt:
        raise Interrupted("interrupted while reading the inputs; nothing was written") from None
    # The texts as Python strings (~300 MB at 1M short documents) are freed on return.
    return Read(corpus.to_arrow(), corpus.skipped_arrow(), corpus.latin1, list(corpus.notes), started)


def load_inputs(
    engine: Engine, settings: Settings, documents: pa.Table | None = None, read: Read | None = None
) -> Loaded:
    """Register raw_documents and raw_skipped on the engine: settings.inputs, or the documents given
    (or, on DuckDB, what read_by_python read of them already).
    Refused when the inputs lack documents that the kept database (--db) holds, unless --replace."""
    if engine.dialect == "duckdb":
        loaded = _load_by_python(engine, settings, read or read_by_python(settings, documents))
    else:
        loaded = _load_by_spark(engine, settings)
    if settings.db is not None and not settings.replace_documents and engine.has_table("documents"):
        # a kept database never loses documents silently
        dropped, examples = engine.fetch_rows(query("dropped_documents", dialect=engine.dialect))[0]
        if dropped:
            shown = ", ".join(repr(e) for e in examples) + (", ..." if dropped > len(examples) else "")
            raise UsageError(
                f"{settings.db} holds {dropped} documents that these inputs do not ({shown}); a run would drop "
                "them: give --replace to rebuild it from these inputs alone, use `dedup add` to add documents "
                "to it, or give another --db"
            )
    return loaded


def _load_by_python(engine: Engine, settings: Settings, read: Read) -> Loaded:
    raw, skipped = read.raw, read.skipped
    assert raw is not None, "inputs registered twice"
    read.raw = None  # the engine's registration is the only reference: freed once the documents stage ran
    loaded = Loaded(raw.num_rows, skipped, read.latin1, digest_tables(raw, skipped), read.notes)
    engine.register_arrow("raw_documents", raw)
    engine.register_arrow("raw_skipped", skipped)
    return loaded


def _load_by_spark(engine: Engine, settings: Settings) -> Loaded:
    from ..spark_inputs import read_corpus

    read_corpus(engine, settings)
    digest = engine.fetch_rows(query("spark_input_digest", dialect="spark"))[0]
    skipped = engine.fetch_arrow(query("spark_skipped", dialect="spark"))
    latin1 = int(digest[2])
    inputs_digest = hashlib.sha256(json.dumps([str(v) for v in digest]).encode()).hexdigest()
    return Loaded(int(digest[1]), skipped, latin1, inputs_digest)


def digest_tables(*tables: pa.Table) -> str:
    """sha256 of the tables' schemas and column buffers (tables built by dedup.corpus, offset 0)."""
    digest = hashlib.sha256()
    for table in tables:
        digest.update(str(table.schema).encode())
        digest.update(str(table.num_rows).encode())
        for column in table.combine_chunks().columns:
            for chunk in column.chunks:
                for buffer in chunk.buffers():
                    digest.update(b"-" if buffer is None else memoryview(buffer))
    return digest.hexdigest()
