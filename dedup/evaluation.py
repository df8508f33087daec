"""Measuring LSH against the exact answer: recall, precision, candidates per true pair, per bucket."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq

from .engines import temporary_folder
from .pipeline import execute
from .settings import Settings


@dataclass
class Bucket:
    low: float
    high: float
    exact: int
    found: int
    predicted: float  # mean S-curve probability of the bucket's exact pairs

    @property
    def recall(self) -> float:
        return self.found / self.exact if self.exact else 1.0


@dataclass
class Evaluation:
    exact_pairs: int
    found_pairs: int
    true_found: int
    candidates: int
    lsh_seconds: float
    exact_seconds: float
    buckets: list[Bucket] = field(default_factory=list)
    documents: int = 0

    @property
    def recall(self) -> float:
        return self.true_found / self.exact_pairs if self.exact_pairs else 1.0

    @property
    def precision(self) -> float:
        return self.true_found / self.found_pairs if self.found_pairs else 1.0

    @property
    def candidates_per_true_pair(self) -> float:
        return self.candidates / self.exact_pairs if self.exact_pairs else float("nan")


def bucket_edges(threshold: float, width: float = 0.05) -> list[float]:
    edges = [threshold]
    while edges[-1] + width < 1.0 - 1e-9:
        edges.append(round(edges[-1] + width, 10))
    return edges + [1.0]


def evaluate(settings: Settings, sample: int | None = None, seed: int = 0) -> Evaluation:
    """Run lsh and exact on the same input (or `sample` documents of it, drawn with `seed`).

    Both runs read the input. Standard input and a named pipe (`<(zcat docs.gz)`) can be read only
    once, so they are read here and both runs read that copy (the second run would otherwise read an
    empty input)."""
    from .corpus import read_once

    if sample is None and not any(read_once(path) for path in settings.reading.inputs):
        return _evaluate(settings)
    from .corpus import read_inputs

    corpus = read_inputs(settings.reading).to_arrow()
    rows = list(range(corpus.num_rows))
    if sample is not None:
        rows = sorted(random.Random(seed).sample(rows, min(sample, corpus.num_rows)))
    with temporary_folder(settings.engine_options.temp_dir) as folder:
        path = Path(folder) / "documents.parquet"
        pq.write_table(corpus.select(["id", "text"]).take(rows), path)
        read = {"inputs": (path,), "lines": False, "id_column": "id", "text_column": "text", "ids_file": None}
        # the copy holds the texts as read: HTML already stripped, hidden files already chosen
        return _evaluate(settings.replace(**read, include_hidden=False, strip_html=False))


def _evaluate(settings: Settings) -> Evaluation:
    lsh = execute(settings.replace(method="lsh", db=None))
    exact = execute(settings.replace(method="exact", db=None))

    def pairs(table) -> dict[tuple[str, str], float]:
        columns = table.to_pydict()
        return {(a, b): j for a, b, j in zip(columns["id_a"], columns["id_b"], columns["jaccard"], strict=True)}

    truth, found = pairs(exact.pairs), pairs(lsh.pairs)
    hits = truth.keys() & found.keys()
    edges = bucket_edges(settings.sketch.threshold)
    buckets = []
    for i, (low, high) in enumerate(itertools.pairwise(edges)):
        last = i == len(edges) - 2
        inside = [p for p, j in truth.items() if low <= j < high or (last and j == high)]
        probability = (
            sum(settings.sketch.banding.probability(truth[p]) for p in inside) / len(inside) if inside else 0.0
        )
        buckets.append(Bucket(low, high, len(inside), sum(p in hits for p in inside), probability))
    return Evaluation(
        exact_pairs=len(truth),
        found_pairs=len(found),
        true_found=len(hits),
        candidates=lsh.summary.candidates,
        lsh_seconds=lsh.summary.seconds,
        exact_seconds=exact.summary.seconds,
        buckets=buckets,
        documents=lsh.summary.read,
    )
