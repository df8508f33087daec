-- stage:  verified
-- reads:  candidates(doc_id_a, doc_id_b, shared_bands), documents(doc_id, id, norm), shingles(doc_id, fingerprint), signatures(doc_id, n_shingles)
-- writes: verified(doc_id_a, doc_id_b, shared_bands, intersection, union_size, jaccard)
-- params: (none)
-- dialect: spark. Why it differs from sql/06_verified.sql (same rows): joined row by row, the
-- shingles of both documents of every candidate meet in a sort-merge join on (doc_id, fingerprint),
-- which sorts millions of rows per run (the bounding cost of this stage on Spark). Here each
-- involved document's distinct fingerprints are collected into one array (a partial aggregate,
-- no row shuffle), and the intersection size of two sets is size(array_intersect(a, b)) (a hash
-- set, no sort). Exact copies first, as in sql/06_verified.sql: the sets are intersected once per
-- pair of groups of documents with the same normalized text, on their representatives.
with involved as (
    select doc_id_a as doc_id from candidates
    union
    select doc_id_b from candidates
),
copies as (
{{ exact_copies }}
),
candidate_reps as (
    select
        c.doc_id_a,
        c.doc_id_b,
        c.shared_bands,
        least(ca.rep, cb.rep) as rep_a,
        greatest(ca.rep, cb.rep) as rep_b
    from candidates as c
    join copies as ca on ca.doc_id = c.doc_id_a
    join copies as cb on cb.doc_id = c.doc_id_b
),
rep_pairs as (
    select distinct rep_a, rep_b from candidate_reps where rep_a <> rep_b
),
reps as (
    select rep_a as doc_id from rep_pairs
    union
    select rep_b from rep_pairs
),
sets as (
    select s.doc_id, collect_list(s.fingerprint) as fingerprints
    from shingles as s
    left semi join reps as r on r.doc_id = s.doc_id
    group by s.doc_id
),
shared as (
    select p.rep_a, p.rep_b, cast(size(array_intersect(a.fingerprints, b.fingerprints)) as bigint) as intersection
    from rep_pairs as p
    join sets as a on a.doc_id = p.rep_a
    join sets as b on b.doc_id = p.rep_b
),
counted as (
    select
        c.doc_id_a,
        c.doc_id_b,
        c.shared_bands,
        na.n_shingles + nb.n_shingles as sizes,
        case when c.rep_a = c.rep_b then na.n_shingles else coalesce(s.intersection, 0) end as intersection
    from candidate_reps as c
    join signatures as na on na.doc_id = c.doc_id_a
    join signatures as nb on nb.doc_id = c.doc_id_b
    left join shared as s on s.rep_a = c.rep_a and s.rep_b = c.rep_b
)
select
    doc_id_a,
    doc_id_b,
    shared_bands,
    intersection,
    sizes - intersection as union_size,
    intersection / (sizes - intersection) as jaccard
from counted
