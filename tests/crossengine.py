"""Running a corpus through DuckDB and Spark and comparing every stage table, row for row."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from dedup.corpus.read import read_inputs
from dedup.engines.spark.engine import SparkEngine
from dedup.pipeline import execute
from dedup.settings import Settings
from dedup.stages import compile_stages, pipeline_stages

U64 = 2**64


def signed(value: object) -> object:
    """DuckDB's unsigned 64-bit values as the signed values with the same bits (Spark's bigint)."""
    return value - U64 if isinstance(value, int) and value >= 2**63 else value


def sorted_rows(table: pa.Table) -> list[tuple]:
    columns = [table.column(name).to_pylist() for name in table.column_names]
    rows = [tuple(signed(v) for v in row) for row in zip(*columns, strict=True)]
    return sorted(rows, key=lambda row: tuple((v is None, str(type(v)), v) for v in row))


def duckdb_tables(settings: Settings) -> dict[str, pa.Table]:
    """Every stage table of a DuckDB run of settings (which must name a --db), every table kept
    (--keep-all-tables); the same run in the lean layout keeps the same rows of what it keeps."""
    assert settings.engine_options.db is not None
    tables = {}
    for keep_all, db in (
        (True, settings.engine_options.db),
        (False, settings.engine_options.db.with_name(f"lean-{settings.engine_options.db.name}")),
    ):
        execute(settings.replace(db=db, keep_all_tables=keep_all))
        con = duckdb.connect(str(db), read_only=True)
        try:
            relations = "select table_name from duckdb_tables() union all select view_name from duckdb_views()"
            kept = {row[0] for row in con.execute(relations).fetchall()}  # a lean index's pair tables are views
            for stage in pipeline_stages(settings.sketch):
                if stage.name not in kept:
                    assert not keep_all, stage.name
                    continue
                table = con.sql(f"select * from {stage.name}").to_arrow_table()
                if keep_all:
                    tables[stage.name] = table
                else:  # the columns the lean layout keeps, the same rows
                    full = tables[stage.name].select(table.column_names)
                    assert sorted_rows(table) == sorted_rows(full), stage.name
        finally:
            con.close()
    return tables


def spark_tables(engine: SparkEngine, settings: Settings, raw: pa.Table) -> dict[str, pa.Table]:
    """Every stage table of the Spark stages on the raw documents DuckDB read (as Parquet, read by Spark)."""
    Path(engine.work_dir).mkdir(parents=True, exist_ok=True)
    source = Path(engine.work_dir) / "raw_documents.parquet"
    pq.write_table(raw, source)
    engine.register_dataframe("raw_documents", engine.session.read.parquet(str(source)))
    tables = {}
    for stage, statement in compile_stages(settings.sketch, "spark"):
        engine.create_table(stage.name, statement)
        tables[stage.name] = engine.session.table(stage.name).toArrow()
    return tables


def compare(settings: Settings, engine: SparkEngine) -> dict[str, int]:
    """Assert that every stage table is the same on both engines; return each stage's row count."""
    expected = duckdb_tables(settings)
    raw = read_inputs(settings.reading).to_arrow()
    actual = spark_tables(engine, settings, raw)
    counts = {}
    for name, table in expected.items():
        assert table.column_names == actual[name].column_names, name
        want, got = sorted_rows(table), sorted_rows(actual[name])
        assert len(want) == len(got), f"{name}: {len(want)} rows in DuckDB, {len(got)} in Spark"
        for a, b in zip(want, got, strict=True):
            assert a == b, f"{name}: DuckDB {a[:6]} != Spark {b[:6]}"
        counts[name] = len(want)
    return counts
