-- fragment: shingle_rows (a document's distinct shingle fingerprints, before any is left out)
-- reads:    documents(doc_id, norm)   (or the relation the tokens fragment reads: the distinct texts)
-- params:   $k
-- dialect: spark. Why it differs from sql/fragments/shingle_rows.sql: sql/spark/02_shingles.sql says.
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
