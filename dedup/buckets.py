"""LSH bucket sizes: large buckets are shared boilerplate (headers, licences, templates)."""

from __future__ import annotations

import duckdb
import pyarrow as pa

BUCKET_SIZES = """
with sizes as (
    select band, bucket, count(*) as size from band_hashes group by band, bucket
)
select
    band,
    count(*) as buckets,
    count(*) filter (where size = 1) as single,
    count(*) filter (where size > 1) as shared,
    max(size) as largest,
    avg(size) as mean_size
from sizes
group by band
order by band
"""

LARGEST_BUCKETS = """
with sizes as (
    select band, bucket, count(*) as size from band_hashes group by band, bucket
),
largest as (
    select band, bucket, size from sizes where size > 1 order by size desc, band, bucket limit $top
)
select
    l.band,
    l.bucket,
    l.size,
    array_to_string(list_slice(list(d.id::varchar order by d.id::varchar), 1, $samples), ', ') as sample_ids
from largest as l
join band_hashes as h on h.band = l.band and h.bucket = l.bucket
join documents as d on d.doc_id = h.doc_id
group by l.band, l.bucket, l.size
order by l.size desc, l.band, l.bucket
"""


def bucket_sizes(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per band: buckets, how many hold one document or several, the largest and the mean size."""
    return con.sql(BUCKET_SIZES).to_arrow_table()


def largest_buckets(con: duckdb.DuckDBPyConnection, top: int = 10, samples: int = 3) -> pa.Table:
    """The `top` largest buckets holding two documents or more, with the first `samples` ids of each."""
    return con.sql(LARGEST_BUCKETS, params={"top": max(top, 0), "samples": max(samples, 0)}).to_arrow_table()
