"""The parts of statements that Python generates: the per-permutation column lists and band
expressions that depend on --num-perm, --bands and --rows.

Every other statement is a file of sql/ (dedup/sqlfiles.py reads them); only the engine
(dedup/engine/) writes its own DDL around them (create ... as, transactions). Values never enter
SQL text: generated fragments only name columns and `$parameters`, so every number and every
user string still travels as a bound parameter.
"""

from __future__ import annotations


def minhash_columns(num_perm: int) -> str:
    """One aggregate per permutation i: min((a_i * h + b_i) mod 2^32) as mh_i (mod 2^32 as a mask)."""
    return ",\n    ".join(
        f"min((h * $a_{i}::ubigint + $b_{i}::ubigint) & 4294967295::ubigint)::uinteger as mh_{i}"
        for i in range(num_perm)
    )


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
    a balanced tree (depth log2 num_perm, not num_perm): DuckDB binds and optimizes it in ~35 ms
    instead of ~60 ms at 128 permutations, the same integer."""
    terms = [f"({left}.mh_{i} = {right}.mh_{i})::integer" for i in range(num_perm)]
    while len(terms) > 1:
        pairs = [f"({terms[i]} + {terms[i + 1]})" for i in range(0, len(terms) - 1, 2)]
        terms = pairs + ([terms[-1]] if len(terms) % 2 else [])
    return terms[0]


# Spark's bigint is signed and, in ANSI mode (Spark 4's default), raises on overflow: the Spark
# stages multiply 32-bit values in 16-bit halves so that no intermediate reaches 2^63.
U32 = 4294967295


def spark_minhash_columns(num_perm: int) -> str:
    """min((a_i * h + b_i) mod 2^32) as mh_i, with h * a_i mod 2^32 from a_i's 16-bit halves (< 2^49)."""
    return ",\n    ".join(
        f"min((h * ($a_{i} & 65535) + shiftleft((h * shiftright($a_{i}, 16)) & 65535, 16) + $b_{i}) & {U32}) as mh_{i}"
        for i in range(num_perm)
    )


def spark_product64(value: str, constant: str) -> str:
    """The 64 bits of value * constant (both < 2^32), as a signed bigint, without overflowing.

    u = v * c_lo and w = v * c_hi are below 2^48; t = (w mod 2^16) * 2^16 + u holds the low word
    and its carry; the high word is w / 2^16 + t / 2^32; shiftleft wraps instead of raising.
    """
    u = f"({value} * ({constant} & 65535))"
    w = f"({value} * shiftright({constant}, 16))"
    t = f"(shiftleft({w} & 65535, 16) + {u})"
    return f"(shiftleft(shiftright({w}, 16) + shiftright({t}, 32), 32) | ({t} & {U32}))"


def spark_bucket_expression(band: int, rows: int) -> str:
    """The bucket of bucket_expression with the bits of DuckDB's ubigint, read as a signed bigint."""
    terms = [spark_product64(f"mh_{band * rows + j}", f"$c_{j}") for j in range(rows)]
    return " ^ ".join(terms) if rows > 1 else terms[0]


def spark_bucket_list(bands: int, rows: int) -> str:
    return "array(\n        " + ",\n        ".join(spark_bucket_expression(b, rows) for b in range(bands)) + "\n    )"
