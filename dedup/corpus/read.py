"""Turning user inputs (folders, line files, tables) into one table of documents.

A corpus is an Arrow table (position, id, text, encoding) plus the inputs that were skipped,
each with a reason, so that every input is accounted for: read = loaded + skipped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from ..errors import Interrupted, UsageError
from ..settings import Reading
from .collected import Corpus
from .decoding import nearly_utf8_note
from .kinds import Documents, Input, input_kind
from .lines import STDIN, check_names, read_names
from .spool import Spool


@dataclass
class Read:
    """The inputs as Python read them (a DuckDB run), before any engine opens: their size chooses
    the run's database (in memory or a file)."""

    raw: pa.Table | None  # the documents; None once registered (the engine's copy is the one kept)
    skipped: pa.Table
    latin1: int
    notes: list[str]
    spool: Spool | None = None  # the documents, when an input this large was written out as it was read

    @property
    def text_bytes(self) -> int:
        if self.spool is not None:
            return self.spool.text_bytes
        return 0 if self.raw is None else self.raw.column("text").nbytes

    @property
    def documents(self) -> int:
        if self.spool is not None:
            return self.spool.documents
        return 0 if self.raw is None else self.raw.num_rows

    def close(self) -> None:
        """Remove the spool's file, if any (once the engine no longer reads it); never fails."""
        if self.spool is not None:
            self.spool.close()


def read_by_python(reading: Reading, documents: pa.Table | None = None, folder: Path | None = None) -> Read:
    """reading.inputs, or the documents given, read by pyarrow into Arrow tables; an input past
    SPOOL_BYTES of text written out to a Parquet file in `folder` as it is read (see
    dedup.corpus.spool; None: the system's temporary folder)."""
    spool = Spool(folder)
    try:
        corpus = read_inputs(reading, spool, documents)
        raw: pa.Table | None = None
        if corpus.written:  # the rest goes where the rest went
            corpus.write_out()
        else:
            raw = corpus.to_arrow()
    except KeyboardInterrupt:
        spool.close()
        raise Interrupted("interrupted while reading the inputs; nothing was written") from None
    except BaseException:
        spool.close()
        raise
    # The texts as Python strings (~300 MB at 1M short documents) are freed on return.
    kept = spool if corpus.written else None
    return Read(raw, corpus.skipped_arrow(), corpus.latin1, list(corpus.notes), kept)


def read_inputs(reading: Reading, spool: Spool | None = None, documents: pa.Table | None = None) -> Corpus:
    """The corpus that reading.inputs name, in order, each input by the reader of its kind, read
    with the run's input options (written to the spool as it is read, if one is given); or the
    documents given in memory instead (dedup.documents.as_table: `text`, optional `id`, the
    --keep-by column if any)."""
    corpus = Corpus(spool=spool, keep_by=reading.keep_by_column)
    if reading.ids_file is not None:
        corpus.names = [*read_names(reading.ids_file)]
    if reading.strip_html:
        from ..cleanup import html_to_text  # html.parser only for --strip-html

        corpus.text_map = html_to_text
    inputs, lines = reading.inputs, reading.lines
    if documents is not None:
        kinds: list[Input] = [Documents(table=documents)]
    else:
        if inputs.count(STDIN) > 1:
            raise UsageError("`-` (standard input) can be given once")
        check_distinct_inputs(inputs)
        kinds = [input_kind(path, lines) for path in inputs]
    for kind in kinds:
        if corpus.keep_by is not None:
            kind.check_keep_by(corpus.keep_by)
        kind.check_readable()
        kind.read(corpus, reading, prefixed=len(kinds) > 1)
    corpus.check_unique()
    if corpus.nearly_utf8:
        corpus.notes.append(nearly_utf8_note(corpus.nearly_utf8))
    if reading.ids_file is not None:
        check_names(corpus, reading.ids_file)
    return corpus


def check_distinct_inputs(inputs: Iterable[Path]) -> None:
    """Refuse an input that is another one spelled otherwise (`c` and `/abs/c`, a symlink to it, or
    `C` on a case-insensitive disk) or lies inside another: its documents would be read twice under
    two ids, each paired with itself at Jaccard 1 (acting on such pairs deletes the only copy).
    Files are compared by device and inode. Paths that are not local (a Spark input on HDFS) are
    not checked."""
    seen: list[tuple[Path, tuple[int, int], list[tuple[int, int]]]] = []
    for path in inputs:
        if path == STDIN or not path.exists():
            continue
        identity = _identity(path)
        folders = [_identity(parent) for parent in path.resolve().parents]  # the folders it lies in
        for earlier, earlier_identity, earlier_folders in seen:
            if identity == earlier_identity:
                raise UsageError(f"inputs {earlier} and {path} are the same {_kind(path)}: give it once, not twice")
            if earlier_identity in folders or identity in earlier_folders:
                inner, outer = (path, earlier) if earlier_identity in folders else (earlier, path)
                raise UsageError(
                    f"input {inner} is inside input {outer}: its documents would be read twice; give one of them"
                )
        seen.append((path, identity, folders))


def _identity(path: Path) -> tuple[int, int]:
    status = path.stat()
    return status.st_dev, status.st_ino


def _kind(path: Path) -> str:
    return "folder" if path.is_dir() else "file"
