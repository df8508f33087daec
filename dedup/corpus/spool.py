"""A large input's documents written to a Parquet file as they are read, so that reading holds one
batch of them in memory and not the whole input: the file the engine then reads as raw_documents.

A run whose texts stay under SPOOL_BYTES never writes one: its documents go to the engine as the
Arrow table they were read into.
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

import pyarrow as pa

from ..errors import EngineError, InputError, first_line

# The texts a reading holds before it writes them out (and the size of an input from which it does).
# A run this large already has its tables in a database file (pipeline.SMALL_SHINGLES).
SPOOL_BYTES = 64 * 2**20

# Rows per row group of the file: the engine reads row groups in parallel, so a row group holds
# few enough long texts to share them among threads (a table of 2,000 books in one row group was
# normalized on one thread), and enough short ones that a group is not mostly overhead.
ROW_GROUP_ROWS = 1024


class Spool:
    """The documents written so far, in order, with the digest of every table written (see
    update_digest); the folder is made at the first write, removed by close()."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder  # where the temporary folder goes (None: the system's temporary folder)
        self.documents = 0
        self.text_bytes = 0
        self.digest = hashlib.sha256()
        self._temporary: tempfile.TemporaryDirectory[str] | None = None
        self._writer: pa.parquet.ParquetWriter | None = None  # type: ignore[name-defined]
        self._path: Path | None = None
        self._schema: pa.Schema | None = None  # of the first table written: every other is cast to it

    def write(self, table: pa.Table) -> None:
        import pyarrow.parquet as pq

        try:
            if self._writer is None:
                if self.folder is not None:
                    self.folder.mkdir(parents=True, exist_ok=True)
                self._temporary = tempfile.TemporaryDirectory(prefix="dedup-input-", dir=self.folder)
                self._path = Path(self._temporary.name) / "documents.parquet"
                # plain, uncompressed texts and no statistics: written 3 x faster than snappy with
                # dictionaries (1M documents of 200 characters: 0.21 s against 0.67 s), read as fast
                self._writer = pq.ParquetWriter(
                    self._path, table.schema, compression="none", use_dictionary=["encoding"], write_statistics=False
                )
                self._schema = table.schema
            elif table.schema != self._schema:
                table = self._as_first(table)
            update_digest(self.digest, table)
            self._writer.write_table(table, row_group_size=ROW_GROUP_ROWS)
        except OSError as error:  # a full disk, a folder not writable
            where = self._temporary.name if self._temporary is not None else self.folder or tempfile.gettempdir()
            raise EngineError(
                f"cannot write the input out as it is read, in {where}: {error.strerror or first_line(error)} "
                "(give --temp-dir on a disk with room)",
                out_of_space=True,
            ) from None
        self.documents += table.num_rows
        self.text_bytes += table.column("text").nbytes

    @property
    def path(self) -> Path | None:
        """The file, once the first documents are written."""
        return self._path

    def written(self) -> Path:
        """The file, complete (nothing can be written after)."""
        assert self._writer is not None and self._path is not None, "a spool is finished once written"
        self._writer.close()
        return self._path

    def close(self) -> None:
        """Remove the file and its folder; never fails."""
        if self._writer is not None:
            try:
                self._writer.close()
            except (OSError, pa.ArrowException):
                pass
        if self._temporary is not None:
            self._temporary.cleanup()
            self._temporary = None

    def _as_first(self, table: pa.Table) -> pa.Table:
        """A table in the first one's types: the ids of an unsigned 64-bit column are Python ints
        whose Arrow type follows their values (int64 below 2^63, else uint64)."""
        assert self._schema is not None
        schema = self._schema
        try:
            return table.cast(schema)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            raise InputError(
                f"the document ids change type as the input is read ({schema.field('id').type}, then "
                f"{table.schema.field('id').type}): give ids of one type"
            ) from None


def update_digest(digest: hashlib._Hash, table: pa.Table) -> None:
    """Hash a table's schema, row count and column buffers (tables built by dedup.corpus, offset 0)."""
    digest.update(str(table.schema).encode())
    digest.update(str(table.num_rows).encode())
    for column in table.combine_chunks().columns:
        for chunk in column.chunks:
            for buffer in chunk.buffers():
                digest.update(b"-" if buffer is None else memoryview(buffer))


def digest_tables(*tables: pa.Table, start: hashlib._Hash | None = None) -> str:
    """sha256 of the tables' schemas and column buffers (update_digest), after what `start` (a
    spool's digest of the documents it wrote) has hashed."""
    digest = hashlib.sha256() if start is None else start.copy()
    for table in tables:
        update_digest(digest, table)
    return digest.hexdigest()
