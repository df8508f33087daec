"""Similar documents of one document, probed in an index's band buckets, with exact Jaccard; or,
with exact=True, every document sharing a shingle with it (an exhaustive search)."""

from __future__ import annotations

import math

import pyarrow as pa

from ..cleanup import html_to_text
from ..engines import Engine
from ..errors import DedupError, UsageError
from ..runner import recomputed, run_steps
from ..settings import Sketch
from ..stages import compile_stages
from .documents import doc_ids_of, recorded_options

QUERY = 0  # doc_ids of the index start at 1


def query_index(
    engine: Engine,
    *,
    text: str | None = None,
    doc_id: str | None = None,
    min_jaccard: float | None = None,
    min_bands: int = 1,
    exact: bool = False,
) -> pa.Table:
    """Documents sharing >= min_bands band buckets with the query and exact Jaccard >= min_jaccard;
    exact: every document sharing a shingle with it (so every one with Jaccard > 0), whatever the
    bands.

    The query text goes through the same stage SQL as the index (in a scratch in-memory
    database), so its buckets and shingles are what a run would have computed for it.
    """
    options = recorded_options(engine)
    sketch = Sketch.recorded(options)
    if min_jaccard is None:
        min_jaccard = sketch.threshold
    if not 0.0 <= min_jaccard <= 1.0:
        raise UsageError(f"--min-jaccard must be between 0 and 1, got {min_jaccard}")
    if exact and min_bands != 1:
        raise UsageError("--exact compares every document sharing a shingle: --min-bands does not apply")
    if min_bands == 0:
        raise UsageError("--min-bands 0 would compare every document: use --exact")
    if not 1 <= min_bands <= sketch.banding.bands:
        raise UsageError(f"--min-bands must be between 1 and {sketch.banding.bands}, got {min_bands}")
    if sketch.method != "lsh" and min_bands != 1:
        raise UsageError(
            f"the index was built with --method {sketch.method}: every document sharing a shingle is "
            "compared, so --min-bands does not apply"
        )
    exclude = -1
    if doc_id is not None:
        found = doc_ids_of(engine, [doc_id])
        if doc_id not in found:
            raise DedupError(f"no document with id {doc_id!r} in the index")
        exclude = found[doc_id]
        text = engine.fetch_rows(engine.sql.query("query_text", {"doc_id": exclude}))[0][0]
    assert text is not None
    if options.get("strip_html") and doc_id is None:  # an indexed document's text was cleaned when read
        text = html_to_text(text)
    scratch = engine.scratch()
    try:
        if doc_id is not None:  # an indexed document: its buckets are stored already
            buckets = engine.fetch_arrow(engine.sql.query("query_stored_buckets", {"doc_id": exclude}))
            with recomputed(engine, sketch, ("query_stored_shingles",), (exclude,)):
                fingerprints = engine.fetch_arrow(engine.sql.query("query_stored_shingles", {"doc_id": exclude}))
        else:
            buckets = _query_buckets(engine, scratch, sketch, text)
            fingerprints = scratch.fetch_arrow(scratch.sql.query("query_shingles"))
        if fingerprints.num_rows == 0:  # an empty answer would read as "nothing similar"
            what = f"document {doc_id!r}" if doc_id is not None else "the query text"
            raise DedupError(
                f"{what} has no shingles (empty or whitespace only, or for word shingles without a word): "
                "no document can be similar to it"
            )
        if exact or sketch.method != "lsh":  # every document's shingles (a lean index makes them)
            with recomputed(engine, sketch, ("query_shared_shingles",)):
                return _query_shared_shingles(engine, buckets, fingerprints, exclude, min_jaccard)
        engine.register_arrow("query_buckets", buckets)
        probe = engine.sql.query("query_probe", {"exclude": exclude, "min_bands": min_bands})
        candidates = engine.fetch_arrow(probe)
        engine.unregister("query_buckets")
        texts = _texts(engine, candidates.column("doc_id").to_pylist())
        jaccard = _jaccard(engine, scratch, sketch, text, texts)
    finally:
        scratch.close()
    engine.register_arrow("query_candidates", candidates)
    engine.register_arrow("query_jaccard", jaccard)
    try:
        return engine.fetch_arrow(engine.sql.query("query_result", {"min_jaccard": min_jaccard}))
    finally:
        engine.unregister("query_candidates")
        engine.unregister("query_jaccard")


def query_probability(sketch: Sketch, min_jaccard: float, min_bands: int = 1) -> float:
    """The chance that the band probe finds a document at Jaccard min_jaccard: at least min_bands of
    the b bands collide, each with probability min_jaccard^r."""
    bands, rows = sketch.banding.bands, sketch.banding.rows
    p = min_jaccard**rows
    return sum(math.comb(bands, i) * p**i * (1 - p) ** (bands - i) for i in range(min_bands, bands + 1))


def query_note(sketch: Sketch, min_jaccard: float | None, min_bands: int = 1) -> str | None:
    """What an LSH query cannot promise, as a run's summary says it: None when a document at
    min_jaccard is found with probability >= 0.99."""
    if sketch.method != "lsh":
        return None
    similarity = sketch.threshold if min_jaccard is None else min_jaccard
    probability = query_probability(sketch, similarity, min_bands) if similarity > 0 else 0.0
    if probability >= 0.99:
        return None
    return (
        f"note: the band probe finds a document at Jaccard {similarity:g} with probability {probability:.4f} "
        f"({sketch.banding.bands} bands x {sketch.banding.rows} rows, --min-bands {min_bands}): documents "
        "may be missing; --exact compares every document sharing a shingle"
    )


def _query_shared_shingles(
    engine: Engine, buckets: pa.Table, fingerprints: pa.Table, exclude: int, min_jaccard: float
) -> pa.Table:
    """An index of --method signature/exact: every document sharing a shingle, with exact Jaccard."""
    engine.register_arrow("query_buckets", buckets)
    engine.register_arrow("query_fingerprints", fingerprints)
    try:
        values = {"exclude": exclude, "min_jaccard": min_jaccard}
        return engine.fetch_arrow(engine.sql.query("query_shared_shingles", values))
    finally:
        engine.unregister("query_buckets")
        engine.unregister("query_fingerprints")


def _raw(ids: list[int], texts: list[str]) -> pa.Table:
    return pa.table(
        {
            "position": pa.array(range(1, len(ids) + 1), pa.int64()),
            "id": pa.array(ids, pa.int64()),
            "text": pa.array(texts, pa.string()),
            "encoding": pa.array(["utf-8"] * len(ids), pa.string()),
        }
    )


def _run_for(engine: Engine, scratch: Engine, sketch: Sketch, raw: pa.Table, *wanted: str) -> None:
    """Run the stages on `raw` in the scratch database until they made the tables that the
    queries `wanted` read. A stage of the whole corpus (the boilerplate stage) is the index's, not
    one of the query's few documents: its table is read from the index where a later stage reads
    it (no stage reads mostly_boilerplate)."""
    needed = set(scratch.sql.tables_needed(*wanted))
    steps = []
    compiled = compile_stages(sketch, scratch.dialect)
    for number, (stage, statement) in enumerate(compiled):
        if not needed:
            break
        if stage.scope == "corpus":
            if any(stage.name in later.tables_read for later, _ in compiled[number + 1 :]):
                scratch.register_arrow(stage.name, engine.fetch_arrow(engine.sql.query(f"query_{stage.name}")))
        else:
            steps.append((stage, statement))
        needed.discard(stage.name)
    scratch.register_arrow("raw_documents", raw)
    run_steps(scratch, steps)


def _query_buckets(engine: Engine, scratch: Engine, sketch: Sketch, text: str) -> pa.Table:
    _run_for(engine, scratch, sketch, _raw([QUERY], [text]), "query_buckets", "query_shingles")
    return scratch.fetch_arrow(scratch.sql.query("query_buckets"))


def _texts(engine: Engine, doc_ids: list[int]) -> pa.Table:
    engine.register_arrow("wanted_doc_ids", pa.table({"doc_id": pa.array(doc_ids, pa.int64())}))
    try:
        return engine.fetch_arrow(engine.sql.query("query_texts"))
    finally:
        engine.unregister("wanted_doc_ids")


def _jaccard(engine: Engine, scratch: Engine, sketch: Sketch, text: str, texts: pa.Table) -> pa.Table:
    """Exact Jaccard of the query with each candidate, from shingles recomputed by the stage SQL."""
    if texts.num_rows == 0:
        return pa.table({"doc_id": pa.array([], pa.int64()), "jaccard": pa.array([], pa.float64())})
    ids = [QUERY, *texts.column("doc_id").to_pylist()]
    _run_for(engine, scratch, sketch, _raw(ids, [text, *texts.column("text").to_pylist()]), "query_jaccard")
    return scratch.fetch_arrow(scratch.sql.query("query_jaccard", {"query": QUERY}))
