"""The parts of statements that Python generates: the per-permutation column lists and band
expressions that depend on --num-perm, --bands and --rows, and a shingle's fingerprint (hash
scheme v5) and window columns that depend on --shingle-size.

Every other statement is a file of sql/ (dedup/sqlfiles.py reads them); only the engine
(dedup/engines/) writes its own DDL around them (create ... as, transactions). Values never enter
SQL text: generated fragments only name columns and `$parameters`, so every number and every
user string still travels as a bound parameter.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .choices import SHINGLINGS, ShingleType
from .hashing import BUCKET_MASK
from .sqlfiles import fragment


def minhash_columns(num_perm: int) -> str:
    """One aggregate per permutation i: min((a_i * h + b_i) mod 2^32) as mh_i (mod 2^32 as a mask)."""
    return ",\n    ".join(
        f"min((h * $a_{i}::ubigint + $b_{i}::ubigint) & 4294967295::ubigint)::uinteger as mh_{i}"
        for i in range(num_perm)
    )


def token_windows(k: int) -> str:
    """Columns f0 .. f{k-1}: the fingerprints of a document's tokens from the (j+1)-th to the
    (n-k+1+j)-th (j = 0 .. k-1) of its list fps, unnested side by side, so that row i holds the k
    tokens of its i-th shingle (sql/fragments/shingle_rows.sql, sql/fragments/shingle_texts.sql)."""
    return ",\n        ".join(f"unnest(fps[{1 + j} : n - $k + {1 + j}]) as f{j}" for j in range(k))


def shingle_windows(k: int) -> str:
    """token_windows and beside them columns t0 .. t{k-1}, the same tokens' texts
    (sql/fragments/shingle_texts.sql)."""
    texts = [f"unnest(texts[{1 + j} : n - $k + {1 + j}]) as t{j}" for j in range(k)]
    return ",\n        ".join([token_windows(k), *texts])


def shingle_text(shingle_type: str, k: int) -> str:
    """A shingle's text from its token texts t0 .. t{k-1}, joined by its Shingling's joiner (words
    by one space, code points by nothing; concat_ws skips the NULL texts that pad a short document)."""
    joiner = SHINGLINGS[ShingleType(shingle_type)].joiner
    return f"concat_ws({joiner}, {', '.join(f't{j}' for j in range(k))})"


def _rotl(value: str, bits: int) -> str:
    """value rotated left by bits (0 < bits < 64) as a ubigint: the high bits masked off first,
    because DuckDB's << raises when bits are shifted out."""
    return f"((({value} & {2 ** (64 - bits) - 1}::ubigint) << {bits}) | ({value} >> {64 - bits}))"


def shingle_fingerprint(k: int) -> str:
    """The v4 fingerprint of a shingle from its k token fingerprints, the window columns f0 ..
    f{k-1} (token_windows): the xor of f_j rotated left by (k - 1 - j) mod 64 bits
    (docs/reference.md, "Hashing"; tests/reference.py)."""
    terms = [f"f{j}" if (k - 1 - j) % 64 == 0 else _rotl(f"f{j}", (k - 1 - j) % 64) for j in range(k)]
    return balanced(terms, lambda a, b: f"xor({a}, {b})")


def balanced(terms: list[str], combine: Callable[[str, str], str]) -> str:
    """terms combined pairwise as a balanced tree (depth log2 n, not n): DuckDB binds and optimizes
    a shallow expression faster (~35 ms instead of ~60 ms for 128 terms), the same value."""
    while len(terms) > 1:
        pairs = [combine(terms[i], terms[i + 1]) for i in range(0, len(terms) - 1, 2)]
        terms = pairs + ([terms[-1]] if len(terms) % 2 else [])
    return terms[0]


def bucket_expression(band: int, rows: int) -> str:
    """xor over the band's rows j of mh_(band*rows+j) * c_j, mod 2^48: one bucket per band
    (dedup.hashing.BUCKET_BITS)."""
    terms = [f"mh_{band * rows + j}::ubigint * $c_{j}::ubigint" for j in range(rows)]
    expression = terms[0]
    for term in terms[1:]:
        expression = f"xor({expression}, {term})"
    return f"({expression}) & {BUCKET_MASK}::ubigint"


def bucket_list(bands: int, rows: int) -> str:
    return "[\n        " + ",\n        ".join(bucket_expression(band, rows) for band in range(bands)) + "\n    ]"


def equal_minhash_count(num_perm: int, left: str = "sa", right: str = "sb") -> str:
    """How many of the num_perm signature values two rows share: a sum of num_perm terms, nested as
    a balanced tree, the same integer."""
    terms = [f"({left}.mh_{i} = {right}.mh_{i})::integer" for i in range(num_perm)]
    return balanced(terms, lambda a, b: f"({a} + {b})")


def tokens(shingle_type: str, documents: str) -> str:
    """The shared definition of a shingle's tokens and their fingerprints
    (sql/fragments/tokens_<type>.sql) over the relation `documents`, padded to k
    (sql/fragments/padded_tokens.sql), in DuckDB's dialect (Spark's: dedup.engines.spark.sqltext)."""
    inner = fragment(f"tokens_{shingle_type}", "duckdb", documents=documents)
    return fragment("padded_tokens", "duckdb", tokens_of_type=inner)


@dataclass(frozen=True)
class Generated:
    """The fragments a dialect generates differently (an engine's kind holds its own,
    dedup.engines.kinds): minhash_columns(num_perm), bucket_list(bands, rows),
    shingle_fingerprint(k), tokens(shingle_type, documents)."""

    minhash_columns: Callable[[int], str]
    bucket_list: Callable[[int, int], str]
    shingle_fingerprint: Callable[[int], str]
    tokens: Callable[[str, str], str]


DUCKDB = Generated(minhash_columns, bucket_list, shingle_fingerprint, tokens)
