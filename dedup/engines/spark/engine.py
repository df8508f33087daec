"""Apache Spark as an engine: the same stages (sql/, and sql/spark/ where Spark's semantics differ)
run by Spark SQL, each stage's table written as Parquet under a work folder.

The engine owns the CREATE line (a stage file is a SELECT) and the parameter marker: the files
write `$name` (DuckDB's), Spark SQL takes `:name`; values are always bound, never formatted in.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import pyarrow as pa

from ... import pandas_free
from ...errors import DedupError, EngineError, Interrupted, UsageError, first_line
from ...sqlfiles import Queries, used_parameters
from ...statement import Statement
from ..protocol import Engine
from .tables import split_tables

if TYPE_CHECKING:
    from ...settings import EngineOptions, Reading
    from .markers import StageMarkers

PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
JAVA_VERSIONS = (17, 21)
JAVA_HELP = (
    "Spark needs Java 17 or 21: install one (e.g. `apt-get install openjdk-17-jre-headless`, "
    "or https://adoptium.net) and put it on PATH or set JAVA_HOME"
)
# Spark settings of every session the engine makes (a given session is used as it is):
# no UI server, and a small number of shuffle partitions that adaptive execution coalesces.
# The driver JVM's JIT compiles with 4x its default invocation thresholds: a run is minutes of a fresh
# JVM, whose C1/C2 compiler threads otherwise spent ~57 of 170 CPU-s of a medium run compiling code run
# a few thousand times (benchmarks/results/spark.md, "JIT"); the hot loops are still compiled.
DEFAULT_CONF = {
    "spark.driver.extraJavaOptions": "-XX:CompileThresholdScaling=4",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.adaptive.enabled": "true",
    "spark.sql.adaptive.skewJoin.enabled": "true",
}
# A local session that runs many tiny corpora one after another (the tests, benchmarks/
# read_agreement.py): few partitions, bound to 127.0.0.1, and no whole-stage code generation
# (compiling the 128-column signature aggregate costs ~20 s a run on tiny corpora; results do not
# depend on it: the identity tests compare).
SMALL_LOCAL_CONF = {
    "spark.sql.shuffle.partitions": "4",
    "spark.default.parallelism": "4",
    "spark.sql.codegen.wholeStage": "false",
    "spark.driver.host": "127.0.0.1",
    "spark.driver.bindAddress": "127.0.0.1",
}
# A file in every work folder dedup writes: the folder's tables are dedup's to replace.
WORK_MARK = "_dedup_work"
WORK_MARK_TEXT = "The stage tables of dedup runs (dedup run --engine spark --work-dir): a rerun replaces them.\n"
# SQL settings in force while the engine runs a statement (on a given session too; each is put back
# afterwards). Whole-stage code generation skips any plan node of more than maxFields columns
# (default 100): the signatures aggregate (num_perm + 2 columns) and every scan of its table then ran
# row by row through generic projections, ~2.5x the time of the generated code (benchmarks/results/
# scale-out.md).
STATEMENT_CONF = {"spark.sql.codegen.maxFields": "4096"}
# A Spark file may set more for its own statement, one `-- spark-conf: KEY=VALUE` line each (the
# MinHash and bucket arithmetic turn ANSI mode off so that a product wraps as DuckDB's unsigned one).
FILE_CONF = re.compile(r"^--\s*spark-conf:\s*([A-Za-z0-9_.]+)=(\S+)\s*$", re.MULTILINE)


def statement_conf(sql: str) -> dict[str, str]:
    """The SQL settings in force while a statement runs: STATEMENT_CONF and its file's own."""
    return {**STATEMENT_CONF, **dict(FILE_CONF.findall(sql))}


def spark_sql(sql: str) -> str:
    """The SQL with DuckDB's `$name` parameter markers written as Spark's `:name`."""
    lines = []
    for line in sql.splitlines():
        code, dashes, comment = line.partition("--")
        lines.append(PARAMETER.sub(r":\1", code) + dashes + comment)
    return "\n".join(lines)


def java_major(java: str = "java") -> int | None:
    """The major version of the `java` Spark starts: JAVA_HOME's where it is set (Spark takes
    $JAVA_HOME/bin/java then, whatever PATH holds), else the one on PATH; None when there is none."""
    home = os.environ.get("JAVA_HOME")
    if home:
        java = str(Path(home) / "bin" / "java")
        if not Path(java).is_file():
            return None
    elif shutil.which(java) is None:
        return None
    try:
        done = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r'version "(\d+)(?:\.(\d+))?', done.stderr + done.stdout)
    if match is None:
        return None
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major


def check_java() -> None:
    """Java 17 or 21 where Spark will look for it, and the variables that tell Spark where its own
    programs naming real ones, each checked before the Java gateway starts and refused in one line."""
    major = java_major()
    if major not in JAVA_VERSIONS:
        home = os.environ.get("JAVA_HOME")
        found = "no java found" if major is None else f"found Java {major}"
        if home and major is None:
            found = f"JAVA_HOME={home} has no bin/java"
        raise DedupError(f"{JAVA_HELP} ({found})")
    spark_home = os.environ.get("SPARK_HOME")
    if spark_home is not None and not (Path(spark_home) / "bin" / "spark-submit").is_file():  # "" is the cwd
        raise DedupError(
            f"SPARK_HOME={spark_home} has no bin/spark-submit: unset it to use pyspark's own Spark, "
            "or point it at a Spark 4 installation"
        )
    for name in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON"):
        python = os.environ.get(name)
        if python and shutil.which(python) is None:
            raise DedupError(f"{name}={python} is no program: unset it, or name a Python that runs")


@contextmanager
def spark_engine(options: EngineOptions, session: Any = None) -> Iterator[SparkEngine]:
    """A Spark engine on the given session (left running) or a new one from the options (stopped
    after, unless a session was already active), writing under options.work_dir (a temporary
    folder if None)."""
    own = session is None and _active_session() is None
    if session is None:
        session = new_session(options.master, dict(options.spark_conf))
    try:
        with _work_dir(options.work_dir) as work_dir:
            engine = SparkEngine(session, work_dir)
            with translated():  # a file system that cannot be reached, as one line
                engine.claim_work_dir()
            yield engine
    except KeyboardInterrupt:
        session.sparkContext.cancelAllJobs()
        raise
    finally:
        if own:
            session.stop()


@contextmanager
def _work_dir(work_dir: str | None) -> Iterator[str]:
    if work_dir is not None:
        yield work_dir
        return
    with tempfile.TemporaryDirectory(prefix="dedup-spark-") as scratch:  # a local run's stage tables
        yield scratch


def _active_session() -> Any:
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        return None
    return SparkSession.getActiveSession()


def new_session(master: str | None = None, conf: dict[str, str] | None = None, app_name: str = "dedup") -> Any:
    """A SparkSession (or the active one) with DEFAULT_CONF and the given settings."""
    check_java()
    pandas_free.allow()  # the command refused it (dedup.pandas_free); pyspark's conversions may need it
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise DedupError(
            "the Spark engine needs pyspark: pip install '.[spark]' in a clone of dedup, or pip install 'pyspark>=4'"
        ) from None
    builder = SparkSession.builder.appName(app_name)
    if master is not None:
        builder = builder.master(master)
    for key, value in {**DEFAULT_CONF, **(conf or {})}.items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("FATAL")  # failures reach the user as one line (EngineError)
    return session


def _nullable(field: pa.Field) -> pa.Field:
    """The field as DuckDB's results have it: nullable (Spark marks what cannot be null, DuckDB does
    not), and a list's items too, named `l` (Spark's Arrow names them `element`)."""
    kind = field.type
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        item = _nullable(kind.value_field).with_name("l")
        kind = pa.list_(item) if pa.types.is_list(kind) else pa.large_list(item)
    return field.with_type(kind).with_nullable(True)


@contextmanager
def translated() -> Iterator[None]:
    """Spark's failures as dedup's: EngineError (one line) for an analysis or execution error."""
    try:
        yield
    except KeyboardInterrupt:
        raise
    except Exception as error:
        from pyspark.errors import PySparkException

        if not isinstance(error, PySparkException) and type(error).__module__.split(".")[0] not in ("py4j", "pyspark"):
            raise
        java = getattr(error, "java_exception", None)
        message = first_line(error)
        if java is not None and message.startswith("An error occurred while calling"):
            cause = java
            while cause.getCause() is not None:
                cause = cause.getCause()
            message = first_line(Exception(str(cause.getMessage() or cause.toString())))
        raise EngineError(message, out_of_space="No space left" in message) from None


class SparkEngine:
    """The Engine on Spark SQL: tables are Parquet datasets under work_dir (any path Spark writes:
    local, hdfs://, s3a://), each also a temporary view of the same name that later statements
    read by name. Writes are not transactional: dedup.records.StageMarkers marks a stage finished only after
    its table is complete, so a killed run recomputes it."""

    dialect = "spark"
    sql = Queries(dialect)

    def __init__(self, session: Any, work_dir: str | Path) -> None:
        self.session = session
        self.work_dir = str(work_dir).rstrip("/")
        self.version = f"spark {session.version}"

    def path(self, name: str) -> str:
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise ValueError(f"not a table name: {name!r}")
        return f"{self.work_dir}/{name}"

    # files under the work dir, through Hadoop's FileSystem (local, hdfs://, s3a:// alike)
    def _filesystem(self, path: str) -> tuple[Any, Any]:
        jvm = self.session.sparkContext._jvm
        hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
        conf = self.session.sparkContext._jsc.hadoopConfiguration()
        return hadoop_path.getFileSystem(conf), hadoop_path

    def exists(self, path: str) -> bool:
        fs, hadoop_path = self._filesystem(path)
        return bool(fs.exists(hadoop_path))

    def read_text(self, path: str) -> str | None:
        if not self.exists(path):
            return None
        fs, hadoop_path = self._filesystem(path)
        stream = fs.open(hadoop_path)
        try:
            jvm = self.session.sparkContext._jvm
            return str(jvm.org.apache.commons.io.IOUtils.toString(stream, "UTF-8"))
        finally:
            stream.close()

    def local_path(self, path: str) -> str | None:
        """The path on the driver's own disk, when the engine's file system for it is the local
        one (a local master, or a cluster that shares the disk); None for hdfs://, s3a://."""
        fs, hadoop_path = self._filesystem(path)
        if str(fs.getScheme()) != "file":
            return None
        return str(fs.makeQualified(hadoop_path).toUri().getPath())

    @contextmanager
    def open_bytes(self, path: str) -> Iterator[BinaryIO]:
        """A file of the engine's file system as a binary stream on the driver: a local file opened
        by Python, another read through the JVM in parts of READ_BYTES (each part a Py4J call)."""
        local = self.local_path(path)
        if local is not None:
            with open(local, "rb") as file:
                yield file
            return
        fs, hadoop_path = self._filesystem(path)
        stream = fs.open(hadoop_path)
        try:
            yield io.BufferedReader(_JavaStream(stream))
        finally:
            stream.close()

    def write_text(self, path: str, text: str) -> None:
        """Write a small file whole: to a temporary name, then renamed over the old one."""
        fs, hadoop_path = self._filesystem(path)
        jvm = self.session.sparkContext._jvm
        staging = jvm.org.apache.hadoop.fs.Path(path + ".tmp")
        stream = fs.create(staging, True)
        try:
            stream.write(bytearray(text.encode("utf-8")))
        finally:
            stream.close()
        fs.delete(hadoop_path, True)
        if not fs.rename(staging, hadoop_path):
            raise EngineError(f"cannot write {path}")

    def delete(self, path: str) -> None:
        fs, hadoop_path = self._filesystem(path)
        fs.delete(hadoop_path, True)

    def claim_work_dir(self) -> None:
        """Make the work folder dedup's before anything is written in it: a new or empty folder is
        marked (WORK_MARK), a marked one (or one with the stage markers of an earlier release) is
        reused. Any other folder is refused: a stage table is written with Spark's overwrite, which
        deletes a folder of the same name (a user's `documents/` under `--work-dir .`)."""
        fs, root = self._filesystem(self.work_dir)
        mark = f"{self.work_dir}/{WORK_MARK}"
        if fs.exists(root):
            if not fs.getFileStatus(root).isDirectory():
                raise UsageError(f"--work-dir {self.work_dir} is a file: give a new or empty folder")
            names = sorted(str(status.getPath().getName()) for status in fs.listStatus(root))
            if WORK_MARK in names or "_stages" in names:
                if WORK_MARK not in names:
                    self.write_text(mark, WORK_MARK_TEXT)
                return
            if names:
                more = f" and {len(names) - 3:,} more" if len(names) > 3 else ""
                raise UsageError(
                    f"--work-dir {self.work_dir} holds files that dedup did not write ({', '.join(names[:3])}{more}): "
                    "its stage tables would replace those of the same name; give a new or empty folder"
                )
        self.write_text(mark, WORK_MARK_TEXT)

    # the Engine protocol
    @contextmanager
    def _statement_conf(self, sql: str = "") -> Iterator[None]:
        conf = self.session.conf
        settings = statement_conf(sql)
        before = {key: conf.get(key, None) for key in settings}
        for key, value in settings.items():
            conf.set(key, value)
        try:
            yield
        finally:
            for key, value in before.items():
                if value is None:
                    conf.unset(key)
                else:
                    conf.set(key, value)

    def create_table(self, name: str, statement: Statement, *, temporary: bool = False) -> None:
        """Run the statement's SELECT(s) and write each table as Parquet (overwriting), then view it."""
        if temporary:
            raise TypeError("Spark runs no batches: it has no temporary tables")
        with translated(), self._statement_conf(statement.sql):
            for table, sql in split_tables(name, statement.sql):
                # Spark's jobs, metrics and event log name the table they write (benchmarks/spark_bench.py)
                self.session.sparkContext.setJobDescription(table)
                used = {p: statement.parameters[p] for p in used_parameters(sql)}
                self.session.sql(spark_sql(sql), args=used).write.mode("overwrite").parquet(self.path(table))
                self.attach(table)

    def create_table_sql(self, name: str, statement: Statement) -> str:
        return "\n".join(
            f"-- written as Parquet to {self.path(table)} (DataFrameWriter, mode overwrite)\n{spark_sql(sql)}"
            for table, sql in split_tables(name, statement.sql)
        )

    def attach(self, name: str) -> None:
        """Make a finished table (written by this or an earlier run) readable by name."""
        with translated():
            self.session.read.parquet(self.path(name)).createOrReplaceTempView(name)

    def dataframe(self, statement: Statement) -> Any:
        return self.session.sql(spark_sql(statement.sql), args=dict(statement.parameters))

    def execute(self, statement: Statement) -> None:
        with translated(), self._statement_conf(statement.sql):
            self.dataframe(statement).collect()

    def fetch_arrow(self, statement: Statement) -> pa.Table:
        """The result in the Arrow shape of DuckDB's results (a Parquet file written from it then has
        the DuckDB run's bytes: it stores the Arrow schema)."""
        with translated(), self._statement_conf(statement.sql):
            table = self.dataframe(statement).toArrow()
        return table.cast(pa.schema([_nullable(field) for field in table.schema], metadata=table.schema.metadata))

    def fetch_rows(self, statement: Statement) -> list[tuple[Any, ...]]:
        with translated(), self._statement_conf(statement.sql):
            return [tuple(row) for row in self.dataframe(statement).collect()]

    def register_dataframe(self, name: str, frame: Any) -> None:
        frame.createOrReplaceTempView(name)

    def register_arrow(self, name: str, table: pa.Table) -> None:
        """A small Arrow table as a view (corpora are read by Spark's own readers, dedup.engines.spark.read)."""
        with translated():
            self.session.createDataFrame(table).createOrReplaceTempView(name)

    def register_parquet(self, name: str, path: Path) -> None:
        with translated():
            self.session.read.parquet(str(path)).createOrReplaceTempView(name)

    def unregister(self, name: str) -> None:
        try:
            self.session.catalog.dropTempView(name)
        except Exception:  # noqa: BLE001 - never fails, as the protocol says
            pass

    def has_table(self, name: str) -> bool:
        return self.exists(self.path(name) + "/_SUCCESS")

    def drop_table(self, name: str) -> None:
        self.unregister(name)
        self.delete(self.path(name))

    def rename_table(self, name: str, new_name: str) -> None:
        fs, source = self._filesystem(self.path(name))
        _, target = self._filesystem(self.path(new_name))
        fs.delete(target, True)
        if not fs.rename(source, target):
            raise EngineError(f"cannot rename {name} to {new_name}")
        self.unregister(name)
        self.attach(new_name)

    @contextmanager
    def atomic(self, interrupted: str) -> Iterator[None]:
        """No transactions on files: the caller marks work finished only after it completed."""
        try:
            yield
        except KeyboardInterrupt:
            self.interrupt()
            raise Interrupted(interrupted) from None

    def checkpoint(self) -> None:
        pass  # each table is its own files: nothing held back

    def stream_arrow(self, statement: Statement, batch_rows: int) -> pa.RecordBatchReader | None:
        """The rows as Arrow batches; the whole result is fetched (Spark has no incremental fetch here)."""
        table = self.fetch_arrow(statement)
        return pa.RecordBatchReader.from_batches(table.schema, table.to_batches(max_chunksize=batch_rows))

    def split_statements(self, text: str) -> list[str]:
        """A user's SQL text as statements: split at semicolons outside quotes (Spark SQL has no splitter API)."""
        statements: list[str] = []
        current: list[str] = []
        quote = ""
        for char in text:
            if quote:
                quote = "" if char == quote else quote
            elif char in "'\"`":
                quote = char
            elif char == ";":
                statements.append("".join(current).strip())
                current = []
                continue
            current.append(char)
        statements.append("".join(current).strip())
        return [statement for statement in statements if statement]

    def read_inputs(self, reading: Reading) -> tuple[bool, list[str]]:
        from .read import read_corpus

        with translated():  # a reader's failure (a .parquet that is not Parquet) as one line
            return read_corpus(self, reading)

    def stage_markers(self) -> StageMarkers:
        from .markers import StageMarkers

        return StageMarkers(self)

    def own_files(self) -> tuple[Path, ...]:
        local = Path(self.work_dir)  # a local path, or a URL (hdfs://, s3a://) that is not on this machine
        return (local,) if "://" not in self.work_dir and local.is_absolute() else ()

    def memory_limit(self) -> str | None:
        return None

    def scratch(self) -> Engine:
        raise EngineError("the Spark engine has no scratch database; use the DuckDB engine for index commands")

    def track_progress(self) -> None:
        pass  # Spark's own progress is in its UI and event log; the CLI shows finished stages

    def query_progress(self) -> float:
        return -1.0

    def interrupt(self) -> None:
        try:
            self.session.sparkContext.cancelAllJobs()
        except Exception:  # noqa: BLE001 - never fails
            pass

    def close(self) -> None:
        pass  # the session belongs to whoever made it (dedup.engines.spark.engine.spark_engine stops its own)


READ_BYTES = 8 << 20  # a Py4J call costs ~40 ms whatever its size: 8 KiB parts read 105 MB in ~10 min


class _JavaStream(io.RawIOBase):
    """A JVM InputStream as Python reads a file: parts of READ_BYTES through Py4J, handed out as
    the reader asks for them."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._part = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self._part:
            self._part = memoryview(bytes(self._stream.readNBytes(READ_BYTES)))
        size = min(len(buffer), len(self._part))
        buffer[:size] = self._part[:size]
        self._part = self._part[size:]
        return size
