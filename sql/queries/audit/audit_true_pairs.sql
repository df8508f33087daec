-- query:  audit_true_pairs
-- reads:  audit_candidates(doc_id_s, doc_id_d), audit_shingles(doc_id, fingerprint),
--         shingles(doc_id, fingerprint), signatures(doc_id, n_shingles), documents(doc_id, id, norm)
-- writes: audit_true_pairs(doc_id_a, doc_id_b, jaccard)
-- params: $threshold
-- Every pair of a sampled document with a document of exact Jaccard >= t, once (doc_id_a <
-- doc_id_b), with the Jaccard computed as sql/06_verified.sql computes it (the same bits). The
-- candidates that are exact copies of one text (sql/fragments/exact_copies.sql) share one
-- intersection, counted once on their representative: a text with thousands of copies is joined
-- once per sampled document.
with involved as (
    select doc_id_d as doc_id from audit_candidates
),
copies as (
{{ exact_copies }}
),
rep_pairs as (
    select distinct c.doc_id_s, k.rep
    from audit_candidates as c
    join copies as k on k.doc_id = c.doc_id_d
),
shared as (
    select r.doc_id_s, r.rep, count(*) as intersection
    from rep_pairs as r
    join shingles as d on d.doc_id = r.rep
    join audit_shingles as s on (s.doc_id, s.fingerprint) = (r.doc_id_s, d.fingerprint)
    group by r.doc_id_s, r.rep
),
measured as (
    select
        least(c.doc_id_s, c.doc_id_d) as doc_id_a,
        greatest(c.doc_id_s, c.doc_id_d) as doc_id_b,
        x.intersection / (zs.n_shingles + zd.n_shingles - x.intersection) as jaccard
    from audit_candidates as c
    join copies as k on k.doc_id = c.doc_id_d
    join shared as x on x.doc_id_s = c.doc_id_s and x.rep = k.rep
    join signatures as zs on zs.doc_id = c.doc_id_s
    join signatures as zd on zd.doc_id = c.doc_id_d
)
select distinct doc_id_a, doc_id_b, jaccard from measured where jaccard >= $threshold
