-- stage:  shingles
-- reads:  documents(doc_id, norm)
-- writes: shingles(doc_id, fingerprint, h)
-- params: $k, $piece (char) or $k (word), as the shingle fragment uses them
-- dialect: spark. Why it differs from sql/02_shingles.sql: Spark has no md5_number() and no
-- unsigned or 128-bit integers. The fingerprint (the first 8 bytes of MD5, little-endian) is
-- built from two 32-bit halves of the hex digest, each byte-swapped, and stored as a signed
-- 64-bit value with the same bits as DuckDB's ubigint; h (its upper 32 bits) is taken with
-- shiftrightunsigned so that the sign bit does not spread.
with shingle_texts as (
{{ shingle_texts }}
),
digests as (
    select doc_id, md5(shingle) as digest
    from shingle_texts
),
fingerprints as (
    select
        doc_id,
        shiftleft(cast(conv(concat(substr(digest, 15, 2), substr(digest, 13, 2), substr(digest, 11, 2), substr(digest, 9, 2)), 16, 10) as bigint), 32)
        | cast(conv(concat(substr(digest, 7, 2), substr(digest, 5, 2), substr(digest, 3, 2), substr(digest, 1, 2)), 16, 10) as bigint)
        as fingerprint
    from digests
)
select distinct doc_id, fingerprint, shiftrightunsigned(fingerprint, 32) as h
from fingerprints
