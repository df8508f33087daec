-- stage:  candidates
-- reads:  band_hashes(doc_id, band, bucket)
-- writes: candidates(doc_id_a, doc_id_b, shared_bands)
-- params: $hot_bucket_rows
-- methods: lsh
-- dialect: spark. Why it differs from sql/05_candidates.sql (same rows): Spark joins by hashing the
-- join key, so every row of one bucket meets on one task, and a bucket of n documents (boilerplate,
-- a text repeated thousands of times) makes n^2/2 rows there. A bucket of more than
-- $hot_bucket_rows documents is spread: its left rows are dealt to ceil(n / $hot_bucket_rows)
-- parts (at most 64) by doc_id, its right rows copied to every part, and the join key includes
-- the part; each pair still meets exactly once, so the counts are DuckDB's.
with sizes as (
    select band, bucket, count(*) as size
    from band_hashes
    group by band, bucket
),
hot as (
    select band, bucket, cast(least(64, ceil(size / $hot_bucket_rows)) as int) as parts
    from sizes
    where size > $hot_bucket_rows
),
left_rows as (
    select h.doc_id, h.band, h.bucket, coalesce(pmod(h.doc_id, t.parts), 0) as part
    from band_hashes as h
    left join hot as t on t.band = h.band and t.bucket = h.bucket
),
right_rows as (
    select h.doc_id, h.band, h.bucket, explode(sequence(0, coalesce(t.parts, 1) - 1)) as part
    from band_hashes as h
    left join hot as t on t.band = h.band and t.bucket = h.bucket
)
select a.doc_id as doc_id_a, b.doc_id as doc_id_b, count(*) as shared_bands
from left_rows as a
join right_rows as b
    on a.band = b.band and a.bucket = b.bucket and a.part = b.part and a.doc_id < b.doc_id
group by a.doc_id, b.doc_id
