-- query:  audit_extra
-- reads:  pairs(doc_id_a, doc_id_b), audit_sample(doc_id), audit_true_pairs(doc_id_a, doc_id_b)
-- writes: (none: a SELECT for dedup audit)
-- params: (none)
-- The index's pairs of a sampled document that the exact search did not find (0 unless the index
-- is wrong: every pair it lists was verified).
select count(*)
from pairs as p
where (p.doc_id_a in (select doc_id from audit_sample) or p.doc_id_b in (select doc_id from audit_sample))
    and not exists (
        select 1 from audit_true_pairs as t where t.doc_id_a = p.doc_id_a and t.doc_id_b = p.doc_id_b
    )
