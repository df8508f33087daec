"""The documents read so far, in order (Corpus), and the inputs skipped with their reasons
(Skipped): every input is accounted for, read = loaded + skipped."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pyarrow as pa

from ..errors import InputError
from .spool import SPOOL_BYTES, Spool

if TYPE_CHECKING:
    from ..keep_by import KeepBy


@dataclass(frozen=True)
class Skipped:
    source: str
    reason: str


ARROW_BATCH_ROWS = 64


@dataclass
class Corpus:
    """The documents read so far, in order. A table's texts stay Arrow strings, not a Python string
    per document (on 1M short documents: 2.1-3.1 instead of 3.3-3.4 CPU-s, peak 0.75-1.0 instead of
    1.1-1.3 GiB; the ids are still Python values); a file's or a line's text is a Python string
    until the next table or the end. With a spool (a run's reading), the documents held are written
    to it each time their texts pass SPOOL_BYTES: reading holds one batch, not the whole input."""

    ids: list[object] = field(default_factory=list)
    encodings: list[str] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # things the user may not have meant, for the summary
    nearly_utf8: list[tuple[object, int]] = field(default_factory=list)  # (id, stray bytes) read as Latin-1
    text_chunks: list[pa.Array] = field(default_factory=list)  # the texts in order, after `pending`'s flush
    pending: list[str] = field(default_factory=list)  # the texts added since the last chunk
    spool: Spool | None = None  # where the documents go past SPOOL_BYTES; None: all held in memory
    names: list[object] | None = None  # --ids: every document's id, in order, instead of its line number
    text_map: Callable[[str], str] | None = None  # applied to every text (--strip-html)
    written_latin1: int = 0  # documents written to the spool that were decoded as Latin-1
    held_bytes: int = 0  # of the texts held
    keep_by: KeepBy | None = None  # --keep-by: each document's key, from a column of its table
    # the keys of the documents held, in order: each part's keys and their low parts (dedup.keep_by.split_keys)
    keys: list[tuple[pa.Array, pa.Array]] = field(default_factory=list)

    def add(self, doc_id: object, text: str, encoding: str = "utf-8") -> None:
        assert self.keep_by is None, "--keep-by reads tables only (dedup.corpus.read)"
        self._write_out_if_full()
        self.ids.append(doc_id)
        self.pending.append(text)
        self.encodings.append(encoding)
        self.held_bytes += len(text)

    def add_texts(
        self,
        ids: list[object],
        texts: pa.ChunkedArray,
        encodings: list[str] | None = None,
        keys: tuple[pa.Array, pa.Array] | None = None,
    ) -> None:
        """A table's documents: `texts` UTF-8 strings (checked), no NULLs, one per id; each one's
        encoding if any was decoded as Latin-1 (see decoded_cells); with --keep-by, their keys."""
        self._write_out_if_full()
        self._flush()
        if self.keep_by is not None:
            assert keys is not None and len(keys[0]) == len(ids)
            self.keys.append(keys)
        self.ids.extend(ids)
        self.encodings.extend(["utf-8"] * len(ids) if encodings is None else encodings)
        for chunk in texts.chunks:  # 32-bit offsets as a Python-built array has: cast chunk by chunk
            self.text_chunks.append(chunk.cast(pa.string()) if chunk.type != pa.string() else chunk)
        self.held_bytes += texts.nbytes

    def texts(self) -> pa.ChunkedArray:
        self._flush()
        return pa.chunked_array(self.text_chunks, pa.string())

    def last_text(self) -> str:
        return self.pending[-1] if self.pending else self.text_chunks[-1][-1].as_py()

    def _flush(self) -> None:
        if self.pending:
            array = pa.array(self.pending, pa.string())  # a ChunkedArray past 2 GiB of text
            self.text_chunks.extend(array.chunks if isinstance(array, pa.ChunkedArray) else [array])
            self.pending = []

    @property
    def written(self) -> int:
        """Documents written to the spool."""
        return 0 if self.spool is None else self.spool.documents

    @property
    def documents(self) -> int:
        return self.written + len(self.ids)

    @property
    def latin1(self) -> int:
        return self.written_latin1 + sum(1 for e in self.encodings if e == "latin-1")

    def check_unique(self) -> None:
        """Every id once; when documents were written out, the engine checks them (duplicate_ids)."""
        if not self.written:
            check_unique(self.ids)

    def _write_out_if_full(self) -> None:
        if self.spool is not None and self.held_bytes >= SPOOL_BYTES:
            self.write_out()

    def write_out(self) -> None:
        """Write the documents held to the spool and forget them."""
        assert self.spool is not None
        self.spool.write(self.to_arrow())
        self.written_latin1 = self.latin1
        self.ids, self.encodings, self.text_chunks, self.pending, self.held_bytes = [], [], [], [], 0
        self.keys = []

    def to_arrow(self) -> pa.Table:
        """The documents held, numbered on from those written out."""
        ids_given = self.ids
        if self.names is not None:  # too few names: an error once reading ends (check_names)
            ids_given = self.names[self.written : self.documents]
            ids_given += [None] * (len(self.ids) - len(ids_given))
        try:
            ids = pa.array(ids_given)
        except OverflowError:  # an unsigned 64-bit id column with ids from 2^63
            ids = pa.array(ids_given, pa.uint64())
        if not (pa.types.is_integer(ids.type) or pa.types.is_string(ids.type) or pa.types.is_null(ids.type)):
            ids = ids.cast(pa.string())
        if pa.types.is_null(ids.type):
            ids = ids.cast(pa.string())
        texts = self.texts()
        if self.text_map is not None:
            mapped = pa.array([self.text_map(t) for t in texts.to_pylist()], pa.string())  # chunked past 2 GiB
            texts = mapped if isinstance(mapped, pa.ChunkedArray) else pa.chunked_array([mapped])
        columns = {
            "position": pa.array(range(self.written + 1, self.documents + 1), pa.int64()),
            "id": ids,
            "text": texts,
            "encoding": pa.array(self.encodings, pa.string()),
        }
        if self.keep_by is not None:
            columns["key"] = pa.chunked_array([key for key, _ in self.keys], pa.float64())
            columns["key_low"] = pa.chunked_array([low for _, low in self.keys], pa.int64())
        table = pa.table(columns)
        # Small record batches (zero-copy slices) let DuckDB normalize them on all threads: 2,000
        # book-length texts in one batch were normalized on one thread (1.4 s against 0.8 s).
        return pa.Table.from_batches(table.to_batches(max_chunksize=ARROW_BATCH_ROWS), table.schema)

    def skipped_arrow(self) -> pa.Table:
        return pa.table(
            {
                "source": pa.array([s.source for s in self.skipped], pa.string()),
                "reason": pa.array([s.reason for s in self.skipped], pa.string()),
            }
        )


def check_unique(ids: list[object]) -> None:
    seen: set[object] = set()
    for doc_id in ids:
        if doc_id in seen:
            raise duplicate_id(doc_id)
        seen.add(doc_id)


def duplicate_id(doc_id: object) -> InputError:
    """The error for an id that two documents share (both engines)."""
    return InputError(f"duplicate document id {doc_id!r}: ids must be unique")
