"""What a run's statements are compiled with, from its settings: the value of every parameter a
stage or a query may use, and the fragments that fill the stages' `{{ name }}` marks (the
generated column lists and the shingle definition)."""

from __future__ import annotations

from . import sqltext
from .engines.spark import lowercase
from .hashing import bucket_constants, permutation_coefficients
from .settings import Settings
from .sqlfiles import Fragments, fragment

# Character shingles are cut from pieces of this many code points, or k if larger: each piece is
# extended by the first k - 1 code points of the next one (sql/fragments/shingles_char.sql).
# Word shingles need no pieces (sql/fragments/shingles_word.sql slices each token list once).
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
        "shingles": lambda: shingles(kind, k, "documents", dialect),
        # DuckDB's shingles stage reads the documents in slices, one pipeline each (sql/02_shingles.sql)
        "shingles_of_slices": lambda: shingles(kind, k, "document_slices", dialect),
    }
    return values, fragments


def shingles(shingle_type: str, k: int, documents: str, dialect: str = "duckdb", texts: bool = False) -> str:
    """The shared definition of a shingle and its fingerprint (sql/fragments/shingles_<type>.sql)
    over the relation `documents`, with the word fragment's generated columns; with texts, DuckDB's
    word fragment also builds each shingle's text (for explain; the stage leaves it NULL)."""
    if dialect == "spark":
        columns = {
            "digest_fingerprint": fragment("digest_fingerprint", "spark"),
            "word_fingerprint": sqltext.spark_word_fingerprint(k),
        }
    else:
        columns = {
            "word_windows": sqltext.word_windows(k, texts),
            "word_fingerprint": sqltext.word_fingerprint(k),
            "word_text": sqltext.word_text(k, texts),
        }
    return fragment(f"shingles_{shingle_type}", dialect, documents=documents, **columns)


def parameter_values(settings: Settings) -> dict[str, object]:
    """The value of every parameter a stage or a query of the run's options may use."""
    return bindings(settings)[0]
