"""Tables on a terminal: aligned columns written batch by batch, floats rounded for reading, and
every control or invisible character escaped (files keep every digit and character: dedup.output)."""

from __future__ import annotations

import re
from typing import TextIO

import pyarrow as pa

from ..output import python_rows


def write_text_table(table: pa.Table, stream: TextIO, digits: int = 6, max_width: int | None = None) -> None:
    """An aligned plain-text table; floats rounded for reading (files keep every digit). A table
    wider than `max_width` characters is written one record at a time (`column  value` lines)."""
    TextTable(stream, table.schema, digits, max_width).write(table)


class TextTable:
    """An aligned plain-text table written batch by batch: the column widths are those of the first
    batch (and the names), so a result of any size streams in bounded memory."""

    def __init__(self, stream: TextIO, schema: pa.Schema, digits: int = 6, max_width: int | None = None) -> None:
        self.stream = stream
        self.names = schema.names
        self.numeric = [pa.types.is_floating(t) or pa.types.is_integer(t) for t in schema.types]
        self.digits = digits
        self.max_width = max_width
        self.widths: list[int] | None = None
        self.vertical = False
        self.records = 0

    def write(self, table: pa.Table | pa.RecordBatch) -> None:
        cells = [[_cell(value, self.digits) for value in row] for row in python_rows(table)]
        if self.widths is None:
            last = len(self.names) - 1  # not padded: its rows end where their values do
            self.widths = [
                max([len(name)] + [len(row[i]) if i == last else min(len(row[i]), WIDEST_COLUMN) for row in cells])
                for i, name in enumerate(self.names)
            ]
            width = sum(self.widths) + 2 * (len(self.widths) - 1)
            self.vertical = self.max_width is not None and width > self.max_width
            if not self.vertical:
                self.stream.write(self._line(self.names) + "\n")
                self.stream.write(self._line(["-" * w for w in self.widths]) + "\n")
        for row in cells:
            if self.vertical:
                self._record(row)
            else:
                self.stream.write(self._line(row) + "\n")

    def _line(self, values: list[str]) -> str:
        assert self.widths is not None
        return "  ".join(
            v.rjust(w) if n else v.ljust(w) for v, w, n in zip(values, self.widths, self.numeric, strict=True)
        ).rstrip()

    def _record(self, row: list[str]) -> None:
        self.records += 1
        label = max(len(name) for name in self.names)
        self.stream.write(f"-[ record {self.records} ]" + "-" * 20 + "\n")
        for name, value in zip(self.names, row, strict=True):
            self.stream.write(f"{name.ljust(label)}  {value}".rstrip() + "\n")


# Control characters (C0, DEL, C1): written raw they are commands to the terminal (an id holding
# ESC ] 0 ; ... BEL retitled the window), so a table shows them escaped, as Python's repr does.
# So are the invisible format characters that change what a reader sees: bidi embeddings,
# overrides and isolates (U+202A-U+202E, U+2066-U+2069: an id shown reversed), the marks U+200E,
# U+200F, U+061C, and the zero-width U+200B-U+200D, U+2060, U+FEFF (two ids that look the same).
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]")
SHOWN = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str) -> str:
    """`text` with every control character escaped (\\n, \\t, \\x1b): safe to print on a terminal."""
    return CONTROL.sub(lambda match: SHOWN.get(match.group(), _escape(match.group())), text)


def _escape(character: str) -> str:
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


# A column is padded to at most this many characters: one long id (a deep path) widened every row
# of `clusters` and `query`; a longer value overflows its own row only.
WIDEST_COLUMN = 40


# A float at least this large is shown in scientific notation: 1e300 was written as 301 digits.
SCIENTIFIC = 1e15


def _cell(value: object, digits: int) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.{digits}g}" if abs(value) >= SCIENTIFIC else f"{value:.{digits}f}"
    if isinstance(value, (bytes, bytearray)):  # as DuckDB shows a BLOB: ab\x00, not b'ab\x00'
        return "".join(chr(b) if 32 <= b < 127 and b != 92 else f"\\x{b:02X}" for b in value)
    return printable(str(value))
