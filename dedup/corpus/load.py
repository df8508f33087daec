"""A run's inputs put before its engine as `raw_documents` and `raw_skipped`, with their account
(loaded, skipped, Latin-1) and the digest that starts every stage's resume fingerprint.

DuckDB's inputs are read here by pyarrow (or given in memory) and registered as Arrow tables;
Spark reads them with its own readers where the data is (dedup.spark_inputs), so nothing
funnels through the driver.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

import pyarrow as pa

from ..engine import Engine
from ..errors import Interrupted, UsageError
from ..records import input_fingerprint
from ..settings import Settings
from ..sqlfiles import query
from .read import read_documents, read_inputs


@dataclass
class Loaded:
    loaded: int  # documents put before the engine (some may be empty)
    skipped: pa.Table  # (source, reason) of every input not loaded
    latin1: int  # documents decoded as Latin-1
    fingerprint: str  # of every input document and skipped input, and the read options
    notes: list[str] = field(default_factory=list)  # things the user may not have meant

    @property
    def read(self) -> int:
        return self.loaded + self.skipped.num_rows


def load_inputs(engine: Engine, settings: Settings, documents: pa.Table | None = None) -> Loaded:
    """Register raw_documents and raw_skipped on the engine: settings.inputs, or the documents given.
    Refused when the inputs lack documents that the kept database (--db) holds, unless --replace."""
    loaded = (
        _load_by_python(engine, settings, documents) if engine.dialect == "duckdb" else _load_by_spark(engine, settings)
    )
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


def _load_by_python(engine: Engine, settings: Settings, documents: pa.Table | None) -> Loaded:
    try:
        corpus = read_inputs(settings) if documents is None else read_documents(documents, settings.strip_html)
    except KeyboardInterrupt:
        raise Interrupted("interrupted while reading the inputs; nothing was written") from None
    raw = corpus.to_arrow()
    skipped = corpus.skipped_arrow()
    fingerprint = input_fingerprint(settings.options(), digest_tables(raw, skipped))
    loaded = Loaded(raw.num_rows, skipped, corpus.latin1, fingerprint, list(corpus.notes))
    del corpus  # the texts as Python strings: ~300 MB at 1M short documents, not needed any more
    engine.register_arrow("raw_documents", raw)
    engine.register_arrow("raw_skipped", skipped)
    return loaded


def _load_by_spark(engine: Engine, settings: Settings) -> Loaded:
    from ..spark_inputs import read_corpus

    read_corpus(engine, settings)
    digest = engine.fetch_rows(query("spark_input_digest", dialect="spark"))[0]
    skipped = engine.fetch_arrow(query("spark_skipped", dialect="spark"))
    latin1 = int(digest[2])
    return Loaded(
        int(digest[1]), skipped, latin1, hashlib.sha256(json.dumps([str(v) for v in digest]).encode()).hexdigest()
    )


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
