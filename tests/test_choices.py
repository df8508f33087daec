"""Every choice that carries rules has its spec and its SQL: a shingle type its Shingling and tokens
fragments, a keep order its help and its line of the survivors' order; the help of their options is
made from the specs."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from dedup.choices import KEEP_ORDERS, SHINGLINGS, Keep, ShingleType
from dedup.cli import app
from dedup.sqlfiles import read_sql, sql_dir


def test_every_shingle_type_has_its_shingling_and_its_tokens_fragments_on_both_engines():
    assert set(SHINGLINGS) == set(ShingleType)
    for kind in ShingleType:
        for path in (f"fragments/tokens_{kind}.sql", f"fragments/pieces_{kind}.sql"):
            assert (sql_dir() / path).is_file(), path
        assert (sql_dir() / "spark" / "fragments" / f"tokens_{kind}.sql").is_file(), kind
        assert SHINGLINGS[kind].joiner in ("''", "' '") and SHINGLINGS[kind].bytes_per_shingle >= 1


def test_every_keep_order_has_its_help_and_one_line_of_the_survivors_order():
    assert set(KEEP_ORDERS) == set(Keep)
    order = read_sql("fragments/keep_order.sql", "duckdb").text
    lines = re.findall(r"^if\(\$keep = '([a-z-]+)', .+, null\),$", order, flags=re.MULTILINE)
    assert lines == [keep.value for keep in Keep]


def test_the_help_of_the_options_is_made_from_the_specs():
    shown = " ".join(CliRunner().invoke(app, ["run", "--help"], terminal_width=400).output.split())
    for kind, shingling in SHINGLINGS.items():
        assert f"{kind.value}: {shingling.help}" in shown
    for keep, help_text in KEEP_ORDERS.items():
        assert f"{keep.value}: {help_text}" in shown
