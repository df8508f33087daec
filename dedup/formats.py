"""Every file format dedup reads or writes, in one registry: the suffixes that name it, where it
may be used (a table input, `--output`, the deduplicated copy of a table, an export, the S-curve's
plot, the report's page), which cells may hold Latin-1, a delimited format's separator, and Spark's
reader of it. The readers (dedup.corpus.tables, dedup.corpus.kinds for Spark's) and the writers
(dedup.output, dedup.index.export, dedup.cli.params' plot, dedup.html_report) look a format up
here; no other module names one.

Beside them, the compressions a file's name may add (`docs.jsonl.zst`, `a.txt.gz`): each opens a
file so named for reading and for writing (`Compression.reader`, `.writer`), so that every reader
and writer of text decompresses and compresses by the one rule, the name's last suffix.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import BinaryIO, NamedTuple


class Format(StrEnum):
    parquet = "parquet"
    csv = "csv"
    tsv = "tsv"
    jsonl = "jsonl"  # JSON lines: one object per line
    json = "json"  # one JSON array of objects (exports)
    txt = "txt"  # one value per line (exports of ids)
    html = "html"  # the report's page
    png = "png"  # the S-curve of `dedup params --plot`, drawn by matplotlib in the format of this name
    svg = "svg"
    pdf = "pdf"


class SparkReader(NamedTuple):
    """One of Spark's readers, as data: `session.read.format(name).options(**options)`
    (dedup.engines.spark runs it); `corrupt_column`, the column it adds for a row it cannot parse,
    which is refused."""

    name: str
    options: dict[str, str]
    corrupt_column: str | None = None


# Spark's CSV reader, set to read every table cell as pyarrow does on the DuckDB engine
# (dedup/corpus/columns.py): no inferred types (the id 007 stays 007, not 7); read as ISO-8859-1 (a
# character per byte; the separators and quotes are ASCII), so that a cell that is not UTF-8 keeps
# its bytes (UTF-8 silently turned them into U+FFFD); a row Spark would pad, cut or read otherwise
# than pyarrow fails (dedup.corpus.check_csv refuses it before, on both engines): never a row read
# differently. The separator and the rows' line break are the table's (dedup.corpus.kinds.Table).
SPARK_CSV = SparkReader(
    "csv",
    {
        "header": "true",
        "multiLine": "true",
        "inferSchema": "false",
        "escape": '"',
        "encoding": "ISO-8859-1",
        "mode": "FAILFAST",
        "unescapedQuoteHandling": "RAISE_ERROR",
    },
)


@dataclass(frozen=True)
class Spec:
    format: Format
    suffixes: tuple[str, ...]  # lowercase, with the dot; the first is the one dedup names
    table_input: bool = False  # read as a table input (gzip-compressed too, if compressible)
    output: bool = False  # --output: the pairs (dedup.output.write_rows)
    copy: bool = False  # a table input's --write-deduplicated copy (dedup.corpus.table_copy)
    export: bool = False  # `dedup export -o`, `--export WHAT=FILE`
    plot: bool = False  # `dedup params --plot` (dedup.cli.params.draw)
    page: bool = False  # `dedup report -o` (dedup.html_report.page)
    compressible: bool = False  # a compression's suffix may follow (`.csv.gz`, `.jsonl.zst`): see COMPRESSIONS
    # the columns whose cells may be read as Latin-1 when they are not UTF-8, as a text file is:
    # every cell of a CSV (it declares no encoding: Latin-1 and cp1252 exports are common); the
    # texts of a Parquet file (UTF-8 by its spec, but a writer may not check). JSON is UTF-8 by
    # definition (RFC 8259), and Spark's reader cannot give its bytes back: an error.
    latin1_cells: tuple[str, ...] = ()
    delimiter: str | None = None  # a delimited text table: its separator unless --delimiter
    # the Spark reader that reads it as the DuckDB engine does; None: Spark has no reader of it, and
    # an input of it is refused with --engine spark
    spark_reader: SparkReader | None = None


SPECS = {
    spec.format: spec
    for spec in (
        Spec(
            Format.parquet,
            (".parquet",),
            table_input=True,
            output=True,
            copy=True,
            export=True,
            latin1_cells=("text",),
            spark_reader=SparkReader("parquet", {}),
        ),
        Spec(
            Format.csv,
            (".csv",),
            table_input=True,
            output=True,
            copy=True,
            export=True,
            compressible=True,
            latin1_cells=("text", "id"),
            delimiter=",",
            spark_reader=SPARK_CSV,
        ),
        Spec(
            Format.tsv,
            (".tsv",),
            table_input=True,
            compressible=True,
            latin1_cells=("text", "id"),
            delimiter="\t",
            spark_reader=SPARK_CSV,
        ),
        Spec(
            Format.jsonl,
            (".jsonl", ".ndjson"),
            table_input=True,
            output=True,
            copy=True,
            export=True,
            compressible=True,
            # a 'single-quoted' string is not JSON to pyarrow, and makes the line corrupt (Jackson takes
            # it by default; both take NaN and Infinity)
            spark_reader=SparkReader("json", {"allowSingleQuotes": "false"}, corrupt_column="_corrupt_record"),
        ),
        Spec(Format.json, (".json",), export=True, compressible=True),
        Spec(Format.txt, (".txt",), export=True, compressible=True),
        Spec(Format.html, (".html", ".htm"), page=True),
        Spec(Format.png, (".png",), plot=True),
        Spec(Format.svg, (".svg",), plot=True),
        Spec(Format.pdf, (".pdf",), plot=True),
    )
}


@dataclass(frozen=True)
class Compression:
    """A compression named by a file's last suffix, read and written through Arrow's codec of it
    (multi-member gzip as `cat a.gz b.gz` makes it too; a truncated or damaged file is an OSError
    at the place it ends, never text cut short)."""

    codec: str  # Arrow's name of it
    suffixes: tuple[str, ...]  # lowercase, with the dot; the first is the one dedup names
    magic: bytes  # what its files start with
    tool: str  # the command that writes a file of it to standard output

    def reader(self, path: Path) -> io.BufferedReader:
        """The file at `path` (opened by its bytes: a name that is not UTF-8 too), decompressed."""
        import pyarrow as pa

        stream = pa.CompressedInputStream(pa.OSFile(os.fsencode(path)), self.codec)
        return io.BufferedReader(stream, 2**20)  # type: ignore[arg-type]

    def damaged(self, error: OSError) -> str:
        """What a reader of a file that is not this compression's, or is cut short, says of it."""
        return f"damaged, or not {self.codec}-compressed ({error})"

    def decompressing(self, file: BinaryIO) -> io.BufferedReader:
        """An open file read decompressed, left open when what reads it is closed (its caller reads
        it again: the CSV check, then the rows)."""
        import pyarrow as pa

        stream = pa.CompressedInputStream(pa.PythonFile(_Borrowed(file), mode="r"), self.codec)
        return io.BufferedReader(stream, 2**20)  # type: ignore[arg-type]

    def writer(self, path: Path) -> BinaryIO:
        """A new file at `path`, compressed as it is written."""
        import pyarrow as pa

        stream = pa.CompressedOutputStream(pa.OSFile(os.fsencode(path), "wb"), self.codec)
        return io.BufferedWriter(stream, 2**20)  # type: ignore[arg-type]


class _Borrowed(io.RawIOBase):
    """A file read through another object, which closes this one, never the file."""

    def __init__(self, file: BinaryIO) -> None:
        self._file = file

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self._file.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


COMPRESSIONS = (
    Compression("gzip", (".gz",), b"\x1f\x8b", "zcat"),
    Compression("zstd", (".zst", ".zstd"), b"\x28\xb5\x2f\xfd", "zstdcat"),
)
COMPRESSED = tuple(suffix for compression in COMPRESSIONS for suffix in compression.suffixes)


def compression_of(path: Path | str) -> Compression | None:
    """The compression a file's name says (its last suffix), None for a plain file."""
    suffix = Path(path).suffix.lower()
    return next((c for c in COMPRESSIONS if suffix in c.suffixes), None)


def plain_name(path: Path) -> Path:
    """The name without its compression suffix (`docs.csv` for `docs.csv.gz`)."""
    return path.with_suffix("") if compression_of(path) is not None else path


def open_binary(path: Path) -> io.BufferedReader:
    """A file for reading, decompressed when its name says a compression."""
    compression = compression_of(path)
    return compression.reader(path) if compression is not None else open(path, "rb")  # noqa: SIM115


def named_format(path: Path, formats: Mapping[str, str]) -> str | None:
    """The format of `formats` a file's name says, a compression's suffix after it allowed
    (`pairs.csv.gz`: csv); None for another name."""
    compression = compression_of(path)
    return formats.get((plain_name(path) if compression is not None else path).suffix.lower())


def compressed_as(head: bytes) -> Compression | None:
    """The compression whose magic bytes a file starts with, whatever its name."""
    return next((c for c in COMPRESSIONS if head.startswith(c.magic)), None)


def open_text(path: Path, newline: str) -> io.TextIOWrapper:
    """A new UTF-8 text file for writing, compressed when its name says a compression."""
    compression = compression_of(path)
    if compression is None:
        return open(path, "w", encoding="utf-8", newline=newline)  # noqa: SIM115
    return io.TextIOWrapper(compression.writer(path), encoding="utf-8", newline=newline)


def _suffixes(use: str) -> dict[str, Format]:
    return {suffix: spec.format for spec in SPECS.values() if getattr(spec, use) for suffix in spec.suffixes}


TABLE_FORMATS = _suffixes("table_input")  # a table input's format by its suffix
OUTPUT_FORMATS = _suffixes("output")  # --output's
COPY_FORMATS = _suffixes("copy")  # a deduplicated table's
EXPORT_FORMATS = _suffixes("export")  # an export's
PLOT_FORMATS = _suffixes("plot")  # the S-curve's
PAGE_FORMATS = _suffixes("page")  # the report's
PARQUET = Format.parquet
SUFFIX = {spec.format: spec.suffixes[0] for spec in SPECS.values()}  # the suffix dedup names a format by


def table_suffixes() -> str:
    """The suffixes of table inputs, as the help lists them: `.parquet, .csv, ...`, then the
    compressions the text formats may carry."""
    ends = ", ".join(compression.suffixes[0] for compression in COMPRESSIONS)
    return f"{', '.join(TABLE_FORMATS)}; the text ones also compressed, {ends}"


def is_delimited(kind: str | None) -> bool:
    """Whether `kind` is a delimited text table (CSV, TSV)."""
    return kind is not None and kind in SPECS and SPECS[Format(kind)].delimiter is not None


def separator(kind: str | None, given: str | None) -> str:
    """A delimited table's field separator: the one given (--delimiter), else its format's."""
    default = SPECS[Format(kind)].delimiter if kind in SPECS else None
    return given or default or ","


def latin1_cells(kind: str | None) -> tuple[str, ...]:
    return SPECS[Format(kind)].latin1_cells if kind in SPECS else ()


def spark_reader(kind: str | None) -> SparkReader | None:
    """The Spark reader of a table of `kind` (see Spec.spark_reader)."""
    return SPECS[Format(kind)].spark_reader if kind in SPECS else None


def compressible(kind: str | None) -> bool:
    return kind in SPECS and SPECS[Format(kind)].compressible
