"""The peer pipelines, each run in its own process by bench.py: read, shingle, MinHash, LSH, verify.

All use Python shingling identical to dedup's for ASCII text (lowercase, whitespace runs collapsed,
character k-grams or word k-grams) and the same num_perm, and verify every candidate with the
exact Jaccard of the two shingle sets, so candidates, pairs and recall compare like with like.
datasketch takes dedup's banding; rensa and FastSketchLSH need bands dividing num_perm and take
peer_banding (what a careful user of them picks).
"""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from dedup.banding import detection_probability

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


def peer_banding(threshold: float, num_perm: int) -> tuple[int, int]:
    """The banding a careful user of a peer picks: bands dividing num_perm (rensa and FastSketchLSH
    need it), the fewest bands that keep P(candidate | J = threshold) >= 0.999 (32 x 4 at 0.8 and
    64 x 2 at 0.5 for 128 permutations)."""
    for bands in range(1, num_perm + 1):
        if num_perm % bands == 0 and detection_probability(threshold, bands, num_perm // bands) >= 0.999:
            return bands, num_perm // bands
    return num_perm, 1


def _pairs_of(neighbours: list[list[int]], keys: list[int]) -> set[tuple[int, int]]:
    """Candidate pairs (i < j, document numbers) from each row's list of matching row numbers."""
    candidates: set[tuple[int, int]] = set()
    for row, found in enumerate(neighbours):
        i = keys[row]
        for other in found:
            j = keys[other]
            if j != i:
                candidates.add((i, j) if i < j else (j, i))
    return candidates


def run_rensa(
    path: Path, out: Path, shingle_type: str, k: int, num_perm: int, threshold: float, bands: int, rows: int
) -> None:
    """rensa 0.5's fastest pair-producing path: RMinHash.from_token_sets (rayon threads), then
    RMinHashLSH.insert_many and query_all, at peer_banding (bands and rows are dedup's, unused)."""
    from rensa import RMinHash, RMinHashLSH

    ids, sets = _read(path, shingle_type, k)
    nonempty = [i for i, s in enumerate(sets) if s]
    minhashes = RMinHash.from_token_sets([sets[i] for i in nonempty], num_perm, 42)
    lsh = RMinHashLSH(threshold, num_perm, peer_banding(threshold, num_perm)[0])
    lsh.insert_many(minhashes)  # keys 0 .. n-1: row numbers of nonempty
    candidates = _pairs_of(lsh.query_all(minhashes), nonempty)
    _write(out, ids, _verify(candidates, sets, threshold), len(candidates))


def run_fastsketch(
    path: Path,
    out: Path,
    shingle_type: str,
    k: int,
    num_perm: int,
    threshold: float,
    bands: int,
    rows: int,
    threads: int = 2,
) -> None:
    """FastSketchLSH 1.0's path: Fast Similarity Sketching in SIMD C++ (FastSimilaritySketch.batch on
    OpenMP threads), its band-parallel LSH (insert, then a batch query), at peer_banding."""
    from FastSketchLSH import LSH, FastSimilaritySketch

    ids, sets = _read(path, shingle_type, k)
    nonempty = [i for i, s in enumerate(sets) if s]
    sketches = FastSimilaritySketch(num_perm, 42).batch([list(sets[i]) for i in nonempty], num_threads=threads)
    lsh = LSH(num_perm, peer_banding(threshold, num_perm)[0], num_threads=threads)
    lsh.insert(sketches)
    candidates = _pairs_of(lsh.query(sketches), nonempty)
    _write(out, ids, _verify(candidates, sets, threshold), len(candidates))
