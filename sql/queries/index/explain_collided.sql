-- query:  explain_collided
-- reads:  band_hashes(doc_id, band, bucket)
-- params: $doc_a, $doc_b
-- dedup explain: the bands in which two documents share a bucket.
select a.band from band_hashes as a join band_hashes as b on a.band = b.band and a.bucket = b.bucket
where a.doc_id = $doc_a and b.doc_id = $doc_b order by a.band
