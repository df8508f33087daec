-- query:  shingle_texts (char shingles of two documents, for `dedup explain`)
-- reads:  documents(doc_id, norm)
-- params: $k, $piece, $doc_id_a, $doc_id_b
-- The char shingle stage (sql/02_shingles_char.sql) for two documents, keeping the text of each
-- shingle: only fingerprints are stored, so the texts are recomputed here, the same way.
-- tests/test_explain_query.py checks that the fingerprints equal the stored ones.
with split as (
    select doc_id, length(norm) as n, regexp_extract_all(norm, '.{1,' || $piece || '}') as chunks
    from documents
    where doc_id in ($doc_id_a, $doc_id_b)
    and length(norm) > 0
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
fingerprints as (
    select doc_id, substr(piece, i + 1, $k) as shingle
    from positions
)
select doc_id, (md5_number(shingle) & 18446744073709551615::uhugeint)::ubigint as fingerprint, min(shingle) as shingle
from fingerprints
group by all
order by doc_id, fingerprint
