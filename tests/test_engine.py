"""The engine seam: only dedup/engines talks to DuckDB and Spark, statements bind exactly what they use."""

from __future__ import annotations

import ast
from pathlib import Path

import duckdb
import pytest
from helpers import sketch_for
from typer.testing import CliRunner

import dedup
from dedup.cli import app
from dedup.engines import Statement, open_engine
from dedup.errors import EngineError, Interrupted
from dedup.settings import EngineOptions
from dedup.sqlfiles import bind, query, read_sql, user_query
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
    assert importers == ["engines/duckdb.py"]


def test_only_the_spark_package_imports_pyspark():
    importers = sorted(
        str(source.relative_to(PACKAGE)) for source in PACKAGE.rglob("*.py") if "pyspark" in imported_modules(source)
    )
    assert importers and all(name.startswith("engines/spark/") for name in importers), importers


ENGINE_NAMES = {"duckdb", "spark"}


def compares_an_engine_name(node: ast.AST) -> bool:
    """`x == "spark"`, `x is EngineName.duckdb`, `x in ("duckdb",)` and the like."""
    if not isinstance(node, ast.Compare):
        return False
    for side in (node.left, *node.comparators):
        for part in ast.walk(side):
            if isinstance(part, ast.Constant) and part.value in ENGINE_NAMES:
                return True
            if isinstance(part, ast.Attribute) and part.attr in ENGINE_NAMES:
                return True
    return False


def test_nothing_outside_the_engines_compares_an_engine_name():
    """What a run does differently on an engine, which options go with it and the SQL its dialect
    generates are asked of its EngineKind (dedup/engines/kinds.py)."""
    found = sorted(
        f"{source.relative_to(PACKAGE)}:{node.lineno}"
        for source in PACKAGE.rglob("*.py")
        if not str(source.relative_to(PACKAGE)).startswith("engines/")
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
        if compares_an_engine_name(node)
    )
    assert found == []


def test_only_the_runner_and_the_stage_registry_name_a_stage_table():
    """Stage names come from the SQL headers (dedup.stages): no other module creates, tests or
    drops a stage's table by a name written in Python."""
    from dedup.stages import stage_names

    calls = {"create_table", "has_table", "drop_table", "rename_table"}
    found = sorted(
        f"{source.relative_to(PACKAGE)}:{node.lineno}"
        for source in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in calls
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value in stage_names()
    )
    assert found == []


def test_duckdb_gets_its_share_of_the_memory_limit(tmp_path):
    engine = open_engine(tmp_path / "db.duckdb", EngineOptions(memory_limit="400MB"))
    try:
        [(limit,)] = engine.fetch_rows(user_query("select current_setting('memory_limit')", "duckdb"))
    finally:
        engine.close()
    assert limit == "247.9 MiB"  # 260,000,000 bytes


def test_a_table_of_any_order_is_written_without_keeping_the_order_and_the_setting_comes_back(tmp_path):
    engine = open_engine(tmp_path / "db.duckdb", EngineOptions())
    setting = "select current_setting('preserve_insertion_order') as kept"
    try:
        engine.create_table("ordered", user_query(setting, "duckdb"))
        engine.create_table("unordered", user_query(f"-- stage: x\n-- order:  any\n{setting}", "duckdb"))
        got = [engine.fetch_rows(user_query(f"select kept from {name}", "duckdb")) for name in ("ordered", "unordered")]
        after = engine.fetch_rows(user_query(setting, "duckdb"))
        with pytest.raises(EngineError):
            engine.create_table("failed", user_query("-- order: any\nselect error('no')", "duckdb"))
        after_failure = engine.fetch_rows(user_query(setting, "duckdb"))
    finally:
        engine.close()
    assert got == [[(True,)], [(False,)]] and after == after_failure == [(True,)]
    assert "-- order:  any" in read_sql("02_shingles.sql", "duckdb").text  # the stage that needs it


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
    settings = sketch_for(num_perm=8, bands=4, rows=2)
    engine = open_engine(tmp_path / "e.duckdb")
    try:
        expected = "".join(
            engine.create_table_sql(stage.name, statement).rstrip() + ";\n\n"
            for stage, statement in compile_stages(settings, "duckdb")
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
        assert engine.fetch_rows(query("table_rows", None, "duckdb", table='"t"')) == [(1,)]
    finally:
        engine.close()
    with pytest.raises(duckdb.Error):  # closed: nothing of the engine is left open
        engine.con.execute("select 1")  # type: ignore[attr-defined]


def test_an_atomic_step_left_by_a_ctrl_c_before_its_block_rolls_back_quietly(tmp_path, monkeypatch):
    """A Ctrl-C between `with engine.atomic(...)`'s BEGIN and its block (or in its exit, before the
    step saw it) leaves the step's generator suspended; Python closes it later with GeneratorExit,
    which the step took for the interruption and answered with Interrupted: printed at exit as
    `Exception ignored in: <generator object DuckDBEngine.atomic ...>` and a traceback (CI, once in
    many Ctrl-C runs). The close now rolls the step back and ends, raising nothing."""
    import gc
    import sys

    unraisable: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    engine = open_engine(tmp_path / "e.duckdb")
    try:
        engine.create_table("t", Statement("t", "duckdb", "select 1 as x"))
        step = engine.atomic("kept")
        step.__enter__()  # the BEGIN ran; the Ctrl-C came before the block did
        engine.drop_table("t")
        engine.interrupt()
        del step
        gc.collect()
        assert unraisable == []
        assert engine.has_table("t")  # rolled back
    finally:
        engine.close()


def test_the_library_and_the_cli_leave_the_same_tables(tmp_path, tiny_corpus):
    """`dedup.run` and `dedup run` are one library function: same tables, same rows (clusters too)."""
    from dedup.engines.duckdb import DuckDBEngine

    cli_db, library_db = tmp_path / "cli.duckdb", tmp_path / "library.duckdb"
    done = CliRunner().invoke(app, ["run", str(tiny_corpus), "-k", "5", "--keep", "longest", "--db", str(cli_db), "-q"])
    assert done.exit_code == 0, done.output
    pairs = dedup.run(tiny_corpus, shingle_size=5, keep="longest", db=library_db)
    assert pairs.num_rows == 3

    def contents(db: Path) -> dict[str, list[tuple]]:
        engine = DuckDBEngine(duckdb.connect(str(db), read_only=True))
        try:
            names = [name for (name,) in engine.con.execute("select table_name from duckdb_tables()").fetchall()]
            skip = {"runs": "run_id", "stages": "stage"}  # times and versions differ; compared by key
            return {
                name: engine.con.execute(
                    f"select {skip.get(name, '*')} from {name} order by all"  # noqa: S608 - our own table names
                ).fetchall()
                for name in sorted(names)
            }
        finally:
            engine.close()

    cli, library = contents(cli_db), contents(library_db)
    assert cli.keys() == library.keys() and "clusters" in cli
    assert cli == library
