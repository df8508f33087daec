-- fragment: shingle_rows (a document's distinct shingle fingerprints, before any is left out)
-- reads:    documents(doc_id, norm)   (or the relation the tokens fragment reads: the distinct texts)
-- params:   $k
-- spark-conf: spark.sql.ansi.enabled=false
-- dialect: spark. Why it differs from sql/fragments/shingle_rows.sql: sql/spark/02_shingles.sql says.
-- The statement that includes it (the shingles and boilerplate stages) runs with ANSI mode off, so
-- that the character tokens' SplitMix64 products wrap (sql/spark/fragments/tokens_char.sql).
with tokens as (
{{ tokens }}
),
shingles as (
    select
        doc_id,
        if(
            size(fps) <= $k,
            array(aggregate(fps, cast(0 as bigint), (h, f) -> (shiftleft(h, 1) | shiftrightunsigned(h, 63)) ^ f)),
            transform(sequence(0, size(fps) - $k), i -> {{ shingle_fingerprint }})
        ) as fingerprints
    from tokens
),
fingerprints as (
    select doc_id, explode(array_distinct(fingerprints)) as fingerprint
    from shingles
)
select doc_id, fingerprint from fingerprints
