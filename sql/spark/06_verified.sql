-- stage:  verified
-- reads:  candidates(doc_id_a, doc_id_b, shared_bands), copies(doc_id, rep), shingles(doc_id, fingerprint), signatures(doc_id, n_shingles)
-- writes: verified(doc_id_a, doc_id_b, shared_bands, intersection, union_size, jaccard)
-- params: (none)
-- dialect: spark. Why it differs from sql/06_verified.sql (same rows): joined row by row, the
-- shingles of both documents of every candidate meet in a sort-merge join on (doc_id, fingerprint),
-- which sorts millions of rows per run (the bounding cost of this stage on Spark). Here each
-- involved document's distinct fingerprints are collected into one array (a partial aggregate,
-- no row shuffle), and the intersection size of two sets is size(array_intersect(a, b)) (a hash
-- set, no sort). Exact copies first, as in sql/06_verified.sql: the sets are intersected once per
-- pair of groups of documents with the same normalized text, on their representatives.
with
{{ candidate_reps }},
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
{{ verified_counts }}
