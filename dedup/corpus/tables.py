"""Tables as inputs (Parquet files and dataset folders, CSV and TSV, JSON lines, gzip- or
zstd-compressed by extension): which file is a table, its rows read in parts, and the checks that make both
engines read a table alike.

To add an input format: its Spec in dedup.formats (with Spark's reader of it, if any) and its
TableReader here (TABLE_READERS: its parts, and whole for --write-deduplicated)."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import BinaryIO, NamedTuple

import pyarrow as pa

from ..errors import InputError, UsageError, first_line
from ..formats import (
    COMPRESSED,
    PARQUET,
    SUFFIX,
    TABLE_FORMATS,
    Compression,
    Format,
    compressible,
    compression_of,
    latin1_cells,
    open_binary,
    separator,
)
from ..names import escaped, is_utf8
from .collected import ARROW_BATCH_ROWS, Corpus, Skipped
from .columns import read_arrow
from .decoding import BINARY_SNIFF_BYTES, refuse_utf16
from .folders import FOLDER_LINK, path_id
from .lines import STDIN
from .spool import SPOOL_BYTES
from .walk import walk


def table_format(path: Path) -> str | None:
    """parquet, csv, tsv or jsonl for a table on this machine (see file_format and folder_format);
    None otherwise."""
    if path == STDIN:
        return None
    if path.is_dir():
        return folder_format(path.name, lambda: names_below(path))
    return file_format(path.name)


def names_below(folder: Path) -> Iterator[str]:
    """The names of the files below a folder on this machine, as they are walked (folder links not
    followed), those starting with . or _ left out, and those in folders so named (a `.cache/`),
    as list_dataset leaves them out."""
    for top, folders, others in walk(folder):
        folders[:] = [name for name in folders if not name.startswith(HIDDEN)]
        for name in others:
            if not name.startswith(HIDDEN) and (top / name).is_file():
                yield name


def file_format(name: str) -> str | None:
    """A table file's format by its name's suffix, `.gz` allowed but for Parquet (`docs.csv.gz`)."""
    suffixes = [suffix.lower() for suffix in Path(name).suffixes[-2:]]
    if suffixes and suffixes[-1] in COMPRESSED:
        kind = TABLE_FORMATS.get(suffixes[0]) if len(suffixes) == 2 else None
        return kind if compressible(kind) else None
    return TABLE_FORMATS.get(Path(name).suffix.lower())


# Files a Parquet dataset's readers leave out (Hadoop's hidden files, `_SUCCESS`, `.crc`).
HIDDEN = (".", "_")


# The files a downloaded dataset keeps beside its shards (a dataset card, a licence, metadata):
# left out of the table, as skipped inputs. By name, whatever its suffix (a folder of other .md or
# .json files beside a CSV is a folder of documents, not a table with its notes), or by a
# suffix only configuration has.
ABOUT_NAMES = (
    "readme", "license", "licence", "copying", "notice", "citation", "changelog",
    "dataset_info", "dataset_infos", "dataset_dict", "state.json",
)  # fmt: skip
ABOUT_SUFFIXES = (".yaml", ".yml", ".cff")
NOT_A_SHARD = "not a table shard: the dataset's description or metadata"


def is_about(name: str) -> bool:
    """Whether a file beside a dataset's shards describes it (README.md, LICENSE, dataset_info.json,
    a .yaml configuration)."""
    lower = name.lower()
    return lower.startswith(ABOUT_NAMES) or Path(lower).suffix in ABOUT_SUFFIXES


def folder_format(name: str, listed: Callable[[], Iterable[str]]) -> str | None:
    """The format of a dataset folder: a folder named *.parquet (not listed), or one whose files are
    table shards of one format (`data/train-0000.parquet`, `part-1.jsonl.gz`: .gz and plain alike)
    beside the files that describe it (README.md, LICENSE, dataset_info.json: see is_about); names
    starting with . or _ left out (a `.cache/`, `_SUCCESS`). None for another folder, a folder of
    text files. The names `listed` gives are read up to the first that says which (a folder of
    text files was walked through whole before it was read: 0.56 s for 100,000 files)."""
    if Path(name).suffix.lower() == SUFFIX[PARQUET]:
        return PARQUET
    found: str | None = None
    other: str | None = None  # a second format's shard: refused once no other file says "documents"
    for below in listed():
        if below.startswith(HIDDEN):
            continue
        kind = file_format(below)
        if kind is None:
            if is_about(below):
                continue
            return None
        if found is not None and kind != found:
            other = kind
        found = found or kind
    if other is not None:
        raise UsageError(
            f"{name} holds tables of two formats ({found}, {other}) and nothing else: give each format's "
            "files as their own inputs"
        )
    return found


def read_table(
    corpus: Corpus,
    path: Path,
    kind: Format,
    id_column: str | None,
    text_column: str,
    prefix: str | None,
    delimiter: str | None = None,
) -> None:
    """A table of format `kind` (its input kind's) as documents: a file, or a dataset folder
    (folder_format), its Parquet parts read as one dataset, its shards of another format one after
    the other in path order. A table without an id column numbers its rows from 1 across its parts
    and shards."""
    read = TableRead(kind, id_column, text_column, prefix, delimiter)
    if path.is_dir():
        dataset = list_dataset(path)
        corpus.skipped += dataset.skipped()
        if kind != PARQUET:
            rows = 0
            for shard in dataset.files:
                rows += _read_file(corpus, Path(shard), read, rows)
            return
        check_dataset(path, dataset.files, text_column, id_column)
        _read_file(corpus, path, read, 0, dataset)
        return
    _read_file(corpus, path, read, 0)


class TableRead(NamedTuple):
    """How a run reads a table's rows as documents: its format, its id and text columns (--id-column,
    --text-column), the ids' prefix in a run of several inputs, and --delimiter."""

    kind: Format
    id_column: str | None
    text_column: str
    prefix: str | None
    delimiter: str | None


def _read_file(corpus: Corpus, path: Path, read: TableRead, start: int, dataset: DatasetListing | None = None) -> int:
    """One table file (or a Parquet dataset) read, its rows numbered from start + 1; how many rows."""
    if path.is_file() and path.stat().st_size == 0:
        return 0  # a zero-byte .csv/.jsonl is an empty table: no columns to check, no rows to read
    if dataset is not None:
        return _read_parts(corpus, _dataset_parts(path, dataset.files), path, read, start)
    return TABLE_READERS[read.kind].documents(corpus, path, read, start)


def _read_parts(corpus: Corpus, parts: Iterable[pa.Table], path: Path, read: TableRead, start: int) -> int:
    latin1 = latin1_cells(read.kind)
    rows = start
    for table in parts:
        read_arrow(corpus, table, str(path), read.id_column, read.text_column, read.prefix, latin1, rows)
        rows += table.num_rows
    return rows - start


def _file_documents(corpus: Corpus, path: Path, read: TableRead, start: int) -> int:
    """A table file's rows read in parts, each part's columns as they are."""
    return _read_parts(corpus, table_parts(path, read.kind, read.delimiter), path, read, start)


def _json_documents(corpus: Corpus, path: Path, read: TableRead, start: int) -> int:
    """A JSON lines file in parts of lines. A key missing from every line of a part is a column
    missing from that part: its id and text columns are those of the whole file, NULL where a
    line lacks them, as reading the file whole gives."""
    id_column, text_column = read.id_column, read.text_column
    seen: dict[str, None] = {}  # the columns of the parts so far, in order
    kinds: dict[str, str] = {}  # the JSON type of the id and text values so far
    key_name = corpus.keep_by.column if corpus.keep_by is not None else None
    rows = 0
    for table in table_parts(path, read.kind):
        if table.num_rows == 0:
            continue  # blank lines only
        names = table.column_names
        for name in (id_column or "id", text_column):
            if name in names:
                _check_json_kind(table.column(name), path, name, kinds, rows)
            elif name in seen or name == text_column:
                table = table.append_column(name, pa.nulls(table.num_rows))
        if key_name is not None and key_name not in names:  # a NULL key, as the file read whole has it
            table = table.append_column(key_name, pa.nulls(table.num_rows))
        if id_column is None and "id" in names and rows and "id" not in seen:
            raise InputError(f"{path}: id column 'id' is missing from the first {rows:,} lines (NULL ids)")
        seen.update(dict.fromkeys(names))
        _check_json_ids(table, path, id_column or "id")
        read_arrow(corpus, table, str(path), id_column, text_column, read.prefix, (), start + rows)
        rows += table.num_rows
    if rows and text_column not in seen:
        raise InputError(f"{path}: no text column {text_column!r}; columns are {', '.join(map(repr, seen)) or 'none'}")
    if rows and key_name is not None and key_name not in seen:
        raise InputError(f"{path}: no --keep-by column {key_name!r}; columns are {', '.join(map(repr, seen))}")
    return rows


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


def table_parts(path: Path, kind: Format, delimiter: str | None = None) -> Iterator[pa.Table]:
    """A table file's rows in parts, by the reader of its format `kind` (TABLE_READERS);
    `delimiter`: --delimiter, for a delimited one."""
    try:
        yield from TABLE_READERS[kind].parts(path, delimiter)
    except (pa.ArrowInvalid, OSError, EOFError) as error:  # OSError: a truncated .gz
        raise InputError(f"cannot read table {path}: {first_line(error)}") from None


def _json_parts(path: Path, delimiter: str | None = None) -> Iterator[pa.Table]:
    """A JSON lines file (compressed by extension) in parts of whole lines, about PART_BYTES each."""
    with open_binary(path) as file:
        refuse_utf16(path, file.peek(BINARY_SNIFF_BYTES)[:BINARY_SNIFF_BYTES])
        while lines := file.readlines(PART_BYTES):
            yield _load_json(b"".join(lines))


def _parquet_parts(path: Path, delimiter: str | None = None) -> Iterator[pa.Table]:
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
    return ds.dataset(files, format=PARQUET.value, partitioning=partitioning, partition_base_dir=str(root))


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
                if path.suffix == SUFFIX[PARQUET] and path.is_file():
                    left_out.append((path, "not read: a Parquet dataset leaves out names starting with . or _"))
            elif not path.exists():
                left_out.append((path, "broken symlink"))
            elif not path.is_file():
                left_out.append((path, "not a regular file"))
            elif not is_utf8(path.as_posix()):  # Arrow's dataset (and Spark) open parts by UTF-8 name
                left_out.append((path, NOT_UTF8_PART))
            elif file_format(name) is None and is_about(name):
                left_out.append((path, NOT_A_SHARD))
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


def load_table(path: Path, kind: Format, delimiter: str | None = None) -> pa.Table:
    """A table of format `kind` whole (--write-deduplicated): a file, a Parquet dataset, or a folder
    of shards of another format, concatenated in path order."""
    try:
        if not path.is_dir():
            return TABLE_READERS[kind].whole(path, delimiter)
        if kind == PARQUET:  # a dataset, its files read in path order
            return _open_dataset(path, list_dataset(path).files).to_table()
        shards = [TABLE_READERS[kind].whole(Path(shard), delimiter) for shard in list_dataset(path).files]
        return pa.concat_tables(shards, promote_options="permissive") if shards else pa.table({})
    except (pa.ArrowInvalid, OSError) as error:
        raise InputError(f"cannot read table {path}: {first_line(error)}") from None


def _parquet_whole(path: Path, delimiter: str | None = None) -> pa.Table:
    import pyarrow.parquet as pq

    # without pyarrow.dataset, which pq.read_table imports (~0.1 s)
    with arrow_file(path) as source, pq.ParquetFile(source) as parquet:
        return parquet.read()


def _delimited_parts(kind: Format, path: Path, delimiter: str | None) -> Iterator[pa.Table]:
    return _csv_parts(path, separator(kind, delimiter))  # --delimiter, else the format's


def _delimited_whole(kind: Format, path: Path, delimiter: str | None) -> pa.Table:
    return pa.concat_tables(list(_delimited_parts(kind, path, delimiter)))  # its cells as bytes (csv_cells_as_text)


def _json_whole(path: Path, delimiter: str | None = None) -> pa.Table:
    return _load_json(path)


def arrow_file(path: Path) -> pa.NativeFile:
    """A file opened for Arrow by its bytes, so that a name that is not UTF-8 opens too (Arrow takes
    a path as UTF-8 text and stopped on it with UnicodeEncodeError); decompressed by extension,
    as Arrow's readers decompress a path."""
    file = pa.OSFile(os.fsencode(path))
    compression = compression_of(path)
    return pa.CompressedInputStream(file, compression.codec) if compression is not None else file


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


def _csv_source(data: BinaryIO, compression: Compression | None) -> BinaryIO | pa.NativeFile:
    """The open file for pyarrow's CSV reader, which reads it without closing it: decompressed
    when the name says so (as Arrow decompresses a path)."""
    return compression.decompressing(data) if compression is not None else data


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
    """A CSV/TSV (compressed by extension) in parts of about PART_BYTES, every cell as the
    bytes it holds; a row with the wrong number of fields is an error that names its line
    (dedup.corpus.csv_check, before a cell is read), never a row silently dropped. Inferred types
    turned the id 007 into 7, a 20-digit id into a rounded float, a date into a timestamp and the
    text NA into NULL, and would write them back so in --write-deduplicated; empty cells are empty
    strings. The bytes are decoded as a text file is (decoded_cells: UTF-8, else Latin-1); the
    separators and quotes are ASCII."""
    import pyarrow.csv as pcsv

    from .csv_check import check_csv

    compression = compression_of(path)
    # The file is opened once and read by one reader: what is read is what was checked (the check,
    # the header and the rows each opened the path, and a file moved over it meanwhile was read
    # unchecked). The header's names are the check's: a second reader of the same open file
    # read ahead in the background and moved the first one's place.
    with path.open("rb") as data:
        layout = check_csv(str(path), data, delimiter, compression)  # what both engines refuse alike
        if not all(is_utf8(name) for name in layout.names):
            shown = next(name for name in layout.names if not is_utf8(name))
            raise InputError(f"{path}: line 1: the column name {escaped(shown)} is not UTF-8 text")
        data.seek(0)
        options = pcsv.ParseOptions(delimiter=delimiter, newlines_in_values=True)  # a bad row: ArrowInvalid
        convert = pcsv.ConvertOptions(column_types=dict.fromkeys(layout.names, pa.binary()))
        blocks = pcsv.ReadOptions(block_size=PART_BYTES)
        source = _csv_source(data, compression)
        with pcsv.open_csv(source, read_options=blocks, parse_options=options, convert_options=convert) as reader:
            schema, parts = reader.schema, 0
            for batch in reader:
                parts += 1
                yield pa.Table.from_batches([batch])
    if not parts:
        yield schema.empty_table()


class TableReader(NamedTuple):
    """How a table format is read: a file's rows in parts (`parts(path, delimiter)`, --delimiter for
    a delimited one), a file whole (`whole`, for a deduplicated copy), and a file's rows added to
    the corpus as documents (`documents`, by default its parts read as they come)."""

    parts: Callable[[Path, str | None], Iterator[pa.Table]]
    whole: Callable[[Path, str | None], pa.Table]
    documents: Callable[[Corpus, Path, TableRead, int], int] = _file_documents


# The reader of each table format that dedup.formats registers as an input (a test checks that every
# one has its reader, and nothing more).
TABLE_READERS = {
    Format.parquet: TableReader(_parquet_parts, _parquet_whole),
    Format.csv: TableReader(partial(_delimited_parts, Format.csv), partial(_delimited_whole, Format.csv)),
    Format.tsv: TableReader(partial(_delimited_parts, Format.tsv), partial(_delimited_whole, Format.tsv)),
    # JSON lines: each part's columns made those of the whole file, a key's JSON type checked across parts
    Format.jsonl: TableReader(_json_parts, _json_whole, _json_documents),
}
