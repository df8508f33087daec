"""DuckDB's lower() as data (sql/spark/lowercase.tsv), for engines whose lower() differs.

Spark's lower() follows the JVM (ICU tables, and the locale: under tr_TR 'I' becomes a dotless
i); the Spark stages apply DuckDB's own per-code-point mapping with translate() instead.
"""

from __future__ import annotations

from functools import cache

from ..sqlfiles import sql_dir


@cache
def mapping() -> tuple[tuple[int, int], ...]:
    """(code point, its lowercase) for every code point that DuckDB's lower() changes."""
    pairs = []
    for line in (sql_dir() / "spark" / "lowercase.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            upper, lower = line.split("\t")
            pairs.append((int(upper, 16), int(lower, 16)))
    return tuple(pairs)


def translate_arguments() -> tuple[str, str]:
    """The from and to strings of translate(text, from, to)."""
    pairs = mapping()
    return "".join(chr(u) for u, _ in pairs), "".join(chr(lo) for _, lo in pairs)
