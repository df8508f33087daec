-- query:  query_probe
-- reads:  band_hashes(doc_id, band, bucket), query_buckets(band, bucket)   (the query's buckets, as Arrow)
-- params: $exclude, $min_bands
-- dedup query: the indexed documents sharing at least $min_bands band buckets with the query
-- document (other than the query itself, doc_id $exclude, when it is indexed).
select h.doc_id, count(*) as shared_bands
from band_hashes as h
join query_buckets as q on q.band = h.band and q.bucket = h.bucket
where h.doc_id <> $exclude
group by h.doc_id
having count(*) >= $min_bands
