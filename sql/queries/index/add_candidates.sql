-- query:  candidates (of added documents)
-- reads:  band_hashes(doc_id, band, bucket)
-- writes: candidates(doc_id_a, doc_id_b, shared_bands)   (in the staging schema during `dedup add`)
-- params: $first_new
-- The candidates stage restricted to pairs with at least one added document. Added documents
-- get doc_ids from $first_new up, above every indexed one, so such a pair always has its
-- larger doc_id_b among them: pairs of two old documents are not joined again.
select a.doc_id as doc_id_a, b.doc_id as doc_id_b, count(*) as shared_bands
from band_hashes as b
join band_hashes as a
    on a.band = b.band and a.bucket = b.bucket and a.doc_id < b.doc_id
where b.doc_id >= $first_new
group by a.doc_id, b.doc_id
