-- stage:  pairs
-- reads:  verified(doc_id_a, doc_id_b, jaccard), documents(doc_id, id), copies(doc_id, rep), signatures(doc_id, mh_*)
-- writes: pairs(doc_id_a, doc_id_b, id_a, id_b, jaccard, estimate)
-- params: $threshold, $num_perm
-- counts: pairs
-- scope:  pairs
-- lean:   between copies  (a row for each pair of distinct texts, by their groups' representatives: dedup.stages.Layout)
-- The result: one row per unordered pair with exact Jaccard >= threshold, plus the MinHash
-- estimate (share of equal signature values). `dedup run` and `dedup export` sort it (jaccard
-- descending, then ids: sql/queries/export_pairs.sql); the table itself is not sorted.
-- Exact copies first: documents with the same normalized text have the same signature, so the
-- estimate is computed once per pair of groups, on their representatives (sql/04_copies.sql), and two copies have
-- every value equal ($num_perm / $num_perm, the same bits as the count): the 128-column
-- comparison of every pair cost 20 of the 29 s of 20M pairs, nearly all of them copies.
with kept as (
    select doc_id_a, doc_id_b, jaccard from verified where jaccard >= $threshold
),
kept_reps as (
    select
        k.doc_id_a,
        k.doc_id_b,
        da.id as id_a,
        db.id as id_b,
        k.jaccard,
        least(coalesce(ca.rep, k.doc_id_a), coalesce(cb.rep, k.doc_id_b)) as rep_a,
        greatest(coalesce(ca.rep, k.doc_id_a), coalesce(cb.rep, k.doc_id_b)) as rep_b
    from kept as k
    join documents as da on da.doc_id = k.doc_id_a
    join documents as db on db.doc_id = k.doc_id_b
    left join copies as ca on ca.doc_id = k.doc_id_a
    left join copies as cb on cb.doc_id = k.doc_id_b
),
rep_pairs as (
    select distinct rep_a, rep_b from kept_reps where rep_a <> rep_b
),
estimates as (
    select p.rep_a, p.rep_b, ({{ equal_minhash_count }}) / $num_perm as estimate
    from rep_pairs as p
    join signatures as sa on sa.doc_id = p.rep_a
    join signatures as sb on sb.doc_id = p.rep_b
)
select
    k.doc_id_a,
    k.doc_id_b,
    k.id_a,
    k.id_b,
    k.jaccard,
    case when k.rep_a = k.rep_b then $num_perm / $num_perm else e.estimate end as estimate
from kept_reps as k
left join estimates as e on e.rep_a = k.rep_a and e.rep_b = k.rep_b
