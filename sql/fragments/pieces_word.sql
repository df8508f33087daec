-- fragment: pieces (word shingles: a token is a word)
-- reads:    documents(doc_id, norm)
-- params:   $k, $long_bytes
-- A long document (more than $long_bytes bytes of normalized text) as pieces, one row each
-- (doc_id, norm), as sql/fragments/pieces_char.sql cuts one for character shingles: its tokens
-- joined by one space (as sql/fragments/tokens_word.sql joins them), cut into runs of 1,000 words
-- (RE2 repeats at most 1,000 times), each run with the first k-1 words of the next: its windows
-- are exactly the shingles starting in that run. A piece of fewer than k words starts no shingle
-- and is left out, unless it is the document's only one (one shingle of all its words).
with joined as (
    select doc_id, trim(regexp_replace(norm, '[^\p{L}\p{N}_]{2,}|[^\p{L}\p{N}_ ]', ' ', 'g')) as joined
    from documents
    where strlen(norm) > $long_bytes
),
runs as (
    select doc_id, regexp_extract_all(joined, '[^ ]+(?: [^ ]+){0,999}') as runs
    from joined
),
numbered as (
    select doc_id, unnest(runs) as run, unnest(range(1, len(runs) + 1)) as j
    from runs
),
pieces as (
    select
        doc_id,
        run || if(
            $k = 1,
            '',
            coalesce(
                ' ' || nullif(
                    regexp_extract(
                        lead(run) over (partition by doc_id order by j),
                        '^[^ ]+(?: [^ ]+){0,' || greatest($k - 2, 0) || '}'
                    ),
                    ''
                ),
                ''
            )
        ) as norm,
        count(*) over (partition by doc_id) as runs
    from numbered
)
select doc_id, norm from pieces where len(string_split(norm, ' ')) >= $k or runs = 1
