"""The peer pipelines, each run in its own process by bench.py: read, shingle, MinHash, LSH, verify.

Both use Python shingling identical to dedup's for ASCII text (lowercase, whitespace runs collapsed,
character k-grams or word k-grams), the same num_perm and the same banding as dedup, and verify
every candidate with the exact Jaccard of the two shingle sets, so candidates, pairs and recall
compare like with like.
"""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

WORD = re.compile(r"\w+")


def shingle(text: str, shingle_type: str, k: int) -> set[str]:
    norm = " ".join(text.lower().split())
    if shingle_type == "char":
        if not norm:
            return set()
        return {norm[i : i + k] for i in range(max(1, len(norm) - k + 1))}
    tokens = WORD.findall(norm)
    if not tokens:
        return set()
    return {" ".join(tokens[i : i + k]) for i in range(max(1, len(tokens) - k + 1))}


def _read(path: Path, shingle_type: str, k: int) -> tuple[list[str], list[set[str]]]:
    table = pq.read_table(path, columns=["id", "text"])
    ids = table.column("id").to_pylist()
    sets = [shingle(text or "", shingle_type, k) for text in table.column("text").to_pylist()]
    return ids, sets


def _candidates(lsh, keys: list[int], minhashes: list) -> set[tuple[int, int]]:
    """Every pair (i < j) that the LSH index returns when queried with each inserted minhash."""
    candidates: set[tuple[int, int]] = set()
    for i, m in zip(keys, minhashes, strict=True):
        for j in lsh.query(m):
            if j != i:
                candidates.add((i, j) if i < j else (j, i))
    return candidates


def _verify(candidates: set[tuple[int, int]], sets: list[set[str]], threshold: float) -> list[tuple[int, int, float]]:
    pairs = []
    for a, b in candidates:
        sa, sb = sets[a], sets[b]
        inter = len(sa & sb)
        jaccard = inter / (len(sa) + len(sb) - inter)
        if jaccard >= threshold:
            pairs.append((a, b, jaccard))
    return pairs


def _write(path: Path, ids: list[str], pairs: list[tuple[int, int, float]], candidates: int) -> None:
    ordered = [(ids[a], ids[b], j) if ids[a] < ids[b] else (ids[b], ids[a], j) for a, b, j in pairs]
    table = pa.table(
        {
            "id_a": [p[0] for p in ordered],
            "id_b": [p[1] for p in ordered],
            "jaccard": [p[2] for p in ordered],
        }
    )
    pq.write_table(table.replace_schema_metadata({"candidates": str(candidates)}), path)


def run_datasketch(
    path: Path, out: Path, shingle_type: str, k: int, num_perm: int, threshold: float, bands: int, rows: int
) -> None:
    from datasketch import MinHash, MinHashLSH

    ids, sets = _read(path, shingle_type, k)
    nonempty = [i for i, s in enumerate(sets) if s]
    minhashes = MinHash.bulk([[t.encode("utf-8") for t in sets[i]] for i in nonempty], num_perm=num_perm)
    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm, params=(bands, rows))
    with lsh.insertion_session() as session:
        for i, m in zip(nonempty, minhashes, strict=True):
            session.insert(i, m, check_duplication=False)
    candidates = _candidates(lsh, nonempty, minhashes)
    _write(out, ids, _verify(candidates, sets, threshold), len(candidates))


def run_rensa(
    path: Path, out: Path, shingle_type: str, k: int, num_perm: int, threshold: float, bands: int, rows: int
) -> None:
    from rensa import RMinHash, RMinHashLSH

    ids, sets = _read(path, shingle_type, k)
    nonempty = [i for i, s in enumerate(sets) if s]
    minhashes = RMinHash.from_token_sets([sets[i] for i in nonempty], num_perm, 42)
    # RMinHashLSH needs num_bands to divide num_perm (no 21 x 6 of 128): take the divisor of
    # num_perm nearest above `bands`, which detects at least as many pairs (32 x 4 for 128).
    rensa_bands = next(b for b in range(bands, num_perm + 1) if num_perm % b == 0)
    lsh = RMinHashLSH(threshold, num_perm, rensa_bands)
    for i, m in zip(nonempty, minhashes, strict=True):
        lsh.insert(i, m)
    candidates = _candidates(lsh, nonempty, minhashes)
    _write(out, ids, _verify(candidates, sets, threshold), len(candidates))
