"""Files of one document per line (--lines, standard input) and the --ids file that names their
lines: where a line ends, what a binary file given as lines is."""

from __future__ import annotations

import stat
import sys
from io import BufferedReader
from pathlib import Path
from typing import BinaryIO

from ..errors import InputError, UsageError
from ..formats import Compression, compressed_as, compression_of
from .collected import Corpus, check_unique
from .decoding import BINARY_SNIFF_BYTES, UTF8_BOM, decode, refuse_utf16

STDIN = Path("-")


def read_once(path: Path) -> bool:
    """Standard input or a named pipe (`<(zcat docs.gz)`): what is read from it is gone, so a
    second reader (`eval`'s exact run, the deduplicated copy) would find it empty."""
    try:
        return path == STDIN or stat.S_ISFIFO(path.stat().st_mode)
    except OSError:
        return False  # missing: the reader says so


def read_names(ids_file: Path, option: str = "--ids") -> list[str]:
    """--ids FILE: the lines of FILE (UTF-8, \\n or \\r\\n line ends), the ids of one --lines input's
    documents in order (checked against it by check_names once it is read); `-` is standard input
    (dedup remove --ids-from, which reads ids written one per line)."""
    try:
        data = sys.stdin.buffer.read() if str(ids_file) == "-" else ids_file.read_bytes()
    except OSError as error:
        raise UsageError(f"cannot read {option} {ids_file}: {error.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{option} {ids_file} is not UTF-8 text") from None
    ids = [line.removesuffix("\r") for line in text.split("\n")]
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
    check_unique(ids)


def line_break(data: bytes) -> bytes:
    """What ends a line: \\n (a \\r before it is dropped from the line); \\r in a file that holds
    \\r and no \\n at all (classic Mac OS), which was read as one line."""
    return b"\r" if b"\r" in data and b"\n" not in data else b"\n"


def mac_lines_note(path: Path | str) -> str:
    """The note for a --lines file split at \\r (both engines)."""
    return f"{path}: no \\n in the file, so its lines were split at \\r (classic Mac OS line ends)"


def read_lines(corpus: Corpus, path: Path, prefix: str | None, data: bytes | None = None) -> None:
    """One document per line: split on \\n only (U+2028, U+0085 stay inside lines), strip \\r; split on \\r
    in a file without any \\n (see line_break). A file with \\n is read line by line (a run holds
    what it has not written out, see dedup.corpus.spool); `data`, standard input, is read whole."""
    if data is None:
        compression = compression_of(path)
        try:
            if compression is not None:  # decompressed twice: to find a \n, then line by line
                with compression.reader(path) as file:
                    has_newline = _has_newline(file)
                if has_newline:
                    with compression.reader(path) as file:
                        _read_line_stream(corpus, path, prefix, file)
                    return
                with compression.reader(path) as file:
                    data = file.read()
            else:
                with path.open("rb") as file:
                    if file.seekable() and _has_newline(file):
                        file.seek(0)
                        _read_line_stream(corpus, path, prefix, file)
                        return
                    if file.seekable():
                        file.seek(0)
                    data = file.read()  # no line feed in it, or a named pipe (read once)
        except OSError as error:
            if error.strerror or compression is None:
                raise InputError(f"cannot read {path}: {error.strerror or error}") from None
            raise _damaged(path, compression, error) from None
    _split_lines(corpus, path, prefix, data)


def _damaged(path: Path | str, compression: Compression, error: OSError) -> InputError:
    return InputError(f"cannot read {path}: {compression.damaged(error)}")


def check_compressed_lines(path: str, data: BinaryIO, compression: Compression) -> None:
    """Refuse, as read_lines does, a compressed --lines file that is binary once decompressed, or
    damaged or cut short, reading it through (for Spark's reader, which decompresses it itself)."""
    try:
        stream = compression.decompressing(data)
        refuse_binary_lines(path, stream.read(BINARY_SNIFF_BYTES))
        while stream.read(2**20):
            pass
    except OSError as error:
        raise _damaged(path, compression, error) from None


def _has_newline(file: BinaryIO) -> bool:
    while chunk := file.read(2**20):
        if b"\n" in chunk:
            return True
    return False


def _read_line_stream(corpus: Corpus, path: Path, prefix: str | None, file: BufferedReader) -> None:
    """_split_lines for a file that holds \\n, line by line: the same documents."""
    refuse_binary_lines(path, file.peek(BINARY_SNIFF_BYTES)[:BINARY_SNIFF_BYTES])
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
    compression = compressed_as(head)
    if compression is not None:
        raise InputError(
            f"{path} is {compression.codec}-compressed: name it {Path(path).name}{compression.suffixes[0]} "
            f"to read it decompressed, or give <({compression.tool} {path})"
        )
    if _looks_binary(head):
        raise InputError(f"{path} is a binary file, not lines of text: --lines reads text files (tables without it)")


BINARY_MAGIC = (b"PAR1", b"\x1f\x8b", b"PK\x03\x04", b"\x89PNG", b"%PDF", b"\xff\xd8\xff")


def _looks_binary(data: bytes) -> bool:
    """For --lines, where a stray NUL inside a line is kept: a known binary format's magic bytes
    (Parquet, gzip, zip, PNG, PDF, JPEG, a DuckDB database) or over 5% NUL bytes in the first 8000."""
    head = data[:BINARY_SNIFF_BYTES]
    return head.startswith(BINARY_MAGIC) or head[8:12] == b"DUCK" or head.count(0) > len(head) / 20
