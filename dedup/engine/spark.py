"""Apache Spark as an engine: the same stages (sql/, and sql/spark/ where Spark's semantics differ)
run by Spark SQL, each stage's table written as Parquet under a work folder.

The engine owns the CREATE line (a stage file is a SELECT) and the parameter marker: the files
write `$name` (DuckDB's), Spark SQL takes `:name`; values are always bound, never formatted in.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pyarrow as pa

from ..errors import DedupError

PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
JAVA_VERSIONS = (17, 21)
JAVA_HELP = (
    "Spark needs Java 17 or 21: install one (e.g. `apt-get install openjdk-17-jre-headless`, "
    "or https://adoptium.net) and put it on PATH or set JAVA_HOME"
)
# Spark settings of every session the engine makes (a given session is used as it is):
# no UI server, and a small number of shuffle partitions that adaptive execution coalesces.
DEFAULT_CONF = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.adaptive.enabled": "true",
    "spark.sql.adaptive.skewJoin.enabled": "true",
}


def spark_sql(sql: str) -> str:
    """The SQL with DuckDB's `$name` parameter markers written as Spark's `:name`."""
    lines = []
    for line in sql.splitlines():
        code, dashes, comment = line.partition("--")
        lines.append(PARAMETER.sub(r":\1", code) + dashes + comment)
    return "\n".join(lines)


def java_major(java: str = "java") -> int | None:
    """The major version of the `java` on PATH (or JAVA_HOME's), None when there is none."""
    import os

    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").exists():
        java = str(Path(home) / "bin" / "java")
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
    major = java_major()
    if major not in JAVA_VERSIONS:
        found = "no java found" if major is None else f"found Java {major}"
        raise DedupError(f"{JAVA_HELP} ({found})")


def new_session(master: str | None = None, conf: dict[str, str] | None = None, app_name: str = "dedup") -> Any:
    """A SparkSession (or the active one) with DEFAULT_CONF and the given settings."""
    check_java()
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise DedupError("the Spark engine needs pyspark: pip install 'dedup[spark]'") from None
    builder = SparkSession.builder.appName(app_name)
    if master is not None:
        builder = builder.master(master)
    for key, value in {**DEFAULT_CONF, **(conf or {})}.items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    return session


class SparkEngine:
    """Stage tables as Parquet datasets under work_dir (any path Spark writes: local, hdfs://, s3a://),
    each also a temporary view of the same name, so that the next stage's SQL reads it by name."""

    dialect = "spark"

    def __init__(self, session: Any, work_dir: str | Path) -> None:
        self.session = session
        self.work_dir = str(work_dir).rstrip("/")

    def path(self, name: str) -> str:
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise ValueError(f"not a table name: {name!r}")
        return f"{self.work_dir}/{name}"

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
        return "\n".join(row.value for row in self.session.read.text(path, wholetext=True).collect())

    def write_text(self, path: str, text: str) -> None:
        """Write a small file whole (a marker): to a temporary name, then renamed over the old one."""
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
            raise DedupError(f"cannot write {path}")

    def delete(self, path: str) -> None:
        fs, hadoop_path = self._filesystem(path)
        fs.delete(hadoop_path, True)

    def has_table(self, name: str) -> bool:
        return self.exists(self.path(name) + "/_SUCCESS")

    def attach(self, name: str) -> None:
        """Make a finished table (written by this or an earlier run) readable by name."""
        self.session.read.parquet(self.path(name)).createOrReplaceTempView(name)

    def dataframe(self, sql: str, parameters: dict[str, object] | None = None) -> Any:
        return self.session.sql(spark_sql(sql), args=parameters or {})

    def create_table(self, name: str, sql: str, parameters: dict[str, object] | None = None) -> int:
        """Run the SELECT, write its rows as the Parquet table `name`, return its row count."""
        self.dataframe(sql, parameters).write.mode("overwrite").parquet(self.path(name))
        self.attach(name)
        return int(self.session.table(name).count())

    def register_dataframe(self, name: str, frame: Any) -> None:
        frame.createOrReplaceTempView(name)

    def register_arrow(self, name: str, table: pa.Table) -> None:
        """A small Arrow table (query input, tests) as a view; corpora are read by Spark's readers."""
        self.session.createDataFrame(table).createOrReplaceTempView(name)

    def unregister(self, name: str) -> None:
        self.session.catalog.dropTempView(name)

    def fetch_arrow(self, sql: str, parameters: dict[str, object] | None = None) -> pa.Table:
        return self.dataframe(sql, parameters).toArrow()

    def close(self) -> None:
        pass  # the session belongs to whoever made it (dedup.spark_run stops its own)
