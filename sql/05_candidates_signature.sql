-- stage:  candidates
-- reads:  signatures(doc_id, mh_*)
-- writes: candidates(doc_id_a, doc_id_b, shared_bands)
-- params: $threshold, $num_perm
-- counts: candidates
-- scope:  pairs
-- lean:   between copies  (a row for each pair of distinct texts, by their groups' representatives: dedup.stages.Layout)
-- methods: signature
-- Every pair of documents whose MinHash estimate (share of equal signature values, MMDS ch. 3.3)
-- is at least the threshold, by comparing the signatures of all n(n-1)/2 pairs: no banding, so
-- no S-curve, but quadratic work; the estimate's error (s.d. ~sqrt(s(1-s)/num_perm)) still
-- loses pairs just above the threshold. shared_bands holds the number of equal values.
with compared as (
    select sa.doc_id as doc_id_a, sb.doc_id as doc_id_b, ({{ equal_minhash_count }}) as shared_bands
    from signatures as sa
    join signatures as sb on sa.doc_id < sb.doc_id
)
select doc_id_a, doc_id_b, shared_bands
from compared
where shared_bands >= $threshold * $num_perm
