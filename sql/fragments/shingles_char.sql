-- fragment: shingles (char shingles)
-- reads:    {{ documents }}(doc_id, norm): documents, or the documents an explain looks at
-- params:   $k, $piece
-- One row per shingle occurrence: (doc_id, fingerprint, shingle). Shared by sql/02_shingles.sql,
-- which keeps the distinct fingerprints, and sql/queries/shingle_texts.sql (dedup explain), which
-- shows the texts: one definition of a shingle for both.
-- fingerprint = the first 8 bytes of MD5(UTF-8 shingle) read little-endian (a published hash
-- that does not change between DuckDB releases, unlike hash()).
-- A character k-shingle is k consecutive code points of norm. A non-empty text shorter than k
-- is one shingle (all of it); an empty text has none.
-- Texts are cut into chunks of $piece code points by one linear regex pass, and each chunk is
-- extended by the first k-1 code points of the next one ($piece >= k, see dedup/bindings.py).
-- substr() on non-ASCII text walks from the start of the string, so shingling a long document
-- in one piece is quadratic (a 200k-character text took 13 s); short pieces keep it linear
-- and spread a huge document over all threads.
with split as (
    select doc_id, length(norm) as n, regexp_extract_all(norm, '.{1,' || $piece || '}') as chunks
    from {{ documents }}
    where length(norm) > 0
),
chunks as (
    select doc_id, n, unnest(chunks) as chunk, unnest(range(len(chunks))) as j
    from split
),
pieces as (
    select
        doc_id,
        n,
        length(chunk) as chunk_length,
        chunk || coalesce(left(lead(chunk) over (partition by doc_id order by j), $k - 1), '') as piece
    from chunks
),
positions as (
    select doc_id, piece, unnest(range(0, if(n <= $k, 1, least(chunk_length, length(piece) - $k + 1)))) as i
    from pieces
),
shingles as (
    select doc_id, substr(piece, i + 1, $k) as shingle
    from positions
)
select doc_id, (md5_number(shingle) & 18446744073709551615::uhugeint)::ubigint as fingerprint, shingle
from shingles
