"""dedup: find near-duplicate documents with MinHash LSH in SQL, verified by exact Jaccard."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any

try:
    __version__ = version("dedup")
except PackageNotFoundError:  # running from a source checkout
    __version__ = "0.0.0+source"

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["run", "__version__"]


def run(
    inputs: str | Path | list[str | Path],
    threshold: float = 0.8,
    *,
    shingle_type: str = "char",
    shingle_size: int = 9,
    num_perm: int = 128,
    seed: int | None = None,
    bands: int | None = None,
    rows: int | None = None,
    lines: bool = False,
    id_column: str | None = None,
    text_column: str = "text",
    include_hidden: bool = False,
    db: str | Path | None = None,
    threads: int | None = None,
    memory_limit: str | None = None,
    temp_dir: str | Path | None = None,
    method: str = "lsh",
    engine: str = "duckdb",
    spark: Any = None,
    work_dir: str | Path | None = None,
    master: str | None = None,
    spark_conf: dict[str, str] | None = None,
) -> pa.Table:
    """Pairs of documents with exact Jaccard >= threshold, as an Arrow table (id_a, id_b, jaccard, estimate).

    >>> import dedup
    >>> pairs = dedup.run("data/textreuse", threshold=0.5, shingle_type="word", shingle_size=5)

    engine="spark" runs the same stages on Spark: on `spark` (an existing SparkSession, e.g. the
    one of a spark-submit job or a notebook) or on a new session (`master`, `spark_conf`), with
    the stage tables as Parquet under `work_dir` (a temporary folder if None: local masters only).
    """
    import tempfile

    from .errors import UsageError
    from .hashing import DEFAULT_SEED
    from .pipeline import execute
    from .settings import Settings

    paths = [inputs] if isinstance(inputs, (str, Path)) else list(inputs)
    settings = Settings(
        inputs=tuple(Path(p) for p in paths),
        threshold=threshold,
        shingle_type=shingle_type,  # type: ignore[arg-type]
        shingle_size=shingle_size,
        num_perm=num_perm,
        seed=DEFAULT_SEED if seed is None else seed,
        bands=bands,
        rows=rows,
        lines=lines,
        id_column=id_column,
        text_column=text_column,
        include_hidden=include_hidden,
        db=Path(db) if db is not None else None,
        threads=threads,
        memory_limit=memory_limit,
        temp_dir=Path(temp_dir) if temp_dir is not None else None,
        method=method,  # type: ignore[arg-type]
    )
    if engine == "duckdb":
        return execute(settings).pairs
    if engine != "spark":
        raise UsageError(f"engine must be duckdb or spark, got {engine!r}")
    from .spark_run import SparkOptions, execute_spark

    if work_dir is not None:
        options = SparkOptions(work_dir=str(work_dir), master=master, conf=dict(spark_conf or {}))
        return execute_spark(settings, options, session=spark).pairs
    with tempfile.TemporaryDirectory(prefix="dedup-spark-") as scratch:  # a local run's stage tables
        options = SparkOptions(work_dir=scratch, master=master, conf=dict(spark_conf or {}))
        return execute_spark(settings, options, session=spark).pairs
