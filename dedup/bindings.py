"""What a run's statements are compiled with, from its sketch: the value of every parameter a
stage or a query may use, and the fragments that fill the stages' `{{ name }}` marks (the
generated column lists and the shingle definition)."""

from __future__ import annotations

from . import sqltext
from .engines import lowercase
from .engines.kinds import engine_kind
from .hashing import bucket_constants, permutation_coefficients
from .settings import Sketch
from .sqlfiles import Fragments, fragment

# The Spark candidates stage spreads a band bucket of more documents than this over several tasks
# (sql/spark/05_candidates.sql); DuckDB's stage does not use it.
HOT_BUCKET_ROWS = 1024
# DuckDB's shingles stage takes a document of more bytes of normalized text than this in pieces
# (sql/02_shingles.sql, sql/fragments/pieces_<type>.sql); the tests set it low to run every
# document through both paths.
LONG_DOCUMENT_BYTES = 2**20


def bindings(sketch: Sketch, dialect: str, between: bool = False) -> tuple[dict[str, object], Fragments]:
    """(parameter values, fragments) of a run's statements in `dialect`; between: its pair stages make
    the rows between distinct texts alone, those a lean database stores (dedup.stages.Plan.verify_texts)."""
    banding = sketch.banding
    values: dict[str, object] = {
        # every option of the sketch by its name ($threshold, $num_perm, ...): an option added to
        # Sketch reaches the statements that name it with nothing more to write
        **{name: value for name, value in vars(sketch).items() if isinstance(value, (bool, int, float, str))},
        "k": sketch.shingle_size,
        "bands": banding.bands,
        "hot_bucket_rows": HOT_BUCKET_ROWS,
        "long_bytes": LONG_DOCUMENT_BYTES,
        # --max-shingle-df as the boilerplate stage takes it: a count of texts, or -1 and a fraction
        "max_df_count": sketch.max_df.count if sketch.max_df is not None else -1,
        "max_df_fraction": sketch.max_df.fraction if sketch.max_df is not None else -1.0,
    }
    for i, (a, b) in enumerate(permutation_coefficients(sketch.seed, sketch.num_perm)):
        values[f"a_{i}"] = a
        values[f"b_{i}"] = b
    for j, c in enumerate(bucket_constants(banding.rows)):
        values[f"c_{j}"] = c
    # DuckDB's lower() as translate() arguments, for engines whose lower() differs (sql/spark/01_documents.sql)
    values["lower_from"], values["lower_to"] = lowercase.translate_arguments()
    generated = engine_kind(dialect).generated
    kind, k = sketch.shingle_type, sketch.shingle_size
    fragments: Fragments = {
        # the fragments each dialect generates its own way (Spark's bigint is signed: dedup/engines/spark/sqltext.py)
        "minhash_columns": lambda: generated.minhash_columns(sketch.num_perm),
        "bucket_list": lambda: generated.bucket_list(banding.bands, banding.rows),
        "equal_minhash_count": lambda: sqltext.equal_minhash_count(sketch.num_perm),
        "tokens": lambda: generated.tokens(kind, "documents"),
        "shingle_fingerprint": lambda: generated.shingle_fingerprint(k),
        # every distinct shingle of a document (sql/fragments/shingle_rows.sql): the all_shingles
        # stage's rows (sql/02_all_shingles.sql), made with --max-shingle-df only
        "shingle_rows": lambda: shingle_rows(sketch, dialect),
        # the shingles stage's rows: every shingle, made there, or with --max-shingle-df those of the
        # all_shingles stage that it leaves (a text's MD5 read by each dialect's digest_fingerprint)
        "kept_rows": lambda: (
            fragment("kept_all", dialect, shingle_rows=lambda: shingle_rows(sketch, dialect))
            if sketch.max_df is None
            else fragment("kept_capped", dialect, digest_fingerprint=lambda: fragment("digest_fingerprint", dialect))
        ),
        # the pair stages' parts that both engines share (sql/fragments/), so their rows agree by
        # construction; copy_rows, the groups of exact copies among `involved` as the copies stage and
        # `dedup add` store them, holds the fragments that define an exact copy and its shared bands
        "copy_rows": lambda: fragment(
            "copy_rows",
            dialect,
            exact_copies=fragment("exact_copies", dialect),
            copy_groups=fragment("copy_groups", dialect),
            copy_shared_bands=fragment(f"copy_shared_bands_{sketch.method}", dialect),
        ),
        # the candidates from those of the groups' representatives: for every member, or between
        # the representatives alone
        "candidate_rows": lambda: (
            fragment("copies_between", dialect)
            if between
            else fragment("copies_expanded", dialect, across_groups=fragment("across_groups", dialect))
        ),
        "candidate_reps": lambda: fragment("candidate_reps", dialect),
        "verified_counts": lambda: fragment("verified_counts", dialect),
    }
    return values, fragments


def shingle_rows(sketch: Sketch, dialect: str) -> str:
    """sql/fragments/shingle_rows.sql (or its dialect's) over the stage's `documents`: DuckDB's reads
    them in slices, one pipeline each, and a long document in pieces (sql/fragments/pieces_<type>.sql)."""
    generated = engine_kind(dialect).generated
    kind, k = sketch.shingle_type, sketch.shingle_size
    return fragment(
        "shingle_rows",
        dialect,
        documents="documents",
        tokens=generated.tokens(kind, "documents"),
        tokens_of_slices=generated.tokens(kind, "document_slices"),
        pieces=fragment(f"pieces_{kind}", dialect, documents="documents"),
        tokens_of_pieces=generated.tokens(kind, "long_pieces"),
        token_windows=sqltext.token_windows(k),
        shingle_fingerprint=generated.shingle_fingerprint(k),
    )


def bound_fragment(sketch: Sketch, dialect: str, name: str) -> str:
    """The fragment `name` as a run's statements are filled with it (a query outside the stages that
    shares a stage's part: `dedup add`'s groups of copies)."""
    made = bindings(sketch, dialect)[1][name]
    return made if isinstance(made, str) else made()


def parameter_values(sketch: Sketch, dialect: str) -> dict[str, object]:
    """The value of every parameter a stage or a query of the run's options may use."""
    return bindings(sketch, dialect)[0]
