-- fragment: verified_counts
-- reads:    candidate_reps(doc_id_a, doc_id_b, shared_bands, rep_a, rep_b), signatures(doc_id, n_shingles),
--           shared(rep_a, rep_b, intersection)   (candidate_reps, shared: CTEs of the statement)
-- params:   (none)
-- Every candidate's counts and exact Jaccard from its representatives' intersection: two copies of
-- one text have intersection = n_shingles. Written once for both engines (sql/06_verified.sql and
-- Spark's), which differ only in how `shared` intersects the sets.
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
