"""What the report shows, read from a run's database with the queries in sql/queries/report/report_*.sql.

Every figure is an aggregate or a bounded sample computed in SQL, so the report reads the same
handful of rows from a 100-document run and from a million-document one.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..banding import Banding
from ..engines import Engine
from ..errors import DedupError
from ..index.clusters import kept_by
from ..index.documents import index_sketch
from ..runner import recomputed
from ..sqlfiles import quote_identifier
from ..sqltext import equal_minhash_count
from ..stages import shingle_text_fragments

HISTOGRAM_WIDTH = 0.02  # Jaccard bins of the histogram, aligned on the threshold
SAMPLE_BINS = 20  # the similarity range is cut in this many bins to sample pairs across it
MAX_CHARS = 3000  # characters of a document shown side by side
MEMBERS = 12  # ids listed per cluster or bucket
MAX_ID = 200  # characters of an id shown
ID_KEYS = frozenset({"id", "id_a", "id_b", "survivor", "survivor_id", "member_ids", "source", "example"})
NEAR = 0.05  # "just below the threshold": Jaccard in [threshold - NEAR, threshold)
BOILERPLATE_SCAN = 5000  # documents whose shingles name the left-out shingles (report_boilerplate.sql)


def fetch(
    engine: Engine,
    name: str,
    values: dict[str, Any] | None = None,
    fragments: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The rows of sql/queries/<name>.sql as dicts, with exactly the parameters it uses bound; ids
    cut to MAX_ID characters (short_id)."""
    rows = engine.fetch_arrow(engine.sql.query(name, values, **(fragments or {}))).to_pylist()
    for row in rows:
        for key in ID_KEYS.intersection(row):
            value = row[key]
            row[key] = [short_id(v) for v in value] if isinstance(value, list) else short_id(value)
    return rows


def short_id(value: Any) -> Any:
    """An id as the page shows it: at most MAX_ID characters, then how many more (two ids of 1 MB
    made a 13.7 MB page)."""
    if not isinstance(value, str) or len(value) <= MAX_ID:
        return value
    return f"{value[:MAX_ID]}... ({len(value) - MAX_ID:,} more characters)"


@dataclass
class Run:
    run_id: int
    started_at: str
    finished_at: str
    dedup_version: str
    duckdb_version: str
    hash_scheme: str
    options: dict[str, Any]
    counts: dict[str, Any]
    stage_seconds: dict[str, float]

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Run:
        loaded = {key: json.loads(row[key] or "{}") for key in ("options", "counts", "stage_seconds")}
        return cls(**{**row, **loaded})


@dataclass
class Stage:
    name: str
    rows: int
    seconds: float | None


@dataclass
class Pair:
    """Two documents side by side (a is the smaller doc_id), cut to MAX_CHARS characters each."""

    doc_id_a: int
    doc_id_b: int
    id_a: str
    id_b: str
    jaccard: float
    estimate: float | None
    kept: bool
    survivor_a: bool
    survivor_b: bool
    text_a: str
    text_b: str
    length_a: int
    length_b: int
    shared_bands: int | None = None

    @property
    def anchor(self) -> str:
        return f"pair-{self.doc_id_a}-{self.doc_id_b}"


@dataclass
class Cluster:
    cluster_id: int
    size: int
    kept: int  # documents of the cluster kept (the components rule keeps 1)
    survivor_id: str  # the main survivor: kept in the place of the most members
    member_ids: list[str]
    pair: Pair | None


@dataclass
class Bucket:
    size: int
    bands: list[int]
    member_ids: list[str]
    text_a: str
    text_b: str


@dataclass
class LeftOut:
    """A shingle --max-shingle-df left out: its document frequency (distinct texts), its fingerprint
    and its text (None when none of the documents scanned holds it)."""

    df: int
    fingerprint: int
    shingle: str | None


@dataclass
class ReportData:
    db: Path
    runs: list[Run]
    base: Run  # the latest `dedup run` (later rows of `runs` come from `dedup add`)
    stages: list[Stage]
    skipped: list[dict[str, Any]]
    totals: dict[str, int]
    histogram: list[tuple[float, float, int]]  # (low, high, candidates); high == threshold for the last rejected
    missed: float | None  # estimated pairs LSH missed (None: the method has no misses to estimate)
    near_below: int  # verified candidates with Jaccard in [threshold - NEAR, threshold)
    pair_sample: list[Pair]
    clusters: list[Cluster]
    rule: dict[str, str]  # the clusters' survivor rule: keep, resolve
    risky: list[dict[str, Any]]  # the riskiest removals: id, survivor, jaccard, cluster_size
    buckets: list[Bucket]
    cluster_sizes: list[tuple[int, int]]  # (size, clusters)
    left_out: list[LeftOut]  # the shingles --max-shingle-df left out, the most frequent first

    @property
    def later_runs(self) -> list[Run]:
        return [run for run in self.runs if run.run_id > self.base.run_id]

    @property
    def account(self) -> dict[str, int]:
        counts = self.base.counts
        return {key: int(counts.get(key, 0)) for key in ("read", "processed", "empty", "skipped", "latin1")}

    @property
    def options(self) -> dict[str, Any]:
        return self.base.options

    @property
    def threshold(self) -> float:
        return float(self.options["threshold"])

    @property
    def method(self) -> str:
        return str(self.options.get("method", "lsh"))

    @property
    def banding(self) -> Banding:
        return banding_of(self.base)


def banding_of(run: Run) -> Banding:
    return Banding(bands=int(run.options["bands"]), rows=int(run.options["rows"]))


def base_run(runs: list[Run]) -> Run:
    """The latest run of `dedup run` (its counts have `read`); `dedup add` rows follow it."""
    if not runs:
        raise DedupError("the database has no run recorded in its runs table")
    return [run for run in runs if "read" in run.counts][-1] if any("read" in r.counts for r in runs) else runs[0]


def histogram_bins(threshold: float, width: float = HISTOGRAM_WIDTH) -> tuple[int, int]:
    """The lowest and highest bin of Jaccard in [0, 1] when bin i is [t + i*w, t + (i+1)*w)."""
    return math.floor(-threshold / width + 1e-9), max(math.ceil((1 - threshold) / width - 1e-9) - 1, 0)


def _pair_sample(engine: Engine, threshold: float, sample_pairs: int, num_perm: int) -> list[Pair]:
    """A sample of the verified candidates with their estimates, from the signatures of the sampled
    documents alone (a lean index makes them: dedup.runner.recomputed)."""
    values = {"threshold": threshold, "sample_bins": SAMPLE_BINS, "limit": sample_pairs}
    engine.create_table("report_sample_chosen", engine.sql.query("report_pair_sample_chosen", values), temporary=True)
    try:
        listed = engine.sql.query("derived_pair_documents", pairs=quote_identifier("report_sample_chosen"))
        doc_ids = sorted(row[0] for row in engine.fetch_rows(listed))
        shown = {"threshold": threshold, "max_chars": MAX_CHARS, "num_perm": num_perm}
        with recomputed(engine, index_sketch(engine), ("report_pair_sample",), doc_ids):
            rows = fetch(engine, "report_pair_sample", shown, {"equal_minhash_count": equal_minhash_count(num_perm)})
    finally:
        engine.drop_table("report_sample_chosen")
    return [Pair(**row) for row in rows]


def gather(engine: Engine, db: Path, top: int, sample_pairs: int, buckets: bool = True) -> ReportData:
    """Read everything the report shows from an open database (`buckets`: it has band_hashes)."""
    runs = [Run.from_row(row) for row in fetch(engine, "report_runs")]
    base = base_run(runs)
    banding = banding_of(base)
    threshold = float(base.options["threshold"])
    num_perm = int(base.options["num_perm"])
    stages = [
        Stage(row["stage"], int(row["rows"]), base.stage_seconds.get(row["stage"]))
        for row in fetch(engine, "report_stages")
    ]
    if "read" in base.stage_seconds:  # reading the inputs is timed but leaves no table
        stages.insert(0, Stage("read", int(base.counts.get("read", 0)), base.stage_seconds["read"]))
    lowest, highest = histogram_bins(threshold)
    histogram = [
        (
            threshold + row["bin"] * HISTOGRAM_WIDTH,
            threshold + (row["bin"] + 1) * HISTOGRAM_WIDTH,
            int(row["candidates"]),
        )
        for row in fetch(
            engine,
            "report_jaccard_histogram",
            {"threshold": threshold, "width": HISTOGRAM_WIDTH, "lowest_bin": lowest, "highest_bin": highest},
        )
    ]
    missed = None
    if base.options.get("method", "lsh") == "lsh":
        estimate = fetch(
            engine, "report_missed_pairs", {"threshold": threshold, "bands": banding.bands, "rows": banding.rows}
        )
        missed = float(estimate[0]["missed"])
    pair_sample = []
    if sample_pairs > 0:  # min_by(..., n) needs n >= 1
        pair_sample = _pair_sample(engine, threshold, sample_pairs, num_perm)
    clusters = []
    for row in fetch(
        engine, "report_largest_clusters", {"top": max(top, 0), "members": MEMBERS, "max_chars": MAX_CHARS}
    ):
        head = {key: row.pop(key) for key in ("cluster_id", "size", "kept", "survivor_id", "member_ids")}
        pair = Pair(**row, kept=True) if row["doc_id_a"] is not None else None
        clusters.append(Cluster(**head, pair=pair))
    built_by = kept_by(engine)
    rule = built_by.recorded() if built_by is not None else {"keep": "first", "resolve": "verified"}
    left_out = []
    sketch = index_sketch(engine)
    if sketch.max_df is not None:  # the run left out boilerplate: its table lists it
        values = {"k": sketch.shingle_size, "top": max(top, 0), "scan": BOILERPLATE_SCAN}
        fragments = shingle_text_fragments(sketch.shingle_type, sketch.shingle_size)
        left_out = [LeftOut(**row) for row in fetch(engine, "report_boilerplate", values, fragments)]
    largest_buckets = []
    if buckets:
        values = {"top": max(top, 0), "scan": max(top, 0) * banding.bands, "members": MEMBERS, "max_chars": MAX_CHARS}
        largest_buckets = [Bucket(**row) for row in fetch(engine, "report_largest_buckets", values)]
    return ReportData(
        db=db,
        runs=runs,
        base=base,
        stages=stages,
        skipped=fetch(engine, "report_skipped"),
        totals={key: int(value) for key, value in fetch(engine, "report_totals")[0].items()},
        histogram=histogram,
        missed=missed,
        near_below=int(
            fetch(engine, "report_near_threshold", {"low": max(threshold - NEAR, 0.0), "threshold": threshold})[0][
                "candidates"
            ]
        ),
        pair_sample=pair_sample,
        clusters=clusters,
        rule=rule,
        risky=fetch(engine, "report_risky_removals", {"top": max(top, 0)}),
        buckets=largest_buckets,
        left_out=left_out,
        cluster_sizes=[(int(r["size"]), int(r["clusters"])) for r in fetch(engine, "report_cluster_sizes")],
    )
