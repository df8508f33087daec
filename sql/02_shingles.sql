-- stage:  shingles
-- reads:  documents(doc_id, norm)
-- writes: shingles(doc_id, fingerprint, h)
-- params: $k, $piece (char) or $k (word), as the shingle fragment uses them
-- One row per distinct shingle of a document. The shingles themselves (character or word
-- k-shingles, by --shingle-type) are defined once, in sql/fragments/shingle_texts_<type>.sql.
-- fingerprint = the first 8 bytes of MD5(UTF-8 shingle) read little-endian (a published hash
-- that does not change between DuckDB releases, unlike hash()); h = its upper 32 bits, the
-- input of the MinHash permutations.
with shingle_texts as (
{{ shingle_texts }}
),
fingerprints as (
    select doc_id, (md5_number(shingle) & 18446744073709551615::uhugeint)::ubigint as fingerprint
    from shingle_texts
)
select distinct doc_id, fingerprint, (fingerprint >> 32)::uinteger as h
from fingerprints
