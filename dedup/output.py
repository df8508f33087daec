"""Writing result tables to files (by extension) and to the terminal."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Literal, TextIO, TypeAlias

import pyarrow as pa

from .errors import DedupError, UsageError, first_line
from .formats import (
    COMPRESSIONS,
    OUTPUT_FORMATS,
    Format,
    compressible,
    compression_of,
    named_format,
    open_text,
    plain_name,
)
from .names import NAME_MAX, check_name_length, check_not_a_loop


def format_for(path: Path, formats: Mapping[str, str] = OUTPUT_FORMATS, kind: str = "output") -> str:
    """The format named by a file's extension in `formats`, a compression's after it for a format
    written so (`pairs.csv.gz`, `pairs.jsonl.zst`); a usage error for any other extension."""
    found = named_format(path, formats)
    compression = compression_of(path)
    if found is None:
        known = ", ".join(sorted(formats))
        if any(compressible(format_name) for format_name in formats.values()):
            known += f" (the text ones also {', '.join(c.suffixes[0] for c in COMPRESSIONS)})"
        raise UsageError(f"cannot tell the {kind} format of {path}: use one of {known}")
    if compression is not None and not compressible(found):
        raise UsageError(
            f"the {kind} {path}: {found} is not written {compression.codec}-compressed (it compresses "
            f"its own columns): name it {plain_name(path).name}"
        )
    return found


def check_writable(path: Path, formats: Mapping[str, str] = OUTPUT_FORMATS, kind: str = "output") -> str:
    """The file's format, once its extension is known, its folder exists and it is not a folder."""
    format_name = format_for(path, formats, kind)
    check_file_target(path, kind)
    return format_name


def check_file_target(path: Path, kind: str = "output") -> None:
    """A file can be written at `path`: its name fits, it is not a folder, and its folder exists."""
    check_name_length(path, f"the {kind} {path.name}")
    check_not_a_loop(path, f"the {kind}")
    if path.is_dir():
        raise UsageError(f"the {kind} {path} is a folder: name a file")
    if not path.parent.exists():
        raise UsageError(f"folder of the output file does not exist: {path.parent}")
    if not (path.exists() and not path.is_file()):  # a pipe or device (/dev/stdout) is written as it is
        check_folder_writable(path.parent, f"the {kind} {path}")


def check_folder_writable(folder: Path, what: str) -> None:
    """Refuse before any work an output whose folder cannot be written (read-only, or another
    user's): it failed only after the whole run, naming the hidden .dedup-part file. A file made
    and removed there is the test (root may write where the permission bits say no)."""
    import tempfile

    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".dedup-probe-"):
            pass
    except OSError as error:
        raise UsageError(f"cannot write {what}: its folder {folder} is not writable ({error.strerror})") from None


def same_place(a: Path, b: Path) -> bool:
    """Whether two paths name one file: the same resolved path (either may not exist yet), or the
    same device and inode (a hard link, another spelling on a case-insensitive disk)."""
    if a.resolve() == b.resolve():
        return True
    try:
        return a.exists() and b.exists() and a.samefile(b)
    except OSError:
        return False


def is_duckdb_database(path: Path) -> bool:
    """Whether `path` is an existing regular file that holds a DuckDB database (its magic bytes)."""
    try:
        if not path.is_file():
            return False
        with path.open("rb") as stream:
            return stream.read(12)[8:12] == b"DUCK"
    except OSError:
        return False


def check_targets(targets: Iterable[tuple[str, Path]], db: Path | None = None) -> None:
    """Refuse outputs (option, path) that would destroy what the command works on: the database
    (its file, its write-ahead log, its spill folder), any other DuckDB database (another index),
    or one another (two outputs to one file: the second would replace the first)."""
    targets = list(targets)
    # beside the database; `db.parent / ...` as `--db .` or `--db /` have no name (with_name raised)
    protected = [] if db is None else [db, db.parent / f"{db.name}.wal", db.parent / f"{db.name}.tmp"]
    for number, (option, path) in enumerate(targets):
        check_not_a_loop(path, option)
        if any(same_place(path, place) for place in protected):
            raise UsageError(f"{option} {path} is the database {db}: writing it would destroy the index")
        if is_duckdb_database(path):
            raise UsageError(f"{option} {path} is a DuckDB database; an output never replaces one: give another file")
        for other_option, other in targets[:number]:
            if same_place(path, other):
                raise UsageError(f"{other_option} and {option} both name {path}: give each output its own file")


def check_new_target(path: Path, option: str, inputs: Iterable[Path]) -> None:
    """Refuse a file or folder that a run creates whole (--write-deduplicated): it must be a new
    name, not a link, in a folder that exists and can be written, and not an input or inside one."""
    check_name_length(path, f"{option} {path.name}")
    if path.is_symlink():
        raise UsageError(f"{path} is a symlink; {option} writes a new file or folder, not through a link")
    if any(str(source) != "-" and path.resolve() == source.resolve() for source in inputs):
        raise UsageError(f"{option} must not overwrite the input")
    if path.exists():
        raise UsageError(f"{path} exists already; {option} writes a new file or folder")
    if not path.parent.is_dir():
        raise UsageError(f"folder of the output does not exist: {path.parent}")
    check_folder_writable(path.parent, f"{option} {path}")
    check_not_an_input(inputs, path, option)


def _input_at(inputs: Iterable[Path], path: Path) -> tuple[Path, bool] | None:
    """The input that `path` is, or lies below (a folder), and whether it lies below; None if neither."""
    for source in inputs:
        if str(source) == "-" or not source.exists():  # standard input
            continue
        at = place_in(path, source)
        if at == "is" or (at == "below" and source.is_dir()):
            return source, at == "below"
    return None


def place_in(path: Path, folder: Path) -> Literal["is", "below"] | None:
    """Whether `path` "is" `folder` or lies "below" it, both resolved (links followed); None if neither."""
    resolved, root = path.resolve(), folder.resolve()
    if resolved == root:
        return "is"
    return "below" if root in resolved.parents else None


def check_not_an_input(inputs: Iterable[Path], target: Path, option: str) -> None:
    """Refuse a file the run writes (--output, --export) that is one it reads: an input file, or a
    file below an input folder; the run would read it, then replace it with its result. A new file
    below an input folder is refused too: the next run of the same command would read it as a
    document (and then refuse it as an input)."""
    found = _input_at(inputs, target)
    if found is None:
        return
    source, inside = found
    if target.exists():
        raise UsageError(f"{option} {target} would overwrite the input {source}: write it elsewhere")
    if inside:
        raise UsageError(
            f"{option} {target} is inside the input folder {source}: the next run would read it as a document; "
            "write it elsewhere"
        )


def check_kept_outside(inputs: Iterable[Path], path: Path, option: str) -> None:
    """Refuse --db or --temp-dir inside an input folder: every later run would list the database
    (or the spill files) among its inputs, a binary file skipped, so the inputs never match a run
    before (no run resumes) and --write-deduplicated sees its input change during the run."""
    found = _input_at(inputs, path)
    if found is None or not found[0].is_dir():
        return
    source, inside = found
    where = "is inside the input folder" if inside else "is the input folder"
    raise UsageError(
        f"{option} {path} {where} {source}: every run would list it among the inputs, so none could resume; "
        "keep it elsewhere"
    )


def check_outside_work_dir(work_dir: Path, path: Path, option: str) -> None:
    """Refuse an output in Spark's work folder: it holds the stage tables (Spark's database), and a
    file written among them is read by the next run as a part of a table, which it cannot read."""
    if place_in(path, work_dir) is not None:
        raise UsageError(
            f"{option} {path} is inside --work-dir {work_dir}, which holds the run's stage tables: write it elsewhere"
        )


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """Write `path` through a temporary file beside it, renamed over it only once complete: a full
    disk, an error or Ctrl-C leaves the old file (or none) and no truncated one. Yields the name to
    write; an OSError becomes one line. A target that is not a regular file (a FIFO, /dev/stdout)
    is written directly; a symlink's target is replaced, not the link. A new folder is written so
    too (`--write-deduplicated` of a folder): the caller makes the temporary name a folder."""
    target = Path(os.path.realpath(path))
    try:  # the path's own stat: /dev/stdout on a pipe resolves to a name that is not a file
        mode = path.stat().st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with written(path):
            yield path
        return
    temporary = target.with_name(f".dedup-part-{os.getpid()}.{target.name}")
    if len(os.fsencode(temporary.name)) > NAME_MAX:  # a long name: one that fits, still its own
        digest = hashlib.sha256(os.fsencode(target.name)).hexdigest()[:16]
        ends = "".join(target.suffixes[-2:])[-32:]  # a compression and a format: what the writer reads
        temporary = target.with_name(f".dedup-part-{os.getpid()}.{digest}{ends}")
    try:
        with written(path):
            yield temporary
            os.replace(temporary, target)
    finally:
        if temporary.is_dir() and not temporary.is_symlink():
            shutil.rmtree(temporary)
        elif temporary.exists() or temporary.is_symlink():
            temporary.unlink()


@contextmanager
def written(path: Path) -> Iterator[None]:
    try:
        yield
    except OSError as error:
        reason = error.strerror or first_line(error)
        raise DedupError(f"cannot write {path}: {reason}") from None
    except pa.ArrowException as error:  # pyarrow's writers report a full disk as an ArrowIOError
        raise DedupError(f"cannot write {path}: {first_line(error)}") from None


Rows: TypeAlias = "pa.Table | pa.RecordBatchReader"
# A Parquet file is written in row groups of this many rows, whatever the batches it is given.
PARQUET_ROW_GROUP = 1_048_576


class Counted:
    """A reader's batches passed on as `reader`, their rows counted in `rows` as they go by: what
    a stream wrote, known once it has been read."""

    def __init__(self, source: pa.RecordBatchReader) -> None:
        self.rows = 0
        self.reader = pa.RecordBatchReader.from_batches(source.schema, self._batches(source))

    def _batches(self, source: pa.RecordBatchReader) -> Iterator[pa.RecordBatch]:
        for batch in source:
            self.rows += batch.num_rows
            yield batch


def write_table(rows: Rows, path: Path, kind: str | None = None) -> None:
    """The rows to `path` in the format `kind`, by default the one its extension names, replacing it
    only once complete."""
    with replacing(path) as target:
        write_rows(rows, target, kind or format_for(path))


def write_rows(rows: Rows, path: Path, kind: str | None = None) -> None:
    """The rows (a table, or a reader streamed batch by batch in bounded memory) to `path` as it is
    named (no temporary file), by the writer of its format (ROW_WRITERS); a format without one is an
    error, never another format's bytes under its name."""
    writer = row_writer(kind or format_for(path))
    with written(path):
        writer.to_file(rows, path)


@dataclass(frozen=True)
class TextWriter:
    """How a text format writes rows: the line end its file is opened with, a batch (and whether it
    is the first), and what a result without rows writes (a CSV its header). A file is compressed
    as its name says."""

    newline: str
    batch: Callable[[pa.RecordBatch, TextIO, bool], None]
    empty: Callable[[pa.Schema, TextIO], None] | None = None

    def to_file(self, rows: Rows, path: Path) -> None:
        with open_text(path, newline=self.newline) as stream:
            self.to_stream(rows, stream)

    def to_stream(self, rows: Rows, stream: TextIO) -> None:
        """The rows on an open stream, a batch at a time: a file, or stdout (the CLI's --format)."""
        first = True
        for batch in batches(rows):
            self.batch(batch, stream, first)
            first = False
        if first and self.empty is not None:
            self.empty(rows.schema, stream)


@dataclass(frozen=True)
class BinaryWriter:
    """How a binary format writes rows, to a file opened by its bytes (a name that is not UTF-8 too)."""

    write: Callable[[Rows, pa.NativeFile], None]

    def to_file(self, rows: Rows, path: Path) -> None:
        with pa.OSFile(os.fsencode(path), "wb") as sink:
            self.write(rows, sink)


def row_writer(kind: str) -> TextWriter | BinaryWriter:
    try:
        return ROW_WRITERS[Format(kind)]
    except (KeyError, ValueError):
        raise ValueError(f"no writer of rows as {kind}") from None


def write_text_rows(rows: Rows, stream: TextIO, kind: str) -> None:
    """The rows in the text format `kind` on an open stream (stdout, the CLI's --format)."""
    writer = row_writer(kind)
    if not isinstance(writer, TextWriter):
        raise ValueError(f"{kind} is not a text format")
    writer.to_stream(rows, stream)


# Rows per record batch of a result streamed from an engine to a file or stdout.
STREAM_ROWS = 65_536


def batches(rows: Rows, size: int = STREAM_ROWS) -> Iterator[pa.RecordBatch]:
    """The rows in record batches of at most `size` rows (a reader's own batches as they come),
    cut further where list cells hold more than `size` values in all: a batch becomes Python
    objects when it is written as text, and an adjacency list's rows can hold thousands of ids
    each (65,536 rows of a group of 4,919 copies: 24M ids at once)."""
    parts = rows.to_batches(max_chunksize=size) if isinstance(rows, pa.Table) else rows
    for batch in parts:
        yield from _by_values(batch, size)


def is_list_type(kind: pa.DataType) -> bool:
    return pa.types.is_list(kind) or pa.types.is_large_list(kind)


def _by_values(batch: pa.RecordBatch, size: int) -> Iterator[pa.RecordBatch]:
    lists = [column for column in batch.columns if is_list_type(column.type)]
    if not lists or batch.num_rows <= 1:
        yield batch
        return
    import pyarrow.compute as pc

    counts = [pc.fill_null(pc.list_value_length(column), 0).to_pylist() for column in lists]
    start = values = 0
    for row in range(batch.num_rows):
        here = 1 + sum(count[row] for count in counts)
        if row > start and values + here > size:
            yield batch.slice(start, row - start)
            start, values = row, 0
        values += here
    yield batch.slice(start)


def _write_parquet(rows: Rows, sink: pa.NativeFile) -> None:
    """Parquet in row groups of PARQUET_ROW_GROUP rows, as pq.write_table writes a table: the same
    bytes whether the rows came as one table or streamed in batches of any size."""
    import pyarrow.parquet as pq

    if isinstance(rows, pa.Table):
        pq.write_table(rows, sink, row_group_size=PARQUET_ROW_GROUP)
        return
    with pq.ParquetWriter(sink, rows.schema) as writer:
        pending: list[pa.RecordBatch] = []
        count = 0
        wrote = False
        for batch in rows:
            pending.append(batch)
            count += batch.num_rows
            while count >= PARQUET_ROW_GROUP:
                table = pa.Table.from_batches(pending, rows.schema)
                writer.write_table(table.slice(0, PARQUET_ROW_GROUP), row_group_size=PARQUET_ROW_GROUP)
                rest = table.slice(PARQUET_ROW_GROUP)
                pending, count, wrote = rest.to_batches(), rest.num_rows, True
        if count or not wrote:  # an empty result is one empty row group, as pq.write_table writes it
            writer.write_table(pa.Table.from_batches(pending, rows.schema), row_group_size=PARQUET_ROW_GROUP)


def write_csv(table: pa.Table | pa.RecordBatch, stream: TextIO, header: bool = True) -> None:
    import csv

    writer = csv.writer(stream, lineterminator="\n")
    if header:
        writer.writerow(table.column_names)
    columns = _columns(table)
    for index, kind in enumerate(table.schema.types):
        if pa.types.is_nested(kind) or is_bytes_type(kind):
            columns[index] = [_csv_cell(value) for value in columns[index]]
    rows = (["" if value is None else value for value in row] for row in zip(*columns, strict=True))
    if not any(_holds_cr(column) for column in columns):
        writer.writerows(rows)
        return
    # csv quotes a cell holding a character of its line terminator, so a lone CR ("old mac\rtext")
    # was written bare and read back as a line break, splitting the row. A row holding a CR is written
    # with "\r\n" as terminator, which quotes exactly such cells, and ends with "\n" as every row does.
    buffer = io.StringIO()
    quoting_cr = csv.writer(buffer, lineterminator="\r\n")
    for row in rows:
        if any(isinstance(value, str) and "\r" in value for value in row):
            buffer.seek(0)
            buffer.truncate()
            quoting_cr.writerow(row)
            stream.write(buffer.getvalue()[:-2] + "\n")
        else:
            writer.writerow(row)


def _holds_cr(column: list[object]) -> bool:
    return any(isinstance(value, str) and "\r" in value for value in column)


def _csv_cell(value: object) -> object:
    """A nested value (list, struct, map) as JSON and bytes as hex, as JSON lines writes them (CSV
    had Python's repr: `{'a': 1}`, `b'\\x00'`)."""
    if isinstance(value, (list, dict)):
        return json_text(value)
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    return value


def write_jsonl(table: pa.Table | pa.RecordBatch, stream: TextIO) -> None:
    names = table.column_names
    if not any(_holds_decimals(kind) for kind in table.schema.types):
        for row in python_rows(table):
            stream.write(json.dumps(dict(zip(names, row, strict=True)), ensure_ascii=False, default=_json_value) + "\n")
        return
    keys = [json.dumps(name, ensure_ascii=False) for name in names]
    for row in python_rows(table):
        stream.write(
            "{" + ", ".join(f"{key}: {json_text(value)}" for key, value in zip(keys, row, strict=True)) + "}\n"
        )


def json_text(value: object) -> str:
    """A cell as JSON text, as `json.dumps` writes it, but decimals with every digit: through a float
    (what json can write) a DECIMAL(38, 0) id 12345678901234567891 came out as 1.2345678901234567e+19."""
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, dict):
        items = (f"{json.dumps(str(key), ensure_ascii=False)}: {json_text(item)}" for key, item in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(json_text(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False, default=_json_value)


def _holds_decimals(kind: pa.DataType) -> bool:
    if pa.types.is_decimal(kind):
        return True
    return any(_holds_decimals(kind.field(i).type) for i in range(kind.num_fields))


def _json_value(value: object) -> object:
    """What JSON has no type for: dates and times as ISO 8601 text, bytes as hex (decimals: json_text)."""
    if hasattr(value, "isoformat"):
        return value.isoformat()  # type: ignore[attr-defined]
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    return str(value)


def python_rows(table: pa.Table | pa.RecordBatch) -> list[tuple[object, ...]]:
    return list(zip(*_columns(table), strict=True))


def _columns(table: pa.Table | pa.RecordBatch) -> list[list[object]]:
    return [_values(column, name) for column, name in zip(table.columns, table.column_names, strict=True)]


def _values(column: pa.Array | pa.ChunkedArray, name: str) -> list[object]:
    """A column as Python values; where Python has no value for a cell (a timestamp or time in
    nanoseconds, a date past year 9999 or infinite: DuckDB's TIMESTAMP_NS, 'infinity'::DATE),
    Arrow's own text of it, every digit kept; a cell with no text either is an error of one line."""
    if pa.types.is_interval(column.type):
        return [None if value is None else interval_text(*value) for value in column.to_pylist()]
    problem = "Python has no value for it"
    if not _nanoseconds(column.type):  # those: Arrow's text, whether pandas is installed or not
        try:
            return column.to_pylist()
        except (ValueError, OverflowError) as error:
            problem = first_line(error).split(". ")[0]  # pyarrow goes on with advice about pandas
    import pyarrow.compute as pc

    try:
        texts = pc.cast(column, pa.string()).to_pylist()
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid):
        texts = None
    if texts is None or any(text is not None and text.startswith("<value out of range") for text in texts):
        raise DedupError(
            f"cannot write column {name!r} ({column.type}) as text: {problem}; "
            "write it as Parquet, or cast it to VARCHAR in SQL"
        )
    return texts


def _nanoseconds(kind: pa.DataType) -> bool:
    """A time stamp, time or duration in nanoseconds: Python's datetime has microseconds, so
    to_pylist raised (and the cell was written as Arrow's text), unless pandas is installed: then
    it gave pandas' Timestamp (written with a 'T') and cut a time's nanoseconds silently."""
    temporal = pa.types.is_timestamp(kind) or pa.types.is_time64(kind) or pa.types.is_duration(kind)
    if temporal:
        return kind.unit == "ns"  # type: ignore[attr-defined,no-any-return]
    return any(_nanoseconds(kind.field(i).type) for i in range(kind.num_fields))  # in a list, a struct, a map


def is_bytes_type(kind: pa.DataType) -> bool:
    return (
        pa.types.is_binary(kind)
        or pa.types.is_large_binary(kind)
        or pa.types.is_fixed_size_binary(kind)
        or pa.types.is_binary_view(kind)
    )


def interval_text(months: int, days: int, nanoseconds: int) -> str:
    """An interval as DuckDB writes it as text (`1 year 2 months 3 days 04:05:06.5`, `-03:00:00`),
    where Python wrote `MonthDayNano(months=14, days=3, nanoseconds=14706500000000)`."""
    years = int(months / 12)  # toward zero, as DuckDB divides: -13 months is -1 year -1 month
    parts = [
        f"{count} {unit}{'' if count in (1, -1) else 's'}"
        for count, unit in ((years, "year"), (months - 12 * years, "month"), (days, "day"))
        if count
    ]
    if nanoseconds or not parts:
        sign = "-" if nanoseconds < 0 else ""
        seconds, fraction = divmod(abs(nanoseconds), 10**9)
        minutes, second = divmod(seconds, 60)
        hours, minute = divmod(minutes, 60)
        text = f"{sign}{hours:02d}:{minute:02d}:{second:02d}"
        parts.append(text + (f".{fraction:09d}".rstrip("0") if fraction else ""))
    return " ".join(parts)


# The writer of each format that dedup.formats registers for --output and copies: a format
# registered without one fails in row_writer, and tests/test_formats.py checks that every
# registered output and copy format has one, and writes each.
ROW_WRITERS: dict[Format, TextWriter | BinaryWriter] = {
    Format.parquet: BinaryWriter(_write_parquet),
    Format.csv: TextWriter(
        "",
        lambda batch, stream, first: write_csv(batch, stream, header=first),
        lambda s, out: write_csv(s.empty_table(), out),
    ),
    Format.jsonl: TextWriter("\n", lambda batch, stream, first: write_jsonl(batch, stream)),
}
