"""The engine seam: only dedup/engine talks to DuckDB, statements bind exactly what they use."""

from __future__ import annotations

import ast
from pathlib import Path

import duckdb
import pytest
from helpers import settings_for
from typer.testing import CliRunner

import dedup
from dedup.cli import app
from dedup.engine import Statement, open_engine
from dedup.errors import EngineError, Interrupted
from dedup.sqlfiles import bind, query
from dedup.stages import compile_stages

PACKAGE = Path(dedup.__file__).parent


def imported_modules(source: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_only_the_engine_package_imports_duckdb():
    importers = sorted(
        str(source.relative_to(PACKAGE)) for source in PACKAGE.rglob("*.py") if "duckdb" in imported_modules(source)
    )
    assert importers == ["engine/duckdb.py"]


def test_a_statement_binds_exactly_the_parameters_its_text_uses():
    statement = bind("s", "duckdb", "-- $ignored in a comment\nselect $a + $b", {"a": 1, "b": 2, "c": 3})
    assert dict(statement.parameters) == {"a": 1, "b": 2}
    with pytest.raises(KeyError, match=r"no value for \$b"):
        bind("s", "duckdb", "select $a + $b", {"a": 1})


def test_the_fingerprint_follows_the_text_and_every_value():
    base = Statement("s", "duckdb", "select $a", {"a": 1})
    assert base.fingerprint("x") == Statement("s", "duckdb", "select $a", {"a": 1}).fingerprint("x")
    others = {
        base.fingerprint("y"),
        Statement("s", "duckdb", "select $a ", {"a": 1}).fingerprint("x"),
        Statement("s", "duckdb", "select $a", {"a": 2}).fingerprint("x"),
    }
    assert base.fingerprint("x") not in others and len(others) == 3


def test_show_sql_prints_the_statements_that_run(tmp_path):
    settings = settings_for(num_perm=8, bands=4, rows=2)
    engine = open_engine(tmp_path / "e.duckdb")
    try:
        expected = "".join(
            engine.create_table_sql(stage.name, statement).rstrip() + ";\n\n"
            for stage, statement in compile_stages(settings)
        )
    finally:
        engine.close()
    shown = CliRunner().invoke(app, ["show-sql", "--num-perm", "8", "--bands", "4", "--rows", "2"])
    assert shown.exit_code == 0
    assert shown.stdout == expected
    assert shown.stdout.startswith("create or replace table documents as\n-- stage:  documents\n")


def test_engine_failures_are_dedup_errors_and_atomic_steps_roll_back(tmp_path):
    engine = open_engine(tmp_path / "e.duckdb")
    try:
        engine.create_table("t", Statement("t", "duckdb", "select 1 as x"))
        with pytest.raises(EngineError, match="no_such_table"):
            engine.fetch_rows(Statement("q", "duckdb", "select * from no_such_table"))
        with pytest.raises(Interrupted, match="kept"), engine.atomic("kept"):
            engine.drop_table("t")
            raise KeyboardInterrupt
        assert engine.has_table("t")
        assert engine.fetch_rows(query("table_rows", table='"t"')) == [(1,)]
    finally:
        engine.close()
    with pytest.raises(duckdb.Error):  # closed: nothing of the engine is left open
        engine.con.execute("select 1")  # type: ignore[attr-defined]
