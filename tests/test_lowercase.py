"""DuckDB's lower() is pinned as data (sql/spark/lowercase.tsv) for the Spark stages: it must stay DuckDB's."""

from __future__ import annotations

import duckdb
import pyarrow as pa

from dedup.engines.lowercase import mapping, translate_arguments


def test_duckdb_lower_is_the_pinned_mapping_on_every_code_point():
    code_points = [i for i in range(0x110000) if not 0xD800 <= i <= 0xDFFF]
    con = duckdb.connect()
    con.register("points", pa.table({"i": code_points}))
    changed = con.sql(
        "select i, lower(chr(i::integer)) as l from points where lower(chr(i::integer)) <> chr(i::integer)"
    )
    found = sorted((i, ord(lower)) for i, lower in changed.fetchall())
    assert found == sorted(mapping()), (
        "DuckDB's lower() changed: regenerate sql/spark/lowercase.tsv and rerun the Spark identity tests"
    )
    con.close()


def test_the_mapping_covers_the_known_traps():
    table = dict(mapping())
    assert table[0x130] == 0x69  # İ -> i (one code point; ICU gives i + U+0307)
    assert table[0x3A3] == 0x3C3  # Σ -> σ, never the final ς (context-free, per code point)
    assert table[0x10400] == 0x10428  # astral (Deseret)
    assert ord("I") in table and table[ord("I")] == ord("i")  # never the Turkish dotless ı
    source, target = translate_arguments()
    assert len(source) == len(target) == len(table)
