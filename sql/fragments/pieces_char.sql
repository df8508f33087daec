-- fragment: pieces (character shingles: a token is a code point)
-- reads:    documents(doc_id, norm)
-- params:   $k, $long_bytes
-- A long document (more than $long_bytes bytes of normalized text) as pieces, one row each
-- (doc_id, norm), so that sql/02_shingles.sql takes its shingles a vector of pieces at a time:
-- as one row, its code points were one list that the stage's lambdas copied several times over
-- (a 54 MB document took 7.1 GB; a 212 MB one was killed at 23 GB).
-- Piece j is the document's j-th run of 1,000 code points (RE2 repeats at most 1,000 times) and
-- the first k-1 code points after it (the next run's head, unnested beside it from a list of the
-- heads shifted by one: no window over the runs, which held them all): its windows are exactly
-- the shingles starting in that run.
-- A piece of fewer than k code points (the tail of the last run) starts no shingle and is left
-- out, unless it is the document's only one (fewer than k code points in all: one shingle, padded
-- as sql/fragments/padded_tokens.sql pads a short document). So the pieces' shingles are the
-- document's, each once per start (tests/test_long_documents.py).
with runs as (
    select doc_id, regexp_extract_all(norm, '(?s).{1,1000}') as runs
    from {{ documents }}
    where strlen(norm) > $long_bytes
),
pieces as (
    select
        doc_id,
        unnest(runs) as run,
        unnest(list_concat(list_transform(runs[2:], lambda r: left(r, $k - 1)), [''])) as overlap,
        len(runs) as runs
    from runs
)
select doc_id, run || overlap as norm from pieces where length(run) + length(overlap) >= $k or runs = 1
