"""The strict reading of a CSV or TSV that both engines apply before they read its cells, so that
they read the same rows or refuse the same file with the same line.

pyarrow (the DuckDB engine) and Spark's CSV reader (univocity) part ways on malformed files: a
quote that does not end at a separator (`"abc"def` was `abcdef` on one and `"abc"def` on the
other), a quote left open to the end of the file (refused on one, a document on the other), a row
with too few or too many fields (refused on one, padded or cut on the other), line breaks that
change within the file (Spark takes the first line's as the only one). A file passing this check
is read alike by both; one that does not is refused on both, naming its line.

The check is Python's csv module in strict mode over the file as a stream (about 90 MB/s, in
constant memory), on the machine that runs dedup: on Spark, the driver reads the file once more.
"""

from __future__ import annotations

import csv
import io
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from ..errors import InputError
from ..formats import Compression
from .decoding import BINARY_SNIFF_BYTES, refuse_utf16


@dataclass(frozen=True)
class CsvLayout:
    """What a reader must know of a checked file: its column names (the header's fields, as text
    decoded from UTF-8 with undecodable bytes as surrogates), the line break its rows end with
    ("" when it has no line break) and the first line of a quoted value holding that break when it
    is \r\n (Spark's reader reads such a break as \n: the Spark engine refuses the file)."""

    names: tuple[str, ...]
    line_break: str
    crlf_in_value_line: int | None


def check_csv(name: str, data: BinaryIO, delimiter: str, compression: Compression | None) -> CsvLayout:
    """Raise InputError, naming `name` and a line, at the first place where the file is not a CSV
    both engines read alike: a quoted value that does not end at `delimiter` or a line end (or
    never ends), a row with another number of fields than the header, a row ending with another
    line break than the header line. Blank lines are skipped, as both readers skip them; lines
    are counted at \\n, \\r\\n and \\r. `data` is decompressed as `compression` says."""
    stream = compression.decompressing(data) if compression is not None else data
    # peek at the head for a UTF-16 byte order mark (open() and buffered streams can; a raw one is wrapped)
    head = stream if hasattr(stream, "peek") else io.BufferedReader(stream, BINARY_SNIFF_BYTES)  # type: ignore[arg-type,type-var]
    text = io.TextIOWrapper(head, encoding="utf-8-sig", errors="surrogateescape", newline="")
    lines = _Lines(text)
    limit = csv.field_size_limit(sys.maxsize)  # a document may be longer than csv's 128 KiB
    try:
        refuse_utf16(name, head.peek(BINARY_SNIFF_BYTES)[:BINARY_SNIFF_BYTES])
        return _check_rows(name, csv.reader(lines, delimiter=delimiter, strict=True), lines, delimiter)
    except csv.Error as error:
        raise InputError(
            f"{name}: line {lines.count}: a quoted value does not end at a {delimiter!r} or a line end "
            f"({error}); a stray quote would join the rows up to the next quote into one value"
        ) from None
    except OSError as error:  # Arrow's codec: not compressed so, damaged or cut short
        assert compression is not None
        raise InputError(f"{name}: {compression.damaged(error)}") from None
    finally:
        csv.field_size_limit(limit)
        text.detach()  # the caller's file stays open: it reads what was checked from it (tables._csv_parts)
        if head is not stream:
            head.detach()  # type: ignore[union-attr,attr-defined]


def _check_rows(name: str, reader: Iterator[list[str]], lines: _Lines, delimiter: str) -> CsvLayout:
    width = None
    names: tuple[str, ...] = ()
    header_break = ""
    crlf_line = None
    start = 1
    for row in reader:
        if width is None and row:
            names, width, header_break = tuple(row), len(row), lines.last_break
        elif width is not None:
            if lines.last_break not in ("", header_break):
                raise InputError(
                    f"{name}: line {start}: the row ends with {lines.last_break!r} and the header line with "
                    f"{header_break!r}; a CSV's rows end with one line break (convert it, e.g. with dos2unix)"
                )
            if row and len(row) != width:
                shown = "".join(lines.row).rstrip("\r\n")[:60]
                raise InputError(
                    f"{name}: line {start}: expected {width} fields separated by {delimiter!r}, got {len(row)}: "
                    f"{shown!r} (give --delimiter if it is another one)"
                )
        if crlf_line is None and len(lines.row) > 1 and header_break == "\r\n" and any("\r\n" in v for v in row):
            crlf_line = start
        start = lines.count + 1
        lines.row.clear()
    return CsvLayout(names, header_break, crlf_line)


class _Lines:
    """The file's lines as csv.reader takes them, keeping count of them, the line break the last one
    ended with, and the lines of the row being read."""

    def __init__(self, text: io.TextIOWrapper) -> None:
        self._lines = iter(text)
        self.count = 0
        self.last_break = ""
        self.row: list[str] = []

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        line = next(self._lines)
        self.count += 1
        end = line[-1:]
        if end == "\n":
            self.last_break = "\r\n" if line[-2:-1] == "\r" else "\n"
        else:
            self.last_break = end if end == "\r" else ""
        self.row.append(line)
        return line
