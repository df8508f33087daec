"""Measured recall: how many of the pairs >= threshold of a random sample of documents the index
found, against an exact search of the sample over the whole index (sql/queries/audit/).

The exact search costs what the sample costs, not all pairs: each sampled document's rarest
shingles (its prefix) name every document that can reach the threshold with it, within the size
bounds; those are verified by exact Jaccard, exact copies of one text once. The recall's interval
is Wilson's score interval at 95 % over the sampled pairs (a pair is found or not); pairs that
share a sampled document are not independent, so read it as a guide, not a guarantee.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pyarrow as pa

from ..engines import Engine
from ..errors import UsageError
from ..recall import Audit, Pair
from ..runner import recomputed
from ..settings import Sketch

WORK = ("audit_shingles", "audit_prefixes", "audit_candidates", "audit_true_pairs")


def audit(engine: Engine, sketch: Sketch, sample: int, seed: int = 0) -> Audit:
    """Draw `sample` documents (seeded: the same ones for the same seed and index), search the
    index exactly for every document with Jaccard >= the sketch's threshold to one of them, and
    compare with its pairs. The search reads every document's shingles: a lean index makes them
    (dedup.runner.recomputed), a run's are still there when it measures at its end."""
    threshold = sketch.threshold
    if sample < 1:
        raise UsageError(f"--sample must be at least 1, got {sample}")
    if not 0 <= seed < 2**63:
        raise UsageError(f"--seed must be between 0 and 2^63-1, got {seed}")
    clock = time.perf_counter()
    rows = engine.fetch_rows(engine.sql.query("audit_doc_ids"))
    chosen = sorted(random.Random(seed).sample(range(len(rows)), min(sample, len(rows))))
    doc_ids = [rows[i][0] for i in chosen]
    with recomputed(engine, sketch, WORK), exact_search(engine, doc_ids, threshold):
        found = engine.fetch_rows(engine.sql.query("audit_pairs"))
        extra = int(engine.fetch_rows(engine.sql.query("audit_extra"))[0][0])
    missed = [Pair(a, b, jaccard) for a, b, jaccard, was_found, _ in found if not was_found]
    copies = [was_found for _, _, _, was_found, same_text in found if same_text]
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
        copy_pairs=len(copies),
        copy_pairs_found=sum(copies),
    )


@contextmanager
def exact_search(engine: Engine, doc_ids: list[int], threshold: float) -> Iterator[None]:
    """Inside, `audit_true_pairs(doc_id_a, doc_id_b, jaccard)` holds every pair of a document of
    doc_ids with a document of exact Jaccard >= threshold (> 0), and `audit_sample` the doc_ids."""
    if threshold <= 0:
        raise UsageError("an exact search needs a threshold above 0 (at 0 every pair of documents qualifies)")
    values = {"threshold": threshold}
    engine.register_arrow("audit_sample", pa.table({"doc_id": pa.array(doc_ids, pa.int64())}))
    made: list[str] = []
    try:
        for name in WORK:
            extra = {"exact_copies": engine.sql.fragment("exact_copies")} if name == "audit_true_pairs" else {}
            engine.create_table(
                name, engine.sql.query(name, values if name != "audit_shingles" else None, **extra), temporary=True
            )
            made.append(name)
        yield
    finally:
        for name in reversed(made):
            engine.drop_table(name)
        engine.unregister("audit_sample")
