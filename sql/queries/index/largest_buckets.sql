-- query:  largest_buckets
-- reads:  band_hashes(doc_id, band, bucket), documents(doc_id, id)
-- params: $top, $samples
-- The $top largest buckets holding two documents or more, with the first $samples ids of each
-- (dedup buckets): a large bucket is shared boilerplate (headers, licences, templates).
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
