"""Choosing LSH bands and rows from a threshold; the S-curve of MMDS ch. 3.4.2."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

# A pair at exactly the threshold must become a candidate with at least this probability.
# Verification is exact, so extra candidates cost time while missed ones are lost pairs:
# recall comes first, then the fewest candidates.
MIN_DETECTION = 0.995
# Below this chance of finding a pair at the threshold, a run's summary warns that its pair count
# is not complete and points to a method that can be.
COMPLETE_ENOUGH = 0.99


def detection_probability(similarity: float, bands: int, rows: int) -> float:
    """Probability that a pair of Jaccard `similarity` shares at least one band: 1-(1-s^r)^b."""
    return 1.0 - (1.0 - similarity**rows) ** bands


@dataclass(frozen=True)
class Banding:
    bands: int
    rows: int

    def probability(self, similarity: float) -> float:
        return detection_probability(similarity, self.bands, self.rows)


def choose_banding(threshold: float, num_perm: int, min_detection: float = MIN_DETECTION) -> Banding:
    """The most selective banding that still catches a pair at `threshold` w.p. >= min_detection.

    Rows r trade candidates for recall: a larger r makes unrelated pairs rarer candidates, a
    smaller one catches more pairs near the threshold. For each r the most bands that fit,
    b = num_perm // r, maximise recall; among those bandings we take the largest r that still
    reaches `min_detection` at the threshold (r = 1 if none does). bands * rows may be less than
    num_perm; the remaining permutations still count in the signature estimate.
    """
    best = Banding(bands=num_perm, rows=1)
    for rows in range(1, num_perm + 1):
        banding = Banding(bands=num_perm // rows, rows=rows)
        if banding.probability(threshold) >= min_detection:
            best = banding
    return best


def error_areas(threshold: float, bands: int, rows: int, steps: int = 1000) -> tuple[float, float]:
    """(false positive area, false negative area) under the S-curve, as datasketch reports them.

    The false positive area is the integral of P(s) over s in [0, threshold] (pairs below the
    threshold that still become candidates, which verification removes at a cost); the false
    negative area is the integral of 1 - P(s) over [threshold, 1] (pairs that are lost).
    Midpoint rule with `steps` intervals on each side.
    """

    def integral(low: float, high: float, f: Callable[[float], float]) -> float:
        width = (high - low) / steps
        return sum(f(low + (i + 0.5) * width) for i in range(steps)) * width

    false_positive = integral(0.0, threshold, lambda s: detection_probability(s, bands, rows))
    false_negative = integral(threshold, 1.0, lambda s: 1.0 - detection_probability(s, bands, rows))
    return false_positive, false_negative


def s_curve(bands: int, rows: int, similarities: Iterable[float]) -> list[tuple[float, float]]:
    """(similarity, probability of becoming a candidate) for each similarity."""
    return [(s, detection_probability(s, bands, rows)) for s in similarities]


def signature_probability(similarity: float, num_perm: int, threshold: float) -> float:
    """P(estimate >= threshold | J = similarity) for --method signature: the number of equal MinHash
    values is Binomial(num_perm, J) and the stage keeps shared >= threshold * num_perm."""
    need = max(0, math.ceil(threshold * num_perm - 1e-9))
    return sum(
        math.comb(num_perm, k) * similarity**k * (1.0 - similarity) ** (num_perm - k) for k in range(need, num_perm + 1)
    )


def candidate_probability(method: str, threshold: float, banding: Banding, num_perm: int) -> float:
    """The chance that a pair exactly at the threshold becomes a candidate (and so is found)."""
    if method == "exact":
        return 1.0
    if method == "signature":
        return signature_probability(threshold, num_perm, threshold)
    return banding.probability(threshold)
