-- stage:  candidates
-- reads:  band_hashes(doc_id, band, bucket), documents(doc_id, id, norm)
-- writes: candidates(doc_id_a, doc_id_b, shared_bands)
-- params: $bands
-- counts: candidates
-- scope:  pairs
-- lean:   between copies  (the rows of two members of one group of copies listed from it: dedup.stages.Layout)
-- methods: lsh
-- One row per pair of documents that share at least one bucket (MMDS ch. 3.4.1), with the
-- number of bands in which they collided.
-- Exact copies first: documents with the same normalized text have the same shingles, signature
-- and buckets, so the bucket join runs on one representative per group of copies (its smallest
-- doc_id) and its pairs are expanded to the groups' members; two copies share all $bands bands.
-- The rows are those of the join on every document: a group of 5,000 copies made 12.5M pairs in
-- each of the 21 bands (262M joined rows) to count; here 12.5M rows, listed.
-- Only a document that shares its band-0 bucket with another can have a copy, so only those
-- texts are compared (3.6M of 10M generated documents): the statement that compared every text
-- (a window over all 10M, fed by all 210M band rows) beside the bucket join ran out of memory under
-- --memory-limit 4GB; this one runs in 2GB, in the same 55 s.
with involved as (
    select h.doc_id
    from band_hashes as h
    semi join (
        select bucket from band_hashes where band = 0 group by bucket having count(*) > 1
    ) as s on s.bucket = h.bucket
    where h.band = 0
),
copies as (
{{ exact_copies }}
),
groups as (
{{ copy_groups }}
),
rep_buckets as (
    select h.doc_id, h.band, h.bucket
    from band_hashes as h
    anti join groups as g on g.doc_id = h.doc_id and g.rep <> h.doc_id
),
rep_pairs as (
    select a.doc_id as rep_a, b.doc_id as rep_b, count(*) as shared_bands
    from rep_buckets as a
    join rep_buckets as b
        on a.band = b.band and a.bucket = b.bucket and a.doc_id < b.doc_id
    group by a.doc_id, b.doc_id
),
{{ copies_expanded }}
