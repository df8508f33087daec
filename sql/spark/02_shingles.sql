-- stage:  shingles
-- reads:  documents(doc_id, norm)
-- writes: shingles(doc_id, fingerprint, h)
-- params: $k, $piece (char) or $k (word), as the shingle fragment uses them
-- dialect: spark. Why it differs from sql/02_shingles.sql:
-- * Spark has no md5_number() and no unsigned or 128-bit integers. The fingerprint (the first 8
--   bytes of MD5, little-endian) is the byte-swapped first 16 hex digits of md5(), read by one
--   conv() to base -10 (a signed result: the same 64 bits as DuckDB's ubigint, read as a signed
--   value); h (its upper 32 bits) is taken with shiftrightunsigned so that the sign bit does not
--   spread.
-- * Distinct per document inside the row: the fragment gives each document's shingles as one
--   array; array_distinct drops repeated texts before hashing and then repeated fingerprints
--   (distinct texts whose fingerprints collide count once, as in DuckDB's distinct). A row-level
--   distinct shuffled every shingle occurrence (9.6 M rows, 153 MiB on the 20,000-document
--   medium workload) and cost ~2.5x the CPU. transform() calls md5() once per distinct text.
with shingle_texts as (
{{ shingle_texts }}
),
digests as (
    select doc_id, transform(array_distinct(shingles), s -> md5(s)) as digests
    from shingle_texts
),
fingerprints as (
    select
        doc_id,
        explode(array_distinct(transform(
            digests,
            d -> cast(conv(concat(
                substr(d, 15, 2), substr(d, 13, 2), substr(d, 11, 2), substr(d, 9, 2),
                substr(d, 7, 2), substr(d, 5, 2), substr(d, 3, 2), substr(d, 1, 2)
            ), 16, -10) as bigint)
        ))) as fingerprint
    from digests
)
select doc_id, fingerprint, shiftrightunsigned(fingerprint, 32) as h
from fingerprints
