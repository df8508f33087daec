"""The published hash scheme: shingle fingerprints and MinHash permutation coefficients.

Everything here is defined by MD5 and integer arithmetic, so the same seed gives the same
signatures on any machine and any DuckDB release (DuckDB's own hash() changes between releases,
duckdb/duckdb#17596). The SQL stages compute the fingerprints; this module only derives the
per-permutation coefficients that are bound to them as parameters.
"""

from __future__ import annotations

import hashlib

SCHEME = "md5-le64/affine-mod-p/v1"
PRIME = 2**32 - 5  # largest prime below 2^32: a*h + b < 2^64 for 32-bit h
DEFAULT_SEED = 1


def _md5_u64(text: str) -> int:
    return int.from_bytes(hashlib.md5(text.encode("utf-8")).digest()[:8], "little")


def permutation_coefficients(seed: int, num_perm: int) -> list[tuple[int, int]]:
    """(a_i, b_i) for permutation i: a_i in [1, p), b_i in [0, p), from MD5 of 'dedup:seed:a|b:i'."""
    return [
        (
            1 + _md5_u64(f"dedup:{seed}:a:{i}") % (PRIME - 1),
            _md5_u64(f"dedup:{seed}:b:{i}") % PRIME,
        )
        for i in range(num_perm)
    ]


def bucket_constants(rows: int) -> list[int]:
    """Odd 32-bit multipliers c_j that combine the r values of a band into one 64-bit bucket."""
    return [(_md5_u64(f"dedup:bucket:{j}") & 0xFFFFFFFF) | 1 for j in range(rows)]
