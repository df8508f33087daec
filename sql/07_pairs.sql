-- stage:  pairs
-- reads:  verified(doc_id_a, doc_id_b, jaccard), documents(doc_id, id), signatures(doc_id, mh_*)
-- writes: pairs(doc_id_a, doc_id_b, id_a, id_b, jaccard, estimate)
-- params: $threshold, $num_perm
-- The result: one row per unordered pair with exact Jaccard >= threshold, plus the MinHash
-- estimate (share of equal signature values), sorted by jaccard descending, then ids.
select
    v.doc_id_a,
    v.doc_id_b,
    da.id as id_a,
    db.id as id_b,
    v.jaccard,
    ({{ equal_minhash_count }}) / $num_perm as estimate
from verified as v
join documents as da on da.doc_id = v.doc_id_a
join documents as db on db.doc_id = v.doc_id_b
join signatures as sa on sa.doc_id = v.doc_id_a
join signatures as sb on sb.doc_id = v.doc_id_b
where v.jaccard >= $threshold
order by v.jaccard desc, v.doc_id_a, v.doc_id_b
