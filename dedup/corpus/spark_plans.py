"""What Spark's readers are given to read an input, as data: each input kind gives one plan
(dedup.corpus.kinds, `Input.spark_plan`), which dedup.engines.spark turns into a frame of rows
without asking which kind made it (`plan.read_by(reads)` calls the reads' `files`, `lines` or
`table`, `SparkReads`):

- `FilesPlan`: each file a document (a folder of text files, a text file), Spark's binaryFile
  reader; a local folder's files as the DuckDB engine lists them (`FolderPlan`);
- `LinesPlan`: each line a document (--lines), Spark's text reader; a binary file refused on the
  driver (`check`), as the DuckDB engine refuses it;
- `TablePlan`: a table's rows, the reader of its format with the table's separator and, for a CSV
  checked on the driver, its rows' line break (`checked_reader`); a local Parquet dataset's parts
  as the DuckDB engine lists them (`DatasetPlan`).

Local folders are listed here, on the driver, because Spark's own listing reads otherwise (it
follows folder links, leaves out names starting with _, stops on a name that is not UTF-8)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, ClassVar, NamedTuple, Protocol

from ..errors import InputError, UsageError
from ..formats import Format, SparkReader, compression_of, is_delimited, separator, spark_reader
from ..names import is_utf8
from ..settings import Reading
from .csv_check import check_csv
from .decoding import BINARY_SNIFF_BYTES
from .folders import HIDDEN_FILE, HIDDEN_FOLDER, path_id, walk_folder
from .lines import check_compressed_lines, refuse_binary_lines
from .tables import check_dataset, list_dataset

NOT_UTF8_NAME = "not read by the Spark engine (a name that is not UTF-8)"
UNDERSCORE_NAME = "not read by the Spark engine (a name starting with _)"

# An input's file opened on the driver, through the engine's file system (Spark's `open_bytes`).
Opener = Callable[[], AbstractContextManager[BinaryIO]]


class SparkPlace(NamedTuple):
    """Where Spark finds an input: `given`, its path as given (a local path or a URI); `local`, its
    path on the driver's disk (None: HDFS, an object store); whether it is a folder; `prefix`, what
    its ids start with in a run of several inputs ("" otherwise)."""

    given: str
    local: str | None
    is_dir: bool
    prefix: str


class SparkReads(Protocol):
    """What Spark's reader does with each plan: the frame of the input's rows."""

    def files(self, plan: FilesPlan) -> Any: ...

    def lines(self, plan: LinesPlan) -> Any: ...

    def table(self, plan: TablePlan) -> Any: ...


@dataclass(frozen=True)
class FilesPlan:
    """Each file a document, read whole by Spark's binaryFile reader: a folder's files, named by
    their path below it (`folder`), or one file, named by its path. `listing`: a local folder's
    files as the DuckDB engine lists them (None: one file, or a folder listed through Spark's own
    file system)."""

    folder: bool
    listing: FolderPlan | None = None
    row_numbered: ClassVar[bool] = False  # one input's ids are its row numbers: no, its paths
    # Spark's binaryFile reader below a folder: its files, listed recursively
    reader: ClassVar[SparkReader] = SparkReader("binaryFile", {"recursiveFileLookup": "true"})

    def read_by(self, reads: SparkReads) -> Any:
        return reads.files(self)


@dataclass(frozen=True)
class LinesPlan:
    """Each line a document (--lines), read by Spark's text reader (`reader`)."""

    row_numbered: ClassVar[bool] = True  # one input's ids are its line numbers

    @staticmethod
    def reader(line_end: str) -> SparkReader:
        """Spark's text reader, split at `line_end` only (\\n; \\r for a file without any \\n)."""
        return SparkReader("text", {"lineSep": line_end})

    @staticmethod
    def check(given: str, opened: Opener) -> None:
        """Refuse on the driver, as dedup.corpus.lines reads it, a binary file (a damaged or cut short
        one, when its name says a compression: Spark's text reader decompresses it, and would fail
        with the JVM's error)."""
        compression = compression_of(given)
        with opened() as data:
            if compression is None:
                refuse_binary_lines(given, data.read(BINARY_SNIFF_BYTES))
            else:
                check_compressed_lines(given, data, compression)

    def read_by(self, reads: SparkReads) -> Any:
        return reads.lines(self)


@dataclass(frozen=True)
class TablePlan:
    """A table's rows, read by the Spark reader of its `format` (`reader`), a delimited one's with
    its `separator`; `dataset`: a local Parquet dataset folder's parts (None: a file, read as it is)."""

    format: Format
    separator: str | None = None
    dataset: DatasetPlan | None = None
    row_numbered: ClassVar[bool] = True  # one input's ids are its row numbers, but for an id column

    @property
    def delimited(self) -> bool:
        return self.separator is not None

    def reader(self, line_end: str | None = None) -> SparkReader | None:
        """Spark's reader of its format (dedup.formats), None if Spark has none; a delimited table's
        with its separator, and its rows' line break when it is one character (`line_end`, as
        dedup.corpus.check_csv found it: detected, a \\r was read as \\n inside quotes)."""
        reader = spark_reader(self.format)
        if reader is None or self.separator is None:
            return reader
        options = {**reader.options, "sep": self.separator}
        if line_end in ("\n", "\r"):
            options["lineSep"] = line_end
        return reader._replace(options=options)

    def checked_reader(self, given: str, opened: Opener) -> SparkReader | None:
        """The reader, once the table is checked on the driver: a delimited one by
        dedup.corpus.check_csv, as both engines refuse alike, its rows' line break given to the
        reader; and a quoted value holding a \\r\\n line break in a file of \\r\\n rows, which Spark's
        reader would read as \\n, refused."""
        if self.separator is None:
            return self.reader()
        with opened() as data:
            layout = check_csv(given, data, self.separator, compression_of(given))
        if layout.crlf_in_value_line is not None:
            raise InputError(
                f"{given}: line {layout.crlf_in_value_line}: a quoted value holds a \\r\\n line break in a file "
                "whose rows end with \\r\\n; Spark's reader would read it as \\n (convert the file's line "
                "breaks, e.g. with dos2unix, or use --engine duckdb)"
            )
        return self.reader(layout.line_break)

    def read_by(self, reads: SparkReads) -> Any:
        return reads.table(self)


def table_plan(format: Format, place: SparkPlace, reading: Reading) -> TablePlan:
    """How Spark reads a table of `format` at `place`. A folder is a Parquet dataset (its parts
    listed here when it is local); a folder of CSV or JSON lines shards is read by the DuckDB engine
    as one table, and refused here rather than read otherwise."""
    if place.is_dir and format != Format.parquet:
        raise UsageError(
            f"{place.given} is a folder of {format.value} shards, which --engine spark reads only as separate "
            "inputs (each its own ids): give the shard files, or use --engine duckdb, which reads the folder as "
            "one table"
        )
    dataset = dataset_plan(place.local, place.given, reading) if place.is_dir and place.local is not None else None
    delimiter = separator(format, reading.delimiter) if is_delimited(format) else None
    return TablePlan(format, delimiter, dataset)


@dataclass
class FolderPlan:
    """How Spark reads a local folder: `loads`, the folders it lists whole (recursively) and the
    files it reads one by one; `empty`, the zero-byte files (relative posix paths), which Spark's
    scan reads no split of; `skipped`, (id, reason) of everything else."""

    loads: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class DatasetPlan:
    """A local Parquet dataset folder as the DuckDB engine lists it: its path on the driver's disk,
    the files Spark reads, and the skipped (source, reason)."""

    root: str
    files: list[str]
    skipped: list[tuple[str, str]]


def dataset_plan(local: str, given: str, reading: Reading) -> DatasetPlan:
    """A Parquet dataset folder on the driver's disk (`local`; `given`: the input as it was given, a
    file:// URI or a relative path), listed once by dedup.corpus.tables.list_dataset (Spark's own
    discovery follows folder links: a `loop -> ..` link read every part 40 times; and given a
    file:/ path it left out the parts in a subfolder), checked as on the DuckDB engine."""

    def shown(file: str | Path) -> str:  # named as the input was given
        return path_id(Path(given) / Path(file).relative_to(local))

    listing = list_dataset(Path(local))
    check_dataset(Path(local), listing.files, reading.text_column, reading.id_column, shown)
    return DatasetPlan(local, listing.files, [(left.source, left.reason) for left in listing.skipped(shown)])


def unlisted_reason(name: str, is_dir: bool, shown: str) -> str | None:
    """Why Spark's own listing of a folder that is not on this machine (HDFS, an object store)
    leaves out an entry named `name`, as a skipped input's reason; None for one it reads (a
    file whose name says a compression refused, as folder_plan refuses it). `shown`: the entry as
    the run names it."""
    if is_dir:
        return HIDDEN_FOLDER if name.startswith((".", "_")) else None
    if name.startswith("."):
        return HIDDEN_FILE
    if name.startswith("_"):
        return UNDERSCORE_NAME
    refuse_compressed(shown)
    return None


def refuse_compressed(name: str) -> None:
    """Spark reads a folder's files, and a text file, as the bytes they hold (its binaryFile reader):
    a file named for a compression, which the DuckDB engine reads decompressed, is refused rather
    than read otherwise (as a binary file, skipped). Spark's line and table readers decompress."""
    compression = compression_of(name)
    if compression is not None:
        raise UsageError(
            f"{name} is {compression.codec}-compressed, and --engine spark reads the text files of a folder as "
            "they are: use --engine duckdb, or decompress them first (--lines files and tables are read "
            "decompressed on both engines)"
        )


def folder_plan(root: str, prefix: str, follow_links: bool) -> FolderPlan:
    """A local folder's files as the DuckDB engine lists them (dedup.corpus.folders.walk_folder: the
    same files read, the same skipped for the same reasons), but for names Spark cannot read (a
    name that is not UTF-8, which the JVM cannot open; a file whose name starts with _).

    Spark's own recursive listing reads otherwise: it follows a symlink to a folder (a `loop -> .`
    link read every file 40 times over, as 40 copies paired with each other; a link to a folder
    outside the input read that folder), leaves out folders whose name starts with _, and stopped
    the run on a name that is not UTF-8 below the top folder. So a folder is listed whole by Spark
    (fast: ~0.2 ms a file) only when nothing below it is such a case; the files directly in a folder
    that holds one are read by name (~2 ms a file)."""
    plan = FolderPlan()
    top = Path(root)
    files: list[tuple[tuple[str, ...], Path]] = []
    unlike: set[tuple[str, ...]] = set()  # folders (as parts) holding an entry Spark's listing reads otherwise
    named: set[str] = set()
    for relative, path, reason in walk_folder(top, include_hidden=False, follow_links=follow_links):
        parts = path.relative_to(top).parts
        bad = next((i for i, part in enumerate(parts) if not is_utf8(part)), None)
        if bad is not None:
            unlike.add(parts[:bad])
        if reason in (HIDDEN_FILE, HIDDEN_FOLDER):
            plan.skipped.append((prefix + relative, reason))
        elif bad is not None:  # the file, or the folder it lies in, named once
            shown = path_id(Path(*parts[: bad + 1])) + ("/" if bad < len(parts) - 1 or relative.endswith("/") else "")
            if shown not in named:
                named.add(shown)
                plan.skipped.append((prefix + shown, NOT_UTF8_NAME))
        elif reason is not None:  # a symlink to a folder, a broken one, a link outside, a special file
            plan.skipped.append((prefix + relative, reason))
            unlike.add(parts[:-1])
        elif parts[-1].startswith("_"):
            plan.skipped.append((prefix + relative, UNDERSCORE_NAME))
        else:
            refuse_compressed(prefix + relative)
            unlike.update(parts[:i] for i, part in enumerate(parts[:-1]) if part.startswith("_"))
            files.append((parts, path))
    below = {folder[:i] for folder in unlike for i in range(len(folder) + 1)}  # folders with such a case below
    listed: set[tuple[str, ...]] = set()
    for parts, path in files:
        folder = parts[:-1]
        whole = next((folder[:i] for i in range(len(folder) + 1) if folder[:i] not in below), None)
        if whole is None:
            plan.loads.append(str(path))
        elif whole not in listed:
            listed.add(whole)
            plan.loads.append(str(top.joinpath(*whole)))
        if path.stat().st_size == 0:
            plan.empty.append("/".join(parts))
    return plan
