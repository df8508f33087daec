"""Turning user inputs (folders, line files, tables) into one table of documents.

A corpus is an Arrow table (position, id, text, encoding) plus the inputs that were skipped,
each with a reason, so that every input is accounted for: read = loaded + skipped.
"""

from __future__ import annotations

import math
import os
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, NamedTuple

import pyarrow as pa

from ..errors import InputError, Interrupted, UsageError, first_line
from ..names import escaped, is_utf8, unescaped
from ..settings import Settings
from .boms import BINARY_SKIPPED, BINARY_SNIFF_BYTES, UTF16_SKIPPED, is_utf16, refuse_utf16
from .spool import SPOOL_BYTES, Spool
from .walk import files_below, walk

# A table's format by its extension; csv, tsv and jsonl may be gzip-compressed (`.csv.gz`).
TABLE_FORMATS = {".parquet": "parquet", ".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
COMPRESSED = (".gz",)
STDIN = Path("-")
UTF8_BOM = b"\xef\xbb\xbf"


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

    def add(self, doc_id: object, text: str, encoding: str = "utf-8") -> None:
        self._write_out_if_full()
        self.ids.append(doc_id)
        self.pending.append(text)
        self.encodings.append(encoding)
        self.held_bytes += len(text)

    def add_texts(self, ids: list[object], texts: pa.ChunkedArray, encodings: list[str] | None = None) -> None:
        """A table's documents: `texts` UTF-8 strings (checked), no NULLs, one per id; each one's
        encoding if any was decoded as Latin-1 (see decoded_cells)."""
        self._write_out_if_full()
        self._flush()
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
            _check_unique(self.ids)

    def _write_out_if_full(self) -> None:
        if self.spool is not None and self.held_bytes >= SPOOL_BYTES:
            self.write_out()

    def write_out(self) -> None:
        """Write the documents held to the spool and forget them."""
        assert self.spool is not None
        self.spool.write(self.to_arrow())
        self.written_latin1 = self.latin1
        self.ids, self.encodings, self.text_chunks, self.pending, self.held_bytes = [], [], [], [], 0

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
        table = pa.table(
            {
                "position": pa.array(range(self.written + 1, self.documents + 1), pa.int64()),
                "id": ids,
                "text": texts,
                "encoding": pa.array(self.encodings, pa.string()),
            }
        )
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


@dataclass
class Read:
    """The inputs as Python read them (a DuckDB run), before any engine opens: their size chooses
    the run's database (in memory or a file)."""

    raw: pa.Table | None  # the documents; None once registered (the engine's copy is the one kept)
    skipped: pa.Table
    latin1: int
    notes: list[str]
    started: float  # time.perf_counter() when reading began
    spool: Spool | None = None  # the documents, when an input this large was written out as it was read

    @property
    def text_bytes(self) -> int:
        if self.spool is not None:
            return self.spool.text_bytes
        return 0 if self.raw is None else self.raw.column("text").nbytes

    def close(self) -> None:
        """Remove the spool's file, if any (once the engine no longer reads it); never fails."""
        if self.spool is not None:
            self.spool.close()


def read_by_python(settings: Settings, documents: pa.Table | None = None) -> Read:
    """settings.inputs, or the documents given, read by pyarrow into Arrow tables; an input past
    SPOOL_BYTES of text written out to a Parquet file as it is read (see dedup.corpus.spool)."""
    started = time.perf_counter()
    folder = spool_folder(settings)
    spool = Spool(folder)
    try:
        corpus = read_inputs(settings, spool) if documents is None else read_documents(documents, settings.strip_html)
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
    return Read(raw, corpus.skipped_arrow(), corpus.latin1, list(corpus.notes), started, kept)


def spool_folder(settings: Settings) -> Path | None:
    """Where a large input is written as it is read: --temp-dir, else beside --db, else the system's
    temporary folder (as the engine spills)."""
    if settings.temp_dir is not None:
        return settings.temp_dir
    return settings.db.parent if settings.db is not None else None


def decode(data: bytes) -> tuple[str, str]:
    """UTF-8 (a leading BOM dropped); text that is not valid UTF-8 is read as Latin-1.

    Latin-1 maps every byte to one character, so nothing is lost and the legacy 8-bit files
    common in old corpora (newsgroups, cp1252 exports) keep their accented letters readable.
    """
    if data.startswith(UTF8_BOM):
        data = data[len(UTF8_BOM) :]
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def read_inputs(settings: Settings, spool: Spool | None = None) -> Corpus:
    """The corpus that settings.inputs name, read with the run's input options (written to the
    spool as it is read, if one is given)."""
    corpus = Corpus(spool=spool)
    if settings.ids_file is not None:
        corpus.names = read_names(settings.ids_file)
    if settings.strip_html:
        from ..cleanup import html_to_text  # html.parser only for --strip-html

        corpus.text_map = html_to_text
    read_corpus(
        settings.inputs,
        lines=settings.lines,
        id_column=settings.id_column,
        text_column=settings.text_column,
        include_hidden=settings.include_hidden,
        delimiter=settings.delimiter,
        follow_links=settings.follow_links,
        corpus=corpus,
    )
    if settings.ids_file is not None:
        check_names(corpus, settings.ids_file)
    return corpus


def read_corpus(
    inputs: Iterable[Path],
    *,
    lines: bool = False,
    id_column: str | None = None,
    text_column: str = "text",
    include_hidden: bool = False,
    delimiter: str | None = None,
    follow_links: bool = False,
    corpus: Corpus | None = None,
) -> Corpus:
    inputs = list(inputs)
    corpus = corpus if corpus is not None else Corpus()
    prefixed = len(inputs) > 1
    if inputs.count(STDIN) > 1:
        raise UsageError("`-` (standard input) can be given once")
    check_distinct_inputs(inputs)
    for path in inputs:
        if path == STDIN:  # one document per line, as --lines reads a file
            _read_lines(corpus, path, prefix="-" if prefixed else None, data=sys.stdin.buffer.read())
            continue
        if not path.exists() and not path.is_symlink():
            raise UsageError(f"input not found: {path}")
        check_readable_kind(path)
        if is_table(path, lines):
            _read_table(
                corpus, path, id_column, text_column, prefix=path_id(path) if prefixed else None, delimiter=delimiter
            )
        elif path.is_dir():
            _read_folder(corpus, path, path if prefixed else None, include_hidden, follow_links)
        elif lines:
            _read_lines(corpus, path, prefix=path_id(path) if prefixed else None)
        else:
            _read_file(corpus, path, path_id(path))
            _note_many_lines(corpus, path)
    corpus.check_unique()
    if corpus.nearly_utf8:
        corpus.notes.append(nearly_utf8_note(corpus.nearly_utf8))
    return corpus


def read_names(ids_file: Path) -> list[object]:
    """--ids FILE: the lines of FILE (UTF-8, \\n or \\r\\n line ends), the ids of one --lines input's
    documents in order (checked against it by check_names once it is read)."""
    try:
        data = ids_file.read_bytes()
    except OSError as error:
        raise UsageError(f"cannot read --ids {ids_file}: {error.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"--ids {ids_file} is not UTF-8 text") from None
    ids: list[object] = [line.removesuffix("\r") for line in text.split("\n")]
    if ids and ids[-1] == "":
        ids.pop()
    return ids


def check_names(corpus: Corpus, ids_file: Path) -> None:
    """One id per document, none empty, each once; a count that differs is an error."""
    ids = corpus.names
    assert ids is not None
    if len(ids) != corpus.documents:
        raise InputError(f"--ids {ids_file} has {len(ids):,} lines, the input {corpus.documents:,}: one id per line")
    if any(doc_id == "" for doc_id in ids):
        raise InputError(f"--ids {ids_file}: line {ids.index('') + 1} is empty; every document needs an id")
    _check_unique(ids)


def check_readable_kind(path: Path) -> None:
    """Refuse a device or a socket given as an input (`/dev/zero` was read until memory ran out);
    a named pipe is read as a file (`<(zcat docs.gz)`), as standard input is."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return  # a broken link: reported where it is read
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
        kind = "socket" if stat.S_ISSOCK(mode) else "device"
        raise UsageError(f"input {path} is a {kind}, not a file or folder: give files, folders, tables or -")


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


MANY_LINES = 10  # a file given alone with this many lines was probably meant as one document per line


def _note_many_lines(corpus: Corpus, path: Path) -> None:
    if not corpus.ids or corpus.ids[-1] != path_id(path):
        return  # skipped (binary, unreadable): the summary lists it already
    if path.suffix.lower() == ".json":  # JSON lines are often named .json (Hugging Face datasets)
        corpus.notes.append(
            f"1 document from {path}, read as text: name a JSON lines file .jsonl to read it as a table "
            "(a JSON array first through jq -c '.[]')"
        )
        return
    text = corpus.last_text()
    end = "\n" if "\n" in text or "\r" not in text else "\r"
    lines = text.count(end) + (not text.endswith(end))
    if lines >= MANY_LINES:
        corpus.notes.append(f"1 document from {path}, a file of {lines:,} lines: use --lines for one document per line")


def table_format(path: Path) -> str | None:
    """parquet, csv, tsv or jsonl for a table (by extension, `.gz` allowed except for Parquet; a
    folder named *.parquet or holding only .parquet files is a Parquet dataset); None otherwise."""
    if path == STDIN:
        return None
    if path.is_dir():
        if path.suffix.lower() == ".parquet":
            return "parquet"
        files = [f for f in files_below(path) if f.is_file() and not f.name.startswith((".", "_"))]
        return "parquet" if files and all(f.suffix.lower() == ".parquet" for f in files) else None
    suffixes = [suffix.lower() for suffix in path.suffixes[-2:]]
    if suffixes and suffixes[-1] in COMPRESSED:
        kind = TABLE_FORMATS.get(suffixes[0]) if len(suffixes) == 2 else None
        return kind if kind != "parquet" else None
    return TABLE_FORMATS.get(path.suffix.lower())


def is_table(path: Path, lines: bool = False) -> bool:
    """Whether `path` is read as a table (so --id-column and --text-column apply to it)."""
    return not lines and table_format(path) is not None


def check_column_options(
    inputs: Iterable[Path],
    lines: bool,
    id_column: str | None,
    text_column: str | None,
    delimiter: str | None = None,
) -> None:
    """--id-column/--text-column name a table's columns, --delimiter a CSV's separator: refuse them
    when no input is such a table."""
    inputs = list(inputs)
    if delimiter is not None:
        if len(delimiter) != 1:
            raise UsageError(f"--delimiter must be one character (\\t for a tab), got {delimiter!r}")
        if not any(table_format(path) in ("csv", "tsv") and not lines for path in inputs):
            raise UsageError("--delimiter applies to .csv and .tsv tables; no input is one")
    given = [name for name, value in (("--id-column", id_column), ("--text-column", text_column)) if value is not None]
    if given and not any(is_table(path, lines) for path in inputs):
        kind = "--lines files" if lines else "folders and text files"
        verb = "apply" if len(given) > 1 else "applies"
        raise UsageError(f"{' and '.join(given)} {verb} to tables (.parquet, .csv, .jsonl); these inputs are {kind}")


def _check_unique(ids: list[object]) -> None:
    seen: set[object] = set()
    for doc_id in ids:
        if doc_id in seen:
            raise duplicate_id(doc_id)
        seen.add(doc_id)


def duplicate_id(doc_id: object) -> InputError:
    """The error for an id that two documents share (both engines)."""
    return InputError(f"duplicate document id {doc_id!r}: ids must be unique")


def nan_ids(path: str, name: str, count: int) -> InputError:
    """The error for NaN ids (both engines): NaN equals nothing, not even NaN, so two NaN ids passed
    the uniqueness check and gave two documents named "nan"."""
    return InputError(f"{path}: id column {name!r} has {count} NaN (not a number) values; NaN cannot name a document")


OUTSIDE_LINK = "symlink to a file outside the input (not followed; --follow-links reads it)"
FOLDER_LINK = "symlink to a folder (not followed)"


def walk_folder(root: Path, include_hidden: bool, follow_links: bool = False) -> Iterator[tuple[str, Path, str | None]]:
    """(relative posix path, path, reason to skip or None) for everything below root, sorted.
    A symlink to a file outside root is skipped unless follow_links (a link to /etc/passwd was
    read, and copied by --write-deduplicated); a symlink to a folder is never entered."""
    found: list[tuple[str, Path, str | None]] = []
    inside = root.resolve()

    def onerror(error: OSError) -> None:
        where = Path(error.filename) if error.filename else root
        found.append((_relative(where, root), where, f"unreadable: {error.strerror}"))

    for base, dirnames, filenames in walk(root, onerror=onerror):
        kept = []
        for name in dirnames:
            sub = base / name
            if name.startswith(".") and not include_hidden:
                found.append((_relative(sub, root) + "/", sub, "hidden folder"))
            elif sub.is_symlink():
                found.append((_relative(sub, root) + "/", sub, FOLDER_LINK))
            else:
                kept.append(name)
        dirnames[:] = kept
        for name in filenames:
            path = base / name
            reason = None
            if name.startswith(".") and not include_hidden:
                reason = "hidden file"
            elif not path.exists():
                reason = "broken symlink"
            elif not path.is_file():
                reason = "not a regular file"
            elif not follow_links and path.is_symlink() and inside not in path.resolve().parents:
                reason = OUTSIDE_LINK
            found.append((_relative(path, root), path, reason))
    return iter(sorted(found, key=lambda item: item[0]))


def _relative(path: Path, root: Path) -> str:
    return path_id(path.relative_to(root))


def path_id(path: Path) -> str:
    """A path as a document id: the bytes of a name that are not UTF-8 (held by Python as surrogate
    escapes, which Arrow cannot store) written as \\xNN, as Python's backslashreplace shows them."""
    return escaped(path.as_posix())


def id_path(text: str) -> Path:
    """The path that path_id wrote as `text`."""
    return Path(unescaped(text))


def _read_folder(
    corpus: Corpus, root: Path, prefix: Path | None, include_hidden: bool, follow_links: bool = False
) -> None:
    for relative, path, reason in walk_folder(root, include_hidden, follow_links):
        doc_id = path_id(prefix / relative) if prefix is not None else relative
        if reason is not None:
            corpus.skipped.append(Skipped(doc_id, reason))
            continue
        _read_file(corpus, path, doc_id)


def _read_file(corpus: Corpus, path: Path, doc_id: str) -> None:
    try:
        data = path.read_bytes()
    except OSError as error:
        corpus.skipped.append(Skipped(doc_id, f"unreadable: {error.strerror}"))
        return
    if b"\x00" in data[:BINARY_SNIFF_BYTES]:
        reason = UTF16_SKIPPED if is_utf16(data) else BINARY_SKIPPED
        corpus.skipped.append(Skipped(doc_id, reason))
        return
    text, encoding = decode(data)
    corpus.add(doc_id, text, encoding)
    if encoding == "latin-1":
        stray = invalid_utf8_bytes(data)
        if stray is not None and stray <= NEARLY_UTF8:
            corpus.nearly_utf8.append((doc_id, stray))


# A file that is UTF-8 (with letters beyond ASCII) but for at most this many bytes is named in a
# note: read whole as Latin-1 (as both engines read a file that is not UTF-8), its non-ASCII letters
# differ from those of a clean UTF-8 copy, which it then misses (J = 0.117 for one stray byte).
NEARLY_UTF8 = 16


def invalid_utf8_bytes(data: bytes) -> int | None:
    """How many bytes of `data` are not part of valid UTF-8, when the rest holds UTF-8 letters
    beyond ASCII (a mixed file); None for a file with none (ASCII and a few cp1252 quotes: Latin-1
    text, rightly read so)."""
    valid = data.decode("utf-8", "ignore").encode("utf-8")
    if valid.isascii():
        return None
    return len(data) - len(valid)


def nearly_utf8_note(found: list[tuple[object, int]]) -> str:
    doc_id, stray = found[0]
    more = f" and {len(found) - 1} more" if len(found) > 1 else ""
    return (
        f"{doc_id}{more}: UTF-8 but for {stray} byte{'s' if stray > 1 else ''}, so read whole as Latin-1 (its "
        "accented letters then differ from a UTF-8 copy's); fix or drop the stray bytes (iconv -c) to compare them"
    )


def line_break(data: bytes) -> bytes:
    """What ends a line: \\n (a \\r before it is dropped from the line); \\r in a file that holds
    \\r and no \\n at all (classic Mac OS), which was read as one line."""
    return b"\r" if b"\r" in data and b"\n" not in data else b"\n"


def mac_lines_note(path: Path | str) -> str:
    """The note for a --lines file split at \\r (both engines)."""
    return f"{path}: no \\n in the file, so its lines were split at \\r (classic Mac OS line ends)"


def _read_lines(corpus: Corpus, path: Path, prefix: str | None, data: bytes | None = None) -> None:
    """One document per line: split on \\n only (U+2028, U+0085 stay inside lines), strip \\r; split on \\r
    in a file without any \\n (see line_break). A file with \\n is read line by line (a run holds
    what it has not written out, see dedup.corpus.spool); `data`, standard input, is read whole."""
    if data is None:
        try:
            with path.open("rb") as file:
                if file.seekable() and _has_newline(file):
                    file.seek(0)
                    _read_line_stream(corpus, path, prefix, file)
                    return
                if file.seekable():
                    file.seek(0)
                data = file.read()  # no line feed in it, or a named pipe (read once)
        except OSError as error:
            raise InputError(f"cannot read {path}: {error.strerror}") from None
    _split_lines(corpus, path, prefix, data)


def _has_newline(file: BinaryIO) -> bool:
    while chunk := file.read(2**20):
        if b"\n" in chunk:
            return True
    return False


def _read_line_stream(corpus: Corpus, path: Path, prefix: str | None, file: BinaryIO) -> None:
    """_split_lines for a file that holds \\n, line by line: the same documents."""
    refuse_binary_lines(path, file.read(BINARY_SNIFF_BYTES))
    file.seek(0)
    for number, line in enumerate(file, start=1):
        raw = line.removesuffix(b"\n")
        _add_line(corpus, prefix, number, raw.removeprefix(UTF8_BOM) if number == 1 else raw)


def _split_lines(corpus: Corpus, path: Path, prefix: str | None, data: bytes) -> None:
    refuse_binary_lines(path, data)
    if data.startswith(UTF8_BOM):
        data = data[len(UTF8_BOM) :]
    separator = line_break(data)
    if separator == b"\r":
        corpus.notes.append(mac_lines_note(path))
    raw_lines = data.split(separator)
    if raw_lines and raw_lines[-1] == b"":
        raw_lines.pop()  # a final newline ends the last line; it does not start an empty one
    for number, raw in enumerate(raw_lines, start=1):
        _add_line(corpus, prefix, number, raw)


def _add_line(corpus: Corpus, prefix: str | None, number: int, raw: bytes) -> None:
    """Line `number` (its \\n taken off) as a document: a \\r before the line end dropped."""
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    text, encoding = decode(raw)
    corpus.add(f"{prefix}:{number}" if prefix is not None else number, text, encoding)


def refuse_binary_lines(path: Path | str, head: bytes) -> None:
    """A --lines file whose first BINARY_SNIFF_BYTES look binary is refused (both engines)."""
    refuse_utf16(path, head)
    if _looks_binary(head):
        raise InputError(f"{path} is a binary file, not lines of text: --lines reads text files (tables without it)")


BINARY_MAGIC = (b"PAR1", b"\x1f\x8b", b"PK\x03\x04", b"\x89PNG", b"%PDF", b"\xff\xd8\xff")


def _looks_binary(data: bytes) -> bool:
    """For --lines, where a stray NUL inside a line is kept: a known binary format's magic bytes
    (Parquet, gzip, zip, PNG, PDF, JPEG, a DuckDB database) or over 5% NUL bytes in the first 8000."""
    head = data[:BINARY_SNIFF_BYTES]
    return head.startswith(BINARY_MAGIC) or head[8:12] == b"DUCK" or head.count(0) > len(head) / 20


def read_documents(table: pa.Table, strip_html: bool = False) -> Corpus:
    """The corpus of documents given in memory (dedup.documents.as_table: `text`, optional `id`)."""
    corpus = Corpus()
    if strip_html:
        from ..cleanup import html_to_text  # html.parser only for --strip-html

        corpus.text_map = html_to_text
    _read_arrow(corpus, table, "the documents", None, "text", None)
    corpus.check_unique()
    return corpus


def _read_table(
    corpus: Corpus,
    path: Path,
    id_column: str | None,
    text_column: str,
    prefix: str | None,
    delimiter: str | None = None,
) -> None:
    if path.is_file() and path.stat().st_size == 0:
        return  # a zero-byte .csv/.jsonl is an empty table: no columns to check, no rows to read
    dataset = list_dataset(path) if path.is_dir() else None
    if dataset is not None:
        corpus.skipped += dataset.skipped()
        check_dataset(path, dataset.files, text_column, id_column)
    kind = "parquet" if dataset is not None else table_format(path)  # a folder that is a table is a dataset
    latin1 = LATIN1_CELLS.get(kind or "", ())
    if kind == "jsonl":
        _read_json_lines(corpus, path, id_column, text_column, prefix)
        return
    rows = 0  # a table without an id column numbers its rows from 1 across its parts
    for table in table_parts(path, delimiter, dataset):
        _read_arrow(corpus, table, str(path), id_column, text_column, prefix, latin1, rows)
        rows += table.num_rows


def _read_json_lines(corpus: Corpus, path: Path, id_column: str | None, text_column: str, prefix: str | None) -> None:
    """A JSON lines file in parts of lines. A key missing from every line of a part is a column
    missing from that part: its id and text columns are those of the whole file, NULL where a
    line lacks them, as reading the file whole gives."""
    seen: dict[str, None] = {}  # the columns of the parts so far, in order
    kinds: dict[str, str] = {}  # the JSON type of the id and text values so far
    rows = 0
    for table in table_parts(path):
        if table.num_rows == 0:
            continue  # blank lines only
        names = table.column_names
        for name in (id_column or "id", text_column):
            if name in names:
                _check_json_kind(table.column(name), path, name, kinds, rows)
            elif name in seen or name == text_column:
                table = table.append_column(name, pa.nulls(table.num_rows))
        if id_column is None and "id" in names and rows and "id" not in seen:
            raise InputError(f"{path}: id column 'id' is missing from the first {rows:,} lines (NULL ids)")
        seen.update(dict.fromkeys(names))
        _check_json_ids(table, path, id_column or "id")
        _read_arrow(corpus, table, str(path), id_column, text_column, prefix, (), rows)
        rows += table.num_rows
    if rows and text_column not in seen:
        raise InputError(f"{path}: no text column {text_column!r}; columns are {', '.join(map(repr, seen)) or 'none'}")


def check_json_lines(path: Path, id_column: str | None, text_column: str, shown: str) -> None:
    """Read a JSON lines file through as the DuckDB engine reads it, keeping nothing, and refuse
    it as that engine does: a line pyarrow cannot parse (a lone surrogate escape), an id or text key
    whose values change type. For Spark's reader, which reads both (such values as text). `shown`:
    the file as the input named it."""
    kinds: dict[str, str] = {}
    rows = 0
    try:
        for table in _json_parts(path):
            for name in (id_column or "id", text_column):
                if name in table.column_names:
                    _check_json_kind(table.column(name), Path(shown), name, kinds, rows)
            rows += table.num_rows
    except (pa.ArrowInvalid, OSError, EOFError) as error:  # EOFError: a truncated .gz
        raise InputError(f"cannot read table {shown}: {first_line(error)}") from None


def _json_kind(kind: pa.DataType) -> str | None:
    """A column's JSON type as pyarrow names it in its errors (None: only nulls)."""
    if pa.types.is_null(kind):
        return None
    if pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind):
        return "number"
    if pa.types.is_boolean(kind):
        return "boolean"
    if pa.types.is_struct(kind):
        return "object"
    return "array" if pa.types.is_list(kind) else "string"


def _check_json_kind(column: pa.ChunkedArray, path: Path, name: str, kinds: dict[str, str], rows: int) -> None:
    """pyarrow refuses a key whose values change type within the lines it reads at once, not from
    one part of a file to the next: the same refusal, wherever the parts fall (and on Spark, whose
    reader would read the values as strings, through check_json_lines)."""
    import pyarrow.compute as pc

    kind = _json_kind(column.type)
    if kind is None:
        return
    first = kinds.setdefault(name, kind)
    if kind != first:
        row = rows + pc.index(pc.is_valid(column), True).as_py()  # counted from 0, as pyarrow does
        change = f"Column(/{name}) changed from {first} to {kind} in row {row}"
        raise InputError(f"cannot read table {path}: JSON parse error: {change}")


# A Parquet, CSV or JSON lines file is read in parts of about this much data (a run holds one
# part and what it has not yet written out, see dedup.corpus.spool); a Parquet part has at most
# PART_ROWS rows.
PART_BYTES = SPOOL_BYTES // 4
PART_ROWS = 65_536


def csv_delimiter(kind: str | None, given: str | None) -> str:
    """A CSV/TSV's field separator: --delimiter, else a comma, a tab for .tsv (both engines)."""
    return given or ("\t" if kind == "tsv" else ",")


def table_parts(path: Path, delimiter: str | None = None, dataset: DatasetListing | None = None) -> Iterator[pa.Table]:
    """A table's rows in parts: a CSV or TSV, a JSON lines file, a Parquet dataset folder (the files
    of `dataset` when the caller listed it) or file."""
    kind = "parquet" if dataset is not None else table_format(path)
    try:
        if kind in ("csv", "tsv"):
            yield from _csv_parts(path, csv_delimiter(kind, delimiter))
        elif kind == "jsonl":
            yield from _json_parts(path)
        elif path.is_dir():
            yield from _dataset_parts(path, (dataset or list_dataset(path)).files)
        else:
            yield from _parquet_parts(path)
    except (pa.ArrowInvalid, OSError, EOFError) as error:  # EOFError: a truncated .gz
        raise InputError(f"cannot read table {path}: {first_line(error)}") from None


def _json_parts(path: Path) -> Iterator[pa.Table]:
    """A JSON lines file (gzip-compressed by extension) in parts of whole lines, about PART_BYTES each."""
    import gzip

    with (gzip.open if path.suffix.lower() in COMPRESSED else open)(path, "rb") as file:
        refuse_utf16(path, file.read(BINARY_SNIFF_BYTES))
        file.seek(0)
        while lines := file.readlines(PART_BYTES):
            yield _load_json(b"".join(lines))


def _parquet_parts(path: Path) -> Iterator[pa.Table]:
    """A Parquet file's rows in parts of about PART_BYTES (at most PART_ROWS rows)."""
    import pyarrow.parquet as pq

    # pre_buffer (the default) caches the file's column chunks as it goes and frees them at the
    # end: reading 10M rows grew to 1.8 GB; without it, 0.5 GB and as fast
    with arrow_file(path) as source, pq.ParquetFile(source, pre_buffer=False) as parquet:
        metadata = parquet.metadata
        if metadata.num_rows == 0:
            yield parquet.schema_arrow.empty_table()
            return
        size = sum(metadata.row_group(i).total_byte_size for i in range(metadata.num_row_groups))
        rows = min(PART_ROWS, max(ARROW_BATCH_ROWS, metadata.num_rows * PART_BYTES // max(size, 1)))
        for batch in parquet.iter_batches(batch_size=rows):
            yield pa.Table.from_batches([batch])


def _dataset_parts(path: Path, files: list[str]) -> Iterator[pa.Table]:
    """A Parquet dataset folder's rows in parts of PART_ROWS, in the order and with the columns
    (hive partitions included) that pyarrow.parquet.read_table gives it whole."""
    import pyarrow.dataset as ds

    dataset = _open_dataset(path, files)
    scan = ds.ParquetFragmentScanOptions(pre_buffer=False)
    parts = 0
    for batch in dataset.to_batches(batch_size=PART_ROWS, fragment_scan_options=scan, batch_readahead=2):
        parts += 1
        yield pa.Table.from_batches([batch])
    if not parts:
        yield dataset.schema.empty_table()


class DatasetListing(NamedTuple):
    """A Parquet dataset folder as both engines read it, listed once: the files read, in path order,
    and what is left out, never silently (a path below the folder, with the reason)."""

    files: list[str]
    left_out: list[tuple[Path, str]]

    def skipped(self, shown: Callable[[Path], str] = path_id) -> list[Skipped]:
        """What is left out, as skipped inputs (a folder's name ending in /), each path as `shown`."""
        return [Skipped(shown(path) + ("/" if reason == FOLDER_LINK else ""), reason) for path, reason in self.left_out]


def _open_dataset(root: Path, files: list[str]) -> pa.dataset.Dataset:
    """A dataset folder's files (list_dataset) as one pyarrow dataset, with the hive partitions and
    their types (dictionaries) that pyarrow.parquet.read_table gives the folder."""
    import pyarrow.dataset as ds

    partitioning = ds.HivePartitioning.discover(infer_dictionary=True)
    return ds.dataset(files, format="parquet", partitioning=partitioning, partition_base_dir=str(root))


NOT_UTF8_PART = "not read: a Parquet dataset part whose path is not UTF-8 (neither engine can open it)"


def list_dataset(root: Path) -> DatasetListing:
    """A Parquet dataset folder's files as pyarrow's discovery lists them (names starting with . or _
    left out, at any depth) but for symlinked folders, which are not entered: pyarrow's and Spark's
    discovery followed them, so a `loop -> .` link read every file 40 times (40 copies of each
    document, paired with each other at 1.0). Left out, as skipped: such a link; a .parquet file
    under a . or _ name (Spark's `_SUCCESS`, `_temporary/`), which may hold documents; a broken
    symlink or a special file, which neither engine can read. Both engines, and --write-deduplicated."""
    files: list[str] = []
    left_out: list[tuple[Path, str]] = []
    for top, folders, others in walk(root):
        hidden = any(part.startswith((".", "_")) for part in top.relative_to(root).parts)
        for name in folders:
            if (top / name).is_symlink() and not hidden and not name.startswith((".", "_")):
                left_out.append((top / name, FOLDER_LINK))
        for name in others:
            path = top / name
            if hidden or name.startswith((".", "_")):
                if path.suffix == ".parquet" and path.is_file():
                    left_out.append((path, "not read: a Parquet dataset leaves out names starting with . or _"))
            elif not path.exists():
                left_out.append((path, "broken symlink"))
            elif not path.is_file():
                left_out.append((path, "not a regular file"))
            elif not is_utf8(path.as_posix()):  # Arrow's dataset (and Spark) open parts by UTF-8 name
                left_out.append((path, NOT_UTF8_PART))
            else:
                files.append(path.as_posix())
    return DatasetListing(sorted(files), sorted(left_out))


def check_dataset(
    root: Path, files: list[str], text_column: str, id_column: str | None, shown: Callable[[str], str] = str
) -> None:
    """Refuse a Parquet dataset whose part files the two engines would read otherwise (both engines
    run this check on the driver, reading each part's footer: ~0.2 ms a part). pyarrow reads every
    part as the first one's schema and Spark as the schema of a part it picks, so parts that differ
    in the text or id column (one lacks it) or in a column's type were read into other documents,
    dropped unsaid on Spark (4 rows of 7), or stopped the run with a traceback. So were parts under
    different partition folders (`k=1/` beside the root) and a partition key that is also a
    column. Types that read alike count as one: string, large_string, a dictionary of strings.
    shown: a part's name in a message (the Spark engine names parts as the input was given)."""
    import pyarrow.parquet as pq

    first: tuple[str, list[str]] | None = None
    kinds: dict[str, tuple[str, str]] = {}  # a column's type, and the first part that has it
    dataset = shown(str(root))
    for file in files:
        part = shown(file)
        try:
            schema = pq.read_schema(file)
        except (pa.ArrowException, OSError) as error:
            raise InputError(f"cannot read table {dataset}: {part}: {first_line(error)}") from None
        keys = [folder.split("=", 1)[0] for folder in Path(file).relative_to(root).parent.parts if "=" in folder]
        if clash := next((key for key in keys if key in schema.names), None):
            raise InputError(
                f"{dataset}: {part} has a column {clash!r} and lies in a partition folder of that name: "
                "which value is meant? (rename the column, or the folder)"
            )
        if first is None:
            first = (part, keys)
        elif keys != first[1]:
            raise InputError(
                f"{dataset}: its part files lie under different partition folders ({'/'.join(first[1]) or 'none'} for "
                f"{first[0]}, {'/'.join(keys) or 'none'} for {part}): write them with one partitioning"
            )
        for name in dict.fromkeys([text_column, id_column or "id", *schema.names]):  # read: in every part or none
            kind = _column_kind(schema, name)
            known, where = kinds.setdefault(name, (kind, part))
            if kind != known:
                raise InputError(
                    f"{dataset}: its part files disagree on column {name!r}: {known} in {where}, {kind} in {part} "
                    "(write the parts with one schema)"
                )


def _column_kind(schema: pa.Schema, name: str) -> str:
    """A column's type as the readers read it (string, large_string and a dictionary of strings are
    one), or `absent`."""
    if name not in schema.names:
        return "absent"
    kind = schema.field(name).type
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_string_view(kind):
        return "string"
    if pa.types.is_binary(kind) or pa.types.is_large_binary(kind) or pa.types.is_binary_view(kind):
        return "binary"
    return str(kind)


def _check_json_ids(table: pa.Table, path: Path, id_name: str) -> None:
    """pyarrow reads a JSON integer beyond the signed 64-bit range as a float, rounded (a uint64
    hash id 12345678901234567891 became 1.2345678901234567e+19): refused, never a renamed document."""
    if id_name not in table.column_names or not pa.types.is_floating(table.column(id_name).type):
        return
    for value in table.column(id_name).to_pylist():
        if value is not None and math.isfinite(value) and abs(value) >= 2**53 and value == int(value):
            raise InputError(
                f"{path}: id column {id_name!r} holds integers beyond 64 bits, read rounded (e.g. as {value!r}): "
                "write the ids as JSON strings"
            )


# Which columns of a table may hold cells that are not UTF-8, read as Latin-1 as a text file is:
# every cell of a CSV (it has no declared encoding: Latin-1 and cp1252 exports are common); the
# texts of a Parquet file (strings are UTF-8 by its spec, but a writer may not check). JSON is
# UTF-8 by definition (RFC 8259), and Spark's reader cannot give its bytes back: an error.
LATIN1_CELLS = {"csv": ("text", "id"), "tsv": ("text", "id"), "parquet": ("text",)}


def _read_arrow(
    corpus: Corpus,
    table: pa.Table,
    path: str,
    id_column: str | None,
    text_column: str,
    prefix: str | None,
    latin1: tuple[str, ...] = (),
    rows_before: int = 0,
) -> None:
    columns = table.column_names
    if text_column not in columns:
        raise InputError(
            f"{path}: no text column {text_column!r}; columns are {', '.join(map(repr, columns)) or 'none'}"
        )
    if id_column is not None and id_column not in columns:
        raise InputError(f"{path}: no id column {id_column!r}; columns are {', '.join(map(repr, columns)) or 'none'}")
    id_name = id_column if id_column is not None else ("id" if "id" in columns else None)
    for name in (text_column, id_name):
        if name is not None and columns.count(name) > 1:
            raise InputError(f"{path}: {columns.count(name)} columns are named {name!r}; which one is meant?")
    if "text" in latin1:
        texts, encodings = decoded_cells(table.column(text_column), path, "text", text_column)
    else:
        texts, encodings = decoded_column(table.column(text_column), path, "text", text_column), None
    if not (pa.types.is_string(texts.type) or pa.types.is_large_string(texts.type) or pa.types.is_null(texts.type)):
        raise InputError(f"{path}: text column {text_column!r} has type {texts.type}, expected strings")
    if id_name is not None:
        if "id" in latin1:
            ids = decoded_cells(table.column(id_name), path, "id", id_name)[0]
        else:
            ids = decoded_column(table.column(id_name), path, "id", id_name)
        if ids.null_count:
            raise InputError(f"{path}: id column {id_name!r} has {ids.null_count} empty (NULL) values")
        if pa.types.is_nested(ids.type):
            raise InputError(f"{path}: id column {id_name!r} has type {ids.type}; ids are numbers or strings")
        if pa.types.is_floating(ids.type):
            nans = sum(1 for value in ids.to_pylist() if value != value)
            if nans:
                raise nan_ids(path, id_name, nans)
        id_values = id_strings(ids, path, id_name).to_pylist()
    else:
        id_values = list(range(rows_before + 1, rows_before + table.num_rows + 1))
    if prefix is not None:
        id_values = [f"{prefix}:{doc_id}" for doc_id in id_values]
    if texts.null_count:
        present = texts.is_valid()
        kept = present.to_pylist()
        corpus.skipped.extend(Skipped(str(d), "text is NULL") for d, k in zip(id_values, kept, strict=True) if not k)
        id_values = [doc_id for doc_id, k in zip(id_values, kept, strict=True) if k]
        if encodings is not None:
            encodings = [encoding for encoding, k in zip(encodings, kept, strict=True) if k]
        texts = texts.filter(present)
    corpus.add_texts(id_values, texts, encodings)


def decoded_column(column: pa.ChunkedArray, path: str, role: str, name: str) -> pa.ChunkedArray:
    """A column's values as plain arrays: dictionary-encoded columns (a pandas category) decoded,
    string views as strings, bytes as UTF-8 text; text that is not valid UTF-8 is an error that
    names the column (Parquet and JSON readers do not check it)."""
    kind = column.type
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    if pa.types.is_string_view(kind) or pa.types.is_binary_view(kind) or pa.types.is_large_binary(kind):
        kind = pa.large_string()
    elif pa.types.is_binary(kind):
        kind = pa.string()
    try:
        column = column.cast(kind) if kind != column.type else column
        if pa.types.is_string(kind) or pa.types.is_large_string(kind):
            column.validate(full=True)
    except pa.ArrowInvalid:
        raise InputError(f"{path}: {role} column {name!r} holds text that is not valid UTF-8") from None
    return column


def id_strings(ids: pa.ChunkedArray, path: str, name: str) -> pa.ChunkedArray:
    """Ids that are neither integers nor strings (floats, decimals, dates, times, durations,
    booleans) as Arrow writes them as text, as the run names them. Through Python values they
    changed: a float32 0.1 became "0.10000000149011612", a duration of 1 s "1000000"."""
    kind = ids.type
    if pa.types.is_integer(kind) or pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return ids
    try:
        return ids.cast(pa.string())
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid):
        raise InputError(f"{path}: id column {name!r} has type {kind}; ids are numbers or strings") from None


def decoded_cells(column: pa.ChunkedArray, path: str, role: str, name: str) -> tuple[pa.ChunkedArray, list[str] | None]:
    """A column as decoded_column reads it, except that a cell that is not valid UTF-8 is read as
    Latin-1, as a text file or a line is (see decode); with each cell's encoding when one was."""
    try:
        return decoded_column(column, path, role, name), None
    except InputError:
        pass
    if pa.types.is_dictionary(column.type):
        column = pa.chunked_array([chunk.dictionary_decode() for chunk in column.chunks], column.type.value_type)
    texts: list[str | None] = []
    encodings: list[str] = []
    for value in column.cast(pa.large_binary()).to_pylist():
        try:
            texts.append(None if value is None else value.decode("utf-8"))
            encodings.append("utf-8")
        except UnicodeDecodeError:
            texts.append(value.decode("latin-1"))
            encodings.append("latin-1")
    array = pa.array(texts, pa.string())  # a ChunkedArray past 2 GiB of text
    return (array if isinstance(array, pa.ChunkedArray) else pa.chunked_array([array])), encodings


def csv_cells_as_text(table: pa.Table, path: Path) -> pa.Table:
    """A CSV read with cells that are not UTF-8 (read as bytes, see _csv_parts) with every cell as
    the run reads it: UTF-8, else Latin-1."""
    columns = [
        decoded_cells(column, str(path), "a", name)[0] if pa.types.is_binary(column.type) else column
        for name, column in zip(table.column_names, table.columns, strict=True)
    ]
    return pa.table(columns, names=table.column_names)


def load_table(path: Path, delimiter: str | None = None) -> pa.Table:
    kind = table_format(path)
    try:
        if kind == "parquet":  # a file, or a folder of files (a dataset), read in path order
            import pyarrow.parquet as pq

            if path.is_file():  # without pyarrow.dataset, which read_table imports (~0.1 s)
                with arrow_file(path) as source, pq.ParquetFile(source) as parquet:
                    return parquet.read()
            return _open_dataset(path, list_dataset(path).files).to_table()
        if kind in ("csv", "tsv"):  # its cells as bytes (csv_cells_as_text)
            return pa.concat_tables(list(table_parts(path, delimiter)))
        return _load_json(path)
    except (pa.ArrowInvalid, OSError) as error:
        raise InputError(f"cannot read table {path}: {first_line(error)}") from None


def arrow_file(path: Path) -> pa.NativeFile:
    """A file opened for Arrow by its bytes, so that a name that is not UTF-8 opens too (Arrow takes
    a path as UTF-8 text and stopped on it with UnicodeEncodeError); gzip-compressed by extension,
    as Arrow's readers decompress a path."""
    file = pa.OSFile(os.fsencode(path))
    return pa.CompressedInputStream(file, "gzip") if path.suffix.lower() in COMPRESSED else file


def _load_json(source: Path | bytes) -> pa.Table:
    """JSON lines (a file, or lines of one), where a string stays a string: pyarrow reads one that
    looks like a date or a time as a timestamp (the id "2024-01-01" became 2024-01-01
    00:00:00.000000), so a table with such columns is read again with them declared strings."""
    import pyarrow.json as pjson

    def read(options: pjson.ParseOptions | None = None) -> pa.Table:
        if isinstance(source, bytes):
            return pjson.read_json(pa.BufferReader(source), parse_options=options)
        with arrow_file(source) as file:
            return pjson.read_json(file, parse_options=options)

    table = read()
    schema = pa.schema([field.with_type(_timestamps_as_strings(field.type)) for field in table.schema])
    if schema == table.schema:
        return table
    return read(pjson.ParseOptions(explicit_schema=schema))


def _timestamps_as_strings(kind: pa.DataType) -> pa.DataType:
    if pa.types.is_temporal(kind):  # JSON has no dates or times: pyarrow inferred it from strings
        return pa.string()
    if pa.types.is_struct(kind):
        return pa.struct(
            [kind.field(i).with_type(_timestamps_as_strings(kind.field(i).type)) for i in range(kind.num_fields)]
        )
    if pa.types.is_list(kind):
        return pa.list_(kind.value_field.with_type(_timestamps_as_strings(kind.value_type)))
    return kind


def _csv_parts(path: Path, delimiter: str) -> Iterator[pa.Table]:
    """A CSV/TSV (gzip-compressed by extension) in parts of about PART_BYTES, every cell as the
    bytes it holds; a row with the wrong number of fields is an error that names its line
    (dedup.corpus.csv_check, before a cell is read), never a row silently dropped. Inferred types
    turned the id 007 into 7, a 20-digit id into a rounded float, a date into a timestamp and the
    text NA into NULL, and would write them back so in --write-deduplicated; empty cells are empty
    strings. The bytes are decoded as a text file is (decoded_cells: UTF-8, else Latin-1); the
    separators and quotes are ASCII."""
    import pyarrow.csv as pcsv

    from .csv_check import check_csv

    with path.open("rb") as data:  # what both engines refuse alike, before a cell is read
        check_csv(str(path), data, delimiter, compressed=path.suffix.lower() in COMPRESSED)
    options = pcsv.ParseOptions(delimiter=delimiter, newlines_in_values=True)  # a bad row: ArrowInvalid
    with arrow_file(path) as source, pcsv.open_csv(source, parse_options=options) as reader:
        names = reader.schema.names
    convert = pcsv.ConvertOptions(column_types=dict.fromkeys(names, pa.binary()))
    blocks = pcsv.ReadOptions(block_size=PART_BYTES)
    with (
        arrow_file(path) as source,
        pcsv.open_csv(source, read_options=blocks, parse_options=options, convert_options=convert) as reader,
    ):
        schema, parts = reader.schema, 0
        for batch in reader:
            parts += 1
            yield pa.Table.from_batches([batch])
    if not parts:
        yield schema.empty_table()
