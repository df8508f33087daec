-- stage:  verified
-- reads:  candidates(doc_id_a, doc_id_b, shared_bands), shingles(doc_id, fingerprint)
-- writes: verified(doc_id_a, doc_id_b, shared_bands, intersection, union_size, jaccard)
-- params: (none)
-- dialect: spark. Why it differs from sql/06_verified.sql (same rows): joined row by row, the
-- shingles of both documents of every candidate meet in a sort-merge join on (doc_id, fingerprint),
-- which sorts millions of rows per run (the bounding cost of this stage on Spark). Here each
-- involved document's distinct fingerprints are collected into one array (a partial aggregate,
-- no row shuffle), and the intersection size of two sets is size(array_intersect(a, b)) (a hash
-- set, no sort); n_shingles is the size of the array (the count(*) of sql/03_signatures.sql).
with involved as (
    select doc_id_a as doc_id from candidates
    union
    select doc_id_b from candidates
),
sets as (
    select s.doc_id, collect_list(s.fingerprint) as fingerprints
    from shingles as s
    left semi join involved as i on i.doc_id = s.doc_id
    group by s.doc_id
),
shared as (
    select
        c.doc_id_a,
        c.doc_id_b,
        c.shared_bands,
        cast(size(array_intersect(a.fingerprints, b.fingerprints)) as bigint) as intersection,
        cast(size(a.fingerprints) as bigint) + cast(size(b.fingerprints) as bigint) as sizes
    from candidates as c
    join sets as a on a.doc_id = c.doc_id_a
    join sets as b on b.doc_id = c.doc_id_b
)
select
    doc_id_a,
    doc_id_b,
    shared_bands,
    intersection,
    sizes - intersection as union_size,
    intersection / (sizes - intersection) as jaccard
from shared
