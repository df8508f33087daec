"""A pure-Python reference of dedup's definitions: the oracle the SQL stages are tested against.

Written from the documented definitions, not from the SQL: normalization, shingles, the
fingerprints of hash scheme v5 (the cyclic polynomial of a shingle's token fingerprints: MD5 of a
word, SplitMix64 of a code point), the permutation coefficients, MinHash signatures, band buckets
(mod 2^48) and exact Jaccard;
the shingle sets under --max-shingle-df (boilerplate left out) and the survivors.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import re
from collections import Counter

WHITESPACE = re.compile(r"\s+")  # Python's str semantics for whitespace (same set as str.split())
WORD = re.compile(r"\w+")


def lowercase(text: str) -> str:
    """Unicode simple case mapping per code point (no final-sigma context; 'İ' -> 'i')."""
    return "".join("i" if ch == "\u0130" else ch.lower() for ch in text)


def normalize(text: str) -> str:
    return " ".join(lowercase(text).split())


def char_shingles(text: str, k: int) -> set[str]:
    norm = normalize(text)
    if not norm:
        return set()
    if len(norm) <= k:
        return {norm}
    return {norm[i : i + k] for i in range(len(norm) - k + 1)}


def word_shingles(text: str, k: int) -> set[str]:
    tokens = WORD.findall(normalize(text))
    if not tokens:
        return set()
    if len(tokens) <= k:
        return {" ".join(tokens)}
    return {" ".join(tokens[i : i + k]) for i in range(len(tokens) - k + 1)}


def shingles(text: str, k: int, kind: str = "char") -> set[str]:
    return char_shingles(text, k) if kind == "char" else word_shingles(text, k)


def md5_u64(text: str) -> int:
    return int.from_bytes(hashlib.md5(text.encode("utf-8")).digest()[:8], "little")


def rotl64(value: int, bits: int) -> int:
    bits %= 64
    return ((value << bits) | (value >> (64 - bits))) & (2**64 - 1)


def splitmix64(seed: int) -> int:
    """The first output of SplitMix64 (Steele, Lea and Flood 2014) from the state `seed`."""
    mask = 2**64 - 1
    z = (seed + 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def cyclic_fingerprint(token_fingerprints: list[int]) -> int:
    """v4: H = 0; for each token fingerprint f, H = rotl64(H, 1) xor f."""
    h = 0
    for f in token_fingerprints:
        h = rotl64(h, 1) ^ f
    return h


def word_fingerprint(tokens: list[str]) -> int:
    return cyclic_fingerprint([md5_u64(token) for token in tokens])


def char_fingerprint(shingle: str) -> int:
    return cyclic_fingerprint([splitmix64(ord(c)) for c in shingle])


def fingerprint(shingle: str, kind: str = "char") -> int:
    """A shingle's 64-bit fingerprint: a word shingle is its tokens joined by one space."""
    return char_fingerprint(shingle) if kind == "char" else word_fingerprint(shingle.split(" "))


def fingerprints(shingle_set: set[str], kind: str = "char") -> set[int]:
    return {fingerprint(s, kind) for s in shingle_set}


def coefficients(seed: int, num_perm: int) -> list[tuple[int, int]]:
    return [
        ((md5_u64(f"dedup:{seed}:a:{i}") % 2**32) | 1, md5_u64(f"dedup:{seed}:b:{i}") % 2**32) for i in range(num_perm)
    ]


def signature(shingle_set: set[str], seed: int, num_perm: int, kind: str = "char") -> list[int]:
    hs = [fp >> 32 for fp in fingerprints(shingle_set, kind)]
    return [min((a * h + b) % 2**32 for h in hs) for a, b in coefficients(seed, num_perm)]


def bucket_constants(rows: int) -> list[int]:
    return [(md5_u64(f"dedup:bucket:{j}") % 2**32) | 1 for j in range(rows)]


def buckets(sig: list[int], bands: int, rows: int) -> list[int]:
    """Each band's bucket: the xor over its rows j of mh_j * c_j, mod 2^48."""
    constants = bucket_constants(rows)
    result = []
    for band in range(bands):
        bucket = 0
        for j in range(rows):
            bucket ^= sig[band * rows + j] * constants[j]
        result.append(bucket % 2**48)
    return result


def jaccard(a: set, b: set) -> float:
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def brute_force_pairs(docs: dict[object, str], k: int, threshold: float, kind: str = "char") -> dict[tuple, float]:
    """Every pair (id_a < id_b) with Jaccard >= threshold over 64-bit fingerprint sets."""
    return set_pairs({doc_id: fingerprints(shingles(text, k, kind), kind) for doc_id, text in docs.items()}, threshold)


def capped_sets(
    docs: dict[object, str], k: int, kind: str = "char", count: int | None = None, fraction: float | None = None
) -> dict[object, set[int]]:
    """Each document's fingerprint set under --max-shingle-df (a cap of `count` texts, or of the
    `fraction` of the distinct texts): a shingle held by more distinct normalized texts than the cap
    is left out of every set; a document that had shingles and is left with none has one instead,
    the first 8 bytes of its normalized text's MD5 (little-endian), which only its copies share."""
    raw = {doc: fingerprints(shingles(text, k, kind), kind) for doc, text in docs.items()}
    norms = {doc: normalize(text) for doc, text in docs.items()}
    left_out = boilerplate(docs, k, kind, count, fraction)
    sets = {doc: raw[doc] - left_out.keys() for doc in docs}
    return {doc: sets[doc] if sets[doc] or not raw[doc] else {md5_u64(norms[doc])} for doc in docs}


def boilerplate(
    docs: dict[object, str], k: int, kind: str = "char", count: int | None = None, fraction: float | None = None
) -> dict[int, int]:
    """The shingles --max-shingle-df leaves out, by fingerprint, with their document frequency: the
    number of distinct normalized texts holding them, above the cap (`count`, or floor(`fraction` x
    the number of distinct texts))."""
    distinct = {normalize(text): fingerprints(shingles(text, k, kind), kind) for text in docs.values()}
    frequency = Counter(fp for held in distinct.values() for fp in held)
    cap = count if count is not None else math.floor(fraction * len(distinct))
    return {fp: df for fp, df in frequency.items() if df > cap}


def mostly_boilerplate(
    docs: dict[object, str], k: int, kind: str = "char", count: int | None = None, fraction: float | None = None
) -> dict[object, tuple[int, int]]:
    """The documents more than half of whose distinct shingles the cap leaves out: (their shingles,
    those left out)."""
    left_out = boilerplate(docs, k, kind, count, fraction)
    result = {}
    for key, text in docs.items():
        held = fingerprints(shingles(text, k, kind), kind)
        lost = sum(fp in left_out for fp in held)
        if 2 * lost > len(held):
            result[key] = (len(held), lost)
    return result


def set_pairs(sets: dict[object, set[int]], threshold: float) -> dict[tuple, float]:
    """Every pair (id_a < id_b) of non-empty sets with Jaccard >= threshold."""
    result = {}
    for a, b in itertools.combinations(sorted(sets), 2):
        if sets[a] and sets[b]:
            j = jaccard(sets[a], sets[b])
            if j >= threshold:
                result[(a, b)] = j
    return result


def greedy_survivors(order: list, pairs: dict[tuple, float]) -> dict[object, tuple[object, float | None]]:
    """The verified survivor rule, as documented: walk the documents in `order` (the --keep rule's);
    a document is kept unless a document already kept is one of its pairs (`pairs`: (a, b) ->
    exact Jaccard, the pairs at or above the threshold, exact copies included). Every document to
    (survivor, jaccard): a kept one is its own survivor (jaccard None), a dropped one names the
    first kept document among its pairs, in the walk's order."""
    neighbours: dict[object, dict[object, float]] = {}
    for (a, b), value in pairs.items():
        neighbours.setdefault(a, {})[b] = value
        neighbours.setdefault(b, {})[a] = value
    kept_at: dict[object, int] = {}
    result: dict[object, tuple[object, float | None]] = {}
    for step, doc in enumerate(order):
        near = neighbours.get(doc, {})
        kept_near = [k for k in near if k in kept_at]
        if kept_near:
            first = min(kept_near, key=kept_at.__getitem__)
            result[doc] = (first, near[first])
        else:
            kept_at[doc] = step
            result[doc] = (doc, None)
    return result
