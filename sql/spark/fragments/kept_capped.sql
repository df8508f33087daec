-- fragment: kept_capped (the shingles stage's rows with --max-shingle-df, in Spark's dialect)
-- reads:    shingle_rows(doc_id, fingerprint)   (a CTE of sql/spark/02_shingles.sql), boilerplate(fingerprint), documents(doc_id, norm)
-- params:   (none)
-- dialect: spark. Why it differs from sql/fragments/kept_capped.sql: Spark has no `materialized`
-- CTE (it plans the two reads of `flagged` itself) and takes a text's MD5 as hex
-- (sql/spark/fragments/digest_fingerprint.sql): the same rows.
flagged as (
    select r.doc_id, r.fingerprint, b.fingerprint is not null as left_out
    from shingle_rows as r
    left join boilerplate as b on b.fingerprint = r.fingerprint
),
emptied as (
    select doc_id from flagged group by doc_id having bool_and(left_out)
),
kept_rows as (
    select doc_id, fingerprint from flagged where not left_out
    union all
    select doc_id, {{ digest_fingerprint }} as fingerprint
    from (
        select d.doc_id, md5(d.norm) as d
        from documents as d
        left semi join emptied as e on e.doc_id = d.doc_id
    )
)
