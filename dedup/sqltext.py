"""The parts of statements that Python generates: the per-permutation column lists and band
expressions that depend on --num-perm, --bands and --rows, and a shingle's fingerprint (hash
scheme v4) and window columns that depend on --shingle-size.

Every other statement is a file of sql/ (dedup/sqlfiles.py reads them); only the engine
(dedup/engines/) writes its own DDL around them (create ... as, transactions). Values never enter
SQL text: generated fragments only name columns and `$parameters`, so every number and every
user string still travels as a bound parameter.
"""

from __future__ import annotations

from collections.abc import Callable


def minhash_columns(num_perm: int) -> str:
    """One aggregate per permutation i: min((a_i * h + b_i) mod 2^32) as mh_i (mod 2^32 as a mask)."""
    return ",\n    ".join(
        f"min((h * $a_{i}::ubigint + $b_{i}::ubigint) & 4294967295::ubigint)::uinteger as mh_{i}"
        for i in range(num_perm)
    )


def shingle_windows(k: int) -> str:
    """Columns f_j and t_j (j = 0 .. k-1) of sql/queries/index/shingle_texts.sql: the fingerprints and
    texts of a document's tokens from the (j+1)-th to the (n-k+1+j)-th, so that row i of the
    columns unnested side by side holds the k tokens of its i-th shingle."""
    columns = [f"unnest(fps[{1 + j} : n - $k + {1 + j}]) as f{j}" for j in range(k)]
    columns += [f"unnest(texts[{1 + j} : n - $k + {1 + j}]) as t{j}" for j in range(k)]
    return ",\n        ".join(columns)


def shingle_text(shingle_type: str, k: int) -> str:
    """A shingle's text from its token texts t0 .. t{k-1}: words joined by one space, code points
    by nothing (concat_ws skips the NULL texts that pad a short document)."""
    separator = "' '" if shingle_type == "word" else "''"
    return f"concat_ws({separator}, {', '.join(f't{j}' for j in range(k))})"


def _rotl(value: str, bits: int) -> str:
    """value rotated left by bits (0 < bits < 64) as a ubigint: the high bits masked off first,
    because DuckDB's << raises when bits are shifted out."""
    return f"((({value} & {2 ** (64 - bits) - 1}::ubigint) << {bits}) | ({value} >> {64 - bits}))"


def shingle_fingerprint(k: int, token: Callable[[int], str] = lambda j: f"fps[i + {j}]") -> str:
    """The v4 fingerprint of a shingle from the fingerprints token(j) of its k tokens (j = 0 ..
    k-1): the xor of token(j) rotated left by (k - 1 - j) mod 64 bits (docs/reference.md,
    "Hashing"; tests/reference.py). By default the tokens of the shingle starting at index i of
    the list fps (sql/02_shingles.sql); the window columns f0 .. f{k-1} in shingle_texts.sql."""
    terms = [token(j) if (k - 1 - j) % 64 == 0 else _rotl(token(j), (k - 1 - j) % 64) for j in range(k)]
    return _balanced(terms, lambda a, b: f"xor({a}, {b})")


def window_fingerprint(k: int) -> str:
    """shingle_fingerprint of the window columns f0 .. f{k-1} (sql/queries/index/shingle_texts.sql)."""
    return shingle_fingerprint(k, lambda j: f"f{j}")


def spark_shingle_fingerprint(k: int) -> str:
    """shingle_fingerprint over Spark's array fps, for the shingle starting at 0-based index i
    (shiftleft wraps like a Java long; shiftrightunsigned does not spread the sign bit)."""

    def term(j: int) -> str:
        bits = (k - 1 - j) % 64
        value = f"fps[i + {j}]"
        return value if bits == 0 else f"(shiftleft({value}, {bits}) | shiftrightunsigned({value}, {64 - bits}))"

    return _balanced([term(j) for j in range(k)], lambda a, b: f"({a} ^ {b})")


def _balanced(terms: list[str], combine: Callable[[str, str], str]) -> str:
    """terms combined pairwise as a balanced tree (depth log2 n, not n): DuckDB binds and optimizes
    a shallow expression faster (~35 ms instead of ~60 ms for 128 terms), the same value."""
    while len(terms) > 1:
        pairs = [combine(terms[i], terms[i + 1]) for i in range(0, len(terms) - 1, 2)]
        terms = pairs + ([terms[-1]] if len(terms) % 2 else [])
    return terms[0]


def bucket_expression(band: int, rows: int) -> str:
    """xor over the band's rows j of mh_(band*rows+j) * c_j: one 64-bit bucket per band."""
    terms = [f"mh_{band * rows + j}::ubigint * $c_{j}::ubigint" for j in range(rows)]
    expression = terms[0]
    for term in terms[1:]:
        expression = f"xor({expression}, {term})"
    return expression


def bucket_list(bands: int, rows: int) -> str:
    return "[\n        " + ",\n        ".join(bucket_expression(band, rows) for band in range(bands)) + "\n    ]"


def equal_minhash_count(num_perm: int, left: str = "sa", right: str = "sb") -> str:
    """How many of the num_perm signature values two rows share: a sum of num_perm terms, nested as
    a balanced tree, the same integer."""
    terms = [f"({left}.mh_{i} = {right}.mh_{i})::integer" for i in range(num_perm)]
    return _balanced(terms, lambda a, b: f"({a} + {b})")


# Spark's bigint is signed. The Spark files of the two stages below run with ANSI mode off (their
# `-- spark-conf:` line), where a bigint product wraps modulo 2^64 as Java's long does: the low 64
# bits of a product, which are all of DuckDB's ubigint product when both factors are below 2^32.
# (Under ANSI mode, Spark 4's default, the same product raises on overflow.)
U32 = 4294967295


def spark_minhash_columns(num_perm: int) -> str:
    """min((a_i * h + b_i) mod 2^32) as mh_i: a * h wraps modulo 2^64, whose low 32 bits it keeps."""
    return ",\n    ".join(f"min((h * $a_{i} + $b_{i}) & {U32}) as mh_{i}" for i in range(num_perm))


def spark_bucket_expression(band: int, rows: int) -> str:
    """The bucket of bucket_expression with the bits of DuckDB's ubigint, read as a signed bigint
    (mh * c < 2^64: the wrapped product has all its bits)."""
    terms = [f"mh_{band * rows + j} * $c_{j}" for j in range(rows)]
    return " ^ ".join(f"({term})" for term in terms) if rows > 1 else terms[0]


def spark_bucket_list(bands: int, rows: int) -> str:
    return "array(\n        " + ",\n        ".join(spark_bucket_expression(b, rows) for b in range(bands)) + "\n    )"
