-- stage:  shingles
-- reads:  documents(doc_id, norm)
-- writes: shingles(doc_id, fingerprint, h)
-- params: $k, $piece (char) or $k (word), as the shingle fragment uses them
-- batch:  documents
-- One row per distinct shingle of a document. The shingles and their 64-bit fingerprints
-- (character or word k-shingles, by --shingle-type; hash scheme v3) are defined once, in
-- sql/fragments/shingles_<type>.sql; h = the fingerprint's upper 32 bits, the input of the
-- MinHash permutations.
-- The documents are read as four slices by doc_id (a UNION ALL): DuckDB parallelizes a table
-- scan by row groups of 122,880 rows, so a corpus (or a batch) of fewer documents is one row
-- group, and the word shingling (which has no window to repartition it, unlike the char one) ran
-- on one thread (98 % of the CPU on one of 2 threads on the long workload, 50/50 with slices).
-- Each slice is a pipeline of its own; more slices cost ~12 ms of CPU each on a tiny corpus.
with document_slices as (
    select doc_id, norm from documents where doc_id % 4 = 0
    union all
    select doc_id, norm from documents where doc_id % 4 = 1
    union all
    select doc_id, norm from documents where doc_id % 4 = 2
    union all
    select doc_id, norm from documents where doc_id % 4 = 3
),
shingles as (
{{ shingles_of_slices }}
)
select distinct doc_id, fingerprint, (fingerprint >> 32)::uinteger as h
from shingles
