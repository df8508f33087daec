-- fragment: kept_all (the shingles stage's rows without --max-shingle-df: every shingle)
-- reads:    shingle_rows(doc_id, fingerprint)   (a CTE of sql/02_shingles.sql)
-- params:   (none)
kept_rows as (
    select doc_id, fingerprint from shingle_rows
)
