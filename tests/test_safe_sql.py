"""Safe SQL: no user string (path, column, id, text, option) ever becomes SQL text.

Every query a run sends is captured with DuckDB's own query log and checked: the hostile
strings never appear in it, and the tables at the end are exactly the pipeline's.
"""

from __future__ import annotations

import ast
import csv
import subprocess
import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from dedup import pipeline
from dedup.cli import app
from dedup.settings import Settings
from dedup.sqlfiles import quote_identifier
from dedup.stages import compile_stages

EVIL = 'x"; DROP TABLE pairs; --'
EVIL_QUOTE = "'); DROP TABLE documents; --"
PIPELINE_TABLES = {  # a lean database: its pair tables stored between groups of copies, views beside
    "band_hashes",
    "candidates_between",
    "copies",
    "documents",
    "pairs_between",
    "run_inputs",
    "runs",
    "signatures",
    "skipped",
    "stages",
    "verified_between",
}
CLI_TABLES = PIPELINE_TABLES | {"clusters"}  # `dedup run --db` also stores the clusters (lean: no shingles)
TEXT = "the quick brown fox jumps over the lazy dog near the river bank"
runner = CliRunner()


def tables(db: Path) -> set[str]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {name for (name,) in con.execute("select table_name from duckdb_tables()").fetchall()}
    finally:
        con.close()


def logged_queries(settings: Settings, log: Path) -> tuple[list[str], pa.Table]:
    """Run the pipeline on a real database with DuckDB's query log on (written to files in `log`);
    return every query and the pairs."""
    assert settings.engine_options.db is not None

    def log_queries(engine) -> None:
        engine.con.execute("call enable_logging('QueryLog', storage = 'file', storage_path = ?)", [str(log)])

    result = pipeline.execute(settings, on_open=log_queries)
    with open(log / "duckdb_log_entries.csv", newline="", encoding="utf-8") as entries:
        queries = [row["message"] for row in csv.DictReader(entries) if row["type"] == "QueryLog"]
    return queries, result.pairs


def test_quote_identifier_doubles_quotes_and_keeps_the_name():
    assert quote_identifier("pairs") == '"pairs"'
    assert quote_identifier(EVIL) == '"x""; DROP TABLE pairs; --"'
    con = duckdb.connect()
    con.execute(f"create table t ({quote_identifier(EVIL)} integer, {quote_identifier('a b')} varchar)").fetchall()
    assert [c[0] for c in con.execute("select * from t").description] == [EVIL, "a b"]
    con.execute("create table pairs as select 1 as x").fetchall()
    with pytest.raises(duckdb.CatalogException):
        con.execute(f"select * from {quote_identifier(EVIL)}").fetchall()  # a (missing) table of that name
    assert con.execute("select count(*) from pairs").fetchall() == [(1,)]  # still there
    with pytest.raises(ValueError):
        quote_identifier("a\x00b")


def test_hostile_column_names_ids_and_text_reach_sql_only_as_values(tmp_path):
    table = tmp_path / "t.parquet"
    pq.write_table(
        pa.table({EVIL: [EVIL, EVIL_QUOTE, "c"], EVIL_QUOTE: [TEXT, TEXT, EVIL_QUOTE * 5]}),
        table,
    )
    settings = Settings.of(
        inputs=(table,), id_column=EVIL, text_column=EVIL_QUOTE, threshold=0.5, db=tmp_path / "run.duckdb"
    )
    queries, pairs = logged_queries(settings, tmp_path / "log")
    assert pairs.to_pylist() == [{"id_a": EVIL_QUOTE, "id_b": EVIL, "jaccard": 1.0, "estimate": 1.0}]
    assert queries, "the query log captured nothing"
    for query in queries:  # the payload's statement never runs (the clusters drop only their own work table)
        assert "DROP TABLE PAIRS" not in query.upper() and EVIL not in query and EVIL_QUOTE not in query, query
    assert tables(settings.engine_options.db) == CLI_TABLES  # a run with a database builds its clusters


def test_hostile_paths_are_read_as_names(tmp_path):
    folder = tmp_path / EVIL
    folder.mkdir()
    (folder / f"{EVIL_QUOTE}.txt").write_text(TEXT)
    (folder / "a;b'c\".txt").write_text(TEXT)
    db = tmp_path / "a\"b;c'd.duckdb"
    queries, pairs = logged_queries(Settings.of(inputs=(folder,), db=db), tmp_path / "log")
    assert pairs.to_pylist() == [{"id_a": f"{EVIL_QUOTE}.txt", "id_b": "a;b'c\".txt", "jaccard": 1.0, "estimate": 1.0}]
    assert not [q for q in queries if "DROP TABLE PAIRS" in q.upper() or EVIL in q or EVIL_QUOTE in q]
    assert tables(db) == CLI_TABLES


def test_hostile_column_names_never_enter_compiled_stage_sql():
    settings = Settings.of(inputs=(Path("."),), id_column=EVIL, text_column=EVIL_QUOTE)
    for _, statement in compile_stages(settings.sketch, "duckdb"):
        sql = statement.sql
        assert EVIL not in sql and EVIL_QUOTE not in sql and "drop" not in sql.lower()


def test_missing_hostile_column_is_a_one_line_error_and_runs_nothing(tmp_path):
    table = tmp_path / "t.parquet"
    pq.write_table(pa.table({"id": [1], "text": [TEXT]}), table)
    db = tmp_path / "run.duckdb"
    result = runner.invoke(app, ["run", str(table), "--text-column", EVIL, "--db", str(db)])
    assert result.exit_code == 1
    assert result.stderr == f"Error: {table}: no text column {EVIL!r}; columns are 'id', 'text'\n"
    assert not db.exists()  # the inputs are read before the database is opened: nothing ran


def test_sql_command_is_read_only(tmp_path, tiny_corpus):
    db = tmp_path / "run.duckdb"
    assert runner.invoke(app, ["run", str(tiny_corpus), "--db", str(db), "-q"]).exit_code == 0
    for statement in [
        "drop table pairs",
        "delete from pairs_between",
        "create table x as select 1",
        "insert into runs default values",
    ]:
        result = runner.invoke(app, ["sql", str(db), statement])
        assert result.exit_code == 1, statement
        assert "read-only" in result.stderr and "Traceback" not in result.stderr
    result = runner.invoke(app, ["sql", str(db), "delete from pairs"])  # a view
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert runner.invoke(app, ["sql", str(db), "select count(*) as n from pairs", "--format", "csv"]).stdout == "n\n1\n"
    assert tables(db) == CLI_TABLES


def test_sql_command_with_a_hostile_database_path(tmp_path, tiny_corpus):
    db = tmp_path / f"{EVIL}.duckdb"
    done = subprocess.run(
        [sys.executable, "-m", "dedup", "run", str(tiny_corpus), "--db", str(db), "-q"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    shown = subprocess.run(
        [sys.executable, "-m", "dedup", "sql", str(db), "select count(*) as n from pairs", "--format", "csv"],
        capture_output=True,
        text=True,
    )
    assert shown.stdout == "n\n1\n"
    assert tables(db) == CLI_TABLES


# quote_identifier(...), or constant SQL fragments picked in code (never from input or options)
ALLOWED_IN_SQL_FSTRINGS = {"quote_identifier", "table_name"}
# The calls that send SQL text to DuckDB (dedup/engines/duckdb.py), by the name of the method.
SQL_CALLS = ("execute", "sql", "_query", "_run")


def test_sql_fstrings_interpolate_only_quoted_identifiers_or_constants():
    """Every f-string passed as SQL text in dedup/ (subpackages too) interpolates only quoted names."""
    package = Path(pipeline.__file__).parent
    sources = sorted(package.rglob("*.py"))
    assert package / "engines" / "duckdb.py" in sources
    offenders = []
    for source in sources:
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in SQL_CALLS or not node.args:
                continue
            first = node.args[0]
            if not isinstance(first, ast.JoinedStr):
                continue
            for part in first.values:
                if not isinstance(part, ast.FormattedValue):
                    continue
                value = part.value
                name = value.func.id if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) else None
                name = name or (value.id if isinstance(value, ast.Name) else None)
                if name not in ALLOWED_IN_SQL_FSTRINGS:
                    offenders.append(f"{source.relative_to(package)}:{node.lineno}: {ast.unparse(value)}")
    assert offenders == []
