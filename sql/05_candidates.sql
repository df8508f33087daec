-- stage:  candidates
-- reads:  band_hashes(doc_id, band, bucket)
-- writes: candidates(doc_id_a, doc_id_b, shared_bands)
-- params: (none)
-- methods: lsh
-- One row per pair of documents that share at least one bucket (MMDS ch. 3.4.1), with the
-- number of bands in which they collided.
select a.doc_id as doc_id_a, b.doc_id as doc_id_b, count(*) as shared_bands
from band_hashes as a
join band_hashes as b
    on a.band = b.band and a.bucket = b.bucket and a.doc_id < b.doc_id
group by a.doc_id, b.doc_id
