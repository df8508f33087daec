"""The tables of a Spark statement file: a file may create helper tables before its own."""

from __future__ import annotations

import re

TABLE_MARKER = re.compile(r"^--\s*table:\s*([a-z_]+)\s*$", re.MULTILINE)


def split_tables(name: str, sql: str) -> list[tuple[str, str]]:
    """(table, SELECT) in order: a Spark file may create helper tables first, each statement after
    a `-- table: NAME` line, the last one naming the statement's own table."""
    parts = TABLE_MARKER.split(sql)
    if len(parts) == 1:
        return [(name, sql)]
    header, rest = parts[0], parts[1:]
    statements = [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
    if statements[-1][0] != name:
        raise ValueError(f"the last `-- table:` of {name} must be {name}, not {statements[-1][0]}")
    return [(table, header + body if i == 0 else body) for i, (table, body) in enumerate(statements)]
