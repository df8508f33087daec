-- fragment: pieces (word shingles: a token is a word)
-- reads:    documents(doc_id, norm)
-- params:   $k, $long_bytes
-- A long document (more than $long_bytes bytes of normalized text) as pieces, one row each
-- (doc_id, norm), as sql/fragments/pieces_char.sql cuts one for character shingles: its tokens
-- joined by one space (as sql/fragments/tokens_word.sql joins them), cut into runs of 100 words,
-- or k for a larger k (RE2 took 33 s to cut 2 MB into runs of 1,000 words, 0.02 s into runs of
-- 100), each run with the first k-1 words of the next (unnested beside it, as the character pieces
-- are): its windows are exactly the shingles starting in that run. A piece of fewer than k words starts no shingle and is left out, unless it is the
-- document's only one (one shingle of all its words).
with joined as (
    select doc_id, trim(regexp_replace(norm, '[^\p{L}\p{N}_]{2,}|[^\p{L}\p{N}_ ]', ' ', 'g')) as joined
    from {{ documents }}
    where strlen(norm) > $long_bytes
),
runs as (
    select doc_id, regexp_extract_all(joined, '[^ ]+(?: [^ ]+){0,' || greatest(99, $k - 1) || '}') as runs
    from joined
),
pieces as (
    select
        doc_id,
        unnest(runs) as run,
        unnest(list_concat(
            list_transform(runs[2:], lambda r: regexp_extract(r, '^[^ ]+(?: [^ ]+){0,' || greatest($k - 2, 0) || '}')),
            ['']
        )) as head,
        len(runs) as runs
    from runs
)
select doc_id, norm
from (select doc_id, run || if($k = 1 or head = '', '', ' ' || head) as norm, runs from pieces)
where len(string_split(norm, ' ')) >= $k or runs = 1
