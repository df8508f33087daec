"""Similar documents of one document, probed in an index's band buckets, with exact Jaccard."""

from __future__ import annotations

import duckdb
import pyarrow as pa

from .cleanup import html_to_text
from .errors import DedupError, UsageError
from .index import doc_ids_of, index_settings
from .queries import compile_query
from .settings import Settings
from .stages import pipeline_stages, run_stage

PROBE = """
select h.doc_id, count(*) as shared_bands
from band_hashes as h
join query_buckets as q on q.band = h.band and q.bucket = h.bucket
where h.doc_id <> $exclude
group by h.doc_id
having count(*) >= $min_bands
"""

# In the scratch database: documents.id holds the index's doc_id, and $query marks the query.
JACCARD = """
with query_shingles as (
    select s.fingerprint
    from shingles as s
    join documents as d on d.doc_id = s.doc_id
    where d.id = $query
),
counts as (
    select s.doc_id, count(*) as n, count(q.fingerprint) as shared
    from shingles as s
    left join query_shingles as q on q.fingerprint = s.fingerprint
    group by s.doc_id
)
select d.id as doc_id, c.shared / (c.n + (select count(*) from query_shingles) - c.shared) as jaccard
from counts as c
join documents as d on d.doc_id = c.doc_id
where d.id <> $query
"""
QUERY = 0  # doc_ids of the index start at 1

RESULT = """
select d.id, j.jaccard, c.shared_bands
from query_jaccard as j
join query_candidates as c on c.doc_id = j.doc_id
join documents as d on d.doc_id = j.doc_id
where j.jaccard >= $min_jaccard
order by j.jaccard desc, d.id
"""


def query_index(
    con: duckdb.DuckDBPyConnection,
    *,
    text: str | None = None,
    doc_id: str | None = None,
    min_jaccard: float | None = None,
    min_bands: int = 1,
) -> pa.Table:
    """Documents sharing >= min_bands band buckets with the query and exact Jaccard >= min_jaccard.

    The query text goes through the same stage SQL as the index (in a scratch in-memory
    database), so its buckets and shingles are what a run would have computed for it.
    """
    settings = index_settings(con)
    if min_jaccard is None:
        min_jaccard = settings.threshold
    if not 0.0 <= min_jaccard <= 1.0:
        raise UsageError(f"--min-jaccard must be between 0 and 1, got {min_jaccard}")
    if not 1 <= min_bands <= settings.banding.bands:
        raise UsageError(f"--min-bands must be between 1 and {settings.banding.bands}, got {min_bands}")
    if settings.method != "lsh" and min_bands != 1:
        raise UsageError(
            f"the index was built with --method {settings.method}: every document sharing a shingle is "
            "compared, so --min-bands does not apply"
        )
    exclude = -1
    if doc_id is not None:
        found = doc_ids_of(con, [doc_id])
        if doc_id not in found:
            raise DedupError(f"no document with id {doc_id!r} in the index")
        exclude = found[doc_id]
        text = con.execute("select text from documents where doc_id = $d", {"d": exclude}).fetchall()[0][0]
    assert text is not None
    if settings.strip_html and doc_id is None:  # an indexed document's text was cleaned when read
        text = html_to_text(text)
    scratch = duckdb.connect()
    try:
        if doc_id is not None:  # an indexed document: its buckets are stored already
            buckets = con.sql("select band, bucket from band_hashes where doc_id = $d", params={"d": exclude})
            buckets = buckets.to_arrow_table()
            shingles = con.sql("select fingerprint from shingles where doc_id = $d", params={"d": exclude})
        else:
            buckets = _query_buckets(scratch, settings, text)
            shingles = scratch.sql("select fingerprint from shingles")
        if settings.method != "lsh":
            return _query_shared_shingles(con, buckets, shingles.to_arrow_table(), exclude, min_jaccard)
        con.register("query_buckets", buckets)
        candidates = con.sql(PROBE, params={"exclude": exclude, "min_bands": min_bands}).to_arrow_table()
        con.unregister("query_buckets")
        texts = _texts(con, candidates.column("doc_id").to_pylist())
        jaccard = _jaccard(scratch, settings, text, texts)
    finally:
        scratch.close()
    con.register("query_candidates", candidates)
    con.register("query_jaccard", jaccard)
    try:
        return con.sql(RESULT, params={"min_jaccard": min_jaccard}).to_arrow_table()
    finally:
        con.unregister("query_candidates")
        con.unregister("query_jaccard")


def _query_shared_shingles(
    con: duckdb.DuckDBPyConnection, buckets: pa.Table, fingerprints: pa.Table, exclude: int, min_jaccard: float
) -> pa.Table:
    """An index of --method signature/exact: every document sharing a shingle, with exact Jaccard."""
    con.register("query_buckets", buckets)
    con.register("query_fingerprints", fingerprints)
    try:
        values = {"exclude": exclude, "min_jaccard": min_jaccard}
        return con.sql(compile_query("query_shared_shingles"), params=values).to_arrow_table()
    finally:
        con.unregister("query_buckets")
        con.unregister("query_fingerprints")


def _raw(ids: list[int], texts: list[str]) -> pa.Table:
    return pa.table(
        {
            "position": pa.array(range(1, len(ids) + 1), pa.int64()),
            "id": pa.array(ids, pa.int64()),
            "text": pa.array(texts, pa.string()),
            "encoding": pa.array(["utf-8"] * len(ids), pa.string()),
        }
    )


def _run_until(scratch: duckdb.DuckDBPyConnection, settings: Settings, raw: pa.Table, last: str) -> None:
    scratch.register("raw_documents", raw)
    for stage in pipeline_stages(settings):
        run_stage(scratch, stage, settings)
        if stage.name == last:
            break
    scratch.unregister("raw_documents")


def _query_buckets(scratch: duckdb.DuckDBPyConnection, settings: Settings, text: str) -> pa.Table:
    _run_until(scratch, settings, _raw([QUERY], [text]), "band_hashes")
    return scratch.sql("select band, bucket from band_hashes").to_arrow_table()


def _texts(con: duckdb.DuckDBPyConnection, doc_ids: list[int]) -> pa.Table:
    con.register("wanted_doc_ids", pa.table({"doc_id": pa.array(doc_ids, pa.int64())}))
    try:
        return con.sql(
            "select doc_id, text from documents where doc_id in (select doc_id from wanted_doc_ids) order by doc_id"
        ).to_arrow_table()
    finally:
        con.unregister("wanted_doc_ids")


def _jaccard(scratch: duckdb.DuckDBPyConnection, settings: Settings, text: str, texts: pa.Table) -> pa.Table:
    """Exact Jaccard of the query with each candidate, from shingles recomputed by the stage SQL."""
    if texts.num_rows == 0:
        return pa.table({"doc_id": pa.array([], pa.int64()), "jaccard": pa.array([], pa.float64())})
    ids = [QUERY, *texts.column("doc_id").to_pylist()]
    _run_until(scratch, settings, _raw(ids, [text, *texts.column("text").to_pylist()]), "shingles")
    return scratch.sql(JACCARD, params={"query": QUERY}).to_arrow_table()
