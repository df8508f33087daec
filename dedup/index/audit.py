"""Measured recall: how many of the pairs >= threshold of a random sample of documents the index
found, against an exact search of the sample over the whole index (sql/queries/audit/).

The exact search costs what the sample costs, not all pairs: each sampled document's rarest
shingles (its prefix) name every document that can reach the threshold with it, within the size
bounds; those are verified by exact Jaccard, exact copies of one text once. The recall's interval
is Wilson's score interval at 95 % over the sampled pairs (a pair is found or not); pairs that
share a sampled document are not independent, so read it as a guide, not a guarantee.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from ..engines import Engine
from ..errors import UsageError
from ..sqlfiles import fragment, query

Z95 = 1.959963984540054  # the standard normal's 97.5 % quantile
WORK = ("audit_shingles", "audit_prefixes", "audit_candidates", "audit_true_pairs")


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

    @property
    def recall(self) -> float | None:
        return self.found_pairs / self.true_pairs if self.true_pairs else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.found_pairs, self.true_pairs)

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
        }

    def summary(self) -> str:
        """One line, as `dedup run --audit` prints it."""
        low, high = self.interval
        recall = "-" if self.recall is None else f"{self.recall:.4f} (95 % {low:.4f}-{high:.4f}, Wilson)"
        return (
            f"audit: recall {recall}: {self.found_pairs:,} of {self.true_pairs:,} pairs >= {self.threshold:g} of "
            f"{len(self.sample):,} sampled documents found (exact search, seed {self.seed}, {self.seconds:.2f} s)"
        )


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


def audit(engine: Engine, threshold: float, sample: int, seed: int = 0) -> Audit:
    """Draw `sample` documents (seeded: the same ones for the same seed and index), search the
    index exactly for every document with Jaccard >= threshold to one of them, and compare with
    its pairs."""
    if sample < 1:
        raise UsageError(f"--sample must be at least 1, got {sample}")
    if not 0 <= seed < 2**63:
        raise UsageError(f"--seed must be between 0 and 2^63-1, got {seed}")
    clock = time.perf_counter()
    rows = engine.fetch_rows(query("audit_doc_ids", dialect=engine.dialect))
    chosen = sorted(random.Random(seed).sample(range(len(rows)), min(sample, len(rows))))
    doc_ids = [rows[i][0] for i in chosen]
    with exact_search(engine, doc_ids, threshold):
        found = engine.fetch_rows(query("audit_pairs", dialect=engine.dialect))
        extra = int(engine.fetch_rows(query("audit_extra", dialect=engine.dialect))[0][0])
    missed = [Pair(a, b, jaccard) for a, b, jaccard, was_found in found if not was_found]
    return Audit(
        threshold=threshold,
        documents=len(rows),
        seed=seed,
        sample=[rows[i][1] for i in chosen],
        true_pairs=len(found),
        found_pairs=len(found) - len(missed),
        missed=missed,
        extra=extra,
        seconds=time.perf_counter() - clock,
    )


@contextmanager
def exact_search(engine: Engine, doc_ids: list[int], threshold: float) -> Iterator[None]:
    """Inside, `audit_true_pairs(doc_id_a, doc_id_b, jaccard)` holds every pair of a document of
    doc_ids with a document of exact Jaccard >= threshold (> 0), and `audit_sample` the doc_ids."""
    if threshold <= 0:
        raise UsageError("an exact search needs a threshold above 0 (at 0 every pair of documents qualifies)")
    dialect = engine.dialect
    values = {"threshold": threshold}
    engine.register_arrow("audit_sample", pa.table({"doc_id": pa.array(doc_ids, pa.int64())}))
    made: list[str] = []
    try:
        for name in WORK:
            extra = {"exact_copies": fragment("exact_copies", dialect)} if name == "audit_true_pairs" else {}
            engine.create_table(
                name, query(name, values if name != "audit_shingles" else None, dialect, **extra), temporary=True
            )
            made.append(name)
        yield
    finally:
        for name in reversed(made):
            engine.drop_table(name)
        engine.unregister("audit_sample")
