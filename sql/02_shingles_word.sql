-- stage:  shingles
-- reads:  documents(doc_id, norm)
-- writes: shingles(doc_id, fingerprint, h)
-- params: $k
-- One row per distinct word k-shingle of a document: k consecutive tokens joined by one space.
-- A token is a maximal run of Unicode letters, digits and '_' (Python's \w+). A document with
-- fewer than k tokens is one shingle (all its tokens); a document without tokens has none.
-- fingerprint and h as for character shingles: first 8 bytes of MD5, little-endian; h = upper 32 bits.
create or replace table shingles as
with tokens as (
    select doc_id, regexp_extract_all(norm, '[\p{L}\p{N}_]+') as tokens
    from documents
),
positions as (
    select doc_id, tokens, unnest(range(0, greatest(len(tokens) - $k, 0) + 1)) as i
    from tokens
    where len(tokens) > 0
),
fingerprints as (
    select
        doc_id,
        (md5_number(array_to_string(tokens[i + 1 : i + $k], ' ')) & 18446744073709551615::uhugeint)::ubigint as fingerprint
    from positions
)
select distinct doc_id, fingerprint, (fingerprint >> 32)::uinteger as h
from fingerprints
