-- stage:  mostly_boilerplate
-- reads:  all_shingles(doc_id, fingerprint), boilerplate(fingerprint), documents(doc_id, id)
-- writes: mostly_boilerplate(doc_id, id, shingles, left_out)
-- params: (none)
-- scope:  corpus
-- when:   max_shingle_df
-- The documents that --max-shingle-df took most of the set from: more than half of their distinct
-- shingles (`shingles`, before the cap: sql/02_all_shingles.sql) are boilerplate (`left_out`, in the
-- boilerplate table: sql/02_boilerplate.sql). A document left with none is one of them (it has one
-- shingle in their place, sql/fragments/kept_capped.sql). Its row count is the summary's count of
-- the documents that lost most of their shingles. Both joins are inner joins on what the cap left
-- out: with no boilerplate the build sides are empty and nothing is read.
with left_out as (
    select s.doc_id, count(*) as left_out
    from all_shingles as s
    join boilerplate as b on b.fingerprint = s.fingerprint
    group by s.doc_id
),
shingle_counts as (
    select s.doc_id, count(*) as shingles
    from all_shingles as s
    join left_out as l on l.doc_id = s.doc_id
    group by s.doc_id
)
select c.doc_id, d.id, c.shingles, l.left_out
from shingle_counts as c
join left_out as l on l.doc_id = c.doc_id
join documents as d on d.doc_id = c.doc_id
where 2 * l.left_out > c.shingles
