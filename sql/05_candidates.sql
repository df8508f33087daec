-- stage:  candidates
-- reads:  band_hashes(doc_id, band, bucket), copies(doc_id, rep)
-- writes: candidates(doc_id_a, doc_id_b, shared_bands)
-- params: $bands
-- counts: candidates
-- scope:  pairs
-- lean:   between copies  (a row for each pair of distinct texts, by their groups' representatives: dedup.stages.Layout)
-- methods: lsh
-- One row per pair of documents that share at least one bucket (MMDS ch. 3.4.1), with the
-- number of bands in which they collided.
-- Exact copies first: documents with the same normalized text have the same shingles, signature
-- and buckets, so the bucket join runs on one representative per group of copies (its smallest
-- doc_id: the copies stage, sql/04_copies.sql) and its pairs are expanded to the groups' members;
-- two copies share all $bands bands. The rows are those of the join on every document: a group of
-- 5,000 copies made 12.5M pairs in each of the 21 bands (262M joined rows) to count; here 12.5M
-- rows, listed (sql/fragments/copies_expanded.sql), or in a lean run on DuckDB the pairs of
-- representatives alone, what its database stores (sql/fragments/copies_between.sql).
with groups as (
    select doc_id, rep from copies
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
{{ candidate_rows }}
