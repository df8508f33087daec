"""The published hash scheme: shingle fingerprints and MinHash permutation coefficients.

Everything here is defined by MD5, SplitMix64 and integer arithmetic, so the same seed gives the same
signatures on any machine and any DuckDB release (DuckDB's own hash() changes between releases,
duckdb/duckdb#17596). The SQL stages compute the fingerprints; this module only derives the
per-permutation coefficients that are bound to them as parameters.
"""

from __future__ import annotations

import hashlib

# v4: a shingle's fingerprint is the cyclic polynomial of its tokens' fingerprints (docs/reference.md
# "Hashing"; sql/02_shingles.sql): a word's is its MD5 (as in v3), a code point's its SplitMix64
# output (v3 hashed each character shingle's text by MD5).
# v5: a band's bucket is taken mod 2^48 (v4 kept all 64 bits): the fingerprints and signatures are v4's.
SCHEME = "cyclic(md5-le64-words,splitmix64-chars)/affine-mod-2^32/xor-bands-mod-2^48/v5"
MASK = 2**32 - 1  # permutation values are taken mod 2^32: a*h + b < 2^64 for 32-bit a, b, h
# A band's bucket keeps the low 48 bits of the xor of its products mh_j * c_j. A MinHash value is a
# minimum, about 2^32 / n for a document of n shingles, so the products' high bits are mostly zero
# and the low bits carry the band's values; 48 bits are 6 bytes a row where DuckDB bitpacks the
# column (8 uncompressed for 64), and two different bands share a bucket with probability ~2^-48:
# ~370 extra candidates, all rejected by verification, among 10^8 documents of 21 bands.
BUCKET_BITS = 48
BUCKET_MASK = 2**BUCKET_BITS - 1
DEFAULT_SEED = 1


def _md5_u64(text: str) -> int:
    return int.from_bytes(hashlib.md5(text.encode("utf-8")).digest()[:8], "little")


def permutation_coefficients(seed: int, num_perm: int) -> list[tuple[int, int]]:
    """(a_i, b_i) for permutation i: the low 32 bits of MD5 of 'dedup:seed:a|b:i', a_i made odd.

    h -> (a_i * h + b_i) mod 2^32 is a bijection of the 32-bit values because a_i is odd.
    """
    return [
        (
            (_md5_u64(f"dedup:{seed}:a:{i}") & MASK) | 1,
            _md5_u64(f"dedup:{seed}:b:{i}") & MASK,
        )
        for i in range(num_perm)
    ]


def bucket_constants(rows: int) -> list[int]:
    """Odd 32-bit multipliers c_j that combine the r values of a band into one bucket (mod 2^48)."""
    return [(_md5_u64(f"dedup:bucket:{j}") & 0xFFFFFFFF) | 1 for j in range(rows)]
