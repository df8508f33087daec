-- fragment: candidate_reps
-- reads:    candidates(doc_id_a, doc_id_b, shared_bands), copies(doc_id, rep)
-- params:   (none)
-- The verified stage's view of exact copies (sql/06_verified.sql and Spark's): each candidate with
-- the representatives of its two documents (rep_a <= rep_b), the distinct pairs of representatives
-- of two different groups, and those representatives: the sets are intersected for them only. A
-- document in no group of copies (no row in `copies`, sql/04_copies.sql) is its own representative.
candidate_reps as (
    select
        c.doc_id_a,
        c.doc_id_b,
        c.shared_bands,
        least(coalesce(ca.rep, c.doc_id_a), coalesce(cb.rep, c.doc_id_b)) as rep_a,
        greatest(coalesce(ca.rep, c.doc_id_a), coalesce(cb.rep, c.doc_id_b)) as rep_b
    from candidates as c
    left join copies as ca on ca.doc_id = c.doc_id_a
    left join copies as cb on cb.doc_id = c.doc_id_b
),
rep_pairs as (
    select distinct rep_a, rep_b from candidate_reps where rep_a <> rep_b
),
reps as (
    select rep_a as doc_id from rep_pairs
    union
    select rep_b from rep_pairs
)
