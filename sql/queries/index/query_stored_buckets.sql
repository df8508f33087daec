-- query:  query_stored_buckets
-- reads:  band_hashes(doc_id, band, bucket)
-- params: $doc_id
-- The band buckets of one indexed document.
select band, bucket from band_hashes where doc_id = $doc_id
