"""Measured recall as a value: what an exact search of a sample found, the index's share of it,
and Wilson's interval (dedup.index.audit measures it; the summary, the runs table, the report and
the Python API read it)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

Z95 = 1.959963984540054  # the standard normal's 97.5 % quantile


@dataclass(frozen=True)
class Pair:
    id_a: object
    id_b: object
    jaccard: float


@dataclass(frozen=True)
class Audit:
    """What `dedup audit` measured (`as_dict` is its JSON)."""

    threshold: float
    documents: int  # in the index
    seed: int
    sample: list[object]  # the sampled ids, in doc_id order
    true_pairs: int  # pairs >= threshold with a sampled document, by exact search
    found_pairs: int  # of those, in the index's pairs
    missed: list[Pair] = field(default_factory=list)  # the others, by Jaccard, highest first
    extra: int = 0  # index pairs of a sampled document that the exact search did not find (0)
    seconds: float = 0.0
    copy_pairs: int = 0  # of the true pairs, those of two exact copies (the same normalized text)
    copy_pairs_found: int = 0  # of those, in the index's pairs

    @property
    def recall(self) -> float | None:
        return self.found_pairs / self.true_pairs if self.true_pairs else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.found_pairs, self.true_pairs)

    @property
    def distinct_pairs(self) -> int:
        """The true pairs between different texts: the near-duplicates LSH may miss."""
        return self.true_pairs - self.copy_pairs

    @property
    def distinct_found(self) -> int:
        return self.found_pairs - self.copy_pairs_found

    @property
    def distinct_recall(self) -> float | None:
        return self.distinct_found / self.distinct_pairs if self.distinct_pairs else None

    @property
    def distinct_interval(self) -> tuple[float, float]:
        return wilson(self.distinct_found, self.distinct_pairs)

    def distinct_line(self) -> str | None:
        """The recall of the pairs between different texts, when exact copies are among the true
        pairs (on a corpus of copies they are nearly all of them, and always found)."""
        if not self.copy_pairs:
            return None
        low, high = self.distinct_interval
        recall = "-" if self.distinct_recall is None else f"{self.distinct_recall:.4f} (95 % {low:.4f}-{high:.4f})"
        return (
            f"between different texts: recall {recall}: {self.distinct_found:,} of {self.distinct_pairs:,} pairs "
            f"found; the other {self.copy_pairs:,} join exact copies ({self.copy_pairs_found:,} found)"
        )

    def as_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "threshold": self.threshold,
            "documents": self.documents,
            "seed": self.seed,
            "sample": self.sample,
            "true_pairs": self.true_pairs,
            "found_pairs": self.found_pairs,
            "recall": self.recall,
            "recall_low": low,
            "recall_high": high,
            "interval": "Wilson score, 95 %",
            "missed": [{"id_a": p.id_a, "id_b": p.id_b, "jaccard": p.jaccard} for p in self.missed],
            "extra": self.extra,
            "seconds": round(self.seconds, 3),
            **self._distinct(),
        }

    def _distinct(self) -> dict[str, Any]:
        low, high = self.distinct_interval
        return {
            "copy_pairs": self.copy_pairs,
            "copy_pairs_found": self.copy_pairs_found,
            "distinct_recall": self.distinct_recall,
            "distinct_recall_low": low,
            "distinct_recall_high": high,
        }

    def recorded(self) -> dict[str, Any]:
        """What the runs table keeps of it (the counts, not the ids)."""
        low, high = self.interval
        return {
            "sample": len(self.sample),
            "seed": self.seed,
            "true_pairs": self.true_pairs,
            "found_pairs": self.found_pairs,
            "recall": self.recall,
            "recall_low": low,
            "recall_high": high,
            **self._distinct(),
        }

    def summary(self) -> str:
        """One line, as `dedup run --audit` prints it."""
        low, high = self.interval
        recall = "-" if self.recall is None else f"{self.recall:.4f} (95 % {low:.4f}-{high:.4f}, Wilson)"
        line = (
            f"audit: recall {recall}: {self.found_pairs:,} of {self.true_pairs:,} pairs >= {self.threshold:g} of "
            f"{len(self.sample):,} sampled documents found (exact search, seed {self.seed}, {self.seconds:.2f} s)"
        )
        distinct = self.distinct_line()
        return line if distinct is None else f"{line}\n  {distinct}"


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (0, 1 when there are no trials)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exactly, where rounding leaves 1e-16
    return low, 1.0 if successes == trials else min(1.0, centre + half)
