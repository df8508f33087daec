"""What a run's statements are compiled with, from its settings: the value of every parameter a
stage or a query may use, and the fragments that fill the stages' `{{ name }}` marks (the
generated column lists and the shingle definition)."""

from __future__ import annotations

from . import lowercase, sqltext
from .hashing import bucket_constants, permutation_coefficients
from .settings import Settings
from .sqlfiles import Fragments, fragment

# Character shingles are cut from pieces of this many code points, or k if larger: each piece is
# extended by the first k - 1 code points of the next one (sql/fragments/shingle_texts_char.sql).
# Word shingles need no pieces (sql/fragments/shingle_texts_word.sql scans joined token strings).
SHINGLE_PIECE = 256

# The Spark candidates stage spreads a band bucket of more documents than this over several tasks
# (sql/spark/05_candidates.sql); DuckDB's stage does not use it.
HOT_BUCKET_ROWS = 1024


def shingle_piece(k: int) -> int:
    return max(SHINGLE_PIECE, k)


def bindings(settings: Settings, dialect: str = "duckdb") -> tuple[dict[str, object], Fragments]:
    """(parameter values, fragments) of a run's statements in `dialect`."""
    banding = settings.banding
    values: dict[str, object] = {
        "k": settings.shingle_size,
        "piece": shingle_piece(settings.shingle_size),
        "threshold": settings.threshold,
        "num_perm": settings.num_perm,
        "bands": banding.bands,
        "hot_bucket_rows": HOT_BUCKET_ROWS,
    }
    for i, (a, b) in enumerate(permutation_coefficients(settings.seed, settings.num_perm)):
        values[f"a_{i}"] = a
        values[f"b_{i}"] = b
    for j, c in enumerate(bucket_constants(banding.rows)):
        values[f"c_{j}"] = c
    # DuckDB's lower() as translate() arguments, for engines whose lower() differs (sql/spark/01_documents.sql)
    values["lower_from"], values["lower_to"] = lowercase.translate_arguments()
    spark = dialect == "spark"
    shingle_texts = f"shingle_texts_{settings.shingle_type}"
    fragments: Fragments = {
        # Spark's bigint is signed and overflow raises: its generated columns multiply in 16-bit halves.
        "minhash_columns": lambda: (sqltext.spark_minhash_columns if spark else sqltext.minhash_columns)(
            settings.num_perm
        ),
        "bucket_list": lambda: (sqltext.spark_bucket_list if spark else sqltext.bucket_list)(
            banding.bands, banding.rows
        ),
        "equal_minhash_count": lambda: sqltext.equal_minhash_count(settings.num_perm),
        "shingle_texts": lambda: fragment(shingle_texts, dialect, documents="documents"),
        # DuckDB's shingles stage reads the documents in slices, one pipeline each (sql/02_shingles.sql)
        "shingle_texts_of_slices": lambda: fragment(shingle_texts, dialect, documents="document_slices"),
    }
    return values, fragments


def parameter_values(settings: Settings) -> dict[str, object]:
    """The value of every parameter a stage or a query of the run's options may use."""
    return bindings(settings)[0]
