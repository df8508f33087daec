"""Acceptance: the signatures detect pairs at the rate the LSH S-curve predicts.

Every pair is built with an exact Jaccard in [0.80, 0.82] over word 2-shingles of tokens that
appear nowhere else, with unions from 5 to 10,000 shingles (log-spaced): a common run of I + 1
tokens (I shared shingles), then a tail of a tokens for one document and b other tokens for the
other (J = I / (I + a + b)). Each pair is found as a candidate with probability
1 - (1 - J^r)^b under the banding, if every signature value is a true min-hash and the bands are
independent; the count of pairs found must fall in the binomial interval of that rate. Word and
character 2-shingles exercise hash scheme v4's fingerprints (cyclic polynomials of token MD5s and of
code points' SplitMix64 outputs): a weakness of them (correlated fingerprints inside a document)
would show as a rate off the curve. A steep banding
(8 bands x 16 rows, P ~ 0.24 at J = 0.81) makes the count sensitive in both directions; the
default banding (21 x 6, P ~ 0.998) is checked too. The test can fail: with permutations that
repeat in period 2 (so a band's 16 rows hold 8 distinct ones), 131 of 194 pairs were found
against an interval of 26-68 (55 with the real coefficients).
"""

from __future__ import annotations

import math
import random

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import dedup

PAIRS = 240


# Code points that normalization keeps as they are (CJK ideographs: no case, no space).
IDEOGRAPHS = range(0x4E00, 0xA000)


def pair_texts(union: int, rng: random.Random, number: int, kind: str) -> tuple[str, str, float]:
    """Two texts whose 2-shingle sets (word or char) have the given union size and Jaccard in
    [0.80, 0.82]: no token repeats inside a pair, so every 2-shingle of a pair is distinct."""
    shared = round(0.81 * union)
    a = (union - shared) // 2
    b = union - shared - a
    assert 0.80 <= shared / union <= 0.82, union
    count = shared + 1 + a + b
    if kind == "word":
        token = iter([f"p{number}t{i}x{rng.randrange(10**9)}" for i in range(count)])
    else:
        token = iter([chr(c) for c in rng.sample(IDEOGRAPHS, count)])
    common = [next(token) for _ in range(shared + 1)]
    tail_a = [next(token) for _ in range(a)]
    tail_b = [next(token) for _ in range(b)]
    separator = " " if kind == "word" else ""
    return separator.join(common + tail_a), separator.join(common + tail_b), shared / union


def corpus(tmp_path, kind: str) -> tuple[object, list[float]]:
    rng = random.Random(20)
    unions = sorted({round(5 * (10_000 / 5) ** (i / (PAIRS - 1))) for i in range(PAIRS)})
    unions = [u for u in unions if 0.80 <= round(0.81 * u) / u <= 0.82]
    ids, texts, similarities = [], [], []
    for number, union in enumerate(unions):
        text_a, text_b, similarity = pair_texts(union, rng, number, kind)
        ids += [f"{number}a", f"{number}b"]
        texts += [text_a, text_b]
        similarities.append(similarity)
    path = tmp_path / "pairs.parquet"
    pq.write_table(pa.table({"id": ids, "text": texts}), path)
    return path, similarities


def interval(probabilities: list[float], z: float = 3.5) -> tuple[float, float]:
    """Mean +- z standard deviations of a sum of independent Bernoulli trials (Poisson binomial)."""
    mean = sum(probabilities)
    deviation = math.sqrt(sum(p * (1 - p) for p in probabilities))
    return mean - z * deviation, mean + z * deviation


@pytest.mark.parametrize("kind", ["word", "char"])
@pytest.mark.parametrize("bands,rows", [(8, 16), (None, None)])
def test_pairs_are_found_at_the_rate_of_the_s_curve(tmp_path, bands, rows, kind):
    path, similarities = corpus(tmp_path, kind)
    assert len(similarities) >= 150
    options = {"bands": bands, "rows": rows} if bands else {}
    found = dedup.run(path, 0.8, shingle_type=kind, shingle_size=2, **options).to_pylist()
    assert all(row["id_a"][:-1] == row["id_b"][:-1] for row in found)  # no pair across the built ones
    assert all(0.80 <= row["jaccard"] <= 0.82 for row in found)
    b, r = (bands, rows) if bands else (21, 6)
    low, high = interval([1 - (1 - j**r) ** b for j in similarities])
    assert low <= len(found) <= high, (len(found), low, high, len(similarities))
