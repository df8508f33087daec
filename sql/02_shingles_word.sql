-- stage:  shingles
-- reads:  documents(doc_id, norm)
-- writes: shingles(doc_id, fingerprint, h)
-- params: $k, $piece
-- One row per distinct word k-shingle of a document: k consecutive tokens joined by one space.
-- A token is a maximal run of Unicode letters, digits and '_' (Python's \w+). A document with
-- fewer than k tokens is one shingle (all its tokens); a document without tokens has none.
-- fingerprint and h as for character shingles: first 8 bytes of MD5, little-endian; h = upper 32 bits.
-- Token lists are regrouped into chunks of $piece tokens, each extended by the first k-1 tokens
-- of the next chunk: every unnested position carries its list, so unnesting positions over a
-- book-length list would be quadratic.
create or replace table shingles as
with split as (
    select doc_id, regexp_extract_all(norm, '[\p{L}\p{N}_]+') as tokens
    from documents
),
numbered as (
    select doc_id, unnest(tokens) as token, unnest(range(len(tokens))) as position
    from split
),
chunk_tokens as (
    select doc_id, position // $piece as j, list(token order by position) as tokens
    from numbered
    group by doc_id, j
),
pieces as (
    select
        doc_id,
        len(tokens) as chunk_length,
        sum(len(tokens)) over (partition by doc_id) as n,
        list_concat(tokens, coalesce(lead(tokens) over (partition by doc_id order by j)[1 : $k - 1], [])) as piece
    from chunk_tokens
),
positions as (
    select doc_id, piece, unnest(range(0, if(n <= $k, 1, least(chunk_length, len(piece) - $k + 1)))) as i
    from pieces
),
fingerprints as (
    select
        doc_id,
        (md5_number(array_to_string(piece[i + 1 : i + $k], ' ')) & 18446744073709551615::uhugeint)::ubigint as fingerprint
    from positions
)
select distinct doc_id, fingerprint, (fingerprint >> 32)::uinteger as h
from fingerprints
