-- query:  query_buckets
-- reads:  band_hashes(band, bucket)
-- params: (none)
-- The band buckets of the query document, in the scratch database that holds it alone.
select band, bucket from band_hashes
