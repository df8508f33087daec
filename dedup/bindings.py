"""What a run's statements are compiled with, from its settings: the value of every parameter a
stage or a query may use, and the fragments that fill the stages' `{{ name }}` marks (the
generated column lists and the shingle definition)."""

from __future__ import annotations

from . import sqltext
from .engines.spark import lowercase
from .hashing import bucket_constants, permutation_coefficients
from .settings import Settings
from .sqlfiles import Fragments, fragment

# The Spark candidates stage spreads a band bucket of more documents than this over several tasks
# (sql/spark/05_candidates.sql); DuckDB's stage does not use it.
HOT_BUCKET_ROWS = 1024


def bindings(settings: Settings, dialect: str = "duckdb") -> tuple[dict[str, object], Fragments]:
    """(parameter values, fragments) of a run's statements in `dialect`."""
    banding = settings.banding
    values: dict[str, object] = {
        "k": settings.shingle_size,
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
    kind, k = settings.shingle_type, settings.shingle_size
    fragments: Fragments = {
        # Spark's bigint is signed and overflow raises: its generated columns multiply in 16-bit halves.
        "minhash_columns": lambda: (sqltext.spark_minhash_columns if spark else sqltext.minhash_columns)(
            settings.num_perm
        ),
        "bucket_list": lambda: (sqltext.spark_bucket_list if spark else sqltext.bucket_list)(
            banding.bands, banding.rows
        ),
        "equal_minhash_count": lambda: sqltext.equal_minhash_count(settings.num_perm),
        "exact_copies": lambda: fragment("exact_copies", dialect),
        # the pair stages' parts that both engines share (sql/fragments/), so their rows agree by construction
        "copy_groups": lambda: fragment("copy_groups", dialect),
        "copies_expanded": lambda: fragment("copies_expanded", dialect),
        "candidate_reps": lambda: fragment("candidate_reps", dialect),
        "verified_counts": lambda: fragment("verified_counts", dialect),
        "tokens": lambda: tokens(kind, "documents", dialect),
        # DuckDB's shingles stage reads the documents in slices, one pipeline each (sql/02_shingles.sql)
        "tokens_of_slices": lambda: tokens(kind, "document_slices", dialect),
        "shingle_fingerprint": lambda: (sqltext.spark_shingle_fingerprint if spark else sqltext.shingle_fingerprint)(k),
    }
    return values, fragments


def tokens(shingle_type: str, documents: str, dialect: str = "duckdb") -> str:
    """The shared definition of a shingle's tokens and their fingerprints
    (sql/fragments/tokens_<type>.sql) over the relation `documents`; DuckDB's padded to k
    (sql/fragments/padded_tokens.sql), Spark's as they are (its stage folds short documents)."""
    if dialect == "spark":
        digest = fragment("digest_fingerprint", "spark")
        return fragment(f"tokens_{shingle_type}", dialect, documents=documents, digest_fingerprint=digest)
    return fragment("padded_tokens", tokens_of_type=fragment(f"tokens_{shingle_type}", documents=documents))


def parameter_values(settings: Settings) -> dict[str, object]:
    """The value of every parameter a stage or a query of the run's options may use."""
    return bindings(settings)[0]
