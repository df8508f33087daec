-- stage:  shingles
-- reads:  documents(doc_id, norm), boilerplate(fingerprint)   (boilerplate: with --max-shingle-df)
-- writes: shingles(doc_id, fingerprint, h)
-- params: $k, $long_bytes
-- counts: shingles
-- scope:  documents
-- batch:  documents
-- order:  any
-- lean:   none  (recomputed from documents where a statement reads it: dedup.stages.Layout)
-- One row per distinct shingle of a document (sql/fragments/shingle_rows.sql), but those
-- --max-shingle-df leaves out (sql/fragments/kept_*.sql). A shingle is k consecutive tokens (code points or
-- words, by --shingle-type), defined with their fingerprints in sql/fragments/tokens_<type>.sql.
-- Hash scheme v4: a shingle of tokens t_1 .. t_m has the fingerprint
--     H = 0;  for each token t in order:  H = rotl64(H, 1) xor f(t)
-- i.e. the xor of f(t_i) rotated left by m - i bits (mod 64): a cyclic polynomial ("BuzHash") of
-- the token fingerprints (Lemire and Kaser, "Recursive n-gram hashing is pairwise independent, at
-- best", 2010), computed by a generated expression with constant rotations (dedup/sqltext.py,
-- shingle_fingerprint). h = the fingerprint's upper 32 bits, the input of the MinHash permutations.
-- Shingle i of a document takes fps[i .. i+k-1]: the lambda runs over the shingles' first tokens
-- (x = fps[i]), so only the k-1 others are read by index (benchmarks/results/history.md, db150d1,
-- measures it). A document's fingerprints are one list, sorted,
-- and a fingerprint equal to the one before it is left out: distinct per document inside the row,
-- ~40 % less time than a distinct over every (doc_id, fingerprint) row (a hash table as large as
-- the table), and the same rows.
-- In sql/fragments/shingle_rows.sql: the documents are read as four slices by doc_id (a UNION ALL): DuckDB parallelizes a table
-- scan by row groups of 122,880 rows, so a corpus (or a batch) of fewer documents is one row
-- group, and its shingling would run on one thread. Each slice is a pipeline of its own; more
-- slices cost ~12 ms of CPU each on a tiny corpus.
-- A long document (more than $long_bytes bytes of normalized text) takes a second path: its
-- pieces (sql/fragments/pieces_<type>.sql), each a row, give its shingles a vector of pieces at a
-- time, and a DISTINCT over its rows (which spills) leaves each once: the same rows as the first
-- path gives it, without its text as one list copied by every lambda (tests/test_long_documents.py).
-- The first path reads it as empty (no tokens, no rows): a WHERE on its length there cost 1.6 s
-- of 4.7 on 100k reviews (word 5), this `if` nothing measurable.
with shingle_rows as (
{{ shingle_rows }}
),
{{ kept_rows }}
select doc_id, fingerprint, (fingerprint >> 32)::uinteger as h
from kept_rows
