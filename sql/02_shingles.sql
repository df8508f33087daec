-- stage:  shingles
-- reads:  documents(doc_id, norm), all_shingles(doc_id, fingerprint), boilerplate(fingerprint)   (the last two: with --max-shingle-df)
-- writes: shingles(doc_id, fingerprint, h)
-- params: $k, $long_bytes
-- counts: shingles
-- scope:  documents
-- batch:  documents
-- order:  any
-- lean:   none  (recomputed from documents where a statement reads it: dedup.stages.Layout)
-- One row per distinct shingle of a document (sql/fragments/shingle_rows.sql; with
-- --max-shingle-df the all_shingles stage made them, sql/02_all_shingles.sql), but those
-- --max-shingle-df leaves out (sql/fragments/kept_*.sql). A shingle is k consecutive tokens (code points or
-- words, by --shingle-type), defined with their fingerprints in sql/fragments/tokens_<type>.sql.
-- Hash scheme v4: a shingle of tokens t_1 .. t_m has the fingerprint
--     H = 0;  for each token t in order:  H = rotl64(H, 1) xor f(t)
-- i.e. the xor of f(t_i) rotated left by m - i bits (mod 64): a cyclic polynomial ("BuzHash") of
-- the token fingerprints (Lemire and Kaser, "Recursive n-gram hashing is pairwise independent, at
-- best", 2010), computed by a generated expression with constant rotations (dedup/sqltext.py,
-- shingle_fingerprint). h = the fingerprint's upper 32 bits, the input of the MinHash permutations.
-- How the rows are made (a document's windows as columns, one DISTINCT; its slices and the long
-- documents' pieces): sql/fragments/shingle_rows.sql.
with {{ kept_rows }}
select doc_id, fingerprint, (fingerprint >> 32)::uinteger as h
from kept_rows
