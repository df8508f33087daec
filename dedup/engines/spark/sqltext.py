"""The fragments that Spark's dialect generates differently from DuckDB's (dedup/sqltext.py): its
bigint is signed, its arrays 0-based, and its tokens are not padded (its stage folds short
documents)."""

from __future__ import annotations

from ...hashing import BUCKET_MASK
from ...sqlfiles import fragment
from ...sqltext import Generated, balanced


def shingle_fingerprint(k: int) -> str:
    """dedup.sqltext.shingle_fingerprint over Spark's array fps, for the shingle starting at 0-based index i
    (shiftleft wraps like a Java long; shiftrightunsigned does not spread the sign bit)."""

    def term(j: int) -> str:
        bits = (k - 1 - j) % 64
        value = f"fps[i + {j}]"
        return value if bits == 0 else f"(shiftleft({value}, {bits}) | shiftrightunsigned({value}, {64 - bits}))"

    return balanced([term(j) for j in range(k)], lambda a, b: f"({a} ^ {b})")


# Spark's bigint is signed. The Spark files of the two stages below run with ANSI mode off (their
# `-- spark-conf:` line), where a bigint product wraps modulo 2^64 as Java's long does: the low 64
# bits of a product, which are all of DuckDB's ubigint product when both factors are below 2^32.
# (Under ANSI mode, Spark 4's default, the same product raises on overflow.)
U32 = 4294967295


def minhash_columns(num_perm: int) -> str:
    """min((a_i * h + b_i) mod 2^32) as mh_i: a * h wraps modulo 2^64, whose low 32 bits it keeps."""
    return ",\n    ".join(f"min((h * $a_{i} + $b_{i}) & {U32}) as mh_{i}" for i in range(num_perm))


def bucket_expression(band: int, rows: int) -> str:
    """The bucket of dedup.sqltext.bucket_expression: mh * c < 2^64, so the wrapped product has all
    the bits of DuckDB's ubigint product, and the bucket (mod 2^48) is the same non-negative bigint."""
    terms = [f"mh_{band * rows + j} * $c_{j}" for j in range(rows)]
    expression = " ^ ".join(f"({term})" for term in terms) if rows > 1 else terms[0]
    return f"({expression}) & {BUCKET_MASK}"


def bucket_list(bands: int, rows: int) -> str:
    return "array(\n        " + ",\n        ".join(bucket_expression(b, rows) for b in range(bands)) + "\n    )"


def tokens(shingle_type: str, documents: str) -> str:
    """sql/spark/fragments/tokens_<type>.sql over the relation `documents`, with Spark's digest of a token."""
    digest = fragment("digest_fingerprint", "spark")
    return fragment(f"tokens_{shingle_type}", "spark", documents=documents, digest_fingerprint=digest)


SPARK = Generated(minhash_columns, bucket_list, shingle_fingerprint, tokens)
