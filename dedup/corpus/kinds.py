"""Each input of a run as a value of its kind, made once from its path and the read options by
`input_kind`: a `Folder` of text files, a `TextFile` (one document), a `LinesFile` (--lines: one
document per line), a `Table` (Parquet, CSV, TSV, JSON lines: its `Format`), `Stdin` (`-`, one
document per line), or `Documents` given in memory.

A kind owns the rules that depend on it: how it is read into the corpus (`read`), what a
deduplicated copy of it is and which of its names a copy drops (`check_copy`, `write_copy`,
`numbered_lines`), what it held when the run began (`stamp`), and how Spark reads it, as one
plan value (`spark_plan`: dedup.corpus.spark_plans), which dedup.engines.spark runs. The
detection rules are the same on both engines: a path that is not on this machine (a Spark input
on HDFS) is detected through its engine's listing (`Listing`).
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, NamedTuple

import pyarrow as pa

from ..errors import UsageError
from ..formats import COPY_FORMATS, PARQUET, Format, is_delimited
from ..keep_by import KeepBy
from ..names import check_not_a_loop
from ..output import format_for, is_duckdb_database
from ..settings import Reading
from .collected import Corpus
from .columns import read_arrow
from .decoding import UTF8_BOM
from .folders import (
    HIDDEN_FOLDER,
    copy_file,
    file_bytes,
    note_many_lines,
    path_id,
    read_file,
    read_folder,
    walk_folder,
    write_file_bytes,
)
from .lines import STDIN, line_break, read_lines, read_once
from .spark_plans import FilesPlan, LinesPlan, SparkPlace, TablePlan, folder_plan, refuse_compressed, table_plan
from .stamp import FileStamp, stamp_input
from .table_copy import write_table_copy
from .tables import check_json_lines, file_format, folder_format, names_below, read_table

# What stands for the inputs of a run on documents in memory (dedup.run(documents=...)).
IN_MEMORY = Path("<documents>")


@dataclass(frozen=True)
class Input:
    """An input of one kind; `path` as it was given."""

    path: Path
    # its documents are its lines, named by their numbers (--ids gives them other names): a copy drops
    # them by number
    numbered_lines: ClassVar[bool] = False

    def check_readable(self) -> None:
        """Refuse, before it is read, an input that is not there, or that cannot be read as its kind:
        a device or a socket (`/dev/zero` was read until memory ran out). A named pipe is read as a
        file (`<(zcat docs.gz)`), as standard input is, but not as a table (Table)."""
        path = self.path
        check_not_a_loop(path, "the input")
        if not path.exists() and not path.is_symlink():
            raise UsageError(f"input not found: {path}")
        try:
            mode = path.stat().st_mode
        except OSError:
            return  # a broken link: reported where it is read
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
            what = "socket" if stat.S_ISSOCK(mode) else "device"
            raise UsageError(f"input {path} is a {what}, not a file or folder: give files, folders, tables or -")
        if is_duckdb_database(path):  # read as one binary document: skipped, and a run of nothing said ok
            raise UsageError(
                f"input {path} is a DuckDB database, not documents: an index is given as DB "
                "(dedup add DB INPUT..., dedup sql DB) or as --db"
            )

    def check_keep_by(self, keep_by: KeepBy) -> None:
        """--keep-by reads a column: refused on an input that has none."""
        raise keep_by_refused(keep_by, self.path)

    def read(self, corpus: Corpus, reading: Reading, prefixed: bool) -> None:
        """Its documents and skipped inputs, added to the corpus; `prefixed`: the run has several
        inputs, so its ids are prefixed by it."""
        raise NotImplementedError

    def stamp(self) -> tuple[FileStamp, ...]:
        """What it holds (dedup.corpus.stamp), before the run reads it and again after its copy."""
        return stamp_input(self.path)

    def check_copy(self, out: Path) -> None:
        """Refuse a deduplicated copy of it at `out` that cannot be made."""
        if read_once(self.path):  # the copy reads the input again
            raise UsageError(
                f"--write-deduplicated writes a copy of a file or folder, not of the named pipe {self.path}: "
                "write its content to a file and give that"
            )

    def write_copy(self, out: Path, dropped: set[object], reading: Reading) -> None:
        """Write it to `out` without the `dropped` documents (ids, or line numbers)."""
        raise NotImplementedError

    def spark_plan(self, place: SparkPlace, reading: Reading) -> FilesPlan | LinesPlan | TablePlan:
        """How Spark reads it, found at `place` (dedup.corpus.spark_plans); a kind Spark does not
        read (standard input, documents in memory) is refused before."""
        raise NotImplementedError


@dataclass(frozen=True)
class Stdin(Input):
    numbered_lines = True

    def check_readable(self) -> None:
        """Read once, as it comes."""

    def read(self, corpus: Corpus, reading: Reading, prefixed: bool) -> None:
        import sys

        read_lines(corpus, self.path, prefix="-" if prefixed else None, data=sys.stdin.buffer.read())

    def check_copy(self, out: Path) -> None:
        raise UsageError("--write-deduplicated writes a copy of a file or folder, not of standard input")


@dataclass(frozen=True)
class TextFile(Input):
    """A file read as one document: a copy of it is the file (it has nothing to be a duplicate of)."""

    def read(self, corpus: Corpus, reading: Reading, prefixed: bool) -> None:
        read_file(corpus, self.path, path_id(self.path))
        note_many_lines(corpus, self.path)

    def write_copy(self, out: Path, dropped: set[object], reading: Reading) -> None:
        copy_file(self.path, out)

    def spark_plan(self, place: SparkPlace, reading: Reading) -> FilesPlan:
        refuse_compressed(place.given)
        return FilesPlan(folder=False)


@dataclass(frozen=True)
class LinesFile(Input):
    """A file of one document per line (--lines): a copy keeps the other lines byte for byte,
    compressed as its name says (`kept.txt.zst`)."""

    numbered_lines = True

    def read(self, corpus: Corpus, reading: Reading, prefixed: bool) -> None:
        read_lines(corpus, self.path, prefix=path_id(self.path) if prefixed else None)

    def write_copy(self, out: Path, dropped: set[object], reading: Reading) -> None:
        data = file_bytes(self.path)
        bom = data.startswith(UTF8_BOM)
        data = data[len(UTF8_BOM) if bom else 0 :]
        end = line_break(data)  # as the run split them
        lines = data.split(end)
        final_newline = bool(lines) and lines[-1] == b""
        if final_newline:
            lines.pop()
        # each kept line with its own ending: every line has the separator but an unterminated last
        # one (dropping it left the line before without its \n, a stray \r of a CRLF file)
        ends = [end] * len(lines)
        if lines and not final_newline:
            ends[-1] = b""
        body = b"".join(
            line + end
            for number, (line, end) in enumerate(zip(lines, ends, strict=True), start=1)
            if number not in dropped
        )
        write_file_bytes(out, (UTF8_BOM if bom else b"") + body)

    def spark_plan(self, place: SparkPlace, reading: Reading) -> LinesPlan:
        return LinesPlan()


@dataclass(frozen=True)
class Folder(Input):
    """A folder of text files, each a document named by its relative path: a copy is a folder of
    the same relative paths without the dropped files (skipped files, e.g. binary ones, copied)."""

    def read(self, corpus: Corpus, reading: Reading, prefixed: bool) -> None:
        read_folder(corpus, self.path, self.path if prefixed else None, reading.include_hidden, reading.follow_links)

    def write_copy(self, out: Path, dropped: set[object], reading: Reading) -> None:
        source = self.path
        out.mkdir()
        for relative, path, reason in walk_folder(source, reading.include_hidden, reading.follow_links):
            target = out / path.relative_to(source)  # relative is the id: a name's non-UTF-8 bytes escaped
            if relative in dropped or (reason is not None and not _copied_as_is(path)):
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if reason == HIDDEN_FOLDER:  # not read, so nothing in it is a duplicate: copied whole
                shutil.copytree(path, target, symlinks=True, copy_function=_copy_regular_file)
            else:  # a document, or a skipped file; a link that was not read (out of the input,
                # to a folder, broken) stays a link
                shutil.copy2(path, target, follow_symlinks=reason is None)

    def spark_plan(self, place: SparkPlace, reading: Reading) -> FilesPlan:
        """Its files; on the driver's disk, listed as the DuckDB engine lists them
        (dedup.corpus.spark_plans.folder_plan)."""
        listing = None if place.local is None else folder_plan(place.local, place.prefix, reading.follow_links)
        return FilesPlan(folder=True, listing=listing)


@dataclass(frozen=True)
class Table(Input):
    """A table (a file, or a Parquet dataset folder) in `format`: a copy is a table with all its
    columns but the dropped rows (dedup.corpus.table_copy)."""

    format: Format = PARQUET

    def check_readable(self) -> None:
        """A table is read more than once (checked, then loaded): from a named pipe, the second reader
        found it empty, or waited for a writer past Ctrl-C."""
        super().check_readable()
        if read_once(self.path):
            raise UsageError(
                f"input {self.path} is a named pipe, and a table is read more than once: write it to a file"
            )

    def check_keep_by(self, keep_by: KeepBy) -> None:
        """Its column is read with the documents (dedup.keep_by)."""

    def read(self, corpus: Corpus, reading: Reading, prefixed: bool) -> None:
        prefix = path_id(self.path) if prefixed else None
        read_table(corpus, self.path, self.format, reading.id_column, reading.text_column, prefix, reading.delimiter)

    def check_copy(self, out: Path) -> None:
        super().check_copy(out)
        format_for(out, COPY_FORMATS, "deduplicated table")  # a table is copied as a table

    def write_copy(self, out: Path, dropped: set[object], reading: Reading) -> None:
        write_table_copy(self.path, self.format, out, dropped, reading)

    def spark_plan(self, place: SparkPlace, reading: Reading) -> TablePlan:
        """The reader of its format (dedup.corpus.spark_plans.table_plan); JSON lines on the driver's
        disk checked there first, for what the DuckDB engine refuses and Spark's reader would read."""
        plan = table_plan(self.format, place, reading)  # a folder of JSON lines shards refused first
        if place.local is not None and self.format == Format.jsonl:
            check_json_lines(Path(place.local), reading.id_column, reading.text_column, shown=place.given)
        return plan

    @property
    def delimited(self) -> bool:
        return is_delimited(self.format)


@dataclass(frozen=True)
class Documents(Input):
    """Documents given in memory (dedup.documents.as_table: `text`, an optional `id`, the --keep-by
    column if any), standing for the inputs of a run on them: there is no file to copy."""

    path: Path = IN_MEMORY
    table: pa.Table = field(default=None, compare=False)

    def check_readable(self) -> None:
        """Already read."""

    def check_keep_by(self, keep_by: KeepBy) -> None:
        """Its column is given with the documents (dedup.documents.as_table)."""

    def read(self, corpus: Corpus, reading: Reading, prefixed: bool) -> None:
        read_arrow(corpus, self.table, "the documents", None, "text", None)

    def stamp(self) -> tuple[FileStamp, ...]:
        return ()

    def check_copy(self, out: Path) -> None:
        raise UsageError("--write-deduplicated writes a copy of a file or folder, not of documents in memory")


class Listing(NamedTuple):
    """An input path as it is looked at where it lies: on this machine, or through an engine's own
    file system (Spark's Hadoop file systems): whether it is a folder, and the names of the files
    below it, recursively (listed only to tell a Parquet dataset from a folder of texts)."""

    is_dir: bool
    names_below: Callable[[], Iterable[str]]


def input_kind(path: Path, lines: bool, listing: Listing | None = None) -> Input:
    """The kind of the input `path`, by the rules of both engines, in this order: `-` is standard
    input; a table by its suffix (a folder named *.parquet or holding only .parquet files is a
    Parquet dataset), unless --lines; a folder; a --lines file, or a file read as one document.
    `listing`: how the path looks where it lies (None: on this machine)."""
    if path == STDIN:
        return Stdin(path)
    if listing is None:
        listing = Listing(path.is_dir(), lambda: names_below(path))
    kind = None
    if not lines:
        kind = folder_format(path.name, listing.names_below) if listing.is_dir else file_format(path.name)
    if kind is not None:
        return Table(path, Format(kind))
    if listing.is_dir:
        return Folder(path)
    return LinesFile(path) if lines else TextFile(path)


def check_column_options(
    inputs: Iterable[Path], lines: bool, id_column: str | None, text_column: str | None, delimiter: str | None = None
) -> None:
    """--id-column/--text-column name a table's columns, --delimiter a CSV's separator: refuse them
    when no input is such a table."""
    tables = [kind for kind in (input_kind(path, lines) for path in inputs) if isinstance(kind, Table)]
    if delimiter is not None:
        if len(delimiter) != 1:
            raise UsageError(f"--delimiter must be one character (\\t for a tab), got {delimiter!r}")
        if not any(table.delimited for table in tables):
            raise UsageError("--delimiter applies to .csv and .tsv tables; no input is one")
    given = [name for name, value in (("--id-column", id_column), ("--text-column", text_column)) if value is not None]
    if given and not tables:
        kind = "--lines files" if lines else "folders and text files"
        verb = "apply" if len(given) > 1 else "applies"
        raise UsageError(f"{' and '.join(given)} {verb} to tables (.parquet, .csv, .jsonl); these inputs are {kind}")


def keep_by_refused(keep_by: KeepBy | str, shown: object) -> UsageError:
    """--keep-by given with an input that is not a table (both engines)."""
    return UsageError(
        f"--keep-by {keep_by} reads a column of a table input (Parquet, CSV, JSON lines); {shown} is not one"
    )


def _copied_as_is(path: Path) -> bool:
    """Whether a skipped input is in the deduplicated copy of its folder: a file (binary, hidden),
    a link (kept a link), a hidden folder (whole). Not a special file (a named pipe, a socket: no
    content to copy) nor a folder that could not be read."""
    return path.is_symlink() or path.is_file() or (path.is_dir() and os.access(path, os.R_OK | os.X_OK))


def _copy_regular_file(source: str, target: str) -> None:
    """copytree's copy of one file: a named pipe or socket inside a hidden folder is left out, as
    one beside it is (shutil would block reading a pipe)."""
    if os.path.isfile(source):
        shutil.copy2(source, target)
