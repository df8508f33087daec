-- fragment: shingle_rows (a document's distinct shingle fingerprints, before any is left out)
-- reads:    documents(doc_id, norm)   (or the relation the mark `documents` names: the distinct texts)
-- params:   $k, $long_bytes
-- One row (doc_id, fingerprint) per distinct shingle of each document read: the rows
-- of the shingles stage (sql/02_shingles.sql, which says how they are computed) before
-- --max-shingle-df leaves any out, and the rows the boilerplate stage counts
-- (sql/02_boilerplate.sql) over one document per distinct text.
-- A document's token fingerprints are one list (sql/fragments/tokens_<type>.sql); its k slices
-- fps[1 + j .. n - k + 1 + j], unnested side by side, give shingle i its k tokens as columns
-- f0 .. f{k-1} (dedup.sqltext.token_windows), and the fingerprint is an expression of columns
-- (dedup.sqltext.shingle_fingerprint). A DISTINCT over (doc_id, fingerprint) leaves each shingle
-- of a document once. On 200k generated documents of ~200 characters (char 9) this took 8.3 s
-- (15.8 CPU-s) where a lambda over the list (reading fps[i + j] for each token of a window), a
-- sort of each document's list and a filter of its repeats took 13.3 s (21.8 CPU-s); in a run on
-- 100k reviews (word 5), whose cost is the MD5 of each word, the stage took the same (5.6 s
-- against 5.7; benchmarks/results/results.md).
-- The documents are read as four slices by doc_id (a UNION ALL): DuckDB parallelizes a table
-- scan by row groups of 122,880 rows, so a corpus (or a batch) of fewer documents is one row
-- group, and its tokens would be made on one thread. Each slice is a pipeline of its own; more
-- slices cost ~12 ms of CPU each on a tiny corpus.
-- A long document (more than $long_bytes bytes of normalized text) takes a second path: its
-- pieces (sql/fragments/pieces_<type>.sql), each a row, give its windows a vector of pieces at a
-- time, without its text as one list copied by every slice (tests/test_long_documents.py); the
-- DISTINCT (which spills) leaves each of its shingles once, as for any document.
-- The first path reads it as empty (no tokens, no rows): a WHERE on its length there cost 1.6 s
-- of 4.7 on 100k reviews (word 5), this `if` nothing measurable.
with document_slices as (
    select doc_id, if(strlen(norm) > $long_bytes, '', norm) as norm from {{ documents }} where doc_id % 4 = 0
    union all
    select doc_id, if(strlen(norm) > $long_bytes, '', norm) as norm from {{ documents }} where doc_id % 4 = 1
    union all
    select doc_id, if(strlen(norm) > $long_bytes, '', norm) as norm from {{ documents }} where doc_id % 4 = 2
    union all
    select doc_id, if(strlen(norm) > $long_bytes, '', norm) as norm from {{ documents }} where doc_id % 4 = 3
),
tokens as (
{{ tokens_of_slices }}
),
long_pieces as (
{{ pieces }}
),
long_tokens as (
{{ tokens_of_pieces }}
),
windows as (
    select
        doc_id,
        {{ token_windows }}
    from tokens
    union all
    select
        doc_id,
        {{ token_windows }}
    from long_tokens
)
select distinct doc_id, {{ shingle_fingerprint }} as fingerprint
from windows
