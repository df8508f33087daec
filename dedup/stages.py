"""Finding the SQL stages, compiling their generated parts, and running each with its parameters."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import duckdb

from . import sqltext
from .hashing import bucket_constants, permutation_coefficients
from .settings import Settings

# Texts are shingled in pieces of this many code points (char) or tokens (word), or k if larger:
# each piece is extended by the first k - 1 units of the next one (sql/fragments/shingle_texts_*.sql).
# Word pieces are shorter because every shingle row slices its piece's token list: 64 tokens
# shingled the `long` benchmark workload in 3.6 s against 5.4 s with 256.
SHINGLE_PIECE = {"char": 256, "word": 64}


def shingle_piece(shingle_type: str, k: int) -> int:
    return max(SHINGLE_PIECE[shingle_type], k)


PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
TEMPLATE = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")


def sql_dir() -> Path:
    """sql/ ships inside the installed package; in a source checkout it is the top-level sql/."""
    packaged = Path(__file__).parent / "sql"
    return packaged if packaged.is_dir() else Path(__file__).parent.parent / "sql"


@dataclass(frozen=True)
class Stage:
    file: str
    name: str
    header: dict[str, str]
    template: str

    @property
    def variant(self) -> str | None:
        """'exact' for 05_candidates_exact.sql: stages with variants are picked by an option."""
        stem = Path(self.file).stem.split("_", 1)[1]
        return None if stem == self.name else stem.removeprefix(self.name + "_")

    @property
    def methods(self) -> tuple[str, ...] | None:
        """The --method values this stage runs for ('methods:' header); None means every method."""
        return tuple(self.header["methods"].split()) if "methods" in self.header else None


@cache
def all_stages() -> tuple[Stage, ...]:
    stages = []
    for path in sorted(sql_dir().glob("*.sql")):
        text = path.read_text(encoding="utf-8")
        header = {}
        for line in text.splitlines():
            match = re.match(r"--\s*(stage|reads|writes|params|methods):\s*(.*)", line)
            if match:
                header[match.group(1)] = match.group(2).strip()
        stages.append(Stage(file=path.name, name=header["stage"], header=header, template=text))
    return tuple(stages)


def pipeline_stages(settings: Settings) -> list[Stage]:
    """The stages of a run in order, with the shingling and method variants that the options ask for."""
    return [
        s
        for s in all_stages()
        if s.variant in (None, settings.shingle_type, settings.method)
        and (s.methods is None or settings.method in s.methods)
    ]


def stage_named(name: str, settings: Settings) -> Stage:
    for stage in pipeline_stages(settings):
        if stage.name == name:
            return stage
    raise KeyError(name)


# The relations a shingle_texts fragment may read: our own fixed list, never user text.
SHINGLE_SOURCES = ("documents", "chosen_documents")


def shingle_texts_sql(shingle_type: str, documents: str = "documents") -> str:
    """The shared definition of a shingle (sql/fragments/shingle_texts_<type>.sql) over `documents`."""
    if shingle_type not in ("char", "word") or documents not in SHINGLE_SOURCES:
        raise ValueError(f"no shingle fragment for {shingle_type!r} over {documents!r}")
    fragment = (sql_dir() / "fragments" / f"shingle_texts_{shingle_type}.sql").read_text(encoding="utf-8")
    return TEMPLATE.sub(lambda m: {"documents": documents}[m.group(1)], fragment).rstrip()


def compile_sql(stage: Stage, settings: Settings) -> str:
    """The exact SQL that runs for this stage: the template with its generated column lists."""
    banding = settings.banding
    fragments = {
        "shingle_texts": lambda: shingle_texts_sql(settings.shingle_type),
        "minhash_columns": lambda: sqltext.minhash_columns(settings.num_perm),
        "bucket_list": lambda: sqltext.bucket_list(banding.bands, banding.rows),
        "equal_minhash_count": lambda: sqltext.equal_minhash_count(settings.num_perm),
    }
    return TEMPLATE.sub(lambda m: fragments[m.group(1)](), stage.template)


def parameter_values(settings: Settings) -> dict[str, object]:
    values: dict[str, object] = {
        "k": settings.shingle_size,
        "piece": shingle_piece(settings.shingle_type, settings.shingle_size),
        "threshold": settings.threshold,
        "num_perm": settings.num_perm,
        "bands": settings.banding.bands,
    }
    for i, (a, b) in enumerate(permutation_coefficients(settings.seed, settings.num_perm)):
        values[f"a_{i}"] = a
        values[f"b_{i}"] = b
    for j, c in enumerate(bucket_constants(settings.banding.rows)):
        values[f"c_{j}"] = c
    return values


def used_parameters(sql: str) -> list[str]:
    body = "\n".join(line for line in sql.splitlines() if not line.lstrip().startswith("--"))
    return sorted(set(PARAMETER.findall(body)))


def run_stage(con: duckdb.DuckDBPyConnection, stage: Stage, settings: Settings) -> None:
    sql = compile_sql(stage, settings)
    values = parameter_values(settings)
    con.execute(sql, {name: values[name] for name in used_parameters(sql)}).fetchall()
