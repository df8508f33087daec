-- fragment: kept_all (the shingles stage's rows without --max-shingle-df: every shingle)
-- reads:    documents(doc_id, norm)
-- params:   $k, $long_bytes
-- Every distinct shingle of each document (sql/fragments/shingle_rows.sql, or its dialect's).
kept_rows as (
{{ shingle_rows }}
)
