"""The one loader of sql/: read a file (its dialect's version first), fill its fragments, bind its parameters.

A file of sql/ starts with a header of `-- key: value` lines (stage or query, reads, writes,
params; a stage's methods, batch, order, scope, counts and lean: dedup.stages.Stage) and holds one
statement; a query that makes a table is its SELECT alone (the engine writes the `create ... as`
line). `{{ name }}` marks a fragment that Python fills from its own fixed lists (generated column
lists, table names quoted by `quote_identifier`, a shared fragment file), never from user input;
`$name` marks a parameter. The binding rule, for every statement: the values of exactly the
`$names` the text uses, outside comments, are bound; a missing one is an error. The tables a
query needs are those its header reads (`tables_needed`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .statement import Statement

PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
TEMPLATE = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")
HEADER_KEYS = "stage|query|fragment|reads|writes|params|methods|batch|order|scope|counts|lean|when"
HEADER = re.compile(rf"--\s*({HEADER_KEYS}):\s*(.*)")
CONTINUED = re.compile(r"--\s{4,}(\S.*)")

Fragments = Mapping[str, str | Callable[[], str]]


def sql_dir() -> Path:
    """sql/ ships inside the installed package; in a source checkout it is the top-level sql/."""
    packaged = Path(__file__).parent / "sql"
    return packaged if packaged.is_dir() else Path(__file__).parent.parent / "sql"


@dataclass(frozen=True)
class SqlFile:
    path: str  # relative to sql/, e.g. "03_signatures.sql" or "queries/clusters/clusters.sql"
    header: Mapping[str, str]
    text: str


def parse_header(text: str) -> dict[str, str]:
    """The `-- key: value` lines; a value goes on over `--` lines indented past the key (CONTINUED)."""
    header: dict[str, str] = {}
    key = None
    for line in text.splitlines():
        match = HEADER.match(line)
        continued = CONTINUED.match(line)
        if match:
            key = match.group(1)
            header[key] = match.group(2).strip()
        elif key is not None and continued:
            header[key] += " " + continued.group(1).strip()
        else:
            key = None
    return header


@cache
def read_sql(path: str, dialect: str) -> SqlFile:
    """sql/<dialect>/<path> if that file exists, else sql/<path>."""
    root = sql_dir()
    own = root / dialect / path
    file = own if own.is_file() else root / path
    text = file.read_text(encoding="utf-8")
    return SqlFile(path=path, header=parse_header(text), text=text)


# A table in a header: table, schema.table or catalog.schema.table, with its columns if listed.
TABLE = re.compile(r"([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*){0,2})(?:\(([^)]*)\))?")
NOTE = re.compile(r"\s{2,}\([^)]*\)")  # a note in parentheses after two spaces


def declared_tables(value: str) -> dict[str, list[str]]:
    """The tables (and their columns) of a `reads:` or `writes:` header value:
    `a(x, y), b   (a note)` -> {"a": ["x", "y"], "b": []}; `(none...)` -> {}."""
    if value.startswith("(no"):
        return {}
    tables: dict[str, list[str]] = {}
    for match in TABLE.finditer(NOTE.sub("", value)):
        tables[match.group(1)] = [c.strip() for c in (match.group(2) or "").split(",") if c.strip()]
    return tables


def tables_needed(*queries: str, dialect: str) -> tuple[str, ...]:
    """The tables that the queries named read (their `reads:` headers) and none of them writes:
    what must exist before they run."""
    read: dict[str, None] = {}
    written: set[str] = set()
    for name in queries:
        header = read_sql(query_paths()[name], dialect).header
        read.update(dict.fromkeys(declared_tables(header.get("reads", ""))))
        written.update(declared_tables(header.get("writes", "")))
    return tuple(table for table in read if table not in written)


def quote_identifier(name: str) -> str:
    """A double-quoted SQL identifier; embedded quotes are doubled, so no name can end the quote."""
    if "\x00" in name:
        raise ValueError("an identifier cannot contain a NUL character")
    return '"' + name.replace('"', '""') + '"'


def fill(text: str, fragments: Fragments) -> str:
    """The text with each `{{ name }}` replaced by its fragment (a string, or a function making it)."""

    def replace(match: re.Match[str]) -> str:
        fragment = fragments[match.group(1)]
        return fragment if isinstance(fragment, str) else fragment()

    return TEMPLATE.sub(replace, text)


def used_parameters(sql: str) -> list[str]:
    """The `$names` a statement uses, outside `--` comment lines, sorted."""
    body = "\n".join(line for line in sql.splitlines() if not line.lstrip().startswith("--"))
    return sorted(set(PARAMETER.findall(body)))


def bind(name: str, dialect: str, sql: str, values: Mapping[str, Any]) -> Statement:
    """The statement with the values of exactly the parameters its text uses."""
    missing = [p for p in used_parameters(sql) if p not in values]
    if missing:
        raise KeyError(f"{name}: no value for ${missing[0]}")
    return Statement(name, dialect, sql, {p: values[p] for p in used_parameters(sql)})


def statement(
    path: str,
    values: Mapping[str, Any] | None,
    fragments: Fragments | None,
    dialect: str,
) -> Statement:
    """The statement of sql/<path> for `dialect`, its fragments filled and its parameters bound."""
    file = read_sql(path, dialect)
    sql = fill(file.text, fragments or {})
    return bind(Path(path).stem, dialect, sql, values or {})


def query(name: str, values: Mapping[str, Any] | None, dialect: str, **fragments: str) -> Statement:
    """The statement of the query named `name`: sql/queries/<purpose>/<name>.sql."""
    return statement(query_paths()[name], values, fragments, dialect)


@cache
def query_paths() -> dict[str, str]:
    """Each query's path under sql/ by its name, which is unique across the folders of sql/queries/
    (bookkeeping, staging, clusters, index, export, report) and those of a dialect's own queries."""
    root = sql_dir()
    files = sorted([*root.glob("queries/*/*.sql"), *root.glob("*/queries/*/*.sql")])
    paths: dict[str, str] = {}
    for file in files:
        path = f"queries/{file.parent.name}/{file.name}"
        if paths.setdefault(file.stem, path) != path:
            raise ValueError(f"two queries named {file.stem}: {paths[file.stem]} and {path}")
    return paths


def fragment(name: str, dialect: str, **fragments: str | Callable[[], str]) -> str:
    """The text of sql/fragments/<name>.sql, its own fragments filled (a piece of another statement)."""
    return fill(read_sql(f"fragments/{name}.sql", dialect).text, fragments).rstrip()


def user_query(text: str, dialect: str) -> Statement:
    """The user's own SQL (`dedup sql`), as it was typed, with no parameters: run read-only only."""
    return Statement("user_query", dialect, text, {})


@dataclass(frozen=True)
class Queries:
    """The SQL of sql/ bound to one dialect, as aiosql binds a folder of queries to a database
    adapter: each engine holds its own (`Engine.sql`), so a caller asks the engine it runs on for a
    statement and never names a dialect (a forgotten one gave DuckDB's SQL to Spark)."""

    dialect: str

    def read(self, path: str) -> SqlFile:
        return read_sql(path, self.dialect)

    def query(self, name: str, values: Mapping[str, Any] | None = None, **fragments: str) -> Statement:
        """The statement of the query named `name` (sql/queries/<purpose>/<name>.sql)."""
        return query(name, values, self.dialect, **fragments)

    def statement(
        self, path: str, values: Mapping[str, Any] | None = None, fragments: Fragments | None = None
    ) -> Statement:
        return statement(path, values, fragments, self.dialect)

    def fragment(self, name: str, **fragments: str) -> str:
        return fragment(name, self.dialect, **fragments)

    def tables_needed(self, *queries: str) -> tuple[str, ...]:
        return tables_needed(*queries, dialect=self.dialect)

    def user_query(self, text: str) -> Statement:
        return user_query(text, self.dialect)
