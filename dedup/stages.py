"""The pipeline's stages (sql/NN_*.sql) and their compilation, for one run's settings, into statements.

A stage is compiled once into a Statement (dedup.engine): its generated column lists filled,
its parameters bound. The same value fingerprints the stage (resume) and runs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from . import lowercase, sqltext
from .engine import Statement
from .hashing import bucket_constants, permutation_coefficients
from .settings import Settings
from .sqlfiles import Fragments, bind, fill, fragment, read_sql, sql_dir

# Character shingles are cut from pieces of this many code points, or k if larger: each piece is
# extended by the first k - 1 code points of the next one (sql/fragments/shingle_texts_char.sql).
# Word shingles need no pieces (sql/fragments/shingle_texts_word.sql scans joined token strings).
SHINGLE_PIECE = 256


# The Spark candidates stage spreads a band bucket of more documents than this over several tasks
# (sql/spark/05_candidates.sql); DuckDB's stage does not use it.
HOT_BUCKET_ROWS = 1024


def shingle_piece(k: int) -> int:
    return max(SHINGLE_PIECE, k)


@dataclass(frozen=True)
class Stage:
    file: str
    name: str
    header: dict[str, str]

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
        header = dict(read_sql(path.name).header)
        stages.append(Stage(file=path.name, name=header["stage"], header=header))
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
SHINGLE_SOURCES = ("documents", "document_slices", "chosen_documents")


def shingle_texts_sql(shingle_type: str, documents: str = "documents", dialect: str = "duckdb") -> str:
    """The shared definition of a shingle (sql/fragments/shingle_texts_<type>.sql) over `documents`."""
    if shingle_type not in ("char", "word") or documents not in SHINGLE_SOURCES:
        raise ValueError(f"no shingle fragment for {shingle_type!r} over {documents!r}")
    return fragment(f"shingle_texts_{shingle_type}", dialect, documents=documents)


def compile_stage(stage: Stage, settings: Settings, dialect: str = "duckdb") -> Statement:
    """The stage as it runs: its file with the generated column lists, and its parameters bound."""
    return _compile(stage, parameter_values(settings), generated_fragments(settings, dialect), dialect)


def compile_stages(settings: Settings, dialect: str = "duckdb") -> list[tuple[Stage, Statement]]:
    """Every stage of the run with its statement, in order."""
    stages = pipeline_stages(settings)
    values = parameter_values(settings)
    fragments = generated_fragments(settings, dialect)
    return [(stage, _compile(stage, values, fragments, dialect)) for stage in stages]


def _compile(stage: Stage, values: dict[str, object], fragments: Fragments, dialect: str) -> Statement:
    return bind(stage.name, dialect, fill(read_sql(stage.file, dialect).text, fragments), values)


def generated_fragments(settings: Settings, dialect: str = "duckdb") -> Fragments:
    """What fills a stage's {{ fragments }}: the shingle definition and the column lists the options make."""
    banding = settings.banding
    spark = dialect == "spark"
    return {
        "shingle_texts": lambda: shingle_texts_sql(settings.shingle_type, dialect=dialect),
        # DuckDB's shingles stage reads the documents in slices, one pipeline each (sql/02_shingles.sql)
        "shingle_texts_of_slices": lambda: shingle_texts_sql(settings.shingle_type, "document_slices", dialect),
        # Spark's bigint is signed and overflow raises: its generated columns multiply in 16-bit halves.
        "minhash_columns": lambda: (sqltext.spark_minhash_columns if spark else sqltext.minhash_columns)(
            settings.num_perm
        ),
        "bucket_list": lambda: (sqltext.spark_bucket_list if spark else sqltext.bucket_list)(
            banding.bands, banding.rows
        ),
        "equal_minhash_count": lambda: sqltext.equal_minhash_count(settings.num_perm),
    }


def parameter_values(settings: Settings) -> dict[str, object]:
    """The value of every parameter a stage or a query of the run's options may use."""
    values: dict[str, object] = {
        "k": settings.shingle_size,
        "piece": shingle_piece(settings.shingle_size),
        "threshold": settings.threshold,
        "num_perm": settings.num_perm,
        "bands": settings.banding.bands,
        "hot_bucket_rows": HOT_BUCKET_ROWS,
    }
    for i, (a, b) in enumerate(permutation_coefficients(settings.seed, settings.num_perm)):
        values[f"a_{i}"] = a
        values[f"b_{i}"] = b
    for j, c in enumerate(bucket_constants(settings.banding.rows)):
        values[f"c_{j}"] = c
    # DuckDB's lower() as translate() arguments, for engines whose lower() differs (sql/spark/01_documents.sql)
    values["lower_from"], values["lower_to"] = lowercase.translate_arguments()
    return values
