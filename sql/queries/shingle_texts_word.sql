-- query:  shingle_texts (word shingles of two documents, for `dedup explain`)
-- reads:  documents(doc_id, norm)
-- params: $k, $piece, $doc_id_a, $doc_id_b
-- The word shingle stage (sql/02_shingles_word.sql) for two documents, keeping the text of each
-- shingle: only fingerprints are stored, so the texts are recomputed here, the same way.
-- tests/test_explain_query.py checks that the fingerprints equal the stored ones.
with split as (
    select doc_id, regexp_extract_all(norm, '[\p{L}\p{N}_]+') as tokens
    from documents
    where doc_id in ($doc_id_a, $doc_id_b)
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
        array_to_string(piece[i + 1 : i + $k], ' ') as shingle
    from positions
)
select doc_id, (md5_number(shingle) & 18446744073709551615::uhugeint)::ubigint as fingerprint, min(shingle) as shingle
from fingerprints
group by all
order by doc_id, fingerprint
