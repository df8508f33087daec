-- stage:  boilerplate
-- reads:  documents(doc_id, norm), all_shingles(doc_id, fingerprint)
-- writes: boilerplate(fingerprint, df)
-- params: $max_df_count, $max_df_fraction
-- scope:  corpus
-- when:   max_shingle_df
-- One row per shingle that --max-shingle-df leaves out of every document's set: its fingerprint
-- and its document frequency df, the number of distinct normalized texts that hold it. The stage
-- runs only with the option; the shingles stage (sql/02_shingles.sql) then leaves these out
-- (sql/fragments/kept_capped.sql), before the MinHash and the exact Jaccard.
-- Each distinct text counts once (a thousand copies of one page do not make its shingles
-- boilerplate): its shingles are those of its first document, as the all_shingles stage made them
-- (sql/02_all_shingles.sql: the shingles stage's rows before the cap). The cap is $max_df_count
-- texts, or with a fraction F (max_df_count -1) floor(F x the number of distinct texts): df >
-- floor(F n) exactly when df > F n.
with distinct_texts as (
    select min(doc_id) as doc_id, norm from documents group by norm
),
cap as (
    select if($max_df_count >= 0, cast($max_df_count as double), floor($max_df_fraction * count(*))) as cap
    from distinct_texts
),
frequencies as (
    select s.fingerprint, count(*) as df
    from all_shingles as s
    join distinct_texts as t on t.doc_id = s.doc_id
    group by s.fingerprint
)
select f.fingerprint, f.df
from frequencies as f
cross join cap as c
where f.df > c.cap
