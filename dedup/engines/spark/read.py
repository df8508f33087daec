"""The corpus as Spark reads it: every input read by Spark's own readers, so no text passes through
the driver (but a CSV/TSV, read once there by dedup.corpus.csv_check, as on the DuckDB engine).
Folders of text files (binaryFile), line files (text, split on \\n only), and tables
(.parquet files or Parquet dataset folders, .csv, .tsv, .jsonl/.ndjson, gzip-compressed or not).

Each input's kind (dedup.corpus.input_kind, the rules shared with the DuckDB engine) gives one
plan of how Spark reads it (dedup.corpus.FilesPlan, LinesPlan, TablePlan: the reader and its
options, the files of a local folder or dataset); this module runs the plan (`_InputReads`, which
the plan calls back: no kind is asked its class) and turns the rows into documents.

The rules are the DuckDB engine's (dedup/corpus/): UTF-8 with a leading BOM dropped, else Latin-1;
binary files (a NUL byte in the first 8000 bytes) and NULL texts are skipped with a reason; ids are
relative paths, line numbers, the id column or the row number, prefixed by the input when there are
several. Input order (position, line and row numbers) comes from a range-partitioned sort of the
rows' keys and per-partition counts (sql/spark/inputs/), not from one task; the texts are joined
back to their numbers, never sorted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...corpus import (
    BINARY_SKIPPED,
    BINARY_SNIFF_BYTES,
    STDIN,
    UTF8_BOM,
    UTF16_BOMS,
    UTF16_SKIPPED,
    FilesPlan,
    LinesPlan,
    Listing,
    SparkPlace,
    TablePlan,
    check_distinct_inputs,
    input_kind,
    mac_lines_note,
    names_below,
    nan_ids,
    path_id,
    read_once,
    unlisted_reason,
)
from ...errors import InputError, UsageError
from ...formats import SparkReader
from ...keep_by import KeepBy
from ...names import is_utf8
from ...settings import Reading

BOM = bytearray(UTF8_BOM)
LONG = 2**31 - 1  # substring length meaning "to the end"
# Spark's file listing leaves out names starting with '.' or '_' (Hadoop's hidden files)
HIDDEN_PREFIXES = (".", "_")


def read_corpus(engine: Any, reading: Reading) -> tuple[bool, list[str]]:
    """Register raw_documents(position, id, text, encoding) and raw_skipped(source, reason) on the engine.
    Returns whether an input table's id column gives ids (which may then repeat: the caller checks
    them) and the notes for the summary."""
    from pyspark.sql import functions as F

    check_distinct_inputs(reading.inputs)  # before the session reads anything twice
    session = engine.session
    multiple = len(reading.inputs) > 1
    frames = []
    skipped: list[tuple[str, str]] = []
    id_columns: list[str] = []  # the inputs whose ids come from a column
    notes: list[str] = []
    plans: list[FilesPlan | LinesPlan | TablePlan] = []
    for rank, given in enumerate(reading.inputs):
        path = given.as_posix() if hasattr(given, "as_posix") else str(given)
        if not is_utf8(path):  # Hadoop's Path stopped on it with a Py4J error
            raise InputError(
                f"{path_id(Path(path))}: Spark opens UTF-8 paths only, and this one is not: rename it, "
                "or use --engine duckdb"
            )
        plan = _plan(engine, path, reading, multiple)
        frames.append(plan.read_by(_InputReads(engine, path, rank, reading, multiple, skipped, id_columns, notes)))
        plans.append(plan)
    # one input's ids are its line or row numbers: a line file, a table without an id column
    numbered_ids = plans[0].row_numbered and not id_columns
    frame = frames[0]
    for other in frames[1:]:
        frame = frame.unionByName(other)
    engine.register_dataframe("raw_read", frame)
    engine.create_table("raw_sorted", engine.sql.statement("inputs/raw_sorted.sql"))
    engine.create_table("raw_numbered", engine.sql.statement("inputs/raw_numbered.sql"))
    # the rows back with their numbers: a join on the keys (broadcast while the keys are small), so
    # the texts are read once more but never sorted
    keys = session.table("raw_numbered")
    numbered = (
        frame.alias("r")
        .join(
            keys.alias("k"), (F.col("r.source") == F.col("k.source")) & (F.col("r.source_row") == F.col("k.scan_row"))
        )
        .select(*(F.col(f"r.{name}") for name in frame.columns if name != "source_row"), "k.source_row", "k.position")
    )
    # a row's id as text: its input's prefix (several inputs), then its line or row number
    row_id = F.concat(F.coalesce(F.col("id_prefix"), F.lit("")), F.col("source_row").cast("string"))
    content = F.col("content")
    # a BOM starts a file or any of its lines (as dedup.corpus.decoding.decode reads each line: files
    # joined by `cat`); a table's cell (content when not UTF-8) keeps its bytes
    content = F.when(~F.col("from_table"), _drop_bom(content)).otherwise(content)
    valid = F.is_valid_utf8(content.cast("string"))
    text = F.coalesce(F.col("text"), F.when(valid, content.cast("string")).otherwise(F.decode(content, "ISO-8859-1")))
    encoding = F.when(F.col("text").isNull() & ~valid, F.lit("latin-1")).otherwise(F.lit("utf-8"))
    # one input: its ids as they are (strings, the id column's type, or line/row numbers); several:
    # every id is a string prefixed by its input, so they never collide
    if multiple:
        ids = F.coalesce(F.col("id").cast("string"), row_id)
    elif numbered_ids:
        ids = F.col("source_row")
    else:
        ids = F.col("id")
    keyed = [F.col(name) for name in KEYS] if reading.keep_by is not None else []
    documents = numbered.where(F.col("reason").isNull()).select(
        F.col("position"), ids.alias("id"), text.alias("text"), encoding.alias("encoding"), *keyed
    )
    engine.register_dataframe("raw_documents", documents)
    listed = session.createDataFrame(skipped, "source string, reason string")
    from_rows = numbered.where(F.col("reason").isNotNull()).select(
        F.coalesce(F.col("id").cast("string"), row_id).alias("source"), F.col("reason")
    )
    engine.register_dataframe("raw_skipped", listed.unionByName(from_rows))
    return bool(id_columns), notes


def _drop_bom(content: Any) -> Any:
    from pyspark.sql import functions as F

    return F.when(F.substring(content, 1, 3) == F.lit(BOM), F.substring(content, 4, LONG)).otherwise(content)


def _plan(engine: Any, path: str, reading: Reading, multiple: bool) -> FilesPlan | LinesPlan | TablePlan:
    """The plan the input's kind gives Spark (dedup.corpus.SparkPlace), its kind found by
    dedup.corpus.input_kind with its path looked at through Spark's file system."""
    _refuse_a_stream(engine, path)
    fs, hadoop_path = engine._filesystem(path)
    if not fs.exists(hadoop_path):
        raise UsageError(f"input not found: {path}")
    local = engine.local_path(path)

    def listed() -> Iterable[str]:  # as the DuckDB engine lists it (Spark's listing follows folder links)
        return names_below(Path(local)) if local is not None else _hadoop_names(fs, hadoop_path)

    folder = bool(fs.getFileStatus(hadoop_path).isDirectory())
    kind = input_kind(Path(path), reading.lines, Listing(folder, listed))
    if reading.keep_by_column is not None:
        kind.check_keep_by(reading.keep_by_column)
    if not folder and path.rstrip("/").rsplit("/", 1)[-1].startswith(HIDDEN_PREFIXES):
        # Spark's readers leave such a file out even when it is named: it would be read as nothing
        raise InputError(
            f"{path}: Spark's readers do not read a file whose name starts with . or _ "
            "(rename it, or use --engine duckdb)"
        )
    return kind.spark_plan(SparkPlace(path, local, folder, path.rstrip("/") + "/" if multiple else ""), reading)


def _hadoop_names(fs: Any, folder: Any) -> list[str]:
    names = []
    files = fs.listFiles(folder, True)
    while files.hasNext():
        names.append(str(files.next().getPath().getName()))
    return names


# paths that name a file of the process that opens them: the JVM's /dev/fd/63 is not the driver's
PROCESS_PATHS = ("/dev/fd/", "/dev/stdin", "/proc/")


def _refuse_a_stream(engine: Any, path: str) -> None:
    """Spark opens an input in its own processes (the JVM, the executors), and reads it more than
    once. Standard input and a named pipe are read once by the driver's Python; a path such as
    /dev/fd/63 (`<(zcat docs.gz)`) or /dev/stdin names another file there: Spark read one of the
    JVM's open jars as the documents and paired its lines."""
    if path == STDIN.as_posix():
        raise UsageError("--engine spark reads files, not standard input: write it to a file, or use --engine duckdb")
    local = engine.local_path(path)
    if local is not None and (read_once(Path(local)) or local.startswith(PROCESS_PATHS)):
        raise UsageError(
            f"--engine spark reads files, and {path} is a pipe or a file of this process only: "
            "write it to a file, or use --engine duckdb"
        )


@dataclass
class _InputReads:
    """One input's rows as Spark reads them, for each plan its kind gives (dedup.corpus.SparkReads):
    the columns of _read_table's select. Adds to the run's skipped inputs (`skipped`), the inputs
    whose ids come from a column (`id_columns`) and the summary's notes."""

    engine: Any
    path: str
    rank: int
    reading: Reading
    multiple: bool
    skipped: list[tuple[str, str]]
    id_columns: list[str]
    notes: list[str]

    def files(self, plan: FilesPlan) -> Any:
        """Each file a document: a folder's, named by their path below it, or one file."""
        from pyspark.sql import functions as F

        engine, path, session = self.engine, self.path, self.engine.session
        root = _qualified(engine, path)
        if plan.folder:
            relative = F.substring(F.col("path"), len(root) + 2, LONG)
            ids = F.concat(F.lit(path.rstrip("/") + "/"), relative) if self.multiple else relative
            if plan.listing is not None:  # listed as the DuckDB engine lists it, read by Spark
                self.skipped += plan.listing.skipped
                frame = _binary_files(session, [_literal(load) for load in plan.listing.loads])
                empty = [root + "/" + name for name in plan.listing.empty]
            else:
                frame = _binary_files(session, [_literal(path)])
                empty = _unlisted(engine, path, path.rstrip("/") + "/" if self.multiple else "", self.skipped)
        else:
            frame = _binary_files(session, [_literal(path)])
            ids = F.lit(path)
            fs, hadoop_path = engine._filesystem(path)
            empty = [root] if fs.getFileStatus(hadoop_path).getLen() == 0 else []
        if empty:  # Spark's file scan reads no split of a zero-byte file: each is a document, empty
            listed = session.createDataFrame([(name,) for name in empty], "path string")
            frame = frame.select("path", "content").unionByName(
                listed.select("path", F.lit(bytearray()).alias("content"))
            )
        binary = F.contains(F.substring(F.col("content"), 1, BINARY_SNIFF_BYTES), F.lit(bytearray(b"\x00")))
        utf16 = F.substring(F.col("content"), 1, 2).isin(*(F.lit(bytearray(bom)) for bom in UTF16_BOMS))
        return frame.select(
            F.concat(F.lit(f"{self.rank:06d}:"), F.col("path")).alias("source"),
            F.lit(0).cast("bigint").alias("source_row"),
            ids.alias("id"),
            F.lit(None).cast("string").alias("id_prefix"),
            F.lit(None).cast("string").alias("text"),
            F.col("content"),
            F.lit(True).alias("whole_file"),
            F.lit(False).alias("from_table"),
            F.when(binary & utf16, F.lit(UTF16_SKIPPED)).when(binary, F.lit(BINARY_SKIPPED)).alias("reason"),
        )

    def lines(self, plan: LinesPlan) -> Any:
        """Each line a document, named by its number."""
        from pyspark.sql import functions as F

        engine, path, session = self.engine, self.path, self.engine.session
        plan.check(path, lambda: engine.open_bytes(path))
        frame = _reader(session, plan.reader("\n"), path)
        if _mac_line_ends(engine, path, frame):  # as dedup.corpus.lines.line_break: no \n at all, but \r
            frame = _reader(session, plan.reader("\r"), path)
            self.notes.append(mac_lines_note(path))
        raw = F.col("value").cast("binary")
        stripped = F.when(
            F.substring(raw, -1, 1) == F.lit(bytearray(b"\r")), F.substring(raw, 1, F.length(raw) - 1)
        ).otherwise(raw)
        return frame.select(
            F.concat(F.lit(f"{self.rank:06d}:"), F.col("_metadata.file_path")).alias("source"),
            F.monotonically_increasing_id().alias("source_row"),
            F.lit(None).cast("string" if self.multiple else "bigint").alias("id"),
            F.lit(path + ":" if self.multiple else None).cast("string").alias("id_prefix"),
            F.lit(None).cast("string").alias("text"),
            stripped.alias("content"),
            F.lit(False).alias("whole_file"),
            F.lit(False).alias("from_table"),
            F.lit(None).cast("string").alias("reason"),
        )

    def table(self, plan: TablePlan) -> Any:
        """A table's rows, its ids from its id column or its row numbers."""
        engine, path, reading = self.engine, self.path, self.reading
        reader = plan.checked_reader(path, lambda: engine.open_bytes(path))
        if plan.dataset is not None:
            self.skipped += plan.dataset.skipped
        from pyspark.errors import AnalysisException

        try:
            return _read_table(engine.session, path, plan, reader, self.rank, reading, self.multiple, self.id_columns)
        except AnalysisException as error:
            if error.getCondition() != "COLUMN_ALREADY_EXISTS":
                raise
            # Spark's column names ignore case: `text` and `Text` are one column to it (and so is a JSON
            # key twice in a line, which pyarrow refuses); the DuckDB engine reads `text`
            name = (error.getMessageParameters() or {}).get("columnName", "")
            raise InputError(
                f"{path}: the column {name} twice, or beside a column whose name differs from it only in case; "
                "Spark's reader cannot read them apart (rename the columns, or use --engine duckdb)"
            ) from None


def _mac_line_ends(engine: Any, path: str, frame: Any) -> bool:
    """Whether a --lines file has \\r and no \\n: read at \\n, it is one line as long as the file, or 3
    bytes shorter (Spark's reader drops a UTF-8 BOM); a final \\n would make it 1 or 4 bytes shorter.
    The first two lines are looked at, none brought to the driver."""
    from pyspark.sql import functions as F

    value = F.col("value").cast("binary")
    # searched as bytes: instr() on a line that is not UTF-8 found no \r in it (a Latin-1 file)
    first = frame.limit(2).select(F.octet_length(value), F.contains(value, F.lit(bytearray(b"\r")))).collect()
    fs, hadoop_path = engine._filesystem(path)
    if len(first) != 1 or not first[0][1]:
        return False
    return fs.getFileStatus(hadoop_path).getLen() - first[0][0] in (0, len(BOM))


# Id column types whose text is the same on both engines (a Parquet uint64 is a decimal(20,0) here).
SPARK_ID_TYPES = ("string", "binary", "tinyint", "smallint", "int", "bigint")
WHOLE_TYPES = ("tinyint", "smallint", "int", "bigint", "boolean")  # a --keep-by list compares their text


# The columns of an input's rows (see _read_table's select) when a table has no rows nor columns.
EMPTY_TABLE = (
    "source string, source_row bigint, id {id_type}, id_prefix string, text string, content binary, "
    "whole_file boolean, from_table boolean, reason string"
)


def _read_table(
    session: Any,
    path: str,
    plan: TablePlan,
    reader: SparkReader | None,
    rank: int,
    reading: Reading,
    multiple: bool,
    id_columns: list[str],
) -> Any:
    from pyspark.sql import functions as F

    frame = _table_reader(session, path, plan, reader)
    columns = frame.columns
    if not columns and (plan.dataset is not None or not frame.isEmpty()):  # lines of `{}`, a dataset of no files
        raise InputError(f"{path}: no text column {reading.text_column!r}; columns are none")
    if not columns:  # a zero-byte file, or JSON lines that are blank: an empty table, as on DuckDB
        id_type = "string" if multiple else "bigint"
        keyed = ", key double, key_low bigint" if reading.keep_by is not None else ""
        return session.createDataFrame([], EMPTY_TABLE.format(id_type=id_type) + keyed)
    listed = ", ".join(map(repr, columns))
    if reading.text_column not in columns:
        raise InputError(f"{path}: no text column {reading.text_column!r}; columns are {listed}")
    if reading.id_column is not None and reading.id_column not in columns:
        raise InputError(f"{path}: no id column {reading.id_column!r}; columns are {listed}")
    types = dict(frame.dtypes)
    text_type = types[reading.text_column]
    if text_type not in ("string", "binary"):
        raise InputError(f"{path}: text column {reading.text_column!r} has type {text_type}, expected strings")
    csv = plan.delimited
    id_name = reading.id_column if reading.id_column is not None else ("id" if "id" in columns else None)
    if id_name is not None:
        _check_id_values(frame, path, id_name, csv)  # NaN ids: the error DuckDB gives
        id_type = types[id_name]
        if not (csv or id_type in SPARK_ID_TYPES or re.fullmatch(r"decimal\(\d+,0\)", id_type)):
            # Spark writes them otherwise than Arrow does for the DuckDB engine (a double 1.0 as
            # "1.0", not "1"): the two engines would name the same documents differently
            raise InputError(
                f"{path}: id column {id_name!r} has type {id_type}; the Spark engine takes integer or string ids "
                "(cast the column, or use --engine duckdb)"
            )
        id_columns.append(path)
        ids = _cell_text(F.col(id_name)) if csv else F.col(id_name)
        if id_type == "binary":  # UTF-8 (checked above): strings, as DuckDB reads them
            ids = ids.cast("string")
        ids = F.concat(F.lit(path + ":"), ids.cast("string")) if multiple else ids
        prefix = F.lit(None).cast("string")
    else:
        ids = F.lit(None).cast("string" if multiple else "bigint")
        prefix = F.lit(path + ":" if multiple else None).cast("string")
    keep_by = reading.keep_by_column
    keys = () if keep_by is None else _keys(frame, path, keep_by, csv)
    key_column = [column.alias(name) for column, name in zip(keys, KEYS, strict=False)]
    text = F.col(reading.text_column)
    # A text that is not UTF-8 goes on as its bytes (content), decoded as Latin-1 as a text file is
    # (dedup.formats, latin1_cells): a CSV's cells (read as ISO-8859-1, so encode() gives their
    # bytes back), a Parquet binary column, or a Parquet string that is not valid UTF-8.
    if csv:
        raw = F.encode(text, "ISO-8859-1")
    elif text_type == "binary":
        raw = text
    else:
        raw = F.when(~F.is_valid_utf8(text), text.cast("binary"))
    if csv or text_type == "binary":
        text_or_bytes = F.when(text.isNull(), F.lit(""))  # NULL: decoded from content below
    else:
        text_or_bytes = F.when(raw.isNull(), F.coalesce(text, F.lit("")))
    return frame.select(
        F.concat(F.lit(f"{rank:06d}:"), F.col("_metadata.file_path")).alias("source"),
        F.monotonically_increasing_id().alias("source_row"),
        ids.alias("id"),
        prefix.alias("id_prefix"),
        text_or_bytes.alias("text"),
        raw.alias("content"),
        F.lit(False).alias("whole_file"),
        F.lit(True).alias("from_table"),
        F.when(text.isNull(), F.lit("text is NULL")).alias("reason"),
        *key_column,
    )


KEYS = ("key", "key_low")  # a --keep-by key and its low part (dedup.keep_by.split_keys)
TEMPORAL_TYPES = ("date", "timestamp", "timestamp_ntz")


def _split_whole(whole: Any, descending: bool) -> tuple[Any, Any]:
    """A bigint column as (key, low) pairs, as dedup.keep_by.split_keys makes them."""
    from pyspark.sql import functions as F

    big = F.abs(whole.cast("double")) >= F.lit(2.0**53)
    low = F.when(big, whole.bitwiseAND(F.lit(2047))).otherwise(F.when(whole.isNotNull(), F.lit(0))).cast("bigint")
    key = (whole - low).cast("double")
    return (F.lit(0.0) - key, F.lit(0) - low) if descending else (key, low)


def _keys(frame: Any, path: str, keep_by: KeepBy, csv: bool) -> tuple[Any, Any]:
    """The --keep-by key of each row and its low part, as dedup.keep_by.KeepBy.keys gives them on
    the DuckDB engine."""
    from pyspark.sql import functions as F

    name = keep_by.column
    if name not in frame.columns:
        raise InputError(f"{path}: no --keep-by column {name!r}; columns are {', '.join(map(repr, frame.columns))}")
    kind = dict(frame.dtypes)[name]
    cell = _cell_text(F.col(name)) if csv else F.col(name)
    text_kinds = ("string", "binary")
    if keep_by.values is not None:
        if not (csv or kind in (*text_kinds, *WHOLE_TYPES)):
            raise InputError(
                f"{path}: --keep-by column {name!r} has type {kind}; a list of values orders strings, "
                "integers or booleans"
            )
        place = F.lit(float(len(keep_by.values)))
        for number, value in reversed(list(enumerate(keep_by.values))):
            place = F.when(cell.cast("string") == F.lit(value), F.lit(float(number))).otherwise(place)
        return place, F.lit(0).cast("bigint")
    whole = None  # the exact integer of a plain integer text past 2^53 (dedup.keep_by._exact_text)
    if csv or kind in text_kinds:
        numbers = cell.cast("string").try_cast("double")
        digits = cell.cast("string").try_cast("decimal(20,0)")
        plain = cell.cast("string").rlike("^-?[0-9]+$") & (F.abs(digits) < F.lit(str(2**64)).cast("decimal(20,0)"))
        whole = F.when(plain, digits)
        written = F.col(name).isNotNull() & (cell.cast("string") != F.lit(""))  # an empty cell: no number
        text_only = frame.where(written & numbers.isNull()).limit(1).count()
        if text_only:
            raise InputError(
                f"{path}: --keep-by column {name!r} holds text, not numbers: give the order of its values, "
                f"e.g. --keep-by {name}=test,train"
            )
    elif kind in (*WHOLE_TYPES, "float", "double"):
        numbers = F.col(name).cast("double")
    elif kind in TEMPORAL_TYPES:  # microseconds since 1970-01-01, as dedup.keep_by.KeepBy.keys counts them
        micros = {
            "date": F.unix_date(F.col(name)).cast("bigint") * F.lit(86_400_000_000),
            "timestamp": F.unix_micros(F.col(name)),
            "timestamp_ntz": F.timestamp_diff(
                "MICROSECOND", F.lit("1970-01-01 00:00:00").cast("timestamp_ntz"), F.col(name)
            ),
        }[kind]
        return _split_whole(micros, keep_by.descending)
    else:
        raise InputError(
            f"{path}: --keep-by column {name!r} has type {kind}; it orders numbers, or the values given "
            f"(--keep-by {name}=A,B,...)"
        )
    numbers = F.when(F.isnan(numbers), F.lit(None).cast("double")).otherwise(numbers)
    if kind in WHOLE_TYPES and not csv:
        whole = F.col(name).cast("decimal(20,0)")
    # an integer past 2^53 (a float that large is one; bigint holds it exactly up to 2^63): its value
    # rounded down to a multiple of 2048, as a float exactly, and the 11 bits below
    from_float = F.when(F.abs(numbers) < F.lit(2.0**63), numbers.try_cast("bigint").cast("decimal(20,0)"))
    whole = F.when(F.abs(numbers) >= F.lit(2.0**53), from_float if whole is None else F.coalesce(whole, from_float))
    low = F.when(whole.isNotNull(), F.pmod(whole, F.lit(2048))).otherwise(F.when(numbers.isNotNull(), F.lit(0)))
    key = F.when(whole.isNotNull(), (whole - low).cast("double")).otherwise(numbers)
    low = low.cast("bigint")
    if keep_by.descending:
        return F.lit(0.0) - key, F.lit(0) - low
    return key, low


def _cell_text(cell: Any) -> Any:
    """A CSV cell (read as ISO-8859-1: one character per byte) as dedup.corpus.columns.decoded_cells
    reads it: its bytes as UTF-8 when they are, else as they were read (Latin-1)."""
    from pyspark.sql import functions as F

    utf8 = F.encode(cell, "ISO-8859-1").cast("string")
    return F.when(F.is_valid_utf8(utf8), utf8).otherwise(cell)


def _check_id_values(frame: Any, path: str, id_name: str, csv: bool) -> None:
    """NULL and NaN ids, and ids not valid UTF-8 (but in a CSV, see _cell_text), are refused as the
    DuckDB engine refuses them (one pass over the id column)."""
    from pyspark.sql import functions as F

    column, id_type = F.col(id_name), dict(frame.dtypes)[id_name]
    checks = [F.count_if(column.isNull()).alias("nulls")]
    if id_type in ("float", "double"):
        checks.append(F.count_if(F.isnan(column)).alias("nans"))
    if id_type in ("string", "binary") and not csv:
        checks.append(F.count_if(~F.is_valid_utf8(column.cast("string"))).alias("invalid"))
    counts = frame.agg(*checks).first().asDict()
    if counts["nulls"]:
        raise InputError(f"{path}: id column {id_name!r} has {counts['nulls']} empty (NULL) values")
    if counts.get("nans"):
        raise nan_ids(path, id_name, counts["nans"])
    if counts.get("invalid"):
        raise InputError(f"{path}: id column {id_name!r} holds text that is not valid UTF-8")


def _table_reader(session: Any, path: str, plan: TablePlan, reader: SparkReader | None) -> Any:
    """The table's frame: a local dataset's parts as the DuckDB engine lists them, or what the
    reader of its format (TablePlan.checked_reader) reads."""
    dataset = plan.dataset
    if dataset is not None:  # a local dataset, read as the DuckDB engine lists it
        if not dataset.files:  # a table of no columns (Spark: "unable to infer schema")
            from pyspark.sql.types import StructType

            return session.createDataFrame([], StructType())
        return session.read.option("basePath", _literal(dataset.root)).parquet(*map(_literal, dataset.files))
    if reader is None:
        raise InputError(f"{path}: Spark has no reader of {plan.format} tables: use --engine duckdb")
    frame = _reader(session, reader, path)
    if plan.delimited:
        from pyspark.sql import functions as F

        # Every cell is the text it holds, as the DuckDB engine reads it: an empty cell is an empty
        # string (Spark reads it as NULL, which skipped an empty text as "text is NULL" and refused an
        # empty id); the header's names as UTF-8 where they are.
        frame = frame.toDF(*(_header_name(name, first=i == 0) for i, name in enumerate(frame.columns)))
        return frame.withColumns({name: F.coalesce(frame[name], F.lit("")) for name in frame.columns})
    if reader.corrupt_column in frame.columns:  # kept as NULLs: a NULL text
        raise InputError(f"{path}: a line is not valid JSON, or not UTF-8 (JSON lines must be UTF-8)")
    return frame


def _reader(session: Any, reader: SparkReader, path: str) -> Any:
    """What one of Spark's readers, as dedup.corpus.kinds gives it, reads of `path`."""
    return session.read.format(reader.name).options(**reader.options).load(_literal(path))


def _header_name(name: str, first: bool) -> str:
    """A CSV header name read as ISO-8859-1, as UTF-8 when its bytes are, without a leading BOM."""
    try:
        name = name.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        pass
    return name.removeprefix("\ufeff") if first else name


GLOB_CHARACTERS = re.compile(r"([\\*?\[\]{}])")


def _literal(path: str) -> str:
    """The path as Spark's readers take it: they expand a Hadoop glob (`g[12]` read the folder `g1`,
    `l{a,b}.txt` the file `la.txt`), so its glob characters are escaped to stand for themselves."""
    return GLOB_CHARACTERS.sub(r"\\\1", path)


def _binary_files(session: Any, paths: list[str]) -> Any:
    """(path, content) of the files below `paths` (folders listed recursively, files as named)."""
    if not paths:
        return session.createDataFrame([], "path string, content binary")
    reader = FilesPlan.reader
    return session.read.format(reader.name).options(**reader.options).load(paths).select("path", "content")


def _qualified(engine: Any, path: str) -> str:
    fs, hadoop_path = engine._filesystem(path)
    return str(fs.makeQualified(hadoop_path).toString()).rstrip("/")


def _unlisted(engine: Any, root: str, prefix: str, skipped: list[tuple[str, str]]) -> list[str]:
    """Files and folders Spark's listing leaves out, as skipped inputs (never silently dropped); the
    qualified paths of the zero-byte files it lists but never reads (documents with an empty text)."""
    fs, hadoop_root = engine._filesystem(root)
    empty: list[str] = []
    pending = [(hadoop_root, "")]
    while pending:
        folder, relative = pending.pop()
        for status in fs.listStatus(folder):
            name = str(status.getPath().getName())
            rel = relative + name
            folder = bool(status.isDirectory())
            shown = prefix + rel + ("/" if folder else "")
            reason = unlisted_reason(name, folder, shown)
            if reason is not None:
                skipped.append((shown, reason))
            elif folder:
                pending.append((status.getPath(), rel + "/"))
            elif status.getLen() == 0:
                empty.append(str(fs.makeQualified(status.getPath()).toString()))
    return empty
