-- fragment: kept_capped (the shingles stage's rows with --max-shingle-df, in Spark's dialect)
-- reads:    all_shingles(doc_id, fingerprint), documents(doc_id, norm), boilerplate(fingerprint)
-- params:   (none)
-- dialect: spark. Why it differs from sql/fragments/kept_capped.sql: Spark has no `materialized`
-- CTE (it plans the two reads of `flagged` itself) and takes a text's MD5 as hex
-- (sql/spark/fragments/digest_fingerprint.sql): the same rows.
flagged as (
    select r.doc_id, r.fingerprint, b.fingerprint is not null as left_out
    from all_shingles as r
    left semi join documents as d on d.doc_id = r.doc_id
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
