-- stage:  candidates
-- reads:  band_hashes(doc_id, band, bucket), copies(doc_id, rep)
-- writes: candidates(doc_id_a, doc_id_b, shared_bands)
-- params: $hot_bucket_rows, $bands
-- methods: lsh
-- dialect: spark. Why it differs from sql/05_candidates.sql (same rows): Spark joins by hashing the
-- join key, so every row of one bucket meets on one task, and a bucket of n documents (boilerplate,
-- a text repeated thousands of times) makes n^2/2 rows there. A bucket of more than
-- $hot_bucket_rows documents is spread: its left rows are dealt to ceil(n / $hot_bucket_rows)
-- parts (at most 64) by doc_id, its right rows copied to every part, and the join key includes
-- the part; each pair still meets exactly once, so the counts are DuckDB's.
-- Exact copies first, as in sql/05_candidates.sql: the bucket join runs on one representative per
-- group of documents with the same normalized text, and its pairs are expanded to the members;
-- only documents that share their band-0 bucket with another are compared.
with groups as (
    select doc_id, rep from copies
),
rep_buckets as (
    select h.doc_id, h.band, h.bucket
    from band_hashes as h
    left anti join groups as g on g.doc_id = h.doc_id and g.rep <> h.doc_id
),
sizes as (
    select band, bucket, count(*) as size
    from rep_buckets
    group by band, bucket
),
hot as (
    select band, bucket, cast(least(64, ceil(size / $hot_bucket_rows)) as int) as parts
    from sizes
    where size > $hot_bucket_rows
),
left_rows as (
    select h.doc_id, h.band, h.bucket, coalesce(pmod(h.doc_id, t.parts), 0) as part
    from rep_buckets as h
    left join hot as t on t.band = h.band and t.bucket = h.bucket
),
right_rows as (
    select h.doc_id, h.band, h.bucket, explode(sequence(0, coalesce(t.parts, 1) - 1)) as part
    from rep_buckets as h
    left join hot as t on t.band = h.band and t.bucket = h.bucket
),
rep_pairs as (
    select a.doc_id as rep_a, b.doc_id as rep_b, count(*) as shared_bands
    from left_rows as a
    join right_rows as b
        on a.band = b.band and a.bucket = b.bucket and a.part = b.part and a.doc_id < b.doc_id
    group by a.doc_id, b.doc_id
),
{{ candidate_rows }}
