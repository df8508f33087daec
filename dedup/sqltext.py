"""The parts of statements that Python generates: the per-permutation column lists and band
expressions that depend on --num-perm, --bands and --rows, and quoted identifiers.

Every other statement is a file of sql/ (dedup/sqlfiles.py reads them); only the engine
(dedup/engine/) writes its own DDL around them (create ... as, transactions). Values never enter
SQL text: generated fragments only name columns and `$parameters`, so every number and every
user string still travels as a bound parameter.
"""

from __future__ import annotations


def quote_identifier(name: str) -> str:
    """A double-quoted SQL identifier; embedded quotes are doubled, so no name can end the quote."""
    if "\x00" in name:
        raise ValueError("an identifier cannot contain a NUL character")
    return '"' + name.replace('"', '""') + '"'


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
    """How many of the num_perm signature values two rows share."""
    return " + ".join(f"({left}.mh_{i} = {right}.mh_{i})::integer" for i in range(num_perm))
