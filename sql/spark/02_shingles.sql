-- stage:  shingles
-- reads:  documents(doc_id, norm)
-- writes: shingles(doc_id, fingerprint, h)
-- params: $k, $piece (char) or $k (word), as the shingle fragment uses them
-- dialect: spark. Why it differs from sql/02_shingles.sql:
-- * The fingerprints are signed bigints (Spark has no unsigned integers): the same 64 bits as
--   DuckDB's ubigint; h (the upper 32 bits) is taken with shiftrightunsigned so that the sign
--   bit does not spread.
-- * Distinct per document inside the row: the fragment gives each document's fingerprints as one
--   array (sql/spark/fragments/shingles_<type>.sql), and array_distinct drops the repeated ones
--   (distinct texts whose fingerprints collide count once, as in DuckDB's distinct). A row-level
--   distinct shuffled every shingle occurrence (9.6 M rows, 153 MiB on the 20,000-document
--   medium workload) and cost ~2.5x the CPU.
with shingles as (
{{ shingles }}
),
fingerprints as (
    select doc_id, explode(array_distinct(fingerprints)) as fingerprint
    from shingles
)
select doc_id, fingerprint, shiftrightunsigned(fingerprint, 32) as h
from fingerprints
