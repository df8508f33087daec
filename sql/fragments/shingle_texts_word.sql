-- fragment: shingle_texts (word shingles)
-- reads:    {{ documents }}(doc_id, norm): documents, or the documents an explain looks at
-- params:   $k, $piece
-- One row per shingle occurrence: (doc_id, shingle text). Shared by sql/02_shingles.sql, which
-- hashes and stores the distinct fingerprints, and sql/queries/shingle_texts.sql (dedup explain),
-- which shows the texts: one definition of a shingle for both.
-- A word k-shingle is k consecutive tokens joined by one space.
-- A token is a maximal run of Unicode letters, digits and '_' (Python's \w+). A document with
-- fewer than k tokens is one shingle (all its tokens); a document without tokens has none.
-- Token lists are regrouped into chunks of $piece tokens, each extended by the first k-1 tokens
-- of the next chunk ($piece >= k, see dedup/stages.py): every unnested position carries its list,
-- so unnesting positions over a book-length list would be quadratic.
with split as (
    select doc_id, regexp_extract_all(norm, '[\p{L}\p{N}_]+') as tokens
    from {{ documents }}
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
)
select doc_id, array_to_string(piece[i + 1 : i + $k], ' ') as shingle
from positions
