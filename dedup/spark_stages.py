"""The stages as Spark SQL runs them: sql/spark/<file> where Spark's semantics differ, sql/<file> otherwise.

Each file of sql/spark/ says in its header why it differs; tests/test_spark_identity.py compares
every stage table with DuckDB's. A Spark file may create helper tables before the stage's own:
each of its statements then starts with a `-- table: NAME` line, the last naming the stage's table.
"""

from __future__ import annotations

import re
from pathlib import Path

from . import lowercase, sqltext
from .settings import Settings
from .stages import TEMPLATE, Stage, parameter_values, sql_dir, used_parameters

DIALECT = "spark"
TABLE_MARKER = re.compile(r"^--\s*table:\s*([a-z_]+)\s*$", re.MULTILINE)
CREATE_LINE = re.compile(r"^create or replace table [a-z_]+ as\n", re.MULTILINE)


def spark_file(relative: str) -> Path:
    own = sql_dir() / DIALECT / relative
    return own if own.is_file() else sql_dir() / relative


def shingle_texts_sql(shingle_type: str, documents: str = "documents") -> str:
    if shingle_type not in ("char", "word") or documents != "documents":
        raise ValueError(f"no shingle fragment for {shingle_type!r} over {documents!r}")
    fragment = spark_file(f"fragments/shingle_texts_{shingle_type}.sql").read_text(encoding="utf-8")
    return TEMPLATE.sub(lambda m: {"documents": documents}[m.group(1)], fragment).rstrip()


def compile_sql(stage: Stage, settings: Settings) -> str:
    """The Spark text of a stage: its file (Spark's own or the shared one) with the generated columns."""
    banding = settings.banding
    fragments = {
        "shingle_texts": lambda: shingle_texts_sql(settings.shingle_type),
        "minhash_columns": lambda: sqltext.spark_minhash_columns(settings.num_perm),
        "bucket_list": lambda: sqltext.spark_bucket_list(banding.bands, banding.rows),
        "equal_minhash_count": lambda: sqltext.equal_minhash_count(settings.num_perm),
    }
    text = spark_file(stage.file).read_text(encoding="utf-8")
    return CREATE_LINE.sub("", TEMPLATE.sub(lambda m: fragments[m.group(1)](), text))


def split_tables(name: str, sql: str) -> list[tuple[str, str]]:
    """(table, SELECT) in order; the last is `name` itself."""
    parts = TABLE_MARKER.split(sql)
    if len(parts) == 1:
        return [(name, sql)]
    header, rest = parts[0], parts[1:]
    statements = [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
    if statements[-1][0] != name:
        raise ValueError(f"the last `-- table:` of stage {name} must be {name}")
    return [(table, header + body if i == 0 else body) for i, (table, body) in enumerate(statements)]


def spark_parameter_values(settings: Settings) -> dict[str, object]:
    values = parameter_values(settings)
    values["lower_from"], values["lower_to"] = lowercase.translate_arguments()
    return values


def compile_statements(stage: Stage, settings: Settings) -> list[tuple[str, str, dict[str, object]]]:
    """(table, SELECT, the values of exactly its parameters) for every table the stage creates."""
    values = spark_parameter_values(settings)
    return [
        (table, sql, {p: values[p] for p in used_parameters(sql)})
        for table, sql in split_tables(stage.name, compile_sql(stage, settings))
    ]
