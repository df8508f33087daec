-- stage:  shingles
-- reads:  documents(doc_id, norm)
-- writes: shingles(doc_id, fingerprint, h)
-- params: $k
-- One row per distinct character k-shingle of a document: k consecutive code points of norm.
-- A non-empty text shorter than k is one shingle (all of it); an empty text has none.
-- fingerprint = the first 8 bytes of MD5(UTF-8 shingle) read little-endian (a published hash
-- that does not change between DuckDB releases, unlike hash()); h = its upper 32 bits, the
-- input of the MinHash permutations.
create or replace table shingles as
with positions as (
    select doc_id, norm, unnest(range(0, greatest(length(norm) - $k, 0) + 1)) as i
    from documents
    where length(norm) > 0
),
fingerprints as (
    select doc_id, (md5_number(substr(norm, i + 1, $k)) & 18446744073709551615::uhugeint)::ubigint as fingerprint
    from positions
)
select distinct doc_id, fingerprint, (fingerprint >> 32)::uinteger as h
from fingerprints
