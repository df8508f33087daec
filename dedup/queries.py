"""Ad-hoc queries of the index commands, kept as files in sql/queries/ and run with bound values."""

from __future__ import annotations

from functools import cache
from typing import Any

import duckdb

from .stages import TEMPLATE, sql_dir, used_parameters


@cache
def query_text(name: str) -> str:
    return (sql_dir() / "queries" / f"{name}.sql").read_text(encoding="utf-8")


def compile_query(name: str, fragments: dict[str, str] | None = None) -> str:
    """The query with its `{{ fragment }}`s filled from our own fixed lists (never user text)."""
    fragments = fragments or {}
    return TEMPLATE.sub(lambda m: fragments[m.group(1)], query_text(name))


def run_query(
    con: duckdb.DuckDBPyConnection,
    name: str,
    values: dict[str, Any] | None = None,
    fragments: dict[str, str] | None = None,
) -> list[tuple[Any, ...]]:
    sql = compile_query(name, fragments)
    values = values or {}
    return con.execute(sql, {key: values[key] for key in used_parameters(sql)}).fetchall()
